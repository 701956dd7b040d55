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

int pl_func_peak_bytes_hooked_(const pl_func *f, pl_bytes_hook_ extra, void *arg,
                               uint64_t *out)
{
	size_t n = pl_func_num_insts(f);
	struct pl_ht index = {0};
	uint64_t *alloc = calloc(n ? n : 1, sizeof *alloc);
	uint64_t *freed = calloc(n ? n : 1, sizeof *freed);
	int rc = alloc && freed ? PL_OK : PL_ENOMEM;
	size_t k = 0;
	for (const pl_inst *i = pl_func_first_inst(f); rc == PL_OK && i; i = pl_inst_next(i), k++)
		if (!pl_ht_ptr_put(&index, i, (void *)(uintptr_t)(k + 1)))
			rc = PL_ENOMEM;
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
				size_t j = (size_t)(uintptr_t)pl_ht_ptr_get(&index, user);
				if (j && j - 1 > last)
					last = j - 1;
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
	pl_ht_free(&index);
	free(alloc);
	free(freed);
	return rc;
}
