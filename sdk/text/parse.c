/* SPDX-License-Identifier: MIT */
/* sdk/text/parse.c — the .pir reader: one recursive-descent function per rule
 * of the grammar (passline-pir(5)), over the tokens of lex.c.
 *
 *   module := { func }
 *   func   := "func" GLOBAL "(" [ arg { "," arg } ] ")" [ "attributes" attrs ]
 *             "{" { inst } "}"
 *   arg    := LOCAL ":" type
 *   inst   := [ LOCAL { "," LOCAL } "=" ] OPNAME [ LOCAL { "," LOCAL } ] [ attrs ]
 *             [ ":" types ]
 *   types  := type | "(" [ type { "," type } ] ")"
 *   type   := DTYPE "[" [ INT { "," INT } ] "]"
 *   attrs  := "{" [ KEY "=" attr { "," KEY "=" attr } ] "}"
 *   attr   := INT | FLOAT | STRING | "true" | "false" | "[" [ attr { "," attr } ] "]"
 *
 * One token of lookahead, and one list of it: a list of values followed by
 * "=" always begins the next instruction, so an operand list that turns
 * out to be one is handed to the next instruction as its results. Uses
 * must follow definitions, so operands are resolved as they are read
 * (but by a reader of the rest of a function, whose beginning another
 * reads: see parse.h). The first error stops the parse and the half-built
 * module is freed: the input is accepted whole or not at all.
 *
 * What repeats is shared by its contents once it is read, never looked up
 * by its text: types, strings, lists and op names are interned in the
 * module (a type or list equal to one read lately without asking it); a
 * dictionary equal to one read lately shares its entries (copy on write),
 * and so does a value name. A type's extents and a list of integers, when
 * written the usual way, are read without a token each (plain_ints).
 */
#include "text/lex.h" /* first: config.h, before any system header */
#include "text/parse.h"
#include <passline/grow.h>

#include <stdio.h>
#include <stdlib.h>

/* A LOCAL as written, before we know what its list is, with the hash of
 * its name (pl_hash_short_), which the table of values is probed with
 * (a word's ref has no hash). */
struct ref {
	const char *s;
	size_t len;
	uint32_t line, col;
	uint32_t hash;
};

/* A growable array of the parser's scratch. */
#define VEC(T) { T *v; size_t n, cap; }

struct refs VEC(struct ref);

enum { RECENT_SLOTS = 4096, RECENT_TYPES = 1024, RECENT_LISTS = 1024 }; /* read lately */
/* a value table of this many slots (512 KiB) or more is prefetched from */
enum { PREFETCH_MIN_SLOTS = 1 << 16 };

/* A string or boxed scalar of the attributes being read, entered in the
 * module's set only when its list or dictionary has been read (settle):
 * its slot is asked for as it is read, so that in a large module, where
 * the sets are far bigger than the caches, the slots of one instruction's
 * values are fetched together rather than one after the other. */
struct deferred {
	const char *text;   /* a string's bytes, in the text; NULL: bits */
	uint64_t bits;      /* a scalar's 8 bytes */
	uint32_t len, hash;
	size_t at;          /* its index in elems (in_list) or entries */
	bool in_list;
};

struct parser {
	struct pl_lexer lx;
	pl_module *m;
	struct pl_parse_job *job;
	bool in_cont;        /* reading job->cont, whose beginning is elsewhere */
	struct pl_ht holes;  /* its values used before any definition, by name */
	struct refs refs;    /* the last list of values read */
	struct refs results; /* the results of the instruction being read */
	bool have_results;
	struct VEC(pl_value *) operands;
	struct VEC(const pl_type *) types;
	struct VEC(struct pl_attr_entry) entries;
	struct refs entry_at; /* where each entry's key was written */
	struct VEC(pl_attr) elems;
	struct VEC(struct deferred) deferred;
	unsigned depth;
	struct pl_ht values; /* the current function's values, by name */
	struct pl_ht dtypes; /* dtype names by text -> pl_dtype */
	struct recent_dict {
		struct pl_attr_entry *v;
		uint16_t n;
		uint32_t hash;
	} dicts[RECENT_SLOTS];
	struct recent_name {
		const char *name;
		size_t len;
	} names[RECENT_SLOTS];
	const pl_type *types_read[RECENT_TYPES];
	struct recent_list {
		const pl_attr *list; /* interned */
		uint32_t hash;
	} lists[RECENT_LISTS];
};

#define TOK (p->lx.tok)
#define next(p) pl_lex_next_(&(p)->lx)
#define expected(p, what) pl_lex_expected_(&(p)->lx, (what))
#define error_at(p, line, col, ...) pl_lex_error_(&(p)->lx, (line), (col), __VA_ARGS__)

static void *nn(struct parser *p, const void *ptr)
{
	if (!ptr)
		pl_lex_fail_(&p->lx, PL_ENOMEM);
	return (void *)(uintptr_t)ptr;
}

static __attribute__((noinline)) void *grow_slow(struct parser *p, void *v, size_t n,
                                                 size_t *cap, size_t elem)
{
	if (!pl_grow_(&v, cap, n + 1, elem))
		pl_lex_fail_(&p->lx, PL_ENOMEM);
	return v;
}

/* Room in v (of n elements, *cap allocated) for one more of elem bytes. */
static inline void *grow(struct parser *p, void *v, size_t n, size_t *cap, size_t elem)
{
	return n < *cap ? v : grow_slow(p, v, n, cap, elem);
}

#define PUSH(p, vec, x) \
	((vec).v = grow((p), (vec).v, (vec).n, &(vec).cap, sizeof *(vec).v), (vec).v[(vec).n++] = (x))

static void expect(struct parser *p, enum pl_tok kind, const char *what)
{
	if (TOK.kind != kind)
		expected(p, what);
	next(p);
}

/* After an element of a list that close ends: true when a ',' says
 * another follows, which must not be close (what names the element). */
static bool another(struct parser *p, enum pl_tok close, const char *what)
{
	if (TOK.kind != PL_T_COMMA)
		return false;
	next(p);
	if (TOK.kind == close)
		expected(p, what);
	return true;
}

static __attribute__((noinline)) void grow_table(struct parser *p, struct pl_ht *t)
{
	if (!pl_ht_reserve(t))
		pl_lex_fail_(&p->lx, PL_ENOMEM);
}

/* pl_ht_reserve's test inline: a table grows rarely */
static inline void reserve(struct parser *p, struct pl_ht *t)
{
	if ((t->count + 1) * 4 > t->cap * 3)
		grow_table(p, t);
}

static bool is_word(const struct parser *p, const char *w)
{
	return pl_lex_is_word_(&p->lx, w, strlen(w));
}

/* The word at the end of the text, which the end may have cut short
 * (full, or any word when full is NULL, began with it), is the end: an
 * error there says the file ends. */
static void cut_short(struct parser *p, const char *full)
{
	if (TOK.kind == PL_T_IDENT && TOK.s + TOK.len == p->lx.end &&
	    (!full || (TOK.len < strlen(full) && !memcmp(TOK.s, full, TOK.len))))
		TOK.kind = PL_T_EOF;
}

/* c (NUL-terminated, no NUL inside) is r's text */
static bool same_text(const char *c, const struct ref *r)
{
	size_t k = 0;
	while (k < r->len && c[k] == r->s[k]) /* stops at c's NUL too */
		k++;
	return k == r->len && c[k] == '\0';
}

/* ---- values by name ---- */

/* the LOCAL token as a ref */
static struct ref local_ref(const struct parser *p)
{
	return (struct ref){TOK.s, TOK.len, TOK.line, TOK.col, pl_hash_short_(TOK.s, TOK.len)};
}

static bool value_named(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return same_text(((const pl_value *)item)->name, probe);
}

/* The text of r as a value name: a name read lately with the same text
 * is shared (names are never written in place). */
static const char *value_name(struct parser *p, const struct ref *r, uint32_t hash)
{
	struct recent_name *rn = &p->names[hash % RECENT_SLOTS];
	if (!rn->name || rn->len != r->len || memcmp(rn->name, r->s, r->len) != 0) {
		rn->name = nn(p, pl_arena_text(&p->m->text, r->s, r->len));
		rn->len = r->len;
	}
	return rn->name;
}

/* Names v after r and enters it; a second definition is an error. */
static void define_value(struct parser *p, pl_value *v, const struct ref *r)
{
	uint32_t hash = r->hash;
	reserve(p, &p->values);
	size_t j = pl_ht_find(&p->values, hash, value_named, r, NULL);
	if (pl_ht_used(&p->values, j))
		error_at(p, r->line, r->col, "redefinition of value '%%%.*s'",
		         (int)(r->len > 64 ? 64 : r->len), r->s);
	v->name = value_name(p, r, hash);
	pl_ht_put(&p->values, j, hash, v);
}

/* Asks the processor for the slots of the first n names of r (where a
 * result will go, where an operand is) before they are needed: in a large
 * function the table is far bigger than the caches, and the other names
 * and tokens of the instruction are read meanwhile. Always inlined, as
 * pl_ht_prefetch is: a call of it would be dropped. */
static inline __attribute__((always_inline)) void prefetch_slots(const struct parser *p, const struct refs *r, size_t n)
{
	if (p->values.cap < PREFETCH_MIN_SLOTS) /* it fits a cache */
		return;
	for (size_t k = 0; k < n; k++)
		pl_ht_prefetch(&p->values, r->v[k].hash);
}

/* A value that the rest of a function uses before any definition, when
 * the reader began inside it: one hole per name. */
static pl_value *hole(struct parser *p, const struct ref *r, uint32_t hash)
{
	reserve(p, &p->holes);
	size_t j = pl_ht_find(&p->holes, hash, value_named, r, NULL);
	if (!pl_ht_used(&p->holes, j)) {
		/* in the region: uses name it by offset */
		pl_value *v = nn(p, pl_arena_alloc(&p->m->insts, sizeof *v));
		memset(v, 0, sizeof *v);
		v->name = value_name(p, r, hash);
		pl_ht_put(&p->holes, j, hash, v);
	}
	return (pl_value *)(uintptr_t)pl_ht_item_(&p->holes, j);
}

static pl_value *use_value(struct parser *p, const struct ref *r)
{
	uint32_t hash = r->hash;
	const pl_value *v = pl_ht_get(&p->values, hash, value_named, r, NULL);
	if (!v && p->in_cont)
		v = hole(p, r, hash);
	if (!v && TOK.kind == PL_T_EOF) /* a name the cut text may have cut short */
		error_at(p, TOK.line, TOK.col, "expected the rest of the instruction");
	if (!v)
		error_at(p, r->line, r->col, "use of undefined value '%%%.*s'",
		         (int)(r->len > 64 ? 64 : r->len), r->s);
	return (pl_value *)(uintptr_t)v;
}

/* LOCAL { "," LOCAL } into p->refs */
static void parse_values(struct parser *p)
{
	p->refs.n = 0;
	for (;;) {
		struct ref r = local_ref(p);
		PUSH(p, p->refs, r);
		next(p);
		if (TOK.kind != PL_T_COMMA)
			return;
		next(p);
		if (TOK.kind != PL_T_LOCAL)
			expected(p, "a value after ','");
	}
}

/* The list just read becomes the results of the next instruction. */
static void refs_to_results(struct parser *p)
{
	struct ref *v = p->results.v;
	size_t cap = p->results.cap;
	p->results = p->refs;
	p->refs.v = v;
	p->refs.cap = cap;
	p->refs.n = 0;
	p->have_results = true;
}

/* ---- words ---- */

static bool word_is(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return same_text(item, probe);
}

/* The current word, which is not in nums (the module's op names or
 * keys) yet, when valid says it may be one: checked, interned and
 * numbered. */
static __attribute__((noinline)) uint32_t new_word(struct parser *p, const char *what,
                                                   bool (*valid)(const char *, size_t),
                                                   struct pl_numbered *nums,
                                                   const char *names)
{
	if (!valid(TOK.s, TOK.len))
		expected(p, what);
	uint32_t id = nums == &p->m->ops ? pl_op_number_text_(p->m, TOK.s, TOK.len)
	                                 : pl_number_(nums, nn(p, pl_intern_str_(p->m, TOK.s, TOK.len)));
	if (!id && nums->n == nums->max)
		error_at(p, TOK.line, TOK.col, "more than %u distinct %s", nums->max, names);
	if (!id)
		pl_lex_fail_(&p->lx, PL_ENOMEM);
	return id;
}

/* The number of the current word in nums, found by its text. */
static inline uint32_t number_word(struct parser *p, const char *what,
                                   bool (*valid)(const char *, size_t),
                                   struct pl_numbered *nums, const char *names)
{
	if (TOK.kind != PL_T_IDENT)
		expected(p, what);
	uint32_t id = pl_number_find_(nums, TOK.s, TOK.len, pl_hash_short_(TOK.s, TOK.len));
	return id ? id : new_word(p, what, valid, nums, names);
}

/* ---- types ---- */

/* "[" [ INT { "," INT } "]" at q as it is mostly written: no blank but
 * one after each ',', no comment, INTs of at most 18 digits, at most max
 * of them; read in one go into v and *n. The end of it, or NULL when it
 * is written otherwise: then the tokens read it, from q. */
static const char *plain_ints(const char *q, const char *end, int64_t *v, size_t max,
                              size_t *n)
{
	size_t k = 0;
	if (q == end || *q++ != '[')
		return NULL;
	if (q < end && *q == ']') {
		*n = 0;
		return q + 1;
	}
	for (;;) {
		const char *d = q;
		uint64_t x = 0;
		for (; q < end && (unsigned char)(*q - '0') < 10; q++)
			x = x * 10 + (uint64_t)(*q - '0');
		if (q == d || q - d > 18 || k == max || q == end)
			return NULL;
		v[k++] = (int64_t)x;
		if (*q == ']') {
			*n = k;
			return q + 1;
		}
		if (*q != ',')
			return NULL;
		q += 1 + (q + 1 < end && q[1] == ' ');
	}
}

/* The interned type: one read lately with the same dtype and extents is
 * shared without asking the module. */
static const pl_type *get_type(struct parser *p, pl_dtype dtype, const int64_t *dims,
                               size_t rank)
{
	uint64_t h = (uint64_t)dtype << 32 | rank;
	for (size_t k = 0; k < rank; k++)
		h = (h ^ (uint64_t)dims[k]) * 0x9e3779b97f4a7c15u;
	const pl_type **slot = &p->types_read[(h >> 40) % RECENT_TYPES];
	const pl_type *t = *slot;
	bool same = t && t->dtype == (uint32_t)dtype && t->rank == rank;
	for (size_t k = 0; same && k < rank; k++)
		same = t->dims[k] == dims[k];
	if (!same)
		*slot = t = nn(p, pl_type_get(p->m, dtype, dims, rank));
	return t;
}

/* DTYPE "[" [ INT { "," INT } ] "]" */
static const pl_type *parse_type(struct parser *p)
{
	if (TOK.kind != PL_T_IDENT)
		expected(p, "a type");
	/* looked up once per distinct word */
	struct ref r = {TOK.s, TOK.len, 0, 0, 0};
	uint32_t hash = pl_hash_short_(r.s, r.len);
	reserve(p, &p->dtypes);
	size_t j = pl_ht_find(&p->dtypes, hash, word_is, &r, NULL);
	if (!pl_ht_used(&p->dtypes, j)) {
		pl_dtype dt = pl_dtype_from_name(r.s, r.len);
		if (dt == PL_DTYPE_INVALID) {
			cut_short(p, NULL);
			if (TOK.kind == PL_T_EOF)
				expected(p, "a type");
			char buf[64];
			error_at(p, TOK.line, TOK.col, "unknown dtype %s",
			         pl_lex_describe_(&TOK, buf, sizeof buf));
		}
		pl_ht_put(&p->dtypes, j, hash, pl_dtype_name(dt));
		p->dtypes.vals[j] = (void *)(uintptr_t)dt;
	}
	pl_dtype dtype = (pl_dtype)(uintptr_t)p->dtypes.vals[j];
	int64_t dims[PL_MAX_RANK];
	size_t rank = 0;
	const char *q = plain_ints(p->lx.p, p->lx.end, dims, PL_MAX_RANK, &rank);
	if (q) {
		p->lx.p = q;
		next(p);
		return get_type(p, dtype, dims, rank);
	}
	pl_lex_open_(&p->lx, "type", TOK.line, TOK.col);
	next(p);
	expect(p, PL_T_LBRACKET, "'[' after the dtype");
	if (TOK.kind != PL_T_RBRACKET) {
		do {
			if (TOK.kind != PL_T_INT)
				expected(p, "an integer extent");
			if (TOK.i < 0)
				error_at(p, TOK.line, TOK.col, "negative extent %" PRId64 " in type", TOK.i);
			if (rank == PL_MAX_RANK)
				error_at(p, TOK.line, TOK.col, "type has more than %d dimensions",
				         PL_MAX_RANK);
			dims[rank++] = TOK.i;
			next(p);
		} while (another(p, PL_T_RBRACKET, "an integer extent"));
	}
	expect(p, PL_T_RBRACKET, "',' or ']' in type");
	pl_lex_close_(&p->lx);
	return get_type(p, dtype, dims, rank);
}

/* [ ":" types ], which must be nres types, into p->types */
static void parse_result_types(struct parser *p, size_t nres)
{
	p->types.n = 0;
	uint32_t line = TOK.line, col = TOK.col;
	bool has_colon = TOK.kind == PL_T_COLON;
	if (has_colon) {
		next(p);
		if (TOK.kind == PL_T_LPAREN) {
			pl_lex_open_(&p->lx, "result type list", TOK.line, TOK.col);
			next(p);
			if (TOK.kind != PL_T_RPAREN)
				do
					PUSH(p, p->types, parse_type(p));
				while (another(p, PL_T_RPAREN, "a type"));
			expect(p, PL_T_RPAREN, "',' or ')' in the result types");
			pl_lex_close_(&p->lx);
		} else {
			PUSH(p, p->types, parse_type(p));
		}
	}
	if (nres == 0 && has_colon)
		error_at(p, line, col, "instruction without results has result types");
	if (nres && !has_colon)
		error_at(p, TOK.line, TOK.col, "expected ':' and %zu result type%s", nres,
		         nres == 1 ? "" : "s");
	if (nres != p->types.n)
		error_at(p, line, col, "%zu result%s but %zu type%s", nres, nres == 1 ? "" : "s",
		         p->types.n, p->types.n == 1 ? "" : "s");
}

/* ---- attributes ---- */

static void parse_attr(struct parser *p, pl_attr *out, bool in_list, size_t at);

/* A value or an entry whole: what it names is interned, and it has no
 * padding, so equal words mean equal values */
static uint64_t attr_word(const pl_attr *a)
{
	uint64_t w;
	memcpy(&w, a, sizeof w);
	return w;
}

/* The value of kind INT or FLOAT with the bits at x, boxed if it must be */
static pl_attr scalar(struct parser *p, pl_attr_kind kind, const void *x)
{
	pl_attr a;
	if (!pl_attr_scalar_(p->m, kind, x, &a))
		pl_lex_fail_(&p->lx, PL_ENOMEM);
	return a;
}

/* The value of kind STRING (text) or of a boxed INT or FLOAT (bits),
 * without its blob yet: that is settled with its list or dictionary,
 * as element or entry at. */
static pl_attr defer(struct parser *p, pl_attr_kind kind, const char *text, size_t len,
                     const void *bits, bool in_list, size_t at)
{
	struct deferred d = {.text = text, .len = (uint32_t)len, .at = at, .in_list = in_list};
	struct pl_ht *set = text ? &p->m->strings : &p->m->scalars;
	if (!text) {
		memcpy(&d.bits, bits, sizeof d.bits);
		len = sizeof d.bits;
	}
	d.hash = pl_intern_hash_(text ? (const void *)text : &d.bits, len);
	pl_ht_prefetch(set, d.hash);
	PUSH(p, p->deferred, d);
	return (pl_attr){.kind = (uint8_t)kind, .boxed = kind == PL_ATTR_INT};
}

/* Interns the values deferred since from, into v (elems or entries). */
static void settle(struct parser *p, size_t from, pl_attr *elems, struct pl_attr_entry *entries)
{
	for (size_t k = from; k < p->deferred.n; k++) {
		struct deferred *d = &p->deferred.v[k];
		const void *blob =
		        d->text ? pl_intern_blob_hashed_(p->m, &p->m->strings, d->text, d->len, d->hash)
		                : pl_intern_blob_hashed_(p->m, &p->m->scalars, &d->bits,
		                                         sizeof d->bits, d->hash);
		pl_attr *a = d->in_list ? &elems[d->at] : &entries[d->at].val;
		a->v = pl_region_off_(nn(p, blob));
	}
	p->deferred.n = from;
}

/* The list of the n elements at v, interned: one read lately with equal
 * elements is shared without asking the module. */
static pl_attr list_of(struct parser *p, const pl_attr *v, size_t n)
{
	uint64_t h = n;
	for (size_t k = 0; k < n; k++)
		h = (h ^ attr_word(&v[k])) * 0x9e3779b97f4a7c15u;
	struct recent_list *r = &p->lists[(h >> 40) % RECENT_LISTS];
	bool same = r->list && r->hash == (uint32_t)h && pl_attr_len_(r->list) == n &&
	            (!n || memcmp(pl_attr_elems_(r->list), v, n * sizeof *v) == 0);
	if (!same) {
		r->list = nn(p, pl_attr_intern_list_(p->m, n ? v : NULL, n));
		r->hash = (uint32_t)h;
	}
	return *r->list;
}

/* "[" [ attr { "," attr } ] "]" */
static void parse_list(struct parser *p, pl_attr *out)
{
	if (++p->depth > PL_MAX_NESTING)
		error_at(p, TOK.line, TOK.col, "attribute values nested deeper than %d",
		         PL_MAX_NESTING);
	size_t base = p->elems.n, n, deferred = p->deferred.n;
	int64_t ints[64];
	pl_lex_open_(&p->lx, "list", TOK.line, TOK.col);
	const char *q = plain_ints(TOK.s, p->lx.end, ints, 64, &n);
	if (q) { /* integers, as mostly written: in one go */
		for (size_t k = 0; k < n; k++)
			PUSH(p, p->elems, scalar(p, PL_ATTR_INT, &ints[k]));
		p->lx.p = q;
		next(p);
	} else {
		next(p);
		while (TOK.kind != PL_T_RBRACKET) {
			pl_attr v;
			parse_attr(p, &v, true, p->elems.n);
			PUSH(p, p->elems, v);
			if (!another(p, PL_T_RBRACKET, "an attribute value"))
				break;
		}
		expect(p, PL_T_RBRACKET, "',' or ']' in list");
	}
	n = p->elems.n - base;
	settle(p, deferred, p->elems.v, NULL);
	*out = list_of(p, n ? p->elems.v + base : NULL, n); /* no array before the first list */
	p->elems.n = base;
	p->depth--;
	pl_lex_close_(&p->lx);
}

/* An attribute value, to be element or entry at of its list or
 * dictionary (in_list tells which). */
static void parse_attr(struct parser *p, pl_attr *out, bool in_list, size_t at)
{
	switch (TOK.kind) {
	case PL_T_INT:
		if (TOK.i >= INT32_MIN && TOK.i <= INT32_MAX)
			*out = scalar(p, PL_ATTR_INT, &TOK.i); /* in place */
		else
			*out = defer(p, PL_ATTR_INT, NULL, 0, &TOK.i, in_list, at);
		break;
	case PL_T_FLOAT:
		*out = defer(p, PL_ATTR_FLOAT, NULL, 0, &TOK.f, in_list, at);
		break;
	case PL_T_STRING:
		/* one decoded from escapes lives only until the next string */
		if (TOK.s == p->lx.str.data)
			*out = (pl_attr){.kind = PL_ATTR_STRING,
			                 .v = pl_region_off_(nn(p, pl_intern_str_(p->m, TOK.s, TOK.len)))};
		else
			*out = defer(p, PL_ATTR_STRING, TOK.s, TOK.len, NULL, in_list, at);
		break;
	case PL_T_LBRACKET:
		parse_list(p, out);
		return;
	case PL_T_IDENT:
		if (is_word(p, "true") || is_word(p, "false")) {
			*out = (pl_attr){.kind = PL_ATTR_BOOL, .v = TOK.s[0] == 't'};
			break;
		}
		/* fall through */
	default:
		cut_short(p, TOK.len && TOK.s[0] == 't' ? "true" : "false");
		expected(p, "an attribute value");
	}
	next(p);
}

/* A key's number and where its entry is, for finding repeats. */
struct key_at {
	uint32_t key;
	size_t index;
};

static int cmp_key_at(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Reports the first key, in text order, that repeats an earlier one; for
 * many keys, by sorting (key, index) pairs. */
static void check_repeats(struct parser *p)
{
	size_t n = p->entries.n;
	struct key_at *keys = nn(p, malloc(n * sizeof *keys));
	for (size_t k = 0; k < n; k++)
		keys[k] = (struct key_at){p->entries.v[k].val.key, k};
	qsort(keys, n, sizeof *keys, cmp_key_at);
	size_t first = SIZE_MAX;
	for (size_t k = 1; k < n; k++)
		if (keys[k].key == keys[k - 1].key && keys[k].index < first &&
		    (k < 2 || keys[k - 2].key != keys[k].key))
			first = keys[k].index; /* the second occurrence of its key */
	free(keys);
	if (first != SIZE_MAX)
		error_at(p, p->entry_at.v[first].line, p->entry_at.v[first].col,
		         "duplicate attribute '%s'", pl_key_name_(p->m, p->entries.v[first].val.key));
}

/* The entries just read, as d's: shared with an equal dictionary read
 * lately (both then copy on write), else a copy of their own. */
static void keep_dict(struct parser *p, pl_attrs *d)
{
	const struct pl_attr_entry *v = p->entries.v;
	uint16_t n = (uint16_t)p->entries.n;
	uint64_t h = n;
	for (uint16_t k = 0; k < n; k++)
		h = (h ^ attr_word(&v[k].val)) * 0x9e3779b97f4a7c15u;
	uint32_t hash = (uint32_t)(h >> 32);
	struct recent_dict *r = &p->dicts[hash % RECENT_SLOTS];
	bool same = r->v && r->n == n && r->hash == hash && memcmp(r->v, v, n * sizeof *v) == 0;
	if (!same) {
		r->v = nn(p, pl_arena_alloc(&p->m->insts, n * sizeof *v));
		memcpy(r->v, v, n * sizeof *v);
		r->n = n;
		r->hash = hash;
	}
	d->off = pl_region_off_(r->v);
	d->n = n;
	d->cap = 0; /* shared: copy on write */
	d->fresh = !same && p->job->rest;
	if (!same && !p->job->rest)
		pl_count_note_(p->m, d); /* the rest's: in the splice */
}

/* "{" [ KEY "=" attr { "," KEY "=" attr } ] "}" into d */
static void parse_attrs(struct parser *p, pl_attrs *d)
{
	pl_lex_open_(&p->lx, "attribute list", TOK.line, TOK.col);
	next(p);
	p->entries.n = p->entry_at.n = p->deferred.n = 0;
	while (TOK.kind != PL_T_RBRACE) {
		uint32_t key = number_word(p, "an attribute name", pl_is_key_,
		                           &p->m->keys, "attribute names");
		const char *name = pl_key_name_(p->m, key);
		struct ref at = {name, 0, TOK.line, TOK.col, 0};
		/* keys are numbered: a repeat is a repeated number */
		for (size_t k = 0; p->entries.n < 64 && k < p->entries.n; k++)
			if (p->entries.v[k].val.key == key) {
				cut_short(p, NULL); /* "{neg = 1, n": a key cut short */
				if (TOK.kind == PL_T_EOF)
					expected(p, "'=' after the attribute name");
				error_at(p, at.line, at.col, "duplicate attribute '%s'", name);
			}
		if (!pl_lex_skip_(&p->lx, '=')) {
			next(p);
			if (TOK.kind != PL_T_EQUAL)
				expected(p, "'=' after the attribute name");
		}
		next(p);
		if (p->entries.n == UINT16_MAX)
			error_at(p, at.line, at.col, "more than %u attributes", UINT16_MAX);
		struct pl_attr_entry e;
		parse_attr(p, &e.val, false, p->entries.n);
		e.val.key = key;
		PUSH(p, p->entries, e);
		PUSH(p, p->entry_at, at);
		if (!another(p, PL_T_RBRACE, "an attribute name"))
			break;
	}
	expect(p, PL_T_RBRACE, "',' or '}' in attributes");
	pl_lex_close_(&p->lx);
	settle(p, 0, NULL, p->entries.v);
	if (p->entries.n > 64)
		check_repeats(p);
	if (p->entries.n)
		keep_dict(p, d);
}

/* ---- instructions and functions ---- */

/* OPNAME: its number in the module's op names */
static uint32_t parse_opname(struct parser *p)
{
	uint32_t op = (uint32_t)number_word(p, "an op name", pl_is_opname_,
	                                    &p->m->ops, "op names");
	next(p);
	return op;
}

static void parse_inst(struct parser *p, pl_func *f)
{
	uint32_t line = TOK.line, col = TOK.col;
	if (p->have_results) {
		line = p->results.v[0].line;
		col = p->results.v[0].col;
	}
	pl_lex_open_(&p->lx, "instruction", line, col);
	if (!p->have_results && TOK.kind == PL_T_LOCAL) {
		parse_values(p);
		if (TOK.kind != PL_T_EQUAL)
			expected(p, "'=' after the results");
		next(p);
		refs_to_results(p);
	}
	size_t nres = p->have_results ? p->results.n : 0;
	p->have_results = false;
	prefetch_slots(p, &p->results, nres);
	uint32_t op = parse_opname(p);

	p->operands.n = 0;
	if (TOK.kind == PL_T_LOCAL) {
		parse_values(p);
		if (TOK.kind == PL_T_EQUAL) { /* the next instruction's results */
			if (nres)
				error_at(p, p->refs.v[0].line, p->refs.v[0].col,
				         "expected ':' and %zu result type%s before the next instruction",
				         nres, nres == 1 ? "" : "s");
			next(p);
			refs_to_results(p);
		} else {
			prefetch_slots(p, &p->refs, p->refs.n);
			for (size_t k = 0; k < p->refs.n; k++)
				PUSH(p, p->operands, use_value(p, &p->refs.v[k]));
		}
	}
	size_t nops = p->operands.n;
	pl_inst *inst = nn(p, pl_inst_alloc_(f, op, nops, nres));
	inst->line = line;
	inst->col = col;
	pl_use *uses = pl_inst_ops_(inst);
	for (size_t k = 0; k < nops; k++)
		pl_use_set_(&uses[k], p->operands.v[k]);
	if (!p->have_results) {
		if (TOK.kind == PL_T_LBRACE)
			parse_attrs(p, &inst->attrs);
		parse_result_types(p, nres);
	}
	/* defined after the operands were resolved: "%a = op %a" is a use
	 * before definition */
	pl_value *res = pl_inst_res_(inst);
	for (size_t k = 0; k < nres; k++) {
		res[k].type = p->types.v[k];
		define_value(p, &res[k], &p->results.v[k]);
	}
	pl_func_append(f, inst);
	pl_lex_close_(&p->lx);
}

/* GLOBAL, a function of its own */
static pl_func *new_func(struct parser *p)
{
	struct ref r = {TOK.s, TOK.len, TOK.line, TOK.col, 0};
	if (pl_module_find_func_(p->m, r.s, r.len))
		error_at(p, r.line, r.col, "redefinition of function '@%.*s'",
		         (int)(r.len > 64 ? 64 : r.len), r.s);
	pl_func *f = nn(p, pl_func_new_unchecked_(p->m, r.s, r.len));
	next(p);
	return f;
}

/* Whether the instruction about to be read begins where the job stops,
 * and the rest of the module was put in place from there. */
static bool rest_taken(struct parser *p, pl_func *f)
{
	const struct ref *r = p->have_results ? &p->results.v[0] : NULL;
	const char *at = r ? r->s - 1 : TOK.kind == PL_T_LOCAL ? TOK.s - 1 : TOK.s;
	if (at != p->job->stop_at)
		return false;
	p->job->stop_at = NULL; /* offered once */
	int rc = p->job->take_rest(p->job->take_ud, f, &p->values, r ? r->line : TOK.line);
	if (rc < 0)
		pl_lex_fail_(&p->lx, rc);
	return rc > 0;
}

/* { inst } "}" */
static void parse_body(struct parser *p, pl_func *f)
{
	f->names_dirty = true; /* until the end: linking need not note names */
	bool taken = false;
	while (p->have_results || TOK.kind != PL_T_RBRACE) {
		if (TOK.kind == PL_T_EOF && !p->have_results)
			expected(p, "an instruction or '}'");
		if (p->job->stop_at && (taken = rest_taken(p, f)))
			break;
		if (p->job->release)
			p->job->release(p->job->release_ud, TOK.s);
		parse_inst(p, f);
	}
	if (taken) { /* nothing left to read */
		p->have_results = false;
		TOK.kind = PL_T_EOF;
	} else {
		next(p);
	}
	f->names_dirty = f->names_changed = false; /* the reader checked */
	f->renamed = NULL;
}

static void parse_func(struct parser *p)
{
	if (!is_word(p, "func")) {
		cut_short(p, "func");
		expected(p, "'func'");
	}
	uint32_t line = TOK.line, col = TOK.col;
	pl_lex_open_(&p->lx, "function", line, col);
	next(p);
	if (TOK.kind != PL_T_GLOBAL)
		expected(p, "a function name '@...'");
	pl_func *f = new_func(p);
	f->line = line;
	f->col = col;
	pl_ht_clear(&p->values);
	uint32_t pl = TOK.line, pc = TOK.col;
	expect(p, PL_T_LPAREN, "'(' after the function name");
	pl_lex_open_(&p->lx, "argument list", pl, pc);
	while (TOK.kind != PL_T_RPAREN) {
		if (TOK.kind != PL_T_LOCAL)
			expected(p, "an argument '%...'");
		struct ref r = local_ref(p);
		next(p);
		expect(p, PL_T_COLON, "':' after the argument");
		pl_value *v = nn(p, pl_func_add_arg(f, NULL, parse_type(p)));
		define_value(p, v, &r);
		if (!another(p, PL_T_RPAREN, "an argument '%...'"))
			break;
	}
	expect(p, PL_T_RPAREN, "',' or ')' after the arguments");
	pl_lex_close_(&p->lx);
	if (is_word(p, "attributes")) {
		next(p);
		if (TOK.kind != PL_T_LBRACE)
			expected(p, "'{' after 'attributes'");
		parse_attrs(p, &f->attrs);
	}
	cut_short(p, "attributes");
	uint32_t bl = TOK.line, bc = TOK.col;
	expect(p, PL_T_LBRACE, "'{' to open the function body");
	pl_lex_close_(&p->lx); /* the function, whose body is open instead */
	pl_lex_open_(&p->lx, "function body", bl, bc);
	parse_body(p, f);
	pl_lex_close_(&p->lx);
}

/* The tables of values by name, far bigger in a large function than
 * anything else the reader frees, hold the values as offsets in m's
 * region, take their slots from it and give those they outgrow to m's
 * instruction arena (pl_arena_give); the last go back when freed. */
static void give_tables_to(struct parser *p, pl_module *m)
{
	struct pl_ht *tables[] = {&p->values, &p->holes};
	for (size_t k = 0; k < sizeof tables / sizeof *tables; k++) {
		tables[k]->give_back = pl_arena_give;
		tables[k]->give_back_to = &m->insts;
		tables[k]->take = pl_arena_take_table;
		tables[k]->release = pl_arena_release_table;
		tables[k]->base = (const char *)m->insts.region; /* at its span's start */
	}
}

int pl_parse_job_(struct pl_parse_job *job, pl_module **out)
{
	*out = NULL;
	if (job->len > UINT32_MAX) {
		pl_diags_add(job->diags, PL_SEV_ERROR, job->source_name, 0, 0,
		             "input larger than 4 GiB is not supported");
		return PL_ELIMIT;
	}
	struct parser *p = calloc(1, sizeof *p);
	if (!p)
		return PL_ENOMEM;
	pl_lex_init_(&p->lx, job->text, job->len, job->source_name, job->diags);
	p->job = job;
	p->dtypes.map = true;
	p->m = job->region ? pl_module_new_in_(job->source_name, job->region)
	                   : pl_module_new(job->source_name);
	/* held until the tables, whose slots lie in it, are freed below */
	struct pl_region *region = p->m ? p->m->insts.region : NULL;
	if (region)
		pl_region_hold(region);
	int rc = PL_OK;
	if (!p->m) {
		rc = PL_ENOMEM;
	} else if (setjmp(p->lx.fail)) {
		rc = p->lx.status;
		if (rc == PL_ENOMEM)
			pl_diags_add(job->diags, PL_SEV_ERROR, job->source_name, 0, 0, "out of memory");
		pl_module_free(p->m);
	} else {
		give_tables_to(p, p->m);
		next(p);
		if (job->rest) {
			job->cont = nn(p, pl_func_new_unchecked_(p->m, "", 0));
			p->in_cont = true;
			parse_body(p, job->cont);
			p->in_cont = false;
			job->cont_values = p->values;
			p->values = (struct pl_ht){0};
			give_tables_to(p, p->m);
		}
		while (TOK.kind != PL_T_EOF)
			parse_func(p);
		*out = p->m;
		job->holes = p->holes;
		p->holes = (struct pl_ht){0};
	}
	pl_lex_free_(&p->lx);
	free(p->refs.v);
	free(p->results.v);
	free(p->operands.v);
	free(p->types.v);
	free(p->entries.v);
	free(p->entry_at.v);
	free(p->elems.v);
	free(p->deferred.v);
	pl_ht_free(&p->values);
	pl_ht_free(&p->holes);
	pl_ht_free(&p->dtypes);
	pl_region_drop(region);
	free(p);
	return rc;
}
