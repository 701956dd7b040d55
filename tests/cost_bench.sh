#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cost_bench.sh — make bench-cost's measurement, checked: a sample of
# the measured collectives and matmuls (../shared/costmodel, or
# $COSTMODEL_DIR), each a one-instruction HLO module through passline
# --passes=ScheduleEstimate -O cost_model.preset=DEVICE, must give the time
# the model's formula gives in Python (bench/cost_model_lib.py, the one the
# presets were fitted with). Skipped without python3 or the data.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
cd "$T" || exit 99

if ! have python3; then
	skip "python3 is not installed"
elif ! python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cost_model_lib as c, os
sys.exit(not os.path.isfile(os.path.join(c.data_dir(), "matmuls.csv")))' "$top_srcdir/bench"; then
	skip "no measured tables (set COSTMODEL_DIR)"
else
	run python3 "$top_srcdir/bench/bench_cost.py" --passline "$PASSLINE" \
		--plugin-dir "$PLUGIN_DIR" --rows 40 --check
	expect_status 0 "40 measured rows: passline's time is the formula's"
	expect_out "40 rows through passline, 0 differ from the formula" "every row agrees"
fi

done_testing
