# SPDX-License-Identifier: MIT
# tests/unwrap.sh — sourced by the test environment (AM_TESTS_ENVIRONMENT).
# In the build tree $PASSLINE is libtool's wrapper script, which starts a
# shell and a sed on every run before it runs the program: most of the
# time of a small test, and the suite runs passline thousands of times.
# The program it runs is the binary in libtool's objdir with the
# library's folder first on LD_LIBRARY_PATH. When the wrapper says both
# plainly (and needs no relinking), run the binary that way: the same
# program, the same library. Anything else keeps the wrapper.
pl_unwrap() {
	_w=$1
	sed -n 2,4p "$_w" 2>/dev/null | grep -q ' - temporary wrapper script for ' || return 1
	grep -q '^relink_command=""$' "$_w" || return 1
	_d=$(sed -n 's/^  progdir="\$thisdir\/\([^"$]*\)"$/\1/p' "$_w")
	_p=$(sed -n "s/^  program='\\([^'/]*\\)'\$/\\1/p" "$_w")
	_l=$(sed -n 's/^    LD_LIBRARY_PATH="\([^"$]*\):\$LD_LIBRARY_PATH"$/\1/p' "$_w")
	[ -n "$_d" ] && [ -n "$_p" ] && [ -n "$_l" ] && [ -x "${_w%/*}/$_d/$_p" ] || return 1
	PASSLINE=${_w%/*}/$_d/$_p
	LD_LIBRARY_PATH=$_l${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export PASSLINE LD_LIBRARY_PATH
}
pl_unwrap "$PASSLINE" || :
unset -f pl_unwrap
unset _w _d _p _l
