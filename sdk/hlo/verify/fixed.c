/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/fixed.c — the ops whose value XLA's verifier fixes
 * outright: ids are u32[], after-all a token, add-dependency and
 * opt-barrier their (first) operand, copy-start (operand, operand, u32[])
 * and copy-done the first, get-dimension-size s32[] of a dimension of its
 * operand, set-dimension-size its operand, given an s32[] size;
 * rng-get-and-update-state u64[2]; infeed and outfeed take a token.
 * Values are leaves: a tuple is its leaves, in order. */
#include "hlo/verify/checks.h"

/* Operand leaves k0.. are the result's leaves r0.. (n of them). */
static bool results_are_operands(struct hv *v, const char *opc, size_t r0, size_t k0, size_t n,
                                 const char *what)
{
	for (size_t k = 0; k < n; k++)
		if (!hv_value_is(v, opc, r0 + k, hv_op_type(v->at, k0 + k), what))
			return false;
	return true;
}

/* partition-id, replica-id */
bool hv_id(struct hv *v)
{
	const char *opc = v->opc;
	return hv_want_operands(v, opc, 0) && hv_count_is(v, opc, 1, "u32[]") &&
	       hv_scalar_is(v, opc, false, 0, PL_DTYPE_U32, "the value");
}

bool hv_after_all(struct hv *v)
{
	const char *opc = v->opc;
	return hv_count_is(v, opc, 1, "token[]") &&
	       hv_scalar_is(v, opc, false, 0, PL_DTYPE_TOKEN, "the value");
}

bool hv_add_dependency(struct hv *v)
{
	const char *opc = v->opc;
	return hv_want_operands(v, opc, 2) &&
	       hv_scalar_is(v, opc, true, 1, PL_DTYPE_TOKEN, "operand 1") &&
	       hv_count_is(v, opc, 1, "its first operand's") &&
	       results_are_operands(v, opc, 0, 0, 1, "the shape of its first operand");
}

bool hv_opt_barrier(struct hv *v)
{
	const char *opc = v->opc;
	size_t n = pl_inst_num_operands(v->at);
	return hv_count_is(v, opc, n, "its operand's") &&
	       results_are_operands(v, opc, 0, 0, n, "the shape of its operand");
}

bool hv_copy_start(struct hv *v)
{
	const char *opc = v->opc;
	size_t n = pl_inst_num_operands(v->at);
	return hv_count_is(v, opc, 2 * n + 1, "(operand, operand, u32[])") &&
	       results_are_operands(v, opc, 0, 0, n, "the shape of its operand") &&
	       results_are_operands(v, opc, n, 0, n, "the shape of its operand") &&
	       hv_scalar_is(v, opc, false, 2 * n, PL_DTYPE_U32, "the context");
}

bool hv_copy_done(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i), nr = pl_inst_num_results(i);
	return (n == 2 * nr + 1 ||
	        hv_bad(v, "copy-done '%s' has %zu values for an operand of %zu: expected the "
	                  "first of its copy-start's (operand, operand, u32[])",
	               hv_name(i), nr, n)) &&
	       results_are_operands(v, v->opc, 0, 0, nr, "the shape its copy-start copies");
}

bool hv_get_dimension_size(struct hv *v)
{
	const char *opc = v->opc;
	int64_t d[MAX_LIST];
	int nd = hv_list(v, HK(DIMENSIONS), d);
	return hv_want_operands(v, opc, 1) && nd != -1 &&
	       (nd != 1 || hv_dims_in(v, HK(DIMENSIONS), d, 1, hv_op_type(v->at, 0)->rank)) &&
	       hv_count_is(v, opc, 1, "s32[]") &&
	       hv_scalar_is(v, opc, false, 0, PL_DTYPE_I32, "the value");
}

bool hv_set_dimension_size(struct hv *v)
{
	const char *opc = v->opc;
	const pl_inst *i = v->at;
	return hv_want_operands(v, opc, 2) &&
	       hv_scalar_is(v, opc, true, 1, PL_DTYPE_I32, "the size") &&
	       hv_count_is(v, opc, 1, "its operand's") &&
	       (hv_same_dims(pl_value_type(pl_inst_result(i, 0)), hv_op_type(i, 0)) ||
	        hv_dims_are(v, "the result", pl_value_type(pl_inst_result(i, 0)),
	                    hv_op_type(i, 0)));
}

bool hv_rng_state(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t nr = pl_inst_num_results(i);
	const pl_type *r = nr == 1 ? pl_value_type(pl_inst_result(i, 0)) : NULL;
	if (hv_want_operands(v, v->opc, 0) &&
	    (!r || r->dtype != PL_DTYPE_U64 || r->rank != 1 || r->dims[0] != 2))
		return hv_bad(v, "rng-get-and-update-state '%s' is not u64[2]: expected its state",
		              hv_name(i));
	return v->rc == PL_OK;
}

bool hv_infeed(struct hv *v)
{
	const char *opc = v->opc;
	size_t n = pl_inst_num_operands(v->at), nr = pl_inst_num_results(v->at);
	return (n ? hv_scalar_is(v, opc, true, n - 1, PL_DTYPE_TOKEN, "the operand")
	          : hv_want_operands(v, opc, 1)) &&
	       (nr ? hv_scalar_is(v, opc, false, nr - 1, PL_DTYPE_TOKEN, "the last value")
	           : hv_count_is(v, opc, 1, "(data, token[])"));
}

bool hv_outfeed(struct hv *v)
{
	const char *opc = v->opc;
	size_t n = pl_inst_num_operands(v->at);
	return (n ? hv_scalar_is(v, opc, true, n - 1, PL_DTYPE_TOKEN, "the last operand")
	          : hv_want_operands(v, opc, 2)) &&
	       hv_count_is(v, opc, 1, "token[]") &&
	       hv_scalar_is(v, opc, false, 0, PL_DTYPE_TOKEN, "the value");
}
