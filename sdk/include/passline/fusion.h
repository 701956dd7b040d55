/* SPDX-License-Identifier: MIT */
/* passline/fusion.h — the kernels a GPU compiler would make of a function
 * not fused yet, and the time of each. Added in ABI 1.1.
 *
 * A function dumped before XLA optimizes it has one instruction per
 * element-wise op; the program that runs has a few hundred kernels. This
 * model partitions the instructions into kernels by the rules of
 * passline-plugin(7) ("The fusion model"), in the spirit of XLA's GPU
 * fusion passes, and costs a value's memory traffic only where it crosses
 * a kernel's boundary. Linear in the size of the function (n log n for the
 * siblings' grouping); deterministic.
 */
#ifndef PASSLINE_FUSION_H
#define PASSLINE_FUSION_H

#include <passline/common.h>
#include <passline/cost.h>
#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_fusion pl_fusion; /* opaque, owns its memory */

/* Which functions a caller costs with the model. Added in ABI 1.1. */
typedef enum pl_fusion_mode {
	PL_FUSION_OFF = 0, /* none: every instruction op by op */
	PL_FUSION_ON = 1,  /* every function */
	PL_FUSION_AUTO = 2 /* the functions of an HLO module (its entry has
	                    * hlo_entry) that hold no fusion instruction */
} pl_fusion_mode;

/* What a kernel is. Added in ABI 1.1. */
typedef enum pl_kernel_kind {
	PL_KERNEL_LOOP = 0,    /* element-wise work and data movement */
	PL_KERNEL_REDUCE = 1,  /* a reduction with its producers (and consumers) */
	PL_KERNEL_MATMUL = 2,  /* a dot with its operands' layout ops and epilogue */
	PL_KERNEL_LIBRARY = 3, /* an existing fusion, a custom call, any other op */
	PL_KERNEL_COPY = 4     /* a copy of an entry output that is a parameter */
} pl_kernel_kind;

/* Partitions f into kernels and times each under cm, with floor_ns added
 * per kernel. *out is freed with pl_fusion_free and does not change when f
 * does. PL_OK, PL_ENOMEM, PL_EOVERFLOW, the errors of the counts
 * (PL_ETYPE for a malformed attribute). *out is set only on PL_OK. Added
 * in ABI 1.1. */
PL_API int pl_fusion_new(pl_fusion **out, const pl_func *f, const pl_cost_model *cm,
                         uint64_t floor_ns);
/* NULL is allowed. Added in ABI 1.1. */
PL_API void pl_fusion_free(pl_fusion *fu);

/* Totals: kernels, bytes crossing kernel boundaries, flops, and the sum of
 * the kernels' times (ns). Added in ABI 1.1. */
PL_API size_t pl_fusion_num_kernels(const pl_fusion *fu);
PL_API uint64_t pl_fusion_bytes(const pl_fusion *fu);
PL_API uint64_t pl_fusion_time_ns(const pl_fusion *fu);

/* Kernel k, 0 .. pl_fusion_num_kernels - 1, in order of its first
 * instruction (a copy kernel: after every other). Added in ABI 1.1. */
PL_API pl_kernel_kind pl_fusion_kernel_kind(const pl_fusion *fu, size_t k);
PL_API uint64_t pl_fusion_kernel_flops(const pl_fusion *fu, size_t k);
PL_API uint64_t pl_fusion_kernel_bytes(const pl_fusion *fu, size_t k);
PL_API uint64_t pl_fusion_kernel_time_ns(const pl_fusion *fu, size_t k);
/* Its instructions in function order (a copy kernel holds the reshapes
 * and bitcasts that lead to the parameter it copies, maybe none). */
PL_API size_t pl_fusion_kernel_num_insts(const pl_fusion *fu, size_t k);
PL_API const pl_inst *pl_fusion_kernel_inst(const pl_fusion *fu, size_t k, size_t i);

/* The kernel of the i-th instruction of f (function order), or SIZE_MAX
 * for one in no kernel (collectives, control flow, constants, tuples, a
 * reshape of nothing computed). Added in ABI 1.1. */
PL_API size_t pl_fusion_inst_kernel(const pl_fusion *fu, size_t i);

/* Whether f holds an hlo.fusion instruction (XLA fused it already).
 * Added in ABI 1.1. */
PL_API bool pl_func_has_fusion(const pl_func *f);

/* The simulation of pl_schedule_new (passline/cost.h) over the kernels of
 * fu (made from f): a kernel's time is charged at its last instruction
 * (a copy kernel's at the return), every other compute instruction takes
 * 0, collectives as before. PL_EINVAL when fu was not made from f.
 * Added in ABI 1.1. */
PL_API int pl_schedule_new_fused(pl_schedule **out, const pl_func *f,
                                 const pl_cost_model *cm, const pl_fusion *fu);
PL_API int pl_schedule_new_fused_totals(pl_schedule **out, const pl_func *f,
                                        const pl_cost_model *cm, const pl_fusion *fu);

#ifdef __cplusplus
}
#endif

#endif
