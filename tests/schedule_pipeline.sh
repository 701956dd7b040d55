#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/schedule_pipeline.sh — conf/schedule.ini (hoisting, bucketing,
# splitting, LatencyHidingScheduler, coalescing, the estimators): on the
# bundled example and, where the real HLO is (HLO_DIR, by default the
# shared/hlo folder beside the source tree), on every real training step.
# The scheduler's promises are checked on each: the output verifies and
# reads again, a second run gives the same bytes, the simulated time and
# the exposed communication are never worse than the input order's, and
# the peak of live bytes stays within the limit (the input's peak + 10%),
# and ScheduleEstimate's exposed time is no less than its floor.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
S=$(cd "$top_srcdir" && pwd)
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
cd "$T" || exit 99
mkdir work && cd work || exit 99

# the value of STAT in stats.json (one line of JSON)
stat() {
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" stats.json
}

check_step() { # check_step FILE NAME
	run $P -p "$S/conf/schedule.ini" --verify-each "$1" -o out.$3 --stats-json stats.json
	expect_status 0 "conf/schedule.ini runs on $2, every pass leaving valid IR"
	cp out.$3 first.$3
	run $P -p "$S/conf/schedule.ini" "$1" -o out.$3
	cmp -s out.$3 first.$3
	ok $? "$2: a second run writes the same bytes"
	run $P --passes= out.$3 -o back.pir
	expect_status 0 "$2: the output reads again"
	mb=$(stat makespan_ns_before) ma=$(stat makespan_ns_after)
	eb=$(stat exposed_ns_before) ea=$(stat exposed_ns_after)
	pb=$(stat peak_bytes_before) pa=$(stat peak_bytes_after)
	[ -n "$ma" ] && [ "$ma" -le "$mb" ]
	ok $? "$2: simulated time $mb -> $ma ns, never worse"
	[ -n "$ea" ] && [ "$ea" -le "$eb" ]
	ok $? "$2: exposed communication $eb -> $ea ns, never more"
	[ -n "$pa" ] && [ "$pa" -le $((pb + pb / 10 + 1)) ]
	ok $? "$2: peak bytes $pb -> $pa, within the input's + 10%"
	fl=$(stat exposed_floor_ns) ex=$(stat exposed_comm_ns)
	[ -n "$fl" ] && [ -n "$ex" ] && [ "$fl" -le "$ex" ]
	ok $? "$2: exposed communication $ex ns, no less than the floor $fl ns"
}

check_step "$S/examples/fsdp_step.pir" examples/fsdp_step.pir pir
for f in timeline-before.svg timeline-after.svg; do
	[ -s "$f" ] && grep -q '<svg' "$f"
	ok $? "the pipeline draws $f"
done
run $P --list-passes
for key in max_in_flight memory_limit_bytes memory_headroom_percent split \
	num_functions_scheduled peak_bytes_after top_exposed peak_bytes; do
	expect_out "$key" "--list-passes shows $key"
done

# the scheduler judges a schedule as ScheduleEstimate times it: under the
# fusion model on unfused HLO (the default), op by op with fusion = off;
# this module's peak is 308 bytes, and a collective in flight needs more
# than the default 10% above it
for mode in auto off; do
	run $P --passes=SplitAsyncCCOp,LatencyHidingScheduler,ScheduleEstimate \
		-O LatencyHidingScheduler.memory_headroom_percent=30 \
		-O LatencyHidingScheduler.fusion=$mode -O ScheduleEstimate.fusion=$mode \
		"$S/tests/hlo/coalesce.out.hlo" -o judged.hlo --stats-json stats.json
	expect_status 0 "fusion = $mode: the scheduler runs on tests/hlo/coalesce.out.hlo"
	after=$(stat exposed_ns_after) est=$(stat exposed_comm_ns)
	[ -n "$after" ] && [ "$after" = "$est" ] && [ "$after" -lt "$(stat exposed_ns_before)" ]
	ok $? "fusion = $mode: the scheduler's exposed time ($after ns) is ScheduleEstimate's ($est ns), lower than before"
	eval "exposed_$mode=\$after"
done
[ "$exposed_auto" != "$exposed_off" ]
ok $? "the two judges differ ($exposed_auto vs $exposed_off ns)"

# Instructions with effects keep their order: the all-gather's start
# would begin earliest with its operand first, but that operand, an
# optimization barrier (opt-barrier) or a custom-call that says it has
# side effects, stays after the outfeed; a custom-call without effects
# moves ahead of it.
for op in 'opt-barrier(p1)' \
	'custom-call(p1), custom_call_target="acme_effect", custom_call_has_side_effect=true' \
	'custom-call(p1), custom_call_target="acme_pure"'; do
	cat >ordered.hlo <<EOF
HloModule ordered, replica_count=2

ENTRY main {
  p0 = f32[1024,1024] parameter(0)
  p1 = f32[8] parameter(1)
  t = token[] after-all()
  o = token[] outfeed(p1, t)
  d = f32[1024,1024] dot(p0, p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  b = f32[8] $op
  ags = (f32[8], f32[16]) all-gather-start(b), dimensions={0}, replica_groups={{0,1}}
  agd = f32[16] all-gather-done(ags)
  ROOT r = (f32[1024,1024], f32[16], token[]) tuple(d, agd, o)
}
EOF
	run $P -q --passes LatencyHidingScheduler ordered.hlo -o ordered.out.hlo
	expect_status 0 "the scheduler runs with b = ${op%%,*}"
	order=$(sed -n 's/^  \([bo]\) = .*/\1/p' ordered.out.hlo | tr -d '\n')
	case $op in
	*acme_pure*) [ "$order" = bo ]
		ok $? "a custom-call without side effects moves ahead of the outfeed ($order)" ;;
	*) [ "$order" = ob ]
		ok $? "${op%%,*} stays after the outfeed ($order)" ;;
	esac
done

D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ -d "$D/dumps" ]; then
	for f in "$D"/dumps/*.hlo; do
		check_step "$f" "${f#"$D"/}" hlo
	done
else
	skip "no real HLO at $D (set HLO_DIR)"
fi
done_testing
