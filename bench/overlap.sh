# SPDX-License-Identifier: MIT
# bench/overlap.sh — sourced by bench/run.sh (it uses run_config, verdict,
# $gen, $passline, $plugins, $tmp, $target_n): OverlapBucketCCOp on the
# BENCH_TARGET_INSTS modules of both shapes, one function per layer and one
# function for the whole step, made asynchronous first (HoistFSDPCollectives
# and SplitAsyncCCOp). Reports the pass's time (median of BENCH_RUNS), its
# peak memory beyond parse + print of the same module, per instruction,
# against the targets (< 1 s, < 100 bytes), and conf/overlap.ini whole;
# then the pass with its search limits at 10x and 100x their defaults, on
# the single-function module and on a real step of $HLO_DIR/dumps.
# overlap_limits MODULE WHAT: OverlapBucketCCOp with its three search
# limits (max_coll_distance, max_position_distance,
# max_consecutive_failures) at 1x, 10x and 100x their defaults; its time
# stays near-linear in instructions (the search allowance).
overlap_limits() {
	for o_x in 1 10 100; do
		run_config "OverlapBucketCCOp x$o_x" "$1" --passes=OverlapBucketCCOp \
			-O "OverlapBucketCCOp.max_coll_distance=$((1000 * o_x))" \
			-O "OverlapBucketCCOp.max_position_distance=$((20 * o_x))" \
			-O "OverlapBucketCCOp.max_consecutive_failures=$((20 * o_x))"
		printf '  OverlapBucketCCOp, limits x%s, %s: %.3f s, %s MiB peak\n' \
			"$o_x" "$2" "$m_pass" "$m_rss"
	done
}
if [ -n "$target_n" ]; then
	for o_shape in "" --single-function; do
		"$gen" --target-insts "$target_n" --seed 1 $o_shape -o "$tmp/m.pir"
		"$passline" --plugin-dir "$plugins" --passes=HoistFSDPCollectives,SplitAsyncCCOp -q \
			"$tmp/m.pir" -o "$tmp/async.pir"
		o_insts=$(grep -c '^  ' "$tmp/async.pir")
		run_config parse+print "$tmp/async.pir" --passes=
		o_base=$m_rss
		run_config OverlapBucketCCOp "$tmp/async.pir" --passes=OverlapBucketCCOp
		o_pass=$m_pass
		o_bpi=$(awk -v n="$o_insts" -v r="$m_rss" -v b="$o_base" 'BEGIN {printf "%.1f", (r - b) * 1048576 / n}')
		run_config overlap "$tmp/m.pir" -p "$srcdir/conf/overlap.ini"
		printf '  OverlapBucketCCOp, %s, %s asynchronous instructions: %.3f s (< 1.0 s): %s\n' \
			"${o_shape:-one function per layer}" "$o_insts" "$o_pass" "$(verdict "$o_pass" 1.0)"
		printf '    peak memory beyond parse and print: %s bytes per instruction (< 100): %s\n' \
			"$o_bpi" "$(verdict "$o_bpi" 100)"
		printf '    conf/overlap.ini, read to print: %.3f s, %s MiB peak\n' "$m_total" "$m_rss"
		[ -n "$o_shape" ] && overlap_limits "$tmp/async.pir" "the single-function module"
	done
fi
# A real training step, when HLO_DIR has one: made asynchronous, then the
# limits at 1x, 10x and 100x.
o_step=${HLO_DIR:-}/dumps/xla-benchmarks__hlo_llama3_8b_bf16_activation_offloading_1x8.hlo
if [ -f "$o_step" ]; then
	"$passline" --plugin-dir "$plugins" --passes=HoistFSDPCollectives,SplitAsyncCCOp -q \
		"$o_step" -o "$tmp/step.hlo"
	overlap_limits "$tmp/step.hlo" "$(basename "$o_step")"
fi
