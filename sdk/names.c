/* SPDX-License-Identifier: MIT */
/* sdk/names.c — the lexical classes of names, and naming of values a pass
 * created (the printer needs every value of a function to have its own
 * name). */
#include "internal.h"

#include <stdlib.h>

/* The character classes of the lexical rules below, one table lookup a
 * character. */
enum {
	CH_NAME = 1,         /* [A-Za-z0-9_.$-] */
	CH_OPNAME_START = 2, /* [a-z_] */
	CH_OPNAME = 4,       /* [a-z0-9_.] */
	CH_KEY_START = 8,    /* [A-Za-z_] */
	CH_KEY = 16          /* [A-Za-z0-9_] */
};

#define LOWER (CH_NAME | CH_OPNAME_START | CH_OPNAME | CH_KEY_START | CH_KEY)
#define UPPER (CH_NAME | CH_KEY_START | CH_KEY)
#define DIGIT (CH_NAME | CH_OPNAME | CH_KEY)
static const unsigned char char_class[256] = {
	['a'] = LOWER, ['b'] = LOWER, ['c'] = LOWER, ['d'] = LOWER, ['e'] = LOWER,
	['f'] = LOWER, ['g'] = LOWER, ['h'] = LOWER, ['i'] = LOWER, ['j'] = LOWER,
	['k'] = LOWER, ['l'] = LOWER, ['m'] = LOWER, ['n'] = LOWER, ['o'] = LOWER,
	['p'] = LOWER, ['q'] = LOWER, ['r'] = LOWER, ['s'] = LOWER, ['t'] = LOWER,
	['u'] = LOWER, ['v'] = LOWER, ['w'] = LOWER, ['x'] = LOWER, ['y'] = LOWER,
	['z'] = LOWER,
	['A'] = UPPER, ['B'] = UPPER, ['C'] = UPPER, ['D'] = UPPER, ['E'] = UPPER,
	['F'] = UPPER, ['G'] = UPPER, ['H'] = UPPER, ['I'] = UPPER, ['J'] = UPPER,
	['K'] = UPPER, ['L'] = UPPER, ['M'] = UPPER, ['N'] = UPPER, ['O'] = UPPER,
	['P'] = UPPER, ['Q'] = UPPER, ['R'] = UPPER, ['S'] = UPPER, ['T'] = UPPER,
	['U'] = UPPER, ['V'] = UPPER, ['W'] = UPPER, ['X'] = UPPER, ['Y'] = UPPER,
	['Z'] = UPPER,
	['0'] = DIGIT, ['1'] = DIGIT, ['2'] = DIGIT, ['3'] = DIGIT, ['4'] = DIGIT,
	['5'] = DIGIT, ['6'] = DIGIT, ['7'] = DIGIT, ['8'] = DIGIT, ['9'] = DIGIT,
	['_'] = CH_NAME | CH_OPNAME_START | CH_OPNAME | CH_KEY_START | CH_KEY,
	['.'] = CH_NAME | CH_OPNAME,
	['$'] = CH_NAME,
	['-'] = CH_NAME,
};
#undef LOWER
#undef UPPER
#undef DIGIT

/* len > 0 characters: the first of class first, the others of class rest */
static bool all_of(const char *s, size_t len, unsigned first, unsigned rest)
{
	const unsigned char *u = (const unsigned char *)s;
	if (len == 0 || !(char_class[u[0]] & first))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(char_class[u[i]] & rest))
			return false;
	return true;
}

bool pl_is_name_(const char *s, size_t len)
{
	return all_of(s, len, CH_NAME, CH_NAME);
}

bool pl_is_opname_(const char *s, size_t len)
{
	return all_of(s, len, CH_OPNAME_START, CH_OPNAME);
}

bool pl_is_key_(const char *s, size_t len)
{
	return all_of(s, len, CH_KEY_START, CH_KEY);
}

/* A set of C strings, by content. Each slot keeps the string's hash and
 * length, so a probe compares strings only when both match. The slots are
 * the module's scratch (struct pl_name_slot in internal.h), reused from
 * function to function: a slot is in use when it carries the current
 * generation, so nothing has to be cleared. At most half full, so that a
 * probe for a name not there (the usual case) ends after a slot or two. */
struct name_set {
	struct pl_name_slot *slots;
	size_t cap, count, limit;
	uint32_t gen;
};

/* FNV-1a and the length in one walk over the string, whose first byte the
 * caller has loaded already. */
static inline uint32_t name_hash(const char *s, unsigned char first, uint32_t *len)
{
	uint32_t h = 2166136261u;
	const unsigned char *p = (const unsigned char *)s;
	if (first) {
		h = (h ^ first) * 16777619u;
		for (p++; *p; p++)
			h = (h ^ *p) * 16777619u;
	}
	*len = (uint32_t)(p - (const unsigned char *)s);
	return h ^ (h >> 15);
}

static bool set_alloc(struct name_set *s, size_t cap)
{
	struct pl_name_slot *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return false;
	s->slots = slots;
	s->cap = cap;
	s->limit = cap / 2;
	s->gen = 1;
	return true;
}

/* A set for about expect names, from the module's scratch. */
static bool set_begin(pl_module *m, struct name_set *s, size_t expect)
{
	size_t cap = 64;
	while (cap < expect * 2)
		cap *= 2;
	s->count = 0;
	if (m->name_slots && m->name_cap >= cap && m->name_gen < UINT32_MAX) {
		s->slots = m->name_slots;
		s->cap = m->name_cap;
		s->limit = s->cap / 2;
		s->gen = ++m->name_gen;
		return true;
	}
	free(m->name_slots);
	m->name_slots = NULL;
	if (!set_alloc(s, cap))
		return false;
	m->name_slots = s->slots;
	m->name_cap = s->cap;
	m->name_gen = s->gen;
	return true;
}

static __attribute__((noinline)) bool set_grow(pl_module *m, struct name_set *s)
{
	struct name_set bigger;
	if (!set_alloc(&bigger, s->cap * 2))
		return false;
	for (size_t i = 0; i < s->cap; i++) {
		if (s->slots[i].gen != s->gen)
			continue;
		size_t j = s->slots[i].hash & (bigger.cap - 1);
		while (bigger.slots[j].gen == bigger.gen)
			j = (j + 1) & (bigger.cap - 1);
		bigger.slots[j] = s->slots[i];
		bigger.slots[j].gen = bigger.gen;
	}
	free(s->slots);
	bigger.count = s->count;
	*s = bigger;
	m->name_slots = s->slots;
	m->name_cap = s->cap;
	m->name_gen = s->gen;
	return true;
}

/* The slot holding name, or the free slot where it would go. */
static inline struct pl_name_slot *set_find(const struct name_set *s, const char *name,
                                            uint32_t hash, uint32_t len)
{
	size_t mask = s->cap - 1, j = hash & mask;
	for (;; j = (j + 1) & mask) {
		struct pl_name_slot *e = &s->slots[j];
		if (e->gen != s->gen ||
		    (e->hash == hash && e->len == len && memcmp(e->name, name, len) == 0))
			return e;
	}
}

/* Inserts name; false when it was there already (or out of memory, which
 * *oom tells). */
static inline bool set_insert(pl_module *m, struct name_set *s, const char *name,
                              unsigned char first, bool *oom)
{
	if (__builtin_expect(s->count >= s->limit, 0) && !set_grow(m, s)) {
		*oom = true;
		return false;
	}
	uint32_t len, hash = name_hash(name, first, &len);
	struct pl_name_slot *e = set_find(s, name, hash, len);
	if (e->gen == s->gen)
		return false;
	e->gen = s->gen;
	e->hash = hash;
	e->len = len;
	e->name = name;
	s->count++;
	return true;
}

static bool set_contains(const struct name_set *s, const char *name)
{
	uint32_t len, hash = name_hash(name, (unsigned char)name[0], &len);
	return set_find(s, name, hash, len)->gen == s->gen;
}

/* Every value of f gets a name of its own: the first holder of a name keeps
 * it, later holders get "name.N", unnamed values get the lowest free number.
 * Deterministic: it depends only on the function's order. */
int pl_assign_names_(pl_func *f)
{
	if (!f->names_dirty)
		return PL_OK;
	struct name_set set;
	if (!set_begin(f->m, &set, f->nargs + f->ninsts))
		return PL_ENOMEM;
	pl_value **todo = NULL;
	size_t ntodo = 0, todo_cap = 0;
	struct pl_strbuf sb = {0}; /* a candidate name, reused */
	bool oom = false;
	int rc = PL_ENOMEM;

	/* val's name is name, whose first byte is first */
#define VISIT(val, name, first)                                              \
	do {                                                                 \
		pl_value *v_ = (val);                                        \
		if ((name) && set_insert(f->m, &set, (name), (first), &oom)) \
			break;                                               \
		if (oom)                                                     \
			goto out;                                            \
		if (ntodo == todo_cap) {                                     \
			todo_cap = todo_cap ? todo_cap * 2 : 16;             \
			pl_value **t_ = realloc(todo, todo_cap * sizeof *t_); \
			if (!t_)                                             \
				goto out;                                    \
			todo = t_;                                           \
		}                                                            \
		todo[ntodo++] = v_;                                          \
	} while (0)

	for (size_t k = 0; k < f->nargs; k++) {
		const char *name = f->args[k]->v.name;
		VISIT(&f->args[k]->v, name, name ? (unsigned char)name[0] : 0);
	}
	/* On a large module nearly every instruction, its first result's name
	 * and that name's first byte miss the cache, one after the other. The
	 * next instruction's are loaded at the top of each step, ahead of the
	 * hashing, whose mispredicted branches would otherwise hold those loads
	 * back until the step is done. */
	pl_inst *i = f->first;
	uint32_t nres = i ? i->nres : 0;
	const char *name0 = nres ? pl_inst_res_(i)[0].name : NULL;
	unsigned char first0 = name0 ? (unsigned char)name0[0] : 0;
	while (i) {
		pl_inst *next = i->next;
		uint32_t next_nres = next ? next->nres : 0;
		const char *next_name0 = next_nres ? pl_inst_res_(next)[0].name : NULL;
		unsigned char next_first0 = next_name0 ? (unsigned char)next_name0[0] : 0;
		pl_value *res = pl_inst_res_(i);
		if (nres)
			VISIT(&res[0], name0, first0);
		for (uint32_t k = 1; k < nres; k++) {
			const char *name = res[k].name;
			VISIT(&res[k], name, name ? (unsigned char)name[0] : 0);
		}
		i = next;
		nres = next_nres;
		name0 = next_name0;
		first0 = next_first0;
	}
#undef VISIT

	uint64_t next_number = 0;
	/* many values may share one base: carry on from the last suffix used
	 * for it instead of trying .1, .2, ... again each time */
	const char *last_base = NULL;
	uint64_t last_n = 0;
	for (size_t t = 0; t < ntodo; t++) {
		pl_value *v = todo[t];
		char buf[64];
		const char *base = v->name;
		uint64_t n = base && last_base && strcmp(base, last_base) == 0 ? last_n + 1 : 1;
		for (;; n++) {
			sb.len = 0;
			if (base) {
				pl_sb_puts(&sb, base);
				pl_sb_putc(&sb, '.');
				size_t len = pl_fmt_u64(buf, n);
				pl_sb_put(&sb, buf, len);
			} else {
				size_t len = pl_fmt_u64(buf, next_number++);
				pl_sb_put(&sb, buf, len);
			}
			if (sb.failed)
				goto out;
			if (!set_contains(&set, sb.data))
				break;
		}
		if (base) {
			last_base = base;
			last_n = n;
		}
		char *name = pl_arena_strndup(&f->m->arena, sb.data, sb.len);
		if (!name)
			goto out;
		set_insert(f->m, &set, name, (unsigned char)name[0], &oom);
		if (oom)
			goto out;
		v->name = name;
	}
	f->names_dirty = false;
	rc = PL_OK;
out:
	pl_sb_free(&sb);
	free(todo);
	return rc;
}
