/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_verify_chan.c — the verifier's rules for the ops that move
 * data between devices point to point, from one of them or in ragged
 * pieces, and for dynamic-reshape: collective-broadcast gives its
 * operand's shape, ragged-all-to-all its output operand's;
 * send (data, token) is (data, u32[], token[]), recv (token) is
 * (data, u32[], token[]), send-done token[], recv-done (data, token[]);
 * a done whose operand is a send or recv takes the matching kind, of the
 * same channel_id (XLA accepts both without one) and is_host_transfer; and the ops whose
 * value XLA fixes outright (ids, tokens, copies, dimension sizes). Values
 * are leaves: a tuple is its leaves, in order. */
#include "hlo/verify/hv.h"

#include "hlo/hlo.h"
#include "hlo/hlo_shape.h"

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
	       hv_value_is(v, "collective-broadcast", 0, hv_op_type(i, 0), "the shape of its operand");
}

/* ragged-all-to-all(input, output, input_offsets, send_sizes,
 * output_offsets, recv_sizes): the four offsets and sizes of one shape,
 * rank 1 or 2; the result the output's shape (XLA's
 * HandleRaggedAllToAll; its groups are every collective's). */
static bool ragged_all_to_all(struct hv *v)
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
	if (!count_is(v, "ragged-all-to-all", 1, "its output operand's"))
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
static bool outfeed_shape(struct hv *v)
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
		if (!hv_value_is(v, "send", k, hv_op_type(i, k), "the data it sends"))
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
		if (!hv_value_is(v, "recv-done", k, pl_value_type(pl_inst_result(s, k)),
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
	return hv_reshapes(v, "dynamic-reshape", a, r);
}

/* Operand leaves k0.. are the result's leaves r0.. (n of them). */
static bool results_are_operands(struct hv *v, const char *opc, size_t r0, size_t k0, size_t n,
                                 const char *what)
{
	for (size_t k = 0; k < n; k++)
		if (!hv_value_is(v, opc, r0 + k, hv_op_type(v->at, k0 + k), what))
			return false;
	return true;
}

/* The ops whose value XLA's verifier fixes outright: ids are u32[],
 * after-all a token, add-dependency and opt-barrier their (first)
 * operand, copy-start (operand, operand, u32[]) and copy-done the first,
 * get-dimension-size s32[] of a dimension of its operand,
 * set-dimension-size its operand, given an s32[] size;
 * rng-get-and-update-state u64[2]; infeed and outfeed take a token. */
static bool fixed_value(struct hv *v)
{
	const char *opc = v->opc;
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i), nr = pl_inst_num_results(i);
	switch (v->op) {
	case HLO_OP_PARTITION_ID:
	case HLO_OP_REPLICA_ID:
		return hv_want_operands(v, opc, 0) && count_is(v, opc, 1, "u32[]") &&
		       scalar_is(v, opc, false, 0, PL_DTYPE_U32, "the value");
	case HLO_OP_AFTER_ALL:
		return count_is(v, opc, 1, "token[]") &&
		       scalar_is(v, opc, false, 0, PL_DTYPE_TOKEN, "the value");
	case HLO_OP_ADD_DEPENDENCY:
		return hv_want_operands(v, opc, 2) &&
		       scalar_is(v, opc, true, 1, PL_DTYPE_TOKEN, "operand 1") &&
		       count_is(v, opc, 1, "its first operand's") &&
		       results_are_operands(v, opc, 0, 0, 1, "the shape of its first operand");
	case HLO_OP_OPT_BARRIER:
		return count_is(v, opc, n, "its operand's") &&
		       results_are_operands(v, opc, 0, 0, n, "the shape of its operand");
	case HLO_OP_COPY_START:
		return count_is(v, opc, 2 * n + 1, "(operand, operand, u32[])") &&
		       results_are_operands(v, opc, 0, 0, n, "the shape of its operand") &&
		       results_are_operands(v, opc, n, 0, n, "the shape of its operand") &&
		       scalar_is(v, opc, false, 2 * n, PL_DTYPE_U32, "the context");
	case HLO_OP_COPY_DONE:
		return (n == 2 * nr + 1 ||
		        hv_bad(v, "copy-done '%s' has %zu values for an operand of %zu: expected the "
		                  "first of its copy-start's (operand, operand, u32[])",
		               hv_name(i), nr, n)) &&
		       results_are_operands(v, opc, 0, 0, nr, "the shape its copy-start copies");
	case HLO_OP_GET_DIMENSION_SIZE: {
		int64_t d[MAX_LIST];
		int nd = hv_list(v, HK(DIMENSIONS), d);
		return hv_want_operands(v, opc, 1) && nd != -1 &&
		       (nd != 1 || hv_dims_in(v, HK(DIMENSIONS), d, 1, hv_op_type(i, 0)->rank)) &&
		       count_is(v, opc, 1, "s32[]") &&
		       scalar_is(v, opc, false, 0, PL_DTYPE_I32, "the value");
	}
	case HLO_OP_SET_DIMENSION_SIZE:
		return hv_want_operands(v, opc, 2) &&
		       scalar_is(v, opc, true, 1, PL_DTYPE_I32, "the size") &&
		       count_is(v, opc, 1, "its operand's") &&
		       (hv_same_dims(pl_value_type(pl_inst_result(i, 0)), hv_op_type(i, 0)) ||
		        hv_dims_are(v, "the result", pl_value_type(pl_inst_result(i, 0)),
		                    hv_op_type(i, 0)));
	case HLO_OP_RNG_GET_AND_UPDATE_STATE: {
		const pl_type *r = nr == 1 ? pl_value_type(pl_inst_result(i, 0)) : NULL;
		if (hv_want_operands(v, opc, 0) &&
		    (!r || r->dtype != PL_DTYPE_U64 || r->rank != 1 || r->dims[0] != 2))
			return hv_bad(v, "rng-get-and-update-state '%s' is not u64[2]: expected its state",
			              hv_name(i));
		return v->rc == PL_OK;
	}
	case HLO_OP_INFEED:
		return (n ? scalar_is(v, opc, true, n - 1, PL_DTYPE_TOKEN, "the operand")
		          : hv_want_operands(v, opc, 1)) &&
		       (nr ? scalar_is(v, opc, false, nr - 1, PL_DTYPE_TOKEN, "the last value")
		           : count_is(v, opc, 1, "(data, token[])"));
	case HLO_OP_OUTFEED:
		return (n ? scalar_is(v, opc, true, n - 1, PL_DTYPE_TOKEN, "the last operand")
		          : hv_want_operands(v, opc, 2)) &&
		       count_is(v, opc, 1, "token[]") &&
		       scalar_is(v, opc, false, 0, PL_DTYPE_TOKEN, "the value");
	default:
		return true;
	}
}

bool hv_chan(struct hv *v)
{
	if (!fixed_value(v))
		return false;
	switch (v->op) {
	case HLO_OP_COLLECTIVE_BROADCAST: return collective_broadcast(v);
	case HLO_OP_RAGGED_ALL_TO_ALL: return ragged_all_to_all(v);
	case HLO_OP_OUTFEED: return outfeed_shape(v);
	case HLO_OP_SEND: return send(v);
	case HLO_OP_RECV: return recv(v);
	case HLO_OP_SEND_DONE: return send_done(v);
	case HLO_OP_RECV_DONE: return recv_done(v);
	case HLO_OP_DYNAMIC_RESHAPE: return dynamic_reshape(v);
	default: return true;
	}
}
