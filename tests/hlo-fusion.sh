#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-fusion.sh — the fusion model against XLA's own fusion, on a
# real step XLA dumped before and after optimizing it (HLO_DIR, by
# default the shared/hlo folder beside the source tree; never copied into
# it). On the "before" dump the model's kernels and the bytes they move
# must be within 25% of the "after" dump's: its fusions, library calls and
# other kernels (copies) outside fusion bodies, counted here from the text,
# and the bytes of their operands and results as the model costs a fused
# function (fusion=on, each existing fusion one kernel). Skipped when the
# pair is absent.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps

# count-leading-zeros is elementwise like not: abs, it, negate make one
# kernel, as the chain with not does
for op in not count-leading-zeros; do
	cat >"$T/chain-$op.hlo" <<EOF_HLO
HloModule chain

ENTRY e {
  p = s32[1024] parameter(0)
  a = s32[1024] abs(p)
  c = s32[1024] $op(a)
  ROOT n = s32[1024] negate(c)
}
EOF_HLO
	run $P --passes=ScheduleEstimate -O ScheduleEstimate.fusion=on "$T/chain-$op.hlo" \
		-o /dev/null --stats-json "$T/chain-$op.json"
	expect_status 0 "abs, $op, negate under the fusion model"
	k=$(sed -n 's/.*"kernels": \([0-9]*\).*/\1/p' "$T/chain-$op.json")
	[ "$k" = 1 ]
	ok $? "abs, $op, negate fuse into one kernel ($k)"
done
PAIR=silencelamb-vllm__module_1235.SyncTensorsGraph.2199
BEFORE="$D/$PAIR.before_optimizations.hlo"
AFTER="$D/$PAIR.sm_8.0_gpu_after_optimizations.hlo"
if [ ! -f "$BEFORE" ] || [ ! -f "$AFTER" ]; then
	skip "no before/after pair at $D (set HLO_DIR)"
	done_testing
	exit 0
fi
cd "$T" || exit 99

stat() { # stat NAME FILE: a ScheduleEstimate statistic of a --stats-json file
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"
}

run $P --passes=ScheduleEstimate "$BEFORE" -o /dev/null --stats-json before.json
expect_status 0 "ScheduleEstimate runs on the dump before optimization"
run $P --passes=ScheduleEstimate -O ScheduleEstimate.fusion=on "$AFTER" -o /dev/null \
	--stats-json after.json
expect_status 0 "and, fusion=on, on the dump after it"

# XLA's kernels, from the text: in every computation that is not a fusion's
# body (named by a calls= of a fusion), the fusions, custom calls and
# copies.
awk '
FNR == NR {
	if ($0 ~ / fusion\(/ && match($0, /calls=%[^, ]+/))
		body[substr($0, RSTART + 7, RLENGTH - 7)] = 1
	next
}
/^(ENTRY )?%[^ ]+ .*\{$/ {
	name = $1 == "ENTRY" ? $2 : $1
	sub(/^%/, "", name)
	inside = !(name in body)
	next
}
/^}/ { inside = 0; next }
inside && / (fusion|custom-call|copy)\(/ { n++ }
# the bytes the copies move (read and written), from their shapes
inside && / copy\(/ && match($0, /= [a-z0-9]+\[[0-9,]*\]/) {
	t = substr($0, RSTART + 2, RLENGTH - 2)
	dt = substr(t, 1, index(t, "[") - 1)
	size = dt ~ /64$/ ? 8 : dt ~ /32$/ ? 4 : dt ~ /16$/ ? 2 : 1
	dims = substr(t, index(t, "[") + 1)
	sub(/\]$/, "", dims)
	e = 1
	k = split(dims, d, ",")
	for (i = 1; i <= k; i++)
		e *= d[i]
	copied += 2 * e * size
}
END { printf "%d %.0f\n", n, copied }' "$AFTER" "$AFTER" >xla_kernels
read -r xla copied <xla_kernels
echo "# XLA's kernels after optimization (fusions, custom calls, copies): $xla"
[ "$xla" -gt 0 ]
ok $? "the after dump has kernels ($xla)"

after_k=$(stat kernels after.json)
after_b=$(stat kernel_bytes after.json)
before_k=$(stat kernels before.json)
before_b=$(stat kernel_bytes before.json)
echo "# fused as XLA fused it: $after_k kernels, $after_b bytes"
echo "# the model on the dump before: $before_k kernels, $before_b bytes"
echo "# makespan with the model: $(stat fused_makespan_ns before.json) ns," \
	"op by op: $(stat unfused_makespan_ns before.json) ns"
[ "$after_k" = "$xla" ]
ok $? "fusion=on costs each of XLA's kernels as one ($after_k = $xla)"

within() { # within A B: |A/B - 1| <= 25%
	awk -v a="$1" -v b="$2" 'BEGIN { r = a / b - 1; if (r < 0) r = -r;
		printf "# %s / %s - 1 = %+.1f%%\n", a, b, (a / b - 1) * 100; exit !(r <= 0.25) }'
}
within "$before_k" "$xla"
ok $? "the model's kernels are within 25% of XLA's"
within "$before_b" "$after_b"
ok $? "the bytes they move are within 25% of XLA's kernels'"
# XLA's copies of the outputs that are parameters move most of those
# bytes, and the model makes the same copies: the rest must agree too
echo "# of which XLA's copies of outputs: $copied bytes"
within "$((before_b - copied))" "$((after_b - copied))"
ok $? "and so are the bytes apart from those copies"

# auto: the dump XLA fused is costed as it was, op by op
run $P --passes=ScheduleEstimate "$AFTER" -o /dev/null --stats-json auto.json
expect_status 0 "fusion=auto on the dump after optimization"
[ "$(stat kernels auto.json)" = 0 ]
ok $? "auto leaves a fused module op by op (no kernels from the model)"

# the step time is that of the kernels too: the dump before optimization
# has no loop, so its step is its entry's fused makespan, and it lies
# within 25% of the step of the dump XLA fused, each existing fusion one
# kernel (op by op it is over three times as long: the check can fail)
step_b=$(stat step_ns before.json)
[ -n "$step_b" ] && [ "$step_b" = "$(stat fused_makespan_ns before.json)" ]
ok $? "step_ns of the dump before is its fused makespan ($step_b ns)"
within "$step_b" "$(stat step_ns auto.json)"
ok $? "and within 25% of the step of the dump after optimization"
run $P --passes=ScheduleEstimate -O ScheduleEstimate.fusion=off "$BEFORE" -o /dev/null \
	--stats-json off.json
expect_status 0 "fusion=off on the dump before optimization"
[ "$(stat step_ns off.json)" = "$(stat unfused_makespan_ns before.json)" ]
ok $? "fusion=off: step_ns is the op-by-op makespan"

done_testing
