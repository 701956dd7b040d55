/* plugins/ptr_map.h — a map from pointers to pointers (open addressing,
 * linear probing), private to the plugins that need per-value or
 * per-instruction scratch data (the SDK has no user-data slot on values).
 *
 * Lookups only: the map is never iterated, so the order of addresses never
 * reaches a pass's output. Expected O(1) per operation; memory is freed
 * with ptr_map_free. A NULL key is not allowed; a NULL value means absent.
 */
#ifndef PLUGINS_PTR_MAP_H
#define PLUGINS_PTR_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct ptr_map {
	const void **keys;
	void **vals;
	size_t cap, count; /* cap is 0 or a power of two */
};

static inline size_t ptr_map_slot_(const struct ptr_map *m, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key;
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	return (size_t)h & (m->cap - 1);
}

static inline void *ptr_map_get(const struct ptr_map *m, const void *key)
{
	if (!m->cap)
		return NULL;
	for (size_t j = ptr_map_slot_(m, key);; j = (j + 1) & (m->cap - 1)) {
		if (m->keys[j] == key)
			return m->vals[j];
		if (!m->keys[j])
			return NULL;
	}
}

static inline bool ptr_map_grow_(struct ptr_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct ptr_map n = {calloc(cap, sizeof *n.keys), calloc(cap, sizeof *n.vals), cap, 0};
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return false;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = ptr_map_slot_(&n, m->keys[i]);
		while (n.keys[j])
			j = (j + 1) & (cap - 1);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.count = m->count;
	free(m->keys);
	free(m->vals);
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
	while (m->keys[j] && m->keys[j] != key)
		j = (j + 1) & (m->cap - 1);
	if (!m->keys[j]) {
		m->keys[j] = key;
		m->count++;
	}
	m->vals[j] = val;
	return true;
}

static inline void ptr_map_free(struct ptr_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->count = 0;
}

#endif
