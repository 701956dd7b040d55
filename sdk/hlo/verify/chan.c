/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/chan.c — the verifier's rules for the ops that move
 * data between devices point to point, from one of them or in ragged
 * pieces, and for dynamic-reshape: collective-broadcast gives its
 * operand's shape, ragged-all-to-all its output operand's;
 * send (data, token) is (data, u32[], token[]), recv (token) is
 * (data, u32[], token[]), send-done token[], recv-done (data, token[]);
 * a done whose operand is a send or recv takes the matching kind, of the
 * same channel_id (XLA accepts both without one) and is_host_transfer;
 * outfeed's outfeed_shape is the shape of its data. Values are leaves: a
 * tuple is its leaves, in order. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"
#include "hlo/hlo_shape.h"

#include <stdio.h>

/* collective-broadcast: its first operand's shape (a second one, with
 * has_dynamic_root=true, names the root). */
bool hv_collective_broadcast(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!pl_inst_num_operands(i))
		return hv_bad(v, "collective-broadcast '%s' has no operands: expected the array it "
		                 "broadcasts",
		              hv_name(i));
	return hv_count_is(v, "collective-broadcast", 1, "its operand's array") &&
	       hv_value_is(v, "collective-broadcast", 0, hv_op_type(i, 0), "the shape of its operand");
}

/* ragged-all-to-all(input, output, input_offsets, send_sizes,
 * output_offsets, recv_sizes): the four offsets and sizes of one shape,
 * rank 1 or 2; the result the output's shape (XLA's
 * HandleRaggedAllToAll; its groups are every collective's). */
bool hv_ragged_all_to_all(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!hv_want_operands(v, "ragged-all-to-all", 6))
		return false;
	const pl_type *first = hv_op_type(i, 2);
	for (size_t k = 2; k < 6; k++) {
		const pl_type *t = hv_op_type(i, k);
		if (t->rank != 1 && t->rank != 2)
			return hv_bad(v, "operand %zu of ragged-all-to-all '%s' has rank %u: expected "
			                 "offsets or sizes of rank 1 or 2",
			              k, hv_name(i), t->rank);
		if (!hv_same_type(t, first)) {
			struct hv_two ty = hv_types(t, first);
			return hv_bad(v, "operand %zu of ragged-all-to-all '%s' is %s: expected %s, the "
			                 "shape of operand 2 (all offsets and sizes alike)",
			              k, hv_name(i), ty.a, ty.b);
		}
	}
	if (!hv_count_is(v, "ragged-all-to-all", 1, "its output operand's"))
		return false;
	const pl_type *o = hv_op_type(i, 1), *r = pl_value_type(pl_inst_result(i, 0));
	if (hv_same_dims(r, o) && hv_same_elements(r->dtype, o->dtype))
		return true;
	struct hv_two ty = hv_types(r, o);
	return hv_bad(v, "ragged-all-to-all '%s' gives %s: expected %s, the shape of its output "
	                 "operand (1)",
	              hv_name(i), ty.a, ty.b);
}

/* outfeed's outfeed_shape, when given, is the shape of its data (the
 * operands but the token), array by array. */
bool hv_outfeed_shape(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t len, n = pl_inst_num_operands(i);
	const char *s = hv_str(i, HK(OUTFEED_SHAPE), &len);
	if (!s || !n)
		return true;
	const pl_type *data[MAX_LIST];
	if (n - 1 > MAX_LIST)
		return true; /* beyond what is checked here */
	for (size_t k = 0; k + 1 < n; k++)
		data[k] = hv_op_type(i, k);
	struct pl_hlo_shapes sh = {0};
	struct pl_hlo_shape_err err;
	const char *p = s;
	uint32_t idx;
	int rc = pl_hlo_shape_parse_(&sh, &p, s + len, 0, &idx, &err);
	bool fits = rc == PL_OK && pl_hlo_shape_skip_(p, s + len) == s + len &&
	            pl_hlo_shape_fits_(&sh, idx, data, n - 1);
	pl_hlo_shapes_free_(&sh);
	if (rc == PL_ENOMEM) {
		v->rc = PL_ENOMEM;
		return false;
	}
	if (fits)
		return true;
	char td[160] = "its data";
	if (n == 2)
		hv_type(td, sizeof td, data[0]);
	return hv_bad(v, "outfeed '%s' has outfeed_shape=%.*s: expected the shape of the data it "
	                 "sends, %s",
	              hv_name(i), (int)len, s, td);
}

/* send(data, token): (data, u32[], token[]). */
bool hv_send(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (!n)
		return hv_bad(v, "send '%s' has no operands: expected the data and a token",
		              hv_name(i));
	if (!hv_scalar_is(v, "send", true, n - 1, PL_DTYPE_TOKEN, "the last operand"))
		return false;
	if (!hv_count_is(v, "send", n + 1, "(data, u32[], token[]) for its data"))
		return false;
	for (size_t k = 0; k + 1 < n; k++)
		if (!hv_value_is(v, "send", k, hv_op_type(i, k), "the data it sends"))
			return false;
	return hv_scalar_is(v, "send", false, n - 1, PL_DTYPE_U32, "the context") &&
	       hv_scalar_is(v, "send", false, n, PL_DTYPE_TOKEN, "the last value");
}

/* recv(token): (data, u32[], token[]). */
bool hv_recv(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_results(i);
	if (!hv_want_operands(v, "recv", 1) ||
	    !hv_scalar_is(v, "recv", true, 0, PL_DTYPE_TOKEN, "the operand"))
		return false;
	if (n < 2)
		return hv_count_is(v, "recv", 2, "at least (data, u32[], token[])");
	return hv_scalar_is(v, "recv", false, n - 2, PL_DTYPE_U32, "the context") &&
	       hv_scalar_is(v, "recv", false, n - 1, PL_DTYPE_TOKEN, "the last value");
}

/* The start a done takes: NULL when its operand is no send or recv (it
 * may come through a get-tuple-element of a loop, as XLA allows). */
static const pl_inst *start_of(const pl_inst *i)
{
	const pl_inst *d = pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, 0)) : NULL;
	enum hlo_op op = d ? hv_op_of(d) : HLO_OP_OTHER;
	return op == HLO_OP_SEND || op == HLO_OP_RECV ? d : NULL;
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
	const char *got = pl_hlo_opcode_name_(hv_op_of(s));
	if (strcmp(got, start_opc))
		return hv_bad(v, "the operand of %s '%s' is %s '%s': expected a %s", opc, hv_name(i),
		              got, sn, start_opc);
	if (pl_inst_num_operands(i) != pl_inst_num_results(s))
		return hv_bad(v, "%s '%s' takes %zu values of '%s': expected all %zu of its value", opc,
		              hv_name(i), pl_inst_num_operands(i), sn, pl_inst_num_results(s));
	/* the same channel_id and is_host_transfer (absent: none, false) */
	static const int keys[2] = {PL_HK_CHANNEL_ID, PL_HK_IS_HOST_TRANSFER};
	static const char *const none[2] = {"none", "false"};
	for (int k = 0; k < 2; k++) {
		size_t la, lb;
		const char *key = pl_hlo_keys_[keys[k]].key;
		const char *a = hv_str(i, key, &la), *b = hv_str(s, key, &lb);
		if (!a) {
			a = none[k];
			la = strlen(a);
		}
		if (!b) {
			b = none[k];
			lb = strlen(b);
		}
		if (la != lb || memcmp(a, b, la))
			return hv_bad(v, "%s '%s' has %s=%.*s, its %s '%s' %s=%.*s: expected the same",
			              opc, hv_name(i), key + 4, (int)la, a, start_opc, sn, key + 4,
			              (int)lb, b);
	}
	*st = s;
	return true;
}

bool hv_send_done(struct hv *v)
{
	const pl_inst *s;
	return done_of(v, "send-done", "send", &s) &&
	       hv_count_is(v, "send-done", 1, "token[]") &&
	       hv_scalar_is(v, "send-done", false, 0, PL_DTYPE_TOKEN, "the value");
}

/* recv-done: (data, token[]), the data its recv's. */
bool hv_recv_done(struct hv *v)
{
	const pl_inst *i = v->at, *s;
	size_t n = pl_inst_num_results(i);
	if (!done_of(v, "recv-done", "recv", &s))
		return false;
	if (!n)
		return hv_count_is(v, "recv-done", 1, "at least token[]");
	if (!hv_scalar_is(v, "recv-done", false, n - 1, PL_DTYPE_TOKEN, "the last value"))
		return false;
	if (!s)
		return true;
	if (!hv_count_is(v, "recv-done", pl_inst_num_results(s) - 1,
	              "(data, token[]) for the data of its recv"))
		return false;
	for (size_t k = 0; k + 1 < n; k++)
		if (!hv_value_is(v, "recv-done", k, pl_value_type(pl_inst_result(s, k)),
		               "the data of its recv"))
			return false;
	return true;
}

/* dynamic-reshape(operand, sizes...): one s32 size per result dimension,
 * as many elements and the element type kept (XLA checks no more: the
 * sizes are bounded by the result's static extents). */
bool hv_dynamic_reshape(struct hv *v)
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
	return hv_reshapes(v, "dynamic-reshape", a, r);
}
