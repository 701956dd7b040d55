/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/async.c — the shapes of asynchronous instructions the
 * reader keeps as HLO ops (those it does not map onto the SDK's start and
 * done, which carry their own checks): an async-start's value is
 * ((operands), result, context...) of the computation it calls, an
 * async-update passes its operand's value through, an async-done gives the
 * computation's result; a collective's start holds its operands then its
 * results (all-gather-start, collective-permute-start) or is the
 * collective's result (all-reduce-start), and its done gives those results
 * (the results of all-gather-start and all-reduce-start against the
 * collective's rule are coll.c's). Values are leaves: a tuple is its
 * leaves, in order. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

/* Result value k of the instruction is want; what names want. */
static bool leaf_is(struct hv *v, size_t k, const pl_type *want, const char *what)
{
	return hv_value_is(v, v->opc, k, want, what);
}

static bool want_results(struct hv *v, size_t n, const char *what)
{
	size_t got = pl_inst_num_results(v->at);
	if (got >= n)
		return true;
	return hv_bad(v, "'%s' (%s) has %zu value%s: expected at least %zu, %s", hv_name(v->at),
	              v->opc, got, got == 1 ? "" : "s", n, what);
}

/* async-start names the computation it runs. */
bool hv_async_start_calls(struct hv *v)
{
	if (!hv_str(v->at, HK(CALLS), &(size_t){0}))
		return hv_bad(v, "async-start '%s' has no calls=: expected the computation it runs",
		              hv_name(v->at));
	return true;
}

/* async-start: operands are the parameters; its value starts with them,
 * then the computation's result. */
bool hv_async_start(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_func *f = hv_callee(v, HK(CALLS), 0);
	const pl_inst *ret = f ? hv_returned(f) : NULL;
	if (!ret)
		return true;
	size_t np = pl_func_num_args(f), nr = pl_inst_num_operands(ret);
	if (pl_inst_num_operands(i) != np)
		return hv_bad(v, "async-start '%s' passes %zu operand%s; '%s' takes %zu", hv_name(i),
		              pl_inst_num_operands(i), pl_inst_num_operands(i) == 1 ? "" : "s",
		              pl_func_name(f), np);
	if (!want_results(v, np + nr, "the operands then the called computation's result"))
		return false;
	for (size_t k = 0; k < np; k++)
		if (!hv_same_type(hv_op_type(i, k), pl_value_type(pl_func_arg(f, k)))) {
			struct hv_two ty = hv_types(hv_op_type(i, k), pl_value_type(pl_func_arg(f, k)));
			return hv_bad(v, "async-start '%s': operand %zu is %s, parameter %zu of '%s' is %s",
			              hv_name(i), k, ty.a, k, pl_func_name(f), ty.b);
		}
	for (size_t k = 0; k < np; k++)
		if (!leaf_is(v, k, hv_op_type(i, k), "the shape of its operand"))
			return false;
	for (size_t k = 0; k < nr; k++)
		if (!leaf_is(v, np + k, hv_op_type(ret, k), "what the called computation returns"))
			return false;
	return true;
}

/* The async-start whose value reaches operand 0 through async-updates. */
static const pl_inst *start_of(const pl_inst *i)
{
	for (int hops = 0; hops < 64 && pl_inst_num_operands(i); hops++) {
		const pl_inst *d = pl_value_def(pl_inst_operand(i, 0));
		enum hlo_op op = d ? hv_op_of(d) : HLO_OP_OTHER;
		if (op == HLO_OP_ASYNC_START)
			return d;
		if (op != HLO_OP_ASYNC_UPDATE)
			return NULL;
		i = d;
	}
	return NULL;
}

/* async-update: the start's value, unchanged. */
bool hv_async_update(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (pl_inst_num_results(i) != n)
		return hv_bad(v, "async-update '%s' has %zu values for an operand of %zu: expected its "
		                 "operand's shape",
		              hv_name(i), pl_inst_num_results(i), n);
	for (size_t k = 0; k < n; k++)
		if (!leaf_is(v, k, hv_op_type(i, k), "as its operand has"))
			return false;
	return true;
}

/* async-done: the called computation's result. */
bool hv_async_done(struct hv *v)
{
	const pl_inst *i = v->at, *st = start_of(i);
	const pl_func *f = NULL;
	if (st) {
		const pl_inst *was = v->at;
		v->at = st;
		f = hv_callee(v, HK(CALLS), 0);
		v->at = was;
	}
	const pl_inst *ret = f ? hv_returned(f) : NULL;
	if (!ret)
		return true;
	size_t nr = pl_inst_num_operands(ret);
	if (pl_inst_num_results(i) != nr)
		return hv_bad(v, "async-done '%s' has %zu value%s: expected %zu, what '%s' returns",
		              hv_name(i), pl_inst_num_results(i), pl_inst_num_results(i) == 1 ? "" : "s",
		              nr, pl_func_name(f));
	for (size_t k = 0; k < nr; k++)
		if (!leaf_is(v, k, hv_op_type(ret, k), "what the called computation returns"))
			return false;
	return true;
}

/* collective-permute-start in its in-place form: input, output buffer,
 * input and output start indices (tuples, read as their parts), and
 * slice_sizes. */
static bool is_inplace_permute(const pl_inst *i)
{
	return pl_inst_num_operands(i) >= 4 && hv_str(i, HK(SLICE_SIZES), &(size_t){0});
}

/* The operands part of a collective's start: its value holds its
 * operands, then one result per operand, then any context (all-gather's
 * results are coll.c's to check). */
bool hv_start_operands(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (!want_results(v, 2 * n, "its operands then one result per operand"))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!leaf_is(v, k, hv_op_type(i, k), "the shape of its operand"))
			return false;
	return true;
}

/* collective-permute-start: its operands, then each permuted, of the
 * operand's shape; the in-place permute (input, output buffer, two index
 * tuples) holds its input and its output buffer, then its context. */
bool hv_permute_start(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (is_inplace_permute(i)) {
		if (!want_results(v, 2, "its input and output buffer"))
			return false;
		return leaf_is(v, 0, hv_op_type(i, 0), "the shape of its input") &&
		       leaf_is(v, 1, hv_op_type(i, 1), "the shape of its output buffer");
	}
	if (!hv_start_operands(v))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!leaf_is(v, n + k, hv_op_type(i, k), "the shape of the operand it permutes"))
			return false;
	return true;
}

/* A collective's done: the results part of its start's value (all of it
 * for all-reduce-start, which has no operands part). */
static bool collective_done(struct hv *v, enum hlo_op start_op, bool has_operands_part)
{
	const pl_inst *i = v->at;
	const pl_inst *st = pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, 0)) : NULL;
	if (!st || hv_op_of(st) != start_op)
		return true;
	size_t off = has_operands_part ? pl_inst_num_operands(st) : 0;
	size_t nr = has_operands_part ? pl_inst_num_operands(st) : pl_inst_num_results(st);
	if (has_operands_part && is_inplace_permute(st))
		off = nr = 1; /* the output buffer, after the input */
	if (pl_inst_num_results(i) != nr || pl_inst_num_results(st) < off + nr)
		return hv_bad(v, "'%s' (%s) has %zu value%s: expected %zu, the results of its start",
		              hv_name(i), v->opc, pl_inst_num_results(i),
		              pl_inst_num_results(i) == 1 ? "" : "s", nr);
	for (size_t k = 0; k < nr; k++)
		if (!leaf_is(v, k, pl_value_type(pl_inst_result(st, off + k)),
		             "the result its start holds"))
			return false;
	return true;
}

bool hv_all_gather_done(struct hv *v)
{
	return collective_done(v, HLO_OP_ALL_GATHER_START, true);
}

bool hv_permute_done(struct hv *v)
{
	return collective_done(v, HLO_OP_COLLECTIVE_PERMUTE_START, true);
}

bool hv_all_reduce_done(struct hv *v)
{
	return collective_done(v, HLO_OP_ALL_REDUCE_START, false);
}

/* all-reduce-start: one result per operand (of its shape, coll.c). */
bool hv_all_reduce_start_count(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_results(i) != pl_inst_num_operands(i))
		return hv_bad(v, "all-reduce-start '%s' has %zu values for %zu operands: expected one "
		                 "result per operand, of its shape",
		              hv_name(i), pl_inst_num_results(i), pl_inst_num_operands(i));
	return true;
}
