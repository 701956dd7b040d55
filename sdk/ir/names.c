/* SPDX-License-Identifier: MIT */
/* sdk/ir/names.c — the lexical classes of names, and naming of values a pass
 * created (the printer needs every value of a function to have its own
 * name). */
#include "ir/internal.h"
#include <passline/grow.h>

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

/* The names a function's values hold so far: the module's scratch set
 * (pl_module.names), emptied in O(1) for each function. */

/* The hash of the string, whose first byte the caller has loaded already
 * (short names hashed inline). */
static inline uint32_t name_hash(const char *s, unsigned char first)
{
	return first ? pl_hash_short_(s, strlen(s)) : 0;
}

static bool name_is(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return strcmp(item, probe) == 0;
}

/* Inserts name (whose first byte is first); false when it was there
 * already, or when out of memory (which *oom tells). */
static inline bool set_insert(struct pl_ht *set, const char *name, unsigned char first,
                              bool *oom)
{
	if (!pl_ht_reserve(set)) {
		*oom = true;
		return false;
	}
	uint32_t hash = name_hash(name, first);
	size_t j = pl_ht_find(set, hash, name_is, name, NULL);
	if (pl_ht_used(set, j))
		return false;
	pl_ht_put(set, j, hash, name);
	return true;
}

static bool set_contains(const struct pl_ht *set, const char *name)
{
	uint32_t hash = name_hash(name, (unsigned char)name[0]);
	return pl_ht_get(set, hash, name_is, name, NULL) != NULL;
}

/* The values that need a name, in function order, and the names they may
 * not take. */
struct naming {
	struct pl_ht *set;
	pl_value **todo;
	size_t ntodo, todo_cap;
	bool oom;
};

static bool todo_push(struct naming *nm, pl_value *v)
{
	if (!PL_GROW(nm->todo, nm->todo_cap, nm->ntodo + 1))
		return false;
	nm->todo[nm->ntodo++] = v;
	return true;
}

/* Gives each value of nm->todo, in order, the first name of its kind not
 * in nm->set: "name.N" for a value that lost its name to an earlier
 * holder, the lowest free number for an unnamed one. */
static int name_todo(pl_func *f, struct naming *nm)
{
	struct pl_strbuf sb = {0}; /* a candidate name, reused */
	int rc = PL_ENOMEM;
	uint64_t next_number = 0;
	/* many values may share one base: carry on from the last suffix used
	 * for it instead of trying .1, .2, ... again each time */
	const char *last_base = NULL;
	uint64_t last_n = 0;
	for (size_t t = 0; t < nm->ntodo; t++) {
		pl_value *v = nm->todo[t];
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
			if (!set_contains(nm->set, sb.data))
				break;
		}
		if (base) {
			last_base = base;
			last_n = n;
		}
		char *name = pl_arena_text(&f->m->text, sb.data, sb.len);
		if (!name)
			goto out;
		set_insert(nm->set, name, (unsigned char)name[0], &nm->oom);
		if (nm->oom)
			goto out;
		v->name = name;
	}
	rc = PL_OK;
out:
	pl_sb_free(&sb);
	return rc;
}

/* What changed since f's names were last unique. */
struct pl_name_change {
	const char *name;
	struct pl_name_change *next;
};

void pl_names_changed_(pl_func *f, const char *name)
{
	f->names_changed = true;
	if (!name || f->names_dirty)
		return;
	struct pl_name_change *c = pl_arena_alloc(&f->m->arena, sizeof *c);
	if (!c) { /* name them all again instead */
		f->names_dirty = true;
		return;
	}
	c->name = name;
	c->next = f->renamed;
	f->renamed = c;
}

static bool all_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Bit sets of 4096 bits, a hash of a few bytes of each name given since
 * the names were last unique: cheap tests that pass over most names. */
enum { FILTER_WORDS = 4096 / 64 };

struct filters {
	uint64_t heads[FILTER_WORDS];  /* by first two bytes, of both forms */
	uint64_t exact[FILTER_WORDS];  /* by length, first two and last byte */
	uint64_t prefix[FILTER_WORDS]; /* by first two bytes, of "name.N" */
};

static inline unsigned bit_of(uint32_t x)
{
	return (x * 2654435761u) >> 20;
}

static inline bool bit_in(const uint64_t *bits, unsigned b)
{
	return bits[b >> 6] >> (b & 63) & 1;
}

static inline void bit_add(uint64_t *bits, unsigned b)
{
	bits[b >> 6] |= (uint64_t)1 << (b & 63);
}

/* the first two bytes of a name (NUL when it has one) */
static inline uint32_t head_of(const char *name)
{
	unsigned char a = (unsigned char)name[0];
	return (uint32_t)a << 8 | (a ? (unsigned char)name[1] : 0);
}

static inline unsigned exact_key(const char *name, size_t len)
{
	return bit_of(head_of(name) ^ (uint32_t)len << 24 ^ (uint32_t)(unsigned char)name[len - 1] << 16);
}

static void filters_add(struct filters *fl, const char *name)
{
	size_t len = strlen(name);
	bit_add(fl->exact, exact_key(name, len));
	/* "name.N" begins with name's first two bytes, or with "x." for "x" */
	unsigned prefix = bit_of(len == 1 ? (uint32_t)(unsigned char)name[0] << 8 | '.'
	                                  : head_of(name));
	bit_add(fl->prefix, prefix);
	bit_add(fl->heads, prefix);
	bit_add(fl->heads, bit_of(head_of(name)));
}

/* Whether name may clash with a name given since the names were last
 * unique (in given and fl), or with what name_todo makes: a number, or
 * one of those names with ".N". Other names were unique and stay out of
 * reach. Inline in assign's walk over every value. */
static inline __attribute__((always_inline)) bool
may_clash(const struct pl_ht *given, const struct filters *fl, const char *name)
{
	unsigned char c = (unsigned char)name[0];
	if (c >= '0' && c <= '9' && all_digits(name))
		return true;
	unsigned head = bit_of(head_of(name));
	if (!bit_in(fl->heads, head))
		return false;
	size_t len = strlen(name);
	if (!len)
		return false;
	if (bit_in(fl->exact, exact_key(name, len)) && set_contains(given, name))
		return true;
	unsigned char last = (unsigned char)name[len - 1];
	if (last < '0' || last > '9' || !bit_in(fl->prefix, head))
		return false;
	const char *dot = strrchr(name, '.');
	if (!dot || dot == name || !all_digits(dot + 1))
		return false;
	char buf[256];
	size_t blen = (size_t)(dot - name);
	if (blen >= sizeof buf)
		return true; /* too long to look up: keep it, which is never wrong */
	memcpy(buf, name, blen);
	buf[blen] = '\0';
	return set_contains(given, buf);
}

/* Names the values of f. After the names were last unique, only the
 * names given since, numbers and those names with ".N" can clash, so only
 * those are entered in the set; the others are passed over unhashed. When
 * every name may clash (all), every one is entered. Either way the result
 * is what naming every value again gives. */
static int assign(pl_func *f, struct naming *nm, bool all)
{
	struct pl_ht given = {0};
	struct filters fl = {{0}, {0}, {0}};
	int rc = PL_ENOMEM;
	for (const struct pl_name_change *c = all ? NULL : f->renamed; c; c = c->next) {
		unsigned char b = (unsigned char)c->name[0];
		filters_add(&fl, c->name);
		bool oom = false;
		set_insert(&given, c->name, b, &oom);
		if (oom)
			goto out;
	}
#define VISIT(val)                                                                 \
	do {                                                                       \
		pl_value *v_ = (val);                                              \
		if (v_->name && !all && !may_clash(&given, &fl, v_->name))         \
			break;                                                     \
		if (v_->name && set_insert(nm->set, v_->name,                     \
		                           (unsigned char)v_->name[0], &nm->oom)) \
			break;                                                     \
		if (nm->oom || !todo_push(nm, v_))                                 \
			goto out;                                                  \
	} while (0)
	for (size_t k = 0; k < f->nargs; k++)
		VISIT(&f->args[k]->v);
	for (pl_inst *i = f->first; i; i = pl_inst_next_(i)) {
		pl_value *res = pl_inst_res_(i);
		for (uint32_t k = 0; k < i->nres; k++)
			VISIT(&res[k]);
	}
#undef VISIT
	rc = name_todo(f, nm);
out:
	pl_ht_free(&given);
	return rc;
}

/* Every value of f gets a name of its own: the first holder of a name keeps
 * it, later holders get "name.N", unnamed values get the lowest free number.
 * Deterministic: it depends only on the function's order. */
int pl_assign_names_(pl_func *f)
{
	if (!f->names_dirty && !f->names_changed)
		return PL_OK;
	struct naming nm = {.set = &f->m->names};
	pl_ht_clear(nm.set);
	int rc = assign(f, &nm, f->names_dirty);
	if (rc == PL_OK) {
		f->names_dirty = f->names_changed = false;
		f->renamed = NULL;
	}
	free(nm.todo);
	return rc;
}

int pl_module_name_values(pl_module *m)
{
	for (size_t k = 0; k < m->nfuncs; k++) {
		int rc = pl_assign_names_(m->funcs[k]);
		if (rc)
			return rc;
	}
	return PL_OK;
}
