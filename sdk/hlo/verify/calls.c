/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/calls.c — the computations an instruction names: that
 * each exists (every instruction), and for call, fusion, while and
 * conditional that the computation's parameters take the operands and
 * its result is the instruction's. Tuples reach here as their leaves
 * (the reader gives a tuple-shaped value one IR value per leaf), so a
 * signature is checked leaf by leaf, in order. */
#include "hlo/verify/checks.h"
#include "ir/name_list.h"

/* Each computation an attribute names must exist; the first one named
 * is kept in v->callee. */
static bool computations(struct hv *v, const char *key)
{
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	if (!s)
		return true;
	size_t at = 0, n;
	const char *name;
	while (name_list_next(s, len, &at, &name, &n)) {
		if (n >= 256)
			return hv_bad(v, "%s of '%s' names no computation", key + 4, hv_name(v->at));
		const pl_func *f = pl_module_find_func_(v->m, name, n);
		if (!f)
			return hv_bad(v, "%s of '%s' names computation '%.*s', which the module does not have",
			              key + 4, hv_name(v->at), (int)n, name);
		if (!v->callee)
			v->callee = f;
	}
	return true;
}

bool hv_named_computations(struct hv *v)
{
	const char *const refs[] = {HK(TO_APPLY),         HK(CALLS),
	                            HK(BODY),             HK(CONDITION),
	                            HK(TRUE_COMPUTATION), HK(FALSE_COMPUTATION),
	                            HK(BRANCH_COMPUTATIONS), HK(SELECT),
	                            HK(SCATTER)};
	for (size_t k = 0; k < sizeof refs / sizeof *refs; k++)
		if (!computations(v, refs[k]))
			return false;
	return true;
}

/* call: as many arguments as the first computation named takes, each of
 * its parameter's type. */
bool hv_call_arguments(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_func *f = v->callee;
	if (!f)
		return true;
	size_t n = pl_inst_num_operands(i);
	if (pl_func_num_args(f) != n)
		return hv_bad(v, "call '%s' passes %zu argument%s; '%s' takes %zu", hv_name(i), n,
		           n == 1 ? "" : "s", pl_func_name(f), pl_func_num_args(f));
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k), *p = pl_value_type(pl_func_arg(f, k));
		if (!hv_same_dims(a, p) || a->dtype != p->dtype) {
			struct hv_two ty = hv_types(a, p);
			return hv_bad(v, "call '%s': argument %zu is %s, parameter %zu of '%s' is %s", hv_name(i), k,
			           ty.a, k, pl_func_name(f), ty.b);
		}
	}
	return true;
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
bool hv_while(struct hv *v)
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
bool hv_conditional(struct hv *v)
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

bool hv_fusion(struct hv *v)
{
	return called(v, "fused computation", HK(CALLS));
}

bool hv_call(struct hv *v)
{
	return called(v, "computation", HK(TO_APPLY));
}
