#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cost_model.sh — the pipeline's cost model: the [cost_model] section
# of a pipeline file, -O cost_model.KEY=VALUE, --print-pipeline and
# --list-passes, through the real host and real plugins.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE"
EX="$top_srcdir/tests/pir/example.pir"
PD="--plugin-dir $PLUGIN_DIR"
cd "$T" || exit 99

check_ini() { # check_ini EXPECTED-MESSAGE DESCRIPTION (reads p.ini)
	run "$P" $PD -p p.ini "$EX" -o out.pir
	expect_status 1 "$2"
	expect_err "$1" "$2: message"
	[ ! -e out.pir ]
	ok $? "$2: no output written"
}

# ---- the section ----
printf '[cost_model]\nlink_gbps = 25\nlatency_ns = 0\n\n[pass CountOps]\n' >p.ini
run "$P" $PD -p p.ini --print-pipeline
expect_status 0 "a [cost_model] section"
expect_out "[cost_model]" "--print-pipeline prints the section"
expect_out "link_gbps = 25" "--print-pipeline prints a key set in the file"
expect_out "latency_ns = 0" "--print-pipeline prints a key set to its minimum"
grep -q 'peak_gflops' "$T/out"
ok $((! $?)) "--print-pipeline leaves out the keys at their defaults"
cp "$T/out" printed.ini
run "$P" $PD -p printed.ini --print-pipeline
grep -v '^; from ' "$T/out" >printed2.ini
grep -v '^; from ' printed.ini >printed1.ini
expect_same_file printed1.ini printed2.ini "the printed pipeline reads back to the same pipeline"

printf '[cost_model]\nlink_gbp = 25\n' >p.ini
check_ini "p.ini:2: error: unknown key 'link_gbp' in [cost_model] (did you mean 'link_gbps'?)" \
	"an unknown key with a suggestion"
printf '[cost_model]\nbandwidth = 25\n' >p.ini
check_ini "p.ini:2: error: unknown key 'bandwidth' in [cost_model] (see passline --list-passes)" \
	"an unknown key without one"
printf '[cost_model]\npeak_gflops = 0\n' >p.ini
check_ini "p.ini:2: error: [cost_model] peak_gflops: 0 is below the minimum 1" "a value out of range"
printf '[cost_model]\nlatency_ns = -1\n' >p.ini
check_ini "p.ini:2: error: [cost_model] latency_ns: -1 is below the minimum 0" "a negative latency"
printf '[cost_model]\nmemory_gbps = fast\n' >p.ini
check_ini "p.ini:2: error: [cost_model] memory_gbps:" "a value that is not an integer"
printf '[cost_model]\nmemory_gbps = 99999999999999999999\n' >p.ini
check_ini "p.ini:2: error: [cost_model] memory_gbps:" "a value beyond int64"
printf '[cost_model]\nlink_gbps = 1\n\nlink_gbps = 2\n' >p.ini
check_ini "p.ini:4: error: duplicate key 'link_gbps' (first set on line 2)" "a duplicate key"
printf '[cost_model]\n[cost_model]\n' >p.ini
check_ini "p.ini:2: error: a second [cost_model] section" "two [cost_model] sections"

# ---- the command line ----
run "$P" $PD --passes=CountOps -O cost_model.memory_gbps=3000 -O cost_model.latency_ns=5 \
	--print-pipeline
expect_status 0 "-O cost_model.KEY=VALUE"
expect_out "memory_gbps = 3000" "-O sets a key of the cost model"
expect_out "latency_ns = 5" "-O sets another key"
printf '[cost_model]\nlink_gbps = 25\n\n[pass CountOps]\n' >p.ini
run "$P" $PD -p p.ini -O cost_model.link_gbps=50 --print-pipeline
expect_out "link_gbps = 50" "-O overrides the file's key"
run "$P" $PD -p p.ini -O cost_model.link_gbps=100 --print-pipeline
expect_out "link_gbps = 100" "an old key set back to its default is printed (it keeps the exact model)"
run "$P" $PD --passes=CountOps -O cost_model.preset=h100 -O cost_model.memory_gb_per_s=3350 \
	--print-pipeline
grep -q 'memory_gb_per_s' "$T/out"
ok $((! $?)) "a key set to the value its preset gives is not printed"
run "$P" $PD --passes=CountOps -O cost_model.lattency_ns=5 "$EX" -o out.pir
expect_status 1 "-O with an unknown key"
expect_err "-O: unknown key 'lattency_ns' in [cost_model] (did you mean 'latency_ns'?)" \
	"-O with an unknown key: message"
run "$P" $PD --passes=CountOps -O cost_model.link_gbps=0 "$EX" -o out.pir
expect_status 1 "-O with a value out of range"
expect_err "-O: [cost_model] link_gbps: 0 is below the minimum 1" \
	"-O with a value out of range: message"
[ ! -e out.pir ]
ok $? "-O with a bad value: no output written"

# ---- a pass reads it ----
# ScheduleEstimate on one all_reduce without factor: W = 0, so the makespan
# is latency_ns; a contract of 10^6 instances at 2 flops takes
# ceil(2000000 / peak_gflops).
printf 'func @f(%%x: f32[100]) {\n  %%r = all_reduce %%x {reduce = "add"} : f32[100]\n  %%c = tensor_contract %%r, %%r {num_dynamic_instances = 1000000} : f32[100]\n  return %%c\n}\n' >m.pir
printf '[cost_model]\nlatency_ns = 1234\npeak_gflops = 3\n\n[pass ScheduleEstimate]\n' >p.ini
run "$P" $PD -p p.ini m.pir -o out.pir --stats-json s.json
expect_status 0 "ScheduleEstimate under a [cost_model] section"
grep -q '"makespan_ns": 667901, "compute_ns": 666667, "comm_ns": 1234, "exposed_comm_ns": 1234' s.json
ok $? "the pass reads the file's cost model (1234 + ceil(2000000 / 3))"
run "$P" $PD -p p.ini -O cost_model.latency_ns=99 m.pir -o out.pir --stats-json s.json
grep -q '"makespan_ns": 666766, "compute_ns": 666667, "comm_ns": 99, "exposed_comm_ns": 99' s.json
ok $? "the pass reads -O cost_model.latency_ns over the file"
# without either: the h100 device. The contract takes its floor 5400 +
# 2000000 / 364500 (5.49) + the tf32 ramp 104 us x sqrt(2e6 / 1e12)
# (147.08) = 5552.57 -> 5553; the all-reduce 9552 as below.
run "$P" $PD --passes=ScheduleEstimate m.pir -o out.pir --stats-json s.json
grep -q '"makespan_ns": 15105, "compute_ns": 5553, "comm_ns": 9552, "exposed_comm_ns": 9552' s.json
ok $? "without either, the h100 device (9552 + 5553)"
grep -q '"cost_model": {"preset": "h100", "exact": false, ' s.json
ok $? "--stats-json names h100 when no preset was given"
# an old key at its default asks for the exact integer model: 10000 +
# ceil(2000000 / 400000)
run "$P" $PD --passes=ScheduleEstimate -O cost_model.peak_gflops=400000 m.pir -o out.pir \
	--stats-json s.json
grep -q '"makespan_ns": 10005, "compute_ns": 5, "comm_ns": 10000, "exposed_comm_ns": 10000' s.json
ok $? "an old key at its default keeps the exact integer model (10000 + ceil(2000000 / 400000))"
# a key set by its name without a preset: the h100 device under it. The
# contract (f32, at the tf32 peak) takes 2000 (the floor set) +
# 2000000 / 364500 (5.49) + a ramp of 104 us x sqrt(2e6 / 1e12) (147.08),
# its 1200 bytes at 3350 GB/s under the FLOPs: 2152.57 -> 2153; the
# all-reduce of one device sends nothing: 9430 + 400 / 348 (its copy,
# 1.15) + 6.005 us x sqrt(400 / 1e6) (its ramp, 120.1) = 9551.25 -> 9552
run "$P" $PD --passes=ScheduleEstimate -O cost_model.kernel_floor_us=2 m.pir -o out.pir \
	--stats-json s.json
grep -q '"makespan_ns": 11705, "compute_ns": 2153, "comm_ns": 9552, "exposed_comm_ns": 9552' s.json
ok $? "a key by name without a preset: the h100 device under it (9552 + 2153)"
grep -q '"cost_model": {"preset": "h100", ' s.json
ok $? "--stats-json names the preset it ran under"

# ---- conf/async.ini reads (its SplitAsyncCCOp step off: a disabled
# step's plugin is never loaded) and ends with ScheduleEstimate ----
run "$P" $PD -p "$top_srcdir/conf/async.ini" -O SplitAsyncCCOp.enabled=false --stats \
	"$top_srcdir/examples/fsdp_step.pir" -o out.pir
expect_status 0 "conf/async.ini runs"
expect_err "ScheduleEstimate.exposed_comm_ns               Communication time compute did not hide" \
	"conf/async.ini ends with ScheduleEstimate"

# ---- --list-passes ----
run "$P" $PD --list-passes
expect_status 0 "--list-passes"
expect_out "cost model: [cost_model] in a pipeline file, -O cost_model.KEY=VALUE" \
	"--list-passes lists the cost model"
expect_out "    peak_gflops (int, default 400000, 1..9223372036854775807): " \
	"--list-passes shows peak_gflops with its default and range"
expect_out "    memory_gbps (int, default 2000, 1..9223372036854775807): " "memory_gbps"
expect_out "    link_gbps (int, default 100, 1..9223372036854775807): " "link_gbps"
expect_out "    latency_ns (int, default 10000, 0..9223372036854775807): " "latency_ns"

# ---- presets, keys by name, decimals ----
rm -f out.pir
printf '[cost_model]\nkernel_floor_us = 1.5\npreset = h100\nlink_gbps = 25\n\n[pass CountOps]\n' >p.ini
run "$P" $PD -p p.ini --print-pipeline
expect_status 0 "a preset after a key"
expect_out "preset = h100" "--print-pipeline shows the preset"
expect_out "kernel_floor_us = 1.5" "--print-pipeline shows a decimal key over the preset"
expect_out "link_gbps = 25" "--print-pipeline shows an old key by its name"
grep -q 'peak_tflops' "$T/out"
ok $((! $?)) "--print-pipeline leaves out the keys the preset gives"
cp "$T/out" printed.ini
run "$P" $PD -p printed.ini --print-pipeline
grep -v '^; from ' "$T/out" >printed2.ini
grep -v '^; from ' printed.ini >printed1.ini
expect_same_file printed1.ini printed2.ini "a printed preset reads back to the same pipeline"
run "$P" $PD --passes=CountOps -O cost_model.preset=H100 --print-pipeline
expect_status 0 "a preset's name in capitals"
expect_out "preset = h100" "is the preset, printed as its name"
run "$P" $PD --passes=CountOps -O cost_model.preset=b200 -O cost_model.intra.latency_us=0.25 \
	--print-pipeline
expect_out "preset = b200" "-O cost_model.preset=NAME"
expect_out "intra.latency_us = 0.25" "-O with a dotted key and a decimal"
run "$P" $PD -p p.ini -O cost_model.preset=b200 --print-pipeline
expect_out "preset = b200" "-O overrides the file's preset"
printf '[cost_model]\npreset = h200x\n' >p.ini
check_ini "p.ini:2: error: [cost_model] preset: unknown preset 'h200x' (known: h100, b200" \
	"an unknown preset"
printf '[cost_model]\nkernel_floor_us = 2 us\n' >p.ini
check_ini "p.ini:2: error: [cost_model] kernel_floor_us: '2 us' is not a decimal number" \
	"a decimal key with a unit in its value"
printf '[cost_model]\ndevices_per_node = 4.5\n' >p.ini
check_ini "p.ini:2: error: [cost_model] devices_per_node: '4.5' is not a whole number" \
	"a whole-number key given a fraction"
printf '[cost_model]\nkernel_floor_s = 1\n' >p.ini
check_ini "p.ini:2: error: unknown key 'kernel_floor_s' in [cost_model] (did you mean 'kernel_floor_us'?)" \
	"an unknown new key with a suggestion"

# --stats-json records the model in force: a preset's every key by its new
# name, the exact integer model's four integer keys; a preset's all_gather time on one
# instruction is the same as the formula's (hand-computed in check_cost)
run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 -O cost_model.kernel_floor_us=3 \
	m.pir -o out.pir --stats-json s.json
expect_status 0 "ScheduleEstimate under a preset"
grep -q '"cost_model": {"preset": "h100", "exact": false, "peak_tflops.fp8": ' s.json
ok $? "--stats-json names the preset"
grep -q '"kernel_floor_us": 3,' s.json
ok $? "--stats-json records a key over the preset"
run "$P" $PD --passes=ScheduleEstimate -O cost_model.latency_ns=5 m.pir -o out.pir --stats-json s.json
grep -q '"cost_model": {"preset": null, "exact": true, "peak_gflops": 400000, "memory_gbps": 2000, "link_gbps": 100, "latency_ns": 5}' s.json
ok $? "--stats-json of the exact integer model says so, with its four integer keys"

# ---- --list-passes lists every key ----
run "$P" $PD --list-passes
expect_out "    preset (one of h100 b200): " "--list-passes lists the presets"
expect_out "    peak_tflops.bf16 (decimal): " "--list-passes lists a decimal key"
expect_out "    devices_per_node (int): " "--list-passes lists an integer key"

# ---- DetailDynInst counts the bytes of HLO ops: the exponential reads
# and writes f32[1024] (8192 bytes), the dynamic slice reads what it writes
# (2 x 64) and its index (4), the bitcast moves nothing: 8324 ----
printf 'HloModule m\n\nENTRY main {\n  p = f32[1024]{0} parameter(0)\n  i = s32[] parameter(1)\n  e = f32[1024]{0} exponential(p)\n  b = s32[1024]{0} bitcast(e)\n  ROOT d = s32[16]{0} dynamic-slice(b, i), dynamic_slice_sizes={16}\n}\n' >m.hlo
run "$P" $PD --passes=DetailDynInst m.hlo -o out.pir --stats-json s.json
expect_status 0 "DetailDynInst on HLO"
grep -q '"Total_bytes_moved": 8324' s.json
ok $? "Total_bytes_moved counts HLO ops by their bytes (8192 + 132)"

done_testing
