/* SPDX-License-Identifier: MIT */
/* sdk/ir/module.c — modules, interning and types. */
#include "ir/internal.h"
#include "ir/hlo_opcodes.h"
#include <passline/grow.h>

#include <stdlib.h>

static inline uint64_t load64(const unsigned char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
	return w;
}

static inline uint64_t load32(const unsigned char *s)
{
	uint32_t w;
	memcpy(&w, s, 4);
	return w;
}

/* A multiply-xorshift over 8-byte words. The last word is read so that it
 * ends at the last byte (overlapping the one before), and shorter inputs
 * are read as two overlapping 4-byte words or three single bytes, so no
 * byte past the input is touched and no byte-wise copy is needed. The
 * length is mixed in first, which tells the overlapped forms apart. Only
 * lookups depend on the value: nothing is ordered by it. */
uint64_t pl_hash_bytes_(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (len * 0xff51afd7ed558ccdull);
	uint64_t w;
	if (len > 8) {
		const unsigned char *last = s + len - 8;
		for (; s < last; s += 8) {
			h = (h ^ load64(s)) * 0xbf58476d1ce4e5b9ull;
			h ^= h >> 31;
		}
		w = load64(last);
	} else if (len >= 4) {
		w = load32(s) << 32 | load32(s + len - 4);
	} else if (len > 0) {
		w = (uint64_t)s[0] << 16 | (uint64_t)s[len / 2] << 8 | s[len - 1];
	} else {
		w = 0;
	}
	h = (h ^ w) * 0x94d049bb133111ebull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

void pl_intern_free_(struct pl_ht *set)
{
	pl_ht_free(set);
}

/* An interned blob is preceded by its length (8 bytes, so that the blob
 * stays aligned for a type's extents) and followed by a NUL. */
struct blob {
	const void *bytes;
	size_t len;
};

static bool blob_is(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	const struct blob *b = probe;
	return ((const uint64_t *)item)[-1] == b->len && memcmp(item, b->bytes, b->len) == 0;
}

uint32_t pl_intern_hash_(const void *bytes, size_t len)
{
	return (uint32_t)pl_hash_bytes_(bytes, len);
}

/* The slot of set holding bytes[0..len) of the given hash, or the empty
 * one where it goes; SIZE_MAX when out of memory. */
static size_t blob_slot_hashed(struct pl_ht *set, const void *bytes, size_t len, uint32_t hash)
{
	if (len > UINT32_MAX || !pl_ht_reserve(set))
		return SIZE_MAX;
	struct blob probe = {bytes, len};
	return pl_ht_find(set, hash, blob_is, &probe, NULL);
}

static size_t blob_slot(struct pl_ht *set, const void *bytes, size_t len, uint32_t *hash)
{
	*hash = pl_intern_hash_(bytes, len);
	return blob_slot_hashed(set, bytes, len, *hash);
}

const void *pl_intern_blob_(pl_module *m, struct pl_ht *set, const void *bytes, size_t len)
{
	return pl_intern_blob_hashed_(m, set, bytes, len, pl_intern_hash_(bytes, len));
}

const void *pl_intern_blob_hashed_(pl_module *m, struct pl_ht *set, const void *bytes,
                                   size_t len, uint32_t hash)
{
	size_t j = blob_slot_hashed(set, bytes, len, hash);
	if (j == SIZE_MAX)
		return NULL;
	if (pl_ht_used(set, j))
		return pl_ht_item_(set, j);
	uint64_t *copy = pl_arena_alloc(&m->arena, sizeof(uint64_t) + len + 1);
	if (!copy)
		return NULL;
	copy[0] = len;
	memcpy(copy + 1, bytes, len);
	((char *)(copy + 1))[len] = '\0'; /* interned strings are C strings */
	pl_ht_put(set, j, hash, copy + 1);
	return copy + 1;
}

const void *pl_intern_adopt_(struct pl_ht *set, const void *blob)
{
	uint32_t hash;
	size_t j = blob_slot(set, blob, (size_t)((const uint64_t *)blob)[-1], &hash);
	if (j == SIZE_MAX)
		return NULL;
	if (!pl_ht_used(set, j))
		pl_ht_put(set, j, hash, blob);
	return pl_ht_item_(set, j);
}

bool pl_intern_merge_(struct pl_ht *to, const struct pl_ht *from, struct pl_ht *dups)
{
	if (!from->count)
		return true;
	if (!pl_ht_reserve_n(to, from->count))
		return false;
	enum { AHEAD = 16 }; /* to is far bigger than the caches */
	for (size_t j = 0; j < from->cap; j++) {
		if (j + AHEAD < from->cap && pl_ht_at(from, j + AHEAD))
			pl_ht_prefetch(to, pl_ht_hash_at(from, j + AHEAD));
		const void *blob = pl_ht_at(from, j);
		if (!blob)
			continue;
		/* the hash is the one blob_slot computes: the bytes are read
		 * only where to has a blob of the same hash */
		uint32_t hash = pl_ht_hash_at(from, j);
		struct blob probe = {blob, (size_t)((const uint64_t *)blob)[-1]};
		size_t k = pl_ht_find(to, hash, blob_is, &probe, NULL);
		if (!pl_ht_used(to, k)) {
			pl_ht_put(to, k, hash, blob);
			continue;
		}
		if (!pl_ht_ptr_put(dups, blob, (void *)(uintptr_t)pl_ht_item_(to, k)))
			return false;
	}
	return true;
}

const char *pl_intern_str_(pl_module *m, const char *s, size_t len)
{
	return pl_intern_blob_(m, &m->strings, s, len);
}

/* Room in t's slots for one more number; false when out of memory. */
static bool number_slots_reserve(struct pl_numbered *t)
{
	if ((t->n + 1) * (size_t)4 <= t->slots_cap * 3)
		return true;
	size_t cap = t->slots_cap ? t->slots_cap * 2 : 64;
	struct pl_number_slot *slots = pl_ht_mem_(cap * sizeof *slots);
	if (!slots)
		return false;
	pl_ht_zero_(slots, cap * sizeof *slots);
	for (size_t i = 0; i < t->slots_cap; i++) {
		if (!t->slots[i].id)
			continue;
		size_t j = t->slots[i].hash & (cap - 1);
		while (slots[j].id)
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->slots_cap = cap;
	return true;
}

uint32_t pl_number_(struct pl_numbered *t, const char *interned)
{
	size_t len = pl_blob_len_(interned);
	uint32_t hash = pl_hash_short_(interned, len);
	size_t mask = t->slots_cap - 1, j = hash & mask;
	/* one number a text: an op name is kept apart from the interned
	 * strings (pl_op_number_text_), so equal bytes may lie at two
	 * addresses */
	for (; t->slots_cap && t->slots[j].id; j = (j + 1) & mask) {
		const char *name = t->names[t->slots[j].id];
		if (name == interned || (t->slots[j].hash == hash && pl_blob_len_(name) == len &&
		                         memcmp(name, interned, len) == 0))
			return t->slots[j].id; /* numbers start at 1 */
	}
	if (t->n == t->max)
		return 0;
	if (t->n + 1 >= t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 16;
		const char **names = realloc(t->names, cap * sizeof *names);
		if (!names)
			return 0;
		t->names = names;
		if (t->classify) {
			uint16_t *hlo = realloc(t->hlo, cap * sizeof *hlo);
			if (!hlo)
				return 0;
			t->hlo = hlo;
		}
		t->cap = cap;
	}
	if ((t->n + 1) * (size_t)4 > t->slots_cap * 3) {
		if (!number_slots_reserve(t))
			return 0;
		mask = t->slots_cap - 1;
		for (j = hash & mask; t->slots[j].id; j = (j + 1) & mask)
			;
	}
	if (t->classify)
		t->hlo[t->n + 1] = pl_hlo_classify_(interned, len);
	t->names[++t->n] = interned;
	t->slots[j] = (struct pl_number_slot){t->n, hash};
	return t->n;
}

uint32_t pl_op_number_text_(pl_module *m, const char *s, size_t len)
{
	uint32_t id = pl_number_find_(&m->ops, s, len, pl_hash_short_(s, len));
	if (id)
		return id;
	/* not entered in m's strings: a module whose every op name differs
	 * would pay a slot of that set for each, and nothing looks an op
	 * name up there */
	uint64_t *copy = pl_arena_alloc(&m->arena, sizeof(uint64_t) + len + 1);
	if (!copy)
		return 0;
	copy[0] = len;
	memcpy(copy + 1, s, len);
	((char *)(copy + 1))[len] = '\0';
	return pl_number_(&m->ops, (const char *)(copy + 1));
}

void pl_numbered_free_(struct pl_numbered *t)
{
	free(t->slots);
	free(t->names);
	free(t->hlo);
	*t = (struct pl_numbered){.max = t->max, .classify = t->classify};
}

/* Enters the names in order, so that the k-th has number first + k. */
static bool number_all(pl_module *m, struct pl_numbered *t, uint32_t first,
                       const char *const *names, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		const char *s = pl_intern_str_(m, names[k], strlen(names[k]));
		if (!s || pl_number_(t, s) != first + k)
			return false;
	}
	return true;
}

pl_module *pl_module_new(const char *source_name)
{
	struct pl_region *r = pl_region_new();
	if (!r)
		return NULL;
	pl_module *m = pl_module_new_in_(source_name, r);
	pl_region_drop(r);
	return m;
}

pl_module *pl_module_new_in_(const char *source_name, struct pl_region *r)
{
	pl_module *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	pl_arena_init_in(&m->arena, r);
	pl_arena_init_in(&m->insts, r);
	pl_arena_init(&m->text);
	if (source_name && !(m->source_name = strdup(source_name))) {
		pl_module_free(m);
		return NULL;
	}
	m->keys.max = PL_KEY_MAX;
	m->ops.max = PL_OPNAME_MAX;
	m->ops.classify = true;
	/* what the interned sets hold lies in the region (the arena's), so
	 * they keep it as offsets, in slots taken from the region too: the
	 * slots they outgrow (while reading, mostly) serve the arena of what
	 * they hold (not the naming set's: it grows when nothing is made any
	 * more) */
	struct pl_ht *sets[] = {&m->strings, &m->types, &m->lists, &m->scalars};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
		sets[k]->give_back = pl_arena_give;
		sets[k]->give_back_to = &m->arena;
		sets[k]->take = pl_arena_take_table;
		sets[k]->release = pl_arena_release_table;
		sets[k]->base = (const char *)r; /* at its span's start */
	}
	/* the reserved keys first, in the order of the PL_KEY_* numbers, and
	 * the known ops in pl_op order */
	static const char *const reserved[] = {"domain", "predicate", "num_dynamic_instances",
	                                       "flops"};
	const char *known[PL_OP__COUNT - 1];
	for (uint32_t k = 1; k < PL_OP__COUNT; k++)
		known[k - 1] = pl_op_name((pl_op)k);
	if (!number_all(m, &m->keys, PL_KEY_DOMAIN, reserved, sizeof reserved / sizeof *reserved) ||
	    !number_all(m, &m->ops, 1, known, PL_OP__COUNT - 1)) {
		pl_module_free(m);
		return NULL;
	}
	return m;
}

void pl_module_free(pl_module *m)
{
	if (!m)
		return;
	pl_intern_free_(&m->strings);
	pl_intern_free_(&m->types);
	pl_intern_free_(&m->lists);
	pl_intern_free_(&m->scalars);
	pl_ht_free(&m->names);
	pl_ht_free(&m->funcs_by_name);
	pl_numbered_free_(&m->keys);
	pl_numbered_free_(&m->ops);
	pl_count_memo_free_(m->count_memo);
	pl_hlo_kept_free_(m->hlo_kept);
	pl_arena_free(&m->arena);
	pl_arena_free(&m->insts);
	pl_arena_free(&m->text);
	free(m->funcs);
	free(m->source_name);
	free(m);
}

const char *pl_module_source_name(const pl_module *m)
{
	return m->source_name;
}

size_t pl_module_num_funcs(const pl_module *m) { return m->nfuncs; }

pl_func *pl_module_func_at(const pl_module *m, size_t i)
{
	return i < m->nfuncs ? m->funcs[i] : NULL;
}

struct func_probe {
	const char *name;
	size_t len;
};

static bool func_named(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	const struct func_probe *fp = probe;
	const char *name = ((const pl_func *)item)->name;
	return strncmp(name, fp->name, fp->len) == 0 && name[fp->len] == '\0';
}

pl_func *pl_module_find_func_(const pl_module *m, const char *name, size_t len)
{
	struct func_probe fp = {name, len};
	return (pl_func *)(uintptr_t)pl_ht_get(&m->funcs_by_name,
	                                       (uint32_t)pl_hash_bytes_(name, len), func_named,
	                                       &fp, NULL);
}

pl_func *pl_module_find_func(const pl_module *m, const char *name)
{
	return pl_module_find_func_(m, name, strlen(name));
}

size_t pl_module_num_insts(const pl_module *m) { return m->ninsts; }

int pl_module_add_func_(pl_module *m, pl_func *f)
{
	if (!PL_GROW(m->funcs, m->funcs_cap, m->nfuncs + 1))
		return PL_ENOMEM;
	if (!pl_ht_reserve(&m->funcs_by_name))
		return PL_ENOMEM;
	f->m = m;
	m->funcs[m->nfuncs++] = f;
	m->ninsts += f->ninsts;
	size_t len = strlen(f->name);
	uint32_t hash = (uint32_t)pl_hash_bytes_(f->name, len);
	struct func_probe fp = {f->name, len};
	pl_ht_put(&m->funcs_by_name,
	          pl_ht_find(&m->funcs_by_name, hash, func_named, &fp, NULL), hash, f);
	return PL_OK;
}

pl_func *pl_func_new_unchecked_(pl_module *m, const char *name, size_t len)
{
	/* in the region: its instructions and its dictionary name it, and
	 * the dictionary's entries, by offset */
	pl_func *f = pl_arena_alloc(&m->insts, sizeof *f);
	if (!f)
		return NULL;
	memset(f, 0, sizeof *f);
	f->name = pl_arena_strndup(&m->arena, name, len);
	if (!f->name)
		return NULL;
	f->attrs.owner = PL_ATTRS_OF_FUNC;
	f->append_step = PL_APPEND_STEP;
	return pl_module_add_func_(m, f) == PL_OK ? f : NULL;
}

pl_func *pl_func_new(pl_module *m, const char *name)
{
	if (!name || !pl_is_name_(name, strlen(name)) || pl_module_find_func(m, name))
		return NULL;
	return pl_func_new_unchecked_(m, name, strlen(name));
}

/* ---- types ---- */

/* Elements and bytes of a type, UINT64_MAX where they pass INT64_MAX. */
static void type_sizes(struct pl_type *t)
{
	uint64_t n = 1;
	bool zero = false, over = false;
	for (uint32_t i = 0; i < t->rank; i++)
		zero = zero || t->dims[i] == 0;
	for (uint32_t i = 0; !zero && i < t->rank; i++) {
		uint64_t d = (uint64_t)t->dims[i];
		if (n > (uint64_t)INT64_MAX / d) {
			over = true;
			break;
		}
		n *= d;
	}
	if (zero)
		n = 0;
	/* bits, rounded up to whole bytes per tensor (s4[3] is 2 bytes) */
	uint64_t bits = pl_dtype_bits((pl_dtype)t->dtype);
	t->elements = over ? UINT64_MAX : n;
	if (over)
		t->bytes = UINT64_MAX;
	else if (bits == 0)
		t->bytes = 0;
	else if (n > (uint64_t)INT64_MAX / bits)
		t->bytes = n / 8 > (uint64_t)INT64_MAX / bits ? UINT64_MAX : (n / 8) * bits +
		           ((n % 8) * bits + 7) / 8;
	else
		t->bytes = (n * bits + 7) / 8;
}

struct type_probe {
	pl_dtype dtype;
	const int64_t *dims;
	size_t rank;
};

static bool type_is(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	const struct pl_type *t = item;
	const struct type_probe *q = probe;
	return t->rank == q->rank && t->dtype == (uint32_t)q->dtype &&
	       (q->rank == 0 || memcmp(t->dims, q->dims, q->rank * sizeof *q->dims) == 0);
}

/* Types are interned by dtype and extents (the sizes follow from them),
 * hashed a word at a time, and their sizes worked out once, when a type
 * is first made. */
const pl_type *pl_type_get(pl_module *m, pl_dtype dtype, const int64_t *dims,
                           size_t rank)
{
	if (dtype <= PL_DTYPE_INVALID || dtype >= PL_DTYPE__COUNT || rank > PL_MAX_RANK)
		return NULL;
	uint64_t h = (uint64_t)dtype << 32 | rank;
	for (size_t i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return NULL;
		h = (h ^ (uint64_t)dims[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	uint32_t hash = (uint32_t)((h * 0xbf58476d1ce4e5b9ull) >> 32);
	struct pl_ht *set = &m->types;
	if (!pl_ht_reserve(set))
		return NULL;
	struct type_probe probe = {dtype, dims, rank};
	size_t j = pl_ht_find(set, hash, type_is, &probe, NULL);
	if (pl_ht_used(set, j))
		return pl_ht_item_(set, j);
	struct pl_type *t = pl_arena_alloc(&m->arena, sizeof *t + rank * sizeof *dims);
	if (!t)
		return NULL;
	t->rank = (uint32_t)rank;
	t->dtype = (uint32_t)dtype;
	if (rank)
		memcpy(t->dims, dims, rank * sizeof *dims);
	type_sizes(t);
	pl_ht_put(set, j, hash, t);
	return t;
}

pl_dtype pl_type_dtype(const pl_type *t) { return (pl_dtype)t->dtype; }
size_t pl_type_rank(const pl_type *t) { return t->rank; }
int64_t pl_type_dim(const pl_type *t, size_t i) { return i < t->rank ? t->dims[i] : 0; }

int pl_type_num_elements(const pl_type *t, uint64_t *out)
{
	if (t->elements > (uint64_t)INT64_MAX)
		return PL_EOVERFLOW;
	*out = t->elements;
	return PL_OK;
}

int pl_type_num_bytes(const pl_type *t, uint64_t *out)
{
	if (t->bytes > (uint64_t)INT64_MAX)
		return PL_EOVERFLOW;
	*out = t->bytes;
	return PL_OK;
}
