#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/run.sh SECONDS HARNESS... — runs each libFuzzer harness (built by
# `make fuzz-build`) for SECONDS on its committed seeds and regressions.
# New inputs go to fuzz/corpus-run/NAME, a crash to fuzz/crash-NAME-*, the
# output of each run to fuzz/log-NAME.txt. FUZZ_JOBS harnesses (default 2)
# run at a time. Run from the build folder; srcdir is the source folder.
# Every harness runs even when another fails; the exit status is non-zero
# when any failed, and the end of the output names the failed ones with
# the report of each (the error, its stack, the input in base64), so a
# CI log that shows only its last lines still says what went wrong.
set -u
secs=$1
shift
: "${srcdir:=.}"
: "${FUZZ_JOBS:=2}"

run_one() {
	h=$1
	mkdir -p "fuzz/corpus-run/$h" || return 1
	"fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="fuzz/crash-$h-" \
		"fuzz/corpus-run/$h" "$srcdir/fuzz/corpus/$h" "$srcdir/fuzz/regressions/$h" \
		>"fuzz/log-$h.txt" 2>&1
}

# Starts the harnesses FUZZ_JOBS at a time; each leaves fuzz/status-NAME.
pending=$*
while [ -n "$pending" ]; do
	batch=
	n=0
	for h in $pending; do
		[ "$n" -lt "$FUZZ_JOBS" ] || break
		batch="$batch $h"
		n=$((n + 1))
	done
	rest=
	for h in $pending; do
		case " $batch " in *" $h "*) ;; *) rest="$rest $h" ;; esac
	done
	pending=$rest
	for h in $batch; do
		echo "== fuzz_$h for $secs s"
		(run_one "$h"; echo $? >"fuzz/status-$h") &
	done
	wait
done

failed=
for h in "$@"; do
	rc=$(cat "fuzz/status-$h" 2>/dev/null || echo 1)
	rm -f "fuzz/status-$h"
	grep -h '^Done [0-9]* runs\|^stat::average_exec_per_sec' "fuzz/log-$h.txt" 2>/dev/null |
		sed "s/^/   $h: /"
	[ "$rc" -eq 0 ] || failed="$failed $h"
done
for h in $failed; do
	echo "== fuzz_$h FAILED; its report (fuzz/log-$h.txt):" >&2
	# from the first error line on, without the fuzzer's dictionary;
	# the last lines when no error line is found
	report=$(sed -n '/ERROR\|runtime error\|^==[0-9]*== *WARNING\|Test unit written\|^Base64/,$p' \
		"fuzz/log-$h.txt" 2>/dev/null | grep -v '^"\|# Uses:\|dictionary\|^stat::' | head -60)
	[ -n "$report" ] || report=$(tail -20 "fuzz/log-$h.txt" 2>/dev/null)
	printf '%s\n' "$report" >&2
done
if [ -n "$failed" ]; then
	echo "fuzz/run.sh: failed:$failed" >&2
	exit 1
fi
