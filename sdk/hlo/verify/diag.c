/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/diag.c — the verifier's messages: the one function that
 * gives an error at the instruction checked, how instructions and types
 * are named in it, and the assertions several families make (a list
 * attribute well formed, a value's type, an operand or result count,
 * dimensions) with the message each gives. Below it only attrs.c. */
#include "hlo/verify/hv.h"

#include "hlo/hlo.h"

#include <stdarg.h>
#include <stdio.h>

PL_PRINTF(2, 3) bool hv_bad(struct hv *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (pl_diags_add(v->diags, PL_SEV_ERROR, v->file, pl_inst_line(v->at), pl_inst_col(v->at),
	                 "%s", buf) != PL_OK)
		v->rc = PL_ENOMEM;
	else if (v->rc == PL_OK)
		v->rc = PL_EPARSE;
	return false;
}

/* The instruction's name, for messages. */
const char *hv_name(const pl_inst *i)
{
	const char *s = NULL;
	size_t len;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(NAME), &s, &len) == PL_OK)
		return s;
	if (!pl_inst_num_results(i))
		return pl_inst_opname(i);
	/* a tuple's leaves are "name$k": the instruction is "name" */
	static _Thread_local char buf[256];
	s = pl_value_name(pl_inst_result(i, 0));
	const char *cut = s ? strchr(s, '$') : NULL;
	if (!cut || (size_t)(cut - s) >= sizeof buf)
		return s;
	memcpy(buf, s, (size_t)(cut - s));
	buf[cut - s] = 0;
	return buf;
}

void hv_type(char *buf, size_t n, const pl_type *t)
{
	size_t k = (size_t)snprintf(buf, n, "%s[", pl_hlo_dtype_name_((pl_dtype)t->dtype));
	for (uint32_t i = 0; i < t->rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->dims[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
}

struct hv_two hv_types(const pl_type *a, const pl_type *b)
{
	struct hv_two two;
	hv_type(two.a, sizeof two.a, a);
	hv_type(two.b, sizeof two.b, b);
	return two;
}

/* A list attribute; -2 when absent, -1 when malformed (an error given). */
int hv_list(struct hv *v, const char *key, int64_t *out)
{
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	if (!s)
		return -2;
	int n = hv_ints(s, len, out);
	if (n < 0)
		hv_bad(v, "%s of '%s' must be a list of numbers {a,b,...}", key + 4, hv_name(v->at));
	return n;
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

/* A list attribute whose entries are dimensions of a rank-n array. */
bool hv_dims_in(struct hv *v, const char *key, const int64_t *d, int nd, uint32_t rank)
{
	for (int k = 0; k < nd; k++)
		if (d[k] < 0 || (uint64_t)d[k] >= rank)
			return hv_bad(v, "%s of '%s' names dimension %lld: expected one below %u", key + 4,
			              hv_name(v->at), (long long)d[k], rank);
	return true;
}

bool hv_scalar_is(struct hv *v, const char *opc, bool operand, size_t k, pl_dtype dt,
                  const char *what)
{
	const pl_inst *i = v->at;
	const pl_type *t = operand ? hv_op_type(i, k) : pl_value_type(pl_inst_result(i, k));
	if (!t->rank && t->dtype == dt)
		return true;
	char tt[160];
	hv_type(tt, sizeof tt, t);
	return hv_bad(v, "%s of %s '%s' is %s: expected %s[]", what, opc, hv_name(i), tt,
	              pl_hlo_dtype_name_(dt));
}

bool hv_count_is(struct hv *v, const char *opc, size_t want, const char *form)
{
	size_t got = pl_inst_num_results(v->at);
	if (got == want)
		return true;
	return hv_bad(v, "%s '%s' has %zu value%s: expected %zu, %s", opc, hv_name(v->at), got,
	              got == 1 ? "" : "s", want, form);
}
