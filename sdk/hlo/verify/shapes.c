/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/shapes.c — the rules of the ops that rearrange or
 * combine whole arrays: dot (its dimension numbers and result),
 * broadcast, transpose, reshape, concatenate, convert, iota, select and
 * clamp. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

#include <stdio.h>

/* The extents dot's result has: the batch dimensions (lhs order), then
 * lhs's and rhs's that are neither batch nor contracting. */
static bool dot_result(struct hv *v, const int64_t (*d)[MAX_LIST], const int *nd)
{
	const pl_inst *i = v->at;
	const pl_type *res = RESULT_OF(i);
	if (!res)
		return true;
	int64_t want[2 * MAX_LIST];
	uint32_t n = 0;
	for (int k = 0; k < nd[2]; k++)
		want[n++] = hv_op_type(i, 0)->dims[d[2][k]];
	for (int side = 0; side < 2; side++) {
		const pl_type *t = hv_op_type(i, (size_t)side);
		for (uint32_t j = 0; j < t->rank; j++) {
			bool used = false;
			for (int k = 0; k < nd[side] && !used; k++)
				used = d[side][k] == (int64_t)j;
			for (int k = 0; k < nd[2 + side] && !used; k++)
				used = d[2 + side][k] == (int64_t)j;
			if (!used && n < 2 * MAX_LIST)
				want[n++] = t->dims[j];
		}
	}
	bool same = res->rank == n;
	for (uint32_t j = 0; same && j < n; j++)
		same = res->dims[j] == want[j];
	if (same)
		return true;
	char tr[160], tw[160] = "[";
	size_t k = 1;
	for (uint32_t j = 0; j < n && k < sizeof tw; j++)
		k += (size_t)snprintf(tw + k, sizeof tw - k, "%s%lld", j ? "," : "", (long long)want[j]);
	if (k < sizeof tw)
		snprintf(tw + k, sizeof tw - k, "]");
	hv_type(tr, sizeof tr, res);
	return hv_bad(v, "dot '%s' gives %s: expected the extents %s (batch, lhs free, rhs free)",
	              hv_name(i), tr, tw);
}

/* dot: contracting dimensions and batch dimensions in range, as many on
 * each side, of equal extents; the result's extents. */
bool hv_dot(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 2)
		return hv_bad(v, "dot '%s' takes 2 operands, not %zu", hv_name(i), pl_inst_num_operands(i));
	const pl_type *l = hv_op_type(i, 0), *r = hv_op_type(i, 1);
	int64_t dl[4][MAX_LIST]; /* lhs, rhs contracting; lhs, rhs batch */
	int nl[4];
	const char *const keys[2][2] = {{HK(LHS_CONTRACTING_DIMS), HK(RHS_CONTRACTING_DIMS)},
	                                {HK(LHS_BATCH_DIMS), HK(RHS_BATCH_DIMS)}};
	for (int kind = 0; kind < 2; kind++) {
		int64_t a[MAX_LIST], b[MAX_LIST];
		int na = hv_list(v, keys[kind][0], a), nb = hv_list(v, keys[kind][1], b);
		if (na == -1 || nb == -1)
			return false;
		na = na < 0 ? 0 : na;
		nb = nb < 0 ? 0 : nb;
		memcpy(dl[2 * kind], a, (size_t)na * sizeof *a);
		memcpy(dl[2 * kind + 1], b, (size_t)nb * sizeof *b);
		nl[2 * kind] = na;
		nl[2 * kind + 1] = nb;
		const char *what = kind ? "batch" : "contracting";
		if (na != nb)
			return hv_bad(v, "dot '%s' has %d lhs and %d rhs %s dimensions: expected as many", hv_name(i),
			           na, nb, what);
		for (int k = 0; k < na; k++) {
			if (a[k] < 0 || (uint64_t)a[k] >= l->rank)
				return hv_bad(v, "dot '%s': lhs %s dimension %lld is beyond its rank %u", hv_name(i),
				           what, (long long)a[k], l->rank);
			if (b[k] < 0 || (uint64_t)b[k] >= r->rank)
				return hv_bad(v, "dot '%s': rhs %s dimension %lld is beyond its rank %u", hv_name(i),
				           what, (long long)b[k], r->rank);
			if (l->dims[a[k]] != r->dims[b[k]])
				return hv_bad(v, "dot '%s': lhs %s dimension %lld is %lld, rhs dimension %lld is %lld: "
				              "expected equal extents",
				           hv_name(i), what, (long long)a[k], (long long)l->dims[a[k]],
				           (long long)b[k], (long long)r->dims[b[k]]);
		}
	}
	return dot_result(v, (const int64_t (*)[MAX_LIST])dl, nl);
}

bool hv_broadcast(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return true;
	int64_t d[MAX_LIST];
	int n = hv_list(v, HK(DIMENSIONS), d);
	if (n == -1)
		return false;
	if (n == -2)
		return true;
	const pl_type *a = hv_op_type(i, 0), *r = pl_value_type(pl_inst_result(i, 0));
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "broadcast '%s' has %d dimensions for an operand of rank %u: expected %u",
		           hv_name(i), n, a->rank, a->rank);
	if (!hv_same_elements(a->dtype, r->dtype))
		return hv_bad(v, "broadcast '%s' turns %s elements into %s: expected the same type (or "
		                 "two floating-point ones)",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype), pl_hlo_dtype_name_(r->dtype));
	for (int k = 0; k < n; k++) {
		if (d[k] < 0 || (uint64_t)d[k] >= r->rank)
			return hv_bad(v, "dimensions={..%lld..} of '%s' is not a dimension of its rank-%u result",
			           (long long)d[k], hv_name(i), r->rank);
		if (a->dims[k] != r->dims[d[k]])
			return hv_bad(v, "broadcast '%s': operand dimension %d is %lld, result dimension %lld "
			              "is %lld: expected equal",
			           hv_name(i), k, (long long)a->dims[k], (long long)d[k],
			           (long long)r->dims[d[k]]);
	}
	return true;
}

bool hv_transpose(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return true;
	int64_t d[MAX_LIST];
	int n = hv_list(v, HK(DIMENSIONS), d);
	if (n < 0)
		return n == -2;
	const pl_type *a = hv_op_type(i, 0), *r = pl_value_type(pl_inst_result(i, 0));
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "transpose '%s' has %d dimensions for an operand of rank %u: expected a "
		              "permutation of %u",
		           hv_name(i), n, a->rank, a->rank);
	uint64_t used = 0;
	for (int k = 0; k < n; k++) {
		if (d[k] < 0 || (uint64_t)d[k] >= a->rank || (used >> d[k] & 1))
			return hv_bad(v, "dimensions of transpose '%s' are not a permutation of 0..%u", hv_name(i),
			           a->rank ? a->rank - 1 : 0);
		used |= 1ull << d[k];
		if (r->rank == a->rank && r->dims[k] != a->dims[d[k]])
			return hv_bad(v, "transpose '%s': result dimension %d is %lld, expected %lld", hv_name(i), k,
			           (long long)r->dims[k], (long long)a->dims[d[k]]);
	}
	return true;
}

bool hv_reshape(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return hv_bad(v, "reshape '%s' takes 1 operand", hv_name(i));
	return hv_reshapes(v, "reshape", hv_op_type(i, 0), pl_value_type(pl_inst_result(i, 0)));
}

/* concatenate: operands of the result's rank and element type, equal but
 * in the dimension, whose extents add up to the result's. */
bool hv_concatenate(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	int64_t d[MAX_LIST];
	int nd = hv_list(v, HK(DIMENSIONS), d);
	if (nd == -1)
		return false;
	if (nd != 1 || !n || pl_inst_num_results(i) != 1)
		return true;
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	if (d[0] < 0 || (uint64_t)d[0] >= r->rank)
		return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of its rank-%u result",
		           (long long)d[0], hv_name(i), r->rank);
	int64_t sum = 0;
	for (size_t k = 0; k < n; k++) {
		const pl_type *t = hv_op_type(i, k);
		bool fits = t->rank == r->rank;
		for (uint32_t j = 0; fits && j < t->rank; j++)
			if (j != (uint32_t)d[0] && t->dims[j] != r->dims[j])
				fits = false;
		if (!fits) {
			struct hv_two ty = hv_types(t, r);
			return hv_bad(v, "operand %zu of concatenate '%s' is %s: expected the extents of %s but "
			              "dimension %lld",
			           k, hv_name(i), ty.a, ty.b, (long long)d[0]);
		}
		if (!hv_same_elements(t->dtype, r->dtype))
			return hv_bad(v, "operand %zu of concatenate '%s' has %s elements: expected %s, the "
			                 "result's",
			              k, hv_name(i), pl_hlo_dtype_name_(t->dtype),
			              pl_hlo_dtype_name_(r->dtype));
		sum = hv_add(sum, t->dims[d[0]]);
	}
	if (sum != r->dims[d[0]])
		return hv_bad(v, "concatenate '%s': the operands' dimension %lld adds up to %lld, the "
		              "result's is %lld",
		           hv_name(i), (long long)d[0], (long long)sum, (long long)r->dims[d[0]]);
	return true;
}

/* select(pred, on_true, on_false) and clamp(min, x, max): the middle (or
 * the two branches) of the result's shape, the outer ones of it or scalars. */
static bool select_clamp(struct hv *v, bool is_select)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, is_select ? "select" : "clamp", 3))
		return false;
	if (!r)
		return true;
	if (is_select && hv_op_type(i, 0)->dtype != PL_DTYPE_BOOL)
		return hv_bad(v, "the predicate of select '%s' is not pred: expected a pred array",
		              hv_name(i));
	for (size_t k = 0; !is_select && k < 3; k += 2)
		if (!hv_same_elements(hv_op_type(i, k)->dtype, hv_op_type(i, 1)->dtype))
			return hv_bad(v, "the %s bound of clamp '%s' has %s elements: expected %s, the "
			                 "operand's",
			              k ? "upper" : "lower", hv_name(i),
			              pl_hlo_dtype_name_(hv_op_type(i, k)->dtype),
			              pl_hlo_dtype_name_(hv_op_type(i, 1)->dtype));
	for (size_t k = 0; k < 3; k++) {
		const pl_type *t = hv_op_type(i, k);
		bool value = is_select ? k > 0 : k == 1;
		if (!value && !t->rank)
			continue;
		if (!hv_same_dims(t, r) || (value && t->dtype != r->dtype)) {
			struct hv_two ty = hv_types(t, r);
			return hv_bad(v, "operand %zu of %s '%s' is %s: expected %s%s", k,
			              is_select ? "select" : "clamp", hv_name(i), ty.a, ty.b,
			              value ? "" : " (its dimensions) or a scalar");
		}
	}
	return true;
}

/* iota: an array of numbers, iota_dimension within its rank. */
bool hv_iota(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	int64_t d;
	if (r && !r->rank)
		return hv_bad(v, "iota '%s' is a scalar: expected an array", hv_name(i));
	if (r && (r->dtype == PL_DTYPE_BOOL || r->dtype == PL_DTYPE_TOKEN ||
	          r->dtype == PL_DTYPE_OPAQUE))
		return hv_bad(v, "iota '%s' has %s elements: expected integers, floating-point or "
		                 "complex numbers",
		              hv_name(i), pl_hlo_dtype_name_(r->dtype));
	if (!r || !hv_num_attr(i, HK(IOTA_DIMENSION), &d))
		return true;
	if (d < 0 || (uint64_t)d >= r->rank)
		return hv_bad(v, "iota_dimension=%lld of '%s' is not a dimension of its rank-%u result",
		              (long long)d, hv_name(i), r->rank);
	return true;
}

/* convert keeps the dimensions. */
bool hv_convert(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "convert", 1))
		return false;
	return !r || hv_dims_are(v, "the result", r, hv_op_type(i, 0));
}

bool hv_select(struct hv *v)
{
	return select_clamp(v, true);
}

bool hv_clamp(struct hv *v)
{
	return select_clamp(v, false);
}
