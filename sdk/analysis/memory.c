/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.c — the bytes a function holds live over its
 * instruction order (passline/cost.h: pl_func_peak_bytes).
 *
 * One walk numbers the instructions (a map from instruction to index),
 * one more gives every result the index of its last use and adds its
 * bytes to the instruction that frees it, and a last sweep adds and frees
 * in order. Linear in instructions and uses.
 */
#include "analysis/memory.h"
#include "ir/internal.h"
#include <passline/grow.h>

#include <stdlib.h>

static bool is_start(const pl_inst *i)
{
	return (pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_START) != 0;
}

/* The done of start s (the user of its first result), or NULL. */
static const pl_inst *done_of(const pl_inst *s)
{
	if (!pl_inst_num_results(s))
		return NULL;
	const pl_use *u = pl_value_first_use(pl_inst_result(s, 0));
	return u ? pl_use_user(u) : NULL;
}

static uint64_t value_bytes(const pl_value *v)
{
	uint64_t b = 0;
	return pl_type_num_bytes(pl_value_type(v), &b) == PL_OK ? b : 0;
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

/* The index of each instruction of a function, by the instruction's
 * offset in its module's region: 8 bytes a slot, sized once for the
 * function (a map of addresses took 24 a slot and grew, the old slots
 * beside the new: the largest part of the pass's peak on a large
 * function). Open addressing, linear probing, at most 3/4 full. */
struct inst_index {
	struct inst_slot {
		uint32_t off; /* 0: empty */
		uint32_t index;
	} *slots;
	size_t mask;
};

static size_t index_slot(const struct inst_index *t, uint32_t off)
{
	size_t j = (size_t)(((uint64_t)off * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & t->mask;
	while (t->slots[j].off && t->slots[j].off != off)
		j = (j + 1) & t->mask;
	return j;
}

/* The index of i, or SIZE_MAX when it is not there. */
static size_t index_of(const struct inst_index *t, const pl_inst *i)
{
	const struct inst_slot *q = &t->slots[index_slot(t, pl_region_off_(i))];
	return q->off ? q->index : SIZE_MAX;
}

int pl_func_peak_bytes_hooked_(const pl_func *f, pl_bytes_hook_ extra, void *arg,
                               uint64_t *out)
{
	size_t n = pl_func_num_insts(f), cap = 64;
	while (cap * 3 < (n + 1) * 4)
		cap *= 2;
	/* probed at random: huge pages where they are had (hash_table.h) */
	struct inst_index index = {pl_ht_mem_(cap * sizeof *index.slots), cap - 1};
	if (index.slots)
		pl_ht_zero_(index.slots, cap * sizeof *index.slots);
	uint64_t *alloc = calloc(n ? n : 1, sizeof *alloc);
	uint64_t *freed = calloc(n ? n : 1, sizeof *freed);
	int rc = index.slots && alloc && freed ? PL_OK : PL_ENOMEM;
	size_t k = 0;
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i), k++) {
		uint32_t off = pl_region_off_(i);
		index.slots[index_slot(&index, off)] = (struct inst_slot){off, (uint32_t)k};
	}
	/* every result: allocated where defined, freed after its last use; an
	 * operand of a start is held until the start's done (in flight) */
	k = 0;
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i), k++) {
		for (size_t r = 0; r < pl_inst_num_results(i); r++) {
			const pl_value *v = pl_inst_result(i, r);
			uint64_t b = value_bytes(v);
			size_t last = k;
			for (const pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u)) {
				const pl_inst *user = pl_use_user(u);
				if (is_start(user) && done_of(user))
					user = done_of(user);
				size_t j = index_of(&index, user);
				if (j != SIZE_MAX && j > last)
					last = j;
			}
			add_sat(&alloc[k], b);
			add_sat(&freed[last], b);
		}
	}
	uint64_t live = 0, peak = 0;
	for (size_t a = 0; a < pl_func_num_args(f); a++)
		add_sat(&live, value_bytes(pl_func_arg(f, a)));
	peak = live;
	k = 0;
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i), k++) {
		add_sat(&live, alloc[k]);
		/* a done's ready values are its in-flight buffers handed over:
		 * the two are never live at once */
		bool handover = (pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_DONE) != 0;
		uint64_t at = handover && live != UINT64_MAX ? live - freed[k] : live;
		if (extra) {
			uint64_t x = 0;
			if ((rc = extra(i, arg, &x)))
				break;
			add_sat(&at, x);
		}
		if (at > peak)
			peak = at;
		if (live != UINT64_MAX)
			live -= freed[k];
	}
	if (rc == PL_OK)
		*out = peak;
	free(index.slots);
	free(alloc);
	free(freed);
	return rc;
}
