/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_opcodes.c — lookups in the table of HLO opcodes. */
#include "hlo/hlo_opcodes.h"

#include <string.h>

#define PL_HLO_OPCODE_NAME_(s) s,
static const char *const opcodes[] = {PL_HLO_OPCODES(PL_HLO_OPCODE_NAME_)};
#define NOPCODES (sizeof opcodes / sizeof *opcodes)

/* byte order of s[0..len) against the NUL-ended t */
static int cmp_name(const char *s, size_t len, const char *t)
{
	size_t tl = strlen(t), n = len < tl ? len : tl;
	int c = memcmp(s, t, n);
	if (c)
		return c;
	return len < tl ? -1 : len > tl;
}

static bool in_table(const char *s, size_t len)
{
	size_t lo = 0, hi = NOPCODES;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(s, len, opcodes[mid]);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

bool pl_hlo_opcode_known_(const char *s, size_t len)
{
	if (in_table(s, len))
		return true;
	static const char *const sugar[] = {"-start", "-update", "-done"};
	for (size_t k = 0; k < 3; k++) {
		size_t sl = strlen(sugar[k]);
		if (len > sl && !memcmp(s + len - sl, sugar[k], sl))
			return in_table(s, len - sl);
	}
	return false;
}

/* Edit distance of a and b, both shorter than 40 bytes; 3 when longer. */
static unsigned distance(const char *a, size_t al, const char *b)
{
	size_t bl = strlen(b);
	if (al >= 40 || bl >= 40)
		return 3;
	unsigned row[41];
	for (size_t j = 0; j <= bl; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= al; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= bl; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[bl];
}

const char *pl_hlo_opcode_nearest_(const char *s, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (size_t k = 0; k < NOPCODES; k++) {
		unsigned d = distance(s, len, opcodes[k]);
		if (d < bd) {
			bd = d;
			best = opcodes[k];
		}
	}
	return best;
}
