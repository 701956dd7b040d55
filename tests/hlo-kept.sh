#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-kept.sh — HLO lines kept as they were written. A module read
# and written with no pass is its input byte for byte (spacing, wrapped
# lines, blank lines, comments inside a line, which the IR does not
# keep); after a pass, `diff` of the input and the output shows exactly
# the lines whose instructions the pass changed, each new or changed line
# indented as the lines around it and in XLA's form ('%' names, typed
# operands, layouts). The kept text is no part of the IR:
# the .pir shows none of it.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
K="$top_srcdir/tests/hlo/kept"
cd "$T" || exit 99

# every bundled HLO module, written back with no pass, is its input
for f in "$top_srcdir"/tests/hlo/form/*.hlo "$K"/*.hlo; do
	rm -f rt.hlo
	run $P --passes= "$f" -o rt.hlo
	[ "$status" -eq 0 ] && cmp -s "$f" rt.hlo
	ok $? "${f#"$top_srcdir"/tests/hlo/}: written back with no pass, byte for byte"
done

# rsc.hlo: ReduceScatterCreator turns the all-reduce and the root
# dynamic-slice into a reduce-scatter; every other line, with its
# spacing, comments and blank lines, stays as written
run $P --passes=ReduceScatterCreator "$K/rsc.hlo" -o rsc.out.hlo
expect_status 0 "ReduceScatterCreator on rsc.hlo"
diff "$K/rsc.hlo" rsc.out.hlo >rsc.diff
cat >rsc.want <<'EOF'
15,16d14
<     %all-reduce = f32[32,8,128]{2,1,0} all-reduce(%param),
<         replica_groups={{0},{1}}, to_apply=%sum, channel_id=1
27,28c25
<     ROOT %dynamic-slice = f32[4,8,128] dynamic-slice(%all-reduce, %offset, %zero, %zero),
<         dynamic_slice_sizes={4,8,128}
---
>     ROOT %reduce-scatter = f32[4,8,128]{2,1,0} reduce-scatter(f32[32,8,128]{2,1,0} %param), replica_groups={{0},{1}}, to_apply=%sum, channel_id=1, dimensions={0}
EOF
cmp -s rsc.want rsc.diff
ok $? "rsc.hlo: the diff is the rewrite alone (4 lines out, 1 in)"
[ -s rsc.diff ] && ! cmp -s rsc.want rsc.diff && head -n 12 rsc.diff | sed 's/^/# /'

# placed.hlo: a parameter and get-tuple-elements stand among the
# instructions, where the writer would not put them (it puts a parameter
# first, a get-tuple-element right before its first user). SplitAsyncCCOp
# splits the all-reduce: each of them stays after the line it followed
# (t0 after t1, as the line it followed is gone), and the diff is the
# split alone; the output reads back
run $P --passes=SplitAsyncCCOp "$K/placed.hlo" -o placed.out.hlo
expect_status 0 "SplitAsyncCCOp on placed.hlo"
diff "$K/placed.hlo" placed.out.hlo >placed.diff
cat >placed.want <<'EOF'
16d15
<   ar = f32[8] all-reduce(e), replica_groups={}, to_apply=add
17a17,18
>   %ar_s = f32[8]{0} all-reduce-start(f32[8]{0} %e), replica_groups={}, to_apply=add
>   %ar = f32[8]{0} all-reduce-done(f32[8]{0} %ar_s)
EOF
cmp -s placed.want placed.diff
ok $? "placed.hlo: the parameter and get-tuple-elements stay in their places; the diff is the split"
[ -s placed.diff ] && ! cmp -s placed.want placed.diff && head -n 12 placed.diff | sed 's/^/# /'
run $P --passes= placed.out.hlo -o placed.back.hlo
expect_status 0 "the output reads back"
expect_same_file placed.out.hlo placed.back.hlo "and is written back byte for byte"

# covered.hlo: paths into a tuple value (p#0) and nested instructions
# (negate(...)) have no lines of their own, their users' text holds them.
# XlaCombineCCOp combines the two all-reduces: the lines it writes name
# the path's get-tuple-elements and the nested negate, so those come as
# lines of their own (p_0 too, though m, the line that holds its path,
# stays as written), and the root, whose nested add holds a changed
# operand, is written anew; the result reads again
run $P --passes=XlaCombineCCOp "$K/covered.hlo" -o cov.hlo
expect_status 0 "XlaCombineCCOp on covered.hlo"
diff "$K/covered.hlo" cov.hlo >cov.diff
cat >cov.want <<'EOF'
11a12
>   %p_0 = f32[8]{0} get-tuple-element((f32[8]{0}, f32[8]{0}) %p), index=0
14,16c15,21
<   ar0 = f32[8] all-reduce(p#0), replica_groups={}, to_apply=sum
<   ar1 = f32[8] all-reduce(negate(p#1)), replica_groups={}, to_apply=sum
<   ROOT t = (f32[8], f32[8], f32[8]) tuple(m, ar0, add(ar1, q))
---
>   %p_1 = f32[8]{0} get-tuple-element((f32[8]{0}, f32[8]{0}) %p), index=1
>   %negate.anon = f32[8]{0} negate(f32[8]{0} %p_1)
>   %ar0 = (f32[8]{0}, f32[8]{0}) all-reduce(f32[8]{0} %p_0, f32[8]{0} %negate.anon), replica_groups={}, to_apply=sum
>   %ar0_1 = f32[8]{0} get-tuple-element((f32[8]{0}, f32[8]{0}) %ar0), index=1
>   %add.anon = f32[8]{0} add(f32[8]{0} %ar0_1, f32[8]{0} %q)
>   %ar0_0 = f32[8]{0} get-tuple-element((f32[8]{0}, f32[8]{0}) %ar0), index=0
>   ROOT %t = (f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(f32[8]{0} %m, f32[8]{0} %ar0_0, f32[8]{0} %add.anon)
EOF
cmp -s cov.want cov.diff
ok $? "covered.hlo: the lines that hold paths and nested lines stay while no new line names them"
[ -s cov.diff ] && ! cmp -s cov.want cov.diff && head -n 16 cov.diff | sed 's/^/# /'
run $P --passes= --verify-each cov.hlo -o cov.pir
expect_status 0 "and the result reads again"

# the kept text is beside the IR, not in it: the .pir has no comment of
# the input, and HLO written from the .pir is the writer's own text
run $P --passes= "$K/rsc.hlo" -o rsc.pir
! grep -q 'four rows\|the input' rsc.pir
ok $? "rsc.pir holds none of the kept text"
run $P --passes= rsc.pir -o rsc.back.hlo
grep -q '^  %param = f32\[32,8,128\]{2,1,0} parameter(0)$' rsc.back.hlo && ! cmp -s "$K/rsc.hlo" rsc.back.hlo
ok $? "from the .pir, HLO is written from the IR alone"

D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ -d "$D/xla-tests" ]; then
	# XLA's ReduceScatterCombiner PreservesMetadata module (indented
	# four spaces and more, as the test's string is): the combiner
	# rewrites the two reduce-scatters and the root tuple, and nothing
	# else; the lines it writes are in XLA's form ('%' names, typed
	# operands, layouts), not in the old root's
	f="$D/xla-tests/reduce_scatter_combiner_test__PreservesMetadata.hlo"
	run $P --passes=XlaCombineCCOp "$f" -o comb.hlo
	expect_status 0 "XlaCombineCCOp on XLA's PreservesMetadata module"
	diff "$f" comb.hlo >comb.diff
	cat >comb.want <<'EOF'
12,14c12,15
<       %rs.0 = f32[16] reduce-scatter(%param.0), replica_groups={{0,1}}, dimensions={0}, to_apply=%add, metadata={op_type="test_type0" op_name="test_name0"}
<       %rs.1 = f32[16] reduce-scatter(%param.1), replica_groups={{0,1}}, dimensions={0}, to_apply=%add, metadata={op_type="test_type1" op_name="test_name1"}
<       ROOT tuple = (f32[16], f32[16]) tuple(%rs.0, %rs.1)
---
>       %rs.0 = (f32[16]{0}, f32[16]{0}) reduce-scatter(f32[32]{0} %param.0, f32[32]{0} %param.1), replica_groups={{0,1}}, dimensions={0}, to_apply=%add, metadata={op_type="test_type0" op_name="test_name0"}
>       %rs.0_0 = f32[16]{0} get-tuple-element((f32[16]{0}, f32[16]{0}) %rs.0), index=0
>       %rs.0_1 = f32[16]{0} get-tuple-element((f32[16]{0}, f32[16]{0}) %rs.0), index=1
>       ROOT %tuple = (f32[16]{0}, f32[16]{0}) tuple(f32[16]{0} %rs.0_0, f32[16]{0} %rs.0_1)
EOF
	cmp -s comb.want comb.diff
	ok $? "PreservesMetadata: the diff is the combined line and its tuple's (3 lines out, 4 in)"
	[ -s comb.diff ] && ! cmp -s comb.want comb.diff && head -n 12 comb.diff | sed 's/^/# /'
else
	skip "no real HLO at $D (set HLO_DIR)"
fi
done_testing
