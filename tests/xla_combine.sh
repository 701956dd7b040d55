#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/xla_combine.sh — XlaCombineCCOp against XLA's own combiner tests:
# each module of HLO_DIR/xla-tests named in tests/xla_combine/table.tsv
# runs with the options its XLA test gives the combiner; the collectives
# of the test's kind before and after must be what the table records
# (XLA's expectation beside ours, with the reason where they differ), the
# result must verify and write HLO that reads again, and at least 95% of
# the rows must agree with XLA. Skipped when the folder is absent.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ ! -d "$D/xla-tests" ]; then
	skip "no XLA test modules at $D/xla-tests (set HLO_DIR)"
	done_testing
	exit 0
fi
cd "$T" || exit 99
TAB="$top_srcdir/tests/xla_combine/table.tsv"
count() { # count KIND FILE: collectives (and starts) of KIND in the .pir FILE
	grep -c "= $1 \|= $1_start " "$2" || true
}
rows=0 agree=0
grep -v '^#' "$TAB" >rows
while IFS='	' read -r name kind opts xla mine agrees why; do
	f="$D/xla-tests/$name.hlo"
	[ -f "$f" ] || continue
	rows=$((rows + 1))
	[ "$agrees" = yes ] && agree=$((agree + 1))
	set --
	for o in $opts; do
		set -- "$@" -O "XlaCombineCCOp.$o"
	done
	$P --passes= "$f" -o before.pir 2>/dev/null
	run $P --passes=XlaCombineCCOp --verify-each "$@" "$f" -o after.pir
	got="$(count "$kind" before.pir)->$(count "$kind" after.pir)"
	[ "$status" -eq 0 ] && [ "$got" = "$mine" ]
	ok $? "$name: $got (table: passline $mine, XLA $xla)"
	run $P --passes=XlaCombineCCOp "$@" "$f" -o after.hlo
	s1=$status
	run $P --passes= after.hlo -o again.pir
	[ "$s1" -eq 0 ] && [ "$status" -eq 0 ]
	ok $? "$name: the combined module is HLO that reads again"
	[ "$agrees" = yes ] || [ -n "$why" ]
	ok $? "$name: a row that differs from XLA says why"
done <rows
echo "# agreement with XLA: $agree of $rows"
[ "$rows" -gt 0 ] && [ $((agree * 100)) -ge $((rows * 95)) ]
ok $? "XlaCombineCCOp agrees with at least 95% of XLA's combiner tests ($agree of $rows)"
done_testing
