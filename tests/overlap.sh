#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/overlap.sh — properties of OverlapBucketCCOp on random asynchronous
# modules (tests/pl-genasync), checked by tests/overlap-check, which
# recomputes hiding and simulation without the pass's code: for every
# seed and a few option sets, the output verifies, the hiding nodes of a
# bucketed collective lie between its bucket's start and done, no hiding
# interval of a process group is newly enclosed, two runs (the second with
# --remarks, which must change nothing but what is reported) give the same
# bytes, and exposed_ns_before / exposed_ns_after are the simulation's.
# OVERLAP_SEEDS (default 150) seeds. Speaks TAP.
. "$top_srcdir/tests/tap.sh"
GEN="$top_builddir/tests/pl-genasync"
CHECK="$top_builddir/tests/overlap-check"
seeds=${OVERLAP_SEEDS:-150}
cm="-O cost_model.peak_gflops=1 -O cost_model.latency_ns=1000"
bucketed=0
s=1
while [ "$s" -le "$seeds" ]; do
	"$GEN" "$s" >"$T/in.pir" || exit 99
	case $((s % 4)) in
	0) opts="" ;;
	1) opts="-O OverlapBucketCCOp.bucket_exposed_first=false" ;;
	2) opts="-O OverlapBucketCCOp.multidtype=false -O OverlapBucketCCOp.max_bucket_bytes=40" ;;
	3) opts="-O OverlapBucketCCOp.max_position_distance=6 -O OverlapBucketCCOp.max_consecutive_failures=2" ;;
	esac
	fail=""
	for r in 1 2; do
		remarks=""
		[ "$r" = 2 ] && remarks=--remarks
		# shellcheck disable=SC2086 # options are words by design
		"$PASSLINE" --plugin-dir "$PLUGIN_DIR" --passes=OverlapBucketCCOp --verify-each $remarks \
			$cm $opts "$T/in.pir" -o "$T/out$r.pir" --stats-json "$T/stats$r.json" \
			2>"$T/err$r" || fail="the pass failed: $(head -c 300 "$T/err$r")"
	done
	if [ -z "$fail" ] && ! cmp -s "$T/out1.pir" "$T/out2.pir"; then
		fail="two runs differ"
	fi
	if [ -z "$fail" ]; then
		"$CHECK" "$T/in.pir" "$T/out1.pir" peak_gflops=1 latency_ns=1000 >"$T/check" 2>&1 ||
			fail=$(head -c 300 "$T/check")
	fi
	if [ -z "$fail" ]; then
		want=$(cat "$T/check")
		got=$(sed 's/.*"exposed_ns_before": \([0-9]*\), "exposed_ns_after": \([0-9]*\).*/exposed_ns_before=\1 exposed_ns_after=\2/' "$T/stats1.json")
		[ "$want" = "$got" ] || fail="stats say '$got', the simulation '$want'"
		n=$(sed 's/.*"num_buckets": \([0-9]*\).*/\1/' "$T/stats1.json")
		bucketed=$((bucketed + n))
	fi
	tap_n=$((tap_n + 1))
	if [ -z "$fail" ]; then
		echo "ok $tap_n - seed $s $opts"
	else
		echo "not ok $tap_n - seed $s $opts"
		printf '%s\n' "$fail" | awk '{ print "# " $0 }'
		echo "# (the module: $GEN $s)"
	fi
	s=$((s + 1))
done
# The seeds must exercise the pass, not only leave modules alone.
tap_n=$((tap_n + 1))
if [ "$bucketed" -ge "$seeds" ]; then
	echo "ok $tap_n - $bucketed buckets over $seeds seeds"
else
	echo "not ok $tap_n - only $bucketed buckets over $seeds seeds"
fi

# The search allowance: with the limits at 100 times their defaults, a
# step of 30k instructions in one function spends some buckets' allowance;
# those buckets stop growing (said by a remark), and what was made is
# still valid (overlap-check: hiding kept, the stats the simulation's).
# Both under the exact integer model (an old key at its default), which
# overlap-check simulates.
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
x100="-O OverlapBucketCCOp.max_coll_distance=100000 -O OverlapBucketCCOp.max_position_distance=2000
	-O OverlapBucketCCOp.max_consecutive_failures=2000 -O cost_model.latency_ns=10000"
"$top_builddir/bench/pl-genmodel" --target-insts 30000 --seed 1 --single-function -o "$T/step.pir" &&
	$P --passes=HoistFSDPCollectives,SplitAsyncCCOp "$T/step.pir" -o "$T/async.pir" || exit 99
# shellcheck disable=SC2086 # options are words by design
run $P --passes=OverlapBucketCCOp $x100 --remarks --stats-json "$T/x100.json" "$T/async.pir" \
	-o "$T/x100.pir"
expect_status 0 "the limits at 100 times their defaults"
expect_err "remark: OverlapBucketCCOp: stopped growing the bucket of %l0_norm1_f_s: its search allowance of 6144 units is spent" \
	"a bucket whose allowance is spent stops growing, and says so"
"$CHECK" "$T/async.pir" "$T/x100.pir" latency_ns=10000 >"$T/check" 2>&1 &&
	[ "$(cat "$T/check")" = "$(sed 's/.*"exposed_ns_before": \([0-9]*\), "exposed_ns_after": \([0-9]*\).*/exposed_ns_before=\1 exposed_ns_after=\2/' "$T/x100.json")" ]
ok $? "the buckets made within the allowance keep every hiding: $(head -c 200 "$T/check")"
done_testing
