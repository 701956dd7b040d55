/* SPDX-License-Identifier: MIT */
/* sdk/module.c — modules, interning and types. */
#include "internal.h"

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

void pl_intern_free_(struct pl_intern *set)
{
	free(set->slots);
	free(set->lens);
	memset(set, 0, sizeof *set);
}

static bool intern_grow(struct pl_intern *set)
{
	size_t cap = set->cap ? set->cap * 2 : 64;
	const void **slots = calloc(cap, sizeof *slots);
	uint32_t *lens = calloc(cap, sizeof *lens);
	if (!slots || !lens) {
		free(slots);
		free(lens);
		return false;
	}
	for (size_t i = 0; i < set->cap; i++) {
		if (!set->slots[i])
			continue;
		size_t j = pl_hash_bytes_(set->slots[i], set->lens[i]) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = set->slots[i];
		lens[j] = set->lens[i];
	}
	free(set->slots);
	free(set->lens);
	set->slots = slots;
	set->lens = lens;
	set->cap = cap;
	return true;
}

const void *pl_intern_blob_(pl_module *m, struct pl_intern *set,
                            const void *bytes, size_t len)
{
	if (len > UINT32_MAX)
		return NULL;
	if ((set->count + 1) * 2 > set->cap && !intern_grow(set))
		return NULL;
	size_t mask = set->cap - 1;
	size_t j = pl_hash_bytes_(bytes, len) & mask;
	while (set->slots[j]) {
		if (set->lens[j] == len && memcmp(set->slots[j], bytes, len) == 0)
			return set->slots[j];
		j = (j + 1) & mask;
	}
	/* A NUL after every blob lets interned strings be C strings. */
	char *copy = pl_arena_alloc(&m->arena, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, bytes, len);
	copy[len] = '\0';
	set->slots[j] = copy;
	set->lens[j] = (uint32_t)len;
	set->count++;
	return copy;
}

const char *pl_intern_str_(pl_module *m, const char *s, size_t len)
{
	return pl_intern_blob_(m, &m->strings, s, len);
}

pl_module *pl_module_new(const char *source_name)
{
	pl_module *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	pl_arena_init(&m->arena);
	if (source_name && !(m->source_name = strdup(source_name))) {
		free(m);
		return NULL;
	}
	struct pl_reserved_keys *k = &m->keys;
	if (!(k->domain = pl_intern_str_(m, "domain", 6)) ||
	    !(k->predicate = pl_intern_str_(m, "predicate", 9)) ||
	    !(k->num_dynamic_instances = pl_intern_str_(m, "num_dynamic_instances", 21)) ||
	    !(k->flops = pl_intern_str_(m, "flops", 5))) {
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
	free(m->name_slots);
	pl_count_memo_free_(m->count_memo);
	pl_arena_free(&m->arena);
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

pl_func *pl_module_find_func(const pl_module *m, const char *name)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i]->name, name) == 0)
			return m->funcs[i];
	return NULL;
}

size_t pl_module_num_insts(const pl_module *m) { return m->ninsts; }

/* The type in dst equal to t (a type of another module). A small cache of
 * the last lookups spares most of the interning. */
struct type_remap {
	const pl_type *from[64], *to[64];
};

static const pl_type *remap_type(pl_module *dst, struct type_remap *c, const pl_type *t)
{
	size_t slot = ((uintptr_t)t >> 3) & 63;
	if (c->from[slot] == t)
		return c->to[slot];
	const pl_type *u = pl_type_get(dst, (pl_dtype)t->dtype, t->dims, t->rank);
	if (u) {
		c->from[slot] = t;
		c->to[slot] = u;
	}
	return u;
}

/* Attribute keys of src interned again in dst: the SDK finds reserved
 * keys by pointer. Entry arrays may be shared; a key already dst's maps to
 * itself. */
struct key_remap {
	const char *from[64], *to[64];
};

static int remap_keys(pl_module *dst, struct key_remap *c, pl_attrs *d)
{
	for (uint16_t i = 0; i < d->n; i++) {
		const char *key = d->v[i].key;
		size_t slot = ((uintptr_t)key >> 3) & 63;
		if (c->from[slot] != key) {
			const char *k = pl_intern_str_(dst, key, strlen(key));
			if (!k)
				return PL_ENOMEM;
			c->from[slot] = key;
			c->to[slot] = k;
		}
		d->v[i].key = c->to[slot];
	}
	return PL_OK;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* src's types and attribute keys interned again in dst. */
static int reintern_func(pl_module *dst, struct type_remap *cache, struct key_remap *keys,
                         pl_func *f)
{
	if (remap_keys(dst, keys, &f->attrs) != PL_OK)
		return PL_ENOMEM;
	for (size_t a = 0; a < f->nargs; a++)
		if (!(f->args[a]->v.type = remap_type(dst, cache, f->args[a]->v.type)))
			return PL_ENOMEM;
	for (pl_inst *i = f->first; i; i = i->next) {
		if (remap_keys(dst, keys, &i->attrs) != PL_OK)
			return PL_ENOMEM;
		pl_value *res = pl_inst_res_(i);
		for (uint32_t r = 0; r < i->nres; r++)
			if (!(res[r].type = remap_type(dst, cache, res[r].type)))
				return PL_ENOMEM;
	}
	return PL_OK;
}

static int append(pl_module *dst, pl_module *src, bool reintern)
{
	size_t n = dst->nfuncs + src->nfuncs;
	/* a name in both modules: the caller reads the input again, in one
	 * piece, to report it where it is written */
	const char **names = malloc((n ? n : 1) * sizeof *names);
	if (!names)
		return PL_ENOMEM;
	for (size_t k = 0; k < dst->nfuncs; k++)
		names[k] = dst->funcs[k]->name;
	for (size_t k = 0; k < src->nfuncs; k++)
		names[dst->nfuncs + k] = src->funcs[k]->name;
	qsort(names, n, sizeof *names, cmp_name_ptr);
	for (size_t k = 1; k < n; k++)
		if (strcmp(names[k - 1], names[k]) == 0) {
			free(names);
			return PL_EINVAL;
		}
	free(names);
	if (n > dst->funcs_cap) {
		pl_func **v = realloc(dst->funcs, n * sizeof *v);
		if (!v)
			return PL_ENOMEM;
		dst->funcs = v;
		dst->funcs_cap = n;
	}
	struct type_remap cache;
	struct key_remap keys;
	memset(&cache, 0, sizeof cache);
	memset(&keys, 0, sizeof keys);
	for (size_t k = 0; k < src->nfuncs; k++) {
		pl_func *f = src->funcs[k];
		if (reintern && reintern_func(dst, &cache, &keys, f) != PL_OK)
			return PL_ENOMEM;
		f->m = dst;
		dst->funcs[dst->nfuncs++] = f;
	}
	dst->ninsts += src->ninsts;
	/* src's strings and lists stay where they are (now dst's memory); types
	 * (promised to be equal handles) and attribute keys (found by pointer)
	 * are dst's, interned again above unless they were already */
	pl_arena_adopt(&dst->arena, &src->arena);
	src->nfuncs = 0;
	pl_module_free(src);
	return PL_OK;
}

int pl_module_append_(pl_module *dst, pl_module *src)
{
	return append(dst, src, true);
}

int pl_module_append_interned_(pl_module *dst, pl_module *src)
{
	return append(dst, src, false);
}

void pl_module_adopt_interns_(pl_module *dst, pl_module *from)
{
	pl_intern_free_(&dst->strings);
	pl_intern_free_(&dst->types);
	pl_intern_free_(&dst->lists);
	dst->strings = from->strings;
	dst->types = from->types;
	dst->lists = from->lists;
	dst->keys = from->keys;
	/* the caches hold strings of the tables just dropped */
	memset(dst->op_cache, 0, sizeof dst->op_cache);
	memset(dst->key_cache, 0, sizeof dst->key_cache);
	memset(&from->strings, 0, sizeof from->strings);
	memset(&from->types, 0, sizeof from->types);
	memset(&from->lists, 0, sizeof from->lists);
	pl_arena_adopt(&dst->arena, &from->arena);
	pl_module_free(from);
}

pl_module *pl_module_of_attrs_(const pl_attrs *d)
{
	if (d->owner == PL_ATTRS_OF_INST) {
		const pl_inst *i = (const pl_inst *)(const void *)((const char *)d -
		                                                   offsetof(pl_inst, attrs));
		return i->func->m;
	}
	const pl_func *f =
		(const pl_func *)(const void *)((const char *)d - offsetof(pl_func, attrs));
	return f->m;
}

pl_func *pl_func_new_unchecked_(pl_module *m, const char *name, size_t len)
{
	if (m->nfuncs == m->funcs_cap) {
		size_t cap = m->funcs_cap ? m->funcs_cap * 2 : 8;
		pl_func **v = realloc(m->funcs, cap * sizeof *v);
		if (!v)
			return NULL;
		m->funcs = v;
		m->funcs_cap = cap;
	}
	pl_func *f = pl_arena_alloc(&m->arena, sizeof *f);
	if (!f)
		return NULL;
	memset(f, 0, sizeof *f);
	f->m = m;
	f->name = pl_arena_strndup(&m->arena, name, len);
	if (!f->name)
		return NULL;
	f->attrs.owner = PL_ATTRS_OF_FUNC;
	m->funcs[m->nfuncs++] = f;
	return f;
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

const pl_type *pl_type_get(pl_module *m, pl_dtype dtype, const int64_t *dims,
                           size_t rank)
{
	if (dtype <= PL_DTYPE_INVALID || dtype >= PL_DTYPE__COUNT || rank > PL_MAX_RANK)
		return NULL;
	/* room for the largest type, aligned for its int64 extents */
	int64_t storage[(sizeof(struct pl_type) + sizeof(int64_t) - 1) / sizeof(int64_t) +
	                PL_MAX_RANK];
	struct pl_type *t = (struct pl_type *)(void *)storage;
	memset(storage, 0, sizeof storage);
	t->rank = (uint32_t)rank;
	t->dtype = (uint32_t)dtype;
	for (size_t i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return NULL;
		t->dims[i] = dims[i];
	}
	type_sizes(t);
	return pl_intern_blob_(m, &m->types, t,
	                       sizeof(struct pl_type) + rank * sizeof(int64_t));
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
