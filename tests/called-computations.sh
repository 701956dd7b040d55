#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/called-computations.sh — the passes that move or rewrite
# instructions leave alone the computations that are part of one
# instruction: an async-start's (%wrapped), a fusion's (%fused) and a
# reducer (%sum, and %sum0 that it and the others apply). Each pass runs
# alone on tests/hlo/called.hlo; those computations come out byte for byte
# as with no pass, while %called (a call's callee, code of its own with
# the same collectives) is rewritten by the passes that rewrite it here.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
cd "$T" || exit 99
cp "$top_srcdir/tests/hlo/called.hlo" called.hlo

# comp FILE NAME: the lines of computation NAME as written (with its
# signature and '%', as the module was read)
comp() {
	awk -v n="$2" '($1 == n || $1 == "%" n) && /{$/ { on = 1 } on { print } on && /^}/ { on = 0 }' "$1"
}

run $P --passes= called.hlo -o none.hlo
expect_status 0 "no passes: the module reads and writes"
for c in wrapped fused sum sum0 called; do
	comp none.hlo $c >none.$c
	[ -s none.$c ]
	ok $? "no passes: @$c is written"
done

# PASS CHANGES_CALLED: whether the pass rewrites @called on this module
for pc in SplitAsyncCCOp:1 HoistFSDPCollectives:1 BucketizeCCOp:1 CoalesceCCOp:1 \
	XlaCombineCCOp:1 OverlapBucketCCOp:0 LatencyHidingScheduler:0; do
	p=${pc%:*}
	run $P --passes="$p" called.hlo -o "$p.hlo"
	expect_status 0 "$p runs"
	for c in wrapped fused sum sum0; do
		comp "$p.hlo" $c >"$p.$c"
		expect_same_file "$p.$c" none.$c "$p: @$c (part of one instruction) unchanged"
	done
	if [ "${pc#*:}" = 1 ]; then
		comp "$p.hlo" called >"$p.called"
		! cmp -s "$p.called" none.called
		ok $? "$p: @called (a call's callee) rewritten"
	fi
done

# LatencyHidingScheduler weighs @called (one function, scheduled or kept
# in its order); never the others, of which it says nothing
run $P --remarks --stats --passes=LatencyHidingScheduler called.hlo -o lhs.hlo
weighed=$(awk '/LatencyHidingScheduler.num_functions_(scheduled|kept)/ {s += $1} END {print s + 0}' "$T/err")
[ "$status" -eq 0 ] && [ "$weighed" -eq 1 ]
ok $? "LatencyHidingScheduler weighs one function, @called ($weighed)"
! grep -q '@wrapped\|@fused\|@sum' "$T/err"
ok $? "LatencyHidingScheduler remarks on none of the others"
done_testing
