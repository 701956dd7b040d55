#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/pipelines.sh — the shipped pipelines, and every order of their
# passes, on real training steps: ScheduleEstimate's exposed communication
# (exposed_comm_ns) and step time (makespan_ns), summed over functions,
# under the pipeline's cost model (the default one: no [cost_model]).
#
#   bench/pipelines.sh [STEP.hlo ...]
#
# Default steps: $HLO_DIR/dumps/xla-benchmarks__*.hlo (HLO_DIR defaults to
# shared/hlo beside the source tree). Prints one line per step and order:
#   STEP PIPELINE ORDER exposed_ms step_ms
# where ORDER is the passes before the estimators (H HoistFSDPCollectives,
# B BucketizeCCOp with conf/default.ini's all_gather_max_bytes = 64MiB,
# C CoalesceCCOp, S SplitAsyncCCOp, O OverlapBucketCCOp); the estimators
# (DynamicInstEstimator, DetailDynInst, ScheduleEstimate) always end it,
# and Timeline, which changes nothing, is left out. Orders marked * are
# the shipped ones. Environment: srcdir, builddir (default .).
set -eu
: "${srcdir:=.}" "${builddir:=.}"
: "${HLO_DIR:=$srcdir/../shared/hlo}"
passline="$builddir/passline"
plugins="$builddir/plugins/.libs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-pipelines.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ $# -gt 0 ] || set -- "$HLO_DIR"/dumps/xla-benchmarks__*.hlo

# the pipelines: name, shipped order, then the other orders of its passes
# (every permutation; for overlap also orders that add B before the split)
orders() {
	echo "default HBC HCB BHC BCH CHB CBH"
	echo "async SH HS HBS"
	echo "overlap HSOC HSCO HOSC SHOC SOHC HBSOC HBSO HSO"
}

ini() { # ini ORDER: the pipeline file of that order
	{
		printf '[pipeline]\nname = order-%s\n' "$1"
		left=$1
		while [ -n "$left" ]; do
			c=${left%"${left#?}"}
			left=${left#?}
			case $c in
			H) printf '[pass HoistFSDPCollectives]\n' ;;
			B) printf '[pass BucketizeCCOp]\nall_gather_max_bytes = 64MiB\n' ;;
			C) printf '[pass CoalesceCCOp]\n' ;;
			S) printf '[pass SplitAsyncCCOp]\n' ;;
			O) printf '[pass OverlapBucketCCOp]\n' ;;
			esac
		done
		printf '[pass DynamicInstEstimator]\n[pass DetailDynInst]\n[pass ScheduleEstimate]\n'
	} >"$tmp/p.ini"
}

for step in "$@"; do
	name=$(basename "$step" .hlo)
	orders | while read -r pipe shipped rest; do
		for o in $shipped $rest; do
			ini "$o"
			mark=""
			[ "$o" = "$shipped" ] && mark="*"
			if "$passline" --plugin-dir "$plugins" -p "$tmp/p.ini" --stats -q "$step" \
				-o /dev/null 2>"$tmp/err"; then
				awk -v s="$name" -v p="$pipe" -v o="$o$mark" '
					$2 == "ScheduleEstimate.exposed_comm_ns" {e = $1}
					$2 == "ScheduleEstimate.makespan_ns" {m = $1}
					END {printf "%s %s %s %.3f %.3f\n", s, p, o, e / 1e6, m / 1e6}' "$tmp/err"
			else
				echo "$name $pipe $o$mark failed: $(head -n 1 "$tmp/err")"
			fi
		done
	done
done
