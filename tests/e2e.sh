#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/e2e.sh — the README's main job: the default pipeline on the bundled
# example, exactly as the README runs it; output and statistics checked by
# hand once (the arithmetic is in tests/e2e/README). Also: the pipeline
# built into passline is conf/default.ini.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
cd "$top_srcdir" || exit 99
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --stats examples/fsdp_step.pir
expect_status 0 "the default pipeline on examples/fsdp_step.pir"
expect_same_file "$T/out" tests/e2e/fsdp_step.expected.pir "the rewritten module is the expected one"
expect_same_file "$T/err" tests/e2e/fsdp_step.stderr "the report and statistics are the expected ones"
cp "$T/out" "$T/first.pir"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --stats examples/fsdp_step.pir
expect_same_file "$T/out" "$T/first.pir" "a second run gives byte-identical output"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --verify-each examples/fsdp_step.pir
expect_same_file "$T/out" "$T/first.pir" "--verify-each: every pass leaves valid IR"
# (but for the line that says where each came from)
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" --print-pipeline
grep -v '^; from ' "$T/out" >"$T/builtin.ini"
run "$PASSLINE" --plugin-dir "$PLUGIN_DIR" -p conf/default.ini --print-pipeline
grep -v '^; from ' "$T/out" >"$T/file.ini"
expect_same_file "$T/file.ini" "$T/builtin.ini" "the built-in pipeline is conf/default.ini"
done_testing
