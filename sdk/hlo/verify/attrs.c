/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/attrs.c — what the verifier reads of an instruction:
 * its hlo_* attributes (strings, number lists, the computations they
 * name), its opcode, and its operands' types, compared as XLA's verifier
 * compares them. The lowest of the helpers: it gives no message. */
#include "hlo/verify/hv.h"
#include "ir/name_list.h"

const char *hv_str(const pl_inst *i, const char *key, size_t *len)
{
	const char *s = NULL;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), key, &s, len) != PL_OK)
		return NULL;
	return s;
}

/* "{1,2}" (or "1", or "1,2]"); the count, or -1 when it is not such a list. */
int hv_ints(const char *s, size_t len, int64_t *out)
{
	size_t k = 0;
	int n = 0;
	while (k < len && (s[k] == ' ' || s[k] == '{'))
		k++;
	while (k < len && s[k] != '}' && s[k] != ']') {
		bool neg = s[k] == '-';
		if (neg)
			k++;
		if (k >= len || s[k] < '0' || s[k] > '9' || n >= MAX_LIST)
			return -1;
		int64_t x = 0;
		while (k < len && s[k] >= '0' && s[k] <= '9') {
			if (x > INT64_MAX / 16)
				return -1;
			x = x * 10 + (s[k++] - '0');
		}
		out[n++] = neg ? -x : x;
		while (k < len && s[k] == ' ')
			k++;
		if (k < len && s[k] == ',')
			k++;
		while (k < len && s[k] == ' ')
			k++;
	}
	return n;
}

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

/* The computation key names (its first name); NULL when there is none
 * (the reader's reference check has already named a missing one). */
const pl_func *hv_callee(const struct hv *v, const char *key, size_t nth)
{
	size_t len, at = 0, n;
	const char *s = hv_str(v->at, key, &len), *name;
	while (s && name_list_next(s, len, &at, &name, &n))
		if (!nth--)
			return pl_module_find_func_(v->m, name, n);
	return NULL;
}

const pl_inst *hv_returned(const pl_func *f)
{
	const pl_inst *r = pl_func_last_inst(f);
	return r && pl_inst_op(r) == PL_OP_RETURN ? r : NULL;
}

enum hlo_op hv_op_of(const pl_inst *i)
{
	/* classified when the module numbered the op name */
	pl_hlo_op op = pl_inst_hlo_op_(i);
	return op == PL_HLO_OTHER ? HLO_OP_OTHER : (enum hlo_op)(op - 1);
}

const pl_type *hv_op_type(const pl_inst *i, size_t k)
{
	return pl_value_type(pl_inst_operand(i, k));
}

bool hv_same_dims(const pl_type *a, const pl_type *b)
{
	if (a->rank != b->rank)
		return false;
	for (uint32_t i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

/* XLA's verifier, mixed precision allowed as in its compiler pipelines:
 * equal element types, or two floating-point ones. */
bool hv_same_elements(pl_dtype a, pl_dtype b)
{
	static const pl_dtype fp[] = {
		PL_DTYPE_F16,      PL_DTYPE_BF16,        PL_DTYPE_F32,         PL_DTYPE_F64,
		PL_DTYPE_F8E4M3,   PL_DTYPE_F8E5M2,      PL_DTYPE_F8E4M3FN,    PL_DTYPE_F8E4M3FNUZ,
		PL_DTYPE_F8E5M2FNUZ, PL_DTYPE_F8E4M3B11FNUZ, PL_DTYPE_F8E3M4,  PL_DTYPE_F8E8M0FNU,
		PL_DTYPE_F4E2M1FN, PL_DTYPE_F6E3M2FN,    PL_DTYPE_F6E2M3FN};
	bool fa = false, fb = false;
	for (size_t k = 0; k < sizeof fp / sizeof *fp; k++) {
		fa = fa || a == fp[k];
		fb = fb || b == fp[k];
	}
	return a == b || (fa && fb);
}

bool hv_same_type(const pl_type *a, const pl_type *b)
{
	return a->dtype == b->dtype && hv_same_dims(a, b);
}
