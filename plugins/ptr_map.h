/* SPDX-License-Identifier: MIT */
/* plugins/ptr_map.h — a map from pointers to pointers (open addressing,
 * linear probing), private to the plugins that need per-value or
 * per-instruction scratch data (the SDK has no user-data slot on values).
 *
 * Lookups only: the map is never iterated, so the order of addresses never
 * reaches a pass's output. Expected O(1) per operation; memory is freed
 * with ptr_map_free. A NULL key is not allowed; a NULL value means absent.
 *
 * The passes want an empty map for every function, and most functions are
 * small: ptr_map_clear empties the map in O(1), keeping its memory, by
 * starting a new generation (a slot of an older one is empty), so the cost
 * of a function does not depend on the size of the largest one before it.
 *
 * Built on it, three ways to read attributes without comparing strings per
 * instruction: attr_key (one key, found by its interned address),
 * dict_memo (what a read-only pass derived from a whole dictionary) and
 * key_classes (several keys of a dictionary in one scan). Last, inst_vec:
 * the growing array of instructions the passes keep their worklists in.
 */
#ifndef PLUGINS_PTR_MAP_H
#define PLUGINS_PTR_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <passline/passline.h>

struct ptr_map_slot {
	const void *key;
	void *val;
	uint32_t gen; /* the slot is in use when it is the map's gen */
};

struct ptr_map {
	struct ptr_map_slot *slots;
	size_t cap, count; /* cap is 0 or a power of two */
	unsigned shift;    /* 64 - log2(cap) */
	uint32_t gen;      /* never 0 once slots exist: calloc'd slots are empty */
};

/* Fibonacci hashing: the top bits of the product mix every bit of the
 * address, aligned low bits included. */
static inline size_t ptr_map_slot_(const struct ptr_map *m, const void *key)
{
	return (size_t)(((uint64_t)(uintptr_t)key * UINT64_C(0x9e3779b97f4a7c15)) >> m->shift);
}

static inline void *ptr_map_get(const struct ptr_map *m, const void *key)
{
	if (!m->count)
		return NULL;
	for (size_t j = ptr_map_slot_(m, key);; j = (j + 1) & (m->cap - 1)) {
		const struct ptr_map_slot *s = &m->slots[j];
		if (s->gen != m->gen)
			return NULL;
		if (s->key == key)
			return s->val;
	}
}

static inline bool ptr_map_grow_(struct ptr_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	unsigned shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		shift--;
	struct ptr_map n = {calloc(cap, sizeof *n.slots), cap, m->count, shift, 1};
	if (!n.slots)
		return false;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->slots[i].gen != m->gen)
			continue;
		size_t j = ptr_map_slot_(&n, m->slots[i].key);
		while (n.slots[j].gen)
			j = (j + 1) & (cap - 1);
		n.slots[j] = m->slots[i];
		n.slots[j].gen = 1;
	}
	free(m->slots);
	*m = n;
	return true;
}

/* Stores val under key (replacing what was there). false when out of
 * memory (the map is then unchanged). */
static inline bool ptr_map_put(struct ptr_map *m, const void *key, void *val)
{
	if ((m->count + 1) * 2 > m->cap && !ptr_map_grow_(m))
		return false;
	size_t j = ptr_map_slot_(m, key);
	while (m->slots[j].gen == m->gen && m->slots[j].key != key)
		j = (j + 1) & (m->cap - 1);
	struct ptr_map_slot *s = &m->slots[j];
	if (s->gen != m->gen) {
		s->key = key;
		s->gen = m->gen;
		m->count++;
	}
	s->val = val;
	return true;
}

/* Empties the map, keeping its memory for the next use. */
static inline void ptr_map_clear(struct ptr_map *m)
{
	if (!m->count)
		return;
	m->count = 0;
	if (++m->gen == 0) { /* wrapped: slots of every age would look in use */
		memset(m->slots, 0, m->cap * sizeof *m->slots);
		m->gen = 1;
	}
}

static inline void ptr_map_free(struct ptr_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* ---- attribute keys by address ----
 * Attribute keys are interned per module, and pl_attrs_get finds a key it
 * handed out (pl_attrs_key_at) by comparing addresses, any other spelling
 * by comparing strings. A pass that reads a key of many instructions looks
 * it up by name until it first finds it, then by the interned address it
 * found. A key is an interned string that lives, unchanged, as long as its
 * module, so the address stays right for the rest of the run (never keep
 * it from one run to the next: that may be another module). */
struct attr_key {
	const char *name;
	const char *interned; /* NULL until found */
};

static inline const pl_attr *attr_key_get(struct attr_key *k, const pl_attrs *d)
{
	if (k->interned)
		return pl_attrs_get(d, k->interned);
	const pl_attr *a = pl_attrs_get(d, k->name);
	if (a)
		for (size_t i = 0, n = pl_attrs_count(d); i < n; i++)
			if (pl_attrs_value_at(d, i) == a) {
				k->interned = pl_attrs_key_at(d, i);
				break;
			}
	return a;
}

/* ---- what a pass derived from a dictionary ----
 * The reader gives every instruction written with the same attribute text
 * one entry array, and a clone or pl_inst_copy_attrs shares its original's
 * (copy on write). A pass that writes no instruction attributes can
 * remember what it derived from a dictionary under the address of its
 * first entry (pl_attrs_value_at(d, 0)) and its size: while nobody writes
 * attributes, and nothing frees them before the module, that address holds
 * the same entries. Only for the length of one run. */
struct dict_memo {
	size_t rec_size;      /* bytes of the pass's record; set before use */
	struct ptr_map index; /* first entry -> slot number + 1 */
	unsigned char *slots; /* per slot: the dictionary's size, then the record */
	size_t len, cap;
};

static inline size_t dict_memo_slot_size_(const struct dict_memo *dm)
{
	return sizeof(size_t) + ((dm->rec_size + sizeof(size_t) - 1) & ~(sizeof(size_t) - 1));
}

/* The record remembered for the dictionary of size entries whose first
 * entry is first, or NULL. Valid until the next dict_memo_add. */
static inline const void *dict_memo_find(const struct dict_memo *dm, const pl_attr *first,
                                         size_t size)
{
	void *v = ptr_map_get(&dm->index, first);
	if (!v)
		return NULL;
	const unsigned char *slot = dm->slots + ((size_t)(uintptr_t)v - 1) * dict_memo_slot_size_(dm);
	return *(const size_t *)(const void *)slot == size ? slot + sizeof(size_t) : NULL;
}

/* Remembers a copy of rec for that dictionary. Nothing happens when
 * another size is remembered under first, or when out of memory: the memo
 * saves work, it is never needed. */
static inline void dict_memo_add(struct dict_memo *dm, const pl_attr *first, size_t size,
                                 const void *rec)
{
	if (ptr_map_get(&dm->index, first))
		return;
	size_t slot_size = dict_memo_slot_size_(dm);
	if (dm->len == dm->cap) {
		size_t cap = dm->cap ? dm->cap * 2 : 64;
		unsigned char *v = realloc(dm->slots, cap * slot_size);
		if (!v)
			return;
		dm->slots = v;
		dm->cap = cap;
	}
	unsigned char *slot = dm->slots + dm->len * slot_size;
	*(size_t *)(void *)slot = size;
	memcpy(slot + sizeof(size_t), rec, dm->rec_size);
	if (ptr_map_put(&dm->index, first, (void *)(uintptr_t)(dm->len + 1)))
		dm->len++;
}

static inline void dict_memo_free(struct dict_memo *dm)
{
	ptr_map_free(&dm->index);
	free(dm->slots);
	dm->slots = NULL;
	dm->len = dm->cap = 0;
}

/* A pass that reads several keys of one dictionary can instead scan it
 * once: key_classes maps each distinct key address to the index of its
 * name (compared once per address). */
struct key_classes {
	const char *const *names; /* the names the pass reads */
	size_t count;
	struct ptr_map seen; /* key address -> its index in names + 1 (count + 1: another) */
};

/* The index of key in names, or count when it is none of them. */
static inline size_t key_class(struct key_classes *kc, const char *key)
{
	void *v = ptr_map_get(&kc->seen, key);
	if (v)
		return (size_t)(uintptr_t)v - 1;
	size_t c = 0;
	while (c < kc->count && strcmp(kc->names[c], key) != 0)
		c++;
	(void)ptr_map_put(&kc->seen, key, (void *)(uintptr_t)(c + 1)); /* else: asked again */
	return c;
}

/* out[c] = the value of names[c] in d, or NULL (out has count entries). */
static inline void key_classes_read(struct key_classes *kc, const pl_attrs *d,
                                    const pl_attr **out)
{
	for (size_t c = 0; c < kc->count; c++)
		out[c] = NULL;
	size_t n = pl_attrs_count(d);
	for (size_t k = 0; k < n; k++) {
		size_t c = key_class(kc, pl_attrs_key_at(d, k));
		if (c < kc->count && !out[c]) /* the first one, as pl_attrs_get */
			out[c] = pl_attrs_value_at(d, k);
	}
}

/* A growing array of instructions (a pass's worklist); zero-initialized
 * is empty, free(v) frees it. */
struct inst_vec {
	pl_inst **v;
	size_t len, cap;
};

/* Appends inst; false when out of memory (nothing changed). */
static inline bool push_inst(struct inst_vec *s, pl_inst *inst)
{
	if (s->len == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		pl_inst **v = realloc(s->v, cap * sizeof *v);
		if (!v)
			return false;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->len++] = inst;
	return true;
}

#endif
