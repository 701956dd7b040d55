#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/threads-real.sh — -j 2 against -j 1 on real XLA HLO (HLO_DIR, by
# default the shared/hlo folder beside the source tree; never copied into
# it) under the h100 cost model: the default pipeline and the
# latency-hiding pipeline (Timeline, LatencyHidingScheduler, the
# estimators with loops counted) write the same module, statistics,
# --stats-json, remarks and messages, byte for byte, in the same order.
# Under ThreadSanitizer (configure --enable-sanitizers=thread) this checks
# the threads on modules nobody here wrote. Skipped when the folder is
# absent.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}
if [ ! -d "$D/dumps" ]; then
	skip "no real HLO dumps at $D/dumps (set HLO_DIR)"
	done_testing
	exit 0
fi
cd "$T" || exit 99

# same_for_threads NAME OUTPUT-SUFFIX INPUT ARGS...: runs at -j 1 and -j 2
# from one folder each (Timeline writes its SVG beside the current folder)
# and compares every file the run left.
same_for_threads() {
	name=$1 suffix=$2 in=$3
	shift 3
	for j in 1 2; do
		mkdir "$name.$j" || exit 99
		# shellcheck disable=SC2086
		(cd "$name.$j" && $P -j $j -O cost_model.preset=h100 --stats --remarks \
			--stats-json stats.json "$@" "$in" -o "out.$suffix" >stdout 2>stderr
		echo $? >rc)
	done
	[ "$(cat "$name.1/rc")" = 0 ]
	ok $? "$name: -j 1 succeeds"
	[ -s "$name.1/out.$suffix" ] && [ -s "$name.1/stats.json" ] && [ -s "$name.1/stderr" ]
	ok $? "$name: -j 1 wrote a module, statistics and remarks"
	(cd "$name.1" && find . -type f | LC_ALL=C sort) >"$name.1.files"
	(cd "$name.2" && find . -type f | LC_ALL=C sort) >"$name.2.files"
	cmp -s "$name.1.files" "$name.2.files"
	ok $? "$name: -j 2 writes the same files as -j 1"
	while read -r file; do
		cmp -s "$name.1/$file" "$name.2/$file"
		ok $? "$name: -j 2 gives the same ${file#./} as -j 1"
	done <"$name.1.files"
}

# the largest dump (its text is read by two readers at -j 2) and a
# smaller one with collectives across data-parallel ranks
big=$D/dumps/kahfizulkifli__llama2__llama2_dp-1_tp-1_pp-1.hlo
small=$D/dumps/kahfizulkifli__bert__bert_dp_graph_2.hlo
for f in "$big" "$small"; do
	[ -r "$f" ] || { skip "no $f"; continue; }
	base=$(basename "$f" .hlo)
	same_for_threads "default-$base" hlo "$f"
	same_for_threads "pir-$base" pir "$f"
	same_for_threads "schedule-$base" hlo "$f" -p "$top_srcdir/conf/schedule.ini"
done
done_testing
