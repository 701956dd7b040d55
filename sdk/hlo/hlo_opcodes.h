/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_opcodes.h — the opcodes XLA's HLO text knows, as an X-macro
 * table (in byte order, so a lookup can bisect), and the reader's check
 * of an opcode against it. Nothing here is installed. */
#ifndef PL_HLO_OPCODES_H
#define PL_HLO_OPCODES_H

#include <stdbool.h>
#include <stddef.h>

#define PL_HLO_OPCODES(X)                                       \
	X(ABS, "abs")                                                  \
	X(ADD, "add")                                                  \
	X(ADD_DEPENDENCY, "add-dependency")                            \
	X(AFTER_ALL, "after-all")                                      \
	X(ALL_GATHER, "all-gather")                                    \
	X(ALL_GATHER_DONE, "all-gather-done")                          \
	X(ALL_GATHER_START, "all-gather-start")                        \
	X(ALL_REDUCE, "all-reduce")                                    \
	X(ALL_REDUCE_DONE, "all-reduce-done")                          \
	X(ALL_REDUCE_START, "all-reduce-start")                        \
	X(ALL_TO_ALL, "all-to-all")                                    \
	X(AND, "and")                                                  \
	X(ASYNC_DONE, "async-done")                                    \
	X(ASYNC_START, "async-start")                                  \
	X(ASYNC_UPDATE, "async-update")                                \
	X(ATAN2, "atan2")                                              \
	X(BATCH_NORM_GRAD, "batch-norm-grad")                          \
	X(BATCH_NORM_INFERENCE, "batch-norm-inference")                \
	X(BATCH_NORM_TRAINING, "batch-norm-training")                  \
	X(BITCAST, "bitcast")                                          \
	X(BITCAST_CONVERT, "bitcast-convert")                          \
	X(BROADCAST, "broadcast")                                      \
	X(CALL, "call")                                                \
	X(CBRT, "cbrt")                                                \
	X(CEIL, "ceil")                                                \
	X(CHOLESKY, "cholesky")                                        \
	X(CLAMP, "clamp")                                              \
	X(COLLECTIVE_BROADCAST, "collective-broadcast")                \
	X(COLLECTIVE_PERMUTE, "collective-permute")                    \
	X(COLLECTIVE_PERMUTE_DONE, "collective-permute-done")          \
	X(COLLECTIVE_PERMUTE_START, "collective-permute-start")        \
	X(COMPARE, "compare")                                          \
	X(COMPLEX, "complex")                                          \
	X(CONCATENATE, "concatenate")                                  \
	X(CONDITIONAL, "conditional")                                  \
	X(CONSTANT, "constant")                                        \
	X(CONVERT, "convert")                                          \
	X(CONVOLUTION, "convolution")                                  \
	X(COPY, "copy")                                                \
	X(COPY_DONE, "copy-done")                                      \
	X(COPY_START, "copy-start")                                    \
	X(COSINE, "cosine")                                            \
	X(COUNT_LEADING_ZEROS, "count-leading-zeros")                  \
	X(CUSTOM_CALL, "custom-call")                                  \
	X(DIVIDE, "divide")                                            \
	X(DOMAIN, "domain")                                            \
	X(DOT, "dot")                                                  \
	X(DYNAMIC_RESHAPE, "dynamic-reshape")                          \
	X(DYNAMIC_SLICE, "dynamic-slice")                              \
	X(DYNAMIC_UPDATE_SLICE, "dynamic-update-slice")                \
	X(ERF, "erf")                                                  \
	X(EXPONENTIAL, "exponential")                                  \
	X(EXPONENTIAL_MINUS_ONE, "exponential-minus-one")              \
	X(FFT, "fft")                                                  \
	X(FLOOR, "floor")                                              \
	X(FUSION, "fusion")                                            \
	X(GATHER, "gather")                                            \
	X(GET_DIMENSION_SIZE, "get-dimension-size")                    \
	X(GET_TUPLE_ELEMENT, "get-tuple-element")                      \
	X(IMAG, "imag")                                                \
	X(INFEED, "infeed")                                            \
	X(IOTA, "iota")                                                \
	X(IS_FINITE, "is-finite")                                      \
	X(LOG, "log")                                                  \
	X(LOG_PLUS_ONE, "log-plus-one")                                \
	X(LOGISTIC, "logistic")                                        \
	X(MAP, "map")                                                  \
	X(MAXIMUM, "maximum")                                          \
	X(MINIMUM, "minimum")                                          \
	X(MULTIPLY, "multiply")                                        \
	X(NEGATE, "negate")                                            \
	X(NOT, "not")                                                  \
	X(OPT_BARRIER, "opt-barrier")                                  \
	X(OR, "or")                                                    \
	X(OUTFEED, "outfeed")                                          \
	X(PAD, "pad")                                                  \
	X(PARAMETER, "parameter")                                      \
	X(PARTITION_ID, "partition-id")                                \
	X(POPCNT, "popcnt")                                            \
	X(POWER, "power")                                              \
	X(RAGGED_ALL_TO_ALL, "ragged-all-to-all")                      \
	X(RAGGED_DOT, "ragged-dot")                                    \
	X(REAL, "real")                                                \
	X(RECV, "recv")                                                \
	X(RECV_DONE, "recv-done")                                      \
	X(REDUCE, "reduce")                                            \
	X(REDUCE_PRECISION, "reduce-precision")                        \
	X(REDUCE_SCATTER, "reduce-scatter")                            \
	X(REDUCE_WINDOW, "reduce-window")                              \
	X(REMAINDER, "remainder")                                      \
	X(REPLICA_ID, "replica-id")                                    \
	X(RESHAPE, "reshape")                                          \
	X(REVERSE, "reverse")                                          \
	X(RNG, "rng")                                                  \
	X(RNG_BIT_GENERATOR, "rng-bit-generator")                      \
	X(RNG_GET_AND_UPDATE_STATE, "rng-get-and-update-state")        \
	X(ROUND_NEAREST_AFZ, "round-nearest-afz")                      \
	X(ROUND_NEAREST_EVEN, "round-nearest-even")                    \
	X(RSQRT, "rsqrt")                                              \
	X(SCALED_DOT, "scaled-dot")                                    \
	X(SCAN, "scan")                                                \
	X(SCATTER, "scatter")                                          \
	X(SELECT, "select")                                            \
	X(SELECT_AND_SCATTER, "select-and-scatter")                    \
	X(SEND, "send")                                                \
	X(SEND_DONE, "send-done")                                      \
	X(SET_DIMENSION_SIZE, "set-dimension-size")                    \
	X(SHIFT_LEFT, "shift-left")                                    \
	X(SHIFT_RIGHT_ARITHMETIC, "shift-right-arithmetic")            \
	X(SHIFT_RIGHT_LOGICAL, "shift-right-logical")                  \
	X(SIGN, "sign")                                                \
	X(SINE, "sine")                                                \
	X(SLICE, "slice")                                              \
	X(SORT, "sort")                                                \
	X(SQRT, "sqrt")                                                \
	X(STOCHASTIC_CONVERT, "stochastic-convert")                    \
	X(SUBTRACT, "subtract")                                        \
	X(TAN, "tan")                                                  \
	X(TANH, "tanh")                                                \
	X(TOPK, "topk")                                                \
	X(TRANSPOSE, "transpose")                                      \
	X(TRIANGULAR_SOLVE, "triangular-solve")                        \
	X(TUPLE, "tuple")                                              \
	X(WHILE, "while")                                              \
	X(XOR, "xor")

/* The opcodes as numbers, in the table's order; HLO_OP_OTHER for a name
 * the table does not hold. */
enum hlo_op {
#define PL_HLO_OPCODE_ENUM_(id, s) HLO_OP_##id,
	PL_HLO_OPCODES(PL_HLO_OPCODE_ENUM_)
#undef PL_HLO_OPCODE_ENUM_
	HLO_OP_OTHER
};

/* The phase of XLA's short form of an async pair ("reduce-scatter-start"
 * for an opcode the table has only without the suffix). */
enum hlo_phase { HLO_PHASE_NONE, HLO_PHASE_START, HLO_PHASE_UPDATE, HLO_PHASE_DONE };

/* Whether s[0..len) is one of the opcodes above, or one of them with
 * "-start", "-update" or "-done" (XLA's short form of an async pair). */
bool pl_hlo_opcode_known_(const char *s, size_t len);

/* The HLO spelling of op ("all-gather"); NULL for HLO_OP_OTHER. */
const char *pl_hlo_opcode_name_(enum hlo_op op);

/* The known opcode nearest s[0..len) (at most two edits away, the first
 * of equals in the table's order), or NULL. */
const char *pl_hlo_opcode_nearest_(const char *s, size_t len);

/* Classifies s[0..len) once: its entry in the table, with *phase NONE;
 * else, when it is an entry with "-start", "-update" or "-done", that
 * entry and the phase; else HLO_OP_OTHER. */
enum hlo_op pl_hlo_opcode_of_(const char *s, size_t len, enum hlo_phase *phase);

/* What the reader knows of an opcode besides its name, as flags. */
enum hlo_op_flag {
	/* the result has the first operand's shape (so the text may leave
	 * it out) */
	HLO_F_SHAPE_OF_OPERAND = 1u << 0,
};

/* The flags of op read with phase: none for XLA's short form of an async
 * pair (add-start is not add). */
unsigned pl_hlo_opcode_flags_(enum hlo_op op, enum hlo_phase phase);

/* The attributes XLA's parser requires of op (not an async pair's
 * -update or -done, which take their start's), space-separated ("calls
 * kind"); "" for none. Two depend on the first operand and are not
 * listed: broadcast needs dimensions= unless its operand is a scalar;
 * conditional needs true_computation= and false_computation= when its
 * index is pred[], else branch_computations=. */
const char *pl_hlo_opcode_required_(enum hlo_op op);

/* The opcode op is the asynchronous start or done of, where XLA has both
 * as opcodes of their own (all-gather for all-gather-start and
 * all-gather-done; all-reduce, collective-permute, copy); else op. */
enum hlo_op pl_hlo_opcode_sync_(enum hlo_op op);

#endif
