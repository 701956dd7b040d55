/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_verify_chan.c — the verifier's rules for the ops that move
 * data between devices point to point or from one of them, and for
 * dynamic-reshape: collective-broadcast gives its operand's shape;
 * send (data, token) is (data, u32[], token[]), recv (token) is
 * (data, u32[], token[]), send-done token[], recv-done (data, token[]);
 * a done whose operand is a send or recv takes the matching kind, of the
 * same channel_id (XLA accepts both without one). Values are leaves: a
 * tuple is its leaves, in order. */
#include "hlo/hlo_verify_int.h"

#include "hlo/hlo.h"
#include "hlo/hlo_keys.h"

#include <stdio.h>

/* Value k (a result, or an operand when operand) of the instruction is
 * a scalar of dtype; what says which value it is. */
static bool scalar_is(struct hv *v, const char *opc, bool operand, size_t k, pl_dtype dt,
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

/* Result value k of the instruction is of type want; what names want. */
static bool result_is(struct hv *v, const char *opc, size_t k, const pl_type *want,
                      const char *what)
{
	const pl_type *got = pl_value_type(pl_inst_result(v->at, k));
	if (hv_same_type(got, want))
		return true;
	char tg[160], tw[160];
	hv_type(tg, sizeof tg, got);
	hv_type(tw, sizeof tw, want);
	return hv_bad(v, "value %zu of %s '%s' is %s: expected %s, %s", k, opc, hv_name(v->at), tg,
	              tw, what);
}

static bool count_is(struct hv *v, const char *opc, size_t want, const char *form)
{
	size_t got = pl_inst_num_results(v->at);
	if (got == want)
		return true;
	return hv_bad(v, "%s '%s' has %zu value%s: expected %zu, %s", opc, hv_name(v->at), got,
	              got == 1 ? "" : "s", want, form);
}

/* collective-broadcast: its first operand's shape (a second one, with
 * has_dynamic_root=true, names the root). */
static bool collective_broadcast(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!pl_inst_num_operands(i))
		return hv_bad(v, "collective-broadcast '%s' has no operands: expected the array it "
		                 "broadcasts",
		              hv_name(i));
	return count_is(v, "collective-broadcast", 1, "its operand's array") &&
	       result_is(v, "collective-broadcast", 0, hv_op_type(i, 0), "the shape of its operand");
}

/* send(data, token): (data, u32[], token[]). */
static bool send(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (!n)
		return hv_bad(v, "send '%s' has no operands: expected the data and a token",
		              hv_name(i));
	if (!scalar_is(v, "send", true, n - 1, PL_DTYPE_TOKEN, "the last operand"))
		return false;
	if (!count_is(v, "send", n + 1, "(data, u32[], token[]) for its data"))
		return false;
	for (size_t k = 0; k + 1 < n; k++)
		if (!result_is(v, "send", k, hv_op_type(i, k), "the data it sends"))
			return false;
	return scalar_is(v, "send", false, n - 1, PL_DTYPE_U32, "the context") &&
	       scalar_is(v, "send", false, n, PL_DTYPE_TOKEN, "the last value");
}

/* recv(token): (data, u32[], token[]). */
static bool recv(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_results(i);
	if (!hv_want_operands(v, "recv", 1) ||
	    !scalar_is(v, "recv", true, 0, PL_DTYPE_TOKEN, "the operand"))
		return false;
	if (n < 2)
		return count_is(v, "recv", 2, "at least (data, u32[], token[])");
	return scalar_is(v, "recv", false, n - 2, PL_DTYPE_U32, "the context") &&
	       scalar_is(v, "recv", false, n - 1, PL_DTYPE_TOKEN, "the last value");
}

/* The start a done takes: NULL when its operand is no send or recv (it
 * may come through a get-tuple-element of a loop, as XLA allows). */
static const pl_inst *start_of(const pl_inst *i)
{
	const pl_inst *d = pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, 0)) : NULL;
	if (!d || strncmp(pl_inst_opname(d), "hlo.", 4))
		return NULL;
	const char *opc = pl_inst_opname(d) + 4;
	return hv_opc_is(opc, "send") || hv_opc_is(opc, "recv") ? d : NULL;
}

/* send-done / recv-done: the operand is the whole value of a start of the
 * matching kind and channel. */
static bool done_of(struct hv *v, const char *opc, const char *start_opc, const pl_inst **st)
{
	const pl_inst *i = v->at, *s = start_of(i);
	*st = NULL;
	if (!s)
		return true;
	char sn[256]; /* hv_name's buffer names one instruction at a time */
	snprintf(sn, sizeof sn, "%s", hv_name(s));
	if (!hv_opc_is(pl_inst_opname(s) + 4, start_opc))
		return hv_bad(v, "the operand of %s '%s' is %s '%s': expected a %s", opc, hv_name(i),
		              hv_opc_is(pl_inst_opname(s) + 4, "send") ? "send" : "recv", sn, start_opc);
	if (pl_inst_num_operands(i) != pl_inst_num_results(s))
		return hv_bad(v, "%s '%s' takes %zu values of '%s': expected all %zu of its value", opc,
		              hv_name(i), pl_inst_num_operands(i), sn, pl_inst_num_results(s));
	size_t la, lb;
	const char *a = hv_str(i, HK(CHANNEL_ID), &la), *b = hv_str(s, HK(CHANNEL_ID), &lb);
	if ((a || b) && (!a || !b || la != lb || memcmp(a, b, la)))
		return hv_bad(v, "%s '%s' has channel_id=%.*s, its %s '%s' channel_id=%.*s: expected "
		                 "the same",
		              opc, hv_name(i), a ? (int)la : 4, a ? a : "none", start_opc, sn,
		              b ? (int)lb : 4, b ? b : "none");
	*st = s;
	return true;
}

static bool send_done(struct hv *v)
{
	const pl_inst *s;
	return done_of(v, "send-done", "send", &s) &&
	       count_is(v, "send-done", 1, "token[]") &&
	       scalar_is(v, "send-done", false, 0, PL_DTYPE_TOKEN, "the value");
}

/* recv-done: (data, token[]), the data its recv's. */
static bool recv_done(struct hv *v)
{
	const pl_inst *i = v->at, *s;
	size_t n = pl_inst_num_results(i);
	if (!done_of(v, "recv-done", "recv", &s))
		return false;
	if (!n)
		return count_is(v, "recv-done", 1, "at least token[]");
	if (!scalar_is(v, "recv-done", false, n - 1, PL_DTYPE_TOKEN, "the last value"))
		return false;
	if (!s)
		return true;
	if (!count_is(v, "recv-done", pl_inst_num_results(s) - 1,
	              "(data, token[]) for the data of its recv"))
		return false;
	for (size_t k = 0; k + 1 < n; k++)
		if (!result_is(v, "recv-done", k, pl_value_type(pl_inst_result(s, k)),
		               "the data of its recv"))
			return false;
	return true;
}

/* dynamic-reshape(operand, sizes...): one s32 size per result dimension,
 * as many elements and the element type kept (XLA checks no more: the
 * sizes are bounded by the result's static extents). */
static bool dynamic_reshape(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	size_t n = pl_inst_num_operands(i);
	if (!r || !n)
		return n || hv_bad(v, "dynamic-reshape '%s' has no operands", hv_name(i));
	const pl_type *a = hv_op_type(i, 0);
	if (n != (size_t)r->rank + 1)
		return hv_bad(v, "dynamic-reshape '%s' has %zu size operand%s for a rank-%u result: "
		                 "expected %u, one per dimension",
		              hv_name(i), n - 1, n == 2 ? "" : "s", r->rank, r->rank);
	for (size_t k = 1; k < n; k++)
		if (hv_op_type(i, k)->dtype != PL_DTYPE_I32) {
			char tt[160];
			hv_type(tt, sizeof tt, hv_op_type(i, k));
			return hv_bad(v, "size operand %zu of dynamic-reshape '%s' is %s: expected s32",
			              k, hv_name(i), tt);
		}
	if (a->elements != r->elements || a->dtype != r->dtype) {
		char ta[160], tr[160];
		hv_type(ta, sizeof ta, a);
		hv_type(tr, sizeof tr, r);
		return hv_bad(v, "dynamic-reshape '%s' turns %s (%llu elements) into %s (%llu): "
		                 "expected as many elements of the same type",
		              hv_name(i), ta, (unsigned long long)a->elements, tr,
		              (unsigned long long)r->elements);
	}
	return true;
}

bool hv_chan(struct hv *v, const char *opc)
{
	if (hv_opc_is(opc, "collective-broadcast"))
		return collective_broadcast(v);
	if (hv_opc_is(opc, "send"))
		return send(v);
	if (hv_opc_is(opc, "recv"))
		return recv(v);
	if (hv_opc_is(opc, "send-done"))
		return send_done(v);
	if (hv_opc_is(opc, "recv-done"))
		return recv_done(v);
	if (hv_opc_is(opc, "dynamic-reshape"))
		return dynamic_reshape(v);
	return true;
}
