#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/partition.sh — a module dumped before SPMD partitioning (meant for
# several devices, yet no collective in it) is costed with a warning that
# says its figures are for the whole program on one device, in --stats and
# in --stats-json; a partitioned module, or one for one device, gets none.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
cd "$T" || exit 99

mod() { # mod HEADER_EXTRA BODY_LINE: a small module
	printf 'HloModule m%s\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\nENTRY e {\n  p = f32[8]{0} parameter(0)\n%s\n}\n' "$1" "$2"
}
mod ", num_partitions=4" "  ROOT n = f32[8]{0} negate(p)" >pre.hlo
mod ", num_partitions=4" "  ROOT r = f32[8]{0} all-reduce(p), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add" >post.hlo
mod "" "  ROOT n = f32[8]{0} negate(p)" >one.hlo
mod ", replica_count=8" "  ROOT n = f32[8]{0} negate(p)" >replicas.hlo
mod "" "  ROOT n = f32[8]{0} negate(p), sharding={devices=[2]<=[2]}" >sharded.hlo

run $P --stats pre.hlo -o pre.out.hlo --stats-json pre.json
expect_status 0 "a module before partitioning is still costed"
expect_err "warning: no collective, but num_partitions=4: the module was dumped before SPMD partitioning" \
	"its warning names num_partitions"
grep -q '"warnings": \["no collective, but num_partitions=4' pre.json
ok $? "the warning is in --stats-json"
run $P -q --stats pre.hlo -o pre.out.hlo --stats-json preq.json
expect_no_err "no collective" "-q leaves the warning out of standard error"
grep -q '"warnings"' preq.json
ok $? "but not out of --stats-json"

run $P --stats post.hlo -o post.out.hlo --stats-json post.json
expect_no_err "before SPMD partitioning" "a partitioned module (it has a collective) gets no warning"
run $P --stats one.hlo -o one.out.hlo
expect_no_err "before SPMD partitioning" "a module for one device gets no warning"
run $P --stats replicas.hlo -o replicas.out.hlo
expect_no_err "before SPMD partitioning" "replicas each run the whole program: no warning"
run $P --stats sharded.hlo -o sharded.out.hlo
expect_err "num_partitions=1 and sharding annotations over devices" \
	"sharding over devices with no collective gets the warning"
done_testing
