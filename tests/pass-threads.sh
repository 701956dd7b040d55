#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pass-threads.sh — read-only passes side by side (-j 2 or more):
# every shipped pipeline (conf/*.ini), the default one and a pipeline of
# read-only passes only, over the tests' modules, a generated one and two
# real HLO dumps (HLO_DIR, when present), give at -j 2 and -j 4 the same
# module, --stats-json, files written, remarks, reports and messages, byte
# for byte, as at -j 1. A fixture plugin sees whether its passes ran at
# the same time: declared read-only they do at -j 2 and not at -j 1; a
# descriptor whose struct_size ends before flags (built against ABI 1.1
# headers) runs alone whatever its memory past struct_size holds.
# Under ThreadSanitizer (configure --enable-sanitizers=thread) this checks
# the passes' threads.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}" "${FIXTURE_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
GEN="$top_builddir/bench/pl-genmodel"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
cd "$T" || exit 99

# same_for_threads NAME INPUT ARGS...: runs at -j 1, 2 and 4, each in a
# folder of its own (Timeline writes beside the output), and compares
# every file each run left and its standard error and status.
same_for_threads() {
	name=$1 in=$2
	shift 2
	for j in 1 2 4; do
		mkdir "$name.$j" || exit 99
		# shellcheck disable=SC2086
		(cd "$name.$j" && $P -j $j --remarks --stats "$@" "$in" -o out \
			--stats-json stats.json 2>err; echo $? >rc)
	done
	for j in 2 4; do
		diff -r "$name.1" "$name.$j" >/dev/null
		ok $? "$name: -j $j leaves the same files, messages and status as -j 1"
	done
}

"$GEN" --target-insts 30000 --single-function --unique-attrs --seed 5 -o gen.pir
ok $? "generated a module"
RO=CountOps,Timeline,DetailDynInst,ScheduleEstimate
for m in "$top_srcdir/examples/fsdp_step.pir" "$top_srcdir/tests/pir/example.pir" "$T/gen.pir"; do
	b=$(basename "$m" .pir)
	same_for_threads "$b.builtin" "$m"
	same_for_threads "$b.read-only" "$m" --passes=$RO
	for conf in "$top_srcdir"/conf/*.ini; do
		same_for_threads "$b.$(basename "$conf" .ini)" "$m" -p "$conf"
	done
done
if [ -d "$D/dumps" ]; then
	for h in kahfizulkifli__llama2__llama2_dp-1_tp-4_pp-2.hlo kahfizulkifli__misc__sharding_fsdp.hlo; do
		[ -f "$D/dumps/$h" ] || continue
		b=$(basename "$h" .hlo)
		same_for_threads "$b.default" "$D/dumps/$h" -O cost_model.preset=h100
		same_for_threads "$b.read-only" "$D/dumps/$h" -O cost_model.preset=h100 --passes=$RO
		same_for_threads "$b.schedule" "$D/dumps/$h" -O cost_model.preset=h100 \
			-p "$top_srcdir/conf/schedule.ini"
	done
else
	skip "no real HLO dumps at $D/dumps (set HLO_DIR)"
fi
# the fixture's passes, from its file
cat >side.ini <<EOF2
[pass FxNewA]
plugin = $FIXTURE_DIR/FxSideBySide.so
[pass FxNewB]
plugin = $FIXTURE_DIR/FxSideBySide.so
[pass FxOldA]
plugin = $FIXTURE_DIR/FxSideBySide.so
[pass FxOldB]
plugin = $FIXTURE_DIR/FxSideBySide.so
EOF2
EX="$top_srcdir/tests/pir/example.pir"
run $P -j 2 --remarks -p side.ini "$EX" -o side2.pir
expect_status 0 "-j 2 runs the fixture's passes"
expect_err "FxNewA: beside another" "-j 2: the first read-only pass ran beside the second"
expect_err "FxNewB: beside another" "-j 2: the second read-only pass ran beside the first"
expect_err "FxOldA: alone" "-j 2: a pass of the older struct_size runs alone"
expect_err "FxOldB: alone" "-j 2: and so does the next one"
# the messages in pipeline order: each pass's remarks, then its report
grep -o 'Fx[A-Za-z]*: [a-z]*' "$T/err" >order2
printf '%s\n' "FxNewA: remark" "FxNewA: remark" "FxNewA: remark" "FxNewA: beside" \
	"FxNewB: remark" "FxNewB: remark" "FxNewB: remark" "FxNewB: beside" \
	"FxOldA: remark" "FxOldA: remark" "FxOldA: remark" "FxOldA: alone" \
	"FxOldB: remark" "FxOldB: remark" "FxOldB: remark" "FxOldB: alone" >order.want
cmp -s order2 order.want
ok $? "-j 2: remarks and reports come in pipeline order"
run $P -j 1 --remarks -p side.ini "$EX" -o side1.pir
expect_status 0 "-j 1 runs the fixture's passes"
expect_err "FxNewA: alone" "-j 1: read-only passes run one after the other"
expect_err "FxNewB: alone" "-j 1: the second too"
run $P -j 2 --verify-each -p side.ini "$EX" -o side3.pir
expect_err "FxNewA: alone" "--verify-each: passes run one after the other"
cmp -s side1.pir side2.pir
ok $? "the same module at -j 1 and -j 2"
# a failed pass in a group: the same messages and status at -j 1 and -j 2
# (the passes after it say nothing), and nothing written
for j in 1 2; do
	run $P -j $j --remarks -p side.ini -O FxNewA.fail=true "$EX" -o fail$j.pir
	echo $status >fail$j.rc
	cp "$T/err" fail$j.err
done
expect_status 4 "a failed read-only pass fails the run"
expect_err "pass FxNewA failed" "and it is named"
expect_no_err "FxNewB" "the pass beside it says nothing"
cmp -s fail1.err fail2.err && cmp -s fail1.rc fail2.rc
ok $? "the same messages and status at -j 1 and -j 2"
[ ! -e fail1.pir ] && [ ! -e fail2.pir ]
ok $? "nothing written"
done_testing
