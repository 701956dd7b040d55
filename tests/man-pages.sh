#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/man-pages.sh — the manual renders cleanly and is complete: every
# man page built from doc/*.in goes through groff with every warning on and
# says nothing, and every long option that `passline --help` lists is
# documented in passline(1).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${top_builddir:?}"

if ! command -v groff >/dev/null 2>&1; then
	skip "groff is not installed"
	done_testing
	exit 0
fi
for page in "$top_builddir"/doc/*.[157]; do
	[ -f "$page" ] || continue
	run groff -man -ww -z "$page"
	[ "$status" -eq 0 ] && [ ! -s "$T/err" ]
	ok $? "$(basename "$page") renders without a groff warning"
done

# Each long option of --help, as passline(1) spells it in roff (\-\-name).
$PASSLINE --help >"$T/help" 2>&1
grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u >"$T/opts"
[ -s "$T/opts" ]
ok $? "--help lists long options"
while read -r opt; do
	roff=$(printf '%s\n' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$roff" "$top_srcdir/doc/passline.1.in"
	ok $? "passline(1) documents $opt"
done <"$T/opts"
done_testing
