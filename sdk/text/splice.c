/* SPDX-License-Identifier: MIT */
/* sdk/text/splice.c — puts the rest of a module, read by a second reader into a
 * module of its own, after what the first reader read (see parse.h).
 *
 * The rest fits when every value it uses before defining one is a value
 * the first reader defined in that function, and nothing it defines, value
 * or function, was defined there before. Otherwise nothing changes, and
 * the first reader reads on alone: whatever the rest got wrong is then
 * reported as a single reader reports it.
 *
 * What fits is moved, not copied: the second module's arenas, its
 * functions and its instructions become the first's. Its interned strings,
 * types and lists are the first module's own afterwards: each is looked
 * up there by content once (one not there is adopted as it is), and every
 * pointer to one the first module had already is replaced; its attribute
 * keys are renumbered as the first module numbers them.
 *
 * This is the part of reading that one thread does alone, so it walks
 * tables rather than instructions where it can: whether a name of the
 * rest's is one of the first reader's, and which strings the first module
 * has already, are asked of the second reader's tables, slot by slot,
 * with the hashes they keep. */
#include "text/parse.h"

#include <stdlib.h>

enum { RECENT = 4096 };

struct remap {
	pl_module *to;
	/* a key's or an op name's number in the rest -> its number in to */
	uint32_t *key_ids, *op_ids;
	struct pl_ht strings; /* a string of the rest's that to had -> to's */
	struct pl_ht scalars; /* the same of the 8 bytes of scalars */
	struct pl_ht map; /* a type of the rest's -> the same in to */
	struct recent {
		const void *from, *to;
	} recent[RECENT]; /* looked up lately, by address */
	bool failed;      /* out of memory */
};

/* The blob p of the rest's (a string, or a scalar's 8 bytes), as to has
 * it: dups maps each that to had already to to's (every other one was
 * entered in to's set at once, see pl_splice_rest_). */
static const void *blob_of(const struct pl_ht *dups, const void *p)
{
	const void *to = pl_ht_ptr_get(dups, p);
	return to ? to : p;
}

static const void *make_type(struct remap *r, const void *p)
{
	const pl_type *t = p;
	return pl_type_get(r->to, (pl_dtype)t->dtype, t->dims, t->rank);
}

static const void *make_list(struct remap *r, const void *p);

/* The same as from in r->to, made by make when it is not known yet. A
 * pointer into r->to maps to itself (made again: found equal), so
 * replacing twice does no harm. With keep, what was made is kept in
 * r->map; without it (lists) it is made again when met again past the
 * recent ones: a list is mostly met once (its own values), and making
 * one again only finds it in to's set, a probe, where keeping every one
 * costs a slot and the map's growth. */
static __attribute__((noinline)) const void *
remap_slow(struct remap *r, const void *from, uint32_t hash,
           const void *(*make)(struct remap *, const void *), bool keep)
{
	const void *to = keep ? pl_ht_ptr_get(&r->map, from) : NULL;
	/* make may fill the map itself: the put comes after it */
	if (!to && (!(to = make(r, from)) ||
	            (keep && !pl_ht_ptr_put(&r->map, from, (void *)(uintptr_t)to)))) {
		r->failed = true;
		return from;
	}
	struct recent *recent = &r->recent[hash % RECENT];
	recent->from = from;
	recent->to = to;
	return to;
}

static inline const void *remap(struct remap *r, const void *from,
                                const void *(*make)(struct remap *, const void *), bool keep)
{
	uint32_t hash = pl_ht_hash_ptr(from);
	const struct recent *recent = &r->recent[hash % RECENT];
	return recent->from == from ? recent->to : remap_slow(r, from, hash, make, keep);
}

static void remap_attr(struct remap *r, pl_attr *a)
{
	if (a->kind == PL_ATTR_STRING)
		a->v = pl_region_off_(blob_of(&r->strings, pl_attr_s_(a)));
	else if (a->kind == PL_ATTR_FLOAT || a->boxed)
		a->v = pl_region_off_(blob_of(&r->scalars, pl_region_at_(a, a->v)));
	else if (a->kind == PL_ATTR_LIST && pl_attr_len_(a))
		a->v = pl_region_off_(remap(r, pl_attr_elems_(a), make_list, false));
}

/* A list's elements are replaced in place, then the list is interned. */
static const void *make_list(struct remap *r, const void *p)
{
	pl_attr *v = (pl_attr *)(uintptr_t)p;
	size_t n = (size_t)((const uint64_t *)p)[-1] / sizeof *v;
	for (size_t k = 0; k < n; k++)
		remap_attr(r, &v[k]);
	return pl_intern_adopt_(&r->to->lists, p);
}

/* The numbers in to of the strings numbered in from (interned in the
 * rest); NULL when out of memory or past to's max. */
static uint32_t *renumber(struct remap *r, const struct pl_numbered *from,
                          struct pl_numbered *to)
{
	uint32_t *ids = calloc(from->n + 1, sizeof *ids);
	for (uint32_t k = 1; ids && k <= from->n; k++) {
		if (!(ids[k] = pl_number_(to, blob_of(&r->strings, from->names[k])))) {
			free(ids);
			return NULL;
		}
	}
	return ids;
}

static void remap_attrs(struct remap *r, pl_attrs *d)
{
	/* entries are shared by equal dictionaries read close together: each
	 * array is renumbered once, through the dictionary it was made for
	 * (renumbering keys twice would give them other keys) */
	if (!d->fresh)
		return;
	d->fresh = false;
	struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t k = 0; k < d->n; k++) {
		v[k].val.key = r->key_ids[v[k].val.key] & PL_KEY_MAX;
		remap_attr(r, &v[k].val);
	}
	pl_count_note_(r->to, d);
}

static void remap_inst(struct remap *r, pl_inst *i, uint32_t lines)
{
	i->op = r->op_ids[i->op];
	remap_attrs(r, &i->attrs);
	pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nres; k++)
		res[k].type = remap(r, res[k].type, make_type, true);
	i->line += lines;
}

enum { PREFETCH_AHEAD = 16 };

/* Whether the values item and probe have the same name. */
static bool named_as(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return strcmp(((const pl_value *)item)->name, ((const pl_value *)probe)->name) == 0;
}

/* The value of values named as the one in slot j of mine, a table of the
 * second reader's; NULL when there is none or the slot is empty. The two
 * readers hash names alike, so the slot gives the name's hash without
 * reading the name (nor its value), which is read only where values has
 * one of the same hash. The slot of the item some slots on is asked for
 * first: values is far bigger than the caches. */
static pl_value *named_in(const struct pl_ht *values, const struct pl_ht *mine, size_t j)
{
	if (j + PREFETCH_AHEAD < mine->cap && pl_ht_at(mine, j + PREFETCH_AHEAD))
		pl_ht_prefetch(values, pl_ht_hash_at(mine, j + PREFETCH_AHEAD));
	const pl_value *v = pl_ht_at(mine, j);
	return v ? (pl_value *)(uintptr_t)pl_ht_get(values, pl_ht_hash_at(mine, j), named_as, v, NULL)
	         : NULL;
}

/* Whether the rest fits after f (see above); found[j] is the value of
 * the first reader's that the hole in slot j of rest->holes stands for. */
static bool fits(const pl_module *a, const struct pl_ht *values, const pl_module *b,
                 const struct pl_parse_job *rest, pl_value **found)
{
	const struct pl_ht *holes = &rest->holes, *defined = &rest->cont_values;
	/* one region for both, or the uses and values would name each other
	 * across two (parse.h: the readers of a file share one) */
	if (a->insts.region != b->insts.region)
		return false;
	/* room for all the rest's keys and op names beside a's (both have
	 * the reserved ones), or one reader would have told that there were
	 * too many */
	if (a->keys.n + (uint64_t)b->keys.n > a->keys.max + (uint64_t)PL_KEY_FLOPS ||
	    a->ops.n + (uint64_t)b->ops.n > a->ops.max + (uint64_t)PL_OP__COUNT - 1)
		return false;
	for (size_t j = 0; j < holes->cap; j++)
		if (pl_ht_at(holes, j) && !(found[j] = named_in(values, holes, j)))
			return false;
	for (size_t j = 0; j < defined->cap; j++)
		if (named_in(values, defined, j))
			return false;
	for (size_t k = 1; k < b->nfuncs; k++) /* funcs[0] is rest->cont */
		if (pl_module_find_func_(a, b->funcs[k]->name, strlen(b->funcs[k]->name)))
			return false;
	return true;
}

/* The uses of hole go to v, before v's own: the rest's uses come later in
 * the text, and a use list runs from the last use read. */
static void fill_hole(pl_value *hole, pl_value *v)
{
	pl_use *u = pl_value_uses_(hole), *last = NULL;
	if (!u)
		return;
	uint32_t to = pl_region_off_(v);
	for (; u; u = pl_use_next_(u)) {
		u->val = to;
		last = u;
	}
	last->next = v->uses;
	if (v->uses)
		pl_value_uses_(v)->prev = pl_region_off_(last);
	v->uses = hole->uses;
	hole->uses = 0;
}

int pl_splice_rest_(pl_func *f, struct pl_ht *values, uint32_t line, pl_module *b,
                    struct pl_parse_job *rest)
{
	pl_module *a = f->m;
	pl_value **found = malloc((rest->holes.cap ? rest->holes.cap : 1) * sizeof *found);
	struct remap *r = calloc(1, sizeof *r);
	int rc = found && r ? PL_OK : PL_ENOMEM;
	if (rc == PL_OK && !fits(a, values, b, rest, found)) {
		free(found);
		free(r);
		return 0;
	}
	bool adopted = rc == PL_OK;
	if (adopted) {
		/* from here on a is changed, and freed as a whole on failure */
		for (size_t j = 0; j < rest->holes.cap; j++) {
			pl_value *hole = (pl_value *)(uintptr_t)pl_ht_at(&rest->holes, j);
			if (hole)
				fill_hole(hole, found[j]);
		}
		/* the tables of names have served: their memory goes before the
		 * rest's strings make a's set grow (in a large function they
		 * are the largest things alive) */
		pl_ht_free(values);
		pl_ht_free(&rest->cont_values);
		pl_ht_free(&rest->holes);
		pl_arena_adopt(&a->arena, &b->arena);
		pl_arena_adopt(&a->insts, &b->insts);
		pl_arena_adopt(&a->text, &b->text);
		r->to = a;
		if (!pl_intern_merge_(&a->strings, &b->strings, &r->strings) ||
		    !pl_intern_merge_(&a->scalars, &b->scalars, &r->scalars))
			r->failed = true;
		/* the rest's keys and op names, numbered in a */
		if (!(r->key_ids = renumber(r, &b->keys, &a->keys)) ||
		    !(r->op_ids = renumber(r, &b->ops, &a->ops)))
			r->failed = true;
	}
	if (adopted && !r->failed) {
		uint32_t lines = line - 1; /* the rest's line 1 is line */
		for (pl_inst *i = rest->cont->first, *next; i; i = next) {
			next = pl_inst_next_(i);
			remap_inst(r, i, lines);
			i->func = pl_region_off_(f);
			i->prev = i->next = 0;
			i->flags &= (uint16_t)~PL_INST_LINKED;
			pl_func_append(f, i); /* numbered as if read here */
		}
		for (size_t k = 1; k < b->nfuncs && rc == PL_OK; k++) {
			pl_func *g = b->funcs[k];
			g->line += lines;
			remap_attrs(r, &g->attrs);
			for (size_t j = 0; j < g->nargs; j++)
				g->args[j]->v.type = remap(r, g->args[j]->v.type, make_type, true);
			for (pl_inst *i = g->first; i; i = pl_inst_next_(i))
				remap_inst(r, i, lines);
			rc = pl_module_add_func_(a, g);
		}
	}
	if (adopted) {
		b->nfuncs = 0;
		if (r->failed)
			rc = PL_ENOMEM;
	}
	if (r) {
		pl_ht_free(&r->map);
		pl_ht_free(&r->strings);
		pl_ht_free(&r->scalars);
		free(r->key_ids);
		free(r->op_ids);
		free(r);
	}
	free(found);
	return rc == PL_OK ? 1 : rc;
}
