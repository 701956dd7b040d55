/* SPDX-License-Identifier: MIT */
/* sdk/ir/hlo_opcodes.c — lookups in the table of HLO opcodes
 * (passline/hlo_ops.h), and the classification of an op name. */
#include "ir/hlo_opcodes.h"

#include <string.h>

const struct pl_hlo_row_ pl_hlo_rows_[PL_HLO__COUNT] = {
	[PL_HLO_OTHER] = {NULL, NULL, "", PL_HLO_FUSE_LIBRARY, PL_HLO_CALLS_NONE, PL_HLO_COLL_NONE, 0},
#define PL_HLO_ROW_(id, hlo, op, fuse, calls, coll, flags, req) \
	[PL_HLO_##id] = {hlo, op, req, PL_HLO_FUSE_##fuse, PL_HLO_CALLS_##calls, PL_HLO_COLL_##coll, \
	                 flags},
	PL_HLO_OP_TABLE(PL_HLO_ROW_)
#undef PL_HLO_ROW_
};
#define NOPCODES ((size_t)HLO_OP_OTHER)
_Static_assert(PL_HLO_SORTED_ <= PL_HLO__COUNT - 1, "the sorted rows are rows");

/* byte order of s[0..len) against the NUL-ended t */
static int cmp_name(const char *s, size_t len, const char *t)
{
	size_t tl = strlen(t), n = len < tl ? len : tl;
	int c = memcmp(s, t, n);
	if (c)
		return c;
	return len < tl ? -1 : len > tl;
}

/* The row of s[0..len), HLO's spelling, as its enum hlo_op, or
 * HLO_OP_OTHER: a bisection of the rows in byte order, then a scan of any
 * appended since. */
static enum hlo_op in_table(const char *s, size_t len)
{
	size_t lo = 0, hi = PL_HLO_SORTED_;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(s, len, pl_hlo_rows_[mid + 1].hlo);
		if (!c)
			return (enum hlo_op)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (size_t k = PL_HLO_SORTED_; k < NOPCODES; k++)
		if (!cmp_name(s, len, pl_hlo_rows_[k + 1].hlo))
			return (enum hlo_op)k;
	return HLO_OP_OTHER;
}

enum hlo_op pl_hlo_opcode_of_(const char *s, size_t len, enum hlo_phase *phase)
{
	*phase = HLO_PHASE_NONE;
	enum hlo_op op = in_table(s, len);
	if (op != HLO_OP_OTHER)
		return op;
	static const char *const sugar[] = {"-start", "-update", "-done"};
	static const enum hlo_phase phases[] = {HLO_PHASE_START, HLO_PHASE_UPDATE,
	                                        HLO_PHASE_DONE};
	for (size_t k = 0; k < 3; k++) {
		size_t sl = strlen(sugar[k]);
		if (len > sl && !memcmp(s + len - sl, sugar[k], sl)) {
			op = in_table(s, len - sl);
			if (op != HLO_OP_OTHER)
				*phase = phases[k];
			return op;
		}
	}
	return HLO_OP_OTHER;
}

const char *pl_hlo_opcode_name_(enum hlo_op op)
{
	return pl_hlo_rows_[pl_hlo_op_of_(op)].hlo;
}

bool pl_hlo_opcode_known_(const char *s, size_t len)
{
	enum hlo_phase phase;
	return pl_hlo_opcode_of_(s, len, &phase) != HLO_OP_OTHER;
}

unsigned pl_hlo_opcode_flags_(enum hlo_op op, enum hlo_phase phase)
{
	return phase == HLO_PHASE_NONE ? pl_hlo_rows_[pl_hlo_op_of_(op)].flags & HLO_F_SHAPE_OF_OPERAND
	                               : 0;
}

const char *pl_hlo_opcode_required_(enum hlo_op op)
{
	return pl_hlo_rows_[pl_hlo_op_of_(op)].required;
}

enum hlo_op pl_hlo_opcode_sync_(enum hlo_op op)
{
	switch (op) {
	case HLO_OP_ALL_GATHER_START:
	case HLO_OP_ALL_GATHER_DONE: return HLO_OP_ALL_GATHER;
	case HLO_OP_ALL_REDUCE_START:
	case HLO_OP_ALL_REDUCE_DONE: return HLO_OP_ALL_REDUCE;
	case HLO_OP_COLLECTIVE_PERMUTE_START:
	case HLO_OP_COLLECTIVE_PERMUTE_DONE: return HLO_OP_COLLECTIVE_PERMUTE;
	case HLO_OP_COPY_START:
	case HLO_OP_COPY_DONE: return HLO_OP_COPY;
	default: return op;
	}
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
		unsigned d = distance(s, len, pl_hlo_rows_[k + 1].hlo);
		if (d < bd) {
			bd = d;
			best = pl_hlo_rows_[k + 1].hlo;
		}
	}
	return best;
}

uint16_t pl_hlo_classify_(const char *s, size_t len)
{
	if (len < 4 || memcmp(s, "hlo.", 4))
		return 0;
	/* HLO's spelling of the rest: '_' back to '-' */
	char buf[64];
	size_t n = len - 4;
	if (n >= sizeof buf)
		return PL_HLO_CLS_HLO_;
	for (size_t k = 0; k < n; k++)
		buf[k] = s[4 + k] == '_' ? '-' : s[4 + k];
	enum hlo_phase phase;
	enum hlo_op op = pl_hlo_opcode_of_(buf, n, &phase);
	if (op == HLO_OP_OTHER)
		return PL_HLO_CLS_HLO_;
	return (uint16_t)(PL_HLO_CLS_HLO_ | (unsigned)phase << PL_HLO_CLS_PHASE_SHIFT_ |
	                  (unsigned)pl_hlo_op_of_(op));
}

enum pl_hlo_coll pl_inst_hlo_coll_(const pl_inst *i, int *phase)
{
	uint16_t cls = pl_inst_hlo_cls_(i);
	const struct pl_hlo_row_ *row = &pl_hlo_rows_[cls & 0xff];
	int ph = 0;
	switch (cls >> PL_HLO_CLS_PHASE_SHIFT_ & 3) {
	case HLO_PHASE_NONE:
		ph = row->flags & PL_HLO_F_ASYNC_START ? 1 : row->flags & PL_HLO_F_ASYNC_DONE ? 2 : 0;
		break;
	case HLO_PHASE_START: ph = 1; break;
	case HLO_PHASE_DONE: ph = 2; break;
	default: return PL_HLO_COLL_NONE; /* an -update */
	}
	/* the short form of a row that is a start or done itself */
	if ((cls >> PL_HLO_CLS_PHASE_SHIFT_ & 3) && (row->flags & (PL_HLO_F_ASYNC_START | PL_HLO_F_ASYNC_DONE)))
		return PL_HLO_COLL_NONE;
	if (phase)
		*phase = ph;
	return (enum pl_hlo_coll)row->coll;
}

/* ---- the exported functions (passline/hlo_ops.h) ---- */

unsigned pl_hlo_op_count(void)
{
	return PL_HLO__COUNT;
}

pl_hlo_op pl_inst_hlo_op(const pl_inst *i)
{
	return i ? pl_inst_hlo_op_(i) : PL_HLO_OTHER;
}

bool pl_inst_is_hlo(const pl_inst *i)
{
	return i && pl_inst_is_hlo_(i);
}

enum pl_hlo_coll pl_inst_hlo_coll(const pl_inst *i, int *phase)
{
	return i ? pl_inst_hlo_coll_(i, phase) : PL_HLO_COLL_NONE;
}

static const struct pl_hlo_row_ *row_of(pl_hlo_op op)
{
	return &pl_hlo_rows_[(unsigned)op < PL_HLO__COUNT ? op : PL_HLO_OTHER];
}

const char *pl_hlo_op_name(pl_hlo_op op)
{
	return row_of(op)->op;
}

pl_hlo_op pl_hlo_op_from_name(const char *name)
{
	uint16_t cls = name ? pl_hlo_classify_(name, strlen(name)) : 0;
	return pl_hlo_cls_op_(cls);
}

unsigned pl_hlo_op_flags(pl_hlo_op op)
{
	return row_of(op)->flags;
}

enum pl_hlo_fuse pl_hlo_op_fuse(pl_hlo_op op)
{
	return (enum pl_hlo_fuse)row_of(op)->fuse;
}

enum pl_hlo_calls pl_hlo_op_calls(pl_hlo_op op)
{
	return (enum pl_hlo_calls)row_of(op)->calls;
}

enum pl_hlo_coll pl_hlo_op_coll(pl_hlo_op op)
{
	return (enum pl_hlo_coll)row_of(op)->coll;
}
