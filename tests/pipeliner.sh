#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pipeliner.sh — CollectivePipeliner and DoubleBufferLoopUnrolling
# through the real host and plugins: hand-checked goldens of each
# direction (tests/pipeliner/*.pir, their figures worked out in their
# comments), the collectives XLA leaves and why, nested loops, an odd trip
# count peeled; XLA's own test modules where the real HLO is (HLO_DIR, by
# default the shared/hlo folder beside the source tree); and every scanned
# step there, pipelined, written as HLO and read back with the same
# Total_flops.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
G="$top_srcdir/tests/pipeliner"
cd "$T" || exit 99

stat() { # stat NAME FILE: the value of "NAME": N in the JSON FILE
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"
}

flops() { # flops FILE: DetailDynInst's Total_flops of FILE
	$P --passes=DetailDynInst "$1" -o flops.pir --stats-json flops.json >/dev/null 2>&1 &&
		stat Total_flops flops.json
}

none() { # none FILE: nothing pipelined, by the statistics in FILE
	n=$(stat num_pipelined "$1")
	[ "${n:-0}" = 0 ]
}

golden() { # golden NAME PASS STAT N BEFORE AFTER [OPTION]
	run $P --passes="$2" ${7:+-O "$7"} --verify-each --stats-json s.json "$G/$1.pir" -o "$1.out.pir"
	expect_status 0 "$2 on $1.pir, every pass leaving valid IR"
	expect_same_file "$G/$1.out.pir" "$1.out.pir" "$1.pir: the hand-checked golden"
	[ "$(stat "$3" s.json)" = "$4" ]
	ok $? "$1.pir: $3 = $4"
	b=$(flops "$G/$1.pir") a=$(flops "$1.out.pir")
	[ "$b" = "$5" ] && [ "$a" = "$6" ]
	ok $? "$1.pir: Total_flops $b -> $a, as worked out by hand ($5 -> $6)"
	run $P --passes="$2" ${7:+-O "$7"} "$G/$1.pir" -o again.pir
	cmp -s again.pir "$1.out.pir"
	ok $? "$1.pir: a second run writes the same bytes"
}

golden backward CollectivePipeliner num_pipelined 1 152 148
golden forward CollectivePipeliner num_pipelined 1 280 277
golden nested CollectivePipeliner num_pipelined 3 260 250
golden carry CollectivePipeliner num_pipelined 1 440 438
golden double DoubleBufferLoopUnrolling num_unrolled 1 189 183
SINK=CollectivePipeliner.pipeline_sink_all_reduce=true
golden sink CollectivePipeliner num_pipelined 1 284 281 "$SINK"
golden sink_stacked CollectivePipeliner num_pipelined 1 256 348 "$SINK"
golden sink_two CollectivePipeliner num_pipelined 1 376 248 "$SINK"
golden sink_merge CollectivePipeliner num_pipelined 2 280 441 "$SINK"
run $P --passes=CollectivePipeliner -O "$SINK" --remarks "$G/sink_merge.pir" -o out.pir
expect_err "pipelined (forward-sink): all_reduce %ar2 of loop %loop\$0 sunk with %ar1, whose formatting ops read it" \
	"the all-reduce merged into another's sink is named"

run $P --passes=CollectivePipeliner,DetailDynInst --remarks "$G/backward.pir" -o out.pir
expect_err "pipelined (backward): all_gather %g of loop %loop\$0 issued one iteration early" \
	"the moved all-gather is named"
expect_err "loop 'loop' in @main: 3 trips (its counter)" "the loop now runs 3 trips"
run $P --passes=DoubleBufferLoopUnrolling,DetailDynInst --remarks "$G/double.pir" -o out.pir
expect_err "loop 'loop' in @main: 2 trips (known_trip_count)" \
	"the unrolled loop's count is its known_trip_count"

# what the loop now carries is counted: in the body, this trip's gathered
# row (an argument) is live beside the next trip's gather in flight, and
# the loop's state holds one more row, so the step's peak grows by more
# than one gathered row (f32[16], 64 bytes); the exposed time does not grow
run $P --passes=SplitAsyncCCOp,ScheduleEstimate --stats-json s0.json "$G/backward.pir" -o out.pir
run $P --passes=CollectivePipeliner,SplitAsyncCCOp,ScheduleEstimate --stats-json s1.json \
	"$G/backward.pir" -o out.pir
b=$(stat step_peak_bytes s0.json) a=$(stat step_peak_bytes s1.json)
[ -n "$a" ] && [ "$a" -gt $((b + 64)) ] &&
	[ "$(stat exposed_comm_ns s1.json)" -le "$(stat exposed_comm_ns s0.json)" ]
ok $? "ScheduleEstimate: step_peak_bytes $b -> $a with the gather in flight beside the carried one"

# each kind can be left alone
$P --passes= "$G/backward.pir" -o printed.pir
run $P --passes=CollectivePipeliner -O CollectivePipeliner.pipeline_all_gather=false \
	--stats-json s.json "$G/backward.pir" -o out.pir
none s.json && cmp -s out.pir printed.pir
ok $? "pipeline_all_gather = false: the all-gather stays, the module unchanged"
# with reduce-scatters off, the all-reduce after it moves alone (the
# reduce-scatter's result, left in the loop, is what is carried); with
# all-reduces off, the reduce-scatter still carries the all-reduce along
run $P --passes=CollectivePipeliner -O CollectivePipeliner.pipeline_reduce_scatter=false \
	--remarks --stats-json s.json "$G/forward.pir" -o out.pir
[ "$(stat num_pipelined s.json)" = 1 ] && grep -q "%rs = reduce_scatter %y" out.pir &&
	grep -q "%ar.prev = all_reduce %pipelined.0" out.pir
ok $? "pipeline_reduce_scatter = false: the reduce-scatter stays, the all-reduce moves"
run $P --passes=CollectivePipeliner -O CollectivePipeliner.pipeline_all_reduce=false \
	--stats-json s.json "$G/forward.pir" -o out.pir
cmp -s out.pir "$G/forward.out.pir"
ok $? "pipeline_all_reduce = false: the reduce-scatter still carries the all-reduce along"
run $P --passes=CollectivePipeliner -O CollectivePipeliner.pipeline_all_reduce=false \
	-O CollectivePipeliner.pipeline_reduce_scatter=false --stats-json s.json "$G/forward.pir" -o out.pir
$P --passes= "$G/forward.pir" -o printed.pir
none s.json && cmp -s out.pir printed.pir
ok $? "both off: the module unchanged"

# an iota the chain reads is cloned after the loop, not carried; a call
# nothing reads, peeled with the first trip, stays (invariant.pir says why)
run $P --passes=CollectivePipeliner --verify-each --stats-json s.json "$G/invariant.pir" -o out.pir
expect_status 0 "CollectivePipeliner on invariant.pir"
[ "$(stat num_pipelined s.json)" = 1 ] && grep -q "^  %io.last = hlo.iota " out.pir &&
	grep -q "%k.last = hlo.concatenate %c.last, %io.last " out.pir && ! grep -q "pipelined.2" out.pir
ok $? "invariant.pir: the iota is cloned after the loop, the loop carries 2 more elements, not 3"
grep -q "^  %cl.peeled = hlo.call %h.peeled, %h.peeled " out.pir
ok $? "invariant.pir: the peeled call nothing reads stays"

run $P --passes=CollectivePipeliner --remarks --stats-json s.json "$G/refused.pir" -o out.pir
expect_status 0 "CollectivePipeliner on refused.pir"
none s.json
ok $? "refused.pir: nothing moves"
expect_err "reduce_scatter %rs: %m (hlo.negate) stands between it and a dynamic-update-slice into a loop output, and is not a formatting op it may carry along" \
	"a chain with an op XLA does not carry along"
expect_err "all_reduce %p: it has a control dependency" "a control dependency"
expect_err "all_gather %g: its operand chain reads %x, a loop-variant parameter" \
	"a loop-variant parameter in the chain"
expect_err "all_reduce %g: its trip count is not known statically" "a loop of unknown count"

# forward-sink: off by default (XLA's GPU compiler never sinks); on, it
# names what it sinks and what XLA's sink refuses, each with its reason
# (and the forward direction refuses the multiply, as XLA's does without
# its use tree)
run $P --passes=CollectivePipeliner --remarks --stats-json s.json "$G/sink.pir" -o out.pir
$P --passes= "$G/sink.pir" -o printed.pir
none s.json && cmp -s out.pir printed.pir
ok $? "sink.pir by default: nothing sunk, the module unchanged"
expect_err "not pipelined (forward): all_reduce %ar: %m (hlo.multiply) stands between it" \
	"the forward direction's reason"
run $P --passes=CollectivePipeliner -O "$SINK" --remarks "$G/sink.pir" -o out.pir
expect_err "pipelined (forward-sink): all_reduce %ar of loop %loop\$0 sunk after it: the loop stacks its operand over 4 trips" \
	"the sunk all-reduce is named with its loop"
# count-leading-zeros is elementwise (the opcode table's name for it, not
# "clz"): it may stand in a sunk chain as the multiply does
sed 's/%m = hlo.multiply %ar, %b : f32\[1,8\]/%m = hlo.count_leading_zeros %ar : f32[1,8]/' \
	"$G/sink.pir" >clz.pir
run $P --passes=CollectivePipeliner -O "$SINK" --remarks clz.pir -o out.pir
expect_err "pipelined (forward-sink): all_reduce %ar of loop %loop\$0 sunk after it" \
	"a count-leading-zeros in the chain is carried after the loop"
run $P --passes=CollectivePipeliner -O "$SINK" -O CollectivePipeliner.pipeline_all_reduce=false \
	-O CollectivePipeliner.pipeline_reduce_scatter=false --remarks --verify-each \
	--stats-json s.json "$G/sink_refused.pir" -o out.pir
expect_status 0 "forward-sink on sink_refused.pir"
$P --passes= "$G/sink_refused.pir" -o printed.pir
none s.json && cmp -s out.pir printed.pir
ok $? "sink_refused.pir: nothing sunk, the module unchanged"
expect_err "all_reduce %a1: the buffer's first dimension, 5, is not the loop's trip count, 4" \
	"a buffer of more rows than trips"
expect_err "all_reduce %a2: the dynamic-update-slice is not indexed in its first dimension" \
	"an update indexed in another dimension"
expect_err "all_reduce %a3: %rs (reduce_scatter) stands between it and a dynamic-update-slice into a loop output, and is not a formatting op it may carry along" \
	"a reduce-scatter in the chain"
# XLA's TransformIncrementIndexByOneNotFirstIdxSink, retyped: the scale
# is a broadcast custom-call the loop computes, so it is stacked per trip
# too (its zero start, 3 x 8 x 128 + 1, and 3 row writes of 3072: 12289
# more); the body's return keeps its control predecessor
run $P --passes=CollectivePipeliner,DetailDynInst -O "$SINK" --verify-each --stats-json s.json \
	"$G/xla_sink.hlo" -o t.hlo
[ "$status" = 0 ] && [ "$(stat num_pipelined s.json)" = 1 ] &&
	grep -q "^  %ar.1.sunk = bf16\[3,8,128\]{2,1,0} all-reduce(bf16\[3,8,128\]{2,1,0} %while_3)" t.hlo &&
	grep -q "^  ROOT %a.sunk = bf16\[3,8,128\]{2,1,0} add(bf16\[3,8,128\]{2,1,0} %ar.1.sunk, bf16\[3,8,128\]{2,1,0} %while_4)" t.hlo &&
	grep -q "tuple(s32\[\] %add.230, bf16\[3,8,128\]{2,1,0} %param_1, bf16\[3,8,128\]{2,1,0} %param_2, bf16\[3,8,128\]{2,1,0} %mul.rows, bf16\[3,8,128\]{2,1,0} %b.rows), control-predecessors={select.1348}" t.hlo
ok $? "xla_sink.hlo: one all-reduce of the 3 stacked rows after the loop, the scale stacked beside them"
b=$(flops "$G/xla_sink.hlo") m=$(stat Total_flops s.json) a=$(flops t.hlo)
[ -n "$a" ] && [ "$a" = "$m" ] && [ "$a" = $((b + 12289)) ]
ok $? "xla_sink.hlo: reads back, Total_flops $b -> $a"

# XLA's own test modules (collective_pipeliner_test.cc)
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
X="$D/xla-tests/collective_pipeliner_test__"
if [ -f "${X}TransformIncrementIndexByOne.hlo" ]; then
	run $P --passes=CollectivePipeliner --stats-json s.json \
		"${X}TransformIncrementIndexByOne.hlo" -o t.hlo
	[ "$status" = 0 ] && [ "$(stat num_pipelined s.json)" = 1 ]
	ok $? "TransformIncrementIndexByOne: its all-reduce is pipelined forward, as XLA's test expects"
	grep -q "^  %while = (s32\[\], bf16\[3,8,128\]{2,1,0}, bf16\[3,8,128\]{2,1,0}, bf16\[1,8,128\]{2,1,0}, s32\[\]) while(.* %tuple" t.hlo &&
		grep -q "%ar.1.last = bf16\[1,8,128\]{2,1,0} all-reduce(" t.hlo
	ok $? "TransformIncrementIndexByOne: one loop of one tuple carrying the operand and index, the last all-reduce after it"
	b=$(flops "${X}TransformIncrementIndexByOne.hlo") a=$(flops t.hlo)
	# 3 trips of 16 flops of counter arithmetic, 2 of them kept in the
	# loop and 1 (less its dropped counter, 2) peeled: 2 fewer
	[ -n "$a" ] && [ "$a" = $((b - 2)) ]
	ok $? "TransformIncrementIndexByOne: the HLO reads back, Total_flops $b -> $a"
	for t in PushAgOver PipelineSinkInstructions; do
		run $P --passes=CollectivePipeliner --remarks --stats-json s.json "${X}$t.hlo" -o t.hlo
		[ "$status" = 0 ] && none s.json
		ok $? "$t: nothing pipelined"
	done
	run $P --passes=CollectivePipeliner --remarks "${X}PushAgOver.hlo" -o t.hlo
	expect_err "all_gather %ag.2: its operand chain reads %loop_peel_param\$1, a loop-variant parameter" \
		"PushAgOver: the gather of the loop's updated buffer stays"
	run $P --passes=CollectivePipeliner --remarks "${X}PipelineSinkInstructions.hlo" -o t.hlo
	expect_err "reduce_scatter %rs.1: %fusion.1730 (hlo.fusion) stands between it" \
		"PipelineSinkInstructions: what XLA only sinks is left"
	# its loop carries tokens that a get-tuple-element takes unused (a
	# line without results): the unrolled copy of it is written too
	for passes in DoubleBufferLoopUnrolling CollectivePipeliner,DoubleBufferLoopUnrolling; do
		run $P --passes=$passes "${X}PipelineSinkInstructions.hlo" -o t.hlo
		expect_status 0 "PipelineSinkInstructions: $passes writes its HLO"
		n=$(grep -c ' = token\[\] get-tuple-element(.* %tuple.1), index=4$' t.hlo)
		run $P --passes= t.hlo -o t2.hlo
		[ "$status" = 0 ] && [ "$n" = 1 ]
		ok $? "PipelineSinkInstructions: $passes: the unrolled token element is written once and reads back"
	done
else
	skip "no XLA test modules at $D (set HLO_DIR)"
fi

# every scanned step: pipelined and unrolled, written as HLO, read back
if [ -d "$D/dumps" ]; then
	for f in "$D"/dumps/*.hlo; do
		grep -q " while(" "$f" || continue
		n=${f#"$D"/dumps/}
		b=$(flops "$f")
		run $P --passes=CollectivePipeliner,DetailDynInst --stats-json s.json "$f" -o p.hlo
		expect_status 0 "$n: pipelined, written as HLO"
		m=$(stat Total_flops s.json) a=$(flops p.hlo)
		[ -n "$a" ] && [ "$a" = "$m" ]
		ok $? "$n: reads back with the same Total_flops ($m)"
		d=$((a - b))
		[ "${d#-}" -le 4096 ]
		ok $? "$n: Total_flops $b -> $a, the loops' bookkeeping only ($d)"
		run $P --passes=DoubleBufferLoopUnrolling,DetailDynInst --stats-json s.json p.hlo -o u.hlo
		m=$(stat Total_flops s.json) a=$(flops u.hlo)
		[ "$status" = 0 ] && [ -n "$a" ] && [ "$a" = "$m" ]
		ok $? "$n: then unrolled by two, reads back with the same Total_flops ($m)"
		run $P --passes=CollectivePipeliner,DetailDynInst -O "$SINK" --verify-each \
			--stats-json s.json "$f" -o k.hlo
		m=$(stat Total_flops s.json) a=$(flops k.hlo)
		[ "$status" = 0 ] && [ -n "$a" ] && [ "$a" = "$m" ]
		ok $? "$n: with forward-sink, $(stat num_pipelined s.json) moved, reads back with the same Total_flops ($m)"
	done
else
	skip "no real HLO at $D (set HLO_DIR)"
fi

done_testing
