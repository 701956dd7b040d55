/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/common.c — the two rules that two families of checks
 * share, kept below both: a reshape's element count and type (reshape,
 * dynamic-reshape), and a computation over pairs of scalars (sort's
 * comparator, scatter's combiner, reduce-window's reducer). */
#include "hlo/verify/hv.h"

bool hv_reshapes(struct hv *v, const char *opc, const pl_type *a, const pl_type *r)
{
	if (a->elements == r->elements && hv_same_elements(a->dtype, r->dtype))
		return true;
	struct hv_two ty = hv_types(a, r);
	return hv_bad(v, "%s '%s' turns %s (%llu elements) into %s (%llu): expected as many "
	                 "elements of the same type",
	              opc, hv_name(v->at), ty.a, (unsigned long long)a->elements, ty.b,
	              (unsigned long long)r->elements);
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
