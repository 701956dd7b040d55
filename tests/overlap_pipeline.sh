#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/overlap_pipeline.sh — conf/overlap.ini (asynchronous collectives,
# then OverlapBucketCCOp, CoalesceCCOp and the estimators) on the bundled
# example, as the README runs it; output and statistics checked by hand
# once (the arithmetic is in tests/e2e/README). It runs in its own folder:
# the pipeline's Timeline steps write their pictures beside -o there.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
S=$(cd "$top_srcdir" && pwd)
cd "$T" || exit 99
mkdir work && cd work || exit 99
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" -p "$S/conf/overlap.ini" --stats "$S/examples/fsdp_step.pir" \
	-o out.pir
expect_status 0 "conf/overlap.ini on examples/fsdp_step.pir"
expect_same_file out.pir "$S/tests/e2e/fsdp_step.overlap.expected.pir" "the rewritten module is the expected one"
expect_same_file "$T/err" "$S/tests/e2e/fsdp_step.overlap.stderr" "the report and statistics are the expected ones"
for f in timeline-before.svg timeline-after.svg; do
	[ -s "$f" ] && grep -q '<svg' "$f"
	ok $? "the pipeline draws $f"
done
# the bucketing shows: @backward's two reduce-scatter starts are one bar
n_before=$(grep -c '= reduce_scatter_start, ' timeline-before.svg)
n_after=$(grep -c '= reduce_scatter_start, ' timeline-after.svg)
[ "$n_before" -eq 2 ] && [ "$n_after" -eq 1 ] &&
	grep -q '%r2_s, %r1_s = reduce_scatter_start' timeline-after.svg
ok $? "two reduce-scatter bars before the bucketing, one after ($n_before, then $n_after)"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" -p "$S/conf/overlap.ini" --verify-each "$S/examples/fsdp_step.pir" \
	-o second.pir
expect_same_file second.pir out.pir "--verify-each: every pass leaves valid IR, and a second run the same bytes"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --list-passes
for opt in bucket_exposed_first max_coll_distance max_bucket_bytes multidtype \
	max_position_distance max_consecutive_failures num_buckets num_collectives_bucketed \
	exposed_ns_before exposed_ns_after; do
	expect_out "$opt" "--list-passes shows OverlapBucketCCOp's $opt"
done
done_testing
