/* SPDX-License-Identifier: MIT */
/* sdk/ir/attr.c — attribute values and ordered attribute dictionaries. */
#include "ir/internal.h"

#include <math.h>
#include <stdlib.h>

static pl_attr *attr_alloc(pl_module *m, pl_attr_kind kind)
{
	pl_attr *a = pl_arena_alloc(&m->arena, sizeof *a);
	if (a) {
		memset(a, 0, sizeof *a);
		a->kind = (uint8_t)kind;
	}
	return a;
}

bool pl_attr_box_(pl_module *m, pl_attr_kind kind, const void *x, pl_attr *out)
{
	memset(out, 0, sizeof *out);
	out->kind = (uint8_t)kind;
	const void *box = pl_intern_blob_(m, &m->scalars, x, sizeof(int64_t));
	if (!box)
		return false;
	out->boxed = kind == PL_ATTR_INT;
	out->v = pl_region_off_(box);
	return true;
}

static const pl_attr *scalar_attr(pl_module *m, pl_attr_kind kind, const void *x)
{
	pl_attr v, *a;
	if (!pl_attr_scalar_(m, kind, x, &v) || !(a = attr_alloc(m, kind)))
		return NULL;
	*a = v;
	return a;
}

const pl_attr *pl_attr_int(pl_module *m, int64_t v)
{
	return scalar_attr(m, PL_ATTR_INT, &v);
}

const pl_attr *pl_attr_float(pl_module *m, double v)
{
	if (!isfinite(v))
		return NULL; /* the text form has no spelling for inf or nan */
	return scalar_attr(m, PL_ATTR_FLOAT, &v);
}

const pl_attr *pl_attr_bool(pl_module *m, bool v)
{
	pl_attr *a = attr_alloc(m, PL_ATTR_BOOL);
	if (a)
		a->v = v;
	return a;
}

const pl_attr *pl_attr_string(pl_module *m, const char *s, size_t len)
{
	if (len > UINT32_MAX)
		return NULL;
	const char *interned = pl_intern_str_(m, s, len);
	if (!interned)
		return NULL;
	pl_attr *a = attr_alloc(m, PL_ATTR_STRING);
	if (a)
		a->v = pl_region_off_(interned);
	return a;
}

const pl_attr *pl_attr_intern_list_(pl_module *m, const pl_attr *elems, size_t n)
{
	if (n > UINT32_MAX / sizeof(pl_attr))
		return NULL;
	pl_attr *a = attr_alloc(m, PL_ATTR_LIST);
	if (!a)
		return NULL;
	if (n) {
		const void *list = pl_intern_blob_(m, &m->lists, elems, n * sizeof(pl_attr));
		if (!list)
			return NULL;
		a->v = pl_region_off_(list);
	}
	return a;
}

/* src as a value of m's, in *dst (with key 0): the same bits when src
 * is m's already, else made again in m, a list element by element, since
 * what src names lies in its own module's region. false when out of
 * memory. */
static bool attr_import(pl_module *m, pl_attr *dst, const pl_attr *src)
{
	memset(dst, 0, sizeof *dst);
	dst->kind = src->kind;
	if (pl_region_same_(src, m->insts.region) || src->kind == PL_ATTR_BOOL ||
	    (src->kind == PL_ATTR_INT && !src->boxed)) {
		dst->boxed = src->boxed;
		dst->v = src->v;
		return true;
	}
	switch (src->kind) {
	case PL_ATTR_INT: {
		int64_t i = pl_attr_i_(src);
		return pl_attr_scalar_(m, PL_ATTR_INT, &i, dst);
	}
	case PL_ATTR_FLOAT: {
		double f = pl_attr_f_(src);
		return pl_attr_scalar_(m, PL_ATTR_FLOAT, &f, dst);
	}
	case PL_ATTR_STRING: {
		const char *s = pl_intern_str_(m, pl_attr_s_(src), pl_attr_len_(src));
		dst->v = s ? pl_region_off_(s) : 0;
		return s != NULL;
	}
	case PL_ATTR_LIST: {
		size_t n = pl_attr_len_(src);
		const pl_attr *from = pl_attr_elems_(src);
		pl_attr *tmp = n ? malloc(n * sizeof *tmp) : NULL;
		bool ok = !n || tmp;
		for (size_t i = 0; ok && i < n; i++)
			ok = attr_import(m, &tmp[i], &from[i]);
		const pl_attr *list = ok ? pl_attr_intern_list_(m, tmp, n) : NULL;
		free(tmp);
		if (list)
			*dst = *list;
		return list != NULL;
	}
	}
	return false;
}

const pl_attr *pl_attr_list(pl_module *m, const pl_attr *const *elems, size_t n)
{
	if (n > UINT32_MAX / sizeof(pl_attr))
		return NULL;
	pl_attr small[16];
	pl_attr *tmp = n <= 16 ? small : malloc(n * sizeof *tmp);
	if (!tmp)
		return NULL;
	const pl_attr *res = NULL;
	for (size_t i = 0; i < n; i++)
		if (!elems[i] || !attr_import(m, &tmp[i], elems[i]))
			goto out;
	res = pl_attr_intern_list_(m, tmp, n);
out:
	if (tmp != small)
		free(tmp);
	return res;
}

const pl_attr *pl_attr_int_list(pl_module *m, const int64_t *v, size_t n)
{
	if (n > UINT32_MAX / sizeof(pl_attr))
		return NULL;
	pl_attr small[16];
	pl_attr *tmp = n <= 16 ? small : malloc(n * sizeof *tmp);
	if (!tmp)
		return NULL;
	const pl_attr *res = NULL;
	for (size_t i = 0; i < n; i++)
		if (!pl_attr_scalar_(m, PL_ATTR_INT, &v[i], &tmp[i]))
			goto out;
	res = pl_attr_intern_list_(m, tmp, n);
out:
	if (tmp != small)
		free(tmp);
	return res;
}

pl_attr_kind pl_attr_get_kind(const pl_attr *a) { return (pl_attr_kind)a->kind; }
int64_t pl_attr_get_int(const pl_attr *a) { return a->kind == PL_ATTR_INT ? pl_attr_i_(a) : 0; }
double pl_attr_get_float(const pl_attr *a) { return a->kind == PL_ATTR_FLOAT ? pl_attr_f_(a) : 0.0; }
bool pl_attr_get_bool(const pl_attr *a) { return a->kind == PL_ATTR_BOOL && a->v; }

const char *pl_attr_get_string(const pl_attr *a, size_t *len)
{
	if (a->kind != PL_ATTR_STRING) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = pl_attr_len_(a);
	return pl_attr_s_(a);
}

size_t pl_attr_list_size(const pl_attr *a) { return a->kind == PL_ATTR_LIST ? pl_attr_len_(a) : 0; }

const pl_attr *pl_attr_list_at(const pl_attr *a, size_t i)
{
	if (a->kind != PL_ATTR_LIST || i >= pl_attr_len_(a))
		return NULL;
	return &pl_attr_elems_(a)[i];
}

bool pl_attr_equal(const pl_attr *a, const pl_attr *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case PL_ATTR_INT: return pl_attr_i_(a) == pl_attr_i_(b);
	case PL_ATTR_FLOAT: return pl_attr_f_(a) == pl_attr_f_(b);
	case PL_ATTR_BOOL: return a->v == b->v;
	case PL_ATTR_STRING:
		return pl_attr_len_(a) == pl_attr_len_(b) &&
		       memcmp(pl_attr_s_(a), pl_attr_s_(b), pl_attr_len_(a)) == 0;
	case PL_ATTR_LIST: {
		if (pl_attr_len_(a) != pl_attr_len_(b))
			return false;
		const pl_attr *x = pl_attr_elems_(a), *y = pl_attr_elems_(b);
		for (uint32_t i = 0, n = pl_attr_len_(a); i < n; i++)
			if (!pl_attr_equal(&x[i], &y[i]))
				return false;
		return true;
	}
	}
	return false;
}

/* ---- dictionaries ---- */

size_t pl_attrs_count(const pl_attrs *d) { return d->n; }

const char *pl_attrs_key_at(const pl_attrs *d, size_t i)
{
	return i < d->n ? pl_key_name_(pl_module_of_attrs_(d), pl_attrs_v_(d)[i].val.key) : NULL;
}

const pl_attr *pl_attrs_value_at(const pl_attrs *d, size_t i)
{
	return i < d->n ? &pl_attrs_v_(d)[i].val : NULL;
}

/* Keys are interned per module, so a caller that passes a key the SDK
 * handed out (pl_attrs_key_at) is found by its address, without a strcmp;
 * any other spelling of it by comparing strings. */
static inline bool key_matches(const char *k, const char *key)
{
	return k == key || (k[0] == key[0] && strcmp(k, key) == 0);
}

static long attrs_find(const pl_attrs *d, const char *key)
{
	if (!d->n)
		return -1;
	const char *const *names = pl_module_of_attrs_(d)->keys.names;
	const struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t i = 0; i < d->n; i++)
		if (key_matches(names[v[i].val.key], key))
			return i;
	return -1;
}

/* the loop of attrs_find, spelled out: the hottest lookup stays one call */
const pl_attr *pl_attrs_get(const pl_attrs *d, const char *key)
{
	if (!d->n)
		return NULL;
	const char *const *names = pl_module_of_attrs_(d)->keys.names;
	const struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t i = 0; i < d->n; i++)
		if (key_matches(names[v[i].val.key], key))
			return &v[i].val;
	return NULL;
}

/* A dictionary's entry array may be shared (cap == 0 with n > 0): the
 * reader gives every instruction written with the same attribute text the
 * same array, and a clone shares its original's. Writes go through here
 * first, which gives d an array of its own with room for one more. */
static int attrs_own(pl_module *m, pl_attrs *d, size_t need)
{
	if (d->cap >= need && d->cap != 0)
		return PL_OK;
	if (need > UINT16_MAX)
		return PL_ELIMIT;
	/* six entries hold the attributes of nearly every instruction, so most
	 * dictionaries are allocated once */
	size_t cap = d->cap ? (size_t)d->cap * 2 : 6;
	while (cap < need)
		cap *= 2;
	if (cap > UINT16_MAX)
		cap = UINT16_MAX;
	struct pl_attr_entry *v = pl_arena_alloc(&m->insts, cap * sizeof *v);
	if (!v)
		return PL_ENOMEM;
	if (d->n)
		memcpy(v, pl_attrs_v_(d), d->n * sizeof *v);
	d->off = pl_region_off_(v);
	d->cap = (uint16_t)cap;
	return PL_OK;
}

/* A dictionary that got a domain or a predicate may have a new pair for
 * the predicated counts (see pl_count_note_). */
static void note_pair(pl_module *m, const pl_attrs *d, uint32_t key)
{
	if (key == PL_KEY_DOMAIN || key == PL_KEY_PREDICATE)
		pl_count_note_(m, d);
}

int pl_attrs_copy_(pl_module *m, pl_attrs *dst, const pl_attrs *src)
{
	struct pl_attr_entry *v = pl_attrs_v_(src);
	if (src->cap != 0 && src->n) {
		/* src may still change in place, and sharing would have to
		 * stop that, a write to src: dst gets a copy of its own */
		if (!(v = pl_arena_alloc(&m->insts, src->n * sizeof *v)))
			return PL_ENOMEM;
		memcpy(v, pl_attrs_v_(src), src->n * sizeof *v);
	}
	dst->off = pl_region_off_(v);
	dst->n = src->n;
	dst->cap = 0; /* shared, or exactly full: copy on write */
	return PL_OK;
}

int pl_attrs_append_(pl_module *m, pl_attrs *d, uint32_t key, const pl_attr *val)
{
	int rc = attrs_own(m, d, (size_t)d->n + 1);
	if (rc)
		return rc;
	pl_attr *e = &pl_attrs_v_(d)[d->n].val;
	*e = *val;
	e->key = key & PL_KEY_MAX;
	d->n++;
	note_pair(m, d, key);
	return PL_OK;
}

/* The number of key (already checked to be a key); 0 when out of memory
 * or past PL_KEY_MAX keys. */
static uint32_t key_id(pl_module *m, const char *key)
{
	/* by the whole address: literals such as "id" and "group_id" may
	 * share bytes, and so an 8-byte word */
	size_t slot = pl_ht_hash_ptr(key) >> 26; /* 64 slots */
	if (m->key_cache[slot].given == key &&
	    strcmp(pl_key_name_(m, m->key_cache[slot].id), key) == 0)
		return m->key_cache[slot].id;
	const char *k = pl_intern_str_(m, key, strlen(key));
	uint32_t id = k ? pl_key_id_(m, k) : 0;
	if (id) {
		m->key_cache[slot].given = key;
		m->key_cache[slot].id = id;
	}
	return id;
}

/* Sets key (already checked) to value, a value of m's own. */
static int attrs_put(pl_module *m, pl_attrs *d, const char *key, const pl_attr *value)
{
	long i = attrs_find(d, key);
	if (i >= 0) {
		int rc = attrs_own(m, d, d->n);
		if (rc)
			return rc;
		pl_attr *e = &pl_attrs_v_(d)[i].val;
		uint32_t id = e->key;
		*e = *value;
		e->key = id;
		note_pair(m, d, id);
		return PL_OK;
	}
	uint32_t id = key_id(m, key);
	if (!id)
		return m->keys.n == PL_KEY_MAX ? PL_ELIMIT : PL_ENOMEM;
	return pl_attrs_append_(m, d, id, value);
}

int pl_attrs_set(pl_attrs *d, const char *key, const pl_attr *value)
{
	if (!key || !value || !pl_is_key_(key, strlen(key)))
		return PL_EINVAL;
	pl_module *m = pl_module_of_attrs_(d);
	pl_attr v;
	if (!attr_import(m, &v, value))
		return PL_ENOMEM;
	return attrs_put(m, d, key, &v);
}

int pl_attrs_remove(pl_attrs *d, const char *key)
{
	long i = attrs_find(d, key);
	if (i < 0)
		return PL_ENOTFOUND;
	int rc = attrs_own(pl_module_of_attrs_(d), d, d->n);
	if (rc)
		return rc;
	struct pl_attr_entry *v = pl_attrs_v_(d);
	memmove(&v[i], &v[i + 1], (d->n - (size_t)i - 1) * sizeof *v);
	d->n--;
	return PL_OK;
}

int pl_attrs_get_int(const pl_attrs *d, const char *key, int64_t *out)
{
	const pl_attr *a = pl_attrs_get(d, key);
	if (!a)
		return PL_ENOTFOUND;
	if (a->kind != PL_ATTR_INT)
		return PL_ETYPE;
	*out = pl_attr_i_(a);
	return PL_OK;
}

int pl_attrs_get_bool(const pl_attrs *d, const char *key, bool *out)
{
	const pl_attr *a = pl_attrs_get(d, key);
	if (!a)
		return PL_ENOTFOUND;
	if (a->kind != PL_ATTR_BOOL)
		return PL_ETYPE;
	*out = a->v != 0;
	return PL_OK;
}

int pl_attrs_get_string(const pl_attrs *d, const char *key, const char **out,
                        size_t *len)
{
	const pl_attr *a = pl_attrs_get(d, key);
	if (!a)
		return PL_ENOTFOUND;
	if (a->kind != PL_ATTR_STRING)
		return PL_ETYPE;
	*out = pl_attr_s_(a);
	if (len)
		*len = pl_attr_len_(a);
	return PL_OK;
}

/* Scalars are copied into the dictionary, so a stack value will do. */
int pl_attrs_set_int(pl_attrs *d, const char *key, int64_t v)
{
	if (!key || !pl_is_key_(key, strlen(key)))
		return PL_EINVAL;
	pl_module *m = pl_module_of_attrs_(d);
	pl_attr a;
	if (!pl_attr_scalar_(m, PL_ATTR_INT, &v, &a))
		return PL_ENOMEM;
	return attrs_put(m, d, key, &a);
}

int pl_attrs_set_bool(pl_attrs *d, const char *key, bool v)
{
	return pl_attrs_set(d, key, &(pl_attr){.kind = PL_ATTR_BOOL, .v = v});
}

int pl_attrs_set_string(pl_attrs *d, const char *key, const char *s)
{
	const pl_attr *a = pl_attr_string(pl_module_of_attrs_(d), s, strlen(s));
	return a ? pl_attrs_set(d, key, a) : PL_ENOMEM;
}
