/* SPDX-License-Identifier: MIT */
/* Contract: reads the module, the call graph and the cost model; changes nothing; hands the host an SVG and a trace-event JSON file; needs verified IR. */
/* plugins/timeline.c — Timeline: a picture of the simulated schedule of
 * a whole step (the entry as its step is simulated, passline/callgraph.h;
 * timeline_step.c) or, in a module without an entry, of one function
 * (passline/cost.h), as SVG and as Chrome trace-event JSON, handed to the
 * host as files. Reads: the module and the cost model. Changes: nothing. */
#include "timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executions.h"
#include "fusion_option.h"
#include "pass_end.h"

/* ---- the pass ---- */

static const pl_option_decl timeline_options[] = {
	PL_OPTION_STRING("svg", "", "SVG file to write, beside the output (empty: none)."),
	PL_OPTION_STRING("trace", "",
	                 "Chrome trace-event JSON file to write (empty: none)."),
	PL_OPTION_STRING("function", "",
	                 "The function to draw (empty: the entry with its loops and calls, in a "
	                 "module without one the function with the largest makespan)."),
	PL_OPTION_STRING("title", "", "The picture's title (empty: the function's name)."),
	PL_OPTION_INT("span_ns", "0", 0, INT64_MAX,
	              "Time across the SVG's plot in ns (0: the makespan; never less than it)."),
	PL_OPTION_BOOL("axis", "true",
	               "Draw the SVG's time axis and legend (false: lanes and caption only)."),
	PL_OPTION_INT("max_depth", "8", 0, 1000,
	              "How deep below the step's root its loops' and calls' functions are "
	              "drawn (0: the root alone, each loop and call a box)."),
	PL_OPTION_INT("fold_below_us", "0", 0, INT64_MAX / 1000,
	              "Draw no panel for a function one run of which takes less than this "
	              "many microseconds: its loop or call stays a box (0: fold nothing)."),
	PL_OPTION_STRING("part_span_ns", "",
	                 "NAME=NS[,NAME=NS...]: the time across the SVG's plot for the panel of "
	                 "function NAME in a step (never less than its run), so that pictures "
	                 "drawn with the same spans share scales (empty: each its own)."),
	EXECUTIONS_OPTION,
	FUSION_OPTIONS("Draw a step's functions as the kernels of the fusion model, as "
	               "ScheduleEstimate times them: on, off, or auto (on for an HLO function "
	               "without fusion instructions)."),
	PL_OPTION_END
};

/* The schedule of the function named (with or without '@'), or of the one
 * with the largest makespan (the first of equals). */
static int pick(pl_pass_ctx *ctx, pl_module *m, const char *want, pl_schedule **out,
                const pl_func **fout)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	*out = NULL;
	*fout = NULL;
	if (*want) {
		const char *name = want[0] == '@' ? want + 1 : want;
		const pl_func *f = pl_module_find_func(m, name);
		if (!f) {
			pl_ctx_error(ctx, NULL, "no function @%s in the module", name);
			return PL_ENOTFOUND;
		}
		*fout = f;
		return pl_schedule_new(out, f, cm);
	}
	for (size_t k = 0; k < pl_module_num_funcs(m); k++) {
		const pl_func *f = pl_module_func_at(m, k);
		pl_schedule *s;
		int rc = pl_schedule_new(&s, f, cm);
		if (rc != PL_OK) {
			pl_schedule_free(*out);
			*out = NULL;
			return rc;
		}
		if (!*out || pl_schedule_makespan_ns(s) > pl_schedule_makespan_ns(*out)) {
			pl_schedule_free(*out);
			*out = s;
			*fout = f;
		} else {
			pl_schedule_free(s);
		}
	}
	return PL_OK;
}

static int write_one(pl_pass_ctx *ctx, const char *name, const struct tl_view *v,
                     void (*writer)(struct tl_buf *, const struct tl_view *))
{
	if (!*name)
		return PL_OK;
	struct tl_buf b = {0};
	writer(&b, v);
	int rc = b.failed ? PL_ENOMEM : pl_ctx_write_file(ctx, name, b.data, b.len);
	tl_buf_free(&b);
	return rc;
}

/* The title: the option, else "@NAME" (NULL when out of memory). */
static char *title_of(const char *title, const pl_func *f)
{
	const char *src = *title ? title : pl_func_name(f);
	size_t n = strlen(src) + 2;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%s%s", *title ? "" : "@", src);
	return t;
}

static int write_both(pl_pass_ctx *ctx, const struct tl_view *v, const char *svg,
                      const char *trace, int *written_rc)
{
	int rc = *written_rc = write_one(ctx, svg, v, tl_write_svg);
	if (rc == PL_OK)
		rc = *written_rc = write_one(ctx, trace, v, tl_write_trace);
	return rc;
}

/* What the options ask for. */
struct tl_opts {
	const char *svg, *trace, *function, *title, *part_spans;
	int64_t span_ns, max_depth, fold_below_us;
	uint64_t floor_ns;
	bool axis;
	pl_fusion_mode mode;
};

/* Whether text is NAME=NS[,NAME=NS...] (or empty). */
static bool part_spans_ok(const char *text)
{
	for (const char *p = text; *p;) {
		const char *eq = strchr(p, '=');
		const char *comma = strchr(p, ',');
		if (!eq || eq == p || (comma && comma < eq))
			return false;
		const char *d = eq + 1;
		if (*d < '0' || *d > '9')
			return false;
		while (*d >= '0' && *d <= '9')
			d++;
		if (*d && *d != ',')
			return false;
		p = *d ? d + 1 : d;
		if (*d && !*p)
			return false;
	}
	return true;
}

/* A whole step: root (the function option, else the entry) with what its
 * loops, calls and conditionals run, as the step simulates it. */
static int draw_step(pl_pass_ctx *ctx, pl_module *m, const pl_callgraph *cg,
                     const struct tl_opts *o)
{
	const char *function = o->function, *title = o->title;
	const pl_func *root = pl_callgraph_entry(cg), *failed = NULL;
	if (*function) {
		const char *name = function[0] == '@' ? function + 1 : function;
		if (!(root = pl_module_find_func(m, name))) {
			pl_ctx_error(ctx, NULL, "no function @%s in the module", name);
			return PL_ENOTFOUND;
		}
	}
	struct tl_step st = {0};
	struct tl_limits lim = {(size_t)o->max_depth, (uint64_t)o->fold_below_us * 1000};
	int rc = tl_step_build(&st, cg, root, pl_ctx_cost_model(ctx), o->mode,
	                       o->floor_ns, &lim, &failed);
	int written_rc = 0;
	bool explained = false;
	char *t = rc ? NULL : title_of(title, root);
	if (rc == PL_OK && !t)
		rc = PL_ENOMEM;
	if (rc == PL_OK) {
		struct tl_view v = {st.parts[0].s, pl_func_name(root), t, (uint64_t)o->span_ns,
		                    o->axis, &st, o->part_spans, st.parts[0].whole};
		rc = write_both(ctx, &v, o->svg, o->trace, &written_rc);
	} else if (failed && rc != PL_ENOMEM) {
		pl_ctx_error(ctx, pl_func_first_inst(failed), "cannot simulate @%s in the step: %s",
		             pl_func_name(failed),
		             rc == PL_EOVERFLOW ? "longer than 2^64 - 1 ns" : pl_status_string(rc));
		explained = true;
	}
	free(t);
	tl_step_free(&st);
	if (explained || (rc == PL_EINVAL && written_rc == PL_EINVAL))
		return rc; /* already explained */
	return pass_end_report(ctx, rc, "simulate the step");
}

static int timeline_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	struct tl_opts o = {"", "", "", "", "", 0, 8, 0, 1000, true, PL_FUSION_AUTO};
	pl_ctx_get_string(ctx, "svg", &o.svg);
	pl_ctx_get_string(ctx, "part_span_ns", &o.part_spans);
	pl_ctx_get_int(ctx, "max_depth", &o.max_depth);
	pl_ctx_get_int(ctx, "fold_below_us", &o.fold_below_us);
	if (!part_spans_ok(o.part_spans)) {
		pl_ctx_error(ctx, NULL, "option part_span_ns: expected NAME=NS[,NAME=NS...], not '%s'",
		             o.part_spans);
		return PL_EINVAL;
	}
	pl_ctx_get_string(ctx, "trace", &o.trace);
	pl_ctx_get_string(ctx, "function", &o.function);
	pl_ctx_get_string(ctx, "title", &o.title);
	pl_ctx_get_int(ctx, "span_ns", &o.span_ns);
	pl_ctx_get_bool(ctx, "axis", &o.axis);
	o.mode = fusion_option(ctx, &o.floor_ns);
	const char *svg = o.svg, *trace = o.trace, *function = o.function, *title = o.title;
	int prc = pl_module_prepare_counts(m); /* each pair counted once */
	if (prc)
		return pass_end_report(ctx, prc, "count");
	pl_callgraph *cg = NULL;
	if ((prc = executions_graph(ctx, m, &cg)))
		return prc;
	if (pl_callgraph_entry(cg)) {
		prc = draw_step(ctx, m, cg, &o);
		pl_callgraph_free(cg);
		return prc;
	}
	pl_callgraph_free(cg); /* no entry: one function, as it runs once */
	pl_schedule *s;
	const pl_func *f;
	int rc = pick(ctx, m, function, &s, &f), written_rc = PL_OK;
	if (rc == PL_ENOTFOUND)
		return rc; /* already explained */
	if (rc == PL_OK && !s) {
		pl_ctx_warning(ctx, NULL, "the module has no function: nothing to draw");
		return PL_OK;
	}
	if (rc == PL_OK) {
		char *t = title_of(title, f);
		struct tl_totals whole = {pl_schedule_makespan_ns(s), pl_schedule_compute_ns(s),
		                          pl_schedule_comm_ns(s), pl_schedule_exposed_ns(s)};
		struct tl_view v = {s, pl_func_name(f), t, (uint64_t)o.span_ns, o.axis, NULL, NULL,
		                    whole};
		rc = t ? write_both(ctx, &v, svg, trace, &written_rc) : PL_ENOMEM;
		free(t);
	}
	pl_schedule_free(s);
	if (rc == PL_EINVAL && written_rc == PL_EINVAL)
		return rc; /* a refused file name, already explained */
	return pass_end_report(ctx, rc, "simulate the schedule");
}

static const pl_pass_desc timeline_pass = {
	PL_PASS_DESC_INIT,
	.name = "Timeline",
	.summary = "Draws the simulated schedule of a whole step (the entry, each loop, call "
	           "and conditional a span with what it runs drawn once below) or of a "
	           "function, as SVG and as a Chrome trace (changes nothing).",
	.options = timeline_options,
	.run = timeline_run,
	.flags = PL_PASS_READ_ONLY, /* reports only */
};

PL_PLUGIN_DEFINE("Timeline", PACKAGE_VERSION, "MIT",
                 "A picture of the simulated schedule.", &timeline_pass)
