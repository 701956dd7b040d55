/* SPDX-License-Identifier: MIT */
/* plugins/schedule_breakdown.h — ScheduleEstimate's account of where the
 * time goes: compute by class (matmul by dtype, compute-bound elementwise,
 * memory-bound, custom calls), communication by kind and by tier (inside
 * a node, across nodes), exposed communication by tier; and, for an
 * exposed collective, which term of its time dominates and what it waited
 * behind. */
#ifndef PLUGINS_SCHEDULE_BREAKDOWN_H
#define PLUGINS_SCHEDULE_BREAKDOWN_H

#include <passline/passline.h>

#include "u128_int.h"

enum { BREAKDOWN_CLASSES = 9, BREAKDOWN_KINDS = 6 };

struct schedule_breakdown {
	u128 compute[BREAKDOWN_CLASSES]; /* by PL_COST_CLASS_* */
	u128 comm[BREAKDOWN_KINDS];      /* by PL_COMM_TERM_KIND */
	u128 comm_tier[2];               /* inside a node, across nodes */
	u128 exposed_tier[2];
	u128 overlap; /* compute time added by collectives in flight */
};

/* The statistics it adds, for the pass's list (after its own). */
#define BREAKDOWN_STATS                                                                        \
	PL_STAT("compute_matmul_fp8_ns", "Compute time of 8-bit contractions (ns)."),              \
	PL_STAT("compute_matmul_bf16_ns", "Compute time of bf16 and f16 contractions (ns)."),      \
	PL_STAT("compute_matmul_tf32_ns", "Compute time of f32 contractions (ns)."),               \
	PL_STAT("compute_matmul_f32_ns", "Compute time of other f32 contractions (ns)."),          \
	PL_STAT("compute_matmul_f64_ns", "Compute time of f64 contractions (ns)."),                \
	PL_STAT("compute_elementwise_ns", "Compute time of compute-bound other kernels (ns)."),    \
	PL_STAT("compute_memory_ns", "Compute time of memory-bound kernels (ns)."),                \
	PL_STAT("compute_custom_call_ns", "Compute time of custom calls and library kernels (ns)."), \
	PL_STAT("compute_overlap_ns", "Compute time added by collectives in flight beside it (ns)."), \
	PL_STAT("comm_all_gather_ns", "Communication time of all-gathers (ns)."),                  \
	PL_STAT("comm_reduce_scatter_ns", "Communication time of reduce-scatters (ns)."),          \
	PL_STAT("comm_all_reduce_ns", "Communication time of all-reduces (ns)."),                  \
	PL_STAT("comm_all_to_all_ns", "Communication time of all-to-alls (ns)."),                  \
	PL_STAT("comm_collective_permute_ns", "Communication time of collective-permutes (ns)."),  \
	PL_STAT("comm_collective_broadcast_ns", "Communication time of broadcasts (ns)."),         \
	PL_STAT("comm_intra_node_ns", "Communication time of groups inside one node (ns)."),       \
	PL_STAT("comm_inter_node_ns", "Communication time of groups that span nodes (ns)."),       \
	PL_STAT("exposed_intra_node_ns", "Exposed time of groups inside one node (ns)."),          \
	PL_STAT("exposed_inter_node_ns", "Exposed time of groups that span nodes (ns).")

/* Adds f's figures, each times `times`: s is f's schedule with its rows;
 * fu the kernels of the fusion model that costed f's compute, or NULL (op
 * by op). PL_OK, or the error executions_add reported. */
int breakdown_add(pl_pass_ctx *ctx, struct schedule_breakdown *b, const pl_func *f,
                  const pl_schedule *s, const pl_fusion *fu, u128 times);
/* Adds the statistics (those that are not 0). */
int breakdown_record(pl_pass_ctx *ctx, const struct schedule_breakdown *b);

/* What dominates a collective's time: "latency", "bandwidth within the
 * node" or "bandwidth across nodes", with its three terms in ns into t[3];
 * NULL when its terms cannot be taken. */
const char *breakdown_dominant(const pl_inst *coll, const pl_cost_model *cm, double t[3]);

/* For each row r of s: the row of the collective that last ran on r's
 * stream before it (SIZE_MAX: none), and the compute clock when r was
 * reached (when a collective was issued). Arrays of pl_schedule_num_insts
 * entries; PL_OK or PL_ENOMEM. */
int breakdown_queue(const pl_schedule *s, size_t **prev, uint64_t **issued);

#endif
