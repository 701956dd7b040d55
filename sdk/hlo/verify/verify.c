/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/verify.c — the HLO verifier's entry and its one
 * dispatch table: the checks XLA's verifier makes of a module the HLO
 * reader has mapped onto the IR, instruction by instruction. Every
 * instruction has the computations it names checked, every HLO one its
 * replica groups and source_target_pairs; then the row of its opcode
 * (enum hlo_op, from the opcode table of passline/hlo_ops.h, classified
 * once per instruction) names the checks of the family files, run in
 * order. The first finding stops the check. Every rule is linear in the
 * instruction's operands and attributes. */
#include "hlo/verify/checks.h"

#include <stdlib.h>

/* The rows past the opcodes: the SDK's own ops the reader maps HLO onto
 * (all-gather and its start share a row: a start's results are the
 * collective's; a dot becomes tensor_contract). */
enum {
	KIND_SDK_ALL_GATHER = HLO_OP_OTHER + 1,
	KIND_SDK_REDUCE_SCATTER,
	KIND_SDK_ALL_REDUCE,
	KIND_SDK_DOT,
	KINDS
};

/* The longest row: two checks, and the NULL that ends it. */
#define ROW 3
#define UNARY {hv_unary_shape, hv_unary_types}
#define BINARY {hv_binary_shape, hv_binary_types}

/* What is checked of each kind of instruction, in order; an opcode
 * without a row (HLO_OP_OTHER among them) has only the checks every
 * instruction has. */
static hv_check *const rules[KINDS][ROW] = {
	/* elem.c: the elementwise ops, compare, and those that change types */
	[HLO_OP_ABS] = UNARY, [HLO_OP_CBRT] = UNARY, [HLO_OP_CEIL] = UNARY, [HLO_OP_COPY] = UNARY,
	[HLO_OP_COSINE] = UNARY, [HLO_OP_COUNT_LEADING_ZEROS] = UNARY, [HLO_OP_ERF] = UNARY,
	[HLO_OP_EXPONENTIAL] = UNARY, [HLO_OP_EXPONENTIAL_MINUS_ONE] = UNARY,
	[HLO_OP_FLOOR] = UNARY, [HLO_OP_IMAG] = UNARY, [HLO_OP_IS_FINITE] = UNARY,
	[HLO_OP_LOG] = UNARY, [HLO_OP_LOG_PLUS_ONE] = UNARY, [HLO_OP_LOGISTIC] = UNARY,
	[HLO_OP_NEGATE] = UNARY, [HLO_OP_NOT] = UNARY, [HLO_OP_POPCNT] = UNARY,
	[HLO_OP_REAL] = UNARY, [HLO_OP_ROUND_NEAREST_AFZ] = UNARY,
	[HLO_OP_ROUND_NEAREST_EVEN] = UNARY, [HLO_OP_RSQRT] = UNARY, [HLO_OP_SIGN] = UNARY,
	[HLO_OP_SINE] = UNARY, [HLO_OP_SQRT] = UNARY, [HLO_OP_TAN] = UNARY, [HLO_OP_TANH] = UNARY,
	[HLO_OP_ADD] = BINARY, [HLO_OP_AND] = BINARY, [HLO_OP_ATAN2] = BINARY,
	[HLO_OP_COMPLEX] = BINARY, [HLO_OP_DIVIDE] = BINARY, [HLO_OP_MAXIMUM] = BINARY,
	[HLO_OP_MINIMUM] = BINARY, [HLO_OP_MULTIPLY] = BINARY, [HLO_OP_OR] = BINARY,
	[HLO_OP_POWER] = BINARY, [HLO_OP_REMAINDER] = BINARY, [HLO_OP_SHIFT_LEFT] = BINARY,
	[HLO_OP_SHIFT_RIGHT_ARITHMETIC] = BINARY, [HLO_OP_SHIFT_RIGHT_LOGICAL] = BINARY,
	[HLO_OP_SUBTRACT] = BINARY, [HLO_OP_XOR] = BINARY,
	[HLO_OP_COMPARE] = {hv_compare, hv_binary_shape},
	[HLO_OP_BITCAST] = {hv_bitcast},
	[HLO_OP_BITCAST_CONVERT] = {hv_bitcast_convert},
	[HLO_OP_DOMAIN] = {hv_domain},
	[HLO_OP_STOCHASTIC_CONVERT] = {hv_stochastic_convert},
	[HLO_OP_RNG] = {hv_rng},
	[HLO_OP_REVERSE] = {hv_reverse},
	[HLO_OP_REDUCE_PRECISION] = {hv_reduce_precision},
	/* shapes.c */
	[HLO_OP_DOT] = {hv_dot}, /* a dot the reader could not map onto tensor_contract */
	[HLO_OP_BROADCAST] = {hv_broadcast},
	[HLO_OP_TRANSPOSE] = {hv_transpose},
	[HLO_OP_RESHAPE] = {hv_reshape},
	[HLO_OP_CONCATENATE] = {hv_concatenate},
	[HLO_OP_CONVERT] = {hv_convert},
	[HLO_OP_IOTA] = {hv_iota},
	[HLO_OP_SELECT] = {hv_select},
	[HLO_OP_CLAMP] = {hv_clamp},
	/* slices.c */
	[HLO_OP_SLICE] = {hv_slice},
	[HLO_OP_DYNAMIC_SLICE] = {hv_dynamic_slice},
	[HLO_OP_DYNAMIC_UPDATE_SLICE] = {hv_dynamic_update_slice},
	[HLO_OP_PAD] = {hv_pad},
	[HLO_OP_GATHER] = {hv_gather},
	[HLO_OP_SCATTER] = {hv_scatter},
	/* reduce.c, window.c */
	[HLO_OP_REDUCE] = {hv_reduce},
	[HLO_OP_MAP] = {hv_map},
	[HLO_OP_SORT] = {hv_sort},
	[HLO_OP_CONVOLUTION] = {hv_convolution},
	[HLO_OP_REDUCE_WINDOW] = {hv_reduce_window},
	[HLO_OP_SELECT_AND_SCATTER] = {hv_select_and_scatter},
	/* calls.c */
	[HLO_OP_CALL] = {hv_call_arguments, hv_call},
	[HLO_OP_FUSION] = {hv_fusion},
	[HLO_OP_WHILE] = {hv_while},
	[HLO_OP_CONDITIONAL] = {hv_conditional},
	/* async.c, with coll.c for the collectives' results */
	[HLO_OP_ASYNC_START] = {hv_async_start_calls, hv_async_start},
	[HLO_OP_ASYNC_UPDATE] = {hv_async_update},
	[HLO_OP_ASYNC_DONE] = {hv_async_done},
	[HLO_OP_ALL_GATHER_START] = {hv_start_operands, hv_all_gather_start},
	[HLO_OP_ALL_REDUCE_START] = {hv_all_reduce_start_count, hv_all_reduce_start},
	[HLO_OP_COLLECTIVE_PERMUTE_START] = {hv_permute_start},
	[HLO_OP_ALL_GATHER_DONE] = {hv_all_gather_done},
	[HLO_OP_ALL_REDUCE_DONE] = {hv_all_reduce_done},
	[HLO_OP_COLLECTIVE_PERMUTE_DONE] = {hv_permute_done},
	[HLO_OP_ALL_TO_ALL] = {hv_all_to_all},
	/* chan.c */
	[HLO_OP_COLLECTIVE_BROADCAST] = {hv_collective_broadcast},
	[HLO_OP_RAGGED_ALL_TO_ALL] = {hv_ragged_all_to_all},
	[HLO_OP_SEND] = {hv_send},
	[HLO_OP_RECV] = {hv_recv},
	[HLO_OP_SEND_DONE] = {hv_send_done},
	[HLO_OP_RECV_DONE] = {hv_recv_done},
	[HLO_OP_DYNAMIC_RESHAPE] = {hv_dynamic_reshape},
	/* fixed.c (outfeed with chan.c's outfeed_shape) */
	[HLO_OP_PARTITION_ID] = {hv_id},
	[HLO_OP_REPLICA_ID] = {hv_id},
	[HLO_OP_AFTER_ALL] = {hv_after_all},
	[HLO_OP_ADD_DEPENDENCY] = {hv_add_dependency},
	[HLO_OP_OPT_BARRIER] = {hv_opt_barrier},
	[HLO_OP_COPY_START] = {hv_copy_start},
	[HLO_OP_COPY_DONE] = {hv_copy_done},
	[HLO_OP_GET_DIMENSION_SIZE] = {hv_get_dimension_size},
	[HLO_OP_SET_DIMENSION_SIZE] = {hv_set_dimension_size},
	[HLO_OP_RNG_GET_AND_UPDATE_STATE] = {hv_rng_state},
	[HLO_OP_INFEED] = {hv_infeed},
	[HLO_OP_OUTFEED] = {hv_outfeed, hv_outfeed_shape},
	/* infer.c */
	[HLO_OP_BATCH_NORM_TRAINING] = {hv_batch_norm},
	[HLO_OP_BATCH_NORM_INFERENCE] = {hv_batch_norm},
	[HLO_OP_BATCH_NORM_GRAD] = {hv_batch_norm},
	[HLO_OP_FFT] = {hv_fft},
	[HLO_OP_TOPK] = {hv_topk},
	[HLO_OP_CHOLESKY] = {hv_linear_solve},
	[HLO_OP_TRIANGULAR_SOLVE] = {hv_linear_solve},
	[HLO_OP_RAGGED_DOT] = {hv_ragged_dot},
	/* the SDK's ops (coll.c, shapes.c) */
	[KIND_SDK_ALL_GATHER] = {hv_sdk_all_gather},
	[KIND_SDK_REDUCE_SCATTER] = {hv_sdk_reduce_scatter},
	[KIND_SDK_ALL_REDUCE] = {hv_sdk_all_reduce},
	[KIND_SDK_DOT] = {hv_dot},
};
#undef UNARY
#undef BINARY

/* The row of an SDK op the reader maps HLO onto; -1 for any other op. */
static int sdk_kind(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER: case PL_OP_ALL_GATHER_START: return KIND_SDK_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER: case PL_OP_REDUCE_SCATTER_START: return KIND_SDK_REDUCE_SCATTER;
	case PL_OP_ALL_REDUCE: case PL_OP_ALL_REDUCE_START: return KIND_SDK_ALL_REDUCE;
	case PL_OP_TENSOR_CONTRACT: return KIND_SDK_DOT;
	default: return -1;
	}
}

static void check_inst(struct hv *v, const pl_inst *i)
{
	v->at = i;
	v->op = HLO_OP_OTHER;
	v->opc = pl_inst_opname(i);
	v->callee = NULL;
	v->group_size = 0;
	if (!hv_named_computations(v))
		return;
	int kind = sdk_kind(pl_inst_op(i));
	if (kind < 0) {
		if (!pl_inst_is_hlo_(i))
			return;
		v->op = hv_op_of(i);
		v->opc = v->op == HLO_OP_OTHER ? pl_inst_opname(i) + 4 : pl_hlo_opcode_name_(v->op);
		/* all-reduce's groups may differ in size (XLA's verifier) */
		bool any_size = v->op == HLO_OP_ALL_REDUCE || v->op == HLO_OP_ALL_REDUCE_START;
		if (!hv_groups(v, HK(REPLICA_GROUPS), &v->group_size, !any_size) || !hv_pairs(v))
			return;
		kind = (int)v->op;
	}
	for (size_t k = 0; k < ROW && rules[kind][k]; k++)
		if (!rules[kind][k](v))
			return;
}

/* The number after "key=" in the HloModule line h (a whole attribute:
 * after a comma or blank), or 1, XLA's default. */
static int64_t config_number(const char *h, size_t hl, const char *key)
{
	size_t kl = strlen(key);
	for (size_t k = 1; k + kl < hl; k++) {
		if ((h[k - 1] != ',' && h[k - 1] != ' ') || memcmp(h + k, key, kl))
			continue;
		int64_t x = 0;
		size_t q = k + kl;
		while (q < hl && h[q] >= '0' && h[q] <= '9' && x < MAX_DEVICE)
			x = x * 10 + (h[q++] - '0');
		return q > k + kl && x > 0 ? x : 1;
	}
	return 1;
}

int pl_hlo_verify_(const pl_module *m, const char *file, bool layouts, pl_diags *diags)
{
	struct hv v = {.m = m, .file = file, .diags = diags, .rc = PL_OK, .replicas = 1,
	               .partitions = 1, .layouts = layouts};
	for (size_t f = 0; f < pl_module_num_funcs(m); f++) {
		const pl_attrs *a = pl_func_attrs(pl_module_func_at(m, f));
		const char *h;
		size_t hl;
		if (pl_attrs_get_string(a, HK(MODULE), &h, &hl) == PL_OK) {
			v.replicas = config_number(h, hl, "replica_count=");
			v.partitions = config_number(h, hl, "num_partitions=");
			break;
		}
	}
	for (size_t f = 0; f < pl_module_num_funcs(m) && v.rc == PL_OK; f++)
		for (const pl_inst *i = pl_func_first_inst(pl_module_func_at(m, f)); i && v.rc == PL_OK;
		     i = pl_inst_next(i))
			check_inst(&v, i);
	free(v.seen);
	return v.rc;
}
