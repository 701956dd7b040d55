#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-roundtrip.sh — HLO comes back in the spelling it was read in.
# The bundled modules (tests/hlo/form: '%' names, signatures and typed
# operands as older XLA prints; '%' and signatures as current XLA prints;
# no layouts as tests write) are written back with no pass as they were,
# up to white space, and the lines passes make take the same spelling.
# Every real dump (HLO_DIR, by default the shared/hlo folder beside the
# source tree, when present) keeps each line but its get-tuple-element and
# tuple lines: the same lines, up to white space, in any order; and the
# names the writer makes (written back with no pass, and after the default
# and the asynchronous pipelines) are new in the whole module: no name is
# defined twice where the dump defines each once.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
F="$top_srcdir/tests/hlo/form"
cd "$T" || exit 99

for m in long xla bare; do
	run $P --passes= "$F/$m.hlo" -o $m.hlo
	expect_status 0 "$m.hlo reads and writes"
	diff -b -B "$F/$m.hlo" $m.hlo >/dev/null
	ok $? "$m.hlo is written back as it was, up to white space"
done

# the form is recorded on the entry function
run $P --passes= "$F/long.hlo" -o long.pir
for k in hlo_sigils hlo_signatures hlo_typed_operands; do
	grep -q "$k = true" long.pir
	ok $? "long.hlo records $k"
done
! grep -q 'hlo_no_layouts' long.pir
ok $? "long.hlo, which has layouts, records no hlo_no_layouts"
run $P --passes= "$F/bare.hlo" -o bare.pir
grep -q 'hlo_no_layouts = true' bare.pir && ! grep -q 'hlo_sigils\|hlo_signatures\|hlo_typed' bare.pir
ok $? "bare.hlo records hlo_no_layouts only"

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
grep -q '^  rs0 = f32\[4\] reduce-scatter-done(rs0_s)$' bare.split.hlo && ! grep -q '\]{' bare.split.hlo
ok $? "in a module without layouts the new lines have none"
for m in long bare; do
	run $P --passes= $m.split.hlo -o $m.again.hlo
	expect_same_file $m.split.hlo $m.again.hlo "$m.hlo after SplitAsyncCCOp reads back to the same text"
done

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
else
	skip "no real HLO at $D (set HLO_DIR)"
fi
done_testing
