#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/run.sh SECONDS HARNESS... — runs each libFuzzer harness (built by
# `make fuzz-build`) for SECONDS on its committed seeds and regressions.
# New inputs go to fuzz/corpus-run/NAME, a crash to fuzz/crash-NAME-*.
# Run from the build folder; srcdir is the source folder. Every harness
# runs even when one before it fails; the exit status is non-zero when any
# failed, and the failed ones are named at the end.
set -u
secs=$1
shift
: "${srcdir:=.}"
failed=
for h in "$@"; do
	mkdir -p "fuzz/corpus-run/$h" || { failed="$failed $h"; continue; }
	echo "== fuzz_$h for $secs s"
	"fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="fuzz/crash-$h-" \
		"fuzz/corpus-run/$h" "$srcdir/fuzz/corpus/$h" "$srcdir/fuzz/regressions/$h" ||
		failed="$failed $h"
done
if [ -n "$failed" ]; then
	echo "fuzz/run.sh: failed:$failed" >&2
	exit 1
fi
