/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.c — the bytes a function holds live over its
 * instruction order (passline/cost.h: pl_func_peak_bytes).
 *
 * One walk gives every result the position of its last use (positions
 * rise along a function's order), the results are sorted by it in place,
 * and a last walk adds each instruction's results and takes off its frees in
 * order. Linear in instructions and uses.
 */
#include "analysis/memory.h"
#include "ir/internal.h"
#include <passline/grow.h>

#include <stdlib.h>

static bool is_start(const pl_inst *i)
{
	return (pl_inst_traits_(i) & PL_TRAIT_COLLECTIVE_START) != 0;
}

/* The done of start s (the user of its first result), or NULL. */
static const pl_inst *done_of(const pl_inst *s)
{
	if (!s->nres)
		return NULL;
	const pl_use *u = pl_value_uses_(&pl_inst_res_(s)[0]);
	return u ? pl_use_user_(u) : NULL;
}

/* 0 for a count that overflows (pl_type_num_bytes) */
static uint64_t value_bytes(const pl_value *v)
{
	return v->type->bytes > (uint64_t)INT64_MAX ? 0 : v->type->bytes;
}

/* Adds b to *acc, saturating (a sum past 2^64 bytes is no real module). */
static void add_sat(uint64_t *acc, uint64_t b)
{
	*acc = *acc + b < *acc ? UINT64_MAX : *acc + b;
}

int pl_func_peak_bytes(const pl_func *f, uint64_t *out)
{
	return pl_func_peak_bytes_hooked_(f, NULL, NULL, out);
}

/* A result and the position of the instruction after which it is freed
 * (its last user in f's order, or its own): 8 bytes, its bytes read from
 * its type again when freed. */
struct release {
	uint32_t pos;
	uint32_t value; /* region offset */
};

/* The bits [*lo, *hi) in which the positions of v[0..n) differ; false
 * when they are all one position. */
static bool differing_bits(const struct release *v, size_t n, unsigned *lo, unsigned *hi)
{
	uint32_t differ = 0;
	for (size_t k = 1; k < n; k++)
		differ |= v[k].pos ^ v[0].pos;
	if (!differ)
		return false;
	*lo = (unsigned)__builtin_ctz(differ);
	*hi = 32 - (unsigned)__builtin_clz(differ);
	return true;
}

/* Sorts v[0..n) by position, stably, in v or in tmp (which holds n
 * more): returns which, or NULL when out of memory. Least significant
 * digit first, over only the bits in which the positions differ (a
 * function read in order steps by a constant, so its low bits are all
 * 0), in digits of about log2(n) bits (at most 16): two passes for a
 * large function, where bytes took four. Linear, where a table from
 * instruction to its frees (hashed, 12 bytes a slot) was probed once
 * for each instruction and each use and walked by a walk of its own. */
static struct release *sort_releases(struct release *v, struct release *tmp, size_t n)
{
	unsigned lo, hi;
	if (!differing_bits(v, n, &lo, &hi))
		return v;
	unsigned most = 4;
	while (most < 16 && ((size_t)1 << most) < n)
		most++;
	unsigned passes = (hi - lo + most - 1) / most;
	unsigned width = (hi - lo + passes - 1) / passes;
	uint32_t mask = (UINT32_C(1) << width) - 1;
	size_t *count = malloc(((size_t)mask + 2) * sizeof *count);
	if (!count)
		return NULL;
	for (unsigned shift = lo; shift < hi; shift += width) {
		memset(count, 0, ((size_t)mask + 2) * sizeof *count);
		for (size_t k = 0; k < n; k++)
			count[((v[k].pos >> shift) & mask) + 1]++;
		for (uint32_t d = 1; d <= mask; d++)
			count[d] += count[d - 1];
		for (size_t k = 0; k < n; k++)
			tmp[count[(v[k].pos >> shift) & mask]++] = v[k];
		struct release *t = v;
		v = tmp;
		tmp = t;
	}
	free(count);
	return v;
}

/* Sorts v[0..n) by position in place; false when out of memory. The
 * top digit (about log2(n) bits, at most 16, of the bits the positions
 * differ in) puts each in its bucket by cycles of moves (American flag
 * sort), with no second array; a bucket of a few is then sorted by
 * insertion, a larger one (positions crowded where many instructions
 * went in) by sort_releases beside a copy of its own size. Not stable,
 * and need not be: the releases of one position are summed. */
static bool sort_in_place(struct release *v, size_t n)
{
	enum { FEW = 32 };
	unsigned lo, hi;
	if (!differing_bits(v, n, &lo, &hi))
		return true;
	unsigned width = 4;
	while (width < 16 && width < hi - lo && ((size_t)1 << width) < n)
		width++;
	if (width > hi - lo)
		width = hi - lo;
	unsigned shift = hi - width;
	size_t buckets = (size_t)1 << width;
	size_t *end = calloc(buckets, sizeof *end), *next = malloc(buckets * sizeof *next);
	bool ok = end && next;
	for (size_t k = 0; ok && k < n; k++)
		end[(v[k].pos >> shift) & (buckets - 1)]++;
	for (size_t d = 0, at = 0; ok && d < buckets; d++) {
		next[d] = at;
		end[d] = at += end[d];
	}
	for (size_t d = 0; ok && d < buckets; d++)
		while (next[d] < end[d]) { /* each move puts one in its bucket */
			struct release x = v[next[d]];
			size_t dx = (x.pos >> shift) & (buckets - 1);
			while (dx != d) {
				struct release y = v[next[dx]];
				v[next[dx]++] = x;
				x = y;
				dx = (x.pos >> shift) & (buckets - 1);
			}
			v[next[d]++] = x;
		}
	for (size_t d = 0, at = 0; ok && d < buckets; at = end[d++]) {
		struct release *b = v + at;
		size_t m = end[d] - at;
		if (m <= FEW) {
			for (size_t k = 1; k < m; k++) {
				struct release x = b[k];
				size_t j = k;
				for (; j > 0 && b[j - 1].pos > x.pos; j--)
					b[j] = b[j - 1];
				b[j] = x;
			}
			continue;
		}
		struct release *tmp = malloc(m * sizeof *tmp);
		if (!(ok = tmp != NULL))
			break;
		const struct release *sorted = sort_releases(b, tmp, m);
		if (!(ok = sorted != NULL)) {
			free(tmp);
			break;
		}
		if (sorted != b)
			memcpy(b, sorted, m * sizeof *b);
		free(tmp);
	}
	free(end);
	free(next);
	return ok;
}

/* Whether user lies in f's order (a use may lie anywhere). */
static bool in_order(const pl_inst *user, const pl_func *f)
{
	return (user->flags & PL_INST_LINKED) && pl_inst_func_(user) == f;
}

/* Where v's bytes are freed: after its last user in f's order, def
 * itself when none comes later; an operand of a start is held until the
 * start's done (in flight). */
static const pl_inst *freed_after(const pl_value *v, const pl_inst *def, const pl_func *f)
{
	const pl_inst *last = def;
	for (const pl_use *u = pl_value_uses_(v); u; u = pl_use_next_(u)) {
		const pl_inst *user = pl_use_user_(u);
		if (is_start(user) && done_of(user))
			user = done_of(user);
		if (user->pos > last->pos && in_order(user, f))
			last = user;
	}
	return last;
}

int pl_func_peak_bytes_hooked_(const pl_func *f, pl_bytes_hook_ extra, void *arg,
                               uint64_t *out)
{
	/* room for one result an instruction, the common case */
	size_t n = 0, cap = f->ninsts + 1;
	struct release *rel = malloc(cap * sizeof *rel);
	int rc = rel ? PL_OK : PL_ENOMEM;
	if (rel)
		pl_pages_in_place_(rel, cap * sizeof *rel);
	for (const pl_inst *i = f->first; rc == PL_OK && i; i = pl_inst_next_(i)) {
		const pl_value *res = pl_inst_res_(i);
		if (!PL_GROW(rel, cap, n + i->nres)) {
			rc = PL_ENOMEM;
			break;
		}
		for (uint32_t r = 0; r < i->nres; r++)
			rel[n++] = (struct release){freed_after(&res[r], i, f)->pos,
			                            pl_region_off_(&res[r])};
	}
	if (rc == PL_OK && n && !sort_in_place(rel, n))
		rc = PL_ENOMEM;
	const struct release *sorted = rel;
	size_t k = 0;
	uint64_t live = 0, peak = 0;
	for (size_t a = 0; a < f->nargs; a++)
		add_sat(&live, value_bytes(&f->args[a]->v));
	peak = live;
	for (const pl_inst *i = f->first; rc == PL_OK && i; i = pl_inst_next_(i)) {
		uint64_t freed = 0;
		/* positions rise along the walk: i's releases come next */
		for (; k < n && sorted[k].pos == i->pos; k++)
			add_sat(&freed, value_bytes(pl_region_at_(i, sorted[k].value)));
		const pl_value *res = pl_inst_res_(i);
		for (uint32_t r = 0; r < i->nres; r++)
			add_sat(&live, value_bytes(&res[r]));
		/* a done's ready values are its in-flight buffers handed over:
		 * the two are never live at once */
		bool handover = (pl_inst_traits_(i) & PL_TRAIT_COLLECTIVE_DONE) != 0;
		uint64_t at = handover && live != UINT64_MAX ? live - freed : live;
		if (extra) {
			uint64_t x = 0;
			if ((rc = extra(i, arg, &x)))
				break;
			add_sat(&at, x);
		}
		if (at > peak)
			peak = at;
		if (live != UINT64_MAX)
			live -= freed;
	}
	if (rc == PL_OK)
		*out = peak;
	free(rel);
	return rc;
}
