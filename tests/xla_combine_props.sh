#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/xla_combine_props.sh — properties of XlaCombineCCOp on random
# modules with stores, synchronous and asynchronous collectives
# (tests/pl-genasync): for every seed and a few option sets the output
# verifies after the pass (--verify-each), two runs (the second with
# --remarks) give the same bytes, and the collectives and starts fall by
# exactly what the statistics say (n merged into one: n - 1 fewer).
# XLA_COMBINE_SEEDS (default 100) seeds. Speaks TAP.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
GEN="$top_builddir/tests/pl-genasync"
seeds=${XLA_COMBINE_SEEDS:-100}
count() { # collectives and starts in a .pir file
	grep -c '= all_gather \|= reduce_scatter \|= all_reduce \|= [a-z_]*_start ' "$1" || true
}
stat() { # stat NAME FILE: a statistic of the --stats-json FILE
	grep -o "\"$1\": [0-9]*" "$2" | grep -o '[0-9]*$'
}
combined=0 s=1
while [ "$s" -le "$seeds" ]; do
	"$GEN" "$s" >"$T/in.pir" || exit 99
	case $((s % 3)) in
	0) opts="" ;;
	1) opts="-O XlaCombineCCOp.combine_by_dim=false -O XlaCombineCCOp.combine_threshold_in_bytes=40" ;;
	2) opts="-O XlaCombineCCOp.combine_threshold_count=2 -O XlaCombineCCOp.combine_different_dtypes=false" ;;
	esac
	fail=""
	for r in 1 2; do
		remarks=""
		[ "$r" = 2 ] && remarks=--remarks
		# shellcheck disable=SC2086 # options are words by design
		"$PASSLINE" --plugin-dir "$PLUGIN_DIR" --passes=XlaCombineCCOp --verify-each $remarks \
			$opts "$T/in.pir" -o "$T/out$r.pir" --stats-json "$T/stats$r.json" \
			2>"$T/err$r" || fail="the pass failed: $(head -c 300 "$T/err$r")"
	done
	if [ -z "$fail" ] && ! cmp -s "$T/out1.pir" "$T/out2.pir"; then
		fail="two runs differ"
	fi
	if [ -z "$fail" ]; then
		merged=$(($(stat num_all_gathers_combined "$T/stats1.json") +
			$(stat num_reduce_scatters_combined "$T/stats1.json") +
			$(stat num_all_reduces_combined "$T/stats1.json")))
		made=$(stat num_combined "$T/stats1.json")
		before=$(count "$T/in.pir") after=$(count "$T/out1.pir")
		[ $((before - after)) -eq $((merged - made)) ] ||
			fail="collectives $before -> $after, but $merged merged into $made"
		combined=$((combined + made))
	fi
	[ -z "$fail" ]
	ok $? "seed $s $opts${fail:+: $fail}"
	s=$((s + 1))
done
echo "# combined collectives made over all seeds: $combined"
[ "$combined" -gt 0 ]
ok $? "the random modules give the pass something to combine ($combined)"
done_testing
