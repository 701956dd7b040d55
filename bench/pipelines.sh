#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/pipelines.sh — every shipped pipeline (conf/*.ini), and every other
# order of its passes, on real training steps: ScheduleEstimate's exposed
# communication (exposed_comm_ns, summed over functions) and step time
# (step_ns: one execution of the entry with its calls), under the default
# cost model or the one the -O options set.
#
#   bench/pipelines.sh [-O KEY=VALUE ...] [STEP.hlo ...]
#
# -O is passed to passline (for example -O cost_model.preset=h100). Default
# steps: every $HLO_DIR/dumps/*.hlo (HLO_DIR defaults to shared/hlo beside
# the source tree). Prints one line per step, pipeline and order:
#   STEP PIPELINE ORDER exposed_ms step_ms
# where ORDER is the passes before the estimators:
#   H HoistFSDPCollectives    B BucketizeCCOp (all_gather_max_bytes = 64MiB)
#   S SplitAsyncCCOp          O OverlapBucketCCOp
#   L LatencyHidingScheduler  C CoalesceCCOp
#   X XlaCombineCCOp (combine_by_dim = false)
# The estimators (DynamicInstEstimator, DetailDynInst, ScheduleEstimate)
# always end it, and Timeline, which changes nothing, is left out. The
# orders of a pipeline are every permutation of its passes (for schedule,
# those with LatencyHidingScheduler after the split it schedules), then a
# few that add passes (marked +); * marks the order shipped. compare-overlap
# has overlap's passes and is not run again. Environment: srcdir, builddir
# (default .).
set -eu
: "${srcdir:=.}" "${builddir:=.}"
: "${HLO_DIR:=$srcdir/../shared/hlo}"
passline="$builddir/passline"
plugins="$builddir/plugins/.libs"
opts=""
while [ $# -gt 1 ] && [ "$1" = "-O" ]; do
	opts="$opts -O $2"
	shift 2
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-pipelines.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ $# -gt 0 ] || set -- "$HLO_DIR"/dumps/*.hlo

perms() { # perms LETTERS: every order of them, one a line
	echo "$1" | awk '
		function p(done, left,   i) {
			if (left == "") { print done; return }
			for (i = 1; i <= length(left); i++)
				p(done substr(left, i, 1),
				  substr(left, 1, i - 1) substr(left, i + 1))
		}
		{ p("", $1) }'
}

words() { tr '\n' ' '; } # lines to words on one line

# the pipelines: name, shipped order, then the orders to try
orders() {
	echo "default HBC $(perms HBC | words)"
	echo "async SH $(perms SH | words) HBS+ BSH+"
	echo "overlap HSOC $(perms HSOC | words) HBSOC+ BHSOC+ SHBOC+ HBSC+"
	echo "schedule HBSLC $(perms HBSLC | awk 'index($0, "L") > index($0, "S")' | words)"
	echo "compare-neuron HBSC $(perms HBSC | words)"
	echo "compare-xla XSC $(perms XSC | words)"
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
			L) printf '[pass LatencyHidingScheduler]\n' ;;
			X) printf '[pass XlaCombineCCOp]\ncombine_by_dim = false\n' ;;
			esac
		done
		printf '[pass DynamicInstEstimator]\n[pass DetailDynInst]\n[pass ScheduleEstimate]\n'
	} >"$tmp/p.ini"
}

for step in "$@"; do
	name=$(basename "$step" .hlo)
	orders | while read -r pipe shipped rest; do
		for o in $rest; do
			ini "${o%+}"
			mark=""
			[ "$o" = "$shipped" ] && mark="*"
			# shellcheck disable=SC2086 # opts is a list of words
			if "$passline" --plugin-dir "$plugins" -p "$tmp/p.ini" $opts --stats -q \
				"$step" -o /dev/null 2>"$tmp/err"; then
				awk -v s="$name" -v p="$pipe" -v o="$o$mark" '
					$2 == "ScheduleEstimate.exposed_comm_ns" {e = $1}
					$2 == "ScheduleEstimate.step_ns" {t = $1}
					END {printf "%s %s %s %.3f %.3f\n", s, p, o, e / 1e6, t / 1e6}' "$tmp/err"
			else
				echo "$name $pipe $o$mark failed: $(head -n 1 "$tmp/err")"
			fi
		done
	done
done
