#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-verify-layers.sh — the HLO verifier (sdk/hlo/verify/) calls
# in floors, with no circle: verify.c, the dispatch table, calls the
# family files and the helpers; a family file calls only the helpers,
# never another family nor verify.c; a helper calls only the helpers
# before it (attrs.c, then diag.c, then groups.c and common.c). Read from
# the sources, comments left out: the functions each file defines without
# static, and which of them another file names. And no function in
# sdk/hlo is over 100 lines.
. "$top_srcdir/tests/tap.sh"
D="$top_srcdir/sdk/hlo/verify"

# The floor of a file of the folder: a file not named here is a family.
floor() {
	case $1 in
	attrs.c) echo 0 ;;
	diag.c) echo 1 ;;
	groups.c | common.c) echo 2 ;;
	verify.c) echo 4 ;;
	*) echo 3 ;;
	esac
}

# A C file without its comments.
uncomment() {
	awk '{
		out = ""; line = $0
		while (length(line)) {
			if (c) {
				p = index(line, "*/")
				if (!p) line = ""; else { line = substr(line, p + 2); c = 0 }
			} else {
				p = index(line, "/*")
				if (!p) { out = out line; line = "" }
				else { out = out substr(line, 1, p - 1); line = substr(line, p + 2); c = 1 }
			}
		}
		print out
	}' "$1"
}

# "FILE NAME" for each function a file defines for the others.
for f in "$D"/*.c; do
	b=$(basename "$f")
	uncomment "$f" | sed -n '/^static/d; /;[[:space:]]*$/d; s/^[A-Za-z].*[ *]\(hv_[a-z0-9_]*\)(.*/\1/p' |
		sed "s/^/$b /"
done >"$T/defs"
[ "$(grep -c . "$T/defs")" -ge 60 ] && grep -q '^diag\.c hv_bad$' "$T/defs" &&
	grep -q '^coll\.c hv_sdk_all_gather$' "$T/defs"
ok $? "the functions the verifier's files share were read ($(grep -c . "$T/defs"))"

# "USER DEFINER NAME" for each name a file uses that another defines.
for f in "$D"/*.c; do
	b=$(basename "$f")
	uncomment "$f" | grep -o 'hv_[a-z0-9_]*' | LC_ALL=C sort -u | while read -r n; do
		awk -v n="$n" -v b="$b" '$2 == n && $1 != b { print b, $1, n }' "$T/defs"
	done
done >"$T/uses"
grep -q '^verify\.c coll\.c hv_sdk_all_gather$' "$T/uses" && grep -q '^elem\.c diag\.c hv_bad$' "$T/uses"
ok $? "the calls between the files were read ($(grep -c . "$T/uses"))"

while read -r user definer name; do
	[ "$(floor "$definer")" -lt "$(floor "$user")" ] || echo "$user -> $definer: $name"
done <"$T/uses" >"$T/up"
[ ! -s "$T/up" ]
ok $? "every call goes down a floor: no family calls another or the table, no helper a check"
sed 's/^/# against the floors: /' "$T/up"

# Function bodies: from the line that names the function (at the left
# margin) to the "}" that ends it there.
find "$top_srcdir/sdk/hlo" -name '*.c' | LC_ALL=C sort >"$T/files"
[ "$(grep -c . "$T/files")" -ge 20 ]
ok $? "the sources of sdk/hlo were found ($(grep -c . "$T/files"))"
# shellcheck disable=SC2046 # one word per path: the tree has no blanks
awk '
	/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { if (!body) { head = FNR; name = $0 } }
	/^\{/ { if (head && !body) { body = 1; start = head } }
	/^\}/ { if (body) { n++; if (FNR - start + 1 > 100) print FILENAME ":" start ": " FNR - start + 1 " lines: " name; body = 0; head = 0 } }
	END { print n " functions" > "/dev/stderr" }' $(cat "$T/files") >"$T/long" 2>"$T/count"
[ ! -s "$T/long" ] && [ "$(cut -d' ' -f1 "$T/count")" -ge 300 ]
ok $? "no function in sdk/hlo is over 100 lines ($(cat "$T/count"))"
sed "s|^$top_srcdir/|# |" "$T/long"
done_testing
