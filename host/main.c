/* SPDX-License-Identifier: MIT */
/* host/main.c — passline: read a module, run a pipeline of pass plugins
 * over it, write the result and the statistics.
 *
 * Order matters for "bad input changes nothing": the command line, the
 * pipeline file, the plugins and every option are checked before the input
 * is read; outputs are temporary files renamed into place only when
 * everything succeeded. */
#include "host.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct override {
	char *assignment;
	char *origin;
};

struct cli {
	const char *pipeline_file;
	const char **pipeline_files; /* every -p, for --compare */
	size_t npipeline_files;
	bool compare;
	const char *compare_svg; /* --compare-svg FILE */
	const char *passes;
	const char *output;
	const char *stats_json;
	const char *input;
	const char *input_format, *output_format; /* "hlo", "pir" or NULL: guessed */
	const char *xla_flags; /* --xla-flags; NULL: none */
	bool stdin_hlo; /* INPUT was -, and HLO text: written back as HLO */
	bool stats, time_passes, verify_each, print_after_all, remarks;
	bool list_passes, print_pipeline, allow_insecure;
	char **plugin_dirs;
	size_t nplugin_dirs;
	struct override *overrides;
	size_t noverrides;
};

#define INSTALLED_DEFAULT_PIPELINE PL_SYSCONFDIR "/passline/default.ini"

static void usage_line(FILE *out)
{
	fputs("usage: passline [options] INPUT\n"
	      "       passline tune [options] INPUT   (see passline tune --help)\n",
	      out);
}

static void help(void)
{
	usage_line(stdout);
	fputs(
		"Run a pipeline of pass plugins over a .pir module (INPUT, or - for\n"
		"standard input) and write the rewritten module.\n"
		"\n"
		"Pipeline:\n"
		"  -p, --pipeline FILE     run the pipeline in FILE (INI; see passline-pipeline(5))\n"
		"      --passes A,B,C      run these passes with default options (empty: none)\n"
		"                          without -p or --passes the default pipeline runs:\n"
		"                          $PASSLINE_DEFAULT_PIPELINE if set, else\n"
		"                          " INSTALLED_DEFAULT_PIPELINE "\n"
		"                          if it exists, else the built-in copy of it\n"
		"      --compare           run INPUT through each -p FILE (repeat -p; none: the\n"
		"                          shipped strategies neuron, xla and overlap) and print\n"
		"                          one table: collectives, buckets, bytes, and\n"
		"                          ScheduleEstimate's step_ns, comm_ns, exposed_comm_ns\n"
		"                          and peak_bytes of each result, pass time\n"
		"      --compare-svg FILE  with --compare: write FILE, each pipeline's schedule\n"
		"                          (Timeline's picture) stacked on one time axis\n"
		"  -O PASS.KEY=VALUE       set an option of every step of PASS (repeatable;\n"
		"                          KEY may be 'enabled'); -O cost_model.KEY=VALUE\n"
		"                          sets a key of the cost model; -O loops.NAME=N gives\n"
		"                          loop NAME N trips for every pass; -O hlo.async_form=\n"
		"                          wrapped|start_done: how HLO output writes the\n"
		"                          collectives passes make asynchronous\n"
		"      --xla-flags STRING  XLA's flags, as in XLA_FLAGS (which is read too;\n"
		"                          STRING wins flag by flag): each modelled flag sets\n"
		"                          the pass options it drives (passline-xla(7))\n"
		"      --plugin-dir DIR    search DIR for plugins (repeatable, before\n"
		"                          PASSLINE_PLUGIN_PATH and the installed folder)\n"
		"      --allow-insecure-plugins\n"
		"                          load plugins from world-writable files or folders\n"
		"\n"
		"Input and output formats:\n"
		"      --input-format FMT  read INPUT as FMT: pir, or hlo (XLA HLO text);\n"
		"                          default: hlo for a name ending in .hlo or\n"
		"                          .hlo.txt or a text starting with HloModule\n"
		"      --output-format FMT write FMT: pir or hlo; default: hlo when the\n"
		"                          -o name ends in .hlo or .hlo.txt, pir when it\n"
		"                          ends in .pir; else hlo for HLO read from\n"
		"                          standard input, else pir\n"
		"\n"
		"Output:\n"
		"  -o FILE                 write the module to FILE (default standard output);\n"
		"                          written whole or not at all\n"
		"      --stats             print the statistics table on standard error\n"
		"      --stats-json FILE   write the statistics as JSON to FILE (- for stdout)\n"
		"      --time-passes       print the wall time of each phase on standard error\n"
		"      --remarks           print what the passes did and why, on standard error\n"
		"  -q, --quiet             print errors only (no warnings or pass reports)\n"
		"\n"
		"  -j, --threads N         read, verify and print on up to N threads, and run\n"
		"                          read-only passes side by side (default: the\n"
		"                          processors online, at most 4); the same result\n"
		"\n"
		"Checking and debugging:\n"
		"      --verify-each       verify the IR after every pass\n"
		"      --print-after-all   print the IR after every pass on standard error\n"
		"      --list-passes       list every plugin in the search path and exit\n"
		"      --print-pipeline    print the effective pipeline as INI and exit\n"
		"\n"
		"Driver aliases (as in the original compiler):\n"
		"      --internal-ccop-bucketing[=BOOL]         BucketizeCCOp.enabled\n"
		"      --internal-ccop-bucketing-allgather-size-in-bytes N\n"
		"                                               BucketizeCCOp.all_gather_max_bytes\n"
		"      --internal-ccop-bucketing-reducescatter-size-in-bytes N\n"
		"                                               BucketizeCCOp.reduce_scatter_max_bytes\n"
		"      --internal-ccop-bucketing-allreduce-size-in-bytes N\n"
		"                                               BucketizeCCOp.all_reduce_max_bytes\n"
		"\n"
		"  -h, --help              show this help and exit\n"
		"      --version           show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 an error in the input or pipeline, 2 usage,\n"
		"3 a plugin could not be loaded, 4 a pass failed.\n",
		stdout);
}

static _Noreturn PL_PRINTF(1, 2) void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("passline: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_line(stderr);
	fputs("Try 'passline --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void add_override(struct cli *c, char *assignment, const char *origin)
{
	c->overrides = xrealloc(c->overrides, (c->noverrides + 1) * sizeof *c->overrides);
	c->overrides[c->noverrides].assignment = assignment;
	c->overrides[c->noverrides].origin = xstrdup(origin);
	c->noverrides++;
}

enum {
	OPT_PASSES = 256,
	OPT_STATS,
	OPT_STATS_JSON,
	OPT_TIME_PASSES,
	OPT_VERIFY_EACH,
	OPT_PRINT_AFTER_ALL,
	OPT_REMARKS,
	OPT_LIST_PASSES,
	OPT_PRINT_PIPELINE,
	OPT_PLUGIN_DIR,
	OPT_ALLOW_INSECURE,
	OPT_VERSION,
	OPT_CCOP,
	OPT_CCOP_AG,
	OPT_CCOP_RS,
	OPT_CCOP_AR,
	OPT_INPUT_FORMAT,
	OPT_OUTPUT_FORMAT,
	OPT_COMPARE,
	OPT_COMPARE_SVG,
	OPT_XLA_FLAGS
};

static unsigned threads_option; /* -j; 0: host_threads chooses */

/* Whether a and b name one file: the same text, the same name in one
 * folder (./x and x), or one existing file (through a link). */
static bool same_output(const char *a, const char *b)
{
	struct stat sa, sb;
	if (strcmp(a, b) == 0)
		return true;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
	if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
		return false;
	char *da = dir_of(a), *db = dir_of(b);
	char *ra = realpath(da, NULL), *rb = realpath(db, NULL);
	bool same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	free(da);
	free(db);
	return same;
}

/* Two outputs never share standard output, nor a file: one would be
 * written into the middle of the other. */
static void check_outputs(const struct cli *c)
{
	bool json_stdout = c->stats_json && strcmp(c->stats_json, "-") == 0;
	if (c->print_pipeline || c->list_passes)
		return; /* they print and exit: nothing else is written */
	if (c->compare) {
		if (json_stdout)
			usage_error("%s", "--stats-json - and --compare's table would both go to "
			                  "standard output: give --stats-json a file");
		return;
	}
	bool module_stdout = !c->output || strcmp(c->output, "-") == 0;
	if (json_stdout && module_stdout)
		usage_error("%s", "--stats-json - and the module would both go to standard output: "
		                  "give -o FILE for the module, or --stats-json a file");
	if (c->stats_json && !json_stdout && !module_stdout && same_output(c->output, c->stats_json))
		usage_error("-o and --stats-json both name %s", c->output);
}

static void parse_cli(int argc, char **argv, struct cli *c)
{
	static const struct option longopts[] = {
		{"pipeline", required_argument, NULL, 'p'},
		{"passes", required_argument, NULL, OPT_PASSES},
		{"output", required_argument, NULL, 'o'},
		{"stats", no_argument, NULL, OPT_STATS},
		{"stats-json", required_argument, NULL, OPT_STATS_JSON},
		{"time-passes", no_argument, NULL, OPT_TIME_PASSES},
		{"verify-each", no_argument, NULL, OPT_VERIFY_EACH},
		{"print-after-all", no_argument, NULL, OPT_PRINT_AFTER_ALL},
		{"remarks", no_argument, NULL, OPT_REMARKS},
		{"list-passes", no_argument, NULL, OPT_LIST_PASSES},
		{"print-pipeline", no_argument, NULL, OPT_PRINT_PIPELINE},
		{"plugin-dir", required_argument, NULL, OPT_PLUGIN_DIR},
		{"allow-insecure-plugins", no_argument, NULL, OPT_ALLOW_INSECURE},
		{"quiet", no_argument, NULL, 'q'},
		{"threads", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{"input-format", required_argument, NULL, OPT_INPUT_FORMAT},
		{"output-format", required_argument, NULL, OPT_OUTPUT_FORMAT},
		{"compare", no_argument, NULL, OPT_COMPARE},
		{"compare-svg", required_argument, NULL, OPT_COMPARE_SVG},
		{"xla-flags", required_argument, NULL, OPT_XLA_FLAGS},
		{"internal-ccop-bucketing", optional_argument, NULL, OPT_CCOP},
		{"internal-ccop-bucketing-allgather-size-in-bytes", required_argument, NULL,
		 OPT_CCOP_AG},
		{"internal-ccop-bucketing-reducescatter-size-in-bytes", required_argument, NULL,
		 OPT_CCOP_RS},
		{"internal-ccop-bucketing-allreduce-size-in-bytes", required_argument, NULL,
		 OPT_CCOP_AR},
		{NULL, 0, NULL, 0}};
	memset(c, 0, sizeof *c);
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, ":p:o:O:j:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			c->pipeline_file = optarg;
			c->pipeline_files = xrealloc(c->pipeline_files, (c->npipeline_files + 1) *
			                                                    sizeof *c->pipeline_files);
			c->pipeline_files[c->npipeline_files++] = optarg;
			break;
		case OPT_COMPARE:
			c->compare = true;
			break;
		case OPT_COMPARE_SVG:
			c->compare_svg = optarg;
			break;
		case OPT_XLA_FLAGS:
			c->xla_flags = optarg;
			break;
		case OPT_PASSES:
			c->passes = optarg;
			break;
		case 'o':
			c->output = optarg;
			break;
		case 'O':
			add_override(c, xstrdup(optarg), "-O");
			break;
		case OPT_STATS:
			c->stats = true;
			break;
		case OPT_STATS_JSON:
			c->stats_json = optarg;
			break;
		case OPT_TIME_PASSES:
			c->time_passes = true;
			break;
		case OPT_VERIFY_EACH:
			c->verify_each = true;
			break;
		case OPT_PRINT_AFTER_ALL:
			c->print_after_all = true;
			break;
		case OPT_REMARKS:
			c->remarks = true;
			break;
		case OPT_LIST_PASSES:
			c->list_passes = true;
			break;
		case OPT_PRINT_PIPELINE:
			c->print_pipeline = true;
			break;
		case OPT_PLUGIN_DIR:
			c->plugin_dirs = xrealloc(c->plugin_dirs,
			                          (c->nplugin_dirs + 1) * sizeof *c->plugin_dirs);
			c->plugin_dirs[c->nplugin_dirs++] = optarg;
			break;
		case OPT_ALLOW_INSECURE:
			c->allow_insecure = true;
			break;
		case 'q':
			host_quiet = true;
			break;
		case 'j': {
			char *end;
			errno = 0;
			unsigned long n = strtoul(optarg, &end, 10);
			if (!isdigit((unsigned char)optarg[0]) || *end || errno || n < 1 || n > 256)
				usage_error("--threads takes a number from 1 to 256, not '%s'", optarg);
			threads_option = (unsigned)n;
			break;
		}
		case 'h':
			help();
			exit(EXIT_OK);
		case OPT_VERSION:
			printf("passline %s (plugin ABI %d.%d, library %s)\n", PACKAGE_VERSION,
			       PL_ABI_MAJOR, PL_ABI_MINOR, pl_version());
			exit(EXIT_OK);
		case OPT_CCOP:
			add_override(c, xasprintf("BucketizeCCOp.enabled=%s", optarg ? optarg : "true"),
			             "--internal-ccop-bucketing");
			break;
		case OPT_CCOP_AG:
			add_override(c, xasprintf("BucketizeCCOp.all_gather_max_bytes=%s", optarg),
			             "--internal-ccop-bucketing-allgather-size-in-bytes");
			break;
		case OPT_CCOP_RS:
			add_override(c, xasprintf("BucketizeCCOp.reduce_scatter_max_bytes=%s", optarg),
			             "--internal-ccop-bucketing-reducescatter-size-in-bytes");
			break;
		case OPT_CCOP_AR:
			add_override(c, xasprintf("BucketizeCCOp.all_reduce_max_bytes=%s", optarg),
			             "--internal-ccop-bucketing-allreduce-size-in-bytes");
			break;
		case OPT_INPUT_FORMAT:
		case OPT_OUTPUT_FORMAT:
			if (strcmp(optarg, "hlo") != 0 && strcmp(optarg, "pir") != 0)
				usage_error("unknown format '%s' for %s (pir or hlo)", optarg,
				            opt == OPT_INPUT_FORMAT ? "--input-format" : "--output-format");
			*(opt == OPT_INPUT_FORMAT ? &c->input_format : &c->output_format) = optarg;
			break;
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				fprintf(stderr, "passline: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "passline: unknown option '%s'\n", argv[optind - 1]);
			usage_line(stderr);
			fputs("Try 'passline --help' for more information.\n", stderr);
			exit(EXIT_USAGE);
		}
	}
	if (c->pipeline_file && c->passes)
		usage_error("%s", "-p and --passes cannot be used together");
	if (c->npipeline_files > 1 && !c->compare)
		usage_error("%s", "several -p need --compare");
	if (c->compare_svg && !c->compare)
		usage_error("%s", "--compare-svg needs --compare");
	if (c->compare_svg && strcmp(c->compare_svg, "-") == 0)
		usage_error("%s", "--compare-svg needs a file: the table is on standard output");
	if (c->compare_svg && c->stats_json && strcmp(c->compare_svg, c->stats_json) == 0)
		usage_error("%s", "--compare-svg and --stats-json name the same file");
	if (c->compare && (c->output || c->print_pipeline || c->list_passes || c->stats ||
	                   c->print_after_all || c->time_passes))
		usage_error("%s", "--compare prints a table: -o, --stats, --time-passes, "
		                  "--print-after-all, --print-pipeline and --list-passes do not apply");
	bool needs_input = !c->list_passes && !c->print_pipeline;
	if (optind < argc)
		c->input = argv[optind++];
	if (optind < argc)
		usage_error("unexpected argument '%s' (only one INPUT)", argv[optind]);
	if (needs_input && !c->input)
		usage_error("%s", "missing INPUT (a .pir file, or - for standard input)");
	if (c->input && !needs_input)
		usage_error("unexpected argument '%s'", c->input);
	check_outputs(c);
}

static void free_cli(struct cli *c)
{
	for (size_t k = 0; k < c->noverrides; k++) {
		free(c->overrides[k].assignment);
		free(c->overrides[k].origin);
	}
	free(c->overrides);
	free(c->plugin_dirs);
	free(c->pipeline_files);
}

static unsigned host_threads(void);

/* Like opt, passline verifies the result before it writes it: a pass that
 * breaks the IR must not produce a file (--verify-each has done it after
 * every pass already). The outputs are committed only after it said yes. */
struct verify_job {
	pl_module *m;
	pl_diags *diags;
	int rc;
	double seconds;
};

static bool verify_start(struct verify_job *job, pl_module *m, struct timing *t)
{
	memset(job, 0, sizeof *job);
	job->m = m;
	job->diags = pl_diags_new();
	/* naming the values is the first step of printing: timed as such */
	double t0 = now_seconds();
	int named = job->diags ? pl_module_name_values(m) : PL_ENOMEM;
	t->print += now_seconds() - t0;
	if (named != PL_OK) {
		host_error("out of memory");
		pl_diags_free(job->diags);
		return false;
	}
	t0 = now_seconds();
	job->rc = pl_verify_module_threads(m, job->diags, host_threads());
	job->seconds = now_seconds() - t0;
	return true;
}

/* Reports the check; EXIT_OK when the result is valid. */
static int verify_finish(struct verify_job *job, struct timing *t)
{
	t->verify += job->seconds;
	if (job->rc != PL_OK) {
		host_print_diags(job->diags);
		host_error("the IR is invalid after the pipeline (use --verify-each to find "
		           "the pass that broke it)");
	}
	pl_diags_free(job->diags);
	return job->rc == PL_OK ? EXIT_OK : EXIT_PASS;
}

static int print_pir(pl_module *m, FILE *fp);

/* --output-format, else the -o name, else HLO in, HLO out for standard
 * input (a file's HLO read without -o prints as .pir, to read the IR). */
static bool output_is_hlo(const struct cli *c)
{
	if (c->output_format)
		return strcmp(c->output_format, "hlo") == 0;
	if (c->output && (host_is_hlo_name(c->output) || host_is_pir_name(c->output)))
		return host_is_hlo_name(c->output);
	return c->stdin_hlo;
}

static int read_input(struct cli *c, pl_diags *diags, pl_module **m)
{
	bool hlo = false;
	int rc = host_read_module(c->input, c->input_format, host_threads(), diags, m, &hlo);
	c->stdin_hlo = hlo && strcmp(c->input, "-") == 0;
	return rc;
}

/* -O hlo.async_form: records on the entry function (the one marked
 * hlo_entry, else the last) how HLO output writes the collectives passes
 * made asynchronous. false (after an error) when out of memory. */
static bool set_async_form(const struct pipeline *pl, pl_module *m)
{
	size_t nf = pl_module_num_funcs(m);
	if (!pl->hlo_async_form || !nf)
		return true;
	pl_func *entry = pl_module_hlo_entry(m);
	if (!entry)
		entry = pl_module_func_at(m, nf - 1);
	if (pl_attrs_set_bool(pl_func_attrs(entry), "hlo_async_wrapped",
	                      pl->hlo_async_form == HLO_ASYNC_WRAPPED) != PL_OK) {
		host_error("out of memory");
		return false;
	}
	return true;
}

/* The module's output and --stats-json, opened (as temporary files beside
 * their targets) before the input is read, so that an output that cannot
 * be written is an error before any pass runs. */
struct outputs {
	struct atomic_file out, json;
	bool have_json;
};

static bool outputs_open(const struct cli *c, struct outputs *o)
{
	o->have_json = c->stats_json != NULL;
	if (!atomic_open(&o->out, c->output ? c->output : "-"))
		return false;
	if (o->have_json && !atomic_open(&o->json, c->stats_json)) {
		atomic_abort(&o->out);
		return false;
	}
	return true;
}

static void outputs_abort(struct outputs *o)
{
	atomic_abort(&o->out);
	if (o->have_json)
		atomic_abort(&o->json);
}

/* Writes the module, the JSON stats and the files passes handed over into
 * the outputs o; all or none. The files passes hand over go beside -o:
 * with the module on standard output there is no folder they belong in,
 * so they are named in a warning and not written (never into whatever
 * folder passline runs in). With job, the result's verification decides. */
static int write_outputs(const struct cli *c, pl_module *m, struct pipeline *pl,
                         struct timing *t, struct verify_job *job, struct outputs *o)
{
	struct atomic_file *out = &o->out, *json = &o->json;
	bool have_json = o->have_json;
	struct pass_files files = {0};
	bool opened = true;
	if (out->is_stdout) {
		pass_files_skip(pl);
	} else {
		char *dir = dir_of(c->output);
		const char *taken[] = {c->output, c->stats_json};
		opened = pass_files_open(&files, pl, dir, taken, 2);
		free(dir);
	}
	if (!opened) {
		outputs_abort(o);
		if (job)
			verify_finish(job, t);
		return EXIT_INPUT;
	}
	double t0 = now_seconds();
	pl_diags *out_diags = pl_diags_new();
	if (!out_diags) {
		outputs_abort(o);
		pass_files_abort(&files);
		if (job)
			verify_finish(job, t);
		host_error("out of memory");
		return EXIT_INPUT;
	}
	int rc = output_is_hlo(c) ? pl_print_hlo_module_file(m, out_diags, out->fp)
	                          : print_pir(m, out->fp);
	t->print += now_seconds() - t0;
	struct stats st;
	stats_collect(pl, &st);
	if (have_json)
		stats_print_json(&st, pl, c->input, json->fp);
	int status = EXIT_OK;
	host_print_diags(out_diags);
	pl_diags_free(out_diags);
	if (rc == PL_EINVAL) {
		host_error("the module cannot be written as XLA HLO");
		status = EXIT_INPUT;
	} else if (rc != PL_OK) {
		host_error("cannot write %s: %s", out->is_stdout ? "standard output" : out->path,
		           pl_status_string(rc));
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK && have_json && (fflush(json->fp) != 0 || ferror(json->fp)))
		status = EXIT_INPUT;
	if (job) {
		int vs = verify_finish(job, t);
		if (status == EXIT_OK)
			status = vs;
	}
	if (status != EXIT_OK) {
		outputs_abort(o);
		pass_files_abort(&files);
		stats_free(&st);
		return status;
	}
	bool ok = atomic_commit(out);
	if (have_json)
		ok = atomic_commit(json) && ok;
	ok = pass_files_commit(&files) && ok;
	loops_print_warnings(pl);
	if (c->stats) {
		stats_print_table(&st, stderr);
		cost_model_print_line(pl, stderr);
	}
	stats_free(&st);
	return ok ? EXIT_OK : EXIT_INPUT;
}

static int write_stream(void *fp, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, fp) == len ? 0 : -1;
}

/* m as .pir text into fp, formatted on host_threads() threads. */
static int print_pir(pl_module *m, FILE *fp)
{
	int rc = pl_print_module_threads(m, host_threads(), write_stream, fp);
	return rc == PL_OK && fflush(fp) != 0 ? PL_EIO : rc;
}

/* Threads for work that splits: -j, else the processors online, up to 4. */
static unsigned host_threads(void)
{
	if (threads_option)
		return threads_option;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 4 ? 4 : (unsigned)n;
}

/* The default pipeline: the file PASSLINE_DEFAULT_PIPELINE names (empty:
 * the built-in copy; ignored when setuid, like PASSLINE_PLUGIN_PATH), else
 * the installed pipeline file when there is one (so the administrator's
 * edits to it take effect), else the built-in copy of conf/default.ini. */
static bool default_pipeline(struct pipeline *pl)
{
	const char *env = host_secure_getenv("PASSLINE_DEFAULT_PIPELINE");
	if (env)
		return *env ? pipeline_read_file(env, pl) : pipeline_default(pl);
	const char *installed = INSTALLED_DEFAULT_PIPELINE;
	if (access(installed, F_OK) == 0)
		return pipeline_read_file(installed, pl);
	return pipeline_default(pl);
}

/* XLA's flags: XLA_FLAGS, then --xla-flags. false after an error. */
static bool read_xla_flags(const struct cli *c, struct xla_flags *xf)
{
	xla_flags_init(xf);
	return xla_flags_read(xf, host_secure_getenv("XLA_FLAGS"), c->xla_flags);
}

static int run(struct cli *c)
{
	struct xla_flags xf;
	if (!read_xla_flags(c, &xf)) {
		xla_flags_free(&xf);
		return EXIT_INPUT;
	}
	struct pipeline pl;
	bool ok = c->pipeline_file ? pipeline_read_file(c->pipeline_file, &pl)
	          : c->passes      ? pipeline_from_list(c->passes, &pl)
	                           : default_pipeline(&pl);
	if (!ok) {
		pipeline_free(&pl);
		xla_flags_free(&xf);
		return c->passes ? EXIT_USAGE : EXIT_INPUT;
	}
	/* the flags first: -O and the driver aliases win over them */
	int status = xla_flags_apply(&xf, &pl, c->remarks);
	for (size_t k = 0; k < c->noverrides && status == EXIT_OK; k++)
		status = pipeline_override(&pl, c->overrides[k].assignment, c->overrides[k].origin);
	if (status == EXIT_OK)
		status = pipeline_memory_fraction_from_env(&pl);

	struct loader ld;
	loader_init(&ld, pl.plugin_dir, c->plugin_dirs, c->nplugin_dirs);
	ld.allow_insecure = c->allow_insecure;
	if (status == EXIT_OK && c->list_passes) {
		status = loader_list(&ld, stdout);
		goto out;
	}
	if (status == EXIT_OK)
		status = loader_resolve(&ld, &pl);

	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		status = EXIT_INPUT;
		goto out;
	}
	pl_diags_set_handler(diags, host_diag_printer, NULL);
	if (status == EXIT_OK)
		status = runner_configure(&pl, diags, c->remarks, host_threads());
	if (status == EXIT_OK)
		pipeline_warn_cost_bounds(&pl);
	if (status == EXIT_OK && c->print_pipeline) {
		if (!pipeline_print(&pl, stdout) || fflush(stdout) != 0)
			status = EXIT_INPUT;
		goto out_diags;
	}
	if (status != EXIT_OK)
		goto out_diags;

	struct outputs outs;
	if (!outputs_open(c, &outs)) {
		status = EXIT_INPUT;
		goto out_diags;
	}
	struct timing t = {0};
	double start = now_seconds();
	pl_diags *in_diags = pl_diags_new();
	pl_module *m = NULL;
	int rc = read_input(c, in_diags, &m);
	t.read = now_seconds() - start;
	if (rc == PL_OK) {
		t.insts = pl_module_num_insts(m);
		double t0 = now_seconds();
		rc = pl_verify_module_threads(m, in_diags, host_threads());
		t.verify = now_seconds() - t0;
	}
	host_print_diags(in_diags);
	pl_diags_free(in_diags);
	if (rc != PL_OK) {
		status = EXIT_INPUT;
		outputs_abort(&outs);
	} else {
		struct run_options ro = {c->verify_each, c->print_after_all, host_threads()};
		status = loops_check(&pl, m, c->input, false);
		if (status == EXIT_OK)
			partition_check(&pl, m);
		if (status == EXIT_OK)
			status = runner_run(&pl, m, &ro);
		if (status == EXIT_OK && !set_async_form(&pl, m))
			status = EXIT_INPUT;
		struct verify_job job;
		bool check = !c->verify_each;
		if (status == EXIT_OK && check && !verify_start(&job, m, &t))
			status = EXIT_INPUT;
		if (status == EXIT_OK)
			status = write_outputs(c, m, &pl, &t, check ? &job : NULL, &outs);
		else
			outputs_abort(&outs);
		t.total = now_seconds() - start;
		if (status == EXIT_OK && c->time_passes)
			timing_print(&pl, &t, stderr);
	}
	pl_module_free(m);
out_diags:
	runner_finish(&pl); /* also after a bad option: the contexts exist */
	pl_diags_free(diags);
out:
	loader_free(&ld);
	pipeline_free(&pl);
	xla_flags_free(&xf);
	return status;
}

static int read_for_compare(void *ud, pl_diags *d, pl_module **m)
{
	return read_input(ud, d, m);
}

static int run_compare(struct cli *c)
{
	struct xla_flags xf;
	if (!read_xla_flags(c, &xf)) {
		xla_flags_free(&xf);
		return EXIT_INPUT;
	}
	const char **ov = xcalloc(c->noverrides + 1, sizeof *ov);
	const char **origin = xcalloc(c->noverrides + 1, sizeof *origin);
	for (size_t k = 0; k < c->noverrides; k++) {
		ov[k] = c->overrides[k].assignment;
		origin[k] = c->overrides[k].origin;
	}
	struct compare_request rq = {
		.input = c->input, .files = c->pipeline_files, .nfiles = c->npipeline_files,
		.plugin_dirs = c->plugin_dirs, .nplugin_dirs = c->nplugin_dirs,
		.overrides = ov, .override_origins = origin, .noverrides = c->noverrides,
		.allow_insecure = c->allow_insecure, .remarks = c->remarks,
		.verify_each = c->verify_each, .stats_json = c->stats_json, .svg = c->compare_svg,
		.read = read_for_compare, .read_ud = c, .xla = &xf};
	int status = compare_run(&rq);
	free(ov);
	free(origin);
	xla_flags_free(&xf);
	return status;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "tune") == 0) {
		crash_install();
		return tune_main(argc - 1, argv + 1);
	}
	struct cli c;
	parse_cli(argc, argv, &c);
	crash_install();
	int status = c.compare ? run_compare(&c) : run(&c);
	free_cli(&c);
	return status;
}
