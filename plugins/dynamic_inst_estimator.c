/* SPDX-License-Identifier: MIT */
/* Contract: reads every instruction's op, num_dynamic_instances and stored value, and the call graph; sets has_reduce and has_copy on functions, nothing else; needs verified IR. */
/* plugins/dynamic_inst_estimator.c — DynamicInstEstimator.
 * Reads: every instruction's op, num_dynamic_instances and stored value.
 * Changes: sets has_reduce / has_copy = true on functions; nothing else.
 *
 * A coarse estimate of the dynamic instruction count: per instruction,
 * n = num_dynamic_instances divided by the elements one
 * hardware instruction handles, 2^23 for a tensor_contract and 2^16 for a
 * load or store (affine or generic), floored per instruction before
 * summing (two loads of 40000 add 0, not 1). The sum, est_inst_count, runs
 * over every function of the module (the seed keeps it in a class
 * attribute, not per function), each function's part times the times it
 * runs from the module's entry (passline/callgraph.h; once each in a
 * module without an entry). Other ops add nothing.
 *
 * Function flags, as the seed sets them: has_reduce when the function has
 * a reduce or rms_norm; has_copy when an affine_store stores (operand 0) the
 * result of an affine_load (not a generic_store, not another value). The
 * pass only ever writes true, as the seed does: an existing flag is
 * replaced in place (keeping its position) when the function shows the
 * pattern, and left as it is (true or false) when it does not. So running
 * the pass twice gives the same module, and a flag a user or an earlier
 * pass set is never cleared.
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>

#include "executions.h"
#include "labels.h"
#include "ptr_map.h"

#define LOAD_STORE_DIVISOR ((uint64_t)1 << 16) /* 65536 */
#define CONTRACT_DIVISOR ((uint64_t)1 << 23)   /* 8388608 */

static const pl_stat_decl estimator_stats[] = {
	PL_STAT("est_inst_count", "Estimated instruction count."),
	PL_STAT_END
};

static int estimate(pl_pass_ctx *ctx, pl_module *m, const pl_callgraph *cg)
{
	u128 total = 0;
	for (size_t fi = 0; fi < pl_module_num_funcs(m); fi++) {
		pl_func *f = pl_module_func_at(m, fi);
		bool has_copy = false, has_reduce = false;
		u128 ftotal = 0; /* this function's, once */
		for (pl_inst *inst = pl_func_first_inst(f); inst; inst = pl_inst_next(inst)) {
			pl_op op = pl_inst_op(inst);
			unsigned traits = pl_inst_traits(inst);
			uint64_t divisor = 0;
			if (op == PL_OP_TENSOR_CONTRACT)
				divisor = CONTRACT_DIVISOR;
			else if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE))
				divisor = LOAD_STORE_DIVISOR;
			if (divisor) {
				uint64_t n;
				int rc = pl_inst_num_dynamic_instances(inst, &n);
				if (rc != PL_OK) {
					char what[256];
					inst_describe(inst, what, sizeof what);
					pl_ctx_error(ctx, inst, "cannot compute num_dynamic_instances of %s: %s",
					             what,
					             rc == PL_EOVERFLOW ? "more than INT64_MAX"
					                                : pl_status_string(rc));
					return rc;
				}
				ftotal += n / divisor;
			}
			if (traits & PL_TRAIT_REDUCE_LIKE)
				has_reduce = true;
			if (op == PL_OP_AFFINE_STORE && pl_inst_num_operands(inst) > 0) {
				const pl_inst *src = pl_value_def(pl_inst_operand(inst, 0));
				if (src && pl_inst_op(src) == PL_OP_AFFINE_LOAD)
					has_copy = true;
			}
		}
		u128 times;
		int rc = executions_of(ctx, cg, f, &times);
		if (rc == PL_OK)
			rc = executions_add(ctx, f, &total, ftotal, times, "est_inst_count");
		if (rc)
			return rc;
		pl_attrs *attrs = pl_func_attrs(f);
		if (has_copy) /* in the seed's order: a new has_copy comes first */
			rc = pl_attrs_set_bool(attrs, "has_copy", true);
		if (rc == PL_OK && has_reduce)
			rc = pl_attrs_set_bool(attrs, "has_reduce", true);
		if (rc != PL_OK) {
			pl_ctx_error(ctx, NULL, "cannot set the flags of @%s: %s", pl_func_name(f),
			             pl_status_string(rc));
			return rc;
		}
	}
	/* each instruction adds at most INT64_MAX / 2^16 < 2^47 per execution;
	 * executions_add refuses a total past 2^128 - 1, and so does the
	 * context */
	int rc = pl_ctx_stat_add_wide(ctx, "est_inst_count", (uint64_t)(total >> 64),
	                              (uint64_t)total);
	if (rc != PL_OK)
		pl_ctx_error(ctx, NULL, "est_inst_count: %s", pl_status_string(rc));
	return rc;
}

static int estimator_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	pl_callgraph *cg = NULL;
	int rc = executions_graph(ctx, m, &cg);
	if (rc == PL_OK)
		rc = estimate(ctx, m, cg);
	pl_callgraph_free(cg);
	return rc;
}

static const pl_option_decl estimator_options[] = {
	EXECUTIONS_OPTION,
	PL_OPTION_END
};

static const pl_pass_desc estimator_pass = {
	PL_PASS_DESC_INIT,
	.options = estimator_options,
	.name = "DynamicInstEstimator",
	.summary = "Estimates the dynamic instruction count (est_inst_count: each function "
	           "times its executions from the entry; a sum over functions, each once, only "
	           "in a module without an entry) and flags copy- and reduce-shaped functions "
	           "(has_copy, has_reduce).",
	.stats = estimator_stats,
	.run = estimator_run,
};

PL_PLUGIN_DEFINE("DynamicInstEstimator", PACKAGE_VERSION, "MIT",
                 "Coarse dynamic instruction estimate.", &estimator_pass)
