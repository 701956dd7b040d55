#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/loops.sh — loops and calls through the real host and plugins: the
# option trip_counts on the command line for each counting pass, the
# trip counts of [loops] and -O loops.NAME=N every counting pass reads,
# the warning for a loop whose count nobody knows, and
# ScheduleEstimate's per-function file (its figures worked out by hand in
# tests/golden/pipeline/loop3.pir).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE"
PD="--plugin-dir $PLUGIN_DIR"
G="$top_srcdir/tests/golden/pipeline"
# the times below are worked out by hand under loop3.pir's model, the
# exact integer model of loop3.args (the four old keys at their defaults)
X="-O cost_model.peak_gflops=400000 -O cost_model.memory_gbps=2000"
X="$X -O cost_model.link_gbps=100 -O cost_model.latency_ns=10000"
cd "$T" || exit 99

stat() { # stat NAME FILE: the value of "NAME": N in the JSON FILE
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"
}

# The 3-trip loop given 5 trips: @body 5 times, @cond 6 (loop3.pir).
run "$P" $PD --passes=DetailDynInst,DynamicInstEstimator,ScheduleEstimate $X \
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
expect_err "remark: ScheduleEstimate: loop 'loop' in @main: 5 trips (set by [loops] or option trip_counts)" \
	"the remark names the loop and where its count comes from"

run "$P" $PD --passes=ScheduleEstimate -O ScheduleEstimate.trip_counts=loop=five \
	"$G/loop3.pir" -o bad.pir
expect_status 1 "a trip count that is not a number is an error in the pipeline"
expect_err "passline: error: -O: [pass ScheduleEstimate] option 'trip_counts': expected NAME=N[,NAME=N...] with N a whole number, not 'loop=five'" \
	"the message names the pass, the option and the text"
[ ! -e bad.pir ]
ok $? "and no output is written"

# ---- one setting for every pass: [loops] and -O loops.NAME=N ----
# The same 5 trips as above, given once: every counting pass takes them.
run "$P" $PD --passes=DetailDynInst,DynamicInstEstimator,ScheduleEstimate,Timeline $X \
	-O loops.loop=5 -O Timeline.trace=t.json "$G/loop3.pir" -o one.pir --stats-json one.json
expect_status 0 "-O loops.loop=5"
[ "$(stat Total_flops one.json)" = 83886104 ] && [ "$(stat est_inst_count one.json)" = 5 ] &&
	[ "$(stat step_ns one.json)" = 60227 ]
ok $? "DetailDynInst, DynamicInstEstimator and ScheduleEstimate read it (as with their own options)"
grep -q '"trips":5,' t.json
ok $? "and so does Timeline"

printf '[loops]\nloop = 5\n\n[pass DetailDynInst]\ntrip_counts = loop=2\n\n[pass ScheduleEstimate]\n' >loops.ini
run "$P" $PD -p loops.ini $X "$G/loop3.pir" -o two.pir --stats-json two.json
expect_status 0 "a [loops] section"
# 2 + 2 x 16777218 + 3 x 2; ScheduleEstimate as above
[ "$(stat Total_flops two.json)" = 33554444 ] && [ "$(stat step_ns two.json)" = 60227 ]
ok $? "a pass's own trip_counts wins over [loops] for that pass only"
run "$P" $PD -p loops.ini -O loops.loop=3 --print-pipeline
expect_out "$(printf '[loops]\nloop = 3')" "--print-pipeline prints [loops] with -O's value"
"$P" $PD -p loops.ini -O loops.loop=3 --print-pipeline >printed.ini &&
	"$P" $PD -p printed.ini --print-pipeline | tail -n +3 >again.ini &&
	tail -n +3 "$T/out" | cmp -s - again.ini
ok $? "and it reads back to the same pipeline"

# A name the module lacks is an error in the pipeline (exit 1), before any
# pass runs, with the nearest name.
run "$P" $PD --passes=ScheduleEstimate -O loops.lop=5 "$G/loop3.pir" -o bad.pir
expect_status 1 "-O loops.NAME for a loop the module lacks"
expect_err "passline: error: -O: loops.lop: no loop is named 'lop' in $G/loop3.pir (did you mean 'loop'?)" \
	"the message names the loop, the module and the nearest loop"
printf '[loops]\nzzz = 5\n' >bad.ini
run "$P" $PD -p bad.ini "$G/loop3.pir" -o bad.pir
expect_status 1 "[loops] naming a loop the module lacks"
expect_err "bad.ini:2: error: [loops] no loop is named 'zzz' in $G/loop3.pir (its loops: 'loop')" \
	"the message names the file and line, and the module's loops"
run "$P" $PD --passes=DetailDynInst -O DetailDynInst.trip_counts=loop=1,lopp=2 "$G/loop3.pir" -o bad.pir
expect_status 1 "a pass's trip_counts naming a loop the module lacks (no longer a failing pass)"
expect_err "passline: error: -O: [pass DetailDynInst] option 'trip_counts': no loop is named 'lopp' in $G/loop3.pir (did you mean 'loop'?)" \
	"the message names the pass and the loop"
run "$P" $PD --passes=DetailDynInst -O loops.loop=-1 "$G/loop3.pir" -o bad.pir
expect_status 1 "a trip count that is not a whole number"
expect_err "passline: error: -O: loops.loop: the trip count of loop 'loop' must be a whole number from 0 to 2^64 - 1, not '-1'" \
	"the message says which loop and what it takes"
printf '[loops]\nloop = 5\nloop = 6\n' >dup.ini
run "$P" $PD -p dup.ini "$G/loop3.pir" -o bad.pir
expect_status 1 "a loop named twice in [loops]"
expect_err "dup.ini:3: error: duplicate key 'loop' (first set on line 2)" "the duplicate is named"
[ ! -e bad.pir ]
ok $? "no output is written for any of them"

# ---- a loop whose trip count nobody knows ----
U="$top_srcdir/tests/loops/unknown.hlo"
run "$P" $PD --stats "$U" -o u.hlo --stats-json u.json
expect_status 0 "a loop bounded by a parameter"
expect_err "passline: warning: loop 'decode' in @main has an unknown trip count and is counted as 1 trip (set it with -O loops.decode=N)" \
	"--stats warns that the loop counts as 1 trip"
grep -q '"warnings": \["loop '"'"'decode'"'"' in @main has an unknown trip count and is counted as 1 trip (set it with -O loops.decode=N)"\]}$' u.json
ok $? "--stats-json has the warning"
# 2 x 64^3 = 524288 flops a trip, plus 6 outside the body's dot
[ "$(stat Total_flops u.json)" = 524294 ]
ok $? "the loop counts once ($(stat Total_flops u.json))"
run "$P" $PD --stats -O loops.decode=12 "$U" -o u.hlo --stats-json u12.json
expect_no_err "unknown trip count" "no warning once the loop's count is given"
! grep -q warnings u12.json && [ "$(stat Total_flops u12.json)" = 6291495 ]
ok $? "and every pass counts 12 trips (12 x 524288 + 39 = $(stat Total_flops u12.json))"
run "$P" $PD --passes=DetailDynInst -O DetailDynInst.trip_counts=decode=3 "$U" -o u.hlo
expect_no_err "unknown trip count" "no warning when the one counting pass has its own count"
run "$P" $PD --passes=DetailDynInst,ScheduleEstimate -O DetailDynInst.trip_counts=decode=3 "$U" -o u.hlo
expect_err "loop 'decode' in @main has an unknown trip count" "a warning when another counting pass has none"
run "$P" $PD --passes=BucketizeCCOp "$U" -o u.hlo --stats-json nb.json
expect_no_err "unknown trip count" "no warning when no pass counts loops"
run "$P" $PD -q "$U" -o u.hlo
expect_no_err "unknown trip count" "-q hides the warning"
# --compare counts loops for its table: the same warning, per pipeline,
# and the same setting
C="$top_srcdir/conf/compare-neuron.ini"
run "$P" $PD --compare -p "$C" "$U"
expect_status 0 "--compare on the loop of unknown trip count"
expect_err "passline: warning: $C: loop 'decode' in @main has an unknown trip count and is counted as 1 trip (set it with -O loops.decode=N)" \
	"--compare warns, naming the pipeline"
step1=$(awk '$1 == "neuron" { print $5 }' "$T/out")
run "$P" $PD --compare -p "$C" -O loops.decode=10 "$U"
step10=$(awk '$1 == "neuron" { print $5 }' "$T/out")
[ "$status" -eq 0 ] && [ -n "$step1" ] && [ "$step10" -gt "$step1" ] && ! grep -q "unknown trip count" "$T/err"
ok $? "-O loops.NAME=N sets the loop for --compare's table too ($step1 ns, then $step10 ns)"

# The per-function file, checked by hand against loop3.pir's comment.
run "$P" $PD --passes=ScheduleEstimate -O ScheduleEstimate.functions=f.json $X \
	"$G/loop3.pir" -o out.pir
expect_status 0 "ScheduleEstimate writes its per-function file"
expect_same_file "$top_srcdir/tests/loops/loop3.functions.json" f.json \
	"runs and per-execution figures of each function, the cost model in force"

done_testing
