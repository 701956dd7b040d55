/* SPDX-License-Identifier: MIT */
/* sdk/ir/hlo_keys.h — every "hlo_*" attribute key the library sets or
 * reads by name, in one table: the HLO reader sets them, the writer, the
 * HLO verifier, the counting and the cost model read them. It lives in the
 * bottom floor so that hlo/ and analysis/ name keys through the same table
 * (the IR core itself reads none). The keys the shipped plugins and the
 * host read are rows too, though they spell them (they see only the
 * installed headers). passline-pir(5) documents each row (tests/hlo-keys.sh
 * checks the two agree, both ways, and that no source of the library
 * spells a key).
 *
 * A row is X(ID, KEY, ON, FORM, MEANING):
 *   ON    MODULE (on the entry function), FUNC or INST;
 *   FORM  BOOL, TEXT (a string), LIST (a list of strings), INTS (a list of
 *         integers), or ATTR: an HLO attribute the reader keeps verbatim,
 *         as it keeps every other, that the library or a plugin reads
 *         by name.
 * The reader refuses an HLO attribute whose key would be one of its own
 * instruction keys (ON INST, FORM not ATTR), and the writer never prints
 * those as attributes. Nothing here is installed. */
#ifndef PL_HLO_KEYS_H
#define PL_HLO_KEYS_H

#include "ir/internal.h"

/* clang-format off */
#define PL_HLO_KEYS(X) \
	X(ENTRY, "hlo_entry", MODULE, BOOL, "the entry computation") \
	X(MODULE, "hlo_module", MODULE, TEXT, "the HloModule line, verbatim") \
	X(STACK_FRAMES, "hlo_stack_frames", MODULE, TEXT, "the stack frame tables after the HloModule line, verbatim") \
	X(ASYNC_WRAPPED, "hlo_async_wrapped", MODULE, BOOL, "asynchronous collectives passes make are written async-start over a computation") \
	X(PARAM_SHAPES, "hlo_param_shapes", FUNC, LIST, "the parameters' shapes") \
	X(PARAM_ATTRS, "hlo_param_attrs", FUNC, LIST, "the parameters' attributes") \
	X(PARAM_NAMES, "hlo_param_names", FUNC, LIST, "the names of the parameters that are empty tuples") \
	X(EXECUTION_THREAD, "hlo_execution_thread", FUNC, TEXT, "the computation's execution_thread") \
	X(SHAPE, "hlo_shape", INST, TEXT, "the result shape with layouts and tuple structure") \
	X(OPERANDS, "hlo_operands", INST, TEXT, "the tuple structure of the operands") \
	X(OPERAND_NAMES, "hlo_operand_names", INST, LIST, "per operand, the name of a get-tuple-element") \
	X(OPERAND_SHAPES, "hlo_operand_shapes", INST, LIST, "per operand with a kept name, the shape of its get-tuple-element line where its layout is not its element's (\"\": the element's)") \
	X(OPERAND_ATTRS, "hlo_operand_attrs", INST, LIST, "per operand, the attributes of its tuple or get-tuple-element line") \
	X(LABEL_ATTRS, "hlo_label_attrs", INST, LIST, "per NAME@ANCHOR line of hlo_operands, in order, the attributes of that line (a tuple that is an operand itself: in hlo_operand_attrs)") \
	X(START_DONE, "hlo_start_done", INST, BOOL, "a collective start read as all-gather-start, all-reduce-start or reduce-scatter-start: written so, whichever form the passes' new ones take") \
	X(NAME, "hlo_name", INST, TEXT, "the name of an instruction without results, or of a tuple root") \
	X(CONSTANT, "hlo_constant", INST, TEXT, "a constant's literal") \
	X(OPCODE, "hlo_opcode", INST, TEXT, "the opcode of a root the return stands for") \
	X(TO_APPLY, "hlo_to_apply", INST, ATTR, "the computation called (a reducer, a call)") \
	X(CALLS, "hlo_calls", INST, ATTR, "the computations called (a fusion, an async start)") \
	X(BODY, "hlo_body", INST, ATTR, "a while's body") \
	X(CONDITION, "hlo_condition", INST, ATTR, "a while's condition") \
	X(BRANCH_COMPUTATIONS, "hlo_branch_computations", INST, ATTR, "a conditional's branches") \
	X(TRUE_COMPUTATION, "hlo_true_computation", INST, ATTR, "a conditional's true branch") \
	X(FALSE_COMPUTATION, "hlo_false_computation", INST, ATTR, "a conditional's false branch") \
	X(CONTROL_PREDECESSORS, "hlo_control_predecessors", INST, ATTR, "control-predecessors, the one HLO attribute with a dash") \
	X(DIMENSIONS, "hlo_dimensions", INST, ATTR, "a collective's dimensions") \
	X(REPLICA_GROUPS, "hlo_replica_groups", INST, ATTR, "a collective's replica groups") \
	X(SOURCE_TARGET_PAIRS, "hlo_source_target_pairs", INST, ATTR, "a collective-permute's source-target pairs") \
	X(SLICE_SIZES, "hlo_slice_sizes", INST, ATTR, "an in-place collective-permute's or a gather's slice sizes") \
	X(CALLED_COMPUTATIONS, "hlo_called_computations", INST, ATTR, "the computations a custom-call calls") \
	X(SELECT, "hlo_select", INST, ATTR, "a select-and-scatter's select computation") \
	X(SCATTER, "hlo_scatter", INST, ATTR, "a select-and-scatter's scatter computation") \
	X(BACKEND_CONFIG, "hlo_backend_config", INST, ATTR, "the backend configuration (a while's known trip count, a custom-call's)") \
	X(CUSTOM_CALL_TARGET, "hlo_custom_call_target", INST, ATTR, "a custom-call's target") \
	X(DIRECTION, "hlo_direction", INST, ATTR, "a compare's direction") \
	X(DISTRIBUTION, "hlo_distribution", INST, ATTR, "an rng's distribution") \
	X(EXPONENT_BITS, "hlo_exponent_bits", INST, ATTR, "a reduce-precision's exponent bits") \
	X(MANTISSA_BITS, "hlo_mantissa_bits", INST, ATTR, "a reduce-precision's mantissa bits") \
	X(SLICE, "hlo_slice", INST, ATTR, "a slice's ranges") \
	X(DYNAMIC_SLICE_SIZES, "hlo_dynamic_slice_sizes", INST, ATTR, "a dynamic-slice's sizes") \
	X(CUSTOM_CALL_HAS_SIDE_EFFECT, "hlo_custom_call_has_side_effect", INST, ATTR, \
	  "whether a custom-call has side effects") \
	X(IOTA_DIMENSION, "hlo_iota_dimension", INST, ATTR, "an iota's dimension") \
	X(PADDING, "hlo_padding", INST, ATTR, "a pad's padding") \
	X(OFFSET_DIMS, "hlo_offset_dims", INST, ATTR, "a gather's offset dimensions") \
	X(COLLAPSED_SLICE_DIMS, "hlo_collapsed_slice_dims", INST, ATTR, "a gather's collapsed slice dimensions") \
	X(START_INDEX_MAP, "hlo_start_index_map", INST, ATTR, "a gather's start index map") \
	X(OPERAND_BATCHING_DIMS, "hlo_operand_batching_dims", INST, ATTR, "a gather's operand batching dimensions") \
	X(INDEX_VECTOR_DIM, "hlo_index_vector_dim", INST, ATTR, "a gather's or scatter's index vector dimension") \
	X(UPDATE_WINDOW_DIMS, "hlo_update_window_dims", INST, ATTR, "a scatter's update window dimensions") \
	X(INSERTED_WINDOW_DIMS, "hlo_inserted_window_dims", INST, ATTR, "a scatter's inserted window dimensions") \
	X(SCATTER_DIMS_TO_OPERAND_DIMS, "hlo_scatter_dims_to_operand_dims", INST, ATTR, "a scatter's map of index to operand dimensions") \
	X(INPUT_BATCHING_DIMS, "hlo_input_batching_dims", INST, ATTR, "a scatter's input batching dimensions") \
	X(WINDOW, "hlo_window", INST, ATTR, "a convolution's or reduce-window's window") \
	X(DIM_LABELS, "hlo_dim_labels", INST, ATTR, "a convolution's dimension labels") \
	X(FEATURE_GROUP_COUNT, "hlo_feature_group_count", INST, ATTR, "a convolution's feature group count") \
	X(BATCH_GROUP_COUNT, "hlo_batch_group_count", INST, ATTR, "a convolution's batch group count") \
	X(SHARDING, "hlo_sharding", INST, ATTR, "the sharding (read by the plugins that combine collectives)") \
	X(FRONTEND_ATTRIBUTES, "hlo_frontend_attributes", INST, ATTR, "the frontend attributes (read by the plugins that combine collectives)") \
	X(CONSTRAIN_LAYOUT, "hlo_constrain_layout", INST, ATTR, "a collective's constrain_layout (read by the plugins that combine collectives)") \
	X(LHS_CONTRACTING_DIMS, "hlo_lhs_contracting_dims", INST, ATTR, "a dot's contracting dimensions, left") \
	X(RHS_CONTRACTING_DIMS, "hlo_rhs_contracting_dims", INST, ATTR, "a dot's contracting dimensions, right") \
	X(LHS_BATCH_DIMS, "hlo_lhs_batch_dims", INST, ATTR, "a dot's batch dimensions, left") \
	X(RHS_BATCH_DIMS, "hlo_rhs_batch_dims", INST, ATTR, "a dot's batch dimensions, right") \
	X(CHANNEL_ID, "hlo_channel_id", INST, ATTR, "a send's, recv's or their done's channel, the same for a start and its done") \
	X(ASYNC_UPDATES, "hlo_async_updates", INST, LIST, "on a done, the names of the async-update lines between its start and it, in order") \
	X(ASYNC_UPDATE_ATTRS, "hlo_async_update_attrs", INST, LIST, "on a done, the attributes of each of those lines, verbatim") \
	X(IS_HOST_TRANSFER, "hlo_is_host_transfer", INST, ATTR, "a send's, recv's or their done's is_host_transfer, the same for a start and its done") \
	X(COMPARISON_TYPE, "hlo_type", INST, ATTR, "a compare's comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED)") \
	X(USE_GLOBAL_DEVICE_IDS, "hlo_use_global_device_ids", INST, ATTR, "a collective's use_global_device_ids: its replica groups name flattened device ids") \
	X(FEATURE_INDEX, "hlo_feature_index", INST, ATTR, "a batch-norm's feature dimension") \
	X(FFT_TYPE, "hlo_fft_type", INST, ATTR, "an fft's kind (FFT, IFFT, RFFT, IRFFT)") \
	X(FFT_LENGTH, "hlo_fft_length", INST, ATTR, "an fft's lengths, innermost dimensions") \
	X(K, "hlo_k", INST, ATTR, "a topk's count") \
	X(LEFT_SIDE, "hlo_left_side", INST, ATTR, "a triangular-solve's side") \
	X(OUTFEED_SHAPE, "hlo_outfeed_shape", INST, ATTR, "an outfeed's outfeed_shape, the shape of the data it sends") \
	X(LHS_RAGGED_DIMS, "hlo_lhs_ragged_dims", INST, ATTR, "a ragged-dot's ragged dimension, left") \
	X(RHS_GROUP_DIMS, "hlo_rhs_group_dims", INST, ATTR, "a ragged-dot's group dimension, right") \
	X(INDEX, "hlo_index", INST, ATTR, "the index of a get-tuple-element line kept as an hlo.get_tuple_element without results (one nothing uses, or one whose element is another value whole)")
/* clang-format on */

/* An HLO attribute "foo" is kept under "hlo_foo"; control-predecessors is
 * spelled with an underscore. */
#define PL_HLO_KEY_PREFIX "hlo_"
#define PL_HLO_KEY_PREFIX_LEN 4

enum pl_hlo_key {
#define PL_HLO_KEY_ENUM_(id, key, on, form, meaning) PL_HK_##id,
	PL_HLO_KEYS(PL_HLO_KEY_ENUM_)
#undef PL_HLO_KEY_ENUM_
	PL_HK_COUNT_
};

enum pl_hlo_key_on { PL_HK_ON_MODULE, PL_HK_ON_FUNC, PL_HK_ON_INST };
enum pl_hlo_key_form { PL_HK_FORM_BOOL, PL_HK_FORM_TEXT, PL_HK_FORM_LIST, PL_HK_FORM_INTS, PL_HK_FORM_ATTR };

struct pl_hlo_key_info {
	const char *key;
	uint8_t on, form; /* enum pl_hlo_key_on, enum pl_hlo_key_form */
	const char *meaning;
};

PL_INTERNAL extern const struct pl_hlo_key_info pl_hlo_keys_[PL_HK_COUNT_];

/* The key of row ID: HK(SHAPE) is "hlo_shape". */
#define HK(id) (pl_hlo_keys_[PL_HK_##id].key)

/* The key of row e, for a table of rows (the keys themselves are not
 * constants a static array could hold). */
static inline const char *pl_hlo_key_(enum pl_hlo_key e)
{
	return pl_hlo_keys_[e].key;
}

/* Whether k, a key "hlo_...", is one the reader keeps for itself on an
 * instruction (its shape, operands, name, opcode or literal) rather than
 * an HLO attribute kept verbatim. */
PL_INTERNAL bool pl_hlo_internal_key_(const char *k);

#endif
