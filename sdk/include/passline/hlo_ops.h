/* SPDX-License-Identifier: MIT */
/* passline/hlo_ops.h — the opcodes of XLA's HLO text, in one table: what
 * the HLO reader, the cost model, fusion, memory, the call graph and the
 * passes know of each. The reader makes an instruction of each opcode an
 * op "hlo.<opcode>" with its dashes as underscores ("hlo.all_gather";
 * collectives it can express and dots become the SDK's own ops, see
 * passline/ops.h). Each module classifies an op name once, when it is
 * first used: pl_inst_hlo_op then costs a load, and no user of the table
 * compares op names.
 *
 * A row is X(ID, HLO, OP, FUSE, CALLS, COLL, FLAGS, REQUIRED):
 *   HLO       the opcode as HLO text spells it;
 *   OP        the op the reader makes of it;
 *   FUSE      its class in the fusion model (enum pl_hlo_fuse);
 *   CALLS     which computations it runs and how (enum pl_hlo_calls);
 *   COLL      the collective it is, is the start or the done of
 *             (enum pl_hlo_coll);
 *   FLAGS     PL_HLO_* bits below;
 *   REQUIRED  the attributes XLA's parser requires of it, space-separated,
 *             as CreateInstruction of XLA's hlo_parser.cc declares them
 *             (two that depend on the first operand are not listed:
 *             broadcast needs dimensions= unless its operand is a scalar;
 *             conditional true_computation= and false_computation= for a
 *             pred[] index, else branch_computations=).
 * The rows are in byte order of HLO. Rows are only ever appended (the
 * values of enum pl_hlo_op are part of the ABI): the first
 * PL_HLO_SORTED_ rows stay in byte order, a row added later is found by
 * a scan. The columns are what the library reads: a plugin asks the
 * functions below (pl_hlo_op_flags, ...), which answer for the library
 * that runs it. */
#ifndef PASSLINE_HLO_OPS_H
#define PASSLINE_HLO_OPS_H

#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FLAGS: what an opcode is besides its class. */
enum {
	/* computes each element of its result from the same element of its
	 * operands (XLA's IsElementwise) */
	PL_HLO_F_ELEMENTWISE = 1u << 0,
	/* the result has the first operand's shape (so HLO text may leave it
	 * out) */
	PL_HLO_F_SHAPE_OF_OPERAND = 1u << 1,
	/* has effects beyond its results (XLA's HasSideEffect), calls
	 * computations or runs asynchronously: such instructions keep their
	 * order among themselves (custom-call only with
	 * custom_call_has_side_effect=true, which the row cannot say) */
	PL_HLO_F_ORDERED = 1u << 2,
	/* no kernel of its own: it names, regroups or calls values, or its
	 * work is elsewhere (a copy-start's copy, a send's transfer); the
	 * cost model charges it nothing */
	PL_HLO_F_NO_KERNEL = 1u << 3,
	/* a view: its result is (a part of) its operand's buffer, it allocates
	 * nothing (result k is operand k's where it has several) */
	PL_HLO_F_VIEW = 1u << 4,
	/* may write its result into an operand's buffer (result k into
	 * operand k; a fusion where its root does) */
	PL_HLO_F_IN_PLACE = 1u << 5,
	/* the start of an asynchronous pair (its done takes its result) */
	PL_HLO_F_ASYNC_START = 1u << 6,
	/* the done of an asynchronous pair (its operand is the start) */
	PL_HLO_F_ASYNC_DONE = 1u << 7,
};

/* FUSE: the class of an opcode in the fusion model (passline/fusion.h). */
enum pl_hlo_fuse {
	PL_HLO_FUSE_LIBRARY = 0, /* a kernel of its own (a library call, a sort) */
	PL_HLO_FUSE_FREE,    /* no kernel: parameters, tuples, control, collectives */
	PL_HLO_FUSE_VIEW,    /* a bitcast or reshape: fuses for free */
	PL_HLO_FUSE_LAYOUT,  /* cheap data movement: fusible, counts no flops */
	PL_HLO_FUSE_ELEM,    /* cheap element-wise: fusible, computed again where needed */
	PL_HLO_FUSE_COSTLY,  /* expensive element-wise: fusible, never computed twice */
	PL_HLO_FUSE_REDUCE,  /* a reduction: takes producers */
	PL_HLO_FUSE_ROOT,    /* a loop kernel that takes producers, never joins a consumer */
	PL_HLO_FUSE_MATMUL,  /* dot, convolution */
};

/* CALLS: which computations an opcode runs, and how (passline/callgraph.h
 * counts them so). */
enum pl_hlo_calls {
	PL_HLO_CALLS_NONE = 0,
	PL_HLO_CALLS_LOOP,     /* while: body= N times, condition= N + 1 */
	PL_HLO_CALLS_ONCE,     /* call: to_apply= once */
	PL_HLO_CALLS_BRANCHES, /* conditional: one of its branches */
	PL_HLO_CALLS_KERNEL,   /* fusion: calls= as one kernel */
	PL_HLO_CALLS_ASYNC,    /* async-start: calls= beside the caller */
	PL_HLO_CALLS_APPLY,    /* to_apply= (and select=, scatter=) per element */
};

/* COLL: the collective an opcode is, or is the start or done of. */
enum pl_hlo_coll {
	PL_HLO_COLL_NONE = 0,
	PL_HLO_COLL_ALL_GATHER,
	PL_HLO_COLL_REDUCE_SCATTER,
	PL_HLO_COLL_ALL_REDUCE,
	PL_HLO_COLL_ALL_TO_ALL, /* all-to-all, ragged-all-to-all */
	PL_HLO_COLL_PERMUTE,    /* collective-permute */
	PL_HLO_COLL_BROADCAST,  /* collective-broadcast */
};

/* clang-format off */
#define PL_HLO_OP_TABLE(X) \
	X(ABS,                      "abs",                      "hlo.abs",                      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(ADD,                      "add",                      "hlo.add",                      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(ADD_DEPENDENCY,           "add-dependency",           "hlo.add_dependency",           FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,             "") \
	X(AFTER_ALL,                "after-all",                "hlo.after_all",                FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL,                             "") \
	X(ALL_GATHER,               "all-gather",               "hlo.all_gather",               FREE,    NONE,     ALL_GATHER,     0,                                                                 "dimensions") \
	X(ALL_GATHER_DONE,          "all-gather-done",          "hlo.all_gather_done",          FREE,    NONE,     ALL_GATHER,     PL_HLO_F_ASYNC_DONE,                                               "") \
	X(ALL_GATHER_START,         "all-gather-start",         "hlo.all_gather_start",         FREE,    NONE,     ALL_GATHER,     PL_HLO_F_ASYNC_START,                                              "dimensions") \
	X(ALL_REDUCE,               "all-reduce",               "hlo.all_reduce",               FREE,    APPLY,    ALL_REDUCE,     0,                                                                 "to_apply") \
	X(ALL_REDUCE_DONE,          "all-reduce-done",          "hlo.all_reduce_done",          FREE,    NONE,     ALL_REDUCE,     PL_HLO_F_ASYNC_DONE,                                               "") \
	X(ALL_REDUCE_START,         "all-reduce-start",         "hlo.all_reduce_start",         FREE,    APPLY,    ALL_REDUCE,     PL_HLO_F_ASYNC_START,                                              "to_apply") \
	X(ALL_TO_ALL,               "all-to-all",               "hlo.all_to_all",               FREE,    NONE,     ALL_TO_ALL,     PL_HLO_F_ORDERED,                                                  "") \
	X(AND,                      "and",                      "hlo.and",                      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(ASYNC_DONE,               "async-done",               "hlo.async_done",               FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_DONE,       "") \
	X(ASYNC_START,              "async-start",              "hlo.async_start",              FREE,    ASYNC,    NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_START,      "calls") \
	X(ASYNC_UPDATE,             "async-update",             "hlo.async_update",             FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL,                             "") \
	X(ATAN2,                    "atan2",                    "hlo.atan2",                    COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(BATCH_NORM_GRAD,          "batch-norm-grad",          "hlo.batch_norm_grad",          LIBRARY, NONE,     NONE,           0,                                                                 "epsilon feature_index") \
	X(BATCH_NORM_INFERENCE,     "batch-norm-inference",     "hlo.batch_norm_inference",     LIBRARY, NONE,     NONE,           0,                                                                 "epsilon feature_index") \
	X(BATCH_NORM_TRAINING,      "batch-norm-training",      "hlo.batch_norm_training",      LIBRARY, NONE,     NONE,           0,                                                                 "epsilon feature_index") \
	X(BITCAST,                  "bitcast",                  "hlo.bitcast",                  VIEW,    NONE,     NONE,           PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,                                "") \
	X(BITCAST_CONVERT,          "bitcast-convert",          "hlo.bitcast_convert",          ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(BROADCAST,                "broadcast",                "hlo.broadcast",                LAYOUT,  NONE,     NONE,           0,                                                                 "") \
	X(CALL,                     "call",                     "hlo.call",                     FREE,    ONCE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL,                             "to_apply") \
	X(CBRT,                     "cbrt",                     "hlo.cbrt",                     COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(CEIL,                     "ceil",                     "hlo.ceil",                     ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(CHOLESKY,                 "cholesky",                 "hlo.cholesky",                 LIBRARY, NONE,     NONE,           0,                                                                 "") \
	X(CLAMP,                    "clamp",                    "hlo.clamp",                    ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(COLLECTIVE_BROADCAST,     "collective-broadcast",     "hlo.collective_broadcast",     FREE,    NONE,     BROADCAST,      PL_HLO_F_ORDERED,                                                  "") \
	X(COLLECTIVE_PERMUTE,       "collective-permute",       "hlo.collective_permute",       FREE,    NONE,     PERMUTE,        PL_HLO_F_ORDERED,                                                  "source_target_pairs") \
	X(COLLECTIVE_PERMUTE_DONE,  "collective-permute-done",  "hlo.collective_permute_done",  FREE,    NONE,     PERMUTE,        PL_HLO_F_ORDERED | PL_HLO_F_ASYNC_DONE,                            "") \
	X(COLLECTIVE_PERMUTE_START, "collective-permute-start", "hlo.collective_permute_start", FREE,    NONE,     PERMUTE,        PL_HLO_F_ORDERED | PL_HLO_F_ASYNC_START,                           "source_target_pairs") \
	X(COMPARE,                  "compare",                  "hlo.compare",                  ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "direction") \
	X(COMPLEX,                  "complex",                  "hlo.complex",                  ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(CONCATENATE,              "concatenate",              "hlo.concatenate",              LAYOUT,  NONE,     NONE,           0,                                                                 "dimensions") \
	X(CONDITIONAL,              "conditional",              "hlo.conditional",              FREE,    BRANCHES, NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL,                             "") \
	X(CONSTANT,                 "constant",                 "hlo.constant",                 FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "") \
	X(CONVERT,                  "convert",                  "hlo.convert",                  ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(CONVOLUTION,              "convolution",              "hlo.convolution",              MATMUL,  NONE,     NONE,           0,                                                                 "dim_labels") \
	X(COPY,                     "copy",                     "hlo.copy",                     LAYOUT,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(COPY_DONE,                "copy-done",                "hlo.copy_done",                FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_DONE,       "") \
	X(COPY_START,               "copy-start",               "hlo.copy_start",               FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_START,      "") \
	X(COSINE,                   "cosine",                   "hlo.cosine",                   COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(COUNT_LEADING_ZEROS,      "count-leading-zeros",      "hlo.count_leading_zeros",      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(CUSTOM_CALL,              "custom-call",              "hlo.custom_call",              LIBRARY, NONE,     NONE,           0,                                                                 "custom_call_target") \
	X(DIVIDE,                   "divide",                   "hlo.divide",                   COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(DOMAIN,                   "domain",                   "hlo.domain",                   FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,             "domain") \
	X(DOT,                      "dot",                      "hlo.dot",                      MATMUL,  NONE,     NONE,           0,                                                                 "") \
	X(DYNAMIC_RESHAPE,          "dynamic-reshape",          "hlo.dynamic_reshape",          LIBRARY, NONE,     NONE,           0,                                                                 "") \
	X(DYNAMIC_SLICE,            "dynamic-slice",            "hlo.dynamic_slice",            LAYOUT,  NONE,     NONE,           0,                                                                 "dynamic_slice_sizes") \
	X(DYNAMIC_UPDATE_SLICE,     "dynamic-update-slice",     "hlo.dynamic_update_slice",     ROOT,    NONE,     NONE,           PL_HLO_F_IN_PLACE,                                                 "") \
	X(ERF,                      "erf",                      "hlo.erf",                      COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(EXPONENTIAL,              "exponential",              "hlo.exponential",              COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(EXPONENTIAL_MINUS_ONE,    "exponential-minus-one",    "hlo.exponential_minus_one",    COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(FFT,                      "fft",                      "hlo.fft",                      LIBRARY, NONE,     NONE,           0,                                                                 "fft_type fft_length") \
	X(FLOOR,                    "floor",                    "hlo.floor",                    ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(FUSION,                   "fusion",                   "hlo.fusion",                   LIBRARY, KERNEL,   NONE,           PL_HLO_F_IN_PLACE,                                                 "calls kind") \
	X(GATHER,                   "gather",                   "hlo.gather",                   COSTLY,  NONE,     NONE,           0,                                                                 "offset_dims collapsed_slice_dims start_index_map index_vector_dim slice_sizes") \
	X(GET_DIMENSION_SIZE,       "get-dimension-size",       "hlo.get_dimension_size",       LIBRARY, NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "dimensions") \
	X(GET_TUPLE_ELEMENT,        "get-tuple-element",        "hlo.get_tuple_element",        FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,                                "index") \
	X(IMAG,                     "imag",                     "hlo.imag",                     ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(INFEED,                   "infeed",                   "hlo.infeed",                   FREE,    NONE,     NONE,           PL_HLO_F_ORDERED,                                                  "") \
	X(IOTA,                     "iota",                     "hlo.iota",                     LAYOUT,  NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "iota_dimension") \
	X(IS_FINITE,                "is-finite",                "hlo.is_finite",                ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(LOG,                      "log",                      "hlo.log",                      COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(LOG_PLUS_ONE,             "log-plus-one",             "hlo.log_plus_one",             COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(LOGISTIC,                 "logistic",                 "hlo.logistic",                 COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(MAP,                      "map",                      "hlo.map",                      LIBRARY, APPLY,    NONE,           0,                                                                 "to_apply") \
	X(MAXIMUM,                  "maximum",                  "hlo.maximum",                  ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(MINIMUM,                  "minimum",                  "hlo.minimum",                  ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(MULTIPLY,                 "multiply",                 "hlo.multiply",                 ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(NEGATE,                   "negate",                   "hlo.negate",                   ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(NOT,                      "not",                      "hlo.not",                      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(OPT_BARRIER,              "opt-barrier",              "hlo.opt_barrier",              FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,             "") \
	X(OR,                       "or",                       "hlo.or",                       ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(OUTFEED,                  "outfeed",                  "hlo.outfeed",                  FREE,    NONE,     NONE,           PL_HLO_F_ORDERED,                                                  "") \
	X(PAD,                      "pad",                      "hlo.pad",                      LAYOUT,  NONE,     NONE,           0,                                                                 "padding") \
	X(PARAMETER,                "parameter",                "hlo.parameter",                FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "") \
	X(PARTITION_ID,             "partition-id",             "hlo.partition_id",             FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "") \
	X(POPCNT,                   "popcnt",                   "hlo.popcnt",                   ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(POWER,                    "power",                    "hlo.power",                    COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(RAGGED_ALL_TO_ALL,        "ragged-all-to-all",        "hlo.ragged_all_to_all",        FREE,    NONE,     ALL_TO_ALL,     PL_HLO_F_ORDERED,                                                  "") \
	X(RAGGED_DOT,               "ragged-dot",               "hlo.ragged_dot",               MATMUL,  NONE,     NONE,           0,                                                                 "") \
	X(REAL,                     "real",                     "hlo.real",                     ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(RECV,                     "recv",                     "hlo.recv",                     FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_START,      "") \
	X(RECV_DONE,                "recv-done",                "hlo.recv_done",                FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_DONE,       "") \
	X(REDUCE,                   "reduce",                   "hlo.reduce",                   REDUCE,  APPLY,    NONE,           0,                                                                 "to_apply dimensions") \
	X(REDUCE_PRECISION,         "reduce-precision",         "hlo.reduce_precision",         ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "exponent_bits mantissa_bits") \
	X(REDUCE_SCATTER,           "reduce-scatter",           "hlo.reduce_scatter",           FREE,    APPLY,    REDUCE_SCATTER, 0,                                                                 "to_apply dimensions") \
	X(REDUCE_WINDOW,            "reduce-window",            "hlo.reduce_window",            REDUCE,  APPLY,    NONE,           0,                                                                 "to_apply") \
	X(REMAINDER,                "remainder",                "hlo.remainder",                COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(REPLICA_ID,               "replica-id",               "hlo.replica_id",               FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL,                                                "") \
	X(RESHAPE,                  "reshape",                  "hlo.reshape",                  VIEW,    NONE,     NONE,           PL_HLO_F_VIEW,                                                     "") \
	X(REVERSE,                  "reverse",                  "hlo.reverse",                  LAYOUT,  NONE,     NONE,           0,                                                                 "dimensions") \
	X(RNG,                      "rng",                      "hlo.rng",                      LIBRARY, NONE,     NONE,           PL_HLO_F_ORDERED,                                                  "distribution") \
	X(RNG_BIT_GENERATOR,        "rng-bit-generator",        "hlo.rng_bit_generator",        LIBRARY, NONE,     NONE,           0,                                                                 "algorithm") \
	X(RNG_GET_AND_UPDATE_STATE, "rng-get-and-update-state", "hlo.rng_get_and_update_state", LIBRARY, NONE,     NONE,           PL_HLO_F_ORDERED,                                                  "delta") \
	X(ROUND_NEAREST_AFZ,        "round-nearest-afz",        "hlo.round_nearest_afz",        ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(ROUND_NEAREST_EVEN,       "round-nearest-even",       "hlo.round_nearest_even",       ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(RSQRT,                    "rsqrt",                    "hlo.rsqrt",                    COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SCALED_DOT,               "scaled-dot",               "hlo.scaled_dot",               LIBRARY, NONE,     NONE,           0,                                                                 "") \
	X(SCAN,                     "scan",                     "hlo.scan",                     LIBRARY, APPLY,    NONE,           0,                                                                 "to_apply dimensions num_carries") \
	X(SCATTER,                  "scatter",                  "hlo.scatter",                  ROOT,    APPLY,    NONE,           PL_HLO_F_IN_PLACE,                                                 "update_window_dims inserted_window_dims scatter_dims_to_operand_dims index_vector_dim to_apply") \
	X(SELECT,                   "select",                   "hlo.select",                   ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(SELECT_AND_SCATTER,       "select-and-scatter",       "hlo.select_and_scatter",       ROOT,    APPLY,    NONE,           0,                                                                 "select scatter") \
	X(SEND,                     "send",                     "hlo.send",                     FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_START,      "") \
	X(SEND_DONE,                "send-done",                "hlo.send_done",                FREE,    NONE,     NONE,           PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL | PL_HLO_F_ASYNC_DONE,       "") \
	X(SET_DIMENSION_SIZE,       "set-dimension-size",       "hlo.set_dimension_size",       LIBRARY, NONE,     NONE,           0,                                                                 "dimensions") \
	X(SHIFT_LEFT,               "shift-left",               "hlo.shift_left",               ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SHIFT_RIGHT_ARITHMETIC,   "shift-right-arithmetic",   "hlo.shift_right_arithmetic",   ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SHIFT_RIGHT_LOGICAL,      "shift-right-logical",      "hlo.shift_right_logical",      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SIGN,                     "sign",                     "hlo.sign",                     ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SINE,                     "sine",                     "hlo.sine",                     COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(SLICE,                    "slice",                    "hlo.slice",                    LAYOUT,  NONE,     NONE,           0,                                                                 "slice") \
	X(SORT,                     "sort",                     "hlo.sort",                     LIBRARY, APPLY,    NONE,           0,                                                                 "dimensions to_apply") \
	X(SQRT,                     "sqrt",                     "hlo.sqrt",                     COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(STOCHASTIC_CONVERT,       "stochastic-convert",       "hlo.stochastic_convert",       LIBRARY, NONE,     NONE,           PL_HLO_F_ELEMENTWISE,                                              "") \
	X(SUBTRACT,                 "subtract",                 "hlo.subtract",                 ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(TAN,                      "tan",                      "hlo.tan",                      COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(TANH,                     "tanh",                     "hlo.tanh",                     COSTLY,  NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "") \
	X(TOPK,                     "topk",                     "hlo.topk",                     LIBRARY, NONE,     NONE,           0,                                                                 "k") \
	X(TRANSPOSE,                "transpose",                "hlo.transpose",                LAYOUT,  NONE,     NONE,           0,                                                                 "dimensions") \
	X(TRIANGULAR_SOLVE,         "triangular-solve",         "hlo.triangular_solve",         LIBRARY, NONE,     NONE,           0,                                                                 "") \
	X(TUPLE,                    "tuple",                    "hlo.tuple",                    FREE,    NONE,     NONE,           PL_HLO_F_NO_KERNEL | PL_HLO_F_VIEW,                                "") \
	X(WHILE,                    "while",                    "hlo.while",                    FREE,    LOOP,     NONE,           PL_HLO_F_SHAPE_OF_OPERAND | PL_HLO_F_ORDERED | PL_HLO_F_NO_KERNEL, "condition body") \
	X(XOR,                      "xor",                      "hlo.xor",                      ELEM,    NONE,     NONE,           PL_HLO_F_ELEMENTWISE | PL_HLO_F_SHAPE_OF_OPERAND,                  "")
/* clang-format on */

/* The opcodes, numbered from 1 in the table's order. */
typedef enum pl_hlo_op {
	PL_HLO_OTHER = 0, /* an op of no row: not "hlo.*", or not in the table */
#define PL_X_HLO_ENUM(id, hlo, op, fuse, calls, coll, flags, required) PL_HLO_##id,
	PL_HLO_OP_TABLE(PL_X_HLO_ENUM)
#undef PL_X_HLO_ENUM
	PL_HLO__COUNT /* what THESE headers know; see pl_hlo_op_count */
} pl_hlo_op;

/* The rows of the first release, in byte order of HLO. */
#define PL_HLO_SORTED_ 125

/* How many values of pl_hlo_op the running library knows (all below
 * this). Added in ABI 1.1, as every function here. */
PL_API unsigned pl_hlo_op_count(void);
/* The opcode of i's op: the row of the op the HLO reader makes of it,
 * classified when the module first used the op name; PL_HLO_OTHER for
 * any other op (the SDK's own, "hlo.reduce_scatter_start" and the like,
 * which pl_inst_hlo_coll tells). NULL gives PL_HLO_OTHER. */
PL_API pl_hlo_op pl_inst_hlo_op(const pl_inst *i);
/* Whether i's op name starts "hlo." (an HLO instruction, in the table or
 * not). */
PL_API bool pl_inst_is_hlo(const pl_inst *i);
/* The collective an "hlo.*" op i is (*phase 0), or is the start (1) or
 * done (2) of: a row's COLL with its ASYNC_START or ASYNC_DONE flag, or
 * XLA's short form of a pair ("hlo.reduce_scatter_start"); else
 * PL_HLO_COLL_NONE. phase may be NULL. */
PL_API enum pl_hlo_coll pl_inst_hlo_coll(const pl_inst *i, int *phase);
/* The op the reader makes of op ("hlo.all_gather"): the name to create an
 * instruction of it with; NULL for PL_HLO_OTHER or out of range. */
PL_API const char *pl_hlo_op_name(pl_hlo_op op);
/* The row of an op name ("hlo.while"), or PL_HLO_OTHER. */
PL_API pl_hlo_op pl_hlo_op_from_name(const char *name);
/* The columns of op's row; 0 (NONE, LIBRARY) for PL_HLO_OTHER. */
PL_API unsigned pl_hlo_op_flags(pl_hlo_op op);
PL_API enum pl_hlo_fuse pl_hlo_op_fuse(pl_hlo_op op);
PL_API enum pl_hlo_calls pl_hlo_op_calls(pl_hlo_op op);
PL_API enum pl_hlo_coll pl_hlo_op_coll(pl_hlo_op op);

#ifdef __cplusplus
}
#endif

#endif
