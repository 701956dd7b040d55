#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/reduce_scatter_creator.sh — ReduceScatterCreator on XLA's own test
# cases (reduce_scatter_creator_test.cc) and on cases of each refusal of
# XLA's rule, in tests/hlo/reduce_scatter_creator:
#   CASE.hlo           the input (its first lines say where it comes from)
#   CASE.expected.hlo  the HLO written after the pass (checked by hand)
#   CASE.remark        for a refused case (named no-*): the remark that says
#                      why; the module must come out as it went in.
# Every written module must read again; every run is repeated and must
# give the same bytes.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D="$top_srcdir/tests/hlo/reduce_scatter_creator"
cd "$T" || exit 99
created() { # the num_created statistic of the --stats-json file $1
	sed -n 's/.*"num_created": \([0-9]*\).*/\1/p' "$1"
}
for f in "$D"/*.hlo; do
	case $f in *.expected.hlo) continue ;; esac
	c=$(basename "$f" .hlo)
	run $P --passes=ReduceScatterCreator --remarks --verify-each --stats-json s1.json "$f" -o out1.hlo
	cp "$T/err" remarks
	expect_status 0 "$c: the pass runs"
	$P --passes=ReduceScatterCreator --remarks --stats-json s2.json "$f" -o out2.hlo 2>remarks2
	cmp -s out1.hlo out2.hlo && cmp -s s1.json s2.json && cmp -s remarks remarks2
	ok $? "$c: a second run gives the same module, statistics and remarks"
	if [ -f "$D/$c.expected.hlo" ]; then
		cmp -s out1.hlo "$D/$c.expected.hlo"
		ok $? "$c: the written module is $c.expected.hlo"
		[ "$(created s1.json)" -ge 1 ] && grep -q 'becomes a reduce-scatter' remarks
		ok $? "$c: counted and remarked as made"
	else
		$P --passes= "$f" -o same.hlo
		cmp -s out1.hlo same.hlo && [ "$(created s1.json)" = 0 ]
		ok $? "$c: refused, the module unchanged"
		grep -qF "$(cat "$D/$c.remark")" remarks
		ok $? "$c: the remark says why: $(cat "$D/$c.remark")"
	fi
	run $P --passes= --verify-each out1.hlo -o back.pir
	expect_status 0 "$c: the written module reads again"
done
done_testing
