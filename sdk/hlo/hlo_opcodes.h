/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_opcodes.h — the opcodes XLA's HLO text knows, as an X-macro
 * table (in byte order, so a lookup can bisect), and the reader's check
 * of an opcode against it. Nothing here is installed. */
#ifndef PL_HLO_OPCODES_H
#define PL_HLO_OPCODES_H

#include <stdbool.h>
#include <stddef.h>

#define PL_HLO_OPCODES(X)                                                                       \
	X("abs") X("add") X("add-dependency") X("after-all") X("all-gather")                     \
	X("all-gather-done") X("all-gather-start") X("all-reduce") X("all-reduce-done")          \
	X("all-reduce-start") X("all-to-all") X("and") X("async-done") X("async-start")          \
	X("async-update") X("atan2") X("batch-norm-grad") X("batch-norm-inference")              \
	X("batch-norm-training") X("bitcast") X("bitcast-convert") X("broadcast") X("call")      \
	X("cbrt") X("ceil") X("cholesky") X("clamp") X("collective-broadcast")                   \
	X("collective-permute") X("collective-permute-done") X("collective-permute-start")       \
	X("compare") X("complex") X("concatenate") X("conditional") X("constant")                \
	X("convert") X("convolution") X("copy") X("copy-done") X("copy-start") X("cosine")       \
	X("count-leading-zeros") X("custom-call") X("divide") X("domain") X("dot")               \
	X("dynamic-reshape") X("dynamic-slice") X("dynamic-update-slice") X("erf")               \
	X("exponential") X("exponential-minus-one") X("fft") X("floor") X("fusion") X("gather")  \
	X("get-dimension-size") X("get-tuple-element") X("imag") X("infeed") X("iota")           \
	X("is-finite") X("log") X("log-plus-one") X("logistic") X("map") X("maximum") X("minimum")             \
	X("multiply") X("negate") X("not") X("opt-barrier") X("or") X("outfeed") X("pad")        \
	X("parameter") X("partition-id") X("popcnt") X("power") X("ragged-all-to-all")           \
	X("ragged-dot") X("real") X("recv") X("recv-done") X("reduce") X("reduce-precision")     \
	X("reduce-scatter") X("reduce-window") X("remainder") X("replica-id") X("reshape")       \
	X("reverse") X("rng") X("rng-bit-generator") X("rng-get-and-update-state")               \
	X("round-nearest-afz") X("round-nearest-even") X("rsqrt") X("scaled-dot") X("scan") X("scatter")   \
	X("select") X("select-and-scatter") X("send") X("send-done") X("set-dimension-size")     \
	X("shift-left") X("shift-right-arithmetic") X("shift-right-logical") X("sign")           \
	X("sine") X("slice") X("sort") X("sqrt") X("stochastic-convert") X("subtract") X("tan")  \
	X("tanh") X("topk") X("transpose") X("triangular-solve") X("tuple") X("while") X("xor")

/* Whether s[0..len) is one of the opcodes above, or one of them with
 * "-start", "-update" or "-done" (XLA's short form of an async pair). */
bool pl_hlo_opcode_known_(const char *s, size_t len);

/* The known opcode nearest s[0..len) (at most two edits away, the first
 * of equals in the table's order), or NULL. */
const char *pl_hlo_opcode_nearest_(const char *s, size_t len);

#endif
