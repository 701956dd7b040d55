# SPDX-License-Identifier: MIT
# tests/tap.sh — sourced by the shell tests: run a command, then assert on
# its exit status and output; each assertion is one TAP line. The plan is
# printed at the end (done_testing).
set -u
tap_n=0
T=$(mktemp -d "${TMPDIR:-/tmp}/pl-test.XXXXXX") || exit 99
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
status=0

# run CMD... : runs it with stdout in $T/out, stderr in $T/err, status in $status.
run() {
	"$@" >"$T/out" 2>"$T/err"
	status=$?
}

# run_in DIR CMD... : the same, in DIR.
run_in() {
	dir=$1
	shift
	(cd "$dir" && "$@") >"$T/out" 2>"$T/err"
	status=$?
}

# The diagnostics of a failed assertion, as TAP comments. awk ends the
# last line even when the cut output does not, so that the next TAP line
# starts a line of its own.
_tap_diag() {
	{
		echo "status: $status"
		echo "stderr:"
		head -c 2000 "$T/err" 2>/dev/null
		echo
		echo "stdout:"
		head -c 1000 "$T/out" 2>/dev/null
		echo
	} | awk '{ print "# " $0 }'
}

# really_root: true when the tests run with real root privileges, which
# setpriv, mknod and permission checks depend on. Under fakeroot id -u
# says 0 but nothing is privileged.
really_root() {
	[ "$(id -u)" -eq 0 ] || return 1
	[ -z "${FAKEROOTKEY:-}" ] || return 1
	case "${LD_PRELOAD:-}" in *fakeroot*) return 1 ;; esac
	return 0
}

# permissions_enforced: true when file modes stop this process (not root,
# and not under fakeroot, which keeps files usable whatever chmod says).
permissions_enforced() {
	mkdir "$T/.perm" && chmod 555 "$T/.perm" || return 1
	if (: >"$T/.perm/probe") 2>/dev/null; then set -- 1; else set -- 0; fi
	chmod 755 "$T/.perm"
	rm -rf "$T/.perm"
	return "$1"
}

# skip DESCRIPTION: one skipped TAP test, with the reason.
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

ok() { # ok CONDITION-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		_tap_diag
	fi
}

expect_status() { # expect_status WANT DESCRIPTION
	[ "$status" -eq "$1" ]
	ok $? "$2 (exit $1)"
}

expect_err() { # expect_err FIXED-TEXT DESCRIPTION: stderr contains the text
	grep -qF -- "$1" "$T/err"
	ok $? "$2"
}

expect_no_err() { # expect_no_err FIXED-TEXT DESCRIPTION
	! grep -qF -- "$1" "$T/err"
	ok $? "$2"
}

expect_out() { # expect_out FIXED-TEXT DESCRIPTION: stdout contains the text
	grep -qF -- "$1" "$T/out"
	ok $? "$2"
}

expect_err_exactly() { # expect_err_exactly TEXT DESCRIPTION: stderr is the text
	printf '%s\n' "$1" | cmp -s - "$T/err"
	ok $? "$2"
}

expect_same_file() { # expect_same_file A B DESCRIPTION
	cmp -s "$1" "$2"
	ok $? "$3"
}

have() { command -v "$1" >/dev/null 2>&1; }

# render SVG PNG WIDTH HEIGHT: a headless Chromium's screenshot of the
# picture at SVG (an absolute path) into PNG, WIDTH x HEIGHT pixels
render() {
	rm -rf chrome
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$T/chrome" --hide-scrollbars \
		--force-device-scale-factor=1 --window-size="$3,$4" --screenshot="$2" \
		"file://$1" >/dev/null 2>&1 && [ -s "$2" ]
}

done_testing() {
	echo "1..$tap_n"
}
