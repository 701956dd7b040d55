#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-literals.sh — the passes, the analyses and the host ask the
# table of HLO opcodes (passline/hlo_ops.h) what an instruction is and
# name the ops they create through it: at most a few string literals in
# sdk/analysis, plugins and host spell an opcode of the table, either as
# the reader's op ("hlo.dynamic_update_slice") or as HLO spells it
# ("dynamic-update-slice"). The names come from the table's rows; the
# SDK's own ops (passline/ops.h: "all_gather", "reduce", ...) and
# comments do not count. A bare spelling is an ordinary word as well
# ("compare" is an option, "parameter" a kind of buffer), so it counts
# only where it is compared as a string (on a line that calls strcmp,
# strncmp, memcmp, strstr or an op_is-like helper) or stands in a list of
# two or more opcodes on one line.
. "$top_srcdir/tests/tap.sh"
limit=10
table="$top_srcdir/sdk/include/passline/hlo_ops.h"
sdkops="$top_srcdir/sdk/include/passline/ops.h"

# the rows: X(ID, "hlo-spelling", "hlo.op", ...)
sed -n 's/^[[:space:]]*X([A-Z_0-9]*, *"\([a-z0-9-]*\)", *"\(hlo\.[a-z0-9_]*\)",.*/\1 \2/p' \
	"$table" >"$T/names"
rows=$(grep -c '^[[:space:]]*X(' "$table")
[ "$rows" -ge 100 ] && [ "$(grep -c . "$T/names")" -eq "$rows" ]
ok $? "every row of the opcode table was read ($rows opcodes)"

awk '/^#define PL_OP_TABLE/, /^typedef/' "$sdkops" |
	sed -n 's/.*X([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p' >"$T/own"
grep -qx all_gather "$T/own" && grep -qx reduce "$T/own" && [ "$(grep -c . "$T/own")" -ge 10 ]
ok $? "the SDK's own op names were read ($(grep -c . "$T/own") of them)"

# count.awk NAMES OWN FILE...: prints FILE:LINE: "LITERAL" for each string
# literal outside comments that spells an opcode (see above)
cat >"$T/count.awk" <<'EOF'
FILENAME == ARGV[1] {
	split("- -start -update -done", sfx, " ")
	for (k = 1; k <= 4; k++) {
		s = sfx[k] == "-" ? "" : sfx[k]
		bare[$1 s] = 1
		u = s
		gsub(/-/, "_", u)
		hlo[$2 u] = 1
	}
	next
}
FILENAME == ARGV[2] { own[$1] = 1; next }
FNR == 1 { incomment = 0 }
{
	line = $0; i = 1; n = length(line); nlit = 0; code = ""
	while (i <= n) {
		if (incomment) {
			j = index(substr(line, i), "*/")
			if (!j) break
			i += j + 1; incomment = 0
			continue
		}
		c = substr(line, i, 1); d = substr(line, i, 2)
		if (d == "//") break
		if (d == "/*") { incomment = 1; i += 2; continue }
		if (c == "\"" || c == "'") {
			q = c; lit = ""; i++
			while (i <= n) {
				c = substr(line, i, 1)
				if (c == "\\") { lit = lit substr(line, i, 2); i += 2; continue }
				if (c == q) break
				lit = lit c; i++
			}
			i++
			if (q == "\"") lits[++nlit] = lit
			code = code " "
			continue
		}
		code = code c; i++
	}
	compares = code ~ /(str|mem)n?(case)?cmp[ \t]*\(|strstr[ \t]*\(|_is[ \t]*\(/
	nbare = 0
	for (k = 1; k <= nlit; k++)
		if ((lits[k] in bare) && !(lits[k] in own))
			nbare++
	for (k = 1; k <= nlit; k++) {
		l = lits[k]
		if (l in own)
			continue
		if ((l in hlo) || ((l in bare) && (compares || nbare >= 2)))
			printf "%s:%d: \"%s\"\n", FILENAME, FNR, l
	}
}
EOF
count() {
	awk -f "$T/count.awk" "$T/names" "$T/own" "$@"
}

# The counter itself, on a source made to hold each case once.
cat >"$T/probe.c" <<'EOF'
/* a comment naming "hlo.while" and "tuple" does not count */
static const char *const a = "hlo.while"; // counts: "hlo.tuple" here does not
static int b(const char *s) { return strcmp(s, "get-tuple-element"); }
static const char *const c[] = {"all_gather", "reduce", "return"};
static const char *const d[] = {"copy", "slice"};
static const char *const e = "compare", *f = "hlo.reduce_scatter_start";
static const char g = '"'; static const char *h = "hlo.not_an_op";
static int r(const char *s) { return strcmp(s, "reduce") && strcmp(s, "all_reduce"); }
EOF
count "$T/probe.c" >"$T/probe"
printf '%s\n' "$T/probe.c:2: \"hlo.while\"" "$T/probe.c:3: \"get-tuple-element\"" \
	"$T/probe.c:5: \"copy\"" "$T/probe.c:5: \"slice\"" \
	"$T/probe.c:6: \"hlo.reduce_scatter_start\"" >"$T/probe.want"
cmp -s "$T/probe" "$T/probe.want"
ok $? "the counter finds exactly the opcode literals of a probe source"
sed 's/^/# /' "$T/probe"

files=$(find "$top_srcdir/sdk/analysis" "$top_srcdir/plugins" "$top_srcdir/host" \
	-name '*.[ch]' -o -name '*.def' | LC_ALL=C sort)
for f in plugins/collective_pipeliner.c host/main.c sdk/analysis/cost.c; do
	echo "$files" | grep -q "/$f\$" || echo "missing $f"
done >"$T/missing"
[ ! -s "$T/missing" ]
ok $? "the sources of the analyses, the plugins and the host were found ($(echo "$files" | grep -c .) files)"

# shellcheck disable=SC2086 # one word per path: the tree has no blanks
count $files | sed "s|^$top_srcdir/||" >"$T/hits"
n=$(grep -c . "$T/hits")
[ "$n" -le "$limit" ]
ok $? "at most $limit opcode names as string literals outside the table ($n)"
sed 's/^/# /' "$T/hits"
done_testing
