#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/timeline.sh — the Timeline pass: the SVG of a small function
# against a golden picture checked by hand (tests/timeline_golden/README), valid
# XML (xmllint), the trace read back as JSON with its events checked,
# deterministic output, a million instructions in a small SVG, and a real
# browser (headless Chromium) drawing the boxes where the SVG put them;
# the whole step of small HLO modules with loops, a call and a conditional
# against goldens checked by hand, and of a real scanned step (HLO_DIR)
# against ScheduleEstimate's step_ns; captions and the trace of one scope, lane
# numbers kept between panels (lanes.pir), max_depth, fold_below_us and
# part_span_ns.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D="$top_srcdir/tests/timeline_golden"
CHECK="$top_srcdir/tests/timeline_check.py"
cd "$T" || exit 99
mkdir o

run $P -p "$D/small.ini" "$D/small.pir" -o o/small.pir
expect_status 0 "Timeline runs"
expect_same_file o/small.svg "$D/small.svg" "the SVG is the picture computed by hand"
$P --passes "" "$D/small.pir" -o plain.pir 2>/dev/null
expect_same_file o/small.pir plain.pir "the module is unchanged"

if have xmllint; then
	xmllint --noout o/small.svg 2>"$T/err"
	ok $? "xmllint accepts the SVG"
else
	skip "xmllint is not installed"
fi

if have python3; then
	python3 "$CHECK" trace o/small.json >trace.txt 2>"$T/err"
	ok $? "the trace is JSON in the trace-event format"
	expect_same_file trace.txt "$D/small.trace" "its events are the schedule computed by hand"
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi

mkdir again
$P -p "$D/small.ini" "$D/small.pir" -o again/small.pir 2>/dev/null
cmp -s o/small.svg again/small.svg && cmp -s o/small.json again/small.json
ok $? "the same input gives the same bytes"

# ---- options ----
run $P -p "$D/small.ini" -O Timeline.function=@other -O Timeline.title= -O Timeline.trace= \
	"$D/small.pir" -o o/other.pir
expect_status 0 "function=@other"
grep -q 'font-weight="bold">@other</text>' o/small.svg && ! grep -q '>dp</text>' o/small.svg
ok $? "draws @other, titled by its name, with a compute lane only"
run $P -p "$D/small.ini" -O Timeline.function=missing "$D/small.pir" -o o/m.pir
expect_status 4 "an unknown function fails"
expect_err "Timeline: no function @missing in the module" "and is named"
rm -f o/*.svg o/*.json
run $P --passes Timeline "$D/small.pir" -o o/none.pir
[ "$status" -eq 0 ] && [ -z "$(ls o | grep -v '\.pir$')" ]
ok $? "without svg and trace nothing is written"
run $P -p "$D/small.ini" -O Timeline.svg=../up.svg "$D/small.pir" -o o/up.pir
expect_status 4 "a name leaving the folder fails"
expect_err "Timeline: cannot write file '../up.svg': the file name leaves the output folder" \
	"and is named"

# names that are not UTF-8 or need escaping stay well-formed
printf '%s\n' 'func @f(%v: f32[8]) {' \
	'  %r = all_reduce %v {group_id = "a\xff<&>\x01", factor = 2, reduce = "add"} : f32[8]' \
	'  %n = all_reduce %r {factor = 2, reduce = "add"} : f32[8]' \
	'  %l = all_reduce %n {group_id = "replica_groups={{0,1,2,3},{4,5,6,7}}", factor = 4, reduce = "add"} : f32[8]' \
	'  %k = all_reduce %l {group_id = "global:{{0,1,2,3,4,5,6,7},{8,9,10,11,12,13,14,15}}", factor = 8, reduce = "add"} : f32[8]' \
	'  %j = all_reduce %k {group_id = "global:{{0,8},{1,9},{2,10},{3,11},{4,12},{5,13},{6,14},{7,15}}", factor = 2, reduce = "add"} : f32[8]' \
	'  %i = all_reduce %j {group_id = "global:{{0,1,2,3,4,5,6,7,8,9},{10,11}}", factor = 2, reduce = "add"} : f32[8]' \
	'  return %i' '}' >odd.pir
run $P --passes Timeline -O Timeline.svg=odd.svg -O Timeline.trace=odd.json odd.pir -o o/odd.pir
expect_status 0 "odd names"
if have xmllint && have python3; then
	xmllint --noout o/odd.svg 2>"$T/err" && python3 "$CHECK" trace o/odd.json >/dev/null
	ok $? "an odd group name gives valid XML and valid JSON"
else
	skip "xmllint or python3 is not installed"
fi
grep -q '>a?&lt;&amp;&gt;?</text>' o/odd.svg
ok $? "a name's bytes that are not UTF-8 or XML are replaced or escaped"
grep -q '>(no group)</text>' o/odd.svg
ok $? "collectives without a group_id have a lane of their own"
grep -q '<title>replica_groups={{0,1,2,3},{4,5,6,7}}</title>@3 replica_gr 2×4</text>' o/odd.svg
ok $? "a long group name is labelled by its index, prefix and shape, whole in its tooltip"
grep -q '</title>@4 global 2×8</text>' o/odd.svg && grep -q '</title>@5 global 8×2</text>' o/odd.svg &&
	grep -q '</title>@6 global 2 groups</text>' o/odd.svg
ok $? "groups of one prefix get labels that tell them apart"
grep -q '"tid":5,"args":{"name":"@5 global 8×2"}' o/odd.json &&
	grep -q '"name":"%j","cat":"all_reduce",.*"group":"global:{{0,8},{1,9},' o/odd.json
ok $? "the trace's lanes have the same labels, each slice its instruction's name and whole group"

# merged boxes on the compute lane: compute never in the colour of waiting
run $P -p "$D/merged.ini" "$D/merged.pir" -o o/merged.pir
expect_status 0 "Timeline on interleaved compute and waits"
expect_same_file o/merged.svg "$D/merged.svg" "the merged boxes are the picture computed by hand"
grep -q 'fill="#bab0ac"><title>2 instructions, 5 ns</title>' o/merged.svg &&
	grep -q 'fill="#e15759"><title>waiting: 3 instructions, 3 ns</title>' o/merged.svg &&
	! grep 'fill="#e15759"><title>' o/merged.svg | grep -qv 'waiting: '
ok $? "merged compute is grey, merged waits red, and nothing red but waiting"
if have python3; then
	python3 "$CHECK" trace o/merged.json >merged.txt 2>"$T/err" &&
		grep -q '^X 0 exposed wait: %r1 exposed ' merged.txt &&
		grep -q '^X 1 %r2 all_reduce ' merged.txt
	ok $? "trace slices are named by instruction, waits by what they wait for"
else
	skip "python3 is not installed"
fi

# every collective kind the cost model times as communication, XLA's too,
# on its group's lane in the colour of its kind
run $P -p "$D/kinds.ini" "$D/kinds.hlo" -o o/kinds.hlo
expect_status 0 "Timeline on every kind of collective, read from XLA HLO"
expect_same_file o/kinds.svg "$D/kinds.svg" "each kind in its colour: the picture computed by hand"
! grep -E 'y="(76|112)" width="[0-9.]+" height="28" fill="#(bab0ac|4e79a7|59a14f|e15759)"' \
	o/kinds.svg &&
	[ "$(grep -c 'y="40" width="[0-9.]*" height="28" fill="#e15759"><title>waiting: ' o/kinds.svg)" -eq 6 ]
ok $? "no collective in a compute colour, no done drawn as compute"
if have python3; then
	python3 "$CHECK" trace o/kinds.json >kinds.txt 2>"$T/err"
	expect_same_file kinds.txt "$D/kinds.trace" "the trace's events are the same schedule"
	grep -q '"name":"%as$0, %as$1","cat":"hlo.async_start",.*"class":"all_to_all"' o/kinds.json &&
		grep -q '"name":"%cps$0, %cps$1",.*"class":"collective_permute"' o/kinds.json &&
		grep -q '"name":"%cb",.*"class":"collective_broadcast"' o/kinds.json &&
		grep -q '"name":"%cpd",.*"class":"done"' o/kinds.json &&
		grep -q '"name":"%ad",.*"class":"exposed"' o/kinds.json
	ok $? "trace classes: the kind of each collective, an XLA done a done"
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi

# ---- a whole step: loops and calls (README) ----
stepstat() { sed -n 's/.*"step_ns": \([0-9]*\).*/\1/p' "$1"; }
for g in loop3 nested; do
	mkdir "$g"
	run $P -p "$D/step.ini" "$D/$g.hlo" -o "$g/out.hlo" --stats-json "$g/s.json"
	expect_status 0 "Timeline of the step of $g.hlo"
	expect_same_file "$g/step.svg" "$D/$g.svg" "its SVG is the picture computed by hand"
	if have python3; then
		python3 "$CHECK" trace "$g/step.json" >"$g/trace.txt" 2>"$T/err"
		expect_same_file "$g/trace.txt" "$D/$g.trace" "its trace is the one computed by hand"
	else
		skip "python3 is not installed"
	fi
	if have xmllint; then
		xmllint --noout "$g/step.svg" 2>"$T/err"
		ok $? "xmllint accepts the SVG of $g.hlo"
	else
		skip "xmllint is not installed"
	fi
done
grep -q '"step_ns":3656}' loop3/step.json && [ "$(stepstat loop3/s.json)" = 3656 ]
ok $? "the trace's step is ScheduleEstimate's step_ns (3656 ns)"
grep -q '"name":"@body ×3 %w$0, %w$1","cat":"hlo.while",.*"dur":3.144,.*"trips":3,"body_ns":1036,"cond_ns":9' loop3/step.json
ok $? "the loop is one slice of its 3 trips' time, named by its body and trip count"
grep -q '>@body ×3</text>' loop3/step.svg && grep -q '>@inner_body ×3</text>' nested/step.svg &&
	grep -q '>@outer_body ×2</text>' nested/step.svg
ok $? "each loop's span is labelled with its body and trip count"
grep -q '"tid":2,"args":{"name":"@inner_body (1 of 3 iterations)"}' nested/step.json
ok $? "the inner body has a track of its own in the trace"
run $P -p "$D/step.ini" -O Timeline.trip_counts=w=5 "$D/loop3.hlo" -o loop3/five.hlo
grep -q '>@body ×5</text>' loop3/step.svg && grep -q '"makespan_ns":5746,' loop3/step.json
ok $? "trip_counts sets the picture's trips (5 x 1036 + 6 x 9 + 512 = 5746 ns)"
run $P -p "$D/step.ini" -O Timeline.function=@outer_body "$D/nested.hlo" -o nested/o.hlo
grep -q 'font-weight="bold">@outer_body</text>' nested/step.svg &&
	! grep -q '@outer_body ×2' nested/step.svg && grep -q '>@inner_body ×3</text>' nested/step.svg
ok $? "function= draws that function with what its loops and calls run"

# one scope: a caption and the trace's otherData give one run with all its
# loops and calls (a conditional its longer branch), makespan = compute +
# exposed, communication and exposed time those ScheduleEstimate sums
sestat() { sed -n "s/.*\"$2\": \([0-9]*\).*/\1/p" "$1"; }
other() { sed -n "s/.*\"otherData\":{[^}]*\"$2\":\([0-9]*\).*/\1/p" "$1"; }
for g in loop3 nested; do
	$P -p "$D/step.ini" "$D/$g.hlo" -o "$g/again.hlo" --stats-json "$g/s.json" 2>/dev/null
	m=$(other "$g/step.json" makespan_ns) c=$(other "$g/step.json" compute_ns)
	e=$(other "$g/step.json" exposed_ns) w=$(other "$g/step.json" comm_ns)
	[ -n "$m" ] && [ "$m" -eq $((c + e)) ] && [ "$m" = "$(stepstat "$g/s.json")" ] &&
		[ "$w" = "$(sestat "$g/s.json" comm_ns)" ] &&
		[ "$e" = "$(sestat "$g/s.json" exposed_comm_ns)" ] &&
		grep -q '"scope":"one run with its loops and calls"' "$g/step.json"
	ok $? "$g: the trace's totals are of one scope ($m = $c + $e, communication $w)"
done
grep -q '>the step: 4.776 µs = compute 3.24 µs + exposed 1.536 µs; communication 1.536 µs, loops and calls included<' nested/step.svg &&
	grep -q '>one run: 2.388 µs = compute 1.62 µs + exposed 768 ns; communication 768 ns, loops and calls included<' nested/step.svg &&
	grep -q '>this panel: loops and calls 4.776 µs; on its own lanes communication 0 ns, exposed 0 ns<' nested/step.svg
ok $? "the step's caption gives the step's communication, the panel's own apart"

# a process group keeps its number and place in every panel (lanes.pir)
run $P --passes Timeline -O Timeline.svg=lanes.svg -O Timeline.trace=lanes.json \
	"$D/lanes.pir" -o o/lanes.pir
expect_status 0 "Timeline of a step whose loop uses its groups in another order"
if have python3; then
	run python3 "$CHECK" lanes o/lanes.svg
	expect_status 0 "each group has one label in every panel, the lanes in its number's order"
	expect_out "panel 1: @1 first-kind 1×4 | @2 second-kin 2×2" \
		"the body's lanes: the entry's group first, numbered as in the entry"
	python3 "$CHECK" trace o/lanes.json >lanes.txt 2>"$T/err" &&
		grep -q '^M 3 thread_name @body: first-kind' lanes.txt &&
		grep -q '^M 4 thread_name @body: second-kind' lanes.txt &&
		grep -q '^X 4 %b all_reduce ' lanes.txt && grep -q '^X 3 %a all_reduce ' lanes.txt
	ok $? "the trace's tracks of the body are in the same order"
else
	for k in 1 2 3 4; do skip "python3 is not installed"; done
fi

# max_depth and fold_below_us: what a step's picture leaves out
parts() { sed -n 's/^<svg [^>]* data-parts="\([^"]*\)".*/\1/p' "$1"; }
run $P -p "$D/step.ini" -O Timeline.max_depth=0 "$D/nested.hlo" -o nested/d0.hlo
[ "$status" -eq 0 ] && [ -z "$(parts nested/step.svg)" ] && ! grep -q 'iterations of loop' nested/step.svg &&
	grep -q '>@outer_body ×2</text>' nested/step.svg
ok $? "max_depth = 0: the root alone, its loop a box"
run $P -p "$D/step.ini" -O Timeline.max_depth=1 "$D/nested.hlo" -o nested/d1.hlo
[ "$(parts nested/step.svg)" = "outer_body=2388" ] && grep -q '>@inner_body ×3</text>' nested/step.svg
ok $? "max_depth = 1: the outer body below the root, its own loop, call and branches boxes"
run $P -p "$D/step.ini" "$D/nested.hlo" -o nested/d8.hlo
[ "$(parts nested/step.svg)" = "outer_body=2388,inner_body=268,scale=768,yes=512,no=768" ]
ok $? "by default every function the step runs, once each"
run $P -p "$D/step.ini" -O Timeline.fold_below_us=1 "$D/nested.hlo" -o nested/f1.hlo
[ "$(parts nested/step.svg)" = "outer_body=2388" ] && grep -q '>@inner_body ×3</text>' nested/step.svg
ok $? "fold_below_us = 1: no panel for a function of less than 1 µs a run"
run $P -p "$D/step.ini" -O Timeline.fold_below_us=3 "$D/nested.hlo" -o nested/f3.hlo
[ -z "$(parts nested/step.svg)" ] && grep -q '>@outer_body ×2</text>' nested/step.svg &&
	[ "$(other nested/step.json makespan_ns)" = 4776 ] && [ "$(other nested/step.json exposed_ns)" = 1536 ]
ok $? "fold_below_us = 3: the root alone; the totals still count what is folded"
# part_span_ns: the outer body's panel on twice its run (840 x 1040 / 4776)
run $P -p "$D/step.ini" -O Timeline.part_span_ns=outer_body=4776,nothing=5 "$D/nested.hlo" \
	-o nested/p.hlo
grep -q '<rect x="120" y="176" width="182.91" height="28" fill="#a0cbe8"><title>%w' nested/step.svg
ok $? "part_span_ns: a part drawn on the span given"
run $P -p "$D/step.ini" -O Timeline.part_span_ns=outer_body "$D/nested.hlo" -o nested/bad.hlo
[ "$status" -ne 0 ]
ok $? "part_span_ns without a time is an error"
expect_err "expected NAME=NS" "it says what it expects"

run $P --passes Timeline -O Timeline.svg=unknown.svg \
	"$top_srcdir/tests/golden/pipeline/loop_unknown.pir" -o o/unknown.pir
grep -q '= hlo.while, @body ×1 (trip count unknown) = 1 × (' o/unknown.svg
ok $? "a loop of unknown trip count says so, counted once"

if have chromium && have python3; then
	for g in loop3:344 nested:840; do
		cp "$D/${g%:*}.svg" "${g%:*}.svg"
		render "$T/${g%:*}.svg" "${g%:*}.png" 1200 "${g#*:}"
		run python3 "$CHECK" png "${g%:*}.svg" "${g%:*}.png"
		expect_status 0 "Chromium draws every box and span of ${g%:*}.hlo's step where the SVG put it"
	done
else
	for g in loop3 nested; do skip "chromium or python3 is not installed"; done
fi

# a real step: its loop and its length are those of ScheduleEstimate
R=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps/xla-benchmarks__hlo_llama31_70b_bf16_16x8.hlo
if [ -f "$R" ]; then
	run $P --passes Timeline,ScheduleEstimate -O Timeline.svg=real.svg -O Timeline.trace=real.json \
		"$R" -o o/real.hlo --stats-json real.s.json
	expect_status 0 "Timeline of a real scanned step"
	step=$(stepstat real.s.json)
	grep -q "\"makespan_ns\":$step," o/real.json && grep -q "\"step_ns\":$step}" o/real.json
	ok $? "the drawn step is ScheduleEstimate's step_ns ($step ns)"
	c=$(other o/real.json compute_ns) e=$(other o/real.json exposed_ns)
	[ "$step" -eq $((c + e)) ] && [ "$(other o/real.json comm_ns)" = "$(sestat real.s.json comm_ns)" ] &&
		[ "$e" = "$(sestat real.s.json exposed_comm_ns)" ]
	ok $? "its communication and exposed time are ScheduleEstimate's, loops included"
	if have python3; then
		python3 "$CHECK" lanes o/real.svg >real.lanes
		ok $? "its groups keep their labels and order in every panel"
	else
		skip "python3 is not installed"
	fi
	grep -q 'fill="#a0cbe8"><title>[^<]*= hlo.while, @[^<]* ×80 = 80 × (' o/real.svg
	ok $? "its layer loop is one span of 80 trips"
else
	for k in 1 2 3 4 5; do skip "no real dump at $R (set HLO_DIR)"; done
fi

# ---- conf/async.ini: before and after the split ----
mkdir async
run $P -p "$top_srcdir/conf/async.ini" "$top_srcdir/examples/fsdp_step.pir" -o async/step.pir
expect_status 0 "conf/async.ini runs"
[ -s async/timeline-before.svg ] && [ -s async/timeline-after.svg ]
ok $? "it writes timeline-before.svg and timeline-after.svg beside -o"
grep -q '_start, ' async/timeline-after.svg &&
	! grep -q '_start, ' async/timeline-before.svg
ok $? "the picture after the split has starts, the one before has none"

# ---- a million instructions ----
"$top_builddir/bench/pl-genmodel" --target-insts 1000000 --single-function -o big.pir
run $P --passes Timeline -O Timeline.svg=big.svg big.pir -o o/big.pir
expect_status 0 "a function of a million instructions"
size=$(wc -c <o/big.svg)
[ "$size" -lt 2000000 ]
ok $? "gives an SVG under 2 MB ($size bytes)"
if have xmllint; then
	xmllint --noout o/big.svg 2>"$T/err"
	ok $? "which xmllint accepts"
else
	skip "xmllint is not installed"
fi
rm -f big.pir o/big.pir

# ---- a shared scale, no axis (the panels passline --compare-svg stacks) ----
# twice the makespan (2.08 µs) across the plot: the all-reduce at 800 ns
# for 200 ns, x = 120 + 800 / 4160 * 1040 = 320, width 50
run $P -p "$D/small.ini" -O Timeline.span_ns=4160 -O Timeline.axis=false "$D/small.pir" \
	-o o/span.pir
expect_status 0 "Timeline with span_ns and axis = false runs"
grep -q '<rect x="320" y="112" width="50" height="28" fill="#76b7b2">' o/small.svg
ok $? "span_ns: the boxes drawn on the longer scale"
! grep -q '<line\|>all-gather</text>' o/small.svg && grep -q '>makespan 2.08 µs' o/small.svg
ok $? "axis = false: no axis, no legend, the caption kept"
run $P -p "$D/small.ini" -O Timeline.span_ns=1000 "$D/small.pir" -o o/short.pir
expect_same_file o/small.svg "$D/small.svg" "a span shorter than the makespan is the makespan"

# ---- a real browser ----
# Chromium renders the SVG at its size; the PNG must show each box's
# colour at the box's centre, in every lane.
if have chromium && have python3; then
	cp "$D/small.svg" small.svg
	render "$T/small.svg" small.png 1200 248
	ok $? "Chromium renders the SVG to a PNG"
	run python3 "$CHECK" png small.svg small.png
	expect_status 0 "the picture is not blank and every box is where the SVG put it"
	expect_out "lane 40: 6 boxes seen" "the compute lane's boxes"
	expect_out "lane 76: 2 boxes seen" "the dp lane's boxes"
	expect_out "lane 112: 1 boxes seen" "the t<p> lane's box"
	# the check would notice a box drawn elsewhere
	sed 's/x="520" y="112"/x="820" y="112"/' small.svg >moved.svg
	run python3 "$CHECK" png moved.svg small.png
	expect_status 1 "a box the picture does not show is caught"
	cp "$D/kinds.svg" kinds.svg
	render "$T/kinds.svg" kinds.png 1200 244 && python3 "$CHECK" png kinds.svg kinds.png >kinds.out &&
		grep -q "lane 76: 3 boxes seen" kinds.out && grep -q "lane 112: 4 boxes seen" kinds.out
	ok $? "Chromium draws every collective kind in its colour"
else
	for k in 1 2 3 4 5 6 7; do skip "chromium or python3 is not installed"; done
fi

done_testing
