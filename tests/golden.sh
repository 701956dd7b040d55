#!/bin/sh
# tests/golden.sh — golden tests of the passes, through the real host and
# the real plugins. Layout: tests/golden/DIR/CASE.pir is an input;
#   CASE.expected.pir   the expected module (required when the run succeeds)
#   CASE.stats.json     the expected --stats-json (optional)
#   CASE.stderr         the expected standard error (optional; else empty)
#   CASE.args           extra arguments, one line (optional)
#   CASE.exit           the expected exit status (optional; else 0)
# DIR is the pass to run (--passes=DIR), except DIR "pipeline", whose cases
# give their whole pipeline in CASE.args. Every case runs twice and must
# give byte-identical results (determinism). Prints TAP.
set -u
: "${top_srcdir:?}" "${PASSLINE:?}" "${PLUGIN_DIR:?}"
golden="$top_srcdir/tests/golden"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

cases=$(cd "$golden" && find . -name '*.pir' ! -name '*.expected.pir' | sed 's|^\./||' | LC_ALL=C sort)
n=$(printf '%s\n' "$cases" | grep -c .)
echo "1..$n"
i=0
for c in $cases; do
	i=$((i + 1))
	dir=${c%%/*}
	base=${c%.pir}
	name=${base#*/}
	args=""
	[ -f "$golden/$base.args" ] && args=$(cat "$golden/$base.args")
	passes="--passes=$dir"
	[ "$dir" = pipeline ] && passes=""
	want_exit=0
	[ -f "$golden/$base.exit" ] && want_exit=$(cat "$golden/$base.exit")
	fail=""
	for run in 1 2; do
		out="$tmp/$run"
		mkdir -p "$out"
		# shellcheck disable=SC2086 # args are words by design
		(cd "$golden/$dir" && "$PASSLINE" --plugin-dir "$PLUGIN_DIR" $passes $args \
			"$name.pir" -o "$out/out.pir" --stats-json "$out/stats.json" \
			>"$out/stdout" 2>"$out/stderr")
		echo $? >"$out/exit"
	done
	got_exit=$(cat "$tmp/1/exit")
	if [ "$got_exit" != "$want_exit" ]; then
		fail="exit status $got_exit, expected $want_exit"
	elif [ "$want_exit" = 0 ] && ! cmp -s "$tmp/1/out.pir" "$golden/$base.expected.pir"; then
		fail="module differs from $base.expected.pir"
		diff -u "$golden/$base.expected.pir" "$tmp/1/out.pir" | sed 's/^/# /' | head -40
	elif [ -f "$golden/$base.stats.json" ] && ! cmp -s "$tmp/1/stats.json" "$golden/$base.stats.json"; then
		fail="stats differ from $base.stats.json"
		diff -u "$golden/$base.stats.json" "$tmp/1/stats.json" | sed 's/^/# /'
	elif [ -f "$golden/$base.stderr" ] && ! cmp -s "$tmp/1/stderr" "$golden/$base.stderr"; then
		fail="standard error differs from $base.stderr"
		diff -u "$golden/$base.stderr" "$tmp/1/stderr" | sed 's/^/# /' | head -40
	elif [ ! -f "$golden/$base.stderr" ] && [ -s "$tmp/1/stderr" ]; then
		fail="unexpected standard error"
		sed 's/^/# /' "$tmp/1/stderr" | head -20
	else
		for f in exit stdout stderr out.pir stats.json; do
			if [ -e "$tmp/1/$f" ] && ! cmp -s "$tmp/1/$f" "$tmp/2/$f"; then
				fail="second run differs in $f (not deterministic)"
			fi
		done
	fi
	if [ -n "$fail" ]; then
		echo "not ok $i - $base: $fail"
	else
		echo "ok $i - $base"
	fi
	rm -rf "$tmp/1" "$tmp/2"
done
