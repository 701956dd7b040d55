#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pir-eof.sh — .pir text that stops early is refused with a message
# that says the file ends, where, and inside what (opened where): one
# cut file per kind of construct in tests/pir/eof, each with the message
# it must give (NAME.err), exit status 1 and no output file written.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
E="$top_srcdir/tests/pir/eof"
cd "$T" || exit 99

for f in "$E"/*.pir; do
	n=$(basename "$f" .pir)
	cp "$f" "$n.pir"
	rm -f out.pir
	$P --passes= "$n.pir" -o out.pir 2>"$n.msg"
	s=$?
	[ "$s" -eq 1 ] && [ ! -e out.pir ]
	ok $? "$n: exit 1, nothing written"
	expect_same_file "$n.msg" "$E/$n.err" "$n: the message says where the file ends, inside what"
done
done_testing
