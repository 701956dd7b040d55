/* SPDX-License-Identifier: MIT */
/* passline/callgraph.h — which instructions call which functions, how
 * often each runs from the module's entry, loop trip counts, and the
 * simulated time of a whole step. Added in ABI 1.1.
 *
 * Call sites are read from the attributes the HLO reader keeps (the same
 * attributes written in .pir make the same graph):
 *   an op "hlo.while": hlo_body (runs N times per execution of the while)
 *     and hlo_condition (N + 1 times), N its trip count;
 *   an op "hlo.call": hlo_to_apply, once per execution;
 *   an op "hlo.conditional": each of hlo_branch_computations (or
 *     hlo_true_computation and hlo_false_computation), once per execution
 *     (an upper bound: one branch runs);
 *   any other instruction with hlo_calls (fusion, async-start), once per
 *     execution, except a collective start: it stands for the collective
 *     it wraps.
 * hlo_to_apply of any other op (the reducer of a reduce or all-reduce, a
 * sort's comparator, a map's function) is part of that op: never a call.
 * Names may carry a leading '%'; a list is "{%a, %b}".
 *
 * The entry is the function whose attribute entry or hlo_entry is true
 * (the HLO reader marks ENTRY so). In a module with an entry a function
 * runs as often as its call sites do from the entry, and a function the
 * entry never reaches runs 0 times. In a module without one, every
 * function counts once (summing over functions keeps its old meaning).
 *
 * A while's trip count N is, in this order: the one the caller gives
 * (trip_counts, by the loop's name); "known_trip_count":{"n":"N"} in its
 * hlo_backend_config; the canonical counted loop (a tuple element
 * initialised by an integer hlo.constant, its body returning
 * hlo.add(element, constant) or hlo.subtract(element, constant), its
 * condition returning hlo.compare(element, constant) with hlo_direction
 * LT, LE, GT, GE, NE or EQ, either side); else unknown, counted as 1
 * (PL_TRIP_UNKNOWN: a pass says so). A loop's name is the name of its
 * first result up to any '$' (the HLO instruction's name).
 */
#ifndef PASSLINE_CALLGRAPH_H
#define PASSLINE_CALLGRAPH_H

#include <passline/common.h>
#include <passline/cost.h>
#include <passline/fusion.h>
#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_callgraph pl_callgraph; /* opaque, owns its memory */

/* How a call site runs its callee, per execution of the calling
 * instruction. Added in ABI 1.1. */
typedef enum pl_call_kind {
	PL_CALL_ONCE = 1,      /* call, fusion, async-start: once */
	PL_CALL_BRANCH = 2,    /* a branch of a conditional: once (at most) */
	PL_CALL_LOOP_BODY = 3, /* a while's body: N times */
	PL_CALL_LOOP_COND = 4  /* a while's condition: N + 1 times */
} pl_call_kind;

/* Where a loop's trip count comes from. Added in ABI 1.1. */
typedef enum pl_trip_source {
	PL_TRIP_GIVEN = 1,   /* the trip_counts of pl_callgraph_new */
	PL_TRIP_KNOWN = 2,   /* backend_config known_trip_count */
	PL_TRIP_COUNTED = 3, /* the canonical counted loop */
	PL_TRIP_UNKNOWN = 4  /* none: counted as 1 */
} pl_trip_source;

/* Builds the call graph of m as it is now (it does not follow later
 * changes). trip_counts (NULL or "") sets loops' trip counts by name:
 * "NAME=N[,NAME=N...]", N an integer >= 0; every loop of that name takes
 * N. PL_OK and *out (free with pl_callgraph_free); else *out is NULL, err
 * (errlen bytes, may be NULL) says why and *at (may be NULL) is the
 * instruction at fault or NULL:
 *   PL_EPARSE     trip_counts is not of that form;
 *   PL_ENOTFOUND  a call site names a function m does not have (in a
 *                 module with an entry; without one such a site is left
 *                 out), or trip_counts names a loop m does not have;
 *   PL_EINVAL     two functions are marked entry, or a function calls
 *                 itself through the call sites the entry reaches;
 *   PL_ENOMEM.
 * Linear in the instructions of m (and log of its functions). */
PL_API int pl_callgraph_new(pl_callgraph **out, const pl_module *m, const char *trip_counts,
                            const pl_inst **at, char *err, size_t errlen);
/* NULL is allowed. */
PL_API void pl_callgraph_free(pl_callgraph *cg);

/* The entry function, or NULL for a module without one. */
PL_API const pl_func *pl_callgraph_entry(const pl_callgraph *cg);

/* How many times f runs in one execution of the entry (1 for every
 * function of a module without an entry), as a 128-bit number. PL_OK;
 * PL_EOVERFLOW when the exact count passes 2^128 - 1 (*hi and *lo are
 * then all ones); PL_ENOTFOUND for a function of another module. */
PL_API int pl_callgraph_executions(const pl_callgraph *cg, const pl_func *f, uint64_t *hi,
                                   uint64_t *lo);

/* The call sites, in module order (function by function, instruction by
 * instruction, a conditional's branches in order); i < num_sites. */
PL_API size_t pl_callgraph_num_sites(const pl_callgraph *cg);
PL_API const pl_inst *pl_callgraph_site_inst(const pl_callgraph *cg, size_t i);
PL_API const pl_func *pl_callgraph_site_callee(const pl_callgraph *cg, size_t i);
PL_API pl_call_kind pl_callgraph_site_kind(const pl_callgraph *cg, size_t i);
/* The callers of f: the indices of the sites that call it, in module
 * order (k < num_callers). */
PL_API size_t pl_callgraph_num_callers(const pl_callgraph *cg, const pl_func *f);
PL_API size_t pl_callgraph_caller(const pl_callgraph *cg, const pl_func *f, size_t k);

/* The loops (hlo.while instructions), in module order. */
PL_API size_t pl_callgraph_num_loops(const pl_callgraph *cg);
PL_API const pl_inst *pl_callgraph_loop(const pl_callgraph *cg, size_t i);
/* The trip count of loop i and where it comes from. */
PL_API uint64_t pl_callgraph_loop_trips(const pl_callgraph *cg, size_t i);
PL_API pl_trip_source pl_callgraph_loop_source(const pl_callgraph *cg, size_t i);
/* Its name (see above; "" when its first result has none), valid while cg
 * is. */
PL_API const char *pl_callgraph_loop_name(const pl_callgraph *cg, size_t i);

/* The simulated time of one execution of f with its calls (pl_schedule_new
 * with each calling instruction taking, instead of its own time, the time
 * of what it runs: a while N x its body + (N + 1) x its condition, a call,
 * fusion or async-start its callee's, a conditional its longest branch),
 * the callees' times so computed first. For the entry it is the time of a
 * whole step. PL_OK; PL_EOVERFLOW past 2^64 - 1 ns; the errors of
 * pl_schedule_new. */
PL_API int pl_callgraph_step_ns(const pl_callgraph *cg, const pl_func *f,
                                const pl_cost_model *cm, uint64_t *out);

/* The same with the functions mode picks costed as the kernels of the
 * fusion model (pl_fusion_new with floor_ns; collectives, loops and calls
 * as above) and, unless mode is PL_FUSION_OFF, an existing fusion
 * instruction taking its own time as one kernel instead of its body's op
 * by op. pl_callgraph_step_ns is this with PL_FUSION_OFF. Also PL_EINVAL
 * for an unknown mode and the errors of pl_fusion_new. Added in ABI 1.1. */
PL_API int pl_callgraph_step_fused_ns(const pl_callgraph *cg, const pl_func *f,
                                      const pl_cost_model *cm, pl_fusion_mode mode,
                                      uint64_t floor_ns, uint64_t *out);

/* The schedule of one execution of f as pl_callgraph_step_fused_ns
 * simulates it: the rows of pl_schedule_new (under the fusion model, a
 * kernel's time in the row of its last instruction), the row of each
 * calling instruction spanning the time of what it runs; its makespan is
 * f's step time. For a picture of a whole step. PL_OK and *out (free with
 * pl_schedule_free); else *out is NULL and the errors of
 * pl_callgraph_step_fused_ns. Linear in the instructions f reaches. Added
 * in ABI 1.1. */
PL_API int pl_callgraph_schedule_new(pl_schedule **out, const pl_callgraph *cg,
                                     const pl_func *f, const pl_cost_model *cm,
                                     pl_fusion_mode mode, uint64_t floor_ns);

/* The most bytes one execution of f holds live at once with what it
 * calls: f's buffers as pl_func_peak_bytes counts them, where an
 * instruction that calls functions also holds, while they run, the
 * largest peak of one of them beyond its arguments (the instruction's
 * operands, live already) and, for a call, a branch or an async start,
 * beyond the buffers it returns (the instruction's results); a fusion's
 * body holds nothing (it is one kernel). A while's results are its
 * operands' buffers, updated in place (a copy when the operand is read
 * later or may not be written); a value its body returns in the place of
 * an argument lives in that argument's buffer, so a loop's body peak lies
 * inside its carried buffers. A call's result that its callee returns
 * from an argument is that operand's buffer. Callees first, each once.
 * For the entry it is the total XLA's buffer assignment reports, but for
 * fragmentation: the peak of a whole step. PL_OK; PL_ENOTFOUND when f is
 * not of the graph's module; PL_EINVAL when f calls itself; PL_ENOMEM.
 * Added in ABI 1.1. */
PL_API int pl_callgraph_step_peak_bytes(const pl_callgraph *cg, const pl_func *f,
                                        uint64_t *out);

/* The memory report of one execution of f (passline/cost.h): its peak
 * as pl_callgraph_step_peak_bytes finds it, the instruction at which it
 * happens and the buffers live there. PL_OK and *out (free with
 * pl_memory_report_free); else *out is NULL and the errors of
 * pl_callgraph_step_peak_bytes. Added in ABI 1.1. */
PL_API int pl_callgraph_memory_report_new(pl_memory_report **out, const pl_callgraph *cg,
                                          const pl_func *f);

/* Which functions passes that move or rewrite instructions may work in:
 * out[k] (n = pl_module_num_funcs(m)) is true for function k when it runs
 * as code of its own (the entry, a function nothing calls, a call's
 * callee, a while's body and condition, a conditional's branches), false
 * when it is part of one instruction: the computation an async-start,
 * fusion or any other instruction names in hlo_calls or
 * hlo_called_computations, a reducer, comparator or mapped function
 * (hlo_to_apply of any op but hlo.call), and every function those reach.
 * Such a computation is what that instruction does; rewriting inside it
 * changes the instruction, so a pass leaves it alone unless it says it
 * does. PL_OK; PL_EINVAL when n is not the number of functions;
 * PL_ENOMEM. Linear in the instructions of m (and log of its functions).
 * Added in ABI 1.1. */
PL_API int pl_module_rewritable_funcs(const pl_module *m, bool *out, size_t n);

/* Which functions an instruction applies inside its own kernel, taking no
 * time of their own when it is costed as one: out[k] (n =
 * pl_module_num_funcs(m)) is true for function k when a fusion names it
 * in hlo_calls, any op but hlo.call and hlo.async_start in hlo_to_apply
 * (a reducer, a comparator, a mapped function), or a select-and-scatter
 * in hlo_select or hlo_scatter. Not transitive. PL_OK; PL_EINVAL when n
 * is not the number of functions; PL_ENOMEM. Linear in the instructions
 * of m (and log of its functions). Added in ABI 1.1. */
PL_API int pl_module_kernel_funcs(const pl_module *m, bool *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
