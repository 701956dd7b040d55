/* SPDX-License-Identifier: MIT */
/* Contract: reads tuple collectives; rewrites each to pack, flat collective(s), unpack; needs verified IR. */

/* plugins/coalesce_ccop.c — CoalesceCCOp (passline-pipeline(5)); the
 * layout attributes are documented in passline-pipeline(5), "CoalesceCCOp". A tuple collective
 * has at least min_operands operands. With factor F:
 *   - all_gather: one group with every member. The buffer's unit is the
 *     first member dtype of the smallest item size; member i counts
 *     counts[i] = bytes(operand i) / size(unit) units. pack builds unit[N]
 *     (N = sum of counts), the flat all_gather gathers it to unit[F*N]
 *     (rank-major: rank r's buffer at [r*N, (r+1)*N)), and unpack gives
 *     result i the pieces [r*N + offsets[i], +counts[i]) of every rank r,
 *     concatenated along dimensions[i].
 *   - reduce_scatter: one group per dtype, in order of first appearance
 *     (a reduction cannot mix dtypes). Each operand is cut into F pieces
 *     along its dimension; counts[i] = elements(operand i) / F is one
 *     piece. pack builds dtype[F*N] rank-major (piece r of member i at
 *     r*N + offsets[i]); the flat reduce_scatter leaves rank r dtype[N];
 *     unpack gives result i [offsets[i], +counts[i]).
 *   - all_reduce: one group per dtype; counts[i] = elements(operand i);
 *     pack builds dtype[N], the flat all_reduce keeps dtype[N], unpack
 *     splits it back.
 * The flat collective carries the tuple's attributes (group_id, factor,
 * reduce, id, ...), its dimension set to 0 where it had another, so that it
 * satisfies the shape rules for a rank-1 buffer. The unpack's results take
 * over the tuple results' uses and names; the tuple is erased. A tuple
 * all_gather or reduce_scatter without factor stays as it is (a remark says
 * why): its layout is unknown.
 *
 * A tuple start and its done are lowered the same way, split at the same
 * places: pack and a flat start where the start was, a flat done and
 * unpack where the done was; the unpack's results take over the done's.
 *
 * Linear: one sweep; each tuple costs O(operands + uses of its results).
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"
#include <passline/grow.h>

static const pl_option_decl coalesce_options[] = {
	PL_OPTION_INT("min_operands", "2", 2, INT64_MAX,
	              "Flatten collectives with at least this many operands."),
	PL_OPTION_BOOL("all_gather", "true", "Flatten tuple all-gathers."),
	PL_OPTION_BOOL("reduce_scatter", "true", "Flatten tuple reduce-scatters."),
	PL_OPTION_BOOL("all_reduce", "true", "Flatten tuple all-reduces."),
	PL_OPTION_END
};

static const pl_stat_decl coalesce_stats[] = {
	PL_STAT("num_collectives_flattened", "Tuple collectives rewritten to flat buffers."),
	PL_STAT_END
};

struct config {
	uint64_t min_operands;
	bool kinds[3]; /* all_gather, reduce_scatter, all_reduce: flattened */
};

static const char *const kind_names[3] = {"all_gather", "reduce_scatter", "all_reduce"};

/* Whether the configuration flattens a collective of kind OP. */
static bool kind_wanted(const struct config *cfg, pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER: return cfg->kinds[0];
	case PL_OP_REDUCE_SCATTER: return cfg->kinds[1];
	case PL_OP_ALL_REDUCE: return cfg->kinds[2];
	default: return true;
	}
}

/* One flat collective to build: the members (operand indices of the tuple)
 * packed into a buffer of unit dtype. */
struct group {
	pl_dtype unit;
	size_t *members;  /* indices into the tuple's operands */
	int64_t *offsets; /* per member, in units, within one rank's segment */
	int64_t *counts;  /* per member, in units, within one rank's segment */
	size_t len;
	int64_t segment;  /* sum of counts */
};

/* Tuples this small are planned without a malloc. */
enum { SMALL_TUPLE = 16 };

/* The plan for one tuple collective, or one tuple start and its done. */
struct plan {
	pl_inst *tuple;
	pl_inst *done; /* the tuple start's done; NULL for a collective */
	pl_op op;      /* the kind: all_gather, reduce_scatter or all_reduce */
	size_t n;          /* operands (= results) */
	int64_t factor;    /* 0 when the tuple has none (all_reduce only) */
	int64_t dimension; /* the tuple's, default 0 */
	bool has_dimension_attr;
	struct group groups[PL_DTYPE__COUNT];
	size_t ngroups;
	const pl_type **types;  /* per operand */
	size_t *member_storage; /* backing arrays of every group */
	int64_t *number_storage;
	const pl_type *types_small[SMALL_TUPLE];
	size_t members_small[SMALL_TUPLE];
	int64_t numbers_small[2 * SMALL_TUPLE];
};

/* What a pack's dictionary (shared with its unpack) and its buffer types
 * are made of. Models repeat their layers, so a module of thousands of
 * tuples has a few dozen layouts: the first pack of each gets its
 * dictionary built, the others share it (pl_inst_copy_attrs, copy on
 * write), and the types come from here instead of pl_type_get. Copying
 * from the pack that built it would copy its entries each time (it owns
 * them); its unpack's copy is shared, so later ones copy from that. */
struct layout {
	uint64_t hash;
	const char *kind; /* the tuple's op name */
	int64_t factor, dimension;
	pl_dtype unit;
	size_t len;
	int64_t *numbers; /* offsets then counts */
	pl_inst *shared;  /* the first unpack: its dictionary is shared */
	const pl_type *packed_type, *flat_type;
};

/* Attributes of the tuple the plan reads. */
enum { KEY_FACTOR, KEY_DIMENSION, NUM_KEYS };
static const char *const key_names[NUM_KEYS] = {"factor", "dimension"};

struct coalescer {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	bool remarks;
	struct key_classes keys;
	struct layout *layouts;        /* the layouts built so far */
	size_t nlayouts, layouts_cap;
	struct pl_ht layout_index;     /* their indexes + 1, by contents */
	uint64_t flattened; /* for the stat, added at the end of the run */
};

/* ---- options ------------------------------------------------------------- */

static int coalesce_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int64_t n = 2;
	int rc = pl_ctx_get_int(ctx, "min_operands", &n);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	cfg->min_operands = n > 2 ? (uint64_t)n : 2;
	for (int k = 0; k < 3; k++) {
		if ((rc = pl_ctx_get_bool(ctx, kind_names[k], &cfg->kinds[k])) != PL_OK) {
			pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
			free(cfg);
			return rc;
		}
	}
	*state = cfg;
	return PL_OK;
}

static void coalesce_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- planning ---------------------------------------------------------------- */

static void free_plan(struct plan *p)
{
	if (p->types != p->types_small)
		free(p->types);
	if (p->member_storage != p->members_small)
		free(p->member_storage);
	if (p->number_storage != p->numbers_small)
		free(p->number_storage);
}

/* Splits the operands into groups: all_gather one group whose unit is the
 * first dtype of the smallest item size; the reducing kinds one group per
 * dtype, in order of first appearance. */
static void group_by_dtype(struct plan *p)
{
	size_t n = p->n;
	size_t *next = p->member_storage;
#define DTYPE_OF(k) pl_type_dtype(p->types[k])
	if (p->op == PL_OP_ALL_GATHER) {
		pl_dtype unit = DTYPE_OF(0);
		unsigned unit_size = pl_dtype_size(unit);
		for (size_t k = 1; k < n; k++) {
			pl_dtype dt = DTYPE_OF(k);
			unsigned size = pl_dtype_size(dt);
			if (size < unit_size) {
				unit = dt;
				unit_size = size;
			}
		}
		p->groups[0] = (struct group){.unit = unit, .members = next};
		for (size_t k = 0; k < n; k++)
			p->groups[0].members[p->groups[0].len++] = k;
		p->ngroups = 1;
		return;
	}
	/* Two passes over the operands: count per dtype, then place, so that
	 * every group's members are contiguous in member_storage. */
	size_t per_dtype[PL_DTYPE__COUNT] = {0};
	int group_of[PL_DTYPE__COUNT];
	for (int d = 0; d < PL_DTYPE__COUNT; d++)
		group_of[d] = -1;
	for (size_t k = 0; k < n; k++) {
		pl_dtype dt = DTYPE_OF(k);
		if (group_of[dt] < 0) {
			group_of[dt] = (int)p->ngroups;
			p->groups[p->ngroups++] = (struct group){.unit = dt};
		}
		per_dtype[dt]++;
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		p->groups[g].members = next;
		next += per_dtype[p->groups[g].unit];
	}
	for (size_t k = 0; k < n; k++) {
		struct group *g = &p->groups[group_of[DTYPE_OF(k)]];
		g->members[g->len++] = k;
	}
#undef DTYPE_OF
}

/* Member k's count in units of g's unit within one rank's segment, or -1
 * when it is not exact. */
static int64_t member_count(const struct plan *p, const struct group *g, size_t k)
{
	const pl_type *ty = p->types[k];
	uint64_t bytes, elems;
	if (pl_type_num_bytes(ty, &bytes) != PL_OK || pl_type_num_elements(ty, &elems) != PL_OK)
		return -1;
	switch (p->op) {
	case PL_OP_ALL_GATHER:
		return bytes % pl_dtype_size(g->unit) ? -1
		                                        : (int64_t)(bytes / pl_dtype_size(g->unit));
	case PL_OP_REDUCE_SCATTER:
		return elems % (uint64_t)p->factor ? -1 : (int64_t)(elems / (uint64_t)p->factor);
	default:
		return (int64_t)elems;
	}
}

/* Fills offsets, counts and segment of every group; false (with why) when
 * the layout cannot be expressed. */
static bool lay_out(struct plan *p, const char **why)
{
	int64_t *next = p->number_storage;
	int64_t factor = p->factor ? p->factor : 1;
	for (size_t gi = 0; gi < p->ngroups; gi++) {
		struct group *g = &p->groups[gi];
		g->offsets = next;
		g->counts = next + g->len;
		next += 2 * g->len;
		int64_t total = 0;
		for (size_t j = 0; j < g->len; j++) {
			int64_t c = member_count(p, g, g->members[j]);
			if (c < 0) {
				*why = "a member does not split evenly into the buffer's unit";
				return false;
			}
			if (c > INT64_MAX - total) {
				*why = "the buffer would have more than 2^63-1 elements";
				return false;
			}
			g->offsets[j] = total;
			g->counts[j] = c;
			total += c;
		}
		if (total > INT64_MAX / factor) {
			*why = "the buffer would have more than 2^63-1 elements";
			return false;
		}
		g->segment = total;
	}
	return true;
}

/* Plans the rewrite of t; false (with why) when t stays as it is. */
static bool plan_tuple(struct coalescer *c, pl_inst *t, pl_op op, struct plan *p,
                       const char **why)
{
	p->tuple = t;
	p->op = op;
	p->ngroups = 0;
	p->types = NULL;
	p->member_storage = NULL;
	p->number_storage = NULL;
	size_t n = p->n = pl_inst_num_operands(t);
	const pl_attr *attr[NUM_KEYS];
	key_classes_read(&c->keys, pl_inst_attrs_const(t), attr);
	/* as pl_attrs_get_int: present and an integer */
	const pl_attr *fa = attr[KEY_FACTOR], *da = attr[KEY_DIMENSION];
	p->factor = fa && pl_attr_get_kind(fa) == PL_ATTR_INT ? pl_attr_get_int(fa) : 0;
	if (p->factor < 1) {
		p->factor = 0;
		if (op != PL_OP_ALL_REDUCE) {
			*why = "no factor, so the buffer's layout is unknown";
			return false;
		}
	}
	p->has_dimension_attr = da && pl_attr_get_kind(da) == PL_ATTR_INT;
	p->dimension = p->has_dimension_attr && op != PL_OP_ALL_REDUCE ? pl_attr_get_int(da) : 0;
	if (pl_inst_num_results(t) != n) {
		*why = "not one result per operand";
		return false;
	}
	bool small = n <= SMALL_TUPLE;
	p->types = small ? p->types_small : malloc(n * sizeof *p->types);
	p->member_storage = small ? p->members_small : malloc(n * sizeof *p->member_storage);
	p->number_storage = small ? p->numbers_small : malloc(2 * n * sizeof *p->number_storage);
	if (!p->types || !p->member_storage || !p->number_storage) {
		*why = NULL; /* out of memory */
		return false;
	}
	for (size_t k = 0; k < n; k++) {
		p->types[k] = pl_value_type(pl_inst_operand(t, k));
		/* the groups are tables of PL_DTYPE__COUNT, what these headers
		 * know; a newer library may know more */
		if ((unsigned)pl_type_dtype(p->types[k]) >= PL_DTYPE__COUNT) {
			*why = "an operand's dtype is newer than this pass";
			return false;
		}
	}
	group_by_dtype(p);
	return lay_out(p, why);
}

/* ---- layouts already built ----------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * UINT64_C(0x9e3779b97f4a7c15);
	return h ^ (h >> 29);
}

static uint64_t layout_hash(const struct plan *p, const struct group *g)
{
	uint64_t h = mix(mix(mix((uint64_t)(uintptr_t)pl_inst_opname(p->tuple), (uint64_t)p->factor),
	                     (uint64_t)p->dimension),
	                 ((uint64_t)g->unit << 32) ^ g->len);
	for (size_t j = 0; j < g->len; j++)
		h = mix(mix(h, (uint64_t)g->offsets[j]), (uint64_t)g->counts[j]);
	return h;
}

struct layout_probe {
	const struct plan *p;
	const struct group *g;
};

static bool layout_matches(const void *item, const void *probe, const void *ctx)
{
	const struct layout *l = &((const struct coalescer *)ctx)->layouts[(uintptr_t)item - 1];
	const struct plan *p = ((const struct layout_probe *)probe)->p;
	const struct group *g = ((const struct layout_probe *)probe)->g;
	return l->kind == pl_inst_opname(p->tuple) && l->factor == p->factor &&
	       l->dimension == p->dimension && l->unit == g->unit && l->len == g->len &&
	       memcmp(l->numbers, g->offsets, g->len * sizeof *g->offsets) == 0 &&
	       memcmp(l->numbers + g->len, g->counts, g->len * sizeof *g->counts) == 0;
}

/* g's layout, when one was built already; else NULL. */
static const struct layout *layout_find(const struct coalescer *c, uint64_t hash,
                                        const struct plan *p, const struct group *g)
{
	struct layout_probe probe = {p, g};
	const void *k = pl_ht_get(&c->layout_index, (uint32_t)hash, layout_matches, &probe, c);
	return k ? &c->layouts[(uintptr_t)k - 1] : NULL;
}

/* Remembers g's layout, whose dictionary unpack shares; when out of memory
 * nothing is remembered: an optimisation, not a failure. */
static void remember_layout(struct coalescer *c, uint64_t hash, const struct plan *p,
                            const struct group *g, pl_inst *unpack,
                            const pl_type *packed_type, const pl_type *flat_type)
{
	if (!PL_GROW(c->layouts, c->layouts_cap, c->nlayouts + 1))
		return;
	int64_t *numbers = malloc(2 * g->len * sizeof *numbers); /* a group is never empty */
	if (!numbers || !pl_ht_reserve(&c->layout_index)) {
		free(numbers);
		return;
	}
	memcpy(numbers, g->offsets, g->len * sizeof *numbers);
	memcpy(numbers + g->len, g->counts, g->len * sizeof *numbers);
	c->layouts[c->nlayouts] = (struct layout){hash, pl_inst_opname(p->tuple), p->factor,
	                                          p->dimension, g->unit, g->len, numbers, unpack,
	                                          packed_type, flat_type};
	struct layout_probe probe = {p, g};
	size_t j = pl_ht_find(&c->layout_index, (uint32_t)hash, layout_matches, &probe, c);
	pl_ht_put(&c->layout_index, j, (uint32_t)hash, (const void *)(uintptr_t)++c->nlayouts);
}

static void free_layouts(struct coalescer *c)
{
	for (size_t k = 0; k < c->nlayouts; k++)
		free(c->layouts[k].numbers);
	free(c->layouts);
	pl_ht_free(&c->layout_index);
}

/* ---- rewriting ------------------------------------------------------------------ */

/* The collective a start is the first half of. */
static pl_op kind_of_start(pl_op start)
{
	switch (start) {
	case PL_OP_ALL_GATHER_START: return PL_OP_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER_START: return PL_OP_REDUCE_SCATTER;
	default: return PL_OP_ALL_REDUCE;
	}
}

/* The done that takes a start's results (in verified IR, the one user of
 * its first result); NULL when there is none. */
static pl_inst *done_of(const pl_inst *start)
{
	pl_use *u = pl_inst_num_results(start) ? pl_value_first_use(pl_inst_result(start, 0)) : NULL;
	pl_inst *user = u ? pl_use_user(u) : NULL;
	return user && (pl_inst_traits(user) & PL_TRAIT_COLLECTIVE_DONE) ? user : NULL;
}

/* kind, factor, offsets, counts and (all_gather, reduce_scatter)
 * dimensions: what pack and unpack need to lay out and split the buffer. */
static int set_layout_attrs(pl_inst *inst, const struct plan *p, const struct group *g)
{
	pl_module *m = pl_func_module(pl_inst_func(inst));
	pl_attrs *a = pl_inst_attrs(inst);
	int rc = pl_attrs_set_string(a, "kind", pl_op_name(p->op));
	if (rc == PL_OK && p->factor)
		rc = pl_attrs_set_int(a, "factor", p->factor);
	const pl_attr *offsets = pl_attr_int_list(m, g->offsets, g->len);
	const pl_attr *counts = pl_attr_int_list(m, g->counts, g->len);
	if (!offsets || !counts)
		return PL_ENOMEM;
	if (rc == PL_OK)
		rc = pl_attrs_set(a, "offsets", offsets);
	if (rc == PL_OK)
		rc = pl_attrs_set(a, "counts", counts);
	if (rc == PL_OK && p->op != PL_OP_ALL_REDUCE) {
		/* every member is cut along the tuple's one dimension */
		int64_t small[16];
		int64_t *dims = g->len <= 16 ? small : malloc(g->len * sizeof *dims);
		if (!dims)
			return PL_ENOMEM;
		for (size_t j = 0; j < g->len; j++)
			dims[j] = p->dimension;
		const pl_attr *d = pl_attr_int_list(m, dims, g->len);
		if (dims != small)
			free(dims);
		rc = d ? pl_attrs_set(a, "dimensions", d) : PL_ENOMEM;
	}
	return rc;
}

/* Names a new value after the group's first member: "<name><suffix>". */
static int name_after(pl_value *v, const pl_value *member, const char *suffix)
{
	const char *base = pl_value_name(member);
	if (!base)
		return PL_OK; /* the printer numbers it */
	size_t nb = strlen(base), ns = strlen(suffix);
	char small[64];
	char *name = nb + ns < sizeof small ? small : malloc(nb + ns + 1);
	if (!name)
		return PL_ENOMEM;
	memcpy(name, base, nb);
	memcpy(name + nb, suffix, ns + 1);
	int rc = pl_value_set_name(v, name);
	if (name != small)
		free(name);
	return rc;
}

/* pack -> flat collective -> unpack for one group, inserted before the
 * tuple; the unpack's results take over the group's tuple results. For a
 * tuple start, pack and the flat start go before it, the flat done and
 * unpack before its done, and the unpack's results take over the done's. */
static int emit_group(struct coalescer *c, const struct plan *p, const struct group *g)
{
	pl_inst *t = p->tuple;
	pl_inst *ready = p->done ? p->done : t; /* defines the values unpack replaces */
	pl_func *f = pl_inst_func(t);
	pl_op op = p->op;
	uint64_t hash = layout_hash(p, g);
	const struct layout *known = layout_find(c, hash, p, g);
	const pl_type *packed_type, *flat_type;
	if (known) {
		packed_type = known->packed_type;
		flat_type = known->flat_type;
	} else {
		pl_module *m = pl_func_module(f);
		int64_t packed = op == PL_OP_REDUCE_SCATTER ? p->factor * g->segment : g->segment;
		int64_t flat = op == PL_OP_ALL_GATHER ? p->factor * g->segment : g->segment;
		packed_type = pl_type_get(m, g->unit, &packed, 1);
		flat_type = pl_type_get(m, g->unit, &flat, 1);
	}
	pl_value *ops_small[SMALL_TUPLE];
	const pl_type *types_small[SMALL_TUPLE];
	bool small = g->len <= SMALL_TUPLE;
	pl_value **ops = small ? ops_small : malloc(g->len * sizeof *ops);
	const pl_type **types = small ? types_small : malloc(g->len * sizeof *types);
	int rc = PL_ENOMEM;
	if (!packed_type || !flat_type || !ops || !types)
		goto out;
	for (size_t j = 0; j < g->len; j++) {
		ops[j] = pl_inst_operand(t, g->members[j]);
		types[j] = pl_value_type(pl_inst_result(ready, g->members[j]));
	}
	pl_inst *pack, *coll, *unpack;
	if ((rc = pl_inst_create(&pack, f, "pack", ops, g->len, &packed_type, 1)) != PL_OK)
		goto out;
	pl_value *buf = pl_inst_result(pack, 0);
	if ((rc = pl_inst_create(&coll, f, pl_inst_opname(t), &buf, 1, &flat_type, 1)) != PL_OK)
		goto out;
	pl_value *gathered = pl_inst_result(coll, 0), *in_flight = NULL;
	pl_inst *flat_done = NULL;
	if (p->done) {
		in_flight = gathered;
		if ((rc = pl_inst_create(&flat_done, f, pl_inst_opname(p->done), &in_flight, 1,
		                         &flat_type, 1)) != PL_OK)
			goto out;
		gathered = pl_inst_result(flat_done, 0);
	}
	if ((rc = pl_inst_create(&unpack, f, "unpack", &gathered, 1, types, g->len)) != PL_OK)
		goto out;
	pl_value *first = pl_inst_result(ready, g->members[0]);
	rc = known ? pl_inst_copy_attrs(pack, known->shared) : set_layout_attrs(pack, p, g);
	/* pack and unpack describe the same layout: one dictionary, shared */
	if (rc == PL_OK && (rc = pl_inst_copy_attrs(unpack, pack)) == PL_OK && !known)
		remember_layout(c, hash, p, g, unpack, packed_type, flat_type);
	if (rc != PL_OK ||
	    (rc = pl_inst_copy_attrs(coll, t)) != PL_OK ||
	    (rc = name_after(buf, first, "_buf")) != PL_OK ||
	    (rc = name_after(gathered, first, "_flat")) != PL_OK)
		goto out;
	if (flat_done && ((rc = pl_inst_copy_attrs(flat_done, p->done)) != PL_OK ||
	                  (rc = name_after(in_flight, first, "_flat_s")) != PL_OK))
		goto out;
	if (p->has_dimension_attr && p->dimension != 0 &&
	    (rc = pl_attrs_set_int(pl_inst_attrs(coll), "dimension", 0)) != PL_OK)
		goto out;
	pl_inst *new_insts[] = {pack, coll, flat_done, unpack};
	for (size_t k = 0; k < 4; k++) {
		pl_inst *at = k < 2 ? t : ready;
		if (!new_insts[k])
			continue;
		pl_inst_set_loc(new_insts[k], pl_inst_line(at), pl_inst_col(at));
		if ((rc = pl_inst_insert(new_insts[k], at, PL_BEFORE)) != PL_OK)
			goto out;
	}
	for (size_t j = 0; j < g->len; j++)
		pl_value_replace(pl_inst_result(ready, g->members[j]), pl_inst_result(unpack, j));
	rc = PL_OK;
out:
	if (ops != ops_small)
		free(ops);
	if (types != types_small)
		free(types);
	return rc;
}

static int flatten_tuple(struct coalescer *c, pl_inst *t, pl_op op, pl_inst *done)
{
	struct plan p;
	const char *why = NULL;
	p.done = done;
	if (!plan_tuple(c, t, op, &p, &why)) {
		free_plan(&p);
		if (!why)
			return PL_ENOMEM;
		if (c->remarks)
			pl_ctx_remark(c->ctx, t, "%s %%%s not flattened: %s", pl_inst_opname(t),
			              inst_label(t), why);
		return PL_OK;
	}
	if (c->remarks)
		pl_ctx_remark(c->ctx, t, "flattened %s %%%s (%zu operands) into %zu collective%s",
		              pl_inst_opname(t), inst_label(t), p.n, p.ngroups,
		              p.ngroups == 1 ? "" : "s, one per dtype");
	int rc = PL_OK;
	for (size_t g = 0; g < p.ngroups && rc == PL_OK; g++)
		rc = emit_group(c, &p, &p.groups[g]);
	if (rc == PL_OK && done)
		rc = pl_inst_erase(done);
	if (rc == PL_OK)
		rc = pl_inst_erase(t);
	if (rc == PL_OK)
		c->flattened++;
	free_plan(&p);
	return rc;
}

static int coalesce_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct coalescer c = {.ctx = ctx, .cfg = state, .remarks = pl_ctx_remarks_enabled(ctx),
	                      .keys = {.names = key_names, .count = NUM_KEYS}};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		pl_func *f = pl_module_func_at(m, k);
		if (!rewritable_at(&rw, k))
			continue;
		for (pl_inst *i = pl_func_first_inst(f), *next; i && rc == PL_OK; i = next) {
			next = pl_inst_next(i);
			pl_op op = pl_inst_op(i);
			unsigned traits = pl_op_traits(op);
			if (pl_inst_num_operands(i) < c.cfg->min_operands)
				continue;
			if (traits & PL_TRAIT_COLLECTIVE) {
				if (kind_wanted(c.cfg, op))
					rc = flatten_tuple(&c, i, op, NULL);
			} else if (traits & PL_TRAIT_COLLECTIVE_START) {
				pl_inst *done = done_of(i);
				if (!done || !kind_wanted(c.cfg, kind_of_start(op)))
					continue;
				if (next == done) /* what lands before it needs no visit */
					next = pl_inst_next(done);
				rc = flatten_tuple(&c, i, kind_of_start(op), done);
			}
		}
	}
	/* every tuple that was rewritten counts, as when each added its own */
	rewritable_free(&rw);
	pass_end_stat(ctx, "num_collectives_flattened", c.flattened, &rc);
	free_layouts(&c);
	ptr_map_free(&c.keys.seen);
	return pass_end_report(ctx, rc, "flatten a collective");
}

static const pl_pass_desc coalesce_pass = {
	PL_PASS_DESC_INIT,
	.name = "CoalesceCCOp",
	.summary = "Lowers tuple collectives to pack, one flat collective, unpack.",
	.options = coalesce_options,
	.stats = coalesce_stats,
	.create = coalesce_create,
	.run = coalesce_run,
	.destroy = coalesce_destroy,
};

PL_PLUGIN_DEFINE("CoalesceCCOp", PACKAGE_VERSION, "MIT",
                 "Flat-buffer collectives.", &coalesce_pass)
