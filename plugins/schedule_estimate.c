/* SPDX-License-Identifier: MIT */
/* Contract: reads every instruction, the call graph and the cost model; changes nothing; adds its statistics (and a JSON file with option functions); needs verified IR. */
/* plugins/schedule_estimate.c — ScheduleEstimate.
 * Reads: every instruction, under the pipeline's cost model. Changes:
 * nothing; adds its statistics.
 *
 * What a pipeline bought, in time: each function is simulated as it is now
 * (pl_schedule_new_totals: a compute clock and one stream per process group, so a
 * collective started early runs while compute does), and the makespan, the
 * compute time, the communication time and the communication nothing hid
 * (exposed) are summed over the functions, in ns, exactly (128-bit sums).
 * Run it after the passes whose effect it should measure; comparing
 * exposed_comm_ns with comm_ns shows how much communication is hidden.
 *
 * With the fusion model (option fusion: on, or auto for an HLO function
 * XLA has not fused), a function's compute is that of the kernels the
 * model makes of it (passline/fusion.h), each paying kernel_floor_ns
 * once; the computations the kernels call (a reduce's reducer, a fusion's
 * body) then take no time of their own. The statistics say what the model
 * found and the makespan without it.
 * peak_bytes is the largest peak of live bytes of one function
 * (pl_func_peak_bytes); step_peak_bytes that of a step with its calls,
 * reported with the buffers live at its peak and checked against the
 * device's memory (schedule_memory.c). With top_exposed = N, the N collectives that leave
 * the most time exposed are reported (report lines and remarks).
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "executions.h"
#include "fusion_option.h"
#include "labels.h"
#include "inst_bytes.h"
#include "pass_end.h"
#include "ptr_map.h"
#include "schedule_functions.h"
#include "schedule_memory.h"
#include "schedule_breakdown.h"

static const pl_stat_decl schedule_stats[] = {
	PL_STAT("makespan_ns", "Simulated time of every function, summed (ns)."),
	PL_STAT("compute_ns", "Compute time, summed (ns)."),
	PL_STAT("comm_ns", "Collective communication time, summed (ns)."),
	PL_STAT("exposed_comm_ns", "Communication time compute did not hide, summed (ns)."),
	PL_STAT("step_ns", "Simulated time of one execution of the entry with its calls (ns)."),
	PL_STAT("peak_bytes", "The largest peak of live bytes of one function."),
	PL_STAT("kernels", "Kernels of the functions the fusion model costed."),
	PL_STAT("kernel_bytes", "Bytes those kernels move across their boundaries."),
	PL_STAT("unfused_makespan_ns",
	        "Makespan of the functions the fusion model costed, costed op by op (ns)."),
	PL_STAT("fused_makespan_ns", "Makespan of the same functions under the fusion model (ns)."),
	PL_STAT("step_peak_bytes",
	        "The most bytes one execution of the entry holds live, with what it calls."),
	PL_STAT("exposed_floor_ns",
	        "The least exposed communication any order of each function could leave: "
	        "its busiest stream's time minus its computation, summed (ns)."),
	BREAKDOWN_STATS,
	PL_STAT_END
};



struct schedule_state {
	int64_t top;         /* top_exposed */
	int64_t top_buffers; /* top_buffers */
};

static int schedule_create(pl_pass_ctx *ctx, void **state)
{
	struct schedule_state *st = malloc(sizeof *st);
	if (!st)
		return PL_ENOMEM;
	int rc = pl_ctx_get_int(ctx, "top_exposed", &st->top);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "top_buffers", &st->top_buffers);
	if (rc != PL_OK) {
		free(st);
		return rc;
	}
	*state = st;
	return PL_OK;
}

static void schedule_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- the collectives that leave the most exposed ---- */

struct exposed {
	const pl_func *f;
	const pl_inst *wait; /* the done or synchronous collective */
	const pl_inst *coll; /* the start or synchronous collective */
	uint64_t ns, begin, end, waited_at;
	const char *group;
	size_t seq; /* order of collection: ties keep it */
	const pl_inst *behind; /* the collective its stream ran before it, or NULL */
	uint64_t issued;       /* the compute clock when it was issued */
};

struct exposed_list {
	struct exposed *v;
	size_t n, cap;
};

/* Adds f's exposed collectives (s has rows) to l. */
static int collect_exposed(struct exposed_list *l, const pl_func *f, const pl_schedule *s)
{
	struct ptr_map row_of = {0}; /* start -> its row + 1 */
	size_t n = pl_schedule_num_insts(s);
	size_t *prev = NULL;
	uint64_t *issued = NULL;
	int rc = breakdown_queue(s, &prev, &issued);
	for (size_t r = 0; r < n && rc == PL_OK; r++) {
		const pl_inst *i = pl_schedule_inst(s, r);
		if ((pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_START) &&
		    !ptr_map_put(&row_of, i, (void *)(uintptr_t)(r + 1)))
			rc = PL_ENOMEM;
	}
	for (size_t r = 0; r < n && rc == PL_OK; r++) {
		uint64_t ns = pl_schedule_inst_exposed_ns(s, r);
		if (!ns)
			continue;
		if (!PL_GROW(l->v, l->cap, l->n + 1)) {
			rc = PL_ENOMEM;
			break;
		}
		const pl_inst *w = pl_schedule_inst(s, r);
		size_t cr = r; /* the collective's row */
		if ((pl_inst_traits(w) & PL_TRAIT_COLLECTIVE_DONE) && pl_inst_num_operands(w)) {
			size_t found = (size_t)(uintptr_t)ptr_map_get(
			        &row_of, pl_value_def(pl_inst_operand(w, 0)));
			if (found)
				cr = found - 1;
		}
		const pl_inst *c = pl_schedule_inst(s, cr);
		const char *group = NULL; /* the module's: valid after s is freed */
		if (pl_attrs_get_string(pl_inst_attrs_const(c), "group_id", &group, NULL) != PL_OK)
			group = "";
		/* queued: its stream was busy when it was issued */
		uint64_t begin = pl_schedule_begin_ns(s, cr);
		const pl_inst *behind = begin > issued[cr] && prev[cr] != SIZE_MAX
		                                ? pl_schedule_inst(s, prev[cr])
		                                : NULL;
		l->v[l->n] = (struct exposed){f, w, c, ns, begin, pl_schedule_end_ns(s, cr),
		                              pl_schedule_end_ns(s, r) - ns, group, l->n, behind,
		                              issued[cr]};
		l->n++;
	}
	free(prev);
	free(issued);
	ptr_map_free(&row_of);
	return rc;
}

/* Most exposed first; ties in the order they were collected. */
static int by_exposed(const void *a, const void *b)
{
	const struct exposed *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Why e was exposed, appended to its line: the term that dominates its
 * time, and what it waited behind (the collective its stream ran first,
 * or its own transfer). */
static void exposed_why(pl_pass_ctx *ctx, const struct exposed *e, char *buf, size_t size)
{
	double t[3];
	const char *dom = breakdown_dominant(e->coll, pl_ctx_cost_model(ctx), t);
	int w = 0;
	if (dom)
		w = snprintf(buf, size, "; %s dominates (latency %.0f ns, within the node %.0f ns, "
		             "across nodes %.0f ns)", dom, t[0], t[1], t[2]);
	if (w < 0 || (size_t)w >= size)
		return;
	char name[96];
	if (e->behind) {
		inst_remark_label(e->behind, name, sizeof name);
		snprintf(buf + w, size - (size_t)w,
		         "; waited behind %s on its stream (issued at %llu ns, began at %llu ns)",
		         name, (unsigned long long)e->issued, (unsigned long long)e->begin);
	} else {
		snprintf(buf + w, size - (size_t)w,
		         "; waited behind its own transfer (its stream was free when issued)");
	}
}

/* One report line and one remark for each of the top most exposed. */
static int report_exposed(pl_pass_ctx *ctx, struct exposed_list *l, size_t top)
{
	if (l->n) /* qsort wants an array, even of none */
		qsort(l->v, l->n, sizeof *l->v, by_exposed);
	int rc = PL_OK;
	for (size_t k = 0; k < l->n && k < top && rc == PL_OK; k++) {
		const struct exposed *e = &l->v[k];
		char name[96];
		inst_remark_label(e->wait, name, sizeof name);
		char line[1024];
		/* a group of many devices is cut: its start tells it apart */
		bool cut = strlen(e->group) > 48;
		snprintf(line, sizeof line,
		         "exposed #%zu: %s in @%s: %llu ns exposed (%s, %llu bytes, group \"%.48s%s\"; "
		         "on its stream from %llu to %llu ns, waited for from %llu ns)",
		         k + 1, name, pl_func_name(e->f), (unsigned long long)e->ns,
		         pl_inst_opname(e->coll), (unsigned long long)result_bytes(e->coll), e->group,
		         cut ? "..." : "", (unsigned long long)e->begin, (unsigned long long)e->end,
		         (unsigned long long)e->waited_at);
		size_t len = strlen(line);
		exposed_why(ctx, e, line + len, sizeof line - len);
		rc = pl_ctx_report(ctx, "%s", line);
		if (pl_ctx_remarks_enabled(ctx))
			pl_ctx_remark(ctx, e->wait, "%s", line);
	}
	return rc;
}

/* Where the simulation of f failed, said as precisely as the SDK's
 * answers allow: the instruction whose time cannot be taken, the done
 * without a start, or else the function. */
static void explain(pl_pass_ctx *ctx, const pl_func *f, int rc)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	for (const pl_inst *inst = pl_func_first_inst(f); inst; inst = pl_inst_next(inst)) {
		uint64_t t;
		int trc = pl_inst_time_ns(inst, cm, &t);
		if (trc != PL_OK) {
			pl_ctx_error(ctx, inst, "cannot take the time of %s in @%s: %s",
			             pl_inst_opname(inst), pl_func_name(f),
			             trc == PL_EOVERFLOW ? "more than 2^64 - 1 ns"
			                                 : pl_status_string(trc));
			return;
		}
		if (!(pl_inst_traits(inst) & PL_TRAIT_COLLECTIVE_DONE))
			continue;
		const pl_inst *start = pl_inst_num_operands(inst)
		                               ? pl_value_def(pl_inst_operand(inst, 0))
		                               : NULL;
		if (!start || pl_inst_func(start) != f ||
		    !(pl_inst_traits(start) & PL_TRAIT_COLLECTIVE_START) ||
		    !pl_inst_comes_before(start, inst)) {
			pl_ctx_error(ctx, inst, "%s in @%s does not take the results of a start before it",
			             pl_inst_opname(inst), pl_func_name(f));
			return;
		}
	}
	pl_ctx_error(ctx, NULL, "cannot simulate @%s: %s", pl_func_name(f),
	             rc == PL_EOVERFLOW ? "its schedule is longer than 2^64 - 1 ns"
	                                : pl_status_string(rc));
}

static int add_wide(pl_pass_ctx *ctx, const char *stat, u128 v)
{
	return v ? pl_ctx_stat_add_wide(ctx, stat, (uint64_t)(v >> 64), (uint64_t)v) : PL_OK;
}

/* ---- the costliest kernels ---- */

struct costly {
	uint64_t time;
	size_t fi, k;
};

/* Keeps the 10 costliest in top[] (time descending; ties: earlier first). */
static void keep_top(struct costly *top, size_t *n, struct costly c)
{
	size_t at = *n;
	while (at > 0 && top[at - 1].time < c.time)
		at--;
	if (at >= 10)
		return;
	size_t end = *n < 10 ? *n : 9;
	memmove(&top[at + 1], &top[at], (end - at) * sizeof *top);
	top[at] = c;
	if (*n < 10)
		(*n)++;
}

static const char *kind_name(pl_kernel_kind k)
{
	static const char *const names[] = {"loop", "reduce", "matmul", "library", "copy"};
	return (unsigned)k < 5 ? names[k] : "kernel";
}

static void remark_kernel(pl_pass_ctx *ctx, const pl_func *f, const pl_fusion *fu, size_t k,
                          size_t rank)
{
	char list[512];
	size_t len = 0, n = pl_fusion_kernel_num_insts(fu, k);
	list[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof list - 1; i++) {
		const pl_inst *inst = pl_fusion_kernel_inst(fu, k, i);
		const char *name = pl_inst_num_results(inst)
		                           ? pl_value_name(pl_inst_result(inst, 0))
		                           : NULL;
		int w = snprintf(list + len, sizeof list - len, "%s%s%s", i ? " " : "",
		                 name ? "%" : "", name ? name : pl_inst_opname(inst));
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (len >= sizeof list - 1)
		memcpy(list + sizeof list - 5, "...", 4);
	const pl_inst *at = n ? pl_fusion_kernel_inst(fu, k, 0) : pl_func_last_inst(f);
	pl_ctx_remark(ctx, at,
	              "@%s: costliest kernel %zu: %s, %llu ns, %llu bytes, %llu flops, "
	              "%zu instruction%s: %s",
	              pl_func_name(f), rank + 1, kind_name(pl_fusion_kernel_kind(fu, k)),
	              (unsigned long long)pl_fusion_kernel_time_ns(fu, k),
	              (unsigned long long)pl_fusion_kernel_bytes(fu, k),
	              (unsigned long long)pl_fusion_kernel_flops(fu, k), n, n == 1 ? "" : "s",
	              n ? list : "(none)");
}

/* One function's figures, and how often it runs when the module has an
 * entry. */
static void remark_function(pl_pass_ctx *ctx, const pl_callgraph *cg, const pl_func *f,
                            const pl_schedule *s, u128 times)
{
	char runs[PL_U128_DEC_BUFSIZE + 32] = "";
	if (pl_callgraph_entry(cg)) {
		char n[PL_U128_DEC_BUFSIZE];
		snprintf(runs, sizeof runs, ", runs %s times",
		         u128_format(times, n));
	}
	pl_ctx_remark(ctx, pl_func_first_inst(f),
	              "@%s: makespan %llu ns, compute %llu ns, communication %llu ns, "
	              "exposed %llu ns%s",
	              pl_func_name(f), (unsigned long long)pl_schedule_makespan_ns(s),
	              (unsigned long long)pl_schedule_compute_ns(s),
	              (unsigned long long)pl_schedule_comm_ns(s),
	              (unsigned long long)pl_schedule_exposed_ns(s), runs);
}

/* The time of one step: the entry simulated with its calls, each
 * function costed as the rest of the pass costs it. */
static int entry_step(pl_pass_ctx *ctx, const pl_callgraph *cg, pl_fusion_mode mode,
                      uint64_t floor_ns, u128 *out)
{
	const pl_func *entry = pl_callgraph_entry(cg);
	uint64_t t = 0;
	int rc = pl_callgraph_step_fused_ns(cg, entry, pl_ctx_cost_model(ctx), mode, floor_ns, &t);
	if (rc == PL_EOVERFLOW)
		pl_ctx_error(ctx, pl_func_first_inst(entry),
		             "cannot simulate the step of @%s: it is longer than 2^64 - 1 ns",
		             pl_func_name(entry));
	else if (rc && rc != PL_ENOMEM)
		pl_ctx_error(ctx, pl_func_first_inst(entry), "cannot simulate the step of @%s: %s",
		             pl_func_name(entry), pl_status_string(rc));
	*out = t;
	return rc;
}

/* ---- the run ---- */

/* f's schedule, rows only with top: op by op, or (fused) as the kernels
 * of the fusion model, kept in *fu for the remarks, with the op-by-op
 * makespan in *unfused. */
static int simulate_one(pl_pass_ctx *ctx, const pl_func *f, bool fused, uint64_t floor_ns,
                        bool rows, pl_schedule **s, pl_fusion **fu, uint64_t *unfused)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	*fu = NULL;
	if (!fused)
		return rows ? pl_schedule_new(s, f, cm) : pl_schedule_new_totals(s, f, cm);
	pl_schedule *plain;
	int rc = pl_schedule_new_totals(&plain, f, cm);
	if (rc)
		return rc;
	*unfused = pl_schedule_makespan_ns(plain);
	pl_schedule_free(plain);
	if ((rc = pl_fusion_new(fu, f, cm, floor_ns)))
		return rc;
	rc = rows ? pl_schedule_new_fused(s, f, cm, *fu) : pl_schedule_new_fused_totals(s, f, cm, *fu);
	if (rc) {
		pl_fusion_free(*fu);
		*fu = NULL;
	}
	return rc;
}

static int schedule_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	const struct schedule_state *st = state;
	size_t top = (size_t)st->top;
	uint64_t floor_ns;
	pl_fusion_mode mode = fusion_option(ctx, &floor_ns);
	struct exposed_list worst = {0};
	struct schedule_breakdown breakdown = {0};
	uint64_t peak = 0;
	u128 makespan = 0, compute = 0, comm = 0, exposed = 0, floor_total = 0;
	u128 kernels = 0, kbytes = 0, unfused_total = 0, fused_total = 0;
	int prc = pl_module_prepare_counts(m); /* each pair counted once */
	if (prc)
		return pass_end_report(ctx, prc, "count");
	pl_callgraph *cg = NULL;
	if ((prc = executions_graph(ctx, m, &cg)))
		return prc;
	size_t nf = pl_module_num_funcs(m);
	bool hlo = fusion_hlo_module(m);
	pl_fusion **kept = calloc(nf ? nf : 1, sizeof *kept);
	bool *in_kernel = calloc(nf ? nf : 1, sizeof *in_kernel);
	struct costly costliest[10];
	size_t ncostly = 0;
	int rc = kept && in_kernel ? PL_OK : PL_ENOMEM;
	if (rc == PL_OK && mode != PL_FUSION_OFF) /* what a kernel applies: part of its caller's */
		rc = pl_module_kernel_funcs(m, in_kernel, nf);
	for (size_t fi = 0; fi < nf && rc == PL_OK; fi++) {
		const pl_func *f = pl_module_func_at(m, fi);
		bool fused = fusion_applies(mode, hlo, f);
		if (fused && in_kernel[fi])
			continue; /* its work is in its caller's kernel */
		pl_schedule *s;
		pl_fusion *fu = NULL;
		u128 times;
		uint64_t unfused = 0;
		if ((rc = executions_of(ctx, cg, f, &times)))
			break;
		rc = simulate_one(ctx, f, fused, floor_ns, true, &s, &fu, &unfused);
		uint64_t fpeak = 0;
		if (rc == PL_OK && (rc = pl_func_peak_bytes(f, &fpeak)) != PL_OK)
			pl_schedule_free(s);
		if (rc == PL_OK && top && (rc = collect_exposed(&worst, f, s)) != PL_OK)
			pl_schedule_free(s);
		if (rc) {
			pl_fusion_free(fu);
			if (rc != PL_ENOMEM && fused)
				pl_ctx_error(ctx, pl_func_first_inst(f), "cannot cost the kernels of @%s: %s",
				             pl_func_name(f),
				             rc == PL_EOVERFLOW ? "more than 2^64 - 1" : pl_status_string(rc));
			else if (rc != PL_ENOMEM)
				explain(ctx, f, rc);
			break;
		}
		if (times && fpeak > peak) /* only what runs */
			peak = fpeak;
		/* once each (no entry): 2^64 functions of 2^64 ns cannot be, the
		 * sums fit; times executions: checked */
		if ((rc = executions_add(ctx, f, &makespan, pl_schedule_makespan_ns(s), times,
		                         "makespan_ns")) == PL_OK &&
		    (rc = executions_add(ctx, f, &compute, pl_schedule_compute_ns(s), times,
		                         "compute_ns")) == PL_OK &&
		    (rc = executions_add(ctx, f, &comm, pl_schedule_comm_ns(s), times,
		                         "comm_ns")) == PL_OK)
			rc = executions_add(ctx, f, &exposed, pl_schedule_exposed_ns(s), times,
			                    "exposed_comm_ns");
		if (rc == PL_OK)
			rc = executions_add(ctx, f, &floor_total, pl_schedule_exposed_floor_ns(s), times,
			                    "exposed_floor_ns");
		if (rc == PL_OK && fu &&
		    (rc = executions_add(ctx, f, &kernels, pl_fusion_num_kernels(fu), times,
		                         "kernels")) == PL_OK &&
		    (rc = executions_add(ctx, f, &kbytes, pl_fusion_bytes(fu), times,
		                         "kernel_bytes")) == PL_OK &&
		    (rc = executions_add(ctx, f, &unfused_total, unfused, times,
		                         "unfused_makespan_ns")) == PL_OK)
			rc = executions_add(ctx, f, &fused_total, pl_schedule_makespan_ns(s), times,
			                    "fused_makespan_ns");
		if (rc == PL_OK)
			rc = breakdown_add(ctx, &breakdown, f, s, fu, times);
		if (rc == PL_OK && pl_ctx_remarks_enabled(ctx))
			remark_function(ctx, cg, f, s, times);
		pl_schedule_free(s);
		if (fu && pl_ctx_remarks_enabled(ctx) && times) {
			for (size_t k = 0; k < pl_fusion_num_kernels(fu); k++)
				keep_top(costliest, &ncostly,
				         (struct costly){pl_fusion_kernel_time_ns(fu, k), fi, k});
			kept[fi] = fu; /* kept only to be listed */
		} else {
			pl_fusion_free(fu);
		}
	}
	u128 step = 0;
	uint64_t step_peak = 0;
	if (rc == PL_OK && pl_callgraph_entry(cg))
		rc = entry_step(ctx, cg, mode, floor_ns, &step);
	if (rc == PL_OK && pl_callgraph_entry(cg))
		rc = schedule_memory_report(ctx, cg, st->top_buffers, &step_peak);
	const char *functions = "";
	pl_ctx_get_string(ctx, "functions", &functions);
	if (rc == PL_OK && *functions)
		rc = schedule_write_functions(ctx, m, cg, functions, (uint64_t)step);
	pl_callgraph_free(cg);
	if (rc == PL_OK && pl_ctx_remarks_enabled(ctx))
		for (size_t r = 0; r < ncostly; r++)
			remark_kernel(ctx, pl_module_func_at(m, costliest[r].fi), kept[costliest[r].fi],
			              costliest[r].k, r);
	for (size_t fi = 0; kept && fi < nf; fi++)
		pl_fusion_free(kept[fi]);
	free(kept);
	free(in_kernel);
	if (rc) { /* reported where it happened, but running out of memory */
		free(worst.v);
		return rc == PL_ENOMEM ? pass_end_report(ctx, rc, "simulate") : rc;
	}
	const char *names[] = {"makespan_ns", "compute_ns", "comm_ns", "exposed_comm_ns",
	                       "step_ns", "kernels", "kernel_bytes", "unfused_makespan_ns",
	                       "fused_makespan_ns", "step_peak_bytes", "exposed_floor_ns"};
	const u128 values[] = {makespan, compute, comm, exposed, step, kernels, kbytes,
	                       unfused_total, fused_total, step_peak, floor_total};
	for (size_t k = 0; k < sizeof names / sizeof *names && rc == PL_OK; k++) {
		rc = add_wide(ctx, names[k], values[k]);
		if (rc == PL_OK && k == 4) /* in the order the statistics are declared */
			rc = add_wide(ctx, "peak_bytes", peak);
	}
	if (rc == PL_OK)
		rc = breakdown_record(ctx, &breakdown);
	if (rc == PL_OK && top)
		rc = report_exposed(ctx, &worst, top);
	free(worst.v);
	return pass_end_report(ctx, rc, "record the statistics");
}

static const pl_option_decl schedule_options[] = {
	EXECUTIONS_OPTION,
	PL_OPTION_STRING("functions", "",
	                 "JSON file to write, beside the output, with each function's runs and "
	                 "figures and the cost model in force (empty: none)."),
	PL_OPTION_INT("top_exposed", "0", 0, 1000000,
	              "Report the N collectives that leave the most communication exposed."),
	PL_OPTION_INT("top_buffers", "5", 0, 1000000,
	              "Report the step's memory peak, where it happens and the N largest buffers "
	              "live there (0: no report lines)."),
	FUSION_OPTIONS("Cost functions as the kernels of the fusion model: on, off, or auto "
	               "(on for an HLO function without fusion instructions)."),
	PL_OPTION_END
};

static const pl_pass_desc schedule_pass = {
	PL_PASS_DESC_INIT,
	.options = schedule_options,
	.name = "ScheduleEstimate",
	.summary = "Simulates every function under the cost model: makespan, compute, "
	           "communication and exposed communication in ns, each function times its "
	           "executions from the entry (a sum over functions, each once, only in a "
	           "module without an entry), and step_ns, the entry with its loops and calls "
	           "(changes nothing).",
	.stats = schedule_stats,
	.create = schedule_create,
	.run = schedule_run,
	.flags = PL_PASS_READ_ONLY, /* reports only */
	.destroy = schedule_destroy,
};

PL_PLUGIN_DEFINE("ScheduleEstimate", PACKAGE_VERSION, "MIT",
                 "Schedule simulation under the pipeline's cost model.", &schedule_pass)
