#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/compare.sh — passline --compare: one module through the shipped
# Neuron, XLA and overlap pipelines (conf/compare-*.ini), one table and
# its JSON; the counts of tests/compare/step.pir worked out by hand;
# usage errors; a bad pipeline writes nothing.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
C="$top_srcdir/conf"
STEP="$top_srcdir/tests/compare/step.pir"
cd "$T" || exit 99

run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-p "$C/compare-overlap.ini" "$STEP" --stats-json c.json
expect_status 0 "--compare runs the three shipped pipelines"
cp "$T/out" table
head -1 table | grep -q '^pipeline  *collectives  *buckets  *bytes  *step_ns  *comm_ns  *exposed_ns  *peak_bytes  *pass_ms$'
ok $? "the table has its header"
row() { # row LABEL: the first four columns of LABEL's row
	awk -v l="$1" '$1 == l { print $1, $2, $3, $4 }' table
}
# before: 3 gathers and 2 all-reduces, 2*128 KiB + 256 KiB + 2*64 KiB bytes
[ "$(row '(input)')" = "(input) 5 0 655360" ]
ok $? "the input: 5 collectives, no bucket, 655360 bytes"
# Neuron: hoisted gathers, the dimension-1 one ends the run: one bucket of
# two and one gather; the dependent all-reduces stay apart
[ "$(row neuron)" = "neuron 4 1 655360" ]
ok $? "neuron: 4 collectives, 1 bucket"
# XLA (combine_by_dim = false): all three gathers in one; the all-reduces apart
[ "$(row xla)" = "xla 3 1 655360" ]
ok $? "xla: 3 collectives, 1 bucket"
[ "$(awk '$1 == "overlap"' table | wc -l)" -eq 1 ]
ok $? "overlap has its row"
[ "$(wc -l <table)" -eq 5 ]
ok $? "one row per pipeline and one for the input"
# the simulated columns are numbers; exposed never exceeds communication
awk 'NR > 1 && !($5 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/ && $7 ~ /^[0-9]+$/ && $7 <= $6) { bad = 1 }
	END { exit bad }' table
ok $? "step, communication and exposed time are numbers, exposed <= communication"
# peak live bytes of the input, by hand: the arguments (448 KiB) and the
# three gathers (512 KiB) live to the return; at %s its operand %u and
# itself (64 KiB each) too: 1088 KiB
[ "$(awk '$1 == "(input)" { print $8 }' table)" = 1114112 ]
ok $? "the input's peak bytes: 1114112, worked out by hand"
# each pipeline's peak is ScheduleEstimate's peak_bytes of its output
for name in neuron xla overlap; do
	$P -p "$C/compare-$name.ini" "$STEP" -o "$name.pir" 2>/dev/null &&
	$P --passes ScheduleEstimate "$name.pir" -o /dev/null --stats 2>&1 |
		awk '$2 == "ScheduleEstimate.peak_bytes" { print $1 }' >"$name.peak"
	[ -s "$name.peak" ] && [ "$(awk -v l=$name '$1 == l { print $8 }' table)" = "$(cat "$name.peak")" ]
	ok $? "$name: peak_bytes is ScheduleEstimate's for the pipeline's output"
done
grep -q '"peak_bytes": 1114112' c.json
ok $? "--stats-json has the peak bytes"
grep -q '"pipelines": \[{"name": "neuron", "file": ".*compare-neuron.ini", "collectives": 4, "buckets": 1' c.json
ok $? "--stats-json names each pipeline with its counts"
grep -q '"before": {"collectives": 5, "buckets": 0, "bytes": 655360, "step_ns": ' c.json
ok $? "--stats-json has the input's measures"
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-p "$C/compare-overlap.ini" "$STEP"
awk '{ $NF = ""; print }' table >a
awk '{ $NF = ""; print }' "$T/out" >b
cmp -s a b
ok $? "the same table on a second run (pass times aside)"

# usage
run $P -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" "$STEP"
expect_status 2 "several -p without --compare is a usage error"
run $P --compare "$STEP"
expect_status 2 "--compare without -p is a usage error"
run $P --compare -p "$C/compare-xla.ini" -o out.pir "$STEP"
expect_status 2 "--compare with -o is a usage error"
[ ! -e out.pir ]
ok $? "and writes nothing"

# a bad pipeline: an error naming it, no JSON
printf '[pass NoSuchPass]\n' >bad.ini
run $P --compare -p "$C/compare-xla.ini" -p bad.ini "$STEP" --stats-json bad.json
[ "$status" -ne 0 ] && [ ! -e bad.json ]
ok $? "a pipeline that cannot load fails and writes no JSON"
expect_err "NoSuchPass" "the error names the pass"
done_testing
