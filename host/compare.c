/* SPDX-License-Identifier: MIT */
/* host/compare.c — passline --compare: one module through several
 * pipelines (the files given, or the built-in copies of the shipped
 * strategies), one table. Every pipeline is read and every -O placed
 * before anything runs: an -O PASS.KEY=VALUE goes to each pipeline with a
 * step of PASS, and one that concerns none of them is an error. Each
 * pipeline runs on a fresh copy of the input (read again, so no pipeline
 * sees another's changes); the module is measured before (once) and after
 * each: collectives (a start counts, its done does not), buckets
 * (collectives of two or more operands, or of a buffer CoalesceCCOp
 * packed) and their result bytes, counted here; the simulated figures are
 * those of the ScheduleEstimate plugin, run on the module under the
 * pipeline's cost model (its step_ns, comm_ns, exposed_comm_ns and
 * peak_bytes), so that the table and --stats never disagree; and the wall
 * time the pipeline's passes took. Nothing is written but the table
 * (standard output) and, with --stats-json, the same as JSON, and with
 * --compare-svg the picture of each pipeline's schedule stacked on one
 * time axis (compare_svg.c); files passes hand over are dropped. */
#include "host.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct measure {
	uint64_t collectives, buckets, bytes;
	uint64_t step_ns, comm_ns, exposed_ns;
	uint64_t peak_bytes; /* the largest peak of live bytes of a function that runs */
	double seconds;
	bool simulated;
};

struct row {
	const char *label; /* the pipeline's name, or its file */
	const char *file;
	struct measure m;
	struct compare_drawn drawn; /* with --compare-svg */
};

static bool is_counted_collective(const pl_inst *i)
{
	unsigned t = pl_inst_traits(i);
	return (t & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START)) != 0;
}

/* Counts m's collectives (of the functions that run from the entry;
 * every function without one) into out. A PL_ status. */
static int count_collectives(pl_module *m, struct measure *out)
{
	pl_callgraph *cg = NULL;
	int rc = pl_callgraph_new(&cg, m, NULL, NULL, NULL, 0);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		pl_func *f = pl_module_func_at(m, k);
		uint64_t hi = 0, lo = 1;
		if ((rc = pl_callgraph_executions(cg, f, &hi, &lo)) != PL_OK)
			break;
		if (!hi && !lo)
			continue; /* never runs: a reducer, or unreachable */
		for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
			if (!is_counted_collective(i))
				continue;
			out->collectives++;
			/* a bucket: a tuple collective, or one CoalesceCCOp packed */
			const pl_inst *def = pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, 0))
			                                             : NULL;
			if (pl_inst_num_operands(i) >= 2 || (def && pl_inst_op(def) == PL_OP_PACK))
				out->buckets++;
			for (size_t r = 0; r < pl_inst_num_results(i); r++) {
				uint64_t b;
				if (pl_type_num_bytes(pl_value_type(pl_inst_result(i, r)), &b) == PL_OK)
					out->bytes = pl_u64_add_sat(out->bytes, b);
			}
		}
	}
	pl_callgraph_free(cg);
	return rc;
}

/* The pass name of a PASS.KEY=VALUE assignment (malloc'd), or NULL when
 * it has no dot before its '='. */
static char *override_pass(const char *assignment)
{
	const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
	if (!dot || (eq && eq < dot))
		return NULL;
	char *pass = xmalloc((size_t)(dot - assignment) + 1);
	memcpy(pass, assignment, (size_t)(dot - assignment));
	pass[dot - assignment] = '\0';
	return pass;
}

static bool has_pass(const struct pipeline *pl, const char *pass)
{
	for (size_t k = 0; k < pl->nsteps; k++)
		if (strcmp(pl->steps[k].pass, pass) == 0)
			return true;
	return false;
}

/* Whether -O PREFIX.KEY sets something of every pipeline rather than of a
 * pass: the cost model, the HLO written, the loops' trip counts. */
static bool pipeline_wide(const char *prefix)
{
	return strcmp(prefix, "cost_model") == 0 || strcmp(prefix, "hlo") == 0 ||
	       strcmp(prefix, "loops") == 0;
}

/* Applies the -O assignments of pass (every one when pass is NULL) that
 * concern pl: the cost model's and HLO's always, a pass's when pl has a
 * step of it. An exit status. */
static int apply_overrides(const struct compare_request *rq, struct pipeline *pl,
                           const char *only, const char *where)
{
	int status = EXIT_OK;
	for (size_t k = 0; k < rq->noverrides && status == EXIT_OK; k++) {
		char *pass = override_pass(rq->overrides[k]);
		bool applies = !pass || (!only && pipeline_wide(pass)) ||
		               ((!only || strcmp(pass, only) == 0) && has_pass(pl, pass));
		/* named with the pipeline, so that a bad key says where it went */
		char *origin = where ? xasprintf("%s (%s)", rq->override_origins[k], where)
		                     : xasprintf("%s (pipeline %s)", rq->override_origins[k],
		                                 pl->name ? pl->name : pl->source);
		if (applies && (!only || pass))
			status = pipeline_override(pl, rq->overrides[k], origin);
		free(origin);
		free(pass);
	}
	return status;
}

/* An -O PASS.KEY=VALUE applies to every pipeline with a step of PASS (and
 * to the measurements' ScheduleEstimate and, with --compare-svg, Timeline);
 * one that applies to none is an error naming the pipelines. */
static int check_overrides(const struct compare_request *rq, struct pipeline *pls, size_t n)
{
	for (size_t k = 0; k < rq->noverrides; k++) {
		char *pass = override_pass(rq->overrides[k]);
		bool used = !pass || pipeline_wide(pass) || strcmp(pass, "ScheduleEstimate") == 0 ||
		            (rq->svg && strcmp(pass, "Timeline") == 0);
		for (size_t p = 0; p < n && !used; p++)
			used = has_pass(&pls[p], pass);
		if (!used) {
			size_t nnames = 0;
			const char **names = NULL;
			char *list = xstrdup("");
			for (size_t p = 0; p < n; p++) {
				char *more = xasprintf("%s%s%s", list, p ? ", " : "",
				                       pls[p].name ? pls[p].name : pls[p].source);
				free(list);
				list = more;
				names = xrealloc(names, (nnames + pls[p].nsteps + 1) * sizeof *names);
				for (size_t s = 0; s < pls[p].nsteps; s++)
					names[nnames++] = pls[p].steps[s].pass;
			}
			const char *near = closest_match(pass, names, nnames);
			host_error("%s: no pass '%s' in any pipeline compared (%s)%s%s%s",
			           rq->override_origins[k], pass, list, near ? "; did you mean '" : "",
			           near ? near : "", near ? "'?" : "");
			free(list);
			free(names);
			free(pass);
			return EXIT_INPUT;
		}
		free(pass);
	}
	return EXIT_OK;
}

/* The figures ScheduleEstimate gives m under of's cost model, with the
 * options of of's last ScheduleEstimate step (but the files and report
 * it would write) and -O ScheduleEstimate.KEY: the table's simulated
 * columns are that pass's statistics, so they mean what they mean there.
 * The step is step_ns, or in a module without an entry, where one step
 * runs each function once, makespan_ns. An exit status; a simulation that
 * cannot be is shown as "-" after the pass said why. */
static int estimate(struct loader *ld, pl_module *m, struct pipeline *of,
                    const struct compare_request *rq, struct measure *out)
{
	struct pipeline ep;
	if (!pipeline_from_list("ScheduleEstimate", &ep)) {
		pipeline_free(&ep);
		return EXIT_INPUT;
	}
	struct step *es = &ep.steps[0];
	for (size_t k = of->nsteps; k-- > 0;) {
		const struct step *s = &of->steps[k];
		if (strcmp(s->pass, "ScheduleEstimate") != 0 || !s->enabled)
			continue;
		for (size_t j = 0; j < s->nsettings; j++) {
			const char *key = s->settings[j].key;
			if (strcmp(key, "functions") == 0 || strcmp(key, "top_exposed") == 0)
				continue;
			es->settings = xrealloc(es->settings, (es->nsettings + 1) * sizeof *es->settings);
			es->settings[es->nsettings++] = (struct setting){
			        xstrdup(key), xstrdup(s->settings[j].value),
			        s->settings[j].file ? xstrdup(s->settings[j].file) : NULL,
			        s->settings[j].line};
		}
		break;
	}
	int status = apply_overrides(rq, &ep, "ScheduleEstimate", "the measurement");
	/* the model the pipeline ran under, borrowed: given back below */
	ep.run_cost_model = (pl_cost_model *)pipeline_run_cost_model(of);
	ep.loops = of->loops;           /* the same trip counts, borrowed too */
	ep.nloops = of->nloops;
	if (status == EXIT_OK)
		status = loader_resolve(ld, &ep);
	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		status = EXIT_INPUT;
	} else {
		pl_diags_set_handler(diags, host_diag_printer, NULL);
	}
	if (status == EXIT_OK)
		status = runner_configure(&ep, diags, false, 1);
	bool ran = false;
	if (status == EXIT_OK) {
		struct run_options ro = {false, false, 1};
		ran = runner_run(&ep, m, &ro) == EXIT_OK;
	}
	out->simulated = ran;
	bool entry = pl_module_entry(m) != NULL;
	for (size_t j = 0; ran && j < pl_ctx_num_stats(es->ctx); j++) {
		const char *name = pl_ctx_stat_name(es->ctx, j);
		uint64_t hi, lo;
		pl_ctx_stat_value(es->ctx, j, &hi, &lo);
		uint64_t v = hi ? UINT64_MAX : lo;
		if (strcmp(name, entry ? "step_ns" : "makespan_ns") == 0)
			out->step_ns = v;
		else if (strcmp(name, "comm_ns") == 0)
			out->comm_ns = v;
		else if (strcmp(name, "exposed_comm_ns") == 0)
			out->exposed_ns = v;
		else if (strcmp(name, "peak_bytes") == 0)
			out->peak_bytes = v;
	}
	runner_finish(&ep);
	pl_diags_free(diags);
	ep.run_cost_model = NULL;
	ep.loops = NULL;
	ep.nloops = 0;
	pipeline_free(&ep);
	return status;
}

/* Checks the -O assignments of pass, a step compare adds (the
 * measurement's ScheduleEstimate, --compare-svg's Timeline), before
 * anything runs. An exit status; errors are printed. */
static int check_added_step(const struct compare_request *rq, const char *pass,
                            const char *where)
{
	struct pipeline ap;
	if (!pipeline_from_list(pass, &ap)) {
		pipeline_free(&ap);
		return EXIT_INPUT;
	}
	int status = apply_overrides(rq, &ap, pass, where);
	struct loader ld;
	loader_init(&ld, NULL, rq->plugin_dirs, rq->nplugin_dirs);
	ld.allow_insecure = rq->allow_insecure;
	if (status == EXIT_OK)
		status = loader_resolve(&ld, &ap);
	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK)
		status = runner_configure(&ap, diags, false, 1);
	runner_finish(&ap);
	pl_diags_free(diags);
	loader_free(&ld);
	pipeline_free(&ap);
	return status;
}

/* Counts m's collectives and estimates its schedule (estimate). */
static int measure_module(struct loader *ld, pl_module *m, struct pipeline *of,
                          const struct compare_request *rq, struct measure *out)
{
	memset(out, 0, sizeof *out);
	int rc = pl_module_prepare_counts(m);
	if (rc == PL_OK)
		rc = count_collectives(m, out);
	if (rc == PL_ENOMEM) {
		host_error("out of memory");
		return EXIT_INPUT;
	}
	return estimate(ld, m, of, rq, out);
}

/* Reads the input and verifies it; EXIT_OK or EXIT_INPUT. */
static int read_verified(const struct compare_request *rq, pl_module **m)
{
	pl_diags *d = pl_diags_new();
	if (!d) {
		host_error("out of memory");
		return EXIT_INPUT;
	}
	*m = NULL;
	int rc = rq->read(rq->read_ud, d, m);
	if (rc == PL_OK)
		rc = pl_verify_module(*m, d);
	host_print_diags(d);
	pl_diags_free(d);
	if (rc != PL_OK) {
		pl_module_free(*m);
		*m = NULL;
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

/* Runs pipeline pl (read, its -O applied) on a fresh copy of the input. */
static int run_one(const struct compare_request *rq, struct pipeline *pl, struct row *row,
                   struct measure *before)
{
	struct loader ld;
	loader_init(&ld, pl->plugin_dir, rq->plugin_dirs, rq->nplugin_dirs);
	ld.allow_insecure = rq->allow_insecure;
	int status = loader_resolve(&ld, pl);
	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		loader_free(&ld);
		return EXIT_INPUT;
	}
	pl_diags_set_handler(diags, host_diag_printer, NULL);
	if (status == EXIT_OK)
		status = runner_configure(pl, diags, rq->remarks, 1);
	pl_module *m = NULL;
	if (status == EXIT_OK)
		status = read_verified(rq, &m);
	if (status == EXIT_OK && (status = loops_check(pl, m, rq->input, true)) == EXIT_OK)
		for (size_t k = 0; k < pl->nwarnings; k++)
			host_warning("%s: %s", row->file, pl->warnings[k]);
	if (status == EXIT_OK && before)
		status = measure_module(&ld, m, pl, rq, before);
	if (status == EXIT_OK) {
		struct run_options ro = {rq->verify_each, false, 1};
		double t0 = now_seconds();
		status = runner_run(pl, m, &ro);
		row->m.seconds = now_seconds() - t0;
	}
	if (status == EXIT_OK) {
		pl_diags *vd = pl_diags_new();
		int vrc = vd ? pl_verify_module(m, vd) : PL_ENOMEM;
		if (vd)
			host_print_diags(vd);
		pl_diags_free(vd);
		if (vrc != PL_OK) {
			host_error("the IR is invalid after the pipeline %s", row->file);
			status = EXIT_PASS;
		}
	}
	if (status == EXIT_OK) {
		double s = row->m.seconds;
		status = measure_module(&ld, m, pl, rq, &row->m);
		row->m.seconds = s;
		row->label = xstrdup(pl->name ? pl->name : row->file);
	}
	/* the model it ran under, kept for the JSON and the drawing */
	if (status == EXIT_OK && (rq->svg || rq->stats_json))
		row->drawn.cost_model = pipeline_take_run_cost_model(pl);
	if (status == EXIT_OK && rq->svg) {
		/* kept to be drawn when every pipeline has run, on one scale */
		row->drawn.module = m;
		m = NULL;
	}
	pl_module_free(m);
	runner_finish(pl);
	pl_diags_free(diags);
	loader_free(&ld);
	return status;
}

static void num(char *buf, size_t n, uint64_t v, bool known)
{
	if (known)
		snprintf(buf, n, "%" PRIu64, v);
	else
		snprintf(buf, n, "-");
}

static void print_row(FILE *out, const char *label, const struct measure *m, bool timed)
{
	char s[32], c[32], e[32], p[32];
	num(s, sizeof s, m->step_ns, m->simulated);
	num(c, sizeof c, m->comm_ns, m->simulated);
	num(e, sizeof e, m->exposed_ns, m->simulated);
	num(p, sizeof p, m->peak_bytes, m->simulated);
	fprintf(out, "%-24s %11" PRIu64 " %7" PRIu64 " %14" PRIu64 " %14s %14s %15s %14s", label,
	        m->collectives, m->buckets, m->bytes, s, c, e, p);
	if (timed)
		fprintf(out, " %10.3f\n", m->seconds * 1e3);
	else
		fprintf(out, " %10s\n", "-");
}

static void json_measure(FILE *out, const struct measure *m, bool timed)
{
	fprintf(out,
	        "\"collectives\": %" PRIu64 ", \"buckets\": %" PRIu64 ", \"bytes\": %" PRIu64,
	        m->collectives, m->buckets, m->bytes);
	if (m->simulated)
		fprintf(out,
		        ", \"step_ns\": %" PRIu64 ", \"comm_ns\": %" PRIu64
		        ", \"exposed_comm_ns\": %" PRIu64 ", \"peak_bytes\": %" PRIu64,
		        m->step_ns, m->comm_ns, m->exposed_ns, m->peak_bytes);
	if (timed)
		fprintf(out, ", \"seconds\": %.6f", m->seconds);
}

static void print_json(FILE *out, const struct compare_request *rq,
                       const struct measure *before, const struct row *rows, size_t n)
{
	fputs("{\"input\": ", out);
	json_string(out, rq->input);
	fputs(", \"before\": {", out);
	json_measure(out, before, false);
	fputs("}, \"pipelines\": [", out);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", {\"name\": " : "{\"name\": ", out);
		json_string(out, rows[k].label);
		fputs(", \"file\": ", out);
		json_string(out, rows[k].file);
		fputs(", ", out);
		json_measure(out, &rows[k].m, true);
		if (rows[k].drawn.cost_model) {
			fputs(", \"cost_model\": ", out);
			cost_model_print_json(out, rows[k].drawn.cost_model);
		}
		fputc('}', out);
	}
	fputs("]}\n", out);
}

/* Writes --stats-json and --compare-svg, both or neither (short of a
 * failure in the final renames). */
static int write_files(const struct compare_request *rq, const struct measure *before,
                       struct row *rows, size_t n)
{
	char **svg = xcalloc(n, sizeof *svg);
	const char **labels = xcalloc(n, sizeof *labels);
	struct compare_drawn *drawn = xcalloc(n, sizeof *drawn);
	for (size_t k = 0; k < n; k++) {
		labels[k] = rows[k].label;
		drawn[k] = rows[k].drawn;
	}
	int status = rq->svg ? compare_svg_draw(rq, drawn, labels, n, svg) : EXIT_OK;
	for (size_t k = 0; k < n; k++)
		rows[k].drawn.func = drawn[k].func; /* freed with the row */
	struct atomic_file json = {0}, pic = {0};
	if (status == EXIT_OK && rq->stats_json && !atomic_open(&json, rq->stats_json))
		status = EXIT_INPUT;
	if (status == EXIT_OK && rq->svg && !atomic_open(&pic, rq->svg))
		status = EXIT_INPUT;
	if (status == EXIT_OK && json.fp)
		print_json(json.fp, rq, before, rows, n);
	if (status == EXIT_OK && pic.fp)
		compare_svg_print(pic.fp, rq, drawn, labels, svg, n);
	if (status == EXIT_OK && ((json.fp && (fflush(json.fp) != 0 || ferror(json.fp))) ||
	                          (pic.fp && (fflush(pic.fp) != 0 || ferror(pic.fp))))) {
		host_error("cannot write %s", json.fp && ferror(json.fp) ? rq->stats_json : rq->svg);
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK) {
		if (json.path && !atomic_commit(&json))
			status = EXIT_INPUT;
		if (pic.path && !atomic_commit(&pic))
			status = EXIT_INPUT;
	}
	atomic_abort(&json); /* nothing left open after a commit */
	atomic_abort(&pic);
	for (size_t k = 0; k < n; k++)
		free(svg[k]);
	free(svg);
	free(labels);
	free(drawn);
	return status;
}

/* Reads the pipelines compared: the files given, else the built-in
 * copies of the shipped strategies. */
static bool read_pipelines(const struct compare_request *rq, struct pipeline *pls,
                           const char **files)
{
	bool ok = true;
	for (size_t k = 0; k < (rq->nfiles ? rq->nfiles : compare_builtin_count); k++) {
		if (rq->nfiles) {
			files[k] = rq->files[k];
			ok = pipeline_read_file(files[k], &pls[k]) && ok;
		} else {
			const char *text = compare_builtin_texts[k];
			files[k] = compare_builtin_names[k];
			ok = pipeline_read_text(files[k], NULL, text, strlen(text), &pls[k]) && ok;
		}
	}
	return ok;
}

int compare_run(const struct compare_request *rq)
{
	size_t n = rq->nfiles ? rq->nfiles : compare_builtin_count;
	struct row *rows = xcalloc(n, sizeof *rows);
	struct pipeline *pls = xcalloc(n, sizeof *pls);
	const char **files = xcalloc(n, sizeof *files);
	struct measure before;
	memset(&before, 0, sizeof before);
	/* every pipeline read and every -O placed before anything runs */
	int status = read_pipelines(rq, pls, files) ? EXIT_OK : EXIT_INPUT;
	if (status == EXIT_OK)
		status = check_overrides(rq, pls, n);
	/* XLA's flags first, then -O, which wins (as for one pipeline) */
	for (size_t k = 0; k < n && status == EXIT_OK && rq->xla; k++)
		status = xla_flags_apply(rq->xla, &pls[k], rq->remarks);
	for (size_t k = 0; k < n && status == EXIT_OK; k++)
		status = apply_overrides(rq, &pls[k], NULL, NULL);
	for (size_t k = 0; k < n && status == EXIT_OK; k++)
		status = pipeline_memory_fraction_from_env(&pls[k]);
	if (status == EXIT_OK)
		status = check_added_step(rq, "ScheduleEstimate", "the measurement");
	if (status == EXIT_OK && rq->svg)
		status = check_added_step(rq, "Timeline", "--compare-svg");
	for (size_t k = 0; k < n && status == EXIT_OK; k++) {
		rows[k].file = files[k];
		status = run_one(rq, &pls[k], &rows[k], k == 0 ? &before : NULL);
	}
	if (status == EXIT_OK) {
		FILE *out = stdout;
		/* the simulated columns are named as ScheduleEstimate's statistics */
		fprintf(out, "%-24s %11s %7s %14s %14s %14s %15s %14s %10s\n", "pipeline",
		        "collectives", "buckets", "bytes", "step_ns", "comm_ns", "exposed_comm_ns",
		        "peak_bytes", "pass_ms");
		print_row(out, "(input)", &before, false);
		for (size_t k = 0; k < n; k++)
			print_row(out, rows[k].label, &rows[k].m, true);
		if (fflush(out) != 0 || ferror(out))
			status = EXIT_INPUT;
	}
	if (status == EXIT_OK && (rq->stats_json || rq->svg))
		status = write_files(rq, &before, rows, n);
	for (size_t k = 0; k < n; k++) {
		free((char *)rows[k].label);
		pl_module_free(rows[k].drawn.module);
		pl_cost_model_free(rows[k].drawn.cost_model);
		free(rows[k].drawn.func);
		pipeline_free(&pls[k]);
	}
	free(rows);
	free(pls);
	free(files);
	return status;
}
