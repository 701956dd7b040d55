#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz-replay.sh — replays every committed fuzz seed and every input
# that once crashed through its harness (built without libFuzzer).
. "$top_srcdir/tests/tap.sh"
for h in pir predicate pipeline default async hlo halves; do
	dirs=""
	for d in "$top_srcdir/fuzz/corpus/$h" "$top_srcdir/fuzz/regressions/$h"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086
	run "$top_builddir/fuzz/replay_$h" $dirs
	expect_status 0 "fuzz harness $h replays its seeds and regressions"
	grep -q "replayed [1-9]" "$T/out"
	ok $? "fuzz harness $h has inputs ($(cat "$T/out"))"
done
done_testing
