/* SPDX-License-Identifier: MIT */
/* sdk/ir/count_memo.c — see count_memo.h. */
#include "ir/count_memo.h"
#include <passline/grow.h>

void pl_count_memo_free_(struct pl_count_memo *memo)
{
	if (memo) {
		free(memo->v);
		pl_ht_free(&memo->index);
	}
	free(memo);
}

static uint32_t count_slot_hash(const struct count_slot *k)
{
	uint64_t h = (uint64_t)(uintptr_t)k->dom * 0x9e3779b97f4a7c15ull;
	h ^= ((uint64_t)(uintptr_t)k->pred + k->dom_len) * 0xbf58476d1ce4e5b9ull;
	h ^= (uint64_t)k->pred_len * 0x94d049bb133111ebull;
	return (uint32_t)(h ^ (h >> 29));
}

static bool count_slot_equal(const void *item, const void *probe, const void *ctx)
{
	const struct count_slot *a = &((const struct pl_count_memo *)ctx)->v[(uintptr_t)item - 1];
	const struct count_slot *b = probe;
	return a->dom == b->dom && a->pred == b->pred && a->dom_len == b->dom_len &&
	       a->pred_len == b->pred_len;
}

const struct count_slot *pl_count_memo_find_(const struct pl_count_memo *memo,
                                             const struct count_slot *key)
{
	if (!memo)
		return NULL;
	const void *k = pl_ht_get(&memo->index, count_slot_hash(key), count_slot_equal, key, memo);
	return k ? &memo->v[(uintptr_t)k - 1] : NULL;
}

/* Enters key; false when out of memory. */
static bool memo_add(pl_module *m, const struct count_slot *key)
{
	struct pl_count_memo *memo = m->count_memo;
	if (!memo && !(memo = m->count_memo = calloc(1, sizeof *memo)))
		return false;
	if (!PL_GROW(memo->v, memo->cap, memo->n + 1))
		return false;
	if (!pl_ht_reserve(&memo->index))
		return false;
	uint32_t hash = count_slot_hash(key);
	size_t j = pl_ht_find(&memo->index, hash, count_slot_equal, key, memo);
	memo->v[memo->n] = *key;
	pl_ht_put(&memo->index, j, hash, (const void *)(uintptr_t)++memo->n);
	return true;
}

bool pl_count_pair_of_(const struct pl_count_attrs *a, struct count_slot *key)
{
	const pl_attr *pred = a->predicate, *dom = a->domain;
	if (!pred || !dom || dom->kind != PL_ATTR_LIST || pred->kind != PL_ATTR_LIST)
		return false;
	*key = (struct count_slot){.dom = pl_attr_elems_(dom), .pred = pl_attr_elems_(pred),
	                           .dom_len = pl_attr_len_(dom), .pred_len = pl_attr_len_(pred)};
	return true;
}

void pl_count_note_(pl_module *m, const pl_attrs *d)
{
	/* most dictionaries have no predicate: one look at the keys */
	if (!pl_attrs_find_id_(d, PL_KEY_PREDICATE))
		return;
	struct pl_count_attrs a;
	struct count_slot key;
	pl_count_attrs_(d, &a);
	/* out of memory: the pair is counted on each call instead */
	if (pl_count_pair_of_(&a, &key) && !pl_count_memo_find_(m->count_memo, &key))
		memo_add(m, &key);
}
