/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/reduce.c — the rules of the ops that apply a computation
 * to elements: reduce (one or several inputs: their shapes, the
 * dimensions, the result, the reducer's signature), map (operands of one
 * shape, a computation taking one scalar per operand) and sort (operands
 * of one shape, a comparator). Tuples reach here as their leaves. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

#include <stdio.h>

/* Element types XLA takes as compatible in a reducer's signature: equal,
 * or both floating point (it ignores floating-point precision there). */
static bool compatible(pl_dtype a, pl_dtype b)
{
	const char *na = pl_dtype_name(a), *nb = pl_dtype_name(b);
	bool fa = na && (na[0] == 'f' || !strcmp(na, "bf16"));
	bool fb = nb && (nb[0] == 'f' || !strcmp(nb, "bf16"));
	return a == b || (fa && fb);
}

/* The reducer of n inputs takes n accumulators (of the initial values'
 * types) then n input elements, all scalars, and returns n scalars. */
static bool reducer_fits(struct hv *v, const pl_func *f, size_t n)
{
	const pl_inst *i = v->at;
	if (pl_func_num_args(f) != 2 * n)
		return hv_bad(v, "reduce '%s' has %zu inputs but its reducer '%s' takes %zu parameters: "
		                 "expected %zu",
		              hv_name(i), n, pl_func_name(f), pl_func_num_args(f), 2 * n);
	for (size_t k = 0; k < 2 * n; k++) {
		const pl_type *p = pl_value_type(pl_func_arg(f, k));
		if (p->rank)
			return hv_bad(v, "the reducer '%s' of '%s' takes a non-scalar parameter %zu",
			              pl_func_name(f), hv_name(i), k);
		pl_dtype want = hv_op_type(i, k < n ? n + k : k - n)->dtype;
		if (!compatible(p->dtype, want))
			return hv_bad(v, "parameter %zu of the reducer '%s' of '%s' is %s[]: expected %s[], "
			                 "the element type of its %s %zu",
			              k, pl_func_name(f), hv_name(i), pl_hlo_dtype_name_(p->dtype),
			              pl_hlo_dtype_name_(want), k < n ? "initial value" : "input", k % n);
	}
	const pl_inst *r = hv_returned(f);
	if (!r)
		return true;
	if (pl_inst_num_operands(r) != n)
		return hv_bad(v, "the reducer '%s' of '%s' returns %zu values: expected %zu, one per "
		                 "input",
		              pl_func_name(f), hv_name(i), pl_inst_num_operands(r), n);
	for (size_t k = 0; k < n; k++)
		if (hv_op_type(r, k)->rank)
			return hv_bad(v, "the reducer '%s' of '%s' returns a non-scalar value %zu",
			              pl_func_name(f), hv_name(i), k);
	return true;
}

/* Each result of reduce has the input's dimensions but the reduced ones. */
static bool reduced_shape(struct hv *v, const pl_type *a, const int64_t *d, int nd, size_t n)
{
	const pl_inst *i = v->at;
	bool gone[MAX_LIST] = {false};
	if (a->rank > MAX_LIST)
		return true;
	for (int k = 0; k < nd; k++) {
		if (gone[d[k]])
			return hv_bad(v, "reduce '%s' names dimension %lld twice in dimensions=",
			              hv_name(i), (long long)d[k]);
		gone[d[k]] = true;
	}
	if (pl_inst_num_results(i) != n)
		return hv_bad(v, "reduce '%s' has %zu results: expected %zu, one per input", hv_name(i),
		              pl_inst_num_results(i), n);
	for (size_t k = 0; k < n; k++) {
		const pl_type *r = pl_value_type(pl_inst_result(i, k));
		uint32_t o = 0;
		bool fits = r->rank == a->rank - (uint32_t)nd;
		for (uint32_t e = 0; e < a->rank && fits; e++)
			if (!gone[e])
				fits = r->dims[o++] == a->dims[e];
		if (!fits) {
			struct hv_two ty = hv_types(r, a);
			return hv_bad(v, "reduce '%s': result %zu is %s: expected the dimensions of %s "
			                 "without the %d reduced",
			              hv_name(i), k, ty.a, ty.b, nd);
		}
	}
	return true;
}

/* reduce: inputs of one shape and as many scalar initial values, the
 * dimensions in the inputs' range, the result, the reducer. */
bool hv_reduce(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (n < 2 || n % 2)
		return hv_bad(v, "reduce '%s' has %zu operands: expected inputs and as many initial "
		                 "values",
		              hv_name(i), n);
	int64_t d[MAX_LIST];
	int nd = hv_list(v, HK(DIMENSIONS), d);
	if (nd == -1)
		return false;
	const pl_type *a = hv_op_type(i, 0);
	for (int k = 0; k < nd; k++)
		if (d[k] < 0 || (uint64_t)d[k] >= a->rank || d[k] >= MAX_LIST)
			return hv_bad(v, "dimensions={..%lld..} of '%s' is not a dimension of its rank-%u "
			                 "operand",
			              (long long)d[k], hv_name(i), a->rank);
	for (size_t k = 1; k < n / 2; k++)
		if (!hv_dims_are(v, "an input", hv_op_type(i, k), a))
			return false;
	for (size_t k = n / 2; k < n; k++)
		if (hv_op_type(i, k)->rank)
			return hv_bad(v, "initial value %zu of reduce '%s' is not a scalar", k - n / 2,
			              hv_name(i));
	if (nd >= 0 && !reduced_shape(v, a, d, nd, n / 2))
		return false;
	const pl_func *f = hv_callee(v, HK(TO_APPLY), 0);
	return !f || reducer_fits(v, f, n / 2);
}

/* map: operands of one shape, the result of it; the computation takes
 * one scalar per operand, of its element type, and returns a scalar. */
bool hv_map(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	const pl_type *r = RESULT_OF(i);
	if (!n || !r)
		return n || hv_bad(v, "map '%s' has no operands", hv_name(i));
	for (size_t k = 0; k < n; k++)
		if (!hv_dims_are(v, "an operand", hv_op_type(i, k), r))
			return false;
	const pl_func *f = hv_callee(v, HK(TO_APPLY), 0);
	if (!f)
		return true;
	if (pl_func_num_args(f) != n)
		return hv_bad(v, "computation '%s' of map '%s' takes %zu parameters: expected %zu, one "
		                 "per operand",
		              pl_func_name(f), hv_name(i), pl_func_num_args(f), n);
	for (size_t k = 0; k < n; k++) {
		const pl_type *p = pl_value_type(pl_func_arg(f, k));
		if (p->rank || p->dtype != hv_op_type(i, k)->dtype)
			return hv_bad(v, "parameter %zu of computation '%s' of map '%s' is not a scalar of "
			                 "operand %zu's element type",
			              k, pl_func_name(f), hv_name(i), k);
	}
	const pl_inst *ret = hv_returned(f);
	if (ret && (pl_inst_num_operands(ret) != 1 || hv_op_type(ret, 0)->rank))
		return hv_bad(v, "computation '%s' of map '%s' does not return one scalar",
		              pl_func_name(f), hv_name(i));
	return true;
}

/* sort: operands of one shape, dimension in range, a comparator. */
bool hv_sort(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	int64_t d[MAX_LIST];
	int nd = hv_list(v, HK(DIMENSIONS), d);
	if (!n || nd == -1)
		return n != 0;
	const pl_type *a = hv_op_type(i, 0);
	for (size_t k = 1; k < n; k++)
		if (!hv_dims_are(v, "an operand", hv_op_type(i, k), a))
			return false;
	if (nd == 1 && (d[0] < 0 || (uint64_t)d[0] >= a->rank))
		return hv_bad(v, "dimensions={%lld} of sort '%s' is not a dimension of its rank-%u "
		                 "operands",
		              (long long)d[0], hv_name(i), a->rank);
	return hv_scalar_pairs(v, "comparator", 0, n, true);
}
