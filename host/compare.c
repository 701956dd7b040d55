/* SPDX-License-Identifier: MIT */
/* host/compare.c — passline --compare: one module through several
 * pipelines, one table. Each pipeline runs on a fresh copy of the input
 * (read again, so no pipeline sees another's changes); the module is
 * measured before (once) and after each: collectives (a start counts, its
 * done does not), buckets (collectives of two or more operands, or of a
 * buffer CoalesceCCOp packed), their
 * result bytes, and the simulated schedule of every function summed (step
 * time, communication, exposed communication) under the pipeline's cost
 * model, each function times how often it runs from the entry, and an
 * unfused HLO function as the kernels of the fusion model, as
 * ScheduleEstimate's makespan_ns counts them; the largest peak of live
 * bytes of a function that runs (pl_func_peak_bytes, ScheduleEstimate's
 * peak_bytes); and the wall time the pipeline's passes took. Nothing is written
 * but the table (standard output) and, with --stats-json, the same as
 * JSON, and with --compare-svg the picture of each pipeline's schedule
 * stacked on one time axis (compare_svg.c); files passes hand over are
 * dropped. */
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

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool is_counted_collective(const pl_inst *i)
{
	unsigned t = pl_inst_traits(i);
	return (t & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START)) != 0;
}

/* Whether m is XLA HLO (its entry computation says so). */
static bool is_hlo_module(const pl_module *m)
{
	for (size_t k = 0; k < pl_module_num_funcs(m); k++) {
		bool entry = false;
		if (pl_attrs_get_bool(pl_func_attrs(pl_module_func_at(m, k)), "hlo_entry", &entry) ==
		        PL_OK &&
		    entry)
			return true;
	}
	return false;
}

/* f's schedule as ScheduleEstimate costs it by default: the kernels of
 * the fusion model for a function of an HLO module XLA has not fused, op
 * by op otherwise. */
static int simulate_like_estimate(const pl_func *f, const pl_cost_model *cm, bool hlo,
                                  pl_schedule **s)
{
	if (!hlo || pl_func_has_fusion(f))
		return pl_schedule_new_totals(s, f, cm);
	pl_fusion *fu;
	int rc = pl_fusion_new(&fu, f, cm, 1000); /* ScheduleEstimate's kernel_floor_ns */
	if (rc == PL_OK) {
		rc = pl_schedule_new_fused_totals(s, f, cm, fu);
		pl_fusion_free(fu);
	}
	return rc;
}

/* x * n, saturating. */
static uint64_t mul_sat(uint64_t x, uint64_t hi, uint64_t lo)
{
	if (!x)
		return 0;
	if (hi || lo > UINT64_MAX / x)
		return UINT64_MAX;
	return x * lo;
}

/* Counts and simulates m under cm (NULL: the defaults), each function
 * times how often it runs from the module's entry (once each without
 * one), as ScheduleEstimate does. */
static int measure_module(pl_module *m, const pl_cost_model *cm, struct measure *out)
{
	memset(out, 0, sizeof *out);
	pl_cost_model *own = NULL;
	pl_callgraph *cg = NULL;
	if (!cm && !(cm = own = pl_cost_model_new()))
		return PL_ENOMEM;
	int rc = pl_module_prepare_counts(m);
	if (rc == PL_OK)
		rc = pl_callgraph_new(&cg, m, NULL, NULL, NULL, 0);
	bool hlo = is_hlo_module(m);
	size_t nf = pl_module_num_funcs(m);
	/* as ScheduleEstimate: what a kernel applies takes no time of its own */
	bool *applied = xmalloc((nf ? nf : 1) * sizeof *applied);
	if (rc == PL_OK)
		rc = pl_module_kernel_funcs(m, applied, nf);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		pl_func *f = pl_module_func_at(m, k);
		uint64_t hi = 0, lo = 1;
		if ((rc = pl_callgraph_executions(cg, f, &hi, &lo)) != PL_OK)
			break;
		if (!hi && !lo)
			continue; /* never runs: a reducer, or unreachable */
		bool in_kernel = hlo && !pl_func_has_fusion(f) && applied[k];
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
					out->bytes = add_sat(out->bytes, b);
			}
		}
		if (in_kernel)
			continue; /* its collectives counted, its time in its caller's */
		uint64_t peak = 0;
		if ((rc = pl_func_peak_bytes(f, &peak)) != PL_OK)
			break;
		if (peak > out->peak_bytes)
			out->peak_bytes = peak;
		pl_schedule *s;
		if ((rc = simulate_like_estimate(f, cm, hlo, &s)) != PL_OK)
			break;
		out->step_ns = add_sat(out->step_ns, mul_sat(pl_schedule_makespan_ns(s), hi, lo));
		out->comm_ns = add_sat(out->comm_ns, mul_sat(pl_schedule_comm_ns(s), hi, lo));
		out->exposed_ns = add_sat(out->exposed_ns, mul_sat(pl_schedule_exposed_ns(s), hi, lo));
		pl_schedule_free(s);
	}
	out->simulated = rc == PL_OK;
	free(applied);
	pl_callgraph_free(cg);
	pl_cost_model_free(own);
	return rc == PL_ENOMEM ? rc : PL_OK; /* a schedule that cannot be: shown as "-" */
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

/* Runs one pipeline file on a fresh copy of the input. */
static int run_one(const struct compare_request *rq, const char *file, struct row *row,
                   struct measure *before)
{
	struct pipeline pl;
	if (!pipeline_read_file(file, &pl)) {
		pipeline_free(&pl);
		return EXIT_INPUT;
	}
	int status = EXIT_OK;
	for (size_t k = 0; k < rq->noverrides && status == EXIT_OK; k++)
		status = pipeline_override(&pl, rq->overrides[k], rq->override_origins[k]);
	struct loader ld;
	loader_init(&ld, pl.plugin_dir, rq->plugin_dirs, rq->nplugin_dirs);
	ld.allow_insecure = rq->allow_insecure;
	if (status == EXIT_OK)
		status = loader_resolve(&ld, &pl);
	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		loader_free(&ld);
		pipeline_free(&pl);
		return EXIT_INPUT;
	}
	pl_diags_set_handler(diags, host_diag_printer, NULL);
	if (status == EXIT_OK)
		status = runner_configure(&pl, diags, rq->remarks, 1);
	pl_module *m = NULL;
	if (status == EXIT_OK)
		status = read_verified(rq, &m);
	if (status == EXIT_OK && before && measure_module(m, pipeline_run_cost_model(&pl), before) != PL_OK) {
		host_error("out of memory");
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK) {
		struct run_options ro = {rq->verify_each, false, 1};
		double t0 = now_seconds();
		status = runner_run(&pl, m, &ro);
		row->m.seconds = now_seconds() - t0;
	}
	if (status == EXIT_OK) {
		pl_diags *vd = pl_diags_new();
		int vrc = vd ? pl_verify_module(m, vd) : PL_ENOMEM;
		if (vd)
			host_print_diags(vd);
		pl_diags_free(vd);
		if (vrc != PL_OK) {
			host_error("the IR is invalid after the pipeline %s", file);
			status = EXIT_PASS;
		}
	}
	if (status == EXIT_OK) {
		double s = row->m.seconds;
		if (measure_module(m, pipeline_run_cost_model(&pl), &row->m) != PL_OK) {
			host_error("out of memory");
			status = EXIT_INPUT;
		}
		row->m.seconds = s;
		row->label = xstrdup(pl.name ? pl.name : file);
	}
	if (status == EXIT_OK && rq->svg) {
		/* kept to be drawn when every pipeline has run, on one scale */
		if (compare_svg_pick(m, pipeline_run_cost_model(&pl), &row->drawn) != PL_OK) {
			host_error("--compare-svg: cannot simulate the result of %s", file);
			status = EXIT_PASS;
		} else {
			row->drawn.module = m;
			m = NULL;
			if (pl.run_cost_model) { /* the model it ran under, kept */
				row->drawn.cost_model = pl.run_cost_model;
				pl.run_cost_model = NULL;
			} else {
				row->drawn.cost_model = pl.cost_model;
				pl.cost_model = NULL;
			}
		}
	}
	pl_module_free(m);
	runner_finish(&pl);
	pl_diags_free(diags);
	loader_free(&ld);
	pipeline_free(&pl);
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
	fprintf(out, "%-24s %11" PRIu64 " %7" PRIu64 " %14" PRIu64 " %14s %14s %14s %14s", label,
	        m->collectives, m->buckets, m->bytes, s, c, e, p);
	if (timed)
		fprintf(out, " %10.3f\n", m->seconds * 1e3);
	else
		fprintf(out, " %10s\n", "-");
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
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
		fputc('}', out);
	}
	fputs("]}\n", out);
}

/* Writes --stats-json and --compare-svg, both or neither (short of a
 * failure in the final renames). */
static int write_files(const struct compare_request *rq, const struct measure *before,
                       const struct row *rows, size_t n)
{
	char **svg = xcalloc(n, sizeof *svg);
	const char **labels = xcalloc(n, sizeof *labels);
	struct compare_drawn *drawn = xcalloc(n, sizeof *drawn);
	for (size_t k = 0; k < n; k++) {
		labels[k] = rows[k].label;
		drawn[k] = rows[k].drawn;
	}
	int status = rq->svg ? compare_svg_draw(rq, drawn, labels, n, svg) : EXIT_OK;
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

int compare_run(const struct compare_request *rq)
{
	struct row *rows = xcalloc(rq->nfiles, sizeof *rows);
	struct measure before;
	memset(&before, 0, sizeof before);
	int status = EXIT_OK;
	for (size_t k = 0; k < rq->nfiles && status == EXIT_OK; k++) {
		rows[k].file = rq->files[k];
		status = run_one(rq, rq->files[k], &rows[k], k == 0 ? &before : NULL);
	}
	if (status == EXIT_OK) {
		FILE *out = stdout;
		fprintf(out, "%-24s %11s %7s %14s %14s %14s %14s %14s %10s\n", "pipeline",
		        "collectives", "buckets", "bytes", "step_ns", "comm_ns", "exposed_ns",
		        "peak_bytes", "pass_ms");
		print_row(out, "(input)", &before, false);
		for (size_t k = 0; k < rq->nfiles; k++)
			print_row(out, rows[k].label, &rows[k].m, true);
		if (fflush(out) != 0 || ferror(out))
			status = EXIT_INPUT;
	}
	if (status == EXIT_OK && (rq->stats_json || rq->svg))
		status = write_files(rq, &before, rows, rq->nfiles);
	for (size_t k = 0; k < rq->nfiles; k++) {
		free((char *)rows[k].label);
		pl_module_free(rows[k].drawn.module);
		pl_cost_model_free(rows[k].drawn.cost_model);
	}
	free(rows);
	return status;
}
