/* SPDX-License-Identifier: MIT */
/* Contract: reads every instruction's domain, predicate, num_dynamic_instances, flops and load/store dtype; changes nothing; adds Total_flops and Total_bytes_moved; needs verified IR. */
/* plugins/detail_dyn_inst.c — DetailDynInst.
 * Reads: every instruction's domain, predicate, num_dynamic_instances,
 * flops and load/store dtype. Changes: nothing; reports two totals.
 *
 * The exact counterpart of DynamicInstEstimator. Per instruction,
 * n = masked_dynamic_instances: the points of `domain` that satisfy every
 * constraint of `predicate` when there is one (counted without enumerating
 * the domain: pl_inst_masked_dynamic_instances), else num_dynamic_instances.
 * A load or store adds n x the size of its dtype (a load's result, a store's stored value)
 * to Total_bytes_moved; every other instruction adds flops x n to
 * Total_flops, flops being the attribute or the op's default, and an
 * instruction read from XLA HLO also adds the bytes of its operands and
 * results to Total_bytes_moved, as the cost model counts them
 * (pl_inst_kernel_bytes: naming ops none, slices and gathers what they
 * read). In a module with an entry each function's totals count times its
 * executions from the entry (passline/callgraph.h, plugins/executions.h);
 * without one, once.
 * The totals are exact unsigned 128-bit integers, reported as
 * "Total flops: N" and "Total bytes moved: N" and kept as the stats of the
 * same names. A product cannot pass 2^127 (both factors are below 2^64 and
 * one below 2^63); a sum that would pass 2^128 - 1 is an error naming the
 * instruction, never a wrapped number. So are a predicate whose count
 * would walk more than PL_COUNT_MAX_ENUMERATION outer points and a domain
 * of more than INT64_MAX points.
 *
 * Speed: the count is pl_inst_masked_dynamic_instances, which every pass
 * shares; pl_module_prepare_counts, first, counts each pair of domain and
 * predicate once (a module of 10^6 instructions repeats a few), and the
 * pass keeps no count of its own: only the four attribute keys the
 * reporting path reads, each found by its interned address once
 * (ptr_map.h's attr_key).
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executions.h"
#include "labels.h"
#include "pass_end.h"
#include "ptr_map.h"

static const pl_stat_decl detail_stats[] = {
	PL_STAT("Total_flops", "Total flops."),
	PL_STAT("Total_bytes_moved", "Total bytes moved."),
	PL_STAT_END
};

/* What the pass derives from an instruction's attribute dictionary: the
 * count when the dictionary decides it (a predicate, an explicit count or
 * a domain), and whether it has a flops attribute. Only successes are
 * recorded; an instruction whose count fails is reported where it is. */
struct dict_facts {
	bool n_known, has_flops;
	uint64_t n;
};

/* The keys visit_reporting reads, each found by its address once. */
struct dict_keys {
	struct attr_key predicate, domain, num_dynamic_instances, flops;
};

/* ---- messages ---------------------------------------------------------- */

/* Explains why the dynamic instances of inst could not be counted. */
static int count_error(pl_pass_ctx *ctx, const pl_inst *inst, int rc, const char *detail)
{
	char what[256];
	inst_describe(inst, what, sizeof what);
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

/* What a failed predicated count means, where the status alone does not
 * say it (the verifier rejects these first; a pass may still make them),
 * written into buf. */
static const char *masked_detail(int rc, const pl_attr *dom, const pl_attr *pred, char *buf,
                                 size_t len)
{
	switch (rc) {
	case PL_EOVERFLOW: return "its predicated domain has more than INT64_MAX points";
	case PL_ETYPE: return "'domain' must list integers and 'predicate' strings";
	case PL_EINVAL: return "'domain' must list integers >= 0";
	case PL_ELIMIT:
		return pl_attr_list_size(dom) > PL_MAX_RANK ? "'domain' has more than 64 dimensions"
		                                            : NULL;
	case PL_EPARSE:
		for (size_t k = 0; k < pl_attr_list_size(pred); k++) {
			size_t n, col = 0;
			const char *text = pl_attr_get_string(pl_attr_list_at(pred, k), &n), *msg = NULL;
			pl_constraint *c = NULL;
			if (pl_constraint_parse(text, n, pl_attr_list_size(dom), &c, &col, &msg) ==
			    PL_OK) {
				pl_constraint_free(c);
				continue;
			}
			snprintf(buf, len, "predicate \"%s\", column %zu: %s", text, col,
			         msg ? msg : "syntax error");
			return buf;
		}
		return NULL;
	default: return NULL;
	}
}

/* masked_dynamic_instances of an instruction with a predicate. */
static int masked_count(pl_pass_ctx *ctx, const pl_inst *inst, const pl_attr *dom,
                        const pl_attr *pred, uint64_t *out)
{
	if (!dom || pl_attr_get_kind(dom) != PL_ATTR_LIST ||
	    pl_attr_get_kind(pred) != PL_ATTR_LIST)
		return count_error(ctx, inst, PL_ETYPE,
		                   "'predicate' needs a 'domain', and both must be lists");
	uint64_t n;
	char detail[512];
	int rc = pl_inst_masked_dynamic_instances(inst, &n);
	if (rc)
		return count_error(ctx, inst, rc, masked_detail(rc, dom, pred, detail, sizeof detail));
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
	inst_describe(inst, what, sizeof what);
	pl_ctx_error(ctx, inst,
	             "%s overflows 128 bits at %s: %s + %s (%llu %s x %llu dynamic instances) "
	             "> 2^128 - 1",
	             stat, what,
	             u128_format(*total, sofar),
	             u128_format(a, add),
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
static int dict_facts(pl_pass_ctx *ctx, struct dict_keys *c, const pl_inst *inst,
                      const pl_attrs *attrs, struct dict_facts *out)
{
	struct dict_facts f = {0};
	const pl_attr *pred = attr_key_get(&c->predicate, attrs);
	const pl_attr *dom = attr_key_get(&c->domain, attrs);
	int rc = PL_OK;
	if (pred) {
		rc = masked_count(ctx, inst, dom, pred, &f.n);
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

/* The value whose dtype a load or store moves: a load's result, a store's
 * stored value (operand 0); NULL when it has none. */
static const pl_value *moved_value(const pl_inst *inst, unsigned traits)
{
	if (traits & PL_TRAIT_LOAD)
		return pl_inst_num_results(inst) ? pl_inst_result(inst, 0) : NULL;
	return pl_inst_num_operands(inst) ? pl_inst_operand(inst, 0) : NULL;
}

/* Byte by byte, in place: asked of every instruction's op name and keys,
 * and most differ at the first byte. */
static inline bool prefixed(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return false;
	return true;
}

/* An instruction read from XLA HLO: an hlo.* op, or a known op (a dot's
 * tensor_contract, a collective) with the attributes the reader keeps. */
static bool from_hlo(const pl_inst *inst)
{
	if (pl_inst_is_hlo(inst))
		return true;
	const pl_attrs *d = pl_inst_attrs_const(inst);
	for (size_t i = 0, n = pl_attrs_count(d); i < n; i++)
		if (prefixed(pl_attrs_key_at(d, i), "hlo_"))
			return true;
	return false;
}

/* An HLO op moves the bytes of its operands and results, as the cost
 * model counts them (pl_inst_kernel_bytes); a .pir op that computes moves
 * none (only loads and stores do). */
static int add_kernel_bytes(pl_pass_ctx *ctx, struct totals *t, const pl_inst *inst,
                            unsigned traits)
{
	if ((traits & (PL_TRAIT_TERMINATOR | PL_TRAIT_COLLECTIVE_DONE)) || !from_hlo(inst))
		return PL_OK;
	uint64_t bytes;
	int rc = pl_inst_kernel_bytes(inst, &bytes);
	if (rc)
		return count_error(ctx, inst, rc, "its operands' and results' bytes");
	return add_exact(ctx, inst, &t->bytes, bytes, 1, "Total_bytes_moved", "bytes");
}

/* visit, the way that explains a failure: the dictionary read key by
 * key, so the message says which attribute is wrong. */
static int visit_reporting(pl_pass_ctx *ctx, struct dict_keys *c, struct totals *t,
                           const pl_inst *inst)
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
	unsigned traits = pl_inst_traits(inst);
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE)) {
		const pl_value *v = moved_value(inst, traits);
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
		flops = pl_op_default_flops(op); /* what pl_inst_flops gives without the attribute */
	}
	rc = add_exact(ctx, inst, &t->flops, (uint64_t)flops, n, "Total_flops", "flops");
	return rc ? rc : add_kernel_bytes(ctx, t, inst, traits);
}

/* Adds inst's flops or bytes to t. The count and the flops come from the
 * SDK, which finds the reserved keys of a dictionary by their interned
 * addresses in one call each (no key compared as a string, no lookup of a
 * key the module does not have); only an instruction whose count or flops
 * fail goes through visit_reporting, which reports it as it always did. */
static int visit(pl_pass_ctx *ctx, struct dict_keys *c, struct totals *t, const pl_inst *inst)
{
	uint64_t n;
	if (pl_inst_masked_dynamic_instances(inst, &n) != PL_OK)
		return visit_reporting(ctx, c, t, inst);
	unsigned traits = pl_inst_traits(inst);
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE)) {
		const pl_value *v = moved_value(inst, traits);
		if (!v)
			return visit_reporting(ctx, c, t, inst);
		unsigned size = pl_dtype_size(pl_type_dtype(pl_value_type(v)));
		return add_exact(ctx, inst, &t->bytes, size, n, "Total_bytes_moved", "bytes");
	}
	int64_t flops;
	if (pl_inst_flops(inst, &flops) != PL_OK)
		return visit_reporting(ctx, c, t, inst);
	int rc = add_exact(ctx, inst, &t->flops, (uint64_t)flops, n, "Total_flops", "flops");
	return rc ? rc : add_kernel_bytes(ctx, t, inst, traits);
}

static int detail_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	struct dict_keys keys = {{"predicate", NULL},
	                         {"domain", NULL},
	                         {"num_dynamic_instances", NULL},
	                         {"flops", NULL}};
	struct totals t = {0, 0};
	/* every pair counted once, here, not on each instruction that has it */
	int rc = pl_module_prepare_counts(m);
	if (rc)
		return pass_end_report(ctx, rc, "count");
	pl_callgraph *cg = NULL;
	if ((rc = executions_graph(ctx, m, &cg)))
		return rc;
	bool weighed = pl_callgraph_entry(cg) != NULL;
	for (size_t fi = 0; fi < pl_module_num_funcs(m) && rc == PL_OK; fi++) {
		/* without an entry every function counts once, summed as it goes;
		 * with one, each function's totals times its executions */
		const pl_func *f = pl_module_func_at(m, fi);
		struct totals ft = {0, 0};
		struct totals *into = weighed ? &ft : &t;
		for (const pl_inst *inst = pl_func_first_inst(f); inst && rc == PL_OK;
		     inst = pl_inst_next(inst))
			rc = visit(ctx, &keys, into, inst);
		u128 times = 0;
		if (rc == PL_OK && weighed && (rc = executions_of(ctx, cg, f, &times)) == PL_OK &&
		    (rc = executions_add(ctx, f, &t.flops, ft.flops, times, "Total_flops")) == PL_OK)
			rc = executions_add(ctx, f, &t.bytes, ft.bytes, times, "Total_bytes_moved");
	}
	pl_callgraph_free(cg);
	if (rc)
		return rc;

	char flops[PL_U128_DEC_BUFSIZE], bytes[PL_U128_DEC_BUFSIZE];
	u128_format(t.flops, flops);
	u128_format(t.bytes, bytes);
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

static const pl_option_decl detail_options[] = {
	EXECUTIONS_OPTION,
	PL_OPTION_END
};

static const pl_pass_desc detail_pass = {
	PL_PASS_DESC_INIT,
	.options = detail_options,
	.name = "DetailDynInst",
	.summary = "Exact Total_flops and Total_bytes_moved over the module, honouring "
	           "domains and predicate masks, each function times its executions from the "
	           "entry (a sum over functions, each once, only in a module without an "
	           "entry); changes nothing.",
	.stats = detail_stats,
	.run = detail_run,
	.flags = PL_PASS_READ_ONLY, /* reports only */
};

PL_PLUGIN_DEFINE("DetailDynInst", PACKAGE_VERSION, "MIT",
                 "Exact dynamic FLOP and byte counts.", &detail_pass)
