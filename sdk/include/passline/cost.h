/* SPDX-License-Identifier: MIT */
/* passline/cost.h — the cost model, the time of an instruction and the
 * simulation of one function's schedule. Added in ABI 1.1.
 *
 * Times are whole nanoseconds. The model of the four integer keys below
 * is exact integer arithmetic, so that a result can be checked by hand to
 * the nanosecond; a preset or a key set by its new name (further below)
 * counts in decimals and rounds each instruction's time up once. See
 * passline-pipeline(5) for the formulas and passline-plugin(7).
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
 * the pipeline file and -O cost_model.KEY=VALUE; passline runs the h100
 * preset when the pipeline names none and sets none of the four integer
 * keys).
 * Never NULL; owned by the host, valid from create to destroy. Added in
 * ABI 1.1. */
PL_API const pl_cost_model *pl_ctx_cost_model(const pl_pass_ctx *ctx);

/* The time of one instruction in ns. Under the exact integer model (see
 * pl_cost_model_is_exact), for the SDK's ops, exactly:
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
 * An op read from XLA HLO also moves the bytes of pl_inst_kernel_bytes
 * (max of the two ceilings), and XLA's all-to-all, collective-permute and
 * collective-broadcast are collectives. Under any other model: a roofline
 * per kernel and a two-tier collective formula, passline-pipeline(5).
 * PL_OK; PL_EOVERFLOW when the result passes UINT64_MAX; the errors of the
 * counts (PL_ETYPE for a malformed attribute, PL_EINVAL for a factor below
 * 1, a load without a result or a store without a stored value). *out is
 * set only on PL_OK. Added in ABI 1.1. */
PL_API int pl_inst_time_ns(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out);

/* ---- every key by name, decimals and presets (added in ABI 1.1) ---------
 * Besides the four integer keys above (kept as aliases: peak_gflops sets
 * every peak_tflops.* to it / 1000, memory_gbps sets memory_gb_per_s,
 * link_gbps both link_gb_per_s, latency_ns collective.latency_us to it /
 * 1000), the model has keys with units in their names, decimals allowed,
 * and "preset", a device whose numbers the other keys start from. A key
 * set by name overrides the preset whatever the order. passline-plugin(7)
 * lists them and the formulas. */
enum {
	PL_COST_KEY_TEXT = 1,   /* "preset": a name */
	PL_COST_KEY_DOUBLE = 2, /* a decimal number */
	PL_COST_KEY_INT = 3,    /* a whole number (devices_per_node) */
	PL_COST_KEY_ALIAS = 4   /* one of the four old integer keys */
};
/* Every key, i in 0 .. pl_cost_model_num_params() - 1 ("preset" first, the
 * old integer keys last): its name, kind (PL_COST_KEY_*) and one line of
 * help; NULL / 0 when i is out of range. Added in ABI 1.1. */
PL_API size_t pl_cost_model_num_params(void);
PL_API const char *pl_cost_model_param_name(size_t i);
PL_API int pl_cost_model_param_kind(size_t i);
PL_API const char *pl_cost_model_param_help(size_t i);
/* The unit of key i ("TFLOP/s", "GB/s", "us", ...; "" for "preset"), NULL
 * when i is out of range. Added in ABI 1.2. */
PL_API const char *pl_cost_model_param_unit(size_t i);
/* The physical bound of key under cm, into *bound, and what it is in words
 * (what, len bytes, may be NULL): a datasheet figure of cm's preset ("the
 * h100's dense BF16 peak"), twice another key in force (a bus bandwidth:
 * "twice intra.link_gb_per_s") or another key in force (a copy:
 * "memory_gb_per_s"). PL_OK; PL_ENOTFOUND for an unknown key or one
 * without a bound under cm (a datasheet bound without a preset). No key
 * may be negative either (its minimum). Added in ABI 1.2. */
PL_API int pl_cost_model_bound(const pl_cost_model *cm, const char *key, double *bound,
                               char *what, size_t len);
/* The presets, i in 0 .. pl_cost_model_num_presets() - 1: name ("h100")
 * and where its numbers come from. Added in ABI 1.1. */
PL_API size_t pl_cost_model_num_presets(void);
PL_API const char *pl_cost_model_preset_name(size_t i);
PL_API const char *pl_cost_model_preset_source(size_t i);
/* Sets key from text: a preset's name for "preset" (in any case: "H100"
 * is "h100"), a decimal for the
 * others (a whole number for the integer ones). PL_OK; PL_ENOTFOUND for an
 * unknown key, PL_EINVAL for a bad value, out of range or an unknown
 * preset (cm unchanged); then err (errlen bytes, may be NULL) says why, in
 * words ("0 is below the minimum 1e-09"). Added in ABI 1.1. */
PL_API int pl_cost_model_set_text(pl_cost_model *cm, const char *key, const char *value,
                                  char *err, size_t errlen);
/* As pl_cost_model_set for a decimal value; not for "preset". Added in
 * ABI 1.1. */
PL_API int pl_cost_model_set_double(pl_cost_model *cm, const char *key, double value);
/* The value in force (a kind's latency or bandwidth left unset reads as
 * the general key it takes). PL_OK or PL_ENOTFOUND. Added in ABI 1.1. */
PL_API int pl_cost_model_get_double(const pl_cost_model *cm, const char *key, double *out);
/* The value in force as text that reads back to the same value (the
 * preset's name, "" without one). PL_OK, PL_ENOTFOUND, PL_EINVAL when len
 * is too small. Added in ABI 1.1. */
PL_API int pl_cost_model_format(const pl_cost_model *cm, const char *key, char *buf,
                                size_t len);
/* The preset's name, NULL when none. Added in ABI 1.1. */
PL_API const char *pl_cost_model_preset(const pl_cost_model *cm);
/* Whether key was set to a value other than the one it starts from (the
 * preset's or the default): what a printed pipeline must say. Added in
 * ABI 1.1. */
PL_API bool pl_cost_model_is_set(const pl_cost_model *cm, const char *key);

/* Whether cm is the exact integer model: no preset and no key set by its
 * new name (only the four old integer keys). Such a model counts as ABI
 * 1.1's first release did, in exact integers; any other in doubles,
 * rounded up to the ns once per instruction. Added in ABI 1.1. */
PL_API bool pl_cost_model_is_exact(const pl_cost_model *cm);

/* The bytes a kernel moves: the bytes of its operands and results as the
 * cost model counts them (see passline-plugin(7): gathers and slices by
 * what they read, naming ops nothing). PL_OK, or the errors of
 * pl_type_num_bytes. Added in ABI 1.1. */
PL_API int pl_inst_kernel_bytes(const pl_inst *inst, uint64_t *out);

/* ---- where the time goes (added in ABI 1.2) -----------------------------
 * What an instruction's time is spent on: a contraction (a dot, a cuBLAS
 * GEMM) by the dtype class of its peak, any other kernel by the side of
 * the roofline it is on (its FLOPs at the f32 peak against its bytes at
 * the memory's bandwidth), a custom call the model knows no FLOPs of (or
 * fused attention), a collective (or the start of one), or nothing (a
 * done, return, an op that only names values). */
enum {
	PL_COST_CLASS_NONE = 0,
	PL_COST_CLASS_MATMUL_FP8 = 1,
	PL_COST_CLASS_MATMUL_BF16 = 2,
	PL_COST_CLASS_MATMUL_TF32 = 3,
	PL_COST_CLASS_MATMUL_F32 = 4,
	PL_COST_CLASS_MATMUL_F64 = 5,
	PL_COST_CLASS_ELEMENTWISE = 6, /* compute-bound */
	PL_COST_CLASS_MEMORY = 7,      /* memory-bound */
	PL_COST_CLASS_CUSTOM_CALL = 8,
	PL_COST_CLASS_COLLECTIVE = 9
};
/* The class of inst under cm (PL_COST_CLASS_*). Added in ABI 1.2. */
PL_API int pl_inst_cost_class(const pl_inst *inst, const pl_cost_model *cm);
/* A collective's (or start's) time split into the terms of the two-tier
 * model, ns before rounding: the fixed time and the steps' latencies
 * (PL_COMM_TERM_LATENCY), the bandwidth term inside a node with the copy
 * and ramp terms (_INTRA), the NICs' bandwidth term between nodes (_INTER,
 * 0 inside a node); its time is the latency plus the larger of the two
 * bandwidth terms (the tiers are pipelined). Also the nodes its widest
 * group spans (_NODES), its kind (_KIND: 0 all-gather, 1 reduce-scatter,
 * 2 all-reduce, 3 all-to-all, 4 collective-permute, 5 broadcast) and the
 * algorithm NCCL would run for its size and placement (_ALGORITHM: 0
 * ring, 1 one-shot, 2 tree, 3 direct sends). Under the exact integer
 * model: one tier, latency_ns and the wire. PL_OK; PL_EINVAL for an
 * instruction that is not a collective or a start, or an unknown term;
 * the errors of pl_inst_time_ns. Added in ABI 1.2. */
enum {
	PL_COMM_TERM_LATENCY = 0,
	PL_COMM_TERM_INTRA = 1,
	PL_COMM_TERM_INTER = 2,
	PL_COMM_TERM_NODES = 3,
	PL_COMM_TERM_KIND = 4,
	PL_COMM_TERM_ALGORITHM = 5
};
PL_API int pl_inst_comm_term(const pl_inst *inst, const pl_cost_model *cm, int term,
                             double *out);

/* ---- the simulation of one function --------------------------------------
 * A compute clock C and one stream clock G[g] per process group (the
 * group_id attribute; absent or "" is one more group), all 0 at first,
 * walking the instructions in order, t = pl_inst_time_ns:
 *  - compute runs [C, C+d), C = its end: d = t, or under a cost model
 *    whose overlap_slowdown s is above 0 and while some stream is busy
 *    until B > C, t / (1 - s) when that ends by B, else (B - C) plus the
 *    work left, t - (B - C)(1 - s) (collectives in flight hold a share of
 *    the device);
 *  - a synchronous collective runs [max(C,G[g]), +t), G[g] = C = its end,
 *    and adds end - C_before to the exposed time;
 *  - a start runs [max(C,G[g]), +t), G[g] = its end, C unchanged;
 *  - a done: begin = C_before, end = max(C, end of its start); adds
 *    end - begin to the exposed time; C = end;
 *  - return: [C, C).
 * makespan = the largest clock at the end; compute = the sum of compute
 * times d; communication = the sum of collective and start times; exposed =
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
/* The time group g's stream carries for the collectives the function
 * waits for: synchronous ones and the starts whose done it holds (0 past
 * the last group); also in totals. Added in ABI 1.1. */
PL_API uint64_t pl_schedule_group_comm_ns(const pl_schedule *s, size_t g);
/* The least exposed time any order of the function's instructions could
 * have under the same times: the busiest group's pl_schedule_group_comm_ns
 * minus the computation, or 0. The compute clock ends after every
 * collective it waits for, and a stream carries one collective at a time,
 * so it ends after that stream's time; its end is the computation plus the
 * exposed time. Added in ABI 1.1. */
PL_API uint64_t pl_schedule_exposed_floor_ns(const pl_schedule *s);

/* ---- memory -------------------------------------------------------------
 * The most bytes f holds live at once over its instruction order, into
 * *out, counted as XLA's buffer assignment allocates them: each argument
 * and each constant is a buffer for the whole function; every other
 * buffer lives from the instruction that makes it to its last use (a
 * result nothing uses, at its definition only), and an operand of a
 * collective start until the start's done (in flight). Values share a
 * buffer where XLA's do: a bitcast, reshape, tuple, get-tuple-element,
 * opt-barrier, domain or add-dependency is a view of its operand; a
 * done's results are its start's in-flight buffers; a
 * dynamic-update-slice, a scatter, a fusion whose root is one of them
 * (through views) and a while update their operand in place when nothing
 * reads it later and it may be written (not an argument of the entry that
 * input_output_alias does not donate, not a constant); a value the entry
 * returns at an output input_output_alias binds to a parameter, or that a
 * loop body returns in the place of its argument, lives in that
 * argument's buffer once the argument is read for the last time. The
 * entry's results are its outputs. At an instruction its operands and
 * results are live together. Bytes are those of the types
 * (pl_type_num_bytes). Linear in instructions and uses, but for a log
 * per operand. PL_OK or PL_ENOMEM (*out unchanged). Added in ABI 1.1. */
PL_API int pl_func_peak_bytes(const pl_func *f, uint64_t *out);

/* The bytes of the buffer each result of f makes, as pl_func_peak_bytes
 * counts them, into out[0..n): one entry per result of each instruction
 * in function order (n their number); 0 for a result that is its
 * operand's buffer (a view, an in-place update), lives inside a kernel of
 * the fusion model, or lives in an argument's buffer. For a scheduler
 * that tracks live bytes as it orders instructions. PL_OK, PL_EINVAL when
 * n is not the number of results, PL_ENOMEM. Added in ABI 1.1. */
PL_API int pl_func_result_buffer_bytes(const pl_func *f, uint64_t *out, size_t n);

/* What a live buffer is, in a memory report. */
typedef enum pl_buffer_kind {
	PL_BUFFER_PARAMETER = 0, /* an argument of the entry (or of the function) */
	PL_BUFFER_OUTPUT = 1,    /* a value the entry returns */
	PL_BUFFER_TEMPORARY = 2, /* everything else made while it runs */
	PL_BUFFER_IN_FLIGHT = 3, /* a collective's buffer between its start and done */
	PL_BUFFER_CONSTANT = 4   /* a constant */
} pl_buffer_kind;

/* "parameter", "output", "temporary", "in-flight collective", "constant";
 * "?" for another number. Static. Added in ABI 1.1. */
PL_API const char *pl_buffer_kind_name(pl_buffer_kind k);

/* Where a step's memory peaks and what is live there, in the spirit of
 * XLA's memory-usage report. Opaque; owns its memory. */
typedef struct pl_memory_report pl_memory_report;

/* The report of one execution of f with what it calls, counted as
 * pl_callgraph_step_peak_bytes counts (declared in passline/callgraph.h).
 * Free with pl_memory_report_free. Added in ABI 1.1. */
PL_API void pl_memory_report_free(pl_memory_report *r);
/* The peak in bytes (that of pl_callgraph_step_peak_bytes). */
PL_API uint64_t pl_memory_report_peak_bytes(const pl_memory_report *r);
/* The instruction at which the peak happens, in the innermost function
 * running then (a loop body, a called function); NULL when the arguments
 * alone make the peak. Valid while the module is. */
PL_API const pl_inst *pl_memory_report_peak_inst(const pl_memory_report *r);
/* The buffers live at the peak, largest first (ties: in the order they
 * were made, outer functions first): how many, and each one's value (the
 * one that made it), bytes and kind. A buffer a caller passes to what it
 * calls is listed once, as the caller's. k < pl_memory_report_num_buffers. */
PL_API size_t pl_memory_report_num_buffers(const pl_memory_report *r);
PL_API const pl_value *pl_memory_report_buffer_value(const pl_memory_report *r, size_t k);
PL_API uint64_t pl_memory_report_buffer_bytes(const pl_memory_report *r, size_t k);
PL_API pl_buffer_kind pl_memory_report_buffer_kind(const pl_memory_report *r, size_t k);

#ifdef __cplusplus
}
#endif

#endif
