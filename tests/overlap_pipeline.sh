#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/overlap_pipeline.sh — conf/overlap.ini (asynchronous collectives,
# then OverlapBucketCCOp, CoalesceCCOp and the estimators) on the bundled
# example, as the README runs it; output and statistics checked by hand
# once (the arithmetic is in tests/e2e/README).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
cd "$top_srcdir" || exit 99
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" -p conf/overlap.ini --stats examples/fsdp_step.pir
expect_status 0 "conf/overlap.ini on examples/fsdp_step.pir"
expect_same_file "$T/out" tests/e2e/fsdp_step.overlap.expected.pir "the rewritten module is the expected one"
expect_same_file "$T/err" tests/e2e/fsdp_step.overlap.stderr "the report and statistics are the expected ones"
cp "$T/out" "$T/first.pir"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" -p conf/overlap.ini --verify-each examples/fsdp_step.pir
expect_same_file "$T/out" "$T/first.pir" "--verify-each: every pass leaves valid IR, and a second run the same bytes"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --list-passes
for opt in bucket_exposed_first max_coll_distance max_bucket_bytes multidtype \
	max_position_distance max_consecutive_failures num_buckets num_collectives_bucketed \
	exposed_ns_before exposed_ns_after; do
	expect_out "$opt" "--list-passes shows OverlapBucketCCOp's $opt"
done
done_testing
