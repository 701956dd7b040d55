#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-keys.sh — the table of hlo_* keys (sdk/ir/hlo_keys.h) and
# passline-pir(5) agree: every key of the table is documented there, and
# the page documents no hlo_* key the table lacks (hlo_NAME, any kept HLO
# attribute, is the one pattern). The HLO reader, writer and the code
# that rewrites the long forms name keys only through the table.
. "$top_srcdir/tests/tap.sh"
hdr="$top_srcdir/sdk/ir/hlo_keys.h"
page="$top_srcdir/doc/passline-pir.5.in"

# the rows: X(ID, "hlo_key", ON, FORM, "meaning")
sed -n 's/^[[:space:]]*X([A-Z_]*, "\(hlo_[a-z_]*\)", .*/\1/p' "$hdr" | LC_ALL=C sort >"$T/table"
[ "$(grep -c . "$T/table")" -ge 20 ]
ok $? "the table has its rows ($(grep -c . "$T/table") keys)"
[ "$(grep -c '^[[:space:]]*X(' "$hdr")" -eq "$(grep -c . "$T/table")" ]
ok $? "every row of the table was read"
[ -z "$(uniq -d "$T/table")" ]
ok $? "no key is in the table twice"

grep -o 'hlo_[a-z][a-z_]*' "$page" | LC_ALL=C sort -u >"$T/page"
LC_ALL=C comm -23 "$T/table" "$T/page" >"$T/undocumented"
[ ! -s "$T/undocumented" ]
ok $? "passline-pir(5) documents every key of the table"
sed 's/^/# undocumented: /' "$T/undocumented"
LC_ALL=C comm -13 "$T/table" "$T/page" >"$T/unknown"
[ ! -s "$T/unknown" ]
ok $? "passline-pir(5) documents no hlo_* key the table lacks"
sed 's/^/# not in the table: /' "$T/unknown"

for f in hlo_read.c hlo_write.c hlo_form.c; do
	! grep -n '"hlo_[a-z]' "$top_srcdir/sdk/hlo/$f" >"$T/lit"
	ok $? "sdk/hlo/$f spells no hlo_* key outside the table"
	sed 's/^/# /' "$T/lit"
done
done_testing
