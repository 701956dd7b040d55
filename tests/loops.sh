#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/loops.sh — loops and calls through the real host and plugins: the
# option trip_counts on the command line for each counting pass, and
# ScheduleEstimate's per-function file (its figures worked out by hand in
# tests/golden/pipeline/loop3.pir).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE"
PD="--plugin-dir $PLUGIN_DIR"
G="$top_srcdir/tests/golden/pipeline"
cd "$T" || exit 99

stat() { # stat NAME FILE: the value of "NAME": N in the JSON FILE
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"
}

# The 3-trip loop given 5 trips: @body 5 times, @cond 6 (loop3.pir).
run "$P" $PD --passes=DetailDynInst,DynamicInstEstimator,ScheduleEstimate \
	-O DetailDynInst.trip_counts=loop=5 -O DynamicInstEstimator.trip_counts=loop=5 \
	-O ScheduleEstimate.trip_counts=loop=5 "$G/loop3.pir" -o out.pir --stats-json s.json
expect_status 0 "trip_counts given to the three passes"
# 2 + 5 x 16777218 + 6 x 2
[ "$(stat Total_flops s.json)" = 83886104 ]
ok $? "DetailDynInst counts the body 5 times and the condition 6 ($(stat Total_flops s.json))"
[ "$(stat est_inst_count s.json)" = 5 ]
ok $? "DynamicInstEstimator counts the body 5 times"
# 0 (the constant) + 5 x 10044 + 6 x 1 + 10001
[ "$(stat step_ns s.json)" = 60227 ]
ok $? "ScheduleEstimate's step takes 5 bodies and 6 conditions ($(stat step_ns s.json))"

run "$P" $PD --passes=ScheduleEstimate -O ScheduleEstimate.trip_counts=loop=5 \
	--remarks "$G/loop3.pir" -o out.pir
expect_err "remark: ScheduleEstimate: loop 'loop' in @main: 5 trips (option trip_counts)" \
	"the remark names the loop and where its count comes from"

run "$P" $PD --passes=ScheduleEstimate -O ScheduleEstimate.trip_counts=loop=five \
	"$G/loop3.pir" -o bad.pir
expect_status 4 "a trip count that is not a number"
expect_err "error: ScheduleEstimate: option trip_counts: the trip count of loop 'loop' must be an integer >= 0" \
	"the message says which loop"
[ ! -e bad.pir ]
ok $? "and no output is written"

# The per-function file, checked by hand against loop3.pir's comment.
run "$P" $PD --passes=ScheduleEstimate -O ScheduleEstimate.functions=f.json \
	"$G/loop3.pir" -o out.pir
expect_status 0 "ScheduleEstimate writes its per-function file"
expect_same_file "$top_srcdir/tests/loops/loop3.functions.json" f.json \
	"runs and per-execution figures of each function, the cost model in force"

done_testing
