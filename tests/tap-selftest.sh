#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tap-selftest.sh — tests/tap.sh itself: a failing assertion's
# diagnostics are TAP comments, each on a line of its own, even when the
# captured output is cut or does not end with a newline, so the next
# result starts a line (a garbled log reads "# OUT-OF-ORDER").
. "$top_srcdir/tests/tap.sh"
cd "$T" || exit 99
# A failing assertion, then a passing one, in a shell of their own.
(
	. "$top_srcdir/tests/tap.sh"
	printf 'no newline at the end' >"$T/err"
	head -c 3000 /dev/zero | tr '\0' x >"$T/out" # longer than the cut
	false
	ok $? "first"
	ok 0 "second"
	done_testing
) >tap.out
awk '!/^(ok|not ok) [0-9]+ - |^# |^1\.\.[0-9]+$/ { bad = 1; print "# stray: " $0 } END { exit bad }' tap.out
ok $? "every line of a failing assertion's output is a result, a comment or the plan"
grep -q '^ok 2 - second$' tap.out
ok $? "the next result starts a line of its own"
grep -q '^# no newline at the end$' tap.out
ok $? "output without a final newline is shown, as a comment"
done_testing
