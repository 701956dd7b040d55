#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-verify.sh — HLO that XLA rejects, or that is cut short, is
# refused: one module per rule in tests/hlo/bad (eof-*: per kind of place
# a file can end early), each with the message it must give (NAME.err),
# exit status 1 and no output file written; the valid modules of
# tests/hlo/good, forms those rules check, are read.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
B="$top_srcdir/tests/hlo/bad"
cd "$T" || exit 99

for f in "$B"/*.hlo; do
	n=$(basename "$f" .hlo)
	cp "$f" "$n.hlo"
	rm -f out.pir
	$P --passes= "$n.hlo" -o out.pir 2>"$n.msg"
	s=$?
	[ "$s" -eq 1 ] && [ ! -e out.pir ]
	ok $? "$n: exit 1, nothing written"
	expect_same_file "$n.msg" "$B/$n.err" "$n: the message names what was expected"
done
for f in "$top_srcdir"/tests/hlo/good/*.hlo; do
	n=$(basename "$f" .hlo)
	rm -f out.pir
	$P --passes= "$f" -o out.pir 2>"$n.msg"
	ok $? "good/$n: read"
	expect_same_file "$n.msg" /dev/null "good/$n: no message"
done
done_testing
