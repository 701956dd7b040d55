/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.c — the bytes a function holds live over its
 * instruction order (passline/cost.h: pl_func_peak_bytes).
 *
 * One walk numbers the instructions (a table from instruction to index),
 * one more gives every result the index of its last use and adds its
 * bytes to the instruction that frees it, and a last sweep adds each
 * instruction's results and frees in order. Linear in instructions and uses.
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

/* The instructions of a function, by their offsets in the module's
 * region, each with the bytes freed after it: 12 bytes a slot, sized
 * once for the function (a map of addresses took 24 a slot and grew, the
 * old slots beside the new, and two arrays took 16 an instruction more:
 * the largest part of the pass's peak on a large function). Open
 * addressing, linear probing; the number of slots is not a power of two
 * but 5/4 of the instructions, since it never grows. Which of two
 * instructions comes first, their positions tell. */
struct inst_table {
	uint32_t *offs; /* 0: empty */
	uint64_t *freed;
	size_t cap;
};

static size_t inst_slot(const struct inst_table *t, const pl_inst *i)
{
	uint32_t off = pl_region_off_(i);
	uint32_t h = (uint32_t)(((uint64_t)off * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
	size_t j = (size_t)(((uint64_t)h * t->cap) >> 32); /* in [0, cap) */
	while (t->offs[j] && t->offs[j] != off)
		j = j + 1 == t->cap ? 0 : j + 1;
	return j;
}

int pl_func_peak_bytes_hooked_(const pl_func *f, pl_bytes_hook_ extra, void *arg,
                               uint64_t *out)
{
	size_t n = pl_func_num_insts(f), cap = n + n / 4 + 64;
	/* probed at random: huge pages where they are had (hash_table.h) */
	struct inst_table t = {pl_ht_mem_(cap * sizeof *t.offs), calloc(cap, sizeof *t.freed), cap};
	int rc = t.offs && t.freed ? PL_OK : PL_ENOMEM;
	if (t.offs)
		pl_ht_zero_(t.offs, cap * sizeof *t.offs);
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i))
		t.offs[inst_slot(&t, i)] = pl_region_off_(i);
	/* every result: allocated where defined, freed after its last use; an
	 * operand of a start is held until the start's done (in flight) */
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i)) {
		for (size_t r = 0; r < pl_inst_num_results(i); r++) {
			const pl_value *v = pl_inst_result(i, r);
			uint64_t b = value_bytes(v);
			const pl_inst *last = i;
			for (const pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u)) {
				const pl_inst *user = pl_use_user(u);
				if (is_start(user) && done_of(user))
					user = done_of(user);
				/* only an instruction of f's order counts */
				if (user->pos > last->pos && t.offs[inst_slot(&t, user)])
					last = user;
			}
			add_sat(&t.freed[inst_slot(&t, last)], b);
		}
	}
	uint64_t live = 0, peak = 0;
	for (size_t a = 0; a < pl_func_num_args(f); a++)
		add_sat(&live, value_bytes(pl_func_arg(f, a)));
	peak = live;
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i)) {
		uint64_t freed = t.freed[inst_slot(&t, i)];
		for (size_t r = 0; r < pl_inst_num_results(i); r++)
			add_sat(&live, value_bytes(pl_inst_result(i, r)));
		/* a done's ready values are its in-flight buffers handed over:
		 * the two are never live at once */
		bool handover = (pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_DONE) != 0;
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
	free(t.offs);
	free(t.freed);
	return rc;
}
