# SPDX-License-Identifier: MIT
# bench/overlap.sh — sourced by bench/run.sh (it uses run_config, verdict,
# $gen, $passline, $plugins, $tmp, $target_n): OverlapBucketCCOp on the
# BENCH_TARGET_INSTS modules of both shapes, one function per layer and one
# function for the whole step, made asynchronous first (HoistFSDPCollectives
# and SplitAsyncCCOp). Reports the pass's time (median of BENCH_RUNS), its
# peak memory beyond parse + print of the same module, per instruction,
# against the targets (< 1 s, < 100 bytes), and conf/overlap.ini whole.
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
	done
fi
