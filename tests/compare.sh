#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/compare.sh — passline --compare: one module through the shipped
# Neuron, XLA and overlap pipelines (conf/compare-*.ini), one table and
# its JSON; the counts and input's peak bytes of tests/compare/step.pir
# worked out by hand, each pipeline's peak bytes ScheduleEstimate's; the
# stacked SVG of --compare-svg (structure, scale, a real browser); every
# strategy honouring pinned collectives, loops and cost-model presets
# (tests/compare/honours.pir); the table's simulated columns ScheduleEstimate's
# statistics (step_ns the step, not the makespan summed); --compare alone
# (the built-in strategies); -O per pipeline; --compare-svg of whole steps
# on shared scales; usage errors; a bad pipeline writes nothing.
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
head -1 table | grep -q '^pipeline  *collectives  *buckets  *bytes  *step_ns  *comm_ns  *exposed_comm_ns  *peak_bytes  *pass_ms$'
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

# ---- --compare-svg: the three schedules stacked on one time axis ----
CHECK="$top_srcdir/tests/timeline_check.py"
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-p "$C/compare-overlap.ini" "$STEP" --compare-svg c.svg --stats-json c2.json
expect_status 0 "--compare-svg runs"
awk '{ $NF = ""; print }' "$T/out" >b
cmp -s a b
ok $? "the table is the same with the picture"
if have xmllint; then
	xmllint --noout c.svg 2>"$T/err"
	ok $? "xmllint accepts the stacked SVG"
else
	skip "xmllint is not installed"
fi
if have python3; then
	python3 "$CHECK" stack c.svg >stack.txt 2>"$T/err"
	ok $? "the stacked SVG reads back"
	[ "$(awk '$1 != "axes"' stack.txt | cut -d' ' -f1 | tr '\n' ' ')" = "neuron xla overlap " ]
	ok $? "one strategy group per pipeline, in order"
	[ "$(awk '$1 == "axes" { print $2 }' stack.txt)" = 1 ]
	ok $? "one time axis for the three"
	# one scale: the longest makespan fills the plot (1040 px), the others
	# end at makespan / span of it; all share the span
	awk '$1 != "axes" { want = $2 / $3 * 1040; d = $4 - want; if (d < 0) d = -d
		if (d > 0.02 || $3 != span0 && span0 != "") bad = 1; span0 = $3 }
		END { exit bad }' stack.txt
	ok $? "each strategy's boxes end at its makespan on the shared scale"
	# the step has one function: the drawn makespan is the table's step_ns
	for name in neuron xla overlap; do
		[ "$(awk -v l=$name '$1 == l { print $2 }' stack.txt)" = \
		  "$(awk -v l=$name '$1 == l { print $5 }' table)" ]
		ok $? "$name: the drawn makespan is the table's step_ns"
	done
	[ "$(awk '$1 != "axes" { print $3 }' stack.txt | sort -u)" = \
	  "$(awk 'NR > 2 { print $5 }' table | sort -n | tail -1)" ]
	ok $? "the span is the longest makespan"
else
	for k in 1 2 3 4 5 6 7 8; do skip "python3 is not installed"; done
fi
grep -q '<text x="120" y="24" font-size="16" font-weight="bold">xla: @step</text>' c.svg &&
	grep -q '>makespan 83.802 µs, compute 33.828 µs, communication 49.974 µs, exposed 49.974 µs<' c.svg
ok $? "each strategy is titled by its pipeline and function, its caption the makespan and exposed time"
grep -q '"peak_bytes": 1114112' c2.json
ok $? "--stats-json is written beside the picture"
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-p "$C/compare-overlap.ini" "$STEP" --compare-svg c2.svg
expect_same_file c.svg c2.svg "the same picture on a second run"
# a name that XML must escape, in the title and the group's attribute
printf '[pipeline]\nname = caf\303\251 <x> & "y"\n[pass CountOps]\n' >odd.ini
run $P --compare -p odd.ini "$STEP" --compare-svg odd.svg
expect_status 0 "--compare-svg with one pipeline of an odd name"
grep -q 'data-pipeline="café &lt;x&gt; &amp; &quot;y&quot;"' odd.svg &&
	grep -q '>café &lt;x&gt; &amp; &quot;y&quot;: @step<' odd.svg &&
	grep -q '>step.pir: 1 pipeline on one time axis<' odd.svg
ok $? "the name is escaped in the group and the title"
if have xmllint; then
	xmllint --noout odd.svg 2>"$T/err"
	ok $? "xmllint accepts it"
else
	skip "xmllint is not installed"
fi
# a pipeline that fails: the picture there before stays as it was
cp c.svg keep.svg
printf '[pass NoSuchPass]\n' >bad.ini
run $P --compare -p "$C/compare-xla.ini" -p bad.ini "$STEP" --compare-svg c.svg
[ "$status" -ne 0 ]
ok $? "--compare-svg with a pipeline that cannot load fails"
expect_same_file c.svg keep.svg "and leaves the SVG there untouched"
# every plugin but Timeline: the pipeline runs, the picture cannot be
# drawn, and neither the picture nor the JSON is written
mkdir noplug
for so in "$PLUGIN_DIR"/*.so; do
	case "$so" in */Timeline.so) ;; *) cp "$so" noplug/ ;; esac
done
run "$PASSLINE" --plugin-dir noplug --compare -p "$C/compare-xla.ini" "$STEP" \
	--compare-svg new.svg --stats-json new.json
if [ "$status" -ne 0 ]; then
	[ ! -e new.svg ] && [ ! -e new.json ] && grep -q "Timeline" "$T/err"
	ok $? "a picture that cannot be drawn writes neither file, and says why"
else
	skip "Timeline is installed where the host finds it"
fi

# a real browser draws every box where the stacked SVG put it
if have chromium && have python3; then
	h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' keep.svg | head -1)
	render "$T/keep.svg" c.png 1200 "$h"
	ok $? "Chromium renders the stacked SVG to a PNG"
	run python3 "$CHECK" png keep.svg c.png
	expect_status 0 "every box of the three strategies is where the SVG put it"
	[ "$(grep -c '^lane ' "$T/out")" -eq 9 ]
	ok $? "three lanes seen in each of the three strategies"
else
	for k in 1 2 3; do skip "chromium or python3 is not installed"; done
fi

# ---- every strategy honours pinned, loops and the cost model's presets ----
H="$top_srcdir/tests/compare/honours.pir"
PINNED='^  %p = all_gather %wp {group_id = "dp", factor = 4, fsdp = true, pinned = true} : bf16\[256,256\]$'
gathers() { grep -c ' = all_gather\(_start\)\? %' "$1"; }
for passes in BucketizeCCOp XlaCombineCCOp SplitAsyncCCOp,OverlapBucketCCOp; do
	$P --passes "$passes" "$H" -o alone.pir 2>/dev/null &&
		grep -q "$PINNED" alone.pir && [ "$(gathers alone.pir)" -eq 2 ]
	ok $? "$passes merges the loop body's two gathers and leaves the pinned one as it was"
done
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-p "$C/compare-overlap.ini" "$H"
expect_status 0 "--compare runs on the loop with a pinned gather"
cp "$T/out" htable
for name in neuron xla overlap; do
	$P -p "$C/compare-$name.ini" "$H" -o "h-$name.pir" 2>/dev/null &&
		grep -q "$PINNED" "h-$name.pir" && [ "$(gathers "h-$name.pir")" -eq 2 ] &&
		[ "$(awk -v l=$name '$1 == l { print $2, $3 }' htable)" = "3 1" ]
	ok $? "$name: one bucket in the loop, the pinned gather left alone"
	# the loop counted as ScheduleEstimate counts it (3 trips, 4 tests)
	$P --passes ScheduleEstimate "h-$name.pir" -o /dev/null --stats 2>&1 |
		awk '$2 == "ScheduleEstimate.step_ns" { print $1 }' >want
	[ -s want ] && [ "$(awk -v l=$name '$1 == l { print $5 }' htable)" = "$(cat want)" ]
	ok $? "$name: step_ns is ScheduleEstimate's step_ns, loops counted"
done
# step_ns grows by the same amount with each trip: s(6) - s(3) = 3 (s(4) - s(3)) > 0
for n in 3 4 6; do
	sed "s/hlo_constant = \"3\"/hlo_constant = \"$n\"/" "$H" >trips$n.pir
	$P --compare -p "$C/compare-xla.ini" trips$n.pir | awk '$1 == "xla" { print $5 }' >s$n
done
[ "$(cat s4)" -gt "$(cat s3)" ] && [ $(($(cat s6) - $(cat s3))) -eq $((3 * ($(cat s4) - $(cat s3)))) ]
ok $? "each trip of the loop adds its body and test to step_ns"
run $P --compare -p "$C/compare-xla.ini" -O XlaCombineCCOp.combine_while_loops=false "$H"
[ "$(awk '$1 == "xla" { print $2, $3 }' "$T/out")" = "4 0" ]
ok $? "xla with combine_while_loops = false leaves the loop body alone"
# a preset: without one, h100; another, other times; the same as
# ScheduleEstimate's under it
run $P --compare -O cost_model.preset=h100 -p "$C/compare-neuron.ini" \
	-p "$C/compare-xla.ini" -p "$C/compare-overlap.ini" "$H"
expect_status 0 "--compare under -O cost_model.preset=h100"
cp "$T/out" h100table
run $P --compare -O cost_model.preset=b200 -p "$C/compare-neuron.ini" \
	-p "$C/compare-xla.ini" -p "$C/compare-overlap.ini" "$H"
expect_status 0 "--compare under -O cost_model.preset=b200"
cp "$T/out" b200table
for name in '(input)' neuron xla overlap; do
	[ "$(awk -v l="$name" '$1 == l { print $5 }' h100table)" = \
	  "$(awk -v l="$name" '$1 == l { print $5 }' htable)" ]
	ok $? "$name: without a preset, the step time of the h100 preset"
	[ "$(awk -v l="$name" '$1 == l { print $5 }' b200table)" != \
	  "$(awk -v l="$name" '$1 == l { print $5 }' htable)" ]
	ok $? "$name: the b200 preset gives another step time"
done
for name in neuron xla overlap; do
	$P --passes ScheduleEstimate -O cost_model.preset=h100 "h-$name.pir" -o /dev/null \
		--stats 2>&1 | awk '$2 == "ScheduleEstimate.step_ns" { print $1 }' >want
	[ -s want ] && [ "$(awk -v l=$name '$1 == l { print $5 }' h100table)" = "$(cat want)" ]
	ok $? "$name: under h100, step_ns is ScheduleEstimate's under h100"
done

# ---- --compare-svg of whole steps: one time axis, shared scales ----
# check_stack SVG TABLE WHAT: each strategy's step is the table's step_ns,
# its first panel's boxes end at step / span of the plot, the longest fills
# it, and each panel below (a loop's body) has the same axis in every
# strategy
check_stack() {
	python3 "$CHECK" stack "$1" >st.txt 2>"$T/err"
	ok $? "$3: the stacked SVG reads back"
	bad=0
	for name in neuron xla overlap; do
		[ "$(awk -v l=$name '$1 == l { print $2 }' st.txt)" = \
		  "$(awk -v l=$name '$1 == l { print $5 }' "$2")" ] || bad=1
	done
	[ $bad -eq 0 ]
	ok $? "$3: each strategy's drawn step is the table's step_ns"
	awk '$1 != "axes" { want = $2 / $3 * 1040; d = $4 - want; if (d < 0) d = -d
		if (d > 0.02) bad = 1; if ($2 == $3 && d <= 0.02) full = 1 }
		END { exit bad || !full }' st.txt
	ok $? "$3: each step's bars end at its time on the shared axis, the longest at its end"
	python3 "$CHECK" axes "$1" >ax.txt
	[ "$(awk '{ $1 = ""; print }' ax.txt | sort | uniq -c | awk '$1 != 3' | wc -l)" -eq 0 ] &&
		[ "$(wc -l <ax.txt)" -gt 3 ]
	ok $? "$3: every panel has the same axis in the three strategies"
}
if have python3; then
	run $P --compare "$H" --compare-svg hs.svg
	expect_status 0 "--compare-svg of a step with a loop"
	cp "$T/out" hstable
	# the bodies differ in length between strategies: shared scales show it
	[ "$(sed -n 's/^<svg [^>]* data-parts="\([^"]*\)".*/\1/p' hs.svg | sort -u | wc -l)" -gt 1 ]
	ok $? "the strategies' loop bodies differ in length"
	check_stack hs.svg hstable "honours.pir"
	R=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps/xla-benchmarks__hlo_llama31_70b_bf16_16x8.hlo
	if [ -r "$R" ]; then
		run $P --compare -O cost_model.preset=h100 "$R" --compare-svg real.svg
		cp "$T/out" realtable
		check_stack real.svg realtable "a real step under h100"
	else
		for k in 1 2 3 4; do skip "no real dump at $R (set HLO_DIR)"; done
	fi
else
	for k in 1 2 3 4 5 6 7 8 9 10; do skip "python3 is not installed"; done
fi

# ---- one meaning of step_ns: ScheduleEstimate's ----
# nested.hlo's step runs a conditional: the step takes its longer branch,
# the sum over functions both, so the two differ and the table must give
# the step (tests/timeline_golden/README works both out)
N="$top_srcdir/tests/timeline_golden/nested.hlo"
printf '[pipeline]\nname = same\n[pass CountOps]\n' >same.ini
run $P --compare -p same.ini "$N"
expect_status 0 "--compare on a step with loops, a call and a conditional"
cp "$T/out" ntable
$P --passes ScheduleEstimate "$N" -o /dev/null --stats 2>&1 |
	awk '$2 ~ /^ScheduleEstimate\./ { sub("ScheduleEstimate.", "", $2); print $2, $1 }' >nstats
stat() { awk -v k="$1" '$1 == k { print $2 }' nstats; }
[ -n "$(stat step_ns)" ] && [ "$(stat step_ns)" != "$(stat makespan_ns)" ]
ok $? "the step and the makespan summed over functions differ here"
for name in '(input)' same; do
	[ "$(awk -v l="$name" '$1 == l { print $5, $6, $7, $8 }' ntable)" = \
	  "$(stat step_ns) $(stat comm_ns) $(stat exposed_comm_ns) $(stat peak_bytes)" ]
	ok $? "$name: step_ns, comm_ns, exposed_comm_ns, peak_bytes are ScheduleEstimate's"
done
head -1 ntable | grep -q ' step_ns  *comm_ns  *exposed_comm_ns  *peak_bytes '
ok $? "the columns are named as ScheduleEstimate's statistics"
# a pipeline's own ScheduleEstimate options are the table's: under the
# exact integer model (an old key), where only a fused kernel pays
# kernel_floor_ns, fusion = off gives another step (under h100 every op
# pays the same floor and this step's kernels are single ops)
X="-O cost_model.latency_ns=10000"
printf '[pipeline]\nname = off\n[pass ScheduleEstimate]\nfusion = off\n' >off.ini
step_of() { $P --passes ScheduleEstimate $X "$@" "$N" -o /dev/null --stats 2>&1 |
	awk '$2 == "ScheduleEstimate.step_ns" { print $1 }'; }
off=$(step_of -O ScheduleEstimate.fusion=off)
[ -n "$off" ] && [ "$off" != "$(step_of)" ] &&
	[ "$($P --compare -p off.ini $X "$N" | awk '$1 == "off" { print $5 }')" = "$off" ] &&
	[ "$($P --compare -p same.ini $X -O ScheduleEstimate.fusion=off "$N" |
		awk '$1 == "same" { print $5 }')" = "$off" ]
ok $? "the pipeline's ScheduleEstimate options, and -O ScheduleEstimate.KEY, set the table's"

# ---- --compare alone: the shipped strategies, built in ----
run $P --compare "$STEP"
expect_status 0 "--compare without -p runs"
awk '{ $NF = ""; print }' "$T/out" >b
cmp -s a b
ok $? "and gives the table of conf/compare-*.ini"
run $P --compare -O cost_model.preset=h100 "$H" --stats-json builtin.json
awk '{ $NF = ""; print }' "$T/out" >b
awk '{ $NF = ""; print }' h100table >a2
cmp -s a2 b && grep -q '"name": "neuron", "file": "compare-neuron.ini"' builtin.json
ok $? "on a loop under h100 too, the built-in copies named in the JSON"
python3 - builtin.json <<'PY'
import json, sys
ps = json.load(open(sys.argv[1]))["pipelines"]
assert len(ps) == 3 and all(p["cost_model"]["preset"] == "h100" for p in ps), ps
assert all(p["cost_model"]["peak_tflops.bf16"] == 819.4 for p in ps)
PY
ok $? "each pipeline in the JSON names the cost model it ran under"
run $P --compare -O cost_model.preset=b200 -O cost_model.kernel_floor_us=7 "$H" --stats-json b200.json
python3 - b200.json <<'PY'
import json, sys
ps = json.load(open(sys.argv[1]))["pipelines"]
assert all(p["cost_model"]["preset"] == "b200" for p in ps), ps
assert all(p["cost_model"]["kernel_floor_us"] == 7 for p in ps), ps
PY
ok $? "and the model -O set, key by key"

# ---- -O PASS.KEY: every pipeline with a step of PASS ----
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-O BucketizeCCOp.all_gather_max_bytes=1 "$STEP"
expect_status 0 "-O of a pass only one pipeline has"
[ "$(awk '$1 == "neuron" { print $3 }' "$T/out")" = 0 ] &&
	[ "$(awk '$1 == "xla" { print $2, $3 }' "$T/out")" = "3 1" ]
ok $? "it applies to the pipeline that has the pass, and only to it"
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-O BucketizeCCOp.all_gather_max_bytes=1 -O XlaCombineCCOp.combine_threshold_in_bytes=1 \
	"$STEP"
[ "$status" -eq 0 ] && [ "$(awk '$1 == "neuron" { print $3 }' "$T/out")" = 0 ] &&
	[ "$(awk '$1 == "xla" { print $2, $3 }' "$T/out")" = "5 0" ]
ok $? "-O of two passes, each in one pipeline: each applies to its own"
run $P --compare -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" \
	-O OverlapBucketCCOp.window=3 --stats-json none.json "$STEP"
expect_status 1 "-O of a pass no pipeline compared has"
expect_err "no pass 'OverlapBucketCCOp' in any pipeline compared (neuron, xla)" \
	"the error names the pipelines"
[ ! -s "$T/out" ] && [ ! -e none.json ]
ok $? "and nothing runs: no table, no JSON"
run $P --compare -O BucketizeCCOp.all_gather_max_byte=1 "$STEP"
expect_status 1 "a key the pass does not have"
expect_err "all_gather_max_bytes" "the error suggests the key"

# ---- on real steps (HLO_DIR, when present; never copied here) ----
# the table's step_ns, exposed_comm_ns and peak_bytes are ScheduleEstimate's
# step_ns, exposed_comm_ns and peak_bytes: on a step XLA fused (the
# computations its kernels run are part of them) and on one it did not
D=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps
printf '[pipeline]\nname = estimate\n[pass ScheduleEstimate]\n' >estimate.ini
for f in silencelamb-vllm__module_1235.SyncTensorsGraph.2199.sm_8.0_gpu_after_optimizations.hlo \
	xla-benchmarks__hlo_llama31_70b_bf16_16x8.hlo; do
	if [ ! -r "$D/$f" ]; then
		skip "no $f in $D (set HLO_DIR)"
		continue
	fi
	got=$($P --compare -p estimate.ini "$D/$f" | awk '$1 == "estimate" { print $5, $7, $8 }')
	want=$($P --passes ScheduleEstimate "$D/$f" -o /dev/null --stats 2>&1 |
		awk '$2 == "ScheduleEstimate.step_ns" { m = $1 }
			$2 == "ScheduleEstimate.exposed_comm_ns" { e = $1 }
			$2 == "ScheduleEstimate.peak_bytes" { p = $1 } END { print m, e, p }')
	[ -n "$got" ] && [ "$got" = "$want" ]
	ok $? "$f: step, exposed and peak as ScheduleEstimate's ($want)"
done

# usage
run $P --compare-svg x.svg -p "$C/compare-xla.ini" "$STEP"
expect_status 2 "--compare-svg without --compare is a usage error"
run $P --compare --compare-svg - -p "$C/compare-xla.ini" "$STEP"
expect_status 2 "--compare-svg - is a usage error (the table is on standard output)"
run $P -p "$C/compare-neuron.ini" -p "$C/compare-xla.ini" "$STEP"
expect_status 2 "several -p without --compare is a usage error"
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
