/* SPDX-License-Identifier: MIT */
/* plugins/schedule_breakdown.c — where the time goes (see
 * schedule_breakdown.h). */
#include "schedule_breakdown.h"

#include <stdlib.h>

#include "executions.h"

static const char *const compute_stats[BREAKDOWN_CLASSES] = {
	NULL, "compute_matmul_fp8_ns", "compute_matmul_bf16_ns", "compute_matmul_tf32_ns",
	"compute_matmul_f32_ns", "compute_matmul_f64_ns", "compute_elementwise_ns",
	"compute_memory_ns", "compute_custom_call_ns"};
static const char *const comm_stats[BREAKDOWN_KINDS] = {
	"comm_all_gather_ns", "comm_reduce_scatter_ns", "comm_all_reduce_ns", "comm_all_to_all_ns",
	"comm_collective_permute_ns", "comm_collective_broadcast_ns"};
static const char *const tier_stats[2] = {"comm_intra_node_ns", "comm_inter_node_ns"};
static const char *const exposed_stats[2] = {"exposed_intra_node_ns", "exposed_inter_node_ns"};

/* The class of a kernel of the fusion model: a matmul by its contraction,
 * a library kernel as a custom call, any other by its side of the
 * roofline. */
static int kernel_class(const pl_fusion *fu, size_t k, const pl_cost_model *cm)
{
	size_t n = pl_fusion_kernel_num_insts(fu, k);
	pl_kernel_kind kind = pl_fusion_kernel_kind(fu, k);
	for (size_t i = 0; i < n; i++) {
		int c = pl_inst_cost_class(pl_fusion_kernel_inst(fu, k, i), cm);
		if (kind == PL_KERNEL_MATMUL && c >= PL_COST_CLASS_MATMUL_FP8 &&
		    c <= PL_COST_CLASS_MATMUL_F64)
			return c;
		if (kind == PL_KERNEL_LIBRARY && c != PL_COST_CLASS_NONE)
			return c == PL_COST_CLASS_ELEMENTWISE || c == PL_COST_CLASS_MEMORY
			               ? PL_COST_CLASS_CUSTOM_CALL
			               : c;
	}
	double peak = 0, mem = 0;
	pl_cost_model_get_double(cm, "peak_tflops.f32", &peak);
	pl_cost_model_get_double(cm, "memory_gb_per_s", &mem);
	double flops = (double)pl_fusion_kernel_flops(fu, k);
	double bytes = (double)pl_fusion_kernel_bytes(fu, k);
	return peak > 0 && mem > 0 && flops / (peak * 1000) > bytes / mem ? PL_COST_CLASS_ELEMENTWISE
	                                                                : PL_COST_CLASS_MEMORY;
}

/* The tier of a collective (or start): 1 when its group spans nodes. */
static int tier_of(const pl_inst *coll, const pl_cost_model *cm)
{
	double nodes = 1;
	return pl_inst_comm_term(coll, cm, PL_COMM_TERM_NODES, &nodes) == PL_OK && nodes > 1;
}

/* The start a done waits for (its first operand's definition). */
static const pl_inst *collective_of(const pl_inst *done)
{
	return pl_inst_num_operands(done) ? pl_value_def(pl_inst_operand(done, 0)) : NULL;
}

int breakdown_add(pl_pass_ctx *ctx, struct schedule_breakdown *b, const pl_func *f,
                  const pl_schedule *s, const pl_fusion *fu, u128 times)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	int rc = PL_OK;
	uint64_t classed = 0; /* the compute of one run, as costed alone */
	if (fu)
		for (size_t k = 0; k < pl_fusion_num_kernels(fu) && rc == PL_OK; k++) {
			int c = kernel_class(fu, k, cm);
			uint64_t t = pl_fusion_kernel_time_ns(fu, k);
			classed += t;
			rc = executions_add(ctx, f, &b->compute[c], t, times, compute_stats[c]);
		}
	size_t n = pl_schedule_num_insts(s);
	for (size_t r = 0; r < n && rc == PL_OK; r++) {
		const pl_inst *i = pl_schedule_inst(s, r);
		uint64_t t = pl_schedule_end_ns(s, r) - pl_schedule_begin_ns(s, r);
		uint64_t exposed = pl_schedule_inst_exposed_ns(s, r);
		if (pl_schedule_lane(s, r) != 0) { /* a collective or a start */
			double kind = 0;
			if (pl_inst_comm_term(i, cm, PL_COMM_TERM_KIND, &kind) != PL_OK ||
			    kind < 0 || kind >= BREAKDOWN_KINDS)
				continue;
			int tier = tier_of(i, cm);
			rc = executions_add(ctx, f, &b->comm[(int)kind], t, times, comm_stats[(int)kind]);
			if (rc == PL_OK)
				rc = executions_add(ctx, f, &b->comm_tier[tier], t, times, tier_stats[tier]);
			if (rc == PL_OK && exposed)
				rc = executions_add(ctx, f, &b->exposed_tier[tier], exposed, times,
				                    exposed_stats[tier]);
			continue;
		}
		if (exposed) { /* a done: its exposed wait, by its collective's tier */
			const pl_inst *c = collective_of(i);
			int tier = c ? tier_of(c, cm) : 0;
			rc = executions_add(ctx, f, &b->exposed_tier[tier], exposed, times,
			                    exposed_stats[tier]);
			continue;
		}
		if (fu || !t)
			continue; /* under the fusion model its kernel holds its time */
		/* its time alone: the row's may be longer, slowed by collectives */
		if (pl_inst_time_ns(i, cm, &t) != PL_OK)
			continue;
		int c = pl_inst_cost_class(i, cm);
		if (c > PL_COST_CLASS_NONE && c < BREAKDOWN_CLASSES) {
			classed += t;
			rc = executions_add(ctx, f, &b->compute[c], t, times, compute_stats[c]);
		}
	}
	/* what collectives in flight added (overlap_slowdown) */
	uint64_t compute = pl_schedule_compute_ns(s);
	if (rc == PL_OK && compute > classed)
		rc = executions_add(ctx, f, &b->overlap, compute - classed, times,
		                    "compute_overlap_ns");
	return rc;
}

static int add(pl_pass_ctx *ctx, const char *stat, u128 v)
{
	return v ? pl_ctx_stat_add_wide(ctx, stat, (uint64_t)(v >> 64), (uint64_t)v) : PL_OK;
}

int breakdown_record(pl_pass_ctx *ctx, const struct schedule_breakdown *b)
{
	int rc = PL_OK;
	for (int c = 1; c < BREAKDOWN_CLASSES && rc == PL_OK; c++)
		rc = add(ctx, compute_stats[c], b->compute[c]);
	if (rc == PL_OK)
		rc = add(ctx, "compute_overlap_ns", b->overlap);
	for (int k = 0; k < BREAKDOWN_KINDS && rc == PL_OK; k++)
		rc = add(ctx, comm_stats[k], b->comm[k]);
	for (int t = 0; t < 2 && rc == PL_OK; t++)
		rc = add(ctx, tier_stats[t], b->comm_tier[t]);
	for (int t = 0; t < 2 && rc == PL_OK; t++)
		rc = add(ctx, exposed_stats[t], b->exposed_tier[t]);
	return rc;
}

const char *breakdown_dominant(const pl_inst *coll, const pl_cost_model *cm, double t[3])
{
	static const int terms[3] = {PL_COMM_TERM_LATENCY, PL_COMM_TERM_INTRA, PL_COMM_TERM_INTER};
	static const char *const names[3] = {"latency", "bandwidth within the node",
	                                     "bandwidth across nodes"};
	int best = 0;
	for (int k = 0; k < 3; k++) {
		if (pl_inst_comm_term(coll, cm, terms[k], &t[k]) != PL_OK)
			return NULL;
		if (t[k] > t[best])
			best = k;
	}
	return names[best];
}

int breakdown_queue(const pl_schedule *s, size_t **prev, uint64_t **issued)
{
	size_t n = pl_schedule_num_insts(s), lanes = pl_schedule_num_groups(s) + 1;
	size_t *last = malloc(lanes * sizeof *last);
	*prev = malloc((n ? n : 1) * sizeof **prev);
	*issued = malloc((n ? n : 1) * sizeof **issued);
	if (!last || !*prev || !*issued) {
		free(last);
		free(*prev);
		free(*issued);
		*prev = NULL;
		*issued = NULL;
		return PL_ENOMEM;
	}
	for (size_t l = 0; l < lanes; l++)
		last[l] = SIZE_MAX;
	uint64_t clock = 0; /* the compute clock: the end of the last compute row */
	for (size_t r = 0; r < n; r++) {
		size_t lane = pl_schedule_lane(s, r);
		(*issued)[r] = clock;
		(*prev)[r] = lane < lanes ? last[lane] : SIZE_MAX;
		if (lane == 0) {
			if (pl_schedule_end_ns(s, r) > clock)
				clock = pl_schedule_end_ns(s, r);
		} else if (lane < lanes) {
			last[lane] = r;
		}
	}
	free(last);
	return PL_OK;
}
