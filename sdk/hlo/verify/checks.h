/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/checks.h — the checks the dispatch table of verify.c
 * names, by the file (the family of opcodes) that has them. Each is an
 * hv_check of v->at: true when it passes, false after its error. A
 * family calls only the helpers of hv.h, never another family or the
 * dispatcher (tests/hlo-verify-layers.sh holds the files to it). Nothing
 * here is installed. */
#ifndef PL_HLO_VERIFY_CHECKS_H
#define PL_HLO_VERIFY_CHECKS_H

#include "hlo/verify/hv.h"

/* calls.c: every instruction's named computations exist (the first is
 * kept in v->callee); call's arguments against that computation; the
 * signatures of call, fusion, while and conditional's computations. */
hv_check hv_named_computations, hv_call_arguments, hv_call, hv_fusion, hv_while,
	hv_conditional;

/* shapes.c */
hv_check hv_dot, hv_broadcast, hv_transpose, hv_reshape, hv_concatenate, hv_convert, hv_iota,
	hv_select, hv_clamp;

/* slices.c */
hv_check hv_slice, hv_dynamic_slice, hv_dynamic_update_slice, hv_pad, hv_gather, hv_scatter;

/* elem.c: an elementwise op's operand count and shapes (unary, binary;
 * compare's too), the element types it takes and gives, and the ops that
 * change types or order. */
hv_check hv_unary_shape, hv_binary_shape, hv_unary_types, hv_binary_types, hv_compare,
	hv_bitcast, hv_bitcast_convert, hv_domain, hv_stochastic_convert, hv_rng, hv_reverse,
	hv_reduce_precision;

/* reduce.c */
hv_check hv_reduce, hv_map, hv_sort;

/* window.c */
hv_check hv_convolution, hv_reduce_window, hv_select_and_scatter;

/* coll.c: the SDK's collectives (and their starts), the results part of
 * all-gather-start and all-reduce-start kept as HLO, all-to-all. */
hv_check hv_sdk_all_gather, hv_sdk_reduce_scatter, hv_sdk_all_reduce, hv_all_gather_start,
	hv_all_reduce_start, hv_all_to_all;

/* async.c: async-start (its calls=, then its value), -update, -done; a
 * collective's start (its operands part; collective-permute-start whole;
 * all-reduce-start's result count) and done. */
hv_check hv_async_start_calls, hv_async_start, hv_async_update, hv_async_done,
	hv_start_operands, hv_permute_start, hv_all_reduce_start_count, hv_all_gather_done,
	hv_permute_done, hv_all_reduce_done;

/* chan.c */
hv_check hv_collective_broadcast, hv_ragged_all_to_all, hv_outfeed_shape, hv_send, hv_recv,
	hv_send_done, hv_recv_done, hv_dynamic_reshape;

/* fixed.c: hv_id is partition-id's and replica-id's, hv_rng_state
 * rng-get-and-update-state's. */
hv_check hv_id, hv_after_all, hv_add_dependency, hv_opt_barrier, hv_copy_start, hv_copy_done,
	hv_get_dimension_size, hv_set_dimension_size, hv_rng_state, hv_infeed, hv_outfeed;

/* infer.c: hv_linear_solve is cholesky's and triangular-solve's. */
hv_check hv_batch_norm, hv_fft, hv_topk, hv_linear_solve, hv_ragged_dot;

#endif
