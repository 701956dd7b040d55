#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/reduce_scatter_creator_real.sh — ReduceScatterCreator on the real
# steps of HLO_DIR/dumps (never copied into the tree). On every dump:
#  - the reduce-scatters made are those tests/reduce_scatter_reference.py
#    finds, apart from the C code, by running each dynamic-slice's offset
#    on every device; and that count is the one read off the dumps by hand
#    (9 per scanned XLA benchmark step, the gradient all-reduces of its
#    backward loop; none elsewhere);
#  - the flops lost per function (ScheduleEstimate's per-function file) are
#    exactly those of the dynamic-slices removed, and DetailDynInst's
#    Total_flops drops by them times each function's executions: nothing
#    else that computes is touched;
#  - the written HLO reads again, and the pass finds nothing more in it.
# Skipped without the dumps or python3.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
REF="$top_srcdir/tests/reduce_scatter_reference.py"
if [ ! -d "$D/dumps" ]; then
	skip "no real HLO at $D/dumps (set HLO_DIR)"
	done_testing
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 is not installed"
	done_testing
	exit 0
fi
cd "$T" || exit 99
stat_of() { # stat_of NAME FILE: a statistic of a --stats-json file
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2" | head -n 1
}
# the counts read off the dumps: grep 'dynamic-slice(%all-reduce' and the
# offset of each (a table of this partition's shard starts)
expected() {
	case $1 in
	xla-benchmarks__hlo_*) echo 9 ;;
	*) echo 0 ;;
	esac
}
for f in "$D"/dumps/*.hlo; do
	b=$(basename "$f" .hlo)
	python3 "$REF" "$f" >ref.txt
	want=$(sed -n 's/^created //p' ref.txt)
	[ "$want" = "$(expected "$b")" ]
	ok $? "$b: the reference finds $want, as read off the dump"

	rm -rf before after
	mkdir before after
	run $P --passes=ScheduleEstimate,DetailDynInst -O ScheduleEstimate.functions=f.json \
		--stats-json before/s.json "$f" -o before/out.pir
	expect_status 0 "$b: costed as dumped"
	run $P --passes=ReduceScatterCreator,ScheduleEstimate,DetailDynInst \
		-O ScheduleEstimate.functions=f.json --verify-each --stats-json after/s.json "$f" \
		-o after/out.hlo
	expect_status 0 "$b: ReduceScatterCreator runs"
	got=$(stat_of num_created after/s.json)
	[ "$got" = "$want" ]
	ok $? "$b: $got reduce-scatters made, as the reference"

	python3 - before/f.json after/f.json ref.txt \
		"$(stat_of Total_flops before/s.json)" "$(stat_of Total_flops after/s.json)" <<'EOF'
import json, sys
fb, fa, ref, tb, ta = sys.argv[1:6]
before = {f['name']: f for f in json.load(open(fb))['functions']}
after = {f['name']: f for f in json.load(open(fa))['functions']}
lost = {}
for line in open(ref):
    w = line.split()
    if w[0] == 'flops':
        lost[w[1]] = int(w[2])
bad = [n for n in before
       if before[n]['flops'] - after[n]['flops'] != lost.get(n, 0)]
total = sum(before[n]['executions'] * k for n, k in lost.items())
if bad or int(tb) - int(ta) != total:
    print('# functions whose flops moved otherwise: %s; Total_flops %s -> %s, expected a drop of %d'
          % (bad[:5], tb, ta, total))
    sys.exit(1)
EOF
	ok $? "$b: flops drop by the removed dynamic-slices' only, per function and in Total_flops"

	run $P --passes=ReduceScatterCreator --stats-json again.json after/out.hlo -o again.hlo
	[ "$status" -eq 0 ] && [ "$(stat_of num_created again.json)" = 0 ]
	ok $? "$b: the written HLO reads again, with nothing more to make"
done
done_testing
