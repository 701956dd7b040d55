#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/xla_flags.sh — XLA's flags as configuration: conf/xla-gpu.ini on a
# small hand-made step (tests/hlo/xla_flags.hlo) and on a real dump
# (HLO_DIR, when present) under XLA_FLAGS and --xla-flags: the flags change
# the result, both sources give the same bytes, --xla-flags wins, a value
# XLA refuses is an error that writes nothing, a flag passline does not
# model is named once, --print-pipeline shows where each flag came from and
# --stats-json records them.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
XG="$top_srcdir/conf/xla-gpu.ini"
IN="$top_srcdir/tests/hlo/xla_flags.hlo"
cd "$T" || exit 99
# ReduceScatterCreator is a plugin of its own: when it is not built, its
# step is turned off (a disabled step needs no plugin)
NO_RSC=""
[ -e "$PLUGIN_DIR/ReduceScatterCreator.so" ] || NO_RSC="-O ReduceScatterCreator.enabled=false"
starts() { # collectives left (asynchronous starts and synchronous ones) in a .pir file
	grep -c '= [a-z_]*_start \|= all_gather \|= reduce_scatter \|= all_reduce ' "$1" || true
}
xg() { # xg ARGS...: conf/xla-gpu.ini on the small step
	# shellcheck disable=SC2086 # NO_RSC is words by design
	run $P -p "$XG" $NO_RSC "$@"
}

# ---- a combine threshold changes the result ----
xg "$IN" -o none.pir --stats-json none.json
expect_status 0 "conf/xla-gpu.ini runs on the small step with no XLA flags"
[ "$(starts none.pir)" -eq 2 ]
ok $? "XLA's default thresholds combine the 3 all-reduces and the 2 all-gathers into 2"
grep -q '"xla_flags"' none.json
ok $((! $?)) "without XLA flags --stats-json records none"

run env XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes=8192" \
	$P -p "$XG" $NO_RSC "$IN" -o env.pir --stats-json env.json
expect_status 0 "XLA_FLAGS with a combine threshold"
[ "$(starts env.pir)" -eq 3 ]
ok $? "an all-reduce threshold of 8192 bytes leaves 3 collectives (two 4 KiB all-reduces fit)"
grep -q '"num_all_reduces_combined": 2' env.json
ok $? "two all-reduces are combined under the threshold"
grep -qF '"xla_gpu_all_reduce_combine_threshold_bytes": "8192"' env.json
ok $? "--stats-json records the flag's value"
grep -qF '"xla_gpu_all_gather_combine_threshold_bytes": "31457287"' env.json
ok $? "--stats-json records the flags at XLA's default too"

xg "$IN" -o opt.pir --stats-json opt.json \
	--xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=8192"
expect_status 0 "--xla-flags with the same flag"
expect_same_file env.pir opt.pir "XLA_FLAGS and --xla-flags give the same module"
expect_same_file env.json opt.json "XLA_FLAGS and --xla-flags give the same statistics"

run env XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes=0" \
	$P -p "$XG" $NO_RSC "$IN" -o wins.pir \
	--xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=8192"
expect_status 0 "a flag in both XLA_FLAGS and --xla-flags"
expect_same_file env.pir wins.pir "--xla-flags wins over XLA_FLAGS"

run env XLA_FLAGS="--xla_gpu_enable_all_gather_combine_by_dim=true" \
	$P -p "$XG" $NO_RSC "$IN" -o both.pir \
	--xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=8192"
[ "$status" -eq 0 ] && [ "$(starts both.pir)" -eq 4 ]
ok $? "--xla-flags wins flag by flag: XLA_FLAGS's other flags still apply (4 collectives)"

xg "$IN" -o zero.pir --xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=0"
xg "$IN" -o neg.pir --xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=-5"
expect_status 0 "a negative threshold is taken, as XLA takes it"
[ "$(starts zero.pir)" -eq 4 ]
ok $? "a threshold of 0 combines no all-reduce"
expect_same_file zero.pir neg.pir "a negative threshold combines nothing, as 0"

xg "$IN" -o cmd.pir -O XlaCombineCCOp.all_reduce_threshold_in_bytes=0 \
	--xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=8192"
expect_same_file zero.pir cmd.pir "-O wins over the XLA flags"

# ---- values XLA refuses ----
echo "old" >kept.pir
for bad in abc 12x "" 99999999999999999999; do
	run env XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes=$bad" \
		$P -p "$XG" $NO_RSC "$IN" -o new.pir
	[ "$status" -eq 1 ] && grep -qF "XLA_FLAGS: --xla_gpu_all_reduce_combine_threshold_bytes=$bad" "$T/err"
	ok $? "XLA_FLAGS threshold '$bad' is refused with exit 1, naming XLA_FLAGS and the flag"
	[ ! -e new.pir ]
	ok $? "and no output is written"
done
xg "$IN" -o kept.pir --xla-flags="--xla_gpu_enable_latency_hiding_scheduler=yes"
expect_status 1 "a boolean XLA does not take"
expect_err "--xla-flags: --xla_gpu_enable_latency_hiding_scheduler=yes" "the error names --xla-flags and the flag"
[ "$(cat kept.pir)" = old ]
ok $? "the old output file is untouched"
xg "$IN" -o new.pir --xla-flags="--xla_gpu_memory_limit_slop_factor=3000000000"
expect_status 1 "an int32 flag out of range"
xg "$IN" -o new.pir --xla-flags="--xla_gpu_reduce_scatter_combine_threshold_bytes"
expect_status 1 "a threshold without a value (XLA refuses it)"
xg "$IN" -o new.pir --xla-flags="--xla_gpu_disable_async_collectives=ALLFOO"
expect_status 1 "a collective kind XLA does not know"
expect_err "'ALLFOO'" "the unknown kind is named"
xg "$IN" -o new.pir --xla-flags="--xla_gpu_pipeline_all_gather=sometimes"
expect_status 1 "a pipelining mode XLA does not know"
[ ! -e new.pir ]
ok $? "no output after any refused value"

# ---- the boolean forms XLA takes ----
for form in "--xla_gpu_enable_latency_hiding_scheduler" \
	"--xla_gpu_enable_latency_hiding_scheduler=TRUE" "--xla_gpu_enable_latency_hiding_scheduler=1"; do
	xg "$IN" -o lhs.pir --stats-json lhs.json --xla-flags="$form"
	[ "$status" -eq 0 ] && grep -q '"LatencyHidingScheduler"' lhs.json
	ok $? "$form turns the latency hiding scheduler on"
done
xg "$IN" -o lhs.pir --stats-json lhs.json --xla-flags="--xla_gpu_enable_latency_hiding_scheduler=0"
grep -q '"LatencyHidingScheduler"' lhs.json
ok $((! $?)) "=0 leaves it off"

# ---- flags passline does not model ----
xg "$IN" -o un.pir --xla-flags="--xla_gpu_enable_triton_gemm=false --xla_gpu_graph_level=0"
expect_status 0 "flags passline does not model are no error"
[ "$(grep -c 'not modelled' "$T/err")" -eq 1 ]
ok $? "they are named in one line"
expect_err "not modelled: xla_gpu_enable_triton_gemm, xla_gpu_graph_level" "the line names both"
expect_same_file none.pir un.pir "and change nothing"
xg "$IN" -o un.pir -q --xla-flags="--xla_gpu_enable_triton_gemm=false"
[ ! -s "$T/err" ]
ok $? "-q silences the line"
xg "$IN" -o un.pir --xla-flags="--xla_disable_hlo_passes=rematerialization"
expect_err "not modelled: xla_disable_hlo_passes=rematerialization" \
	"a disabled XLA pass passline does not model is named"

# ---- what the flags drive ----
xg "$IN" -o dis.pir --xla-flags="--xla_disable_hlo_passes=gpu-all-reduce-combiner"
[ "$status" -eq 0 ] && [ "$(starts dis.pir)" -eq 4 ]
ok $? "xla_disable_hlo_passes=gpu-all-reduce-combiner leaves the all-reduces alone"
xg "$IN" -o dis2.pir --xla-flags="--xla_disable_hlo_passes='all-reduce-combiner'"
expect_same_file dis.pir dis2.pir "a quoted value, and XLA's name of the generic combiner"
xg "$IN" -o sync.pir --xla-flags="--xla_gpu_disable_async_collectives=allreduce"
[ "$status" -eq 0 ] && grep -q '= all_reduce ' sync.pir && ! grep -q 'all_reduce_start' sync.pir &&
	grep -q 'all_gather_start' sync.pir
ok $? "xla_gpu_disable_async_collectives=allreduce keeps the all-reduce synchronous only"
xg "$IN" -o sync2.pir --xla-flags="--xla_gpu_disable_async_collectives=ALLCOLLECTIVES"
[ "$status" -eq 0 ] && ! grep -q '_start ' sync2.pir
ok $? "ALLCOLLECTIVES keeps every collective synchronous"

printf '%s\n' "--xla_gpu_all_reduce_combine_threshold_bytes=8192" >flags.txt
run env XLA_FLAGS="$T/flags.txt" $P -p "$XG" $NO_RSC "$IN" -o file.pir
expect_same_file env.pir file.pir "XLA_FLAGS naming a file of flags"
run env XLA_FLAGS="$T/missing.txt" $P -p "$XG" $NO_RSC "$IN" -o new.pir
expect_status 1 "XLA_FLAGS naming a file that does not exist"

printf '[pipeline]\nname = small\n[pass XlaCombineCCOp]\n' >small.ini
run $P -p small.ini "$IN" -o s.pir --remarks \
	--xla-flags="--xla_gpu_enable_latency_hiding_scheduler=true"
expect_status 0 "a flag whose pass is not in the pipeline"
expect_err "no LatencyHidingScheduler in the pipeline: nothing to drive" \
	"--remarks says it has nothing to drive"

# ---- --print-pipeline shows the flags and their sources ----
run env XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes=8192 --xla_gpu_memory_limit_slop_factor=90" \
	$P -p "$XG" $NO_RSC --print-pipeline --xla-flags="--xla_gpu_enable_latency_hiding_scheduler"
expect_status 0 "--print-pipeline with XLA flags"
expect_out "--xla_gpu_all_reduce_combine_threshold_bytes=8192  (XLA_FLAGS: XlaCombineCCOp.all_reduce_threshold_in_bytes = 8192)" \
	"--print-pipeline shows a flag from XLA_FLAGS and the option it sets"
expect_out "--xla_gpu_enable_latency_hiding_scheduler=true  (--xla-flags: LatencyHidingScheduler.enabled = true)" \
	"--print-pipeline shows a flag from --xla-flags"
expect_out "--xla_gpu_all_gather_combine_threshold_bytes=31457287  (XLA default)" \
	"--print-pipeline shows a flag at XLA's default"
expect_out "memory_limit_slop_factor = 90" "xla_gpu_memory_limit_slop_factor sets the scheduler's limit"
sed -n '/^\[pass LatencyHidingScheduler\]/,/^$/p' "$T/out" >lhs-section.txt
grep -q "enabled = false" lhs-section.txt
ok $((! $?)) "the flag turned the scheduler on in the printed pipeline"
cp "$T/out" printed.ini
run $P --print-pipeline -p printed.ini $NO_RSC
expect_status 0 "the printed pipeline reads back"
sed -n '/^\[pass XlaCombineCCOp\]/,/^$/p' "$T/out" | grep -q "all_reduce_threshold_in_bytes = 8192"
ok $? "with the flag's option in it"

long=$(printf 'pass-%s,' $(seq 1 60))
run $P -p "$XG" $NO_RSC --print-pipeline --xla-flags="--xla_disable_hlo_passes=$long --xla_gpu_enable_triton_gemm"
cp "$T/out" long.ini
awk 'length($0) > 198 { bad = 1 } END { exit bad }' long.ini
ok $? "--print-pipeline keeps the flags' lines within a pipeline file's limit"
run $P --print-pipeline -p long.ini $NO_RSC
expect_status 0 "and the printed pipeline reads back"

run $P -p "$XG" $NO_RSC --print-pipeline --xla-flags="--xla_gpu_enable_while_loop_unrolling=while_loop_unrolling_double_buffer"
expect_out "--xla_gpu_enable_while_loop_unrolling=WHILE_LOOP_UNROLLING_DOUBLE_BUFFER  (--xla-flags:" \
	"XLA's loop unrolling mode is taken in any case"
xg "$IN" -o new.pir --xla-flags="--xla_gpu_enable_while_loop_unrolling=TWICE"
expect_status 1 "a loop unrolling mode XLA does not know"
xg "$IN" -o un.pir --xla-flags="--xla_gpu_enable_while_loop_unrolling=WHILE_LOOP_UNROLLING_FULL_UNROLL"
expect_err "not modelled: xla_gpu_enable_while_loop_unrolling=WHILE_LOOP_UNROLLING_FULL_UNROLL" \
	"a full unroll is named as not modelled"

# the pipeliner's flags, when the plugin is built
if [ -e "$PLUGIN_DIR/CollectivePipeliner.so" ]; then
	printf '[pipeline]\nname = pipe\n[pass CollectivePipeliner]\n' >pipe.ini
	run $P -p pipe.ini --print-pipeline \
		--xla-flags="--xla_gpu_enable_pipelined_all_gather=true --xla_gpu_pipeline_all_reduce=on --xla_gpu_enable_pipelined_reduce_scatter=false"
	expect_out "pipeline_all_gather = true" "xla_gpu_enable_pipelined_all_gather drives the pipeliner"
	expect_out "pipeline_all_reduce = true" "xla_gpu_pipeline_all_reduce=on drives the pipeliner"
	expect_out "pipeline_reduce_scatter = false" "xla_gpu_enable_pipelined_reduce_scatter=false too"
else
	skip "CollectivePipeliner is not built: its flags have nothing to drive"
fi

# ---- XlaCombineCCOp's per-kind options (what the thresholds drive) ----
run $P --passes=XlaCombineCCOp "$IN" -o general.pir -O XlaCombineCCOp.combine_threshold_in_bytes=8192
run $P --passes=XlaCombineCCOp "$IN" -o kind.pir -O XlaCombineCCOp.all_reduce_threshold_in_bytes=8192 \
	-O XlaCombineCCOp.all_gather_threshold_in_bytes=8KiB
[ "$status" -eq 0 ] && [ "$(starts kind.pir)" -eq 4 ]
ok $? "per-kind thresholds: two all-reduces combine, the all-gathers of two dimensions do not"
expect_same_file general.pir kind.pir "the same as the general threshold"
run $P --passes=XlaCombineCCOp "$IN" -o dim.pir -O XlaCombineCCOp.all_gather_combine_by_dim=false
[ "$status" -eq 0 ] && [ "$(starts dim.pir)" -eq 2 ]
ok $? "all_gather_combine_by_dim=false combines the all-gathers across dimensions"
run $P --passes=XlaCombineCCOp "$IN" -o new.pir -O XlaCombineCCOp.reduce_scatter_threshold_in_bytes=lots
expect_status 1 "a per-kind threshold that is not a byte count"
expect_err "option 'reduce_scatter_threshold_in_bytes'" "the option is named"

# ---- --compare applies the flags to each pipeline ----
run $P --compare -p "$XG" $NO_RSC "$IN" --xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=8192"
expect_status 0 "--compare with --xla-flags"
c1=$(awk '$1 == "xla-gpu" { print $2 }' "$T/out")
run $P --compare -p "$XG" $NO_RSC "$IN"
c2=$(awk '$1 == "xla-gpu" { print $2 }' "$T/out")
[ -n "$c1" ] && [ "$c1" = 3 ] && [ "$c2" = 2 ]
ok $? "the table counts the collectives the flags leave ($c2 -> $c1)"

run $P --help
expect_out "--xla-flags" "--help names --xla-flags"
expect_out "XLA_FLAGS" "--help names XLA_FLAGS"

# ---- a real step (HLO_DIR; never copied here) ----
D=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps
REAL="$D/xla-benchmarks__hlo_llama31_70b_bf16_16x8.hlo"
if [ -r "$REAL" ]; then
	RECIPE="--xla_gpu_enable_latency_hiding_scheduler=true --xla_gpu_all_reduce_combine_threshold_bytes=2147483648 --xla_gpu_all_gather_combine_threshold_bytes=2147483648 --xla_gpu_reduce_scatter_combine_threshold_bytes=33554432 --xla_gpu_enable_pipelined_all_gather=true --xla_gpu_enable_pipelined_reduce_scatter=true --xla_gpu_enable_pipelined_all_reduce=true --xla_gpu_enable_while_loop_double_buffering=true --xla_gpu_enable_all_gather_combine_by_dim=false --xla_gpu_enable_reduce_scatter_combine_by_dim=false --xla_disable_hlo_passes=rematerialization --xla_gpu_enable_triton_gemm=false --xla_gpu_graph_level=0 --xla_gpu_enable_highest_priority_async_stream=true"
	xg "$REAL" -o real-default.pir
	expect_status 0 "conf/xla-gpu.ini on the 70B step"
	run env XLA_FLAGS="$RECIPE" $P -p "$XG" $NO_RSC "$REAL" -o real-env.pir --stats-json real-env.json
	expect_status 0 "the 70B step under its recipe's XLA_FLAGS"
	expect_err "not modelled: xla_gpu_enable_triton_gemm, xla_gpu_graph_level, xla_gpu_enable_highest_priority_async_stream, xla_disable_hlo_passes=rematerialization" \
		"the recipe's flags passline does not model are named"
	a=$(starts real-default.pir) b=$(starts real-env.pir)
	[ "$b" -lt "$a" ]
	ok $? "the recipe's 2 GiB thresholds leave fewer collectives ($a -> $b)"
	xg "$REAL" -o real-opt.pir --stats-json real-opt.json --xla-flags="$RECIPE"
	expect_same_file real-env.pir real-opt.pir "the same module from XLA_FLAGS and --xla-flags"
	expect_same_file real-env.json real-opt.json "the same statistics from XLA_FLAGS and --xla-flags"
	# the step written as HLO reads back to the same estimate: a combined
	# all-gather or reduce-scatter stays a tuple (XLA flattens only
	# all-reduces), so no copy appears that the pipeline did not cost
	xg "$REAL" -o real.hlo --stats-json real-hlo.json -O cost_model.preset=h100 --xla-flags="$RECIPE"
	expect_status 0 "the 70B step under its recipe's flags, written as HLO"
	run $P --passes=ScheduleEstimate -O cost_model.preset=h100 real.hlo -o /dev/null --stats-json back.json
	expect_status 0 "the written step reads back"
	step_of() { sed -n 's/.*"ScheduleEstimate": {[^}]*"step_ns": \([0-9]*\).*/\1/p' "$1"; }
	a=$(step_of real-hlo.json) b=$(step_of back.json)
	[ -n "$a" ] && [ -n "$b" ] && [ $(( (a > b ? a - b : b - a) * 1000 )) -le "$a" ]
	ok $? "the written step reads back to the same step time within 0.1% ($a, $b ns)"
	# the scheduler's memory limit: a share of the device's memory
	xg "$REAL" -o /dev/null --stats-json slop95.json -O LatencyHidingScheduler.device_memory_bytes=200GiB \
		--xla-flags="$RECIPE"
	xg "$REAL" -o /dev/null --stats-json slop20.json -O LatencyHidingScheduler.device_memory_bytes=200GiB \
		--xla-flags="$RECIPE --xla_gpu_memory_limit_slop_factor=20"
	sched() { grep -o '"ScheduleEstimate": {[^}]*}' "$1"; }
	[ "$status" -eq 0 ] && [ -n "$(sched slop20.json)" ] && [ "$(sched slop95.json)" != "$(sched slop20.json)" ]
	ok $? "xla_gpu_memory_limit_slop_factor changes the schedule of the 70B step"
else
	skip "no $REAL (set HLO_DIR)"
fi
done_testing
