#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/boundaries.sh — the passes that move or merge collectives keep each
# function's collectives in that function: none crosses a call boundary or
# moves into or out of a loop body. tests/loops/boundaries.hlo has in each
# function (the entry, a while's body, a called computation) collectives
# that could merge or move, the entry's right before and after the loop and
# the call; after each pass (and the chains that feed one pass to the next)
# every function still has, per kind, the same bytes of collective results
# (a sync collective's or a done's; a bucket or a flat buffer carries the
# bytes of what it merged), and the pass did act inside the functions.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
M="$top_srcdir/tests/loops/boundaries.hlo"
cd "$T" || exit 99

# "FUNCTION KIND BYTES" per function and kind of a .pir module, sorted.
per_function() {
	awk '
	BEGIN { size["f32"] = 4; size["s32"] = 4; size["i32"] = 4; size["bf16"] = 2
	        size["f16"] = 2; size["f64"] = 8; size["s64"] = 8; size["i64"] = 8
	        size["u8"] = 1; size["s8"] = 1; size["i8"] = 1; size["bool"] = 1 }
	/^func @/ { fn = $2; sub(/\(.*/, "", fn); next }
	match($0, / = (all_gather|all_reduce|reduce_scatter|all_to_all|collective_permute)(_done)? /) {
		op = substr($0, RSTART + 3, RLENGTH - 4); sub(/_done$/, "", op)
		ty = $0; sub(/.* : /, "", ty)
		while (match(ty, /[a-z0-9]+\[[0-9,]*\]/)) {
			t = substr(ty, RSTART, RLENGTH); ty = substr(ty, RSTART + RLENGTH)
			dt = t; sub(/\[.*/, "", dt); dims = t; sub(/^[^[]*\[/, "", dims); sub(/\]$/, "", dims)
			n = 1; k = split(dims, d, ","); for (i = 1; i <= k; i++) n *= d[i]
			bytes[fn " " op] += n * size[dt]
		}
	}
	END { for (key in bytes) print key, bytes[key] }' "$1" | LC_ALL=C sort
}

run $P --passes= "$M" -o before.pir
expect_status 0 "the module reads"
per_function before.pir >before.txt
# by hand: @body 3 all-gathers of f32[128] (1536 bytes), 2 all-reduces of
# f32[64] (512); @helper 2 all-reduces (512); @main 2 all-gathers (1024)
# and 3 all-reduces (768)
printf '%s\n' "@body all_gather 1536" "@body all_reduce 512" "@helper all_reduce 512" \
	"@main all_gather 1024" "@main all_reduce 768" >want.txt
expect_same_file before.txt want.txt "the collectives of each function, counted by hand"

for passes in HoistFSDPCollectives BucketizeCCOp BucketizeCCOp,CoalesceCCOp \
	SplitAsyncCCOp,OverlapBucketCCOp XlaCombineCCOp SplitAsyncCCOp \
	SplitAsyncCCOp,LatencyHidingScheduler ""; do
	name=${passes:-the default pipeline}
	if [ -n "$passes" ]; then
		run $P --passes="$passes" --verify-each "$M" -o after.pir
	else
		run $P --verify-each "$M" -o after.pir
	fi
	expect_status 0 "$name runs"
	per_function after.pir >after.txt
	expect_same_file after.txt before.txt "$name keeps each function's collectives in it"
	# what the last pass of a chain was given: the chain without it
	cp before.pir given.pir
	case $passes in *,*) $P --passes="${passes%,*}" "$M" -o given.pir 2>/dev/null ;; esac
	last=${passes##*,}
	! cmp -s given.pir after.pir
	ok $? "${last:-$name} changed what it was given (moved or merged inside the functions)"
done

done_testing
