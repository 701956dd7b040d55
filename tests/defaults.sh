#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/defaults.sh — the default pipeline: PASSLINE_DEFAULT_PIPELINE names
# its file (empty: the built-in copy), and --print-pipeline says where the
# pipeline came from.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}" "${FIXTURE_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR --plugin-dir $FIXTURE_DIR"
EX="$top_srcdir/examples/fsdp_step.pir"
cd "$T" || exit 99

run env PASSLINE_DEFAULT_PIPELINE= $P --print-pipeline
expect_status 0 "an empty PASSLINE_DEFAULT_PIPELINE gives the built-in pipeline"
expect_out "; from the built-in default pipeline" "--print-pipeline names the built-in pipeline"
expect_out "[pass DetailDynInst]" "the built-in pipeline is the default one"

printf '[pipeline]\nname = mine\n[pass FxOptions]\ncount = 3\n' >mine.ini
run env PASSLINE_DEFAULT_PIPELINE="$T/mine.ini" $P --print-pipeline
expect_out "; from the file $T/mine.ini" "--print-pipeline names the file PASSLINE_DEFAULT_PIPELINE gave"
expect_out "name = mine" "PASSLINE_DEFAULT_PIPELINE's file is the default pipeline"
run env PASSLINE_DEFAULT_PIPELINE="$T/mine.ini" $P "$EX" -o out.pir
expect_err "FxOptions: flag=false count=3" "the pipeline of PASSLINE_DEFAULT_PIPELINE runs"
run env PASSLINE_DEFAULT_PIPELINE="$T/mine.ini" $P --passes=CountOps --print-pipeline
expect_out "; from --passes" "--passes wins over PASSLINE_DEFAULT_PIPELINE"
run env PASSLINE_DEFAULT_PIPELINE="$T/missing.ini" $P "$EX" -o none.pir
expect_status 1 "a PASSLINE_DEFAULT_PIPELINE naming no file"
expect_err "missing.ini: error: cannot open pipeline file" "the missing file is named"
[ ! -e none.pir ]
ok $? "no output is written when the default pipeline cannot be read"

run $P --help
expect_out "PASSLINE_DEFAULT_PIPELINE" "--help names PASSLINE_DEFAULT_PIPELINE"
expect_out "passline/default.ini" "--help names the installed pipeline file"
done_testing
