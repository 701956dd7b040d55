/* SPDX-License-Identifier: MIT */
/* passline/cost.h — a cost model in integers, the time of an instruction
 * and the simulation of one function's schedule. Added in ABI 1.1.
 *
 * Everything is exact integer arithmetic in nanoseconds, so that a result
 * can be checked by hand to the nanosecond; see passline-plugin(7) for the
 * model and a worked example.
 */
#ifndef PASSLINE_COST_H
#define PASSLINE_COST_H

#include <passline/common.h>
#include <passline/ir.h>
#include <passline/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the cost model: four integer keys, in this order ---------------------
 * peak_gflops  FLOP per ns              default 400000  min 1
 * memory_gbps  bytes per ns             default 2000    min 1
 * link_gbps    bytes per ns per rank    default 100     min 1
 * latency_ns   ns per collective        default 10000   min 0      (max INT64_MAX each)
 *
 * A pl_cost_model is a plain value: the caller owns what pl_cost_model_new
 * returns and frees it with pl_cost_model_free. Added in ABI 1.1. */
typedef struct pl_cost_model pl_cost_model;

/* Every key at its default; NULL when out of memory. Added in ABI 1.1. */
PL_API pl_cost_model *pl_cost_model_new(void);
/* Frees cm (NULL is allowed). Added in ABI 1.1. */
PL_API void pl_cost_model_free(pl_cost_model *cm);
/* PL_OK; PL_ENOTFOUND for an unknown key; PL_EINVAL for a value out of the
 * key's range (cm is then unchanged). Added in ABI 1.1. */
PL_API int pl_cost_model_set(pl_cost_model *cm, const char *key, int64_t value);
/* PL_OK or PL_ENOTFOUND (*out unchanged). Added in ABI 1.1. */
PL_API int pl_cost_model_get(const pl_cost_model *cm, const char *key, int64_t *out);
/* The keys, for hosts that validate and list them (did-you-mean,
 * --list-passes): i in 0 .. pl_cost_model_num_keys() - 1, in the order
 * above. Each is a static declaration with its name, PL_OPT_INT, the
 * default as text, one line of help, min and max; NULL when i is out of
 * range. Added in ABI 1.1. */
PL_API size_t pl_cost_model_num_keys(void);
PL_API const pl_option_decl *pl_cost_model_key(size_t i);

/* The pipeline's cost model, as a pass sees it (the [cost_model] section of
 * the pipeline file and -O cost_model.KEY=VALUE; the defaults otherwise).
 * Never NULL; owned by the host, valid from create to destroy. Added in
 * ABI 1.1. */
PL_API const pl_cost_model *pl_ctx_cost_model(const pl_pass_ctx *ctx);

/* The time of one instruction in ns, exactly:
 *  - n = pl_inst_masked_dynamic_instances, flops = pl_inst_flops;
 *    a load or store moves n * dtype size bytes (a load's result, a store's
 *    stored value) and computes nothing; every other compute instruction
 *    computes n * flops and moves nothing;
 *    time = max(ceil(flops / peak_gflops), ceil(bytes / memory_gbps));
 *  - a synchronous collective or a start: latency_ns + ceil(W / link_gbps),
 *    with F = the factor attribute (1 when absent), B = the sum of the
 *    result bytes (all-gather) or of the operand bytes (reduce-scatter,
 *    all-reduce); W = (F-1)*B/F (gathers, reduce-scatters) or 2*(F-1)*B/F
 *    (all-reduce), taken as ONE ceiling of the whole fraction, without
 *    overflow at any width: ceil((F-1)*B / (F*link_gbps)) resp.
 *    ceil(2*(F-1)*B / (F*link_gbps));
 *  - return, dones, pack and unpack (0-flop data movement): 0.
 * PL_OK; PL_EOVERFLOW when the result passes UINT64_MAX; the errors of the
 * counts (PL_ETYPE for a malformed attribute, PL_EINVAL for a factor below
 * 1, a load without a result or a store without a stored value). *out is
 * set only on PL_OK. Added in ABI 1.1. */
PL_API int pl_inst_time_ns(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out);

/* ---- the simulation of one function --------------------------------------
 * A compute clock C and one stream clock G[g] per process group (the
 * group_id attribute; absent or "" is one more group), all 0 at first,
 * walking the instructions in order, t = pl_inst_time_ns:
 *  - compute runs [C, C+t), C = its end;
 *  - a synchronous collective runs [max(C,G[g]), +t), G[g] = C = its end,
 *    and adds end - C_before to the exposed time;
 *  - a start runs [max(C,G[g]), +t), G[g] = its end, C unchanged;
 *  - a done: begin = C_before, end = max(C, end of its start); adds
 *    end - begin to the exposed time; C = end;
 *  - return: [C, C).
 * makespan = the largest clock at the end; compute = the sum of compute
 * times; communication = the sum of collective and start times; exposed =
 * the sum of exposed waits. Linear in the size of the function. */
typedef struct pl_schedule pl_schedule; /* opaque, owns its memory */

/* Simulates f as it is now; *out is freed with pl_schedule_free and does
 * not change when f does (its instruction handles are f's). PL_OK,
 * PL_ENOMEM, PL_EOVERFLOW (a time or clock past UINT64_MAX), the errors of
 * pl_inst_time_ns, PL_EINVAL for a done whose operand 0 is not the result
 * of a start earlier in f. *out is set only on PL_OK. Added in ABI 1.1. */
PL_API int pl_schedule_new(pl_schedule **out, const pl_func *f, const pl_cost_model *cm);
/* As pl_schedule_new, without the rows: only the totals and the groups
 * (pl_schedule_num_insts is 0), in memory in proportion to the process
 * groups and the starts of f, not to its size. For a pass that needs the
 * totals of a large function. Added in ABI 1.1. */
PL_API int pl_schedule_new_totals(pl_schedule **out, const pl_func *f,
                                  const pl_cost_model *cm);
/* NULL is allowed. Added in ABI 1.1. */
PL_API void pl_schedule_free(pl_schedule *s);
/* Added in ABI 1.1. */
PL_API uint64_t pl_schedule_makespan_ns(const pl_schedule *s);
PL_API uint64_t pl_schedule_compute_ns(const pl_schedule *s);
PL_API uint64_t pl_schedule_comm_ns(const pl_schedule *s);
PL_API uint64_t pl_schedule_exposed_ns(const pl_schedule *s);
/* Per instruction, i in function order (0 .. pl_func_num_insts - 1).
 * Added in ABI 1.1. */
PL_API size_t pl_schedule_num_insts(const pl_schedule *s);
PL_API const pl_inst *pl_schedule_inst(const pl_schedule *s, size_t i);
PL_API uint64_t pl_schedule_begin_ns(const pl_schedule *s, size_t i);
PL_API uint64_t pl_schedule_end_ns(const pl_schedule *s, size_t i);
/* The exposed wait this instruction added (a synchronous collective or a
 * done), else 0; on the compute lane it is the interval [end - exposed,
 * end). Added in ABI 1.1. */
PL_API uint64_t pl_schedule_inst_exposed_ns(const pl_schedule *s, size_t i);
/* The lane: 0 = compute (compute instructions, dones, return), g + 1 =
 * process group g (synchronous collectives and starts). Groups are
 * numbered in order of first appearance. Added in ABI 1.1. */
PL_API size_t pl_schedule_lane(const pl_schedule *s, size_t i);
PL_API size_t pl_schedule_num_groups(const pl_schedule *s);
/* The group_id of group g ("" for the group of collectives without one);
 * valid while s is. Added in ABI 1.1. */
PL_API const char *pl_schedule_group_name(const pl_schedule *s, size_t g);

/* ---- memory -------------------------------------------------------------
 * The most bytes f holds live at once over its instruction order, into
 * *out: every argument for the whole function; every result from the
 * instruction that defines it to its last use (a result nothing uses, at
 * its definition only); an operand of a collective start until the
 * start's done (in flight); a done's ready values take the place of its
 * start's in-flight buffers. At an instruction its operands and results
 * are live together. Bytes are those of the types (pl_type_num_bytes);
 * domains do not multiply them. Linear in instructions and uses. PL_OK or
 * PL_ENOMEM (*out unchanged). Added in ABI 1.1. */
PL_API int pl_func_peak_bytes(const pl_func *f, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
