#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo.sh — XLA HLO text in and out: the mapping onto the IR (a
# golden .pir), the text written back (a golden .hlo), the round trip,
# format selection by option, name and content, and bad input.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
H="$top_srcdir/tests/hlo"
cd "$T" || exit 99

run $P --passes= "$H/step.hlo"
expect_status 0 "a .hlo file is read as HLO"
expect_same_file "$T/out" "$H/step.pir" "HLO maps onto the IR as step.pir says"

run $P --passes= "$H/step.hlo" -o out.hlo
expect_status 0 "-o NAME.hlo writes HLO"
expect_same_file out.hlo "$H/step.hlo" "the HLO written is step.hlo, as it was read"
run $P --passes= out.hlo
expect_same_file "$T/out" "$H/step.pir" "reading the written HLO gives the same IR"

cp "$H/step.hlo" step.txt
run $P --passes= step.txt
expect_same_file "$T/out" "$H/step.pir" "a text starting with HloModule is read as HLO"
run sh -c "$P --passes= --output-format=pir - <step.txt"
expect_same_file "$T/out" "$H/step.pir" "standard input starting with HloModule is read as HLO"
run sh -c "$P --passes= - <step.txt"
expect_same_file "$T/out" "$H/step.hlo" "HLO read from standard input is written as HLO, as it was read"
run sh -c "$P --passes= - -o out.pir <step.txt"
expect_same_file out.pir "$H/step.pir" "... unless the -o name ends in .pir"
run sh -c "$P --passes= - <$H/step.pir"
expect_same_file "$T/out" "$H/step.pir" ".pir read from standard input is written as .pir"
cp "$H/step.hlo" step.pir
run $P --passes= --input-format=hlo step.pir
expect_same_file "$T/out" "$H/step.pir" "--input-format=hlo wins over the name"
run $P --passes= --input-format=pir "$H/step.hlo"
expect_status 1 "--input-format=pir reads HLO text as .pir"
run $P --passes= --input-format=xml "$H/step.hlo"
expect_status 2 "an unknown format is a usage error"
run $P --passes= "$H/step.pir" --output-format=hlo
expect_status 0 "--output-format=hlo"
expect_same_file "$T/out" "$H/step.out.hlo" ".pir read back from HLO writes step.out.hlo (the writer's own text: no comment)"
run $P --passes= step.txt -o out.hlo.txt
expect_same_file out.hlo.txt "$H/step.hlo" "-o NAME.hlo.txt writes HLO"

# Tuple lines come back by name, shape and place: one nothing uses, one
# after a parameter with its layouts and attributes, one shared by two
# others (tuples.hlo is written as XLA prints it).
run $P --passes= "$H/tuples.hlo"
expect_out 'hlo.tuple %zero, %zero {hlo_name = "unused"}' \
	"a tuple nothing uses is an instruction without results (its shape, the operands', not kept)"
expect_out 'hlo_operands = "pair@(f32[4,8]{0,1},f32[4,8]{0,1}),left@(tuple.7@(_,_),_),right@(tuple.7@(_,_),_)"' \
	"tuple operands are recorded with their names"
cp "$T/out" tuples.pir
run $P --passes= "$H/tuples.hlo" -o tuples.out.hlo
expect_same_file tuples.out.hlo "$H/tuples.hlo" "tuples.hlo is written back byte for byte"
run $P --passes= tuples.out.hlo
expect_same_file "$T/out" tuples.pir "and reads back as the same IR"
# Tuples inside a ROOT tuple keep their names and places too, at any depth
# and when two parts share one.
cat >nested.hlo <<'EOF_HLO'
HloModule nested

ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  inner = (f32[4]{0}, f32[4]{0}) tuple(p0, p1)
  n = f32[4]{0} negate(p0)
  middle = (f32[4]{0}, (f32[4]{0}, f32[4]{0})) tuple(n, inner)
  ROOT out = (f32[4]{0}, (f32[4]{0}, (f32[4]{0}, f32[4]{0})), (f32[4]{0}, f32[4]{0})) tuple(p1, middle, inner)
}

EOF_HLO
run $P --passes= nested.hlo -o nested.out.hlo
expect_same_file nested.out.hlo nested.hlo "tuples nested in a ROOT tuple are written back byte for byte"
run $P --passes= nested.hlo
cp "$T/out" nested.pir
run $P --passes= nested.out.hlo
expect_same_file "$T/out" nested.pir "and read back as the same IR"
# from .pir (no kept text) a tuple named in an operand structure is made
# right before its user
printf 'func @f(%%a: f32[4], %%b: f32[4]) attributes {hlo_entry = true} {\n  %%c = hlo.negate %%a : f32[4]\n  %%e = hlo.negate %%b : f32[4]\n  %%d = hlo.custom_call %%b, %%c, %%e {hlo_operands = "t@(_,_),_"} : f32[4]\n  return %%d\n}\n' >place.pir
run $P --passes= place.pir --output-format=hlo
sed -n '/negate(f32\[4\]{0} %a)/,/ROOT/p' "$T/out" >got
printf '  %%c = f32[4]{0} negate(f32[4]{0} %%a)\n  %%e = f32[4]{0} negate(f32[4]{0} %%b)\n  %%t = (f32[4]{0}, f32[4]{0}) tuple(f32[4]{0} %%b, f32[4]{0} %%c)\n  ROOT %%d = f32[4]{0} custom-call((f32[4]{0}, f32[4]{0}) %%t, f32[4]{0} %%e)\n' >want
expect_same_file got want "a tuple named in an operand structure is made before its user"

# A .pir group_id that names no replica groups is written as all devices,
# with a warning once per group.
printf 'func @f(%%a: f32[8], %%b: f32[8]) {\n  %%x = all_reduce %%a {group_id = "tp", reduce = "add"} : f32[8]\n  %%y = all_reduce %%b {group_id = "tp", reduce = "add"} : f32[8]\n  return %%x, %%y\n}\n' >tp.pir
run $P --passes= tp.pir --output-format=hlo
expect_status 0 "a named group is written"
expect_err 'tp.pir:2:3: warning: group_id "tp" names no replica groups: written as all devices' "with a warning"
[ "$(grep -c warning "$T/err")" -eq 1 ]
ok $? "once per group"

# The project's own .pir corpus: what HLO can express is written, and the
# IR read back from it is a fixed point (passline's own attributes such
# as fsdp are not carried, so the first .pir is not).
n=0 expressible=0 stable=0
for f in "$top_srcdir"/examples/*.pir "$top_srcdir"/tests/golden/*/*.pir; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	$P --passes= -q "$f" --output-format=hlo -o c1.hlo 2>/dev/null || continue
	expressible=$((expressible + 1))
	$P --passes= -q c1.hlo -o c1.pir && $P --passes= -q c1.pir --output-format=hlo -o c2.hlo &&
		$P --passes= -q c2.hlo -o c2.pir && cmp -s c1.pir c2.pir && stable=$((stable + 1))
done
echo "# .pir corpus: $expressible of $n written as HLO, $stable of them stable"
[ "$expressible" -ge 30 ] && [ "$stable" -eq "$expressible" ]
ok $? "the .pir corpus written as HLO reads back to a fixed point ($stable of $expressible)"

# HLO names are long: SplitAsyncCCOp names a start after its collective
# (under AddressSanitizer this once overflowed a buffer).
long=all-reduce.with.a.name.longer.than.thirty.two.bytes
printf 'HloModule m\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nENTRY e {\n  p = f32[8] parameter(0)\n  ROOT %s = f32[8] all-reduce(p), replica_groups={}, to_apply=add\n}\n' "$long" >long.hlo
run $P --passes=SplitAsyncCCOp long.hlo
expect_status 0 "SplitAsyncCCOp on a collective with a long HLO name"
expect_out "%$long""_s = all_reduce_start" "the start is named after it"

# A ROOT get-tuple-element used by a later line (ROOT need not be last):
# the written HLO has that one line as the ROOT, under its name.
printf 'HloModule m\nENTRY e {\n  p = (s32[], f32[4]) parameter(0)\n  ROOT i = s32[] get-tuple-element(p), index=0, foo=0\n  n = s32[] constant(8)\n  c = pred[] compare(i, n), direction=LT\n}\n' >rootgte.hlo
run $P --passes= rootgte.hlo -o rootgte.out.hlo
expect_status 0 "a ROOT get-tuple-element used after it is written"
run grep -c "get-tuple-element" rootgte.out.hlo
expect_out "1" "as one line"
run grep -qx "  ROOT i = s32\[\] get-tuple-element(p), index=0, foo=0" rootgte.out.hlo
expect_status 0 "which is the ROOT, under its name"
run $P --passes= rootgte.hlo -o rootgte.pir
run $P --passes= rootgte.out.hlo -o rootgte2.pir
run cmp rootgte.pir rootgte2.pir
expect_status 0 "reading it back gives the same IR"

# Such a line made first for an earlier use, with its element's layout
# (no operand shape recorded to say otherwise), takes the root's shape
# when it becomes the ROOT, and so do the operands that name it.
cat >rootlay.pir <<'EOF_PIR'
func @e(%p$0: i32[], %p$1: f32[4,2]) attributes {hlo_param_shapes = ["(s32[], f32[4,2]{0,1})"], hlo_entry = true} {
  %n = hlo.negate %p$1 {hlo_shape = "f32[4,2]{0,1}", hlo_operand_names = ["i"]} : f32[4,2]
  return %p$1 {hlo_name = "i", hlo_shape = "f32[4,2]{1,0}", hlo_opcode = "get-tuple-element"}
}
EOF_PIR
run $P --passes= rootlay.pir --output-format=hlo -o rootlay.hlo
expect_status 0 "a ROOT get-tuple-element used before it, in another layout, is written"
printf '%s\n' 'ENTRY %e (p: (s32[], f32[4,2])) -> f32[4,2] {' \
	'  %p = (s32[], f32[4,2]{0,1}) parameter(0)' \
	'  ROOT %i = f32[4,2]{1,0} get-tuple-element((s32[], f32[4,2]{0,1}) %p), index=1' \
	'  %n = f32[4,2]{0,1} negate(f32[4,2]{1,0} %i)' '}' >rootlay.want
tail -n 5 rootlay.hlo | cmp -s - rootlay.want
ok $? "in the root's layout, as its operand is"

# A shape the text leaves out is inferred where XLA's parser infers it:
# an elementwise op and a while have their first operand's shape, a select
# its second's, a compare its first's with pred elements (the kept text,
# not the IR, remembers it had none).
cat >infer.hlo <<'EOF_HLO'
HloModule infer

ENTRY main {
  a = f32[4]{0} parameter(0)
  b = f32[4]{0} parameter(1)
  p = pred[4]{0} parameter(2)
  n = negate(a)
  m = multiply(n, b)
  c = compare(a, b), direction=LT
  s = select(p, m, b)
  ROOT e = erf(s)
}
EOF_HLO
run $P --passes= infer.hlo
expect_status 0 "shapes left out are inferred"
for line in '%n = hlo.negate %a : f32[4]' \
	'%m = hlo.multiply %n, %b : f32[4]' \
	'%c = hlo.compare %a, %b {hlo_direction = "LT"} : bool[4]' \
	'%s = hlo.select %p, %m, %b : f32[4]' \
	'%e = hlo.erf %s : f32[4]'; do
	expect_out "$line" "inferred: $line"
done
cp "$T/out" infer.pir
run $P --passes= infer.hlo -o infer.out.hlo
expect_same_file infer.hlo infer.out.hlo "written back, the lines have no shape again"
run $P --passes= infer.pir -o infer.pir.hlo
grep -q '^  %n = f32\[4\]{0} negate(f32\[4\]{0} %a)$' infer.pir.hlo
ok $? "written from the .pir, a line has the shape inferred for it"

# A collective's reducer p0, p1, ROOT op(p0, p1) names its reduction by the
# opcode; any other opcode (or XLA's short async form of one) names none.
for pair in add:add multiply:mul maximum:max minimum:min and:and or:or subtract: add-start:; do
	op=${pair%%:*} want=${pair#*:}
	cat >red.hlo <<EOF_HLO
HloModule r

red {
  x = pred[] parameter(0)
  y = pred[] parameter(1)
  ROOT s = pred[] $op(x, y)
}

ENTRY main {
  a = pred[4]{0} parameter(0)
  ROOT r = pred[4]{0} all-reduce(a), replica_groups={{0,1}}, to_apply=red
}
EOF_HLO
	run $P --passes= red.hlo
	if [ -n "$want" ]; then
		expect_out "reduce = \"$want\"" "a reducer of $op reduces by $want"
	else
		! grep -q 'reduce = ' "$T/out"
		ok $? "a reducer of $op names no reduction"
	fi
done

# Bad input: file:line:col, exit 1, nothing written.
bad() { # bad TEXT MESSAGE DESCRIPTION
	printf '%s' "$1" >bad.hlo
	echo keep >out.pir
	run $P --passes= bad.hlo -o out.pir
	expect_err "$2" "$3"
	run grep -qx keep out.pir
	expect_status 0 "$3: no output changed"
}
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  ROOT b = f32[4] add(a, c)
}
' "bad.hlo:4:26: error: 'c' is not defined before this use" "an unknown operand"
bad 'HloModule m
ENTRY e {
  a = q32[4] parameter(0)
}
' "bad.hlo:3:7: error: unknown element type 'q32'" "an unknown element type"
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  a = f32[4] negate(a)
}
' "bad.hlo:4:3: error: 'a' is defined twice in this computation" "a name defined twice"
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(0), sharding={replicated
}
' "bad.hlo:5:1: error: file ends inside the body of computation 'e' (opened at 2:9)" "an attribute value that takes the closing brace"
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(1)
}
' "bad.hlo:3:3: error: parameter 1 leaves a gap in the numbering" "a gap in the parameters"
bad 'HloModule m
ENTRY e {
  a = (f32[4]) parameter(0)
  ROOT b = f32[4] get-tuple-element(a), index=3
}
' "bad.hlo:4:41: error: tuple index 3 is out of range" "a tuple index out of range"
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  ROOT b = custom-call(a), custom_call_target="x"
}
' "error: the shape of 'b' (custom-call) cannot be inferred; write it" "a shape left out where it cannot be inferred"
bad 'HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  ROOT b = negate-start(a)
}
' "bad.hlo:4:3: error: the shape of 'b' (negate-start) cannot be inferred; write it" "XLA's short async form of an elementwise op has no shape inferred"
bad 'HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  ROOT g = f32[32] all-gather(p), replica_groups={}
}
' "bad.hlo:4:3: error: 'g' (all-gather) has no dimensions=, which XLA's parser requires" "an all-gather without dimensions"
bad 'HloModule m
ENTRY e {
  ROOT a = f32[2,3]{0,0} parameter(0)
}
' "bad.hlo:3:23: error: the layout names dimension 0 twice" "a layout that is not a permutation"
bad 'HloModule m
ENTRY e {
  ROOT a = f32[2,3]{2,0} parameter(0)
}
' "bad.hlo:3:21: error: the layout names dimension 2 of a shape of rank 2" "a layout past the rank"
bad 'HloModule m
ENTRY e {
  ROOT a = (f32[4], f32[2,3]{1}) parameter(0)
}
' "bad.hlo:3:30: error: the layout lists 1 of the shape's 2 dimensions" "a layout too short, in a tuple"
bad 'HloModule m
ENTRY e {
  /* open
' "bad.hlo:4:1: error: file ends inside a comment (opened at 3:3)" "an unterminated comment"
bad 'HloModule m, replica_count=x
ENTRY e { a = f32[] parameter(0) }
' "bad.hlo:1:28: error: expected a count" "a bad replica count"
bad 'HloModule m
ENTRY e { a = f32[] parameter(0) }
ENTRY f { a = f32[] parameter(0) }
' "bad.hlo:3:1: error: a module has one ENTRY computation" "two ENTRY computations"

bad 'HloModule m
ENTRY e {
  a = f32[9223372036854775808] parameter(0)
}
' "bad.hlo:3:11: error: integer out of range" "an extent past INT64_MAX"
bad 'HloModule m
ENTRY e {
  y = f32[8] parameter(0)
  ROOT g = f32[8] negate(y), constant=add
}
' "bad.hlo:4:30: error: attribute name 'constant' is not supported (the reader uses 'hlo_constant' itself)" "an attribute named like one the reader keeps"
bad 'HloModule m
ENTRY e {
  x = f64[4] parameter(0)
  t = (f32[4]) tuple(x)
  ROOT y = f64[4] negate(x)
}
' "bad.hlo:4:3: error: the shape of tuple 't' does not match its operands" "a tuple nothing uses, of another shape than its operands"
bad 'HloModule m
ENTRY e {
  x = f64[4] parameter(0)
  t = (f32[4]) tuple(x)
  ROOT y = f32[4] get-tuple-element(t), index=0
}
' "bad.hlo:4:3: error: the shape of tuple 't' does not match its operands" "a tuple used, of another shape than its operands"
bad 'HloModule m
ENTRY e {
  ROOT x = f32[4] parameter(0)
}
StackFrames {
  ROOT y = f32[4] parameter(0)
}
' "bad.hlo:5:1: error: a computation may not be named 'StackFrames' (the word opens a table of stack frames after the module's header)" "a computation named like a table of stack frames"
# an extent of more than 18 digits that fits is read as its value
printf 'HloModule m\nENTRY e {\n  ROOT a = f32[000000000000000000004] parameter(0)\n}\n' >zeros.hlo
run $P --passes= zeros.hlo
expect_status 0 "an extent of 21 digits that fits"
expect_out "f32[4]" "is read as its value"

# A collective start that names a computation to call is not XLA's form of
# one (that is async-start): it is kept as written, and written back so.
cat >calls.hlo <<'EOF_HLO'
HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  a = f32[4]{0} parameter(0)
  c = f32[4]{0} all-reduce-start(a), replica_groups={}, to_apply=add, calls=add
  ROOT d = f32[4]{0} all-reduce-done(c)
}

EOF_HLO
run $P --passes= calls.hlo
expect_out '%c = hlo.all_reduce_start %a {hlo_replica_groups = "{}", hlo_to_apply = "add", hlo_calls = "add"} : f32[4]' \
	"an all-reduce-start with calls= is not read as the collective"
cp "$T/out" calls.pir
run $P --passes= calls.hlo -o calls.out.hlo
expect_same_file calls.out.hlo calls.hlo "and is written back as it was read"
run $P --passes= calls.out.hlo
expect_same_file "$T/out" calls.pir "and reads back as the same IR"
# A tuple nothing uses keeps its written shape only where the operands'
# types do not give it; written without one, it comes back the same.
cat >unused.hlo <<'EOF_HLO'
HloModule m

ENTRY main {
  x = f64[4,2] parameter(0)
  zero = s32[] constant(0)
  plain = (s32[], f64[4,2]{1,0}) tuple(zero, x)
  laid = (s32[], f64[4,2]{0,1}) tuple(zero, x)
  bare = tuple(x, zero)
  ROOT y = f64[4,2] negate(x)
}
EOF_HLO
run $P --passes= unused.hlo
expect_out 'hlo.tuple %zero, %x {hlo_name = "plain"}' "a tuple nothing uses, of its operands' shape"
expect_out 'hlo.tuple %zero, %x {hlo_name = "laid", hlo_shape = "(s32[], f64[4,2]{0,1})"}' \
	"a tuple nothing uses, of another layout"
expect_out 'hlo.tuple %x, %zero {hlo_name = "bare"}' \
	"a tuple nothing uses, written without a shape (its shape inferred)"
cp "$T/out" unused.pir
run $P --passes= unused.hlo -o unused.out.hlo
expect_status 0 "they are written"
run $P --passes= unused.out.hlo
expect_same_file "$T/out" unused.pir "and read back as the same IR"
# custom-call's literal=SHAPE VALUE has a space inside; a literal at the
# end of a line is not joined to the next one.
cat >literal.hlo <<'EOF_HLO'
HloModule m

ENTRY e {
  p = f32[] parameter(0)
  k = f32[] custom-call(p), custom_call_target="x", literal=f32[] 1
  l = f32[2] custom-call(p), custom_call_target="y", literal={1,2}
  ROOT c = f32[] add(p, k)
}
EOF_HLO
run $P --passes= literal.hlo
expect_out '%k = hlo.custom_call %p {hlo_custom_call_target = "\"x\"", hlo_literal = "f32[] 1"} : f32[]' \
	"a literal of a shape and a value"
expect_out '%l = hlo.custom_call %p {hlo_custom_call_target = "\"y\"", hlo_literal = "{1,2}"} : f32[2]' \
	"a literal at the end of its line ends there"
# A ROOT get-tuple-element of another layout than its element's, used
# before it: one line, under its name, with its layout.
cat >gte_root.hlo <<'EOF_HLO'
HloModule m

ENTRY main {
  p = (f32[8,16]{1,0}, f32[16,4]{1,0}) parameter(0)
  ROOT x = f32[8,16]{0,1} get-tuple-element(p), index=0
  w = f32[16,4]{1,0} get-tuple-element(p), index=1
  y = f32[8,4]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}

EOF_HLO
run $P --passes= gte_root.hlo
cp "$T/out" gte_root.pir
run $P --passes= gte_root.hlo -o gte_root.out.hlo
expect_same_file gte_root.out.hlo gte_root.hlo "is written back as it was read"
run $P --passes= gte_root.out.hlo
expect_same_file "$T/out" gte_root.pir "and reads back as the same IR"
# A collective start that names a computation to call is written as an
# async-start, which needs the shape it was read with.
cat >calls.pir <<'EOF_PIR'
func @main(%a: f32[4]) {
  %c = all_reduce_start %a {hlo_calls = "other", reduce = "add"} : f32[4]
  %d = all_reduce_done %c : f32[4]
  return %d
}
EOF_PIR
run $P --passes= calls.pir -o calls_out.hlo
expect_status 1 "a start with hlo_calls and no hlo_shape is not written as HLO"
expect_err "calls.pir:2:3: error: in @main, %c = 'all_reduce_start' cannot be written as XLA HLO: it is an async-start (it has hlo_calls), whose shape (hlo_shape) is missing or no longer fits" \
	"the error says why"
run test -e calls_out.hlo
expect_status 1 "and nothing is written"
# all-to-all and ragged-all-to-all keep their groups and group size as
# the SDK's collectives have them (group_id, factor), from an iota list
# and from "every replica"; the HLO written back is the same
cat >a2a.hlo <<'EOF_HLO'
HloModule a2a, replica_count=16

ENTRY e {
  p = f32[16,4] parameter(0)
  a = f32[16,4] all-to-all(p), dimensions={0}, replica_groups=[2,8]<=[16]
  o = f32[16,4] parameter(1)
  s = s64[16] parameter(2)
  ROOT r = f32[16,4] ragged-all-to-all(a, o, s, s, s, s), replica_groups={}
}
EOF_HLO
run $P --passes= a2a.hlo
expect_status 0 "all-to-all and ragged-all-to-all read"
expect_out '%a = hlo.all_to_all %p {group_id = "replica:{{0,1,2,3,4,5,6,7},{8,9,10,11,12,13,14,15}}", factor = 8,' \
	"all-to-all over replica_groups=[2,8]<=[16]: its groups and factor 8"
expect_out '%r = hlo.ragged_all_to_all %a, %o, %s, %s, %s, %s {group_id = "replica:all", factor = 16,' \
	"ragged-all-to-all over every replica: factor 16 (replica_count)"
run $P --passes= a2a.hlo -o a2a.out.hlo
diff -b -B a2a.hlo a2a.out.hlo >/dev/null
ok $? "and both are written back as they were"
done_testing
