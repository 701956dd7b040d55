#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/split_async.sh — SplitAsyncCCOp at scale, through the host: one
# function of 100000 collectives whose dones all stay pending to the end
# (the results are used by return only), interleaved with stores, and the
# same with max_window. A pass that looked at every pending done per
# instruction would take about 10^10 steps; a linear one takes a second.
# The output must verify (--verify-each) and be deterministic. Last,
# conf/async.ini with and without the split.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE"
cd "$T" || exit 99

n=100000
awk -v n="$n" 'BEGIN {
	printf "func @f(%%x: f32[8], %%y: f32[8], %%b: f32[8]) {\n"
	for (k = 0; k < n; k++) {
		printf "  %%g%d = all_gather %%x {group_id = \"dp\", factor = 2} : f32[16]\n", k
		printf "  affine_store %%y, %%b\n"
	}
	printf "  return"
	for (k = 0; k < n; k++)
		printf "%s %%g%d", (k ? "," : ""), k
	printf "\n}\n"
}' >big.pir

# run_timed SECONDS CMD... : run, failing (status 124) past the limit
run_timed() {
	limit=$1
	shift
	if command -v timeout >/dev/null 2>&1; then
		run timeout "$limit" "$@"
	else
		run "$@"
	fi
}

run_timed 120 "$P" --plugin-dir "$PLUGIN_DIR" --passes=SplitAsyncCCOp --verify-each \
	--stats-json stats.json big.pir -o out1.pir
expect_status 0 "100000 pending dones: split and verified"
grep -q '"num_collectives_split": 100000' stats.json
ok $? "every collective split"
# every done lands before return, in the order of its start
awk '/all_gather_done/ {if ($4 != "%g" (k + 0) "_s") bad = 1; k++} END {exit bad || k != 100000}' out1.pir
ok $? "the dones land before return in the order of their starts"

run_timed 120 "$P" --plugin-dir "$PLUGIN_DIR" --passes=SplitAsyncCCOp --verify-each \
	big.pir -o out2.pir
expect_same_file out1.pir out2.pir "the same output twice"

run_timed 120 "$P" --plugin-dir "$PLUGIN_DIR" --passes=SplitAsyncCCOp --verify-each \
	-O SplitAsyncCCOp.max_window=3 big.pir -o window.pir
expect_status 0 "max_window = 3 at scale"
# the start of %g0 is line 2; its done goes after 3 instructions (the
# store, the start of %g1, the store): line 6
sed -n 6p window.pir | grep -qF '%g0 = all_gather_done %g0_s'
ok $? "with max_window = 3 the first done lands after three instructions"

# conf/async.ini: splitting hides communication behind compute. The same
# communication is simulated with and without the split step, and less of
# it is exposed with it.
stat() { # stat FILE KEY: the value of "KEY": N in a stats JSON
	tr ',' '\n' <"$1" | sed -n "s/.*\"$2\": \([0-9]*\).*/\1/p"
}
run "$P" --plugin-dir "$PLUGIN_DIR" -p "$top_srcdir/conf/async.ini" \
	--stats-json split.json "$top_srcdir/examples/fsdp_step.pir" -o async.pir
expect_status 0 "conf/async.ini runs with SplitAsyncCCOp"
run "$P" --plugin-dir "$PLUGIN_DIR" -p "$top_srcdir/conf/async.ini" -O SplitAsyncCCOp.enabled=false \
	--stats-json sync.json "$top_srcdir/examples/fsdp_step.pir" -o sync.pir
[ "$(stat split.json num_collectives_split)" -gt 0 ] &&
	[ "$(stat split.json comm_ns)" = "$(stat sync.json comm_ns)" ] &&
	[ "$(stat split.json exposed_comm_ns)" -lt "$(stat sync.json exposed_comm_ns)" ]
ok $? "split, the example exposes less communication ($(stat split.json exposed_comm_ns) ns, not $(stat sync.json exposed_comm_ns))"

# a kinds value the schema allows (a string) but the pass does not take:
# an error in the pipeline, at the step that declared the pass
printf '[pipeline]\nname = bad\n\n[pass SplitAsyncCCOp]\nkinds = all_gather,allgather\n' >bad.ini
run "$P" --plugin-dir "$PLUGIN_DIR" -p bad.ini "$top_srcdir/examples/fsdp_step.pir" -o bad.pir
expect_status 1 "a kind the pass does not know is an error in the pipeline"
expect_err "unknown collective kind 'allgather'" "the pass says which kind"
expect_err "bad.ini:4: error: pass SplitAsyncCCOp rejected its options" "passline names the step"
[ ! -e bad.pir ]
ok $? "nothing is written"

done_testing
