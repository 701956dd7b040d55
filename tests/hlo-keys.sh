#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-keys.sh — the table of hlo_* keys (sdk/ir/hlo_keys.h) and
# passline-hlo(5) agree: every key of the table is documented there, and
# the page documents no hlo_* key the table lacks (hlo_NAME, any kept HLO
# attribute, is the one pattern). The library names keys only through the
# table: no "hlo_..." string is left in sdk/ outside it. The shipped
# plugins and the host, written on the installed SDK alone, spell their
# keys, and each is one of the table's (so a documented one).
. "$top_srcdir/tests/tap.sh"
hdr="$top_srcdir/sdk/ir/hlo_keys.h"
# the HLO keys are documented in passline-hlo(5), those the IR itself reads
# (a loop's body and condition, branches) in passline-pir(5)
pages="$top_srcdir/doc/passline-hlo.5.in $top_srcdir/doc/passline-pir.5.in"

# the rows: X(ID, "hlo_key", ON, FORM, "meaning")
sed -n 's/^[[:space:]]*X([A-Z_0-9]*, "\(hlo_[a-z_0-9]*\)", .*/\1/p' "$hdr" | LC_ALL=C sort >"$T/table"
[ "$(grep -c . "$T/table")" -ge 20 ]
ok $? "the table has its rows ($(grep -c . "$T/table") keys)"
[ "$(grep -c '^[[:space:]]*X(' "$hdr")" -eq "$(grep -c . "$T/table")" ]
ok $? "every row of the table was read"
[ -z "$(uniq -d "$T/table")" ]
ok $? "no key is in the table twice"

cat $pages | grep -o 'hlo_[a-z][a-z_0-9]*' | LC_ALL=C sort -u >"$T/page"
LC_ALL=C comm -23 "$T/table" "$T/page" >"$T/undocumented"
[ ! -s "$T/undocumented" ]
ok $? "the man pages document every key of the table"
sed 's/^/# undocumented: /' "$T/undocumented"
LC_ALL=C comm -13 "$T/table" "$T/page" >"$T/unknown"
[ ! -s "$T/unknown" ]
ok $? "the man pages document no hlo_* key the table lacks"
sed 's/^/# not in the table: /' "$T/unknown"

# A string that is a key or the prefix ("hlo_"): in the library, none but
# the table's; a comment may still say hlo_NAME.
lit='"hlo_[a-z_0-9]*"'
find "$top_srcdir/sdk" -name '*.[ch]' ! -path '*/ir/hlo_keys.h' | LC_ALL=C sort >"$T/sdk"
[ "$(grep -c '/hlo/hlo_read\.c$\|/analysis/callgraph\.c$\|/hlo/verify/verify\.c$' "$T/sdk")" -eq 3 ]
ok $? "the library's sources were found ($(grep -c . "$T/sdk") files)"
# shellcheck disable=SC2046 # one word per path: the tree has no blanks
! grep -n "$lit" $(cat "$T/sdk") /dev/null >"$T/lit"
ok $? "no source of the library spells an hlo_* key outside the table"
sed "s|^$top_srcdir/|# |" "$T/lit"

# The plugins' and the host's keys (the prefix alone is not a key).
grep -ho "$lit" "$top_srcdir"/plugins/*.[ch] "$top_srcdir"/host/*.[ch] | tr -d '"' |
	grep -vx 'hlo_' | LC_ALL=C sort -u >"$T/used"
[ "$(grep -c . "$T/used")" -ge 5 ]
ok $? "the plugins and the host name keys ($(grep -c . "$T/used") of them)"
LC_ALL=C comm -23 "$T/used" "$T/table" >"$T/stray"
[ ! -s "$T/stray" ]
ok $? "every key a plugin or the host names is a row of the table (documented)"
sed 's/^/# not in the table: /' "$T/stray"
done_testing
