/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_verify_ops.c — the verifier's rules for slices, selects,
 * conversions, iota, pad, gather and the computations while, conditional,
 * fusion and call run: their parameters against the operands, their
 * results against the instruction's. Tuples reach here as their leaves
 * (the reader gives a tuple-shaped value one IR value per leaf), so a
 * signature is checked leaf by leaf, in order. */
#include "hlo/verify/hv.h"

#include "hlo/hlo.h"

#include <stdio.h>

/* The value of key, a number; false (and *x untouched) when absent. */
bool hv_num_attr(const pl_inst *i, const char *key, int64_t *x)
{
	size_t len;
	const char *s = hv_str(i, key, &len);
	int64_t one[MAX_LIST];
	if (!s || hv_ints(s, len, one) != 1)
		return false;
	*x = one[0];
	return true;
}

bool hv_same_type(const pl_type *a, const pl_type *b)
{
	return a->dtype == b->dtype && hv_same_dims(a, b);
}

bool hv_value_is(struct hv *v, const char *opc, size_t k, const pl_type *want, const char *what)
{
	const pl_type *got = pl_value_type(pl_inst_result(v->at, k));
	if (hv_same_type(got, want))
		return true;
	struct hv_two ty = hv_types(got, want);
	return hv_bad(v, "value %zu of '%s' (%s) is %s: expected %s, %s", k, hv_name(v->at), opc,
	              ty.a, ty.b, what);
}

/* The computation key names (its first name); NULL when there is none
 * (the reader's reference check has already named a missing one). */
const pl_func *hv_callee(const struct hv *v, const char *key, size_t nth)
{
	size_t len, k = 0;
	const char *s = hv_str(v->at, key, &len);
	for (size_t n = 0; s && k < len; n++) {
		while (k < len && (s[k] == '{' || s[k] == '}' || s[k] == ',' || s[k] == ' ' ||
		                   s[k] == '%'))
			k++;
		size_t b = k;
		while (k < len && s[k] != ',' && s[k] != '}' && s[k] != ' ')
			k++;
		if (k == b || k - b >= 256)
			return NULL;
		if (n == nth) {
			char name[256];
			memcpy(name, s + b, k - b);
			name[k - b] = 0;
			return pl_module_find_func(v->m, name);
		}
	}
	return NULL;
}

const pl_inst *hv_returned(const pl_func *f)
{
	const pl_inst *r = pl_func_last_inst(f);
	return r && pl_inst_op(r) == PL_OP_RETURN ? r : NULL;
}

/* f's parameters (as leaves) are the instruction's operands k0..k0+n-1. */
static bool params_fit(struct hv *v, const char *role, const pl_func *f, size_t k0, size_t n)
{
	const pl_inst *i = v->at;
	if (pl_func_num_args(f) != n)
		return hv_bad(v, "%s '%s' of '%s' takes %zu parameter value%s: expected %zu, as its "
		                 "operands give",
		              role, pl_func_name(f), hv_name(i), pl_func_num_args(f),
		              pl_func_num_args(f) == 1 ? "" : "s", n);
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k0 + k), *p = pl_value_type(pl_func_arg(f, k));
		if (!hv_same_type(a, p)) {
			struct hv_two ty = hv_types(a, p);
			return hv_bad(v, "parameter value %zu of %s '%s' is %s: expected %s, as operand value "
			                 "%zu of '%s'",
			              k, role, pl_func_name(f), ty.b, ty.a, k0 + k, hv_name(i));
		}
	}
	return true;
}

/* f returns what the instruction's results are (leaf by leaf). */
static bool returns_fit(struct hv *v, const char *role, const pl_func *f)
{
	const pl_inst *i = v->at, *r = hv_returned(f);
	if (!r)
		return true;
	size_t n = pl_inst_num_results(i);
	if (pl_inst_num_operands(r) != n)
		return hv_bad(v, "%s '%s' of '%s' returns %zu value%s: expected %zu, as its result has",
		              role, pl_func_name(f), hv_name(i), pl_inst_num_operands(r),
		              pl_inst_num_operands(r) == 1 ? "" : "s", n);
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(r, k), *t = pl_value_type(pl_inst_result(i, k));
		if (!hv_same_type(a, t)) {
			struct hv_two ty = hv_types(a, t);
			return hv_bad(v, "%s '%s' of '%s' returns %s as value %zu: expected %s, as the "
			                 "result of '%s'",
			              role, pl_func_name(f), hv_name(i), ty.a, k, ty.b, hv_name(i));
		}
	}
	return true;
}

/* while: the condition takes the loop's values and returns pred[]; the
 * body takes and returns them; the result is the loop's values. */
static bool while_loop(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	const pl_func *c = hv_callee(v, HK(CONDITION), 0), *b = hv_callee(v, HK(BODY), 0);
	if (c) {
		if (!params_fit(v, "condition", c, 0, n))
			return false;
		const pl_inst *r = hv_returned(c);
		if (r && (pl_inst_num_operands(r) != 1 || hv_op_type(r, 0)->rank ||
		          hv_op_type(r, 0)->dtype != PL_DTYPE_BOOL))
			return hv_bad(v, "condition '%s' of while '%s' does not return pred[]: expected a "
			                 "predicate",
			              pl_func_name(c), hv_name(i));
	}
	if (b && !params_fit(v, "body", b, 0, n))
		return false;
	if (pl_inst_num_results(i) == n)
		for (size_t k = 0; k < n; k++)
			if (!hv_same_type(hv_op_type(i, k), pl_value_type(pl_inst_result(i, k)))) {
				struct hv_two ty = hv_types(hv_op_type(i, k), pl_value_type(pl_inst_result(i, k)));
				return hv_bad(v, "while '%s': result value %zu is %s: expected %s, as its "
				                 "operand",
				              hv_name(i), k, ty.b, ty.a);
			}
	return !b || returns_fit(v, "body", b);
}

/* conditional: the index (pred[] for true/false computations, s32[] for a
 * list of branches), then one operand per branch: each branch takes its
 * operand and returns the result. */
static bool conditional(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	bool listed = hv_str(i, HK(BRANCH_COMPUTATIONS), &(size_t){0}) != NULL;
	if (!n)
		return hv_bad(v, "conditional '%s' has no operands: expected an index", hv_name(i));
	const pl_type *x = hv_op_type(i, 0);
	if (x->rank || x->dtype != (listed ? PL_DTYPE_I32 : PL_DTYPE_BOOL)) {
		char tx[160];
		hv_type(tx, sizeof tx, x);
		return hv_bad(v, "the index of conditional '%s' is %s: expected %s", hv_name(i), tx,
		              listed ? "s32[]" : "pred[]");
	}
	size_t k = 1, nb = 0;
	for (;; nb++) {
		const pl_func *b = listed ? hv_callee(v, HK(BRANCH_COMPUTATIONS), nb)
		                   : hv_callee(v, nb ? HK(FALSE_COMPUTATION) : HK(TRUE_COMPUTATION), 0);
		if (!b || (!listed && nb == 2))
			break;
		size_t na = pl_func_num_args(b);
		if (k + na > n)
			return hv_bad(v, "conditional '%s' has no operand for branch %zu '%s': expected one "
			                 "operand per branch after the index",
			              hv_name(i), nb, pl_func_name(b));
		if (!params_fit(v, "branch", b, k, na) || !returns_fit(v, "branch", b))
			return false;
		k += na;
	}
	if (k != n)
		return hv_bad(v, "conditional '%s' has operands left after its %zu branches take theirs: "
		                 "expected one operand per branch after the index",
		              hv_name(i), nb);
	return true;
}

/* fusion and call: the computation takes the operands, returns the result. */
static bool called(struct hv *v, const char *role, const char *key)
{
	const pl_func *f = hv_callee(v, key, 0);
	return !f || (params_fit(v, role, f, 0, pl_inst_num_operands(v->at)) &&
	              returns_fit(v, role, f));
}

bool hv_want_operands(struct hv *v, const char *opc, size_t n)
{
	size_t got = pl_inst_num_operands(v->at);
	if (got == n)
		return true;
	return hv_bad(v, "%s '%s' has %zu operand%s: expected %zu", opc, hv_name(v->at), got,
	              got == 1 ? "" : "s", n);
}

bool hv_dims_are(struct hv *v, const char *what, const pl_type *got, const pl_type *want)
{
	if (hv_same_dims(got, want))
		return true;
	struct hv_two ty = hv_types(got, want);
	return hv_bad(v, "%s of '%s' is %s: expected the dimensions of %s", what, hv_name(v->at), ty.a,
	              ty.b);
}

/* slice={[start:limit:stride], ...}: one per dimension, in bounds; the
 * result's dimension is ceil((limit - start) / stride). */
static bool slice(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t len, k = 0;
	const char *s = hv_str(i, HK(SLICE), &len);
	const pl_type *a, *r = RESULT_OF(i);
	if (!hv_want_operands(v, "slice", 1))
		return false;
	if (!s || !r)
		return true;
	a = hv_op_type(i, 0);
	if (!hv_same_elements(a->dtype, r->dtype))
		return hv_bad(v, "slice '%s' turns %s elements into %s: expected the operand's",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype), pl_hlo_dtype_name_(r->dtype));
	uint32_t d = 0;
	for (; k < len; d++) {
		int64_t x[3] = {0, 0, 1};
		int nx = 0;
		while (k < len && s[k] != '[')
			k++;
		if (k++ >= len)
			break;
		for (; nx < 3 && k < len && s[k] != ']'; nx++) {
			int64_t one[MAX_LIST];
			size_t e = k;
			while (e < len && s[e] != ':' && s[e] != ']')
				e++;
			if (hv_ints(s + k, e - k, one) != 1)
				return hv_bad(v, "slice of '%s': expected [start:limit] or [start:limit:stride]",
				              hv_name(i));
			x[nx] = one[0];
			k = e < len && s[e] == ':' ? e + 1 : e;
		}
		if (d >= a->rank)
			continue;
		if (x[0] < 0 || x[0] > x[1] || x[1] > a->dims[d] || x[2] < 1)
			return hv_bad(v, "slice [%lld:%lld:%lld] of '%s' does not fit dimension %u of its "
			                 "operand (%lld): expected 0 <= start <= limit <= %lld, stride >= 1",
			              (long long)x[0], (long long)x[1], (long long)x[2], hv_name(i), d,
			              (long long)a->dims[d], (long long)a->dims[d]);
		int64_t want = hv_add(x[1] - x[0], x[2] - 1) / x[2];
		if (r->rank == a->rank && r->dims[d] != want)
			return hv_bad(v, "slice '%s': result dimension %u is %lld: expected %lld", hv_name(i),
			              d, (long long)r->dims[d], (long long)want);
	}
	if (d != a->rank)
		return hv_bad(v, "slice of '%s' gives %u ranges for a rank-%u operand: expected %u",
		              hv_name(i), d, a->rank, a->rank);
	if (r->rank != a->rank)
		return hv_bad(v, "slice '%s' has a rank-%u result: expected rank %u, as its operand",
		              hv_name(i), r->rank, a->rank);
	return true;
}

/* Start indices k0.. of a dynamic slice: one integer scalar per dimension
 * of a rank-n operand (or, as older modules write it, one vector of n). */
static bool start_indices(struct hv *v, const char *opc, size_t k0, uint32_t rank)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i) - k0;
	if (n == 1 && hv_op_type(i, k0)->rank == 1 && hv_op_type(i, k0)->dims[0] == (int64_t)rank)
		return true;
	if (n != rank)
		return hv_bad(v, "%s '%s' has %zu start indices for a rank-%u operand: expected %u",
		              opc, hv_name(i), n, rank, rank);
	for (size_t k = k0; k < k0 + n; k++)
		if (hv_op_type(i, k)->rank)
			return hv_bad(v, "start index %zu of %s '%s' is not a scalar: expected one integer "
			                 "per dimension",
			              k - k0, opc, hv_name(i));
	return true;
}

/* dynamic-slice: sizes one per dimension, each within the operand; the
 * result has those sizes. */
static bool dynamic_slice(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) < 2)
		return hv_bad(v, "dynamic-slice '%s' has no start indices", hv_name(i));
	const pl_type *a = hv_op_type(i, 0);
	if (!start_indices(v, "dynamic-slice", 1, a->rank))
		return false;
	int64_t sz[MAX_LIST];
	int n = hv_list(v, HK(DYNAMIC_SLICE_SIZES), sz);
	if (n == -1)
		return false;
	if (n == -2 || !r)
		return true;
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "dynamic_slice_sizes of '%s' has %d sizes for a rank-%u operand: "
		                 "expected %u",
		              hv_name(i), n, a->rank, a->rank);
	for (int k = 0; k < n; k++) {
		if (sz[k] < 0 || sz[k] > a->dims[k])
			return hv_bad(v, "dynamic_slice_sizes of '%s': size %lld of dimension %d is beyond "
			                 "the operand's %lld",
			              hv_name(i), (long long)sz[k], k, (long long)a->dims[k]);
		if (r->rank == a->rank && r->dims[k] != sz[k])
			return hv_bad(v, "dynamic-slice '%s': result dimension %d is %lld: expected %lld, "
			                 "its slice size",
			              hv_name(i), k, (long long)r->dims[k], (long long)sz[k]);
	}
	if (r->rank != a->rank)
		return hv_bad(v, "dynamic-slice '%s' has a rank-%u result: expected rank %u", hv_name(i),
		              r->rank, a->rank);
	return true;
}

/* dynamic-update-slice: the update fits in the operand, the result is it. */
static bool dynamic_update_slice(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) < 3)
		return hv_bad(v, "dynamic-update-slice '%s' has %zu operands: expected the operand, the "
		                 "update and start indices",
		              hv_name(i), pl_inst_num_operands(i));
	const pl_type *a = hv_op_type(i, 0), *u = hv_op_type(i, 1);
	if (!start_indices(v, "dynamic-update-slice", 2, a->rank))
		return false;
	if (u->rank != a->rank)
		return hv_bad(v, "the update of '%s' has rank %u: expected %u, the operand's", hv_name(i),
		              u->rank, a->rank);
	for (uint32_t k = 0; k < a->rank; k++)
		if (u->dims[k] > a->dims[k])
			return hv_bad(v, "the update of '%s' is %lld in dimension %u: expected at most the "
			                 "operand's %lld",
			              hv_name(i), (long long)u->dims[k], k, (long long)a->dims[k]);
	return !r || hv_dims_are(v, "the result", r, a);
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
static bool iota(struct hv *v)
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

/* pad: a scalar padding value of the operand's element type; lo_hi[_interior]
 * per dimension; the result adds them up. */
static bool pad(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	size_t len;
	const char *s = hv_str(i, HK(PADDING), &len);
	if (!hv_want_operands(v, "pad", 2))
		return false;
	if (!s || !r)
		return true;
	const pl_type *a = hv_op_type(i, 0);
	if (!hv_same_elements(hv_op_type(i, 1)->dtype, a->dtype))
		return hv_bad(v, "the padding value of '%s' is %s: expected the operand's element type "
		                 "%s",
		              hv_name(i), pl_hlo_dtype_name_(hv_op_type(i, 1)->dtype),
		              pl_hlo_dtype_name_(a->dtype));
	if (hv_op_type(i, 1)->rank)
		return hv_bad(v, "the padding value of '%s' is not a scalar", hv_name(i));
	uint32_t d = 0;
	for (size_t k = 0; k < len; d++) {
		int64_t x[3] = {0, 0, 0};
		for (int n = 0; n < 3 && k < len && s[k] != 'x'; n++) {
			bool neg = s[k] == '-';
			k += neg;
			while (k < len && s[k] >= '0' && s[k] <= '9' && x[n] < INT64_MAX / 16)
				x[n] = x[n] * 10 + (s[k++] - '0');
			x[n] = neg ? -x[n] : x[n];
			k += k < len && s[k] == '_';
		}
		/* each dimension ends at an 'x' or the end: anything else is not
		 * padding (and would not move k on) */
		if (k < len && s[k] != 'x')
			return hv_bad(v, "padding of '%s' is not low_high[_interior] per dimension, "
			                 "separated by 'x'",
			              hv_name(i));
		k += k < len;
		if (d >= a->rank || r->rank != a->rank)
			continue;
		int64_t want = hv_add(hv_add(a->dims[d], x[0]), x[1]);
		want = hv_add(want, a->dims[d] ? hv_mul(a->dims[d] - 1, x[2]) : 0);
		if (x[2] < 0 || r->dims[d] != want)
			return hv_bad(v, "pad '%s': result dimension %u is %lld: expected %lld (%lld padded "
			                 "by %lld_%lld_%lld)",
			              hv_name(i), d, (long long)r->dims[d], (long long)want,
			              (long long)a->dims[d], (long long)x[0], (long long)x[1],
			              (long long)x[2]);
	}
	if (d != a->rank)
		return hv_bad(v, "padding of '%s' has %u dimensions for a rank-%u operand: expected %u",
		              hv_name(i), d, a->rank, a->rank);
	return r->rank == a->rank ||
	       hv_bad(v, "pad '%s' has a rank-%u result: expected rank %u", hv_name(i), r->rank,
	              a->rank);
}

/* A list attribute whose entries are dimensions of a rank-n array. */
bool hv_dims_in(struct hv *v, const char *key, const int64_t *d, int nd, uint32_t rank)
{
	for (int k = 0; k < nd; k++)
		if (d[k] < 0 || (uint64_t)d[k] >= rank)
			return hv_bad(v, "%s of '%s' names dimension %lld: expected one below %u", key + 4,
			              hv_name(v->at), (long long)d[k], rank);
	return true;
}

/* gather: slice_sizes one per operand dimension and within it; collapsed
 * dimensions of size 1; start_index_map one per index; the result holds
 * the offset dimensions and the batch ones the indices leave. */
static bool gather(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "gather", 2))
		return false;
	const pl_type *a = hv_op_type(i, 0), *x = hv_op_type(i, 1);
	int64_t off[MAX_LIST], col[MAX_LIST], map[MAX_LIST], sz[MAX_LIST], ob[MAX_LIST], ivd;
	int noff = hv_list(v, HK(OFFSET_DIMS), off), ncol = hv_list(v, HK(COLLAPSED_SLICE_DIMS), col);
	int nmap = hv_list(v, HK(START_INDEX_MAP), map), nsz = hv_list(v, HK(SLICE_SIZES), sz);
	int nob = hv_list(v, HK(OPERAND_BATCHING_DIMS), ob);
	if (noff == -1 || ncol == -1 || nmap == -1 || nsz == -1 || nob == -1)
		return false;
	if (nsz < 0 || !hv_num_attr(i, HK(INDEX_VECTOR_DIM), &ivd) || !r)
		return true;
	noff = noff < 0 ? 0 : noff;
	ncol = ncol < 0 ? 0 : ncol;
	nmap = nmap < 0 ? 0 : nmap;
	nob = nob < 0 ? 0 : nob;
	if ((uint32_t)nsz != a->rank)
		return hv_bad(v, "slice_sizes of '%s' has %d sizes for a rank-%u operand: expected %u",
		              hv_name(i), nsz, a->rank, a->rank);
	for (int k = 0; k < nsz; k++)
		if (sz[k] < 0 || sz[k] > a->dims[k])
			return hv_bad(v, "slice_sizes of '%s': size %lld of dimension %d is beyond the "
			                 "operand's %lld",
			              hv_name(i), (long long)sz[k], k, (long long)a->dims[k]);
	if (!hv_dims_in(v, HK(COLLAPSED_SLICE_DIMS), col, ncol, a->rank) ||
	    !hv_dims_in(v, HK(START_INDEX_MAP), map, nmap, a->rank) ||
	    !hv_dims_in(v, HK(OFFSET_DIMS), off, noff, r->rank))
		return false;
	for (int k = 0; k < ncol; k++)
		if (sz[col[k]] > 1)
			return hv_bad(v, "gather '%s' collapses dimension %lld of slice size %lld: expected "
			                 "size 1",
			              hv_name(i), (long long)col[k], (long long)sz[col[k]]);
	if (ivd < 0 || (uint64_t)ivd > x->rank)
		return hv_bad(v, "index_vector_dim=%lld of '%s' is beyond its rank-%u indices",
		              (long long)ivd, hv_name(i), x->rank);
	int64_t nidx = (uint64_t)ivd == x->rank ? 1 : x->dims[ivd];
	if (nmap != nidx)
		return hv_bad(v, "start_index_map of '%s' has %d entries: expected %lld, one per index",
		              hv_name(i), nmap, (long long)nidx);
	if (noff != nsz - ncol - nob)
		return hv_bad(v, "gather '%s' has %d offset_dims: expected %d, the slice's dimensions "
		                 "not collapsed",
		              hv_name(i), noff, nsz - ncol - nob);
	uint32_t want = (uint32_t)noff + x->rank - ((uint64_t)ivd < x->rank);
	if (r->rank != want)
		return hv_bad(v, "gather '%s' has a rank-%u result: expected rank %u (offset and batch "
		                 "dimensions)",
		              hv_name(i), r->rank, want);
	return true;
}

/* convert keeps the dimensions; compare names its direction. */
static bool convert(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "convert", 1))
		return false;
	return !r || hv_dims_are(v, "the result", r, hv_op_type(i, 0));
}

/* A computation to_apply names takes two scalars per operand (of the
 * operands' element types, from operand k0 on, n of them) and returns
 * pred[] (a comparator) or as many scalars (a combiner). */
bool hv_scalar_pairs(struct hv *v, const char *role, size_t k0, size_t n, bool comparator)
{
	const pl_inst *i = v->at;
	const pl_func *f = hv_callee(v, HK(TO_APPLY), 0);
	if (!f)
		return true;
	size_t want = 2 * n;
	if (pl_func_num_args(f) != want)
		return hv_bad(v, "%s '%s' of '%s' takes %zu parameters: expected %zu, two scalars per "
		                 "operand",
		              role, pl_func_name(f), hv_name(i), pl_func_num_args(f), want);
	for (size_t k = 0; k < want; k++) {
		const pl_type *p = pl_value_type(pl_func_arg(f, k));
		size_t o = k0 + (comparator ? k / 2 : k % n);
		if (p->rank || p->dtype != hv_op_type(i, o)->dtype)
			return hv_bad(v, "parameter %zu of %s '%s' is not a scalar of operand %zu's element "
			                 "type",
			              k, role, pl_func_name(f), o);
	}
	const pl_inst *r = hv_returned(f);
	if (comparator && r &&
	    (pl_inst_num_operands(r) != 1 || hv_op_type(r, 0)->rank ||
	     hv_op_type(r, 0)->dtype != PL_DTYPE_BOOL))
		return hv_bad(v, "comparator '%s' of '%s' does not return pred[]", pl_func_name(f),
		              hv_name(i));
	return true;
}

/* sort: operands of one shape, dimension in range, a comparator. */
static bool sort(struct hv *v)
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

/* Each update window dimension of scatter is at most the operand
 * dimension it lands on: the operand's dimensions in order, less the
 * inserted and batching ones, pair up with update_window_dims. */
static bool window_bounds(struct hv *v, const pl_type *a, const pl_type *u, const int64_t *uw,
                          int nuw, const int64_t *iw, int niw, const int64_t *ib, int nib)
{
	bool skip[MAX_LIST] = {false};
	if (a->rank > MAX_LIST || !hv_dims_in(v, HK(UPDATE_WINDOW_DIMS), uw, nuw, u->rank) ||
	    !hv_dims_in(v, HK(INPUT_BATCHING_DIMS), ib, nib, a->rank))
		return a->rank > MAX_LIST;
	for (int k = 0; k < niw; k++)
		skip[iw[k]] = true;
	for (int k = 0; k < nib; k++)
		skip[ib[k]] = true;
	uint32_t d = 0;
	for (int k = 0; k < nuw; k++, d++) {
		while (d < a->rank && skip[d])
			d++;
		if (d >= a->rank)
			break;
		if (u->dims[uw[k]] > a->dims[d])
			return hv_bad(v, "scatter '%s': update window dimension %lld is %lld: expected at "
			                 "most %lld, operand dimension %u",
			              hv_name(v->at), (long long)uw[k], (long long)u->dims[uw[k]],
			              (long long)a->dims[d], d);
	}
	return true;
}

/* scatter: operands, indices, updates; index_vector_dim within the
 * indices; one scatter_dims_to_operand_dims per index; window and
 * inserted dimensions make up the operand; updates have the window and
 * batch dimensions; the combiner takes two scalars per operand. */
static bool scatter(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (n < 3 || n % 2 == 0)
		return hv_bad(v, "scatter '%s' has %zu operands: expected operands, indices and as many "
		                 "updates",
		              hv_name(i), n);
	size_t k = (n - 1) / 2;
	const pl_type *a = hv_op_type(i, 0), *x = hv_op_type(i, k), *u = hv_op_type(i, k + 1);
	int64_t uw[MAX_LIST], iw[MAX_LIST], sd[MAX_LIST], ib[MAX_LIST], ivd;
	int nuw = hv_list(v, HK(UPDATE_WINDOW_DIMS), uw);
	int niw = hv_list(v, HK(INSERTED_WINDOW_DIMS), iw);
	int nsd = hv_list(v, HK(SCATTER_DIMS_TO_OPERAND_DIMS), sd);
	int nib = hv_list(v, HK(INPUT_BATCHING_DIMS), ib);
	if (nuw == -1 || niw == -1 || nsd == -1 || nib == -1)
		return false;
	if (!hv_num_attr(i, HK(INDEX_VECTOR_DIM), &ivd))
		return true;
	nuw = nuw < 0 ? 0 : nuw;
	niw = niw < 0 ? 0 : niw;
	nsd = nsd < 0 ? 0 : nsd;
	nib = nib < 0 ? 0 : nib;
	if (ivd < 0 || (uint64_t)ivd > x->rank)
		return hv_bad(v, "index_vector_dim=%lld of '%s' is beyond its rank-%u indices",
		              (long long)ivd, hv_name(i), x->rank);
	int64_t nidx = (uint64_t)ivd == x->rank ? 1 : x->dims[ivd];
	if (nsd != nidx)
		return hv_bad(v, "scatter_dims_to_operand_dims of '%s' has %d entries: expected %lld, "
		                 "one per index",
		              hv_name(i), nsd, (long long)nidx);
	if (!hv_dims_in(v, HK(SCATTER_DIMS_TO_OPERAND_DIMS), sd, nsd, a->rank) ||
	    !hv_dims_in(v, HK(INSERTED_WINDOW_DIMS), iw, niw, a->rank))
		return false;
	if ((uint32_t)(nuw + niw + nib) != a->rank)
		return hv_bad(v, "scatter '%s': %d window, %d inserted and %d batching dimensions for a "
		                 "rank-%u operand: expected them to add up to %u",
		              hv_name(i), nuw, niw, nib, a->rank, a->rank);
	uint32_t want = (uint32_t)nuw + x->rank - ((uint64_t)ivd < x->rank);
	if (u->rank != want)
		return hv_bad(v, "the updates of scatter '%s' have rank %u: expected %u (window and "
		                 "batch dimensions)",
		              hv_name(i), u->rank, want);
	return window_bounds(v, a, u, uw, nuw, iw, niw, ib, nib) &&
	       hv_scalar_pairs(v, "combiner", 0, k, false);
}

bool hv_check_more(struct hv *v)
{
	switch (v->op) {
	case HLO_OP_WHILE:
		return while_loop(v);
	case HLO_OP_CONDITIONAL:
		return conditional(v);
	case HLO_OP_FUSION:
		return called(v, "fused computation", HK(CALLS));
	case HLO_OP_CALL:
		return called(v, "computation", HK(TO_APPLY));
	case HLO_OP_ASYNC_START:
		if (!hv_str(v->at, HK(CALLS), &(size_t){0}))
			return hv_bad(v, "async-start '%s' has no calls=: expected the computation it runs",
			              hv_name(v->at));
		break;
	default:
		break;
	}
	if (!hv_async(v) || !hv_chan(v) || !hv_inferred(v) || !hv_elem_more(v))
		return false;
	switch (v->op) {
	case HLO_OP_SLICE: return slice(v);
	case HLO_OP_DYNAMIC_SLICE: return dynamic_slice(v);
	case HLO_OP_DYNAMIC_UPDATE_SLICE: return dynamic_update_slice(v);
	case HLO_OP_SELECT: return select_clamp(v, true);
	case HLO_OP_CLAMP: return select_clamp(v, false);
	case HLO_OP_IOTA: return iota(v);
	case HLO_OP_PAD: return pad(v);
	case HLO_OP_GATHER: return gather(v);
	case HLO_OP_CONVERT: return convert(v);
	case HLO_OP_SORT: return sort(v);
	case HLO_OP_SCATTER: return scatter(v);
	case HLO_OP_CONVOLUTION: return hv_convolution(v);
	case HLO_OP_REDUCE_WINDOW: return hv_reduce_window(v);
	case HLO_OP_SELECT_AND_SCATTER: return hv_select_and_scatter(v);
	case HLO_OP_MAP: return hv_map(v);
	case HLO_OP_BITCAST_CONVERT: return hv_bitcast_convert(v);
	case HLO_OP_RNG: return hv_rng(v);
	case HLO_OP_REVERSE: return hv_reverse(v);
	case HLO_OP_REDUCE_PRECISION: return hv_reduce_precision(v);
	default: return true;
	}
}
