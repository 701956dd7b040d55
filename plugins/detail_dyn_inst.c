/* SPDX-License-Identifier: MIT */
/* plugins/detail_dyn_inst.c — DetailDynInst.
 * Reads: every instruction's domain, predicate, num_dynamic_instances,
 * flops and load/store dtype. Changes: nothing; reports two totals.
 *
 * The exact counterpart of DynamicInstEstimator. Per instruction,
 * n = masked_dynamic_instances: the points of `domain` that satisfy every
 * constraint of `predicate` when there is one (counted without enumerating
 * the domain, sdk/predicate.c), else num_dynamic_instances. A load or store
 * adds n x the size of its dtype (a load's result, a store's stored value)
 * to Total_bytes_moved; every other instruction adds flops x n to
 * Total_flops, flops being the attribute or the op's default.
 * The totals are exact unsigned 128-bit integers, reported as
 * "Total flops: N" and "Total bytes moved: N" and kept as the stats of the
 * same names. A product cannot pass 2^127 (both factors are below 2^64 and
 * one below 2^63); a sum that would pass 2^128 - 1 is an error naming the
 * instruction, never a wrapped number. So are a predicate whose count
 * would walk more than PL_COUNT_MAX_ENUMERATION outer points and a domain
 * of more than INT64_MAX points.
 *
 * Speed: a module of 10^6 instructions repeats a few domains and
 * predicates. Attribute strings and lists are interned per module, so
 * equal strings and equal lists share one pointer; the pass keeps, for the
 * run, the parsed constraint per (string, rank) and the count per
 * (domain elements, predicate elements), keyed by those pointers. The
 * result is the same as pl_inst_masked_dynamic_instances, only computed
 * once per distinct pair: a pointer stands for one immutable value while
 * the module lives, so the keys are sound whatever the interning; the
 * interning is what makes equal values hit. (10^6 instructions with causal
 * and tail masks: 0.09 s with the caches, 18 s without.)
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptr_map.h"

typedef unsigned __int128 u128;

static const pl_stat_decl detail_stats[] = {
	PL_STAT("Total_flops", "Total flops."),
	PL_STAT("Total_bytes_moved", "Total bytes moved."),
	PL_STAT_END
};

/* ---- run-long caches, keyed by interned pointers -------------------------- */

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

/* The parsed constraint of an interned predicate string for a rank. */
struct cons_rec {
	const char *text;
	size_t rank;
	pl_constraint *c;
};

/* The count of a (domain, predicate) pair: the pointers to their first
 * elements (NULL for an empty list) and their lengths. */
struct count_rec {
	const pl_attr *dom, *pred;
	size_t dom_len, pred_len;
	uint64_t n;
};

/* What the pass derives from an instruction's attribute dictionary: the
 * count when the dictionary decides it (a predicate, an explicit count or
 * a domain), and whether it has a flops attribute. Only successes are
 * recorded; an instruction whose count fails is reported where it is. */
struct dict_facts {
	bool n_known, has_flops;
	uint64_t n;
};

struct cache {
	struct attr_key predicate, domain, num_dynamic_instances, flops;
	unsigned traits[PL_OP__COUNT];      /* pl_op_traits of each op, asked once */
	int64_t default_flops[PL_OP__COUNT]; /* pl_op_default_flops, likewise */
	/* the records, and tables of their indexes + 1 (hash_table.h) */
	struct cons_rec *cons;
	size_t ncons, cons_cap;
	struct count_rec *counts;
	size_t ncounts, counts_cap;
	struct pl_ht cons_index, counts_index;
	const pl_constraint **scratch; /* one predicate's constraints */
	size_t scratch_cap;
};

static void cache_free(struct cache *c)
{
	for (size_t k = 0; k < c->ncons; k++)
		pl_constraint_free(c->cons[k].c);
	free(c->cons);
	free(c->counts);
	free(c->scratch);
	pl_ht_free(&c->cons_index);
	pl_ht_free(&c->counts_index);
}

static uint32_t cons_hash(const char *text, size_t rank)
{
	return (uint32_t)mix((uint64_t)(uintptr_t)text, rank);
}

static uint32_t count_hash(const struct count_rec *s)
{
	return (uint32_t)mix(mix((uint64_t)(uintptr_t)s->dom, s->dom_len),
	                     mix((uint64_t)(uintptr_t)s->pred, s->pred_len));
}

static bool same_cons(const void *item, const void *probe, const void *ctx)
{
	const struct cons_rec *a = &((const struct cache *)ctx)->cons[(uintptr_t)item - 1];
	const struct cons_rec *b = probe;
	return a->text == b->text && a->rank == b->rank;
}

static bool same_count(const void *item, const void *probe, const void *ctx)
{
	const struct count_rec *a = &((const struct cache *)ctx)->counts[(uintptr_t)item - 1];
	const struct count_rec *b = probe;
	return a->dom == b->dom && a->pred == b->pred && a->dom_len == b->dom_len &&
	       a->pred_len == b->pred_len;
}

/* Appends rec (of size bytes) to the records *v (*n of them, room for
 * *cap) and indexes it under hash in t. PL_OK or PL_ENOMEM. */
static int remember(struct cache *c, struct pl_ht *t, void **v, size_t *n, size_t *cap,
                    const void *rec, size_t size, uint32_t hash,
                    bool (*same)(const void *, const void *, const void *))
{
	if (*n == *cap) {
		size_t k = *cap ? *cap * 2 : 64;
		void *w = realloc(*v, k * size);
		if (!w)
			return PL_ENOMEM;
		*v = w;
		*cap = k;
	}
	if (!pl_ht_reserve(t))
		return PL_ENOMEM;
	memcpy((char *)*v + *n * size, rec, size);
	size_t j = pl_ht_find(t, hash, same, rec, c);
	pl_ht_put(t, j, hash, (const void *)(uintptr_t)++*n);
	return PL_OK;
}

/* ---- messages ---------------------------------------------------------- */

/* "%v = op in @f" (or "op in @f"), and where it stands when it was built
 * by a pass and has no source location. */
static void describe(const pl_inst *inst, char *buf, size_t len)
{
	const pl_func *f = pl_inst_func(inst);
	const char *name = pl_inst_num_results(inst) ? pl_value_name(pl_inst_result(inst, 0))
	                                             : NULL;
	int n = snprintf(buf, len, "%s%s%s%s in @%s", name ? "%" : "", name ? name : "",
	                 name ? " = " : "", pl_inst_opname(inst), pl_func_name(f));
	if (pl_inst_line(inst) == 0 && n > 0 && (size_t)n < len) {
		size_t k = 1;
		for (const pl_inst *i = pl_func_first_inst(f); i && i != inst; i = pl_inst_next(i))
			k++;
		snprintf(buf + n, len - (size_t)n, " (instruction %zu)", k);
	}
}

/* Explains why the dynamic instances of inst could not be counted. */
static int count_error(pl_pass_ctx *ctx, const pl_inst *inst, int rc, const char *detail)
{
	char what[256];
	describe(inst, what, sizeof what);
	switch (rc) {
	case PL_ELIMIT:
		pl_ctx_error(ctx, inst,
		             "cannot count the predicated domain of %s: it would walk more than "
		             "%llu points of its outer indices (PL_COUNT_MAX_ENUMERATION)",
		             what, (unsigned long long)PL_COUNT_MAX_ENUMERATION);
		break;
	case PL_EOVERFLOW:
		pl_ctx_error(ctx, inst, "cannot count the dynamic instances of %s: %s", what,
		             detail ? detail : "more than INT64_MAX");
		break;
	default:
		pl_ctx_error(ctx, inst, "cannot count the dynamic instances of %s: %s", what,
		             detail ? detail : pl_status_string(rc));
		break;
	}
	return rc;
}

/* ---- counting ----------------------------------------------------------- */

/* The parsed constraint for an interned string s of len bytes. */
static int constraint_for(pl_pass_ctx *ctx, struct cache *c, const pl_inst *inst,
                          const char *s, size_t len, size_t rank, const pl_constraint **out)
{
	struct cons_rec rec = {s, rank, NULL};
	uint32_t hash = cons_hash(s, rank);
	const void *known = pl_ht_get(&c->cons_index, hash, same_cons, &rec, c);
	if (known) {
		*out = c->cons[(uintptr_t)known - 1].c;
		return PL_OK;
	}
	pl_constraint *k = NULL;
	size_t col = 0;
	const char *msg = NULL;
	int rc = pl_constraint_parse(s, len, rank, &k, &col, &msg);
	if (rc == PL_EPARSE) {
		char detail[512];
		snprintf(detail, sizeof detail, "predicate \"%s\", column %zu: %s", s, col,
		         msg ? msg : "syntax error");
		return count_error(ctx, inst, rc, detail);
	}
	if (rc)
		return count_error(ctx, inst, rc, NULL);
	rec.c = k;
	rc = remember(c, &c->cons_index, (void **)&c->cons, &c->ncons, &c->cons_cap, &rec,
	              sizeof rec, hash, same_cons);
	if (rc) {
		pl_constraint_free(k);
		return count_error(ctx, inst, rc, NULL);
	}
	*out = k;
	return PL_OK;
}

/* masked_dynamic_instances of an instruction with a predicate. */
static int masked_count(pl_pass_ctx *ctx, struct cache *c, const pl_inst *inst,
                        const pl_attr *dom, const pl_attr *pred, uint64_t *out)
{
	if (!dom || pl_attr_get_kind(dom) != PL_ATTR_LIST ||
	    pl_attr_get_kind(pred) != PL_ATTR_LIST)
		return count_error(ctx, inst, PL_ETYPE,
		                   "'predicate' needs a 'domain', and both must be lists");
	struct count_rec key = {
		.dom = pl_attr_list_at(dom, 0),
		.pred = pl_attr_list_at(pred, 0),
		.dom_len = pl_attr_list_size(dom),
		.pred_len = pl_attr_list_size(pred),
	};
	uint32_t hash = count_hash(&key);
	const void *known = pl_ht_get(&c->counts_index, hash, same_count, &key, c);
	if (known) {
		*out = c->counts[(uintptr_t)known - 1].n;
		return PL_OK;
	}

	size_t rank = key.dom_len;
	if (rank > PL_MAX_RANK)
		return count_error(ctx, inst, PL_EINVAL, "'domain' has more than 64 dimensions");
	int64_t extents[PL_MAX_RANK];
	for (size_t k = 0; k < rank; k++) {
		const pl_attr *e = pl_attr_list_at(dom, k);
		if (pl_attr_get_kind(e) != PL_ATTR_INT || pl_attr_get_int(e) < 0)
			return count_error(ctx, inst, PL_ETYPE,
			                   "'domain' must list integers >= 0");
		extents[k] = pl_attr_get_int(e);
	}
	size_t ncs = key.pred_len;
	if (ncs > c->scratch_cap) {
		const pl_constraint **v = realloc(c->scratch, ncs * sizeof *v);
		if (!v)
			return count_error(ctx, inst, PL_ENOMEM, NULL);
		c->scratch = v;
		c->scratch_cap = ncs;
	}
	for (size_t k = 0; k < ncs; k++) {
		const pl_attr *s = pl_attr_list_at(pred, k);
		if (pl_attr_get_kind(s) != PL_ATTR_STRING)
			return count_error(ctx, inst, PL_ETYPE, "'predicate' must list strings");
		size_t len;
		const char *text = pl_attr_get_string(s, &len);
		int rc = constraint_for(ctx, c, inst, text, len, rank, &c->scratch[k]);
		if (rc)
			return rc;
	}
	uint64_t n;
	int rc = pl_domain_count(extents, rank, c->scratch, ncs, &n);
	if (rc)
		return count_error(ctx, inst, rc,
		                   rc == PL_EOVERFLOW ? "its predicated domain has more than "
		                                        "INT64_MAX points"
		                                      : NULL);
	key.n = n;
	rc = remember(c, &c->counts_index, (void **)&c->counts, &c->ncounts, &c->counts_cap, &key,
	              sizeof key, hash, same_count);
	if (rc)
		return count_error(ctx, inst, rc, NULL);
	*out = n;
	return PL_OK;
}

/* ---- the pass ------------------------------------------------------------ */

struct totals {
	u128 flops, bytes;
};

/* Explains that *total + factor x n would pass 2^128 - 1. unit names the
 * factor ("flops", "bytes"). */
static int overflow_error(pl_pass_ctx *ctx, const pl_inst *inst, const u128 *total,
                          uint64_t factor, uint64_t n, const char *stat, const char *unit)
{
	u128 a = (u128)factor * n;
	char what[256], sofar[PL_U128_DEC_BUFSIZE], add[PL_U128_DEC_BUFSIZE];
	describe(inst, what, sizeof what);
	pl_ctx_error(ctx, inst,
	             "%s overflows 128 bits at %s: %s + %s (%llu %s x %llu dynamic instances) "
	             "> 2^128 - 1",
	             stat, what,
	             pl_u128_format((uint64_t)(*total >> 64), (uint64_t)*total, sofar),
	             pl_u128_format((uint64_t)(a >> 64), (uint64_t)a, add),
	             (unsigned long long)factor, unit, (unsigned long long)n);
	return PL_EOVERFLOW;
}

/* Adds factor x n to *total, or explains that the total would pass
 * 2^128 - 1. */
static inline int add_exact(pl_pass_ctx *ctx, const pl_inst *inst, u128 *total,
                            uint64_t factor, uint64_t n, const char *stat, const char *unit)
{
	u128 a = (u128)factor * n;
	if (a <= ~(u128)0 - *total) {
		*total += a;
		return PL_OK;
	}
	return overflow_error(ctx, inst, total, factor, n, stat, unit);
}

/* The facts of inst's dictionary attrs. */
static int dict_facts(pl_pass_ctx *ctx, struct cache *c, const pl_inst *inst,
                      const pl_attrs *attrs, struct dict_facts *out)
{
	struct dict_facts f = {0};
	const pl_attr *pred = attr_key_get(&c->predicate, attrs);
	const pl_attr *dom = attr_key_get(&c->domain, attrs);
	int rc = PL_OK;
	if (pred) {
		rc = masked_count(ctx, c, inst, dom, pred, &f.n);
		f.n_known = true;
	} else if (dom || attr_key_get(&c->num_dynamic_instances, attrs)) {
		rc = pl_inst_num_dynamic_instances(inst, &f.n);
		if (rc)
			rc = count_error(ctx, inst, rc, NULL);
		f.n_known = true;
	}
	if (rc)
		return rc;
	f.has_flops = attr_key_get(&c->flops, attrs) != NULL;
	*out = f;
	return PL_OK;
}

static int visit(pl_pass_ctx *ctx, struct cache *c, struct totals *t, const pl_inst *inst)
{
	const pl_attrs *attrs = pl_inst_attrs_const(inst);
	size_t nattrs = pl_attrs_count(attrs);
	struct dict_facts f = {0};
	int rc;
	if (nattrs &&
	    (rc = dict_facts(ctx, c, inst, attrs, &f)))
		return rc;
	uint64_t n = f.n;
	if (!f.n_known) {
		/* the count comes from the result's (or operand's) type */
		rc = pl_inst_num_dynamic_instances(inst, &n);
		if (rc)
			return count_error(ctx, inst, rc, NULL);
	}

	pl_op op = pl_inst_op(inst);
	bool known_op = (unsigned)op < PL_OP__COUNT;
	unsigned traits = known_op ? c->traits[op] : pl_op_traits(op);
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE)) {
		const pl_value *v = traits & PL_TRAIT_LOAD
		                          ? (pl_inst_num_results(inst) ? pl_inst_result(inst, 0) : NULL)
		                          : (pl_inst_num_operands(inst) ? pl_inst_operand(inst, 0) : NULL);
		if (!v)
			return count_error(ctx, inst, PL_EINVAL,
			                   traits & PL_TRAIT_LOAD ? "a load without a result"
			                                          : "a store without a stored value");
		unsigned size = pl_dtype_size(pl_type_dtype(pl_value_type(v)));
		return add_exact(ctx, inst, &t->bytes, size, n, "Total_bytes_moved", "bytes");
	}
	int64_t flops;
	if (f.has_flops || !known_op) {
		rc = pl_inst_flops(inst, &flops);
		if (rc)
			return count_error(ctx, inst, rc, "'flops' must be an integer >= 0");
	} else {
		flops = c->default_flops[op]; /* what pl_inst_flops gives without the attribute */
	}
	return add_exact(ctx, inst, &t->flops, (uint64_t)flops, n, "Total_flops", "flops");
}

static int detail_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	struct cache cache;
	memset(&cache, 0, sizeof cache);
	cache.predicate.name = "predicate";
	cache.domain.name = "domain";
	cache.num_dynamic_instances.name = "num_dynamic_instances";
	cache.flops.name = "flops";
	for (int op = 0; op < PL_OP__COUNT; op++) {
		cache.traits[op] = pl_op_traits((pl_op)op);
		cache.default_flops[op] = pl_op_default_flops((pl_op)op);
	}
	struct totals t = {0, 0};
	int rc = PL_OK;
	for (size_t fi = 0; fi < pl_module_num_funcs(m) && rc == PL_OK; fi++)
		for (const pl_inst *inst = pl_func_first_inst(pl_module_func_at(m, fi));
		     inst && rc == PL_OK; inst = pl_inst_next(inst))
			rc = visit(ctx, &cache, &t, inst);
	cache_free(&cache);
	if (rc)
		return rc;

	char flops[PL_U128_DEC_BUFSIZE], bytes[PL_U128_DEC_BUFSIZE];
	pl_u128_format((uint64_t)(t.flops >> 64), (uint64_t)t.flops, flops);
	pl_u128_format((uint64_t)(t.bytes >> 64), (uint64_t)t.bytes, bytes);
	rc = pl_ctx_stat_add_wide(ctx, "Total_flops", (uint64_t)(t.flops >> 64),
	                          (uint64_t)t.flops);
	if (rc == PL_OK)
		rc = pl_ctx_stat_add_wide(ctx, "Total_bytes_moved", (uint64_t)(t.bytes >> 64),
		                          (uint64_t)t.bytes);
	if (rc == PL_OK)
		rc = pl_ctx_report(ctx, "Total flops: %s", flops);
	if (rc == PL_OK)
		rc = pl_ctx_report(ctx, "Total bytes moved: %s", bytes);
	if (rc)
		pl_ctx_error(ctx, NULL, "cannot record the totals: %s", pl_status_string(rc));
	return rc;
}

static const pl_pass_desc detail_pass = {
	PL_PASS_DESC_INIT,
	.name = "DetailDynInst",
	.summary = "Exact Total_flops and Total_bytes_moved over the module, honouring "
	           "domains and predicate masks (changes nothing).",
	.stats = detail_stats,
	.run = detail_run,
};

PL_PLUGIN_DEFINE("DetailDynInst", PACKAGE_VERSION, "MIT",
                 "Exact dynamic FLOP and byte counts.", &detail_pass)
