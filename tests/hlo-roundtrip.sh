#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-roundtrip.sh — HLO comes back in the spelling it was read in.
# The bundled modules (tests/hlo/form: '%' names, signatures and typed
# operands as older XLA prints; '%' and signatures as current XLA prints;
# no layouts as tests write; lines spelled otherwise than their
# computation) are written back with no pass as they were, up to white
# space, and the lines passes make take their computation's spelling.
# Every real dump (HLO_DIR, by default the shared/hlo folder beside the
# source tree, when present) keeps each line but its get-tuple-element and
# tuple lines: the same lines, up to white space, in any order; and the
# names the writer makes (written back with no pass, and after the default
# and the asynchronous pipelines) are new in the whole module: no name is
# defined twice where the dump defines each once. Every HLO file there is
# written back with no pass as it was, byte for byte (the lines the IR
# still says the same of come back as they were written: hlo-kept.sh).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
F="$top_srcdir/tests/hlo/form"
cd "$T" || exit 99

# mixed.hlo: short computations beside a long entry, as XLA's tests
# write them; each keeps its own spelling. root-tuple.hlo: root tuples
# of the parts of a parameter and of a while's value stay tuple lines.
# no-root.hlo: no HloModule line, no line marked ROOT. root-gte.hlo: a
# root get-tuple-element of a tuple line of other values stays one.
# param-after-gte.hlo: a parameter after a get-tuple-element line kept as
# one stays after it. nested.hlo: nested instructions and parameters, and
# a path into a tuple value, are written back so. bare-gte.hlo: a
# get-tuple-element line without a layout among lines with them. anon.hlo:
# nested instructions of one opcode, a name of their form already taken
for m in long xla bare mixed root-tuple no-root root-gte param-after-gte nested bare-gte anon; do
	run $P --passes= "$F/$m.hlo" -o $m.hlo
	expect_status 0 "$m.hlo reads and writes"
	diff -b -B "$F/$m.hlo" $m.hlo >/dev/null
	ok $? "$m.hlo is written back as it was, up to white space"
done
# paths.hlo: paths into a tuple value written without '%' (one whose
# get-tuple-element name, p_0, a parameter already has) come back so, and
# read back as the same IR
run $P --passes= "$F/paths.hlo" -o paths.out.hlo
expect_status 0 "paths.hlo reads and writes"
diff -b -B "$F/paths.hlo" paths.out.hlo >/dev/null
ok $? "paths.hlo is written back as it was, up to white space"
run $P --passes= "$F/paths.hlo"
cp "$T/out" paths.pir
run $P --passes= paths.out.hlo
expect_same_file "$T/out" paths.pir "and reads back as the same IR"

# the nested lines of one opcode are named "<opcode>.anon", then ".anon.N"
# with the least N not taken, in the text's order: anon.hlo's line
# multiply.anon.1 is passed over
run $P --passes= "$F/anon.hlo" -o anon.pir
[ "$(grep -o '^  %[a-z.0-9]* = hlo\.\(multiply\|negate\)' anon.pir | sed 's/^  %//; s/ .*//' | tr '\n' ' ')" = \
  "multiply.anon.1 multiply.anon multiply.anon.2 multiply.anon.3 multiply.anon.4 negate.anon multiply.anon.5 " ]
ok $? "anon.hlo: nested lines named in order, the taken name passed over"

# a get-tuple-element nothing uses (of a while's parameter, of its
# result) comes back in its place: an instruction without results that
# computes nothing (flops = 0), so the default pipeline counts what it did
run $P --passes= "$F/unused-gte.hlo" -o ug.hlo
diff -b -B "$F/unused-gte.hlo" ug.hlo >/dev/null
ok $? "unused-gte.hlo: the unused get-tuple-elements come back in their places"
run $P --passes= "$F/unused-gte.hlo" -o ug.pir
[ "$(grep -c '^  hlo.get_tuple_element %.*hlo_index = .*flops = 0}$' ug.pir)" -eq 2 ]
ok $? "each is an hlo.get_tuple_element with its index and flops = 0"
run $P --passes= ug.pir -o ug2.hlo
run $P --passes= ug2.hlo -o ug3.pir
expect_same_file ug.pir ug3.pir "through .pir (the get-tuple-elements before their users) it reads back to the same IR"
sed '/%unused.4 = \|%count.18 = /d' "$F/unused-gte.hlo" >ug-none.hlo
run $P --passes=DetailDynInst --stats-json ug1.json "$F/unused-gte.hlo" -o /dev/null
run $P --passes=DetailDynInst --stats-json ug0.json ug-none.hlo -o /dev/null
sed 's/"input": "[^"]*"//' ug1.json >ug1.s
sed 's/"input": "[^"]*"//' ug0.json >ug0.s
grep -q '"Total_flops": [1-9]' ug1.s && cmp -s ug1.s ug0.s
ok $? "Total_flops is that of the module without them"

# whole-gte.hlo: get-tuple-elements of a tuple line made of values, each
# the whole of one of them; they come back in their places, named, over
# the tuple (an instruction without results that computes nothing, its
# users keeping its name), so the counting passes count the same work
run $P --passes= "$F/whole-gte.hlo" -o wg.hlo
diff -b -B "$F/whole-gte.hlo" wg.hlo >/dev/null
ok $? "whole-gte.hlo: the tuple and its get-tuple-elements come back, named, in their places"
run $P --passes= "$F/whole-gte.hlo" -o wg.pir
[ "$(grep -c '^  hlo.get_tuple_element %a, %n {hlo_name = "t\.[01]", .*flops = 0[,}]' wg.pir)" -eq 2 ] &&
	grep -q '^  %x = hlo.add %a, %n {hlo_operand_names = \["t.0", "t.1"\]' wg.pir
ok $? "each is an hlo.get_tuple_element with flops = 0; its users use the value and keep the name"
run $P --passes= wg.pir -o wg2.hlo
run $P --passes= wg2.hlo -o wg3.pir
expect_same_file wg.pir wg3.pir "through .pir it reads back to the same IR"
sed '/%t = \|%t\.[01] = /d; s/%t\.0/%a/g; s/%t\.1/%n/g' "$F/whole-gte.hlo" >wg-none.hlo
run $P --passes=DynamicInstEstimator,DetailDynInst,ScheduleEstimate --stats-json wg1.json \
	"$F/whole-gte.hlo" -o /dev/null
run $P --passes=DynamicInstEstimator,DetailDynInst,ScheduleEstimate --stats-json wg0.json \
	wg-none.hlo -o /dev/null
sed 's/"input": "[^"]*"//' wg1.json >wg1.s
sed 's/"input": "[^"]*"//' wg0.json >wg0.s
grep -q '"Total_flops": 12, "Total_bytes_moved": 128' wg1.s && grep -q '"kernels": 2,' wg1.s &&
	cmp -s wg1.s wg0.s
ok $? "the counts and the fused schedule (two kernels: they read nothing) are those of the module without them"
run $P -p "$top_srcdir/conf/default.ini" "$F/whole-gte.hlo" -o wg3.hlo
run $P --passes= wg3.hlo -o wg4.hlo
expect_same_file wg3.hlo wg4.hlo "after the default pipeline it reads back to the same text"

# named-parts.hlo: a tuple line rebuilt by name (an operand of a call)
# whose parts are get-tuple-elements of a call's result, named, one with
# metadata, standing in another order than the tuple takes them: each
# comes back under its name, with its attributes, in its place
run $P --passes= "$F/named-parts.hlo" -o np.hlo
diff -b -B "$F/named-parts.hlo" np.hlo >/dev/null
ok $? "named-parts.hlo: the tuple's parts come back under their names, in their places"
run $P --passes= "$F/named-parts.hlo" -o np.pir
grep -q 'hlo_operands = "both@(second@:_,first@:_)"' np.pir &&
	grep -q 'hlo_label_attrs = \["", "", ", metadata={op_name=\\"first\\"}"\]' np.pir
ok $? "the call records the parts' names and attributes in its operand structure"
run $P --passes= np.pir -o np2.hlo
run $P --passes= np2.hlo -o np3.pir
grep -q 'metadata={op_name="first"}' np2.hlo && cmp -s np.pir np3.pir
ok $? "through .pir it reads back to the same IR, the part's attributes on its line"

# tuple-order.hlo: an empty tuple kept by name and a tuple line rebuilt
# by name after the same line come back in the order they stood in
run $P --passes= "$F/tuple-order.hlo" -o to.hlo
diff -b -B "$F/tuple-order.hlo" to.hlo >/dev/null
ok $? "tuple-order.hlo: the two tuple lines come back in their order"
run $P --passes= "$F/tuple-order.hlo" -o to.pir
run $P --passes= to.pir -o to2.hlo
run $P --passes= to2.hlo -o to3.pir
expect_same_file to.pir to3.pir "through .pir they read back to the same IR"

# gte-layout.hlo: a get-tuple-element whose layout is not its element's
# keeps its own, on its line and where it is a typed operand
run $P --passes= "$F/gte-layout.hlo" -o gl.hlo
diff -b -B "$F/gte-layout.hlo" gl.hlo >/dev/null
ok $? "gte-layout.hlo: the get-tuple-element keeps its own layout"
run $P --passes= "$F/gte-layout.hlo" -o gl.pir
grep -q 'hlo_operand_shapes = \["f32\[2,3\]{0,1}"\]' gl.pir
ok $? "its user records it in hlo_operand_shapes"
sed 's/f32\[2,3\]{0,1}/f32[2,5]{0,1}/' gl.pir >gl-other.pir
run $P --passes= gl.pir -o gl2.hlo
expect_same_file "$F/gte-layout.hlo" gl2.hlo "through .pir it comes back as it was"
run $P --passes= gl-other.pir -o gl3.hlo
grep -q '^  %g = f32\[2,3\]{1,0} get-tuple-element' gl3.hlo
ok $? "a kept shape of other extents than the element's is not used"

# nested.hlo's nested lines and paths are the kept text's, not the IR's:
# its .pir records none of them, and through it each is a line of its own
# (XLA's form), a fixed point
run $P --passes= "$F/nested.hlo" -o nst.pir
! grep -q 'hlo_nested\|hlo_compact_paths' nst.pir
ok $? "nested.hlo's .pir records no nested line and no path"
run $P --passes= nst.pir -o nst1.hlo
cat >nst1.want <<'EOF_HLO'
HloModule nested

ENTRY %main (p0: (f32[10], (f32[20], f32[30])), parameter.anon: f32[20]) -> f32[20] {
  %p0 = (f32[10]{0}, (f32[20]{0}, f32[30]{0})) parameter(0)
  %parameter.anon = f32[20]{0} parameter(1)
  %p0_1 = (f32[20]{0}, f32[30]{0}) get-tuple-element((f32[10]{0}, (f32[20]{0}, f32[30]{0})) %p0), index=1
  %p0_1_0 = f32[20]{0} get-tuple-element((f32[20]{0}, f32[30]{0}) %p0_1), index=0
  %a = f32[20]{0} add(f32[20]{0} %p0_1_0, f32[20]{0} %p0_1_0)
  %t = (f32[20]{0}, f32[20]{0}) tuple(f32[20]{0} %a, f32[20]{0} %a)
  %t_1 = f32[20]{0} get-tuple-element((f32[20]{0}, f32[20]{0}) %t), index=1
  %multiply.anon = f32[20]{0} multiply(f32[20]{0} %a, f32[20]{0} %parameter.anon)
  ROOT %r = f32[20]{0} add(f32[20]{0} %t_1, f32[20]{0} %multiply.anon)
}
EOF_HLO
expect_same_file nst1.want nst1.hlo "through .pir nested.hlo's nested lines and paths are lines of their own"
run $P --passes= nst1.hlo -o nst2.hlo
expect_same_file nst1.hlo nst2.hlo "and that text is a fixed point"

# comments.hlo: "//" lines above the module, a computation, parameters and
# instructions come back where they were, from the kept text; the .pir
# has none of them, and HLO written from it none either
C="$F/comments.hlo"
run $P --passes= "$C" -o cm.hlo
cmp -s "$C" cm.hlo
ok $? "comments.hlo is written back as it was"
run $P --passes= "$C" -o cm.pir
! grep -q '//' cm.pir
ok $? "its .pir records no comment"
run $P --passes= cm.pir -o cm2.hlo
run $P --passes= cm2.hlo -o cm2.pir
run $P --passes= cm2.pir -o cm2b.hlo
! grep -q '//' cm2.hlo && grep -q '^  ROOT %r = f32\[8\]{0} add(f32\[8\]{0} %m, f32\[8\]{0} %ar)$' cm2.hlo &&
	cmp -s cm2.hlo cm2b.hlo
ok $? "through .pir it comes back without its comments, in XLA's form, and so again"
sed 's|^  a = |  // above a get-tuple-element\n&|' "$C" >cg.hlo
run $P --passes= cg.hlo -o cg2.hlo
cmp -s cg.hlo cg2.hlo
ok $? "a comment above a get-tuple-element line stays there"
run $P --passes=CoalesceCCOp,DynamicInstEstimator "$C" -o cm3.hlo
expect_status 0 "passes run on comments.hlo"
grep -B1 '^  ROOT r = ' cm3.hlo | grep -q '^  // the root$' && head -n 1 cm3.hlo | grep -q '^// A module'
ok $? "the comments of lines the passes keep stay above them"
# no-entry.hlo: no computation marked ENTRY (the last one is); written
# back so, also when a pass adds a computation before it
run $P --passes= "$F/no-entry.hlo" -o ne.hlo
diff -b -B "$F/no-entry.hlo" ne.hlo >/dev/null
ok $? "no-entry.hlo is written back without the ENTRY keyword"
# the kept text holds the spelling, not the IR: written from the .pir,
# the entry is marked ENTRY, as the writer marks it
run $P --passes= "$F/no-entry.hlo" -o ne.pir
run $P --passes= ne.pir -o ne-pir.hlo
! grep -q 'hlo_no_entry' ne.pir && grep -q '^ENTRY %main (p: f32\[8\]) -> f32\[8\] {$' ne-pir.hlo
ok $? "no-entry.hlo's .pir records no spelling; written from it, the entry has the keyword"
run $P --passes=SplitAsyncCCOp -O hlo.async_form=wrapped "$F/no-entry.hlo" -o ne2.hlo
tail -n 5 ne2.hlo | grep -q '^main {$' && ! grep -q ENTRY ne2.hlo
ok $? "after SplitAsyncCCOp's new computation the entry is still last, without the keyword"

# a module with tuples and operand lists of six but no /*index=N*/
# comment is written without them (its lines kept as they were read),
# and its .pir records nothing of it: written from the .pir, the lines
# get XLA's marks
run $P --passes= "$F/nomarks.hlo" -o nm.hlo
cmp -s "$F/nomarks.hlo" nm.hlo
ok $? "nomarks.hlo is written back without index comments, as it was"
run $P --passes= "$F/nomarks.hlo" -o nm-marks.pir
! grep -q 'hlo_no_index_marks' nm-marks.pir
ok $? "nomarks.hlo's .pir records nothing of the marks"
run $P --passes= nm-marks.pir -o nm-marks.hlo
grep -q '^ENTRY %main.9 (p.1: (f32\[2\], f32\[2\], f32\[2\], f32\[2\], f32\[2\], /\*index=5\*/f32\[2\])) ' nm-marks.hlo &&
	grep -q ' %d.5, /\*index=5\*/f32\[2\]{0} %e.6)$' nm-marks.hlo
ok $? "without the key the signature, the shapes and the operands have XLA's marks"

# somelayouts.hlo: a module with layouts whose parameter, some lines and
# root have none; each shape comes back as it was written (the kept
# text); through .pir, which records nothing of it, each array has the
# default layout, and the text comes back the same through .pir; SplitAsyncCCOp's
# new start has XLA's tuple shape
run $P --passes= "$F/somelayouts.hlo" -o sl.hlo
cmp -s "$F/somelayouts.hlo" sl.hlo
ok $? "somelayouts.hlo: the shapes without a layout come back without one"
run $P --passes= "$F/somelayouts.hlo" -o sl.pir
run $P --passes= sl.pir -o sl2.hlo
run $P --passes= sl2.hlo -o sl2.pir
run $P --passes= sl2.pir -o sl2b.hlo
! grep -q 'bare' sl.pir && grep -q '^  %p = (f32\[8,16\]{1,0}, f32\[16,4\]{1,0}) parameter(0)$' sl2.hlo &&
	grep -q '^  %r = f32\[8,4\]{1,0} all-reduce(f32\[8,4\]{1,0} %y), ' sl2.hlo && cmp -s sl2.hlo sl2b.hlo
ok $? "somelayouts.hlo through .pir: every array with a layout, and so again through .pir"
run $P --passes=SplitAsyncCCOp "$F/somelayouts.hlo" -o sl3.hlo
grep -q '^  %wg_s = (f32\[16,4\]{1,0}, f32\[64,4\]{1,0}) all-gather-start(f32\[16,4\]{1,0} %w), ' sl3.hlo
ok $? "the all-gather-start SplitAsyncCCOp makes there has XLA's (operand, result) shape"
run $P --passes= sl3.hlo -o sl4.hlo
expect_same_file sl3.hlo sl4.hlo "somelayouts.hlo after SplitAsyncCCOp reads back to the same text"

# the IR records no spelling: long.hlo (XLA's form) and bare.hlo (the
# short form, no layouts) give .pir that say nothing of it, and HLO
# written from either is in XLA's form: long.hlo's is long.hlo again
for m in long bare; do
	run $P --passes= "$F/$m.hlo" -o $m.form.pir
	run $P --passes= $m.form.pir -o $m.form.hlo
	! grep -q 'hlo_sigils\|hlo_signatures\|hlo_typed\|hlo_no_layouts' $m.form.pir
	ok $? "$m.hlo's .pir records no spelling"
done
cmp -s "$F/long.hlo" long.form.hlo
ok $? "long.hlo, in XLA's form, comes back as it was through .pir"
grep -q '^%sum (a: f32\[\], b: f32\[\]) -> f32\[\] {$' bare.form.hlo &&
	grep -q '^  ROOT %c = f32\[\] add(f32\[\] %a, f32\[\] %b)$' bare.form.hlo
ok $? "bare.hlo through .pir: XLA's form"
# mixed.hlo (two short computations beside a long entry) and lines.hlo
# (lines spelled otherwise than their computation, as XLA's tests write
# them: a name with '%' beside names without, operands with and without
# '%' in one line, typed operands on some lines only, one typed without
# its definition's layout, lines without a shape, a heading without '%'
# over lines with it and one with '%' over lines without) come back as
# written from the kept text; their .pir records no spelling of a
# computation or a line, and the HLO written from it, in the module's
# own form, reads back to the same IR
for m in mixed lines; do
	run $P --passes= "$F/$m.hlo" -o $m.sp.hlo
	cmp -s "$F/$m.hlo" $m.sp.hlo
	ok $? "$m.hlo: each computation and line comes back in its own spelling"
	run $P --passes= "$F/$m.hlo" -o $m.sp.pir
	! grep -q 'hlo_spelling\|hlo_line_form' $m.sp.pir && ! grep -q 'hlo_operand_shapes' $m.sp.pir
	ok $? "$m.hlo's .pir records no spelling"
	run $P --passes= $m.sp.pir -o $m.sp2.hlo
	run $P --passes= $m.sp2.hlo -o $m.sp2.pir
	[ "$status" -eq 0 ] && ! cmp -s "$F/$m.hlo" $m.sp2.hlo && cmp -s $m.sp.pir $m.sp2.pir
	ok $? "$m.hlo through .pir: the module's form, read back to the same IR"
done
# the lines a pass adds are in their computation's spelling
run $P --passes=SplitAsyncCCOp "$F/lines.hlo" -o li3.hlo
grep -q '^  %r = f32\[8,4\]{1,0} all-reduce-done(f32\[8,4\]{1,0} %r_s)$' li3.hlo
ok $? "SplitAsyncCCOp's done has '%' and a typed operand, as the entry's lines"
run $P --passes= li3.hlo -o li4.hlo
expect_same_file li3.hlo li4.hlo "lines.hlo after SplitAsyncCCOp reads back to the same text"

# the lines SplitAsyncCCOp makes, in each module's spelling; read back
# and written again, the text is a fixed point
run $P --passes=SplitAsyncCCOp "$F/long.hlo" -o long.split.hlo
expect_status 0 "SplitAsyncCCOp runs on long.hlo"
grep -q '^  %all-gather.1_s = (f32\[4,8\]{1,0}, f32\[16,8\]{1,0}) all-gather-start(f32\[4,8\]{1,0} %p0), ' long.split.hlo
ok $? "the new all-gather-start has '%' and a typed operand"
grep -q '^  %all-gather.1 = f32\[16,8\]{1,0} all-gather-done((f32\[4,8\]{1,0}, f32\[16,8\]{1,0}) %all-gather.1_s)$' long.split.hlo
ok $? "its done names the start with the start's shape"
grep -q '^ENTRY %main.9 (p0: f32\[4,8\], p1: f32\[8\], p2: (f32\[2\], s32\[\])) -> (f32\[16,8\], f32\[48\]) {$' long.split.hlo
ok $? "the entry keeps its signature, without layouts"
run $P --passes=SplitAsyncCCOp "$F/bare.hlo" -o bare.split.hlo
grep -q '^  %rs0 = f32\[4\]{0} reduce-scatter-done(((f32\[8\]{0}), f32\[4\]{0}) %rs0_s)$' bare.split.hlo &&
	grep -q '^  p1 = f32\[8\] parameter(1)$' bare.split.hlo
ok $? "in a module without layouts the new lines are in XLA's form, the others as they were"
for m in long bare; do
	run $P --passes= $m.split.hlo -o $m.again.hlo
	expect_same_file $m.split.hlo $m.again.hlo "$m.hlo after SplitAsyncCCOp reads back to the same text"
done

# XLA:GPU's wrapped form of async collectives: "async-start(...),
# calls=%c" over a computation of the collective, and async-done. A module
# written so comes back so; the collectives passes make asynchronous take
# its form (new computations and names), and -O hlo.async_form picks one.
W="$F/wrapped.hlo"
run $P --passes= "$W" -o w0.hlo
expect_status 0 "wrapped.hlo reads and writes"
diff -b -B "$W" w0.hlo >/dev/null
ok $? "wrapped.hlo is written back as it was, up to white space"
run $P --passes= "$W" -o w0.pir
grep -q 'hlo_async_wrapped = true' w0.pir
ok $? "wrapped.hlo records hlo_async_wrapped"
grep -q 'hlo_async_wrapped' long.pir
[ $? -ne 0 ]
ok $? "long.hlo, which has none, records no hlo_async_wrapped"
run $P --passes=SplitAsyncCCOp "$W" -o w1.hlo
expect_status 0 "SplitAsyncCCOp runs on wrapped.hlo"
grep -q '^  %all-reduce.6_s = ((f32\[8\]{0}), f32\[8\]{0}) async-start(f32\[8\]{0} %multiply.5), calls=%all-reduce.6_s.wrapped$' w1.hlo
ok $? "the all-reduce made asynchronous is an async-start over a computation, as the module's all-gather"
grep -q '^%all-reduce.6_s.wrapped (param_0.1: f32\[8\]) -> f32\[8\] {$' w1.hlo &&
	grep -q '^  %param_0.1 = f32\[8\]{0} parameter(0)$' w1.hlo &&
	grep -q '^  ROOT %all-reduce = f32\[8\]{0} all-reduce(f32\[8\]{0} %param_0.1), channel_id=2, replica_groups=\[1,4\]<=\[4\], use_global_device_ids=true, to_apply=%region_0.3$' w1.hlo
ok $? "its computation holds the all-reduce and its attributes, under names new in the module"
grep -q '^  %all-reduce.6 = f32\[8\]{0} async-done(((f32\[8\]{0}), f32\[8\]{0}) %all-reduce.6_s)$' w1.hlo && ! grep -q 'all-reduce-start' w1.hlo
ok $? "its done is an async-done"
run $P --passes= w1.hlo -o w2.hlo
expect_same_file w1.hlo w2.hlo "wrapped.hlo after SplitAsyncCCOp reads back to the same text"
run $P --passes=SplitAsyncCCOp -O hlo.async_form=start_done "$W" -o w3.hlo
grep -q '^  %all-reduce.6_s = f32\[8\]{0} all-reduce-start(f32\[8\]{0} %multiply.5), ' w3.hlo &&
	grep -q '^  %all-gather-start = ((f32\[4,8\]{1,0}), f32\[16,8\]{1,0}) async-start(%Arg_0.1), calls=%wrapped_all_gather$' w3.hlo
ok $? "-O hlo.async_form=start_done: the new one all-reduce-start, the one read wrapped stays so"
run $P --passes=SplitAsyncCCOp -O hlo.async_form=wrapped "$F/xla.hlo" -o x1.hlo
grep -q '^  %all-gather.4_s = ((f32\[4,8\]{1,0}), f32\[16,8\]{1,0}) async-start(f32\[4,8\]{1,0} %Arg_0.1), calls=%all-gather.4_s.wrapped$' x1.hlo &&
	grep -q 'async-start(f32\[8\]{0} %multiply.5), calls=%all-reduce.6_s.wrapped$' x1.hlo && ! grep -q 'all-gather-start\|all-reduce-start\|all-gather-done\|all-reduce-done' x1.hlo
ok $? "-O hlo.async_form=wrapped on xla.hlo: both new ones wrapped"
# async-update between a wrapped collective's start and done (XLA accepts
# start -> update -> done): the SDK's start and done, the updates kept on
# the done and written back right before it, through .pir too, and after
# the asynchronous passes; a fixed point read back
U="$top_srcdir/tests/hlo/good/async-update-collective.hlo"
run $P --passes= "$U" -o u0.hlo
expect_status 0 "async-update-collective.hlo reads and writes"
diff -b -B "$U" u0.hlo >/dev/null
ok $? "async-update-collective.hlo is written back as it was, up to white space"
run $P --passes= "$U" -o u0.pir
grep -q '= all_gather_start ' u0.pir &&
	grep -q '= all_gather_done .*hlo_async_updates = \["gu", "gu.1"\]' u0.pir
ok $? "its start and done are the SDK's, the done names its two updates"
run $P --passes= u0.pir -o u1.hlo
diff -b -B "$U" u1.hlo >/dev/null
ok $? "through .pir it comes back as it was"
run $P --passes=SplitAsyncCCOp,LatencyHidingScheduler "$U" -o u2.hlo
expect_status 0 "SplitAsyncCCOp and LatencyHidingScheduler run on it"
awk '/ async-start\(/ { s = NR } / async-update\(.*%gs\)/ { a = NR } / async-update\(.*%gu\)/ { b = NR }
     / async-done\(.*%gu.1\)/ { d = NR } END { exit !(s && s < a && a < b && b < d) }' u2.hlo
ok $? "the updates stay between the start and the done, in order"
run $P --passes= u2.hlo -o u3.hlo
expect_same_file u2.hlo u3.hlo "async-update-collective.hlo after the passes reads back to the same text"
# a module's own all-gather-start keeps its form under -O
# hlo.async_form=wrapped: only the all-reduce SplitAsyncCCOp makes
# asynchronous is wrapped
N="$F/native.hlo"
run $P --passes= "$N" -o n0.hlo
diff -b -B "$N" n0.hlo >/dev/null
ok $? "native.hlo is written back as it was, up to white space"
run $P --passes= "$N" -o n0.pir
grep -q '= all_gather_start .*hlo_start_done = true' n0.pir
ok $? "its all-gather-start records hlo_start_done"
run $P --passes=SplitAsyncCCOp -O hlo.async_form=wrapped "$N" -o n1.hlo
expect_status 0 "SplitAsyncCCOp -O hlo.async_form=wrapped runs on native.hlo"
grep -q '^  %all-gather-start = (f32\[4,8\]{1,0}, f32\[16,8\]{1,0}) all-gather-start(%Arg_0.1), channel_id=1, replica_groups=\[1,4\]<=\[4\], dimensions={0}, use_global_device_ids=true$' n1.hlo &&
	grep -q '^  %all-gather.4 = f32\[16,8\]{1,0} all-gather-done(%all-gather-start)$' n1.hlo &&
	[ "$(grep -c 'async-start' n1.hlo)" -eq 1 ] &&
	grep -q '^  %all-reduce.6_s = ((f32\[8\]{0}), f32\[8\]{0}) async-start(f32\[8\]{0} %multiply.5), calls=%all-reduce.6_s.wrapped$' n1.hlo
ok $? "the module's all-gather-start stays so, the new all-reduce start is wrapped"
run $P --passes= n1.hlo -o n2.hlo
expect_same_file n1.hlo n2.hlo "native.hlo after SplitAsyncCCOp reads back to the same text"
run $P --passes=SplitAsyncCCOp "$F/xla.hlo" -o x2.hlo
grep -q 'all-gather-start(' x2.hlo && grep -q 'all-reduce-start(' x2.hlo
ok $? "by default, in a module with no async collective, the new ones are all-gather-start and all-reduce-start"
run $P --passes=ScheduleEstimate --stats-json x1.json x1.hlo -o /dev/null
run $P --passes=ScheduleEstimate --stats-json x2.json x2.hlo -o /dev/null
sed 's/"input": "[^"]*"//' x1.json >x1.s
sed 's/"input": "[^"]*"//' x2.json >x2.s
grep -q '"comm_ns": [1-9]' x1.s && cmp -s x1.s x2.s
ok $? "the two forms read back to the same schedule (ScheduleEstimate's stats)"
run $P --passes= -O hlo.async_form=both "$W" -o bad.hlo
expect_status 1 "-O hlo.async_form=both is refused"
expect_err "hlo.async_form: expected wrapped or start_done, not 'both'" "naming the two forms"
[ ! -e bad.hlo ]
ok $? "and nothing is written"

D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ -d "$D/dumps" ]; then
	# same IN OUT: each instruction line of IN that is no get-tuple-element
	# or tuple line is in OUT, up to white space; a line that uses a
	# get-tuple-element or tuple (whose names and places may change) only
	# by its name. Prints the lines missing.
	same() {
		awk 'function norm(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
		     function key(s) { sub(/^ROOT /, "", s); return substr(s, 1, index(s, " = ")) }
		     FNR == NR { l = norm($0); if (index(l, " = ")) out[key(l)] = l; next }
		     { l = norm($0) }
		     !index(l, " = ") || l ~ / get-tuple-element\(| tuple\(/ { next }
		     l ~ /get-tuple-element|tuple/ { if (!(key(l) in out)) print l; next }
		     out[key(l)] != l { print l }' "$2" "$1"
	}
	# twice FILE: the names defined more than once in FILE.
	twice() {
		sed -n 's/^[ \t]*\(ROOT \)\{0,1\}%\{0,1\}\([A-Za-z_][A-Za-z0-9_.-]*\) = .*/\2/p' "$1" |
			sort | uniq -d
	}
	for f in "$D"/dumps/*.hlo; do
		run $P --passes= "$f" -o d.hlo
		s=$status
		same "$f" d.hlo >missing
		[ "$s" -eq 0 ] && [ ! -s missing ]
		ok $? "dumps/${f##*/}: every line but get-tuple-element and tuple ones comes back"
		[ -s missing ] && head -n 3 missing | sed 's/^/# missing: /'
		# a dump spells each line as its computation: no key of a line's own
		run $P --passes= "$f" -o d.pir
		! grep -q 'hlo_line_form\|hlo_spelling = \[[01], [01], [01], [01], ' d.pir
		ok $? "dumps/${f##*/}: no line records a spelling of its own"
		twice "$f" >dup.in
		[ -s dup.in ] && continue
		for pipe in none default async; do
			if [ $pipe = none ]; then
				cp d.hlo p.hlo
			else
				run $P -p "$top_srcdir/conf/$pipe.ini" "$f" -o p.hlo
				expect_status 0 "dumps/${f##*/}: conf/$pipe.ini runs"
				[ "$status" -eq 0 ] || continue
			fi
			twice p.hlo >dup
			[ ! -s dup ]
			ok $? "dumps/${f##*/} ($pipe): no name is defined twice in the module"
			[ -s dup ] && head -n 3 dup | sed 's/^/# twice: /'
		done
	done
	# Written back with no pass, every HLO file under D is its input again,
	# byte for byte; where not, the diagnostics count the tokens that
	# differ, a token being a quoted string, a run of name characters or
	# one other character that is not white space.
	tokens() {
		LC_ALL=C grep -o '"\([^"\\]\|\\.\)*"\|[A-Za-z0-9_.%$-]\{1,\}\|[^A-Za-z0-9_.%$ 	-]' "$1"
	}
	R="$top_srcdir/tests/hlo/refused-real.txt"
	for f in $(cd "$D" && find dumps xla-tests xla-parser-roundtrip xla-misc -name '*.hlo' 2>/dev/null | LC_ALL=C sort); do
		rm -f rt.hlo
		run $P --passes= "$D/$f" -o rt.hlo
		at=$(awk -v f="$f" '$1 == f { print $2 }' "$R")
		if [ -n "$at" ]; then
			[ "$status" -eq 1 ] && [ ! -e rt.hlo ] && grep -q "^$D/$f:$at: error: " "$T/err"
			ok $? "$f is refused at $at, as XLA's verifier refuses it; nothing written"
			continue
		fi
		if [ "$status" -ne 0 ]; then
			ok 1 "$f reads and writes"
			continue
		fi
		cmp -s "$D/$f" rt.hlo
		ok $? "$f is written back as it was, byte for byte"
		if ! cmp -s "$D/$f" rt.hlo; then
			tokens "$D/$f" >w.in
			tokens rt.hlo >w.out
			echo "# $(diff w.in w.out | grep -c '^[<>]') tokens differ"
			diff "$D/$f" rt.hlo | head -n 4 | cut -c1-200 | sed 's/^/# /'
		fi
	done
else
	skip "no real HLO at $D (set HLO_DIR)"
fi
done_testing
