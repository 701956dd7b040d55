/* SPDX-License-Identifier: MIT */
/* plugins/ptr_map.h — a map from pointers to pointers, private to the
 * plugins that need per-value or per-instruction scratch data (the SDK has
 * no user-data slot on values): the library's one hash table
 * (hash_table.h) keyed by address.
 *
 * Lookups only: the map is never iterated, so the order of addresses never
 * reaches a pass's output. Expected O(1) per operation; memory is freed
 * with ptr_map_free. A NULL key is not allowed; a NULL value means absent.
 * ptr_map_clear empties the map in O(1), keeping its memory, so the cost
 * of a function does not depend on the size of the largest one before it.
 *
 * Built on it, two ways to read attributes without comparing strings per
 * instruction, both resting on keys being interned (passline/ir.h:
 * pl_attrs_key_at): attr_key (one key, found by its address) and
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

#include <passline/grow.h>
#include <passline/hash_table.h>

struct ptr_map {
	struct pl_ht t; /* items: the keys; values beside them */
};

static inline void *ptr_map_get(const struct ptr_map *m, const void *key)
{
	return pl_ht_ptr_get(&m->t, key);
}

/* Stores val under key (replacing what was there). false when out of
 * memory (the map is then unchanged). */
static inline bool ptr_map_put(struct ptr_map *m, const void *key, void *val)
{
	return pl_ht_ptr_put(&m->t, key, val);
}

/* Empties the map, keeping its memory for the next use. */
static inline void ptr_map_clear(struct ptr_map *m)
{
	pl_ht_clear(&m->t);
}

static inline void ptr_map_free(struct ptr_map *m)
{
	pl_ht_free(&m->t);
}

/* ---- attribute keys by address ----
 * Attribute keys are interned per module, and pl_attrs_get finds a key it
 * handed out (pl_attrs_key_at) by comparing addresses, any other spelling
 * by comparing strings. A pass that reads a key of many instructions looks
 * it up by name until it first finds it, then by the interned address it
 * found: the address stays right as long as the module lives (never keep
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

static inline size_t key_slot_(const char *key, size_t slots)
{
	uintptr_t a = (uintptr_t)key;
	return (size_t)((a >> 3) ^ (a >> 11)) & (slots - 1);
}

/* A pass that reads several keys of one dictionary can instead scan it
 * once: key_classes maps each distinct key address to the index of its
 * name (compared once per address). */
struct key_classes {
	const char *const *names; /* the names the pass reads */
	size_t count;
	struct ptr_map seen; /* key address -> its index in names + 1 (count + 1: another) */
	/* the answers for the last keys asked, by address, in front of seen: a
	 * module has few distinct keys, so nearly every key of a dictionary
	 * is answered here without a hash table probe */
	struct {
		const char *key;
		size_t c;
	} recent[32];
};

/* The index of key in names, or count when it is none of them. */
static inline size_t key_class(struct key_classes *kc, const char *key)
{
	size_t slot = key_slot_(key, 32);
	if (kc->recent[slot].key == key)
		return kc->recent[slot].c;
	void *v = ptr_map_get(&kc->seen, key);
	size_t c = 0;
	if (v) {
		c = (size_t)(uintptr_t)v - 1;
	} else {
		while (c < kc->count && strcmp(kc->names[c], key) != 0)
			c++;
		(void)ptr_map_put(&kc->seen, key, (void *)(uintptr_t)(c + 1)); /* else: asked again */
	}
	kc->recent[slot].key = key;
	kc->recent[slot].c = c;
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
	if (!PL_GROW(s->v, s->cap, s->len + 1))
		return false;
	s->v[s->len++] = inst;
	return true;
}

#endif
