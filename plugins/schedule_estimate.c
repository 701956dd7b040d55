/* SPDX-License-Identifier: MIT */
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
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass_end.h"

typedef unsigned __int128 u128;

static const pl_stat_decl schedule_stats[] = {
	PL_STAT("makespan_ns", "Simulated time of every function, summed (ns)."),
	PL_STAT("compute_ns", "Compute time, summed (ns)."),
	PL_STAT("comm_ns", "Collective communication time, summed (ns)."),
	PL_STAT("exposed_comm_ns", "Communication time compute did not hide, summed (ns)."),
	PL_STAT("kernels", "Kernels of the functions the fusion model costed."),
	PL_STAT("kernel_bytes", "Bytes those kernels move across their boundaries."),
	PL_STAT("unfused_makespan_ns",
	        "Makespan of the functions the fusion model costed, costed op by op (ns)."),
	PL_STAT("fused_makespan_ns", "Makespan of the same functions under the fusion model (ns)."),
	PL_STAT_END
};

static const char *const fusion_choices[] = {"auto", "on", "off", NULL};

static const pl_option_decl schedule_options[] = {
	PL_OPTION_ENUM("fusion", "auto", fusion_choices,
	               "Cost functions as the kernels of the fusion model: on, off, or auto "
	               "(on for an HLO function without fusion instructions)."),
	PL_OPTION_INT("kernel_floor_ns", "1000", 0, INT64_MAX,
	              "Time every kernel of the fusion model takes at least (ns)."),
	PL_OPTION_END
};

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

/* ---- the computations kernels call ---- */

static int ptr_cmp(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;
	return (x > y) - (x < y);
}

struct callees {
	const pl_func **v; /* sorted */
	size_t n, cap;
};

static int add_callee(struct callees *c, const pl_module *m, const pl_inst *inst, const char *key)
{
	const pl_attr *a = pl_attrs_get(pl_inst_attrs_const(inst), key);
	if (!a || pl_attr_get_kind(a) != PL_ATTR_STRING)
		return PL_OK;
	size_t len;
	const char *s = pl_attr_get_string(a, &len);
	char name[256];
	if (len && s[0] == '%') {
		s++;
		len--;
	}
	if (len >= sizeof name)
		return PL_OK;
	memcpy(name, s, len);
	name[len] = '\0';
	const pl_func *f = pl_module_find_func(m, name);
	if (!f)
		return PL_OK;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		const pl_func **v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return PL_ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = f;
	return PL_OK;
}

/* The functions an instruction applies inside its own kernel: a fusion's
 * body (calls), a reducer or comparator (to_apply, except a call's),
 * select-and-scatter's two. */
static int find_callees(struct callees *c, const pl_module *m)
{
	int rc = PL_OK;
	for (size_t fi = 0; fi < pl_module_num_funcs(m) && rc == PL_OK; fi++)
		for (const pl_inst *inst = pl_func_first_inst(pl_module_func_at(m, fi));
		     inst && rc == PL_OK; inst = pl_inst_next(inst)) {
			const char *op = pl_inst_opname(inst);
			if (strcmp(op, "hlo.fusion") == 0)
				rc = add_callee(c, m, inst, "hlo_calls");
			else if (strcmp(op, "hlo.call") != 0 && strcmp(op, "hlo.async_start") != 0)
				rc = add_callee(c, m, inst, "hlo_to_apply");
			if (rc == PL_OK && strcmp(op, "hlo.select_and_scatter") == 0) {
				rc = add_callee(c, m, inst, "hlo_select");
				if (rc == PL_OK)
					rc = add_callee(c, m, inst, "hlo_scatter");
			}
		}
	if (c->n)
		qsort(c->v, c->n, sizeof *c->v, ptr_cmp);
	return rc;
}

static bool is_callee(const struct callees *c, const pl_func *f)
{
	return c->n && bsearch(&f, c->v, c->n, sizeof *c->v, ptr_cmp);
}

static bool is_hlo_module(const pl_module *m)
{
	for (size_t fi = 0; fi < pl_module_num_funcs(m); fi++) {
		bool entry = false;
		pl_func *f = pl_module_func_at(m, fi);
		if (pl_attrs_get_bool(pl_func_attrs(f), "hlo_entry", &entry) == PL_OK && entry)
			return true;
	}
	return false;
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

/* ---- the run ---- */

struct totals {
	u128 makespan, compute, comm, exposed, kernels, bytes, unfused, fused;
};

static void add_schedule(struct totals *t, const pl_schedule *s)
{
	/* 2^64 functions of 2^64 ns cannot be: the sums fit */
	t->makespan += pl_schedule_makespan_ns(s);
	t->compute += pl_schedule_compute_ns(s);
	t->comm += pl_schedule_comm_ns(s);
	t->exposed += pl_schedule_exposed_ns(s);
}

static void remark_schedule(pl_pass_ctx *ctx, const pl_func *f, const pl_schedule *s)
{
	if (pl_ctx_remarks_enabled(ctx))
		pl_ctx_remark(ctx, pl_func_first_inst(f),
		              "@%s: makespan %llu ns, compute %llu ns, communication %llu ns, "
		              "exposed %llu ns",
		              pl_func_name(f), (unsigned long long)pl_schedule_makespan_ns(s),
		              (unsigned long long)pl_schedule_compute_ns(s),
		              (unsigned long long)pl_schedule_comm_ns(s),
		              (unsigned long long)pl_schedule_exposed_ns(s));
}

/* f op by op; its schedule's makespan in *unfused. */
static int simulate_unfused(pl_pass_ctx *ctx, const pl_func *f, struct totals *t, bool add,
                            uint64_t *unfused)
{
	pl_schedule *s;
	int rc = pl_schedule_new_totals(&s, f, pl_ctx_cost_model(ctx));
	if (rc == PL_ENOMEM)
		return pass_end_report(ctx, rc, "simulate");
	if (rc) {
		explain(ctx, f, rc);
		return rc;
	}
	*unfused = pl_schedule_makespan_ns(s);
	if (add) {
		add_schedule(t, s);
		remark_schedule(ctx, f, s);
	}
	pl_schedule_free(s);
	return PL_OK;
}

static int simulate_fused(pl_pass_ctx *ctx, const pl_func *f, uint64_t floor_ns,
                          struct totals *t, struct costly *top, size_t *ntop, size_t fi,
                          pl_fusion **keep)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	uint64_t unfused;
	int rc = simulate_unfused(ctx, f, t, false, &unfused);
	if (rc)
		return rc;
	pl_fusion *fu;
	pl_schedule *s = NULL;
	rc = pl_fusion_new(&fu, f, cm, floor_ns);
	if (rc == PL_OK) {
		rc = pl_schedule_new_fused_totals(&s, f, cm, fu);
		if (rc)
			pl_fusion_free(fu);
	}
	if (rc == PL_ENOMEM)
		return pass_end_report(ctx, rc, "simulate");
	if (rc) {
		pl_ctx_error(ctx, pl_func_first_inst(f), "cannot cost the kernels of @%s: %s",
		             pl_func_name(f),
		             rc == PL_EOVERFLOW ? "more than 2^64 - 1" : pl_status_string(rc));
		return rc;
	}
	add_schedule(t, s);
	remark_schedule(ctx, f, s);
	t->kernels += pl_fusion_num_kernels(fu);
	t->bytes += pl_fusion_bytes(fu);
	t->unfused += unfused;
	t->fused += pl_schedule_makespan_ns(s);
	pl_schedule_free(s);
	if (!pl_ctx_remarks_enabled(ctx)) { /* kept only to be listed */
		pl_fusion_free(fu);
		return PL_OK;
	}
	for (size_t k = 0; k < pl_fusion_num_kernels(fu); k++)
		keep_top(top, ntop, (struct costly){pl_fusion_kernel_time_ns(fu, k), fi, k});
	*keep = fu;
	return PL_OK;
}

static int record(pl_pass_ctx *ctx, const struct totals *t)
{
	int rc = add_wide(ctx, "makespan_ns", t->makespan);
	if (rc == PL_OK)
		rc = add_wide(ctx, "compute_ns", t->compute);
	if (rc == PL_OK)
		rc = add_wide(ctx, "comm_ns", t->comm);
	if (rc == PL_OK)
		rc = add_wide(ctx, "exposed_comm_ns", t->exposed);
	if (rc == PL_OK)
		rc = add_wide(ctx, "kernels", t->kernels);
	if (rc == PL_OK)
		rc = add_wide(ctx, "kernel_bytes", t->bytes);
	if (rc == PL_OK)
		rc = add_wide(ctx, "unfused_makespan_ns", t->unfused);
	if (rc == PL_OK)
		rc = add_wide(ctx, "fused_makespan_ns", t->fused);
	return pass_end_report(ctx, rc, "record the statistics");
}

static int schedule_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	const char *mode = "auto";
	int64_t floor_ns = 1000;
	pl_ctx_get_string(ctx, "fusion", &mode);
	pl_ctx_get_int(ctx, "kernel_floor_ns", &floor_ns);
	bool on = strcmp(mode, "on") == 0, off = strcmp(mode, "off") == 0;
	int rc = pl_module_prepare_counts(m); /* each pair counted once */
	if (rc)
		return pass_end_report(ctx, rc, "count");
	struct totals t = {0};
	struct callees callees = {0};
	bool hlo = !off && is_hlo_module(m);
	size_t nf = pl_module_num_funcs(m);
	pl_fusion **kept = calloc(nf ? nf : 1, sizeof *kept);
	if (!kept)
		return pass_end_report(ctx, PL_ENOMEM, "simulate");
	if (!off && (rc = find_callees(&callees, m))) {
		pass_end_report(ctx, rc, "simulate");
		goto out;
	}
	struct costly top[10];
	size_t ntop = 0;
	for (size_t fi = 0; fi < nf && rc == PL_OK; fi++) {
		const pl_func *f = pl_module_func_at(m, fi);
		bool fused = on || (hlo && !pl_func_has_fusion(f));
		if (fused && is_callee(&callees, f))
			continue; /* its work is in its caller's kernel */
		uint64_t unfused;
		if (fused)
			rc = simulate_fused(ctx, f, (uint64_t)floor_ns, &t, top, &ntop, fi, &kept[fi]);
		else
			rc = simulate_unfused(ctx, f, &t, true, &unfused);
	}
	if (rc == PL_OK && pl_ctx_remarks_enabled(ctx))
		for (size_t r = 0; r < ntop; r++)
			remark_kernel(ctx, pl_module_func_at(m, top[r].fi), kept[top[r].fi], top[r].k, r);
	if (rc == PL_OK)
		rc = record(ctx, &t);
out:
	for (size_t fi = 0; fi < nf; fi++)
		pl_fusion_free(kept[fi]);
	free(kept);
	free(callees.v);
	return rc;
}

static const pl_pass_desc schedule_pass = {
	PL_PASS_DESC_INIT,
	.name = "ScheduleEstimate",
	.summary = "Simulates every function under the cost model: makespan, compute, "
	           "communication and exposed communication in ns (changes nothing).",
	.options = schedule_options,
	.stats = schedule_stats,
	.run = schedule_run,
};

PL_PLUGIN_DEFINE("ScheduleEstimate", PACKAGE_VERSION, "MIT",
                 "Schedule simulation under the pipeline's cost model.", &schedule_pass)
