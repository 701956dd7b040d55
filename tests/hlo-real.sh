#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-real.sh — real XLA HLO (HLO_DIR, by default the shared/hlo
# folder beside the source tree; never copied into it): every module reads;
# reading what passline writes gives the same IR; the parser goldens come
# back byte for byte; collective counts survive the import; the default
# pipeline runs on every dump and writes HLO that reads again. Skipped
# when the folder is absent.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ ! -d "$D" ]; then
	skip "no real HLO at $D (set HLO_DIR)"
	done_testing
	exit 0
fi
cd "$T" || exit 99

find "$D" -name '*.hlo' | LC_ALL=C sort >files
R="$top_srcdir/tests/hlo/refused-real.txt"
n=0
while read -r f; do
	n=$((n + 1))
	at=$(awk -v f="${f#"$D"/}" '$1 == f { print $2 }' "$R")
	if [ -n "$at" ]; then
		rm -f a.pir
		run $P --passes= "$f" -o a.pir
		[ "$status" -eq 1 ] && [ ! -e a.pir ] && grep -q "^$f:$at: error: " "$T/err"
		ok $? "${f#"$D"/} is refused at $at, as XLA's verifier refuses it; nothing written"
		continue
	fi
	run $P --passes= "$f" -o a.pir
	expect_status 0 "reads ${f#"$D"/}"
	run $P --passes= "$f" -o b.hlo
	s1=$status
	run $P --passes= b.hlo -o b.pir
	[ "$s1" -eq 0 ] && [ "$status" -eq 0 ] && cmp -s a.pir b.pir
	ok $? "round trip of ${f#"$D"/} is a fixed point of the IR"
done <files

# The short-form parser goldens: written back byte for byte.
same=0 total=0
for f in "$D"/xla-parser-roundtrip/short/*.hlo; do
	total=$((total + 1))
	$P --passes= "$f" -o g.hlo 2>/dev/null && cmp -s "$f" g.hlo && same=$((same + 1))
done
echo "# short parser goldens written back byte for byte: $same of $total"
[ "$same" -eq "$total" ]
ok $? "every short parser golden comes back byte for byte ($same of $total)"

count() { # count OP FILE: instructions of OP in the .pir FILE
	grep -c "= $1 " "$2" || true
}
L2="$D/dumps/kahfizulkifli__llama2__llama2_dp-1_tp-1_pp-1.hlo"
if [ -f "$L2" ]; then
	run $P --passes= "$L2" -o l2.pir
	[ "$(count all_gather l2.pir)" -eq 43 ]
	ok $? "the PyTorch/XLA Llama-2 step has 43 all-gathers after import"
	[ "$(count reduce_scatter l2.pir)" -eq 35 ]
	ok $? "and 35 reduce-scatters"
fi

# XLA's combiner tests: BucketizeCCOp with the test's threshold as its cap
# (and XLA's count of 256). The table records XLA's expected counts, ours,
# and why they differ; this checks that ours are still what it says.
TAB="$top_srcdir/tests/hlo/combiners.tsv"
grep -v '^#' "$TAB" | while IFS='	' read -r f kind cap xla mine agrees why; do
	[ -f "$D/xla-tests/$f" ] || continue
	before=$($P --passes= "$D/xla-tests/$f" | grep -c "= $kind ")
	$P --passes=BucketizeCCOp -O "BucketizeCCOp.${kind}_max_bytes=$cap" \
		-O BucketizeCCOp.max_count=256 "$D/xla-tests/$f" -o comb.pir
	after=$(grep -c "= $kind " comb.pir)
	[ "$before->$after" = "$mine" ]
	echo "$? $f: XLA $xla, passline $before->$after ($agrees)"
done >comb.out
while read -r st desc; do
	ok "$st" "combiner table: $desc"
done <comb.out

# Steps that scan over layers: every loop's trip count is found (no loop
# counted as 1 with a remark), and DetailDynInst's Total_flops lies between
# 1.0x and 1.25x of an independent count of their dot FLOPs times the trip
# counts (bench/hlo_dot_flops.py; the rest is elementwise work).
if command -v python3 >/dev/null 2>&1; then
	for f in "$D"/dumps/*.hlo; do
		grep -q ' while(' "$f" || continue
		b=${f#"$D"/}
		run $P --passes=DetailDynInst --remarks "$f" -o /dev/null
		expect_status 0 "DetailDynInst runs on $b"
		expect_no_err "is unknown: counted as 1" "every loop of $b has a known trip count"
		python3 "$top_srcdir/bench/hlo_dot_flops.py" "$f" --passline "$PASSLINE" \
			--plugin-dir "$PLUGIN_DIR" >ratio.out 2>&1
		r=$(sed -n 's/^ratio //p' ratio.out)
		echo "# $b: $(tr '\n' ' ' <ratio.out)"
		awk -v r="${r:-0}" 'BEGIN { exit !(r >= 1.0 && r <= 1.25) }'
		ok $? "Total_flops of $b is 1.0x to 1.25x its dot FLOPs x trip counts (${r:-none})"
	done
else
	skip "no python3: the FLOPs of scanned steps are not checked"
fi

# The default pipeline, conf/async.ini, conf/overlap.ini and
# conf/schedule.ini (where the tree has them) on every dump: the result is written as HLO that reads
# again.
for f in "$D"/dumps/*.hlo; do
	for pipe in "$top_srcdir/conf/default.ini" "$top_srcdir/conf/async.ini" \
		"$top_srcdir/conf/overlap.ini" "$top_srcdir/conf/schedule.ini"; do
		[ -f "$pipe" ] || continue
		run $P -p "$pipe" "$f" -o run.hlo
		expect_status 0 "$(basename "$pipe") runs on ${f#"$D"/}"
		run $P --passes= run.hlo -o run.pir
		expect_status 0 "and writes HLO that reads again"
	done
done

done_testing
