/* SPDX-License-Identifier: MIT */
/* host/host.h — the passline executable's parts: command line, pipeline
 * files, plugin loading, running, reports, atomic output. Only the host
 * talks to the user; everything it prints goes through util.c. */
#ifndef PL_HOST_H
#define PL_HOST_H

#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include <passline/host.h>
#include <passline/passline.h>

/* Exit statuses (passline(1)). */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,   /* an error in the input or the pipeline */
	EXIT_USAGE = 2,   /* bad command line */
	EXIT_PLUGIN = 3,  /* a plugin could not be loaded */
	EXIT_PASS = 4     /* a pass failed */
};

/* ---- util.c ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) PL_PRINTF(1, 2);
/* "passline: error: ..." and friends, on standard error. */
void host_error(const char *fmt, ...) PL_PRINTF(1, 2);
void host_warning(const char *fmt, ...) PL_PRINTF(1, 2);
/* "passline: remark: ..." (for --remarks; silent with -q) */
void host_remark(const char *fmt, ...) PL_PRINTF(1, 2);
/* "file:line: error: ..." (line 0: "file: error: ...") */
void host_error_at(const char *file, unsigned line, const char *fmt, ...) PL_PRINTF(3, 4);
/* At file:line when line is not 0 (what a pipeline file declared), else
 * as host_error (a step of --passes or of the built-in pipeline). */
void host_error_decl(const char *file, unsigned line, const char *fmt, ...) PL_PRINTF(3, 4);
/* Prints every message of d on standard error. */
void host_print_diags(pl_diags *d);
/* A diags handler that prints each message as it comes (remarks stream). */
void host_diag_printer(void *quiet, pl_severity sev, const char *file, unsigned line,
                       unsigned col, const char *message);
/* The closest of candidates to word within a small edit distance, or NULL. */
const char *closest_match(const char *word, const char *const *candidates, size_t n);
/* The folder part of path ("." when it has none); malloc'd. */
char *dir_of(const char *path);
/* getenv, but NULL in a setuid or setgid process, whose environment
 * belongs to someone else. */
const char *host_secure_getenv(const char *name);
/* path if absolute, else dir/path; malloc'd. */
char *path_join(const char *dir, const char *path);
double now_seconds(void);
/* s as a JSON string, quoted and escaped. */
void json_string(FILE *out, const char *s);
extern bool host_quiet;

/* ---- pipeline.c ---- */
struct setting {
	char *key;
	char *value;
	char *file; /* where it was set; NULL for the command line */
	unsigned line;
};

struct plugin;

struct step {
	char *pass;
	char *plugin_path; /* the `plugin =` key, resolved; NULL if none */
	bool enabled;
	char *file;        /* where the step was declared */
	unsigned line;
	struct setting *settings;
	size_t nsettings;
	/* filled by the loader and runner */
	struct plugin *plugin;
	const pl_pass_desc *desc;
	pl_pass_ctx *ctx;
	void *state;
	bool created;
	double seconds;
	/* a read-only pass that may run beside others: its messages, kept
	 * here until they are passed on in pipeline order (NULL otherwise) */
	struct held_diags *held;
	int rc;             /* what run returned, when run on another thread */
	size_t errors_before;
};

struct pipeline {
	char *source;      /* file, "<built-in>" or "--passes" */
	char *name;
	char *description;
	char *plugin_dir;  /* resolved against the file's folder; NULL if none */
	pl_cost_model *cost_model; /* [cost_model] and -O cost_model.KEY=VALUE;
	                            * NULL: no key set */
	pl_cost_model *run_cost_model; /* made by pipeline_run_cost_model, or
	                                * the model in force, borrowed */
	/* bit j: old integer key j (pl_cost_model_key) set by the file or -O,
	 * at any value: the exact integer model asked for */
	unsigned old_keys;
	struct step *steps;
	size_t nsteps;
	/* -O hlo.async_form: 0 as the module has it, else HLO_ASYNC_* */
	int hlo_async_form;
	/* the XLA flags applied (xla_flags_apply); NULL: none read */
	const struct xla_flags *xla;
	pl_diags *diags; /* where the passes' messages go (runner_configure) */
	/* [loops] and -O loops.NAME=N: the trip counts every pass that
	 * counts loops reads; key a loop's name, value its count (loops.c) */
	struct setting *loops;
	size_t nloops;
	/* what the host found about the module that the figures depend on,
	 * shown with the statistics (loops_check); malloc'd lines */
	char **warnings;
	size_t nwarnings;
};
enum { HLO_ASYNC_WRAPPED = 1, HLO_ASYNC_START_DONE = 2 };

/* The longest line of a pipeline file, leading blanks aside: what the
 * system inih reads in one piece (INI_MAX_LINE, less newline and NUL). */
#define PL_INI_MAX_CONTENT 198

/* The cost model the pipeline's passes run under: its own when it names a
 * preset or keeps the exact integer model by the old integer keys; else
 * the h100 preset under the keys it sets by name, or none
 * (host/cost_default.c). Never NULL but out of memory. */
const pl_cost_model *pipeline_run_cost_model(struct pipeline *pl);
/* That model, handed over: the caller frees it (the pipeline no longer
 * holds it). NULL only when out of memory. */
pl_cost_model *pipeline_take_run_cost_model(struct pipeline *pl);
/* Whether the pipeline set the old integer key name, at any value. */
bool pipeline_old_key_set(const struct pipeline *pl, const char *name);
/* A warning for every key the pipeline sets above its physical bound. */
void pipeline_warn_cost_bounds(struct pipeline *pl);
/* What key k of the cost model is: "UNIT; default D; h100 X, b200 Y; at
 * most BOUND", the line --list-passes and the manual give. */
void cost_key_summary(size_t k, char *buf, size_t len);

/* Reads a pipeline file. Errors are printed; returns false on any. */
bool pipeline_read_file(const char *path, struct pipeline *pl);
/* Reads pipeline text; path names it in messages, relative paths in it
 * resolve against dir (NULL: only absolute paths are allowed). */
bool pipeline_read_text(const char *path, const char *dir, const char *buf, size_t len,
                        struct pipeline *pl);
/* The built-in default pipeline (the text of conf/default.ini). */
bool pipeline_default(struct pipeline *pl);
/* A pipeline of the named passes, "A,B,C"; "" gives none. */
bool pipeline_from_list(const char *list, struct pipeline *pl);
/* Applies PASS.KEY=VALUE to every step of PASS, cost_model.KEY=VALUE
 * to the cost model, loops.NAME=N to the trip counts of the loops, or
 * hlo.async_form=VALUE to the HLO written; origin
 * names the flag in errors. Returns an exit status (EXIT_OK, EXIT_USAGE,
 * EXIT_INPUT). */
int pipeline_override(struct pipeline *pl, const char *assignment, const char *origin);
/* Sets the cost model's memory_fraction from XLA_PYTHON_CLIENT_MEM_FRACTION
 * when that is set and the pipeline and -O left the key alone (the fraction
 * of the device's memory JAX lets a program hold). EXIT_OK, or EXIT_INPUT
 * with the error printed. */
int pipeline_memory_fraction_from_env(struct pipeline *pl);
/* The effective pipeline as a pipeline file that reads back to the same
 * pipeline; false (after an error) when a line would be too long. */
bool pipeline_print(const struct pipeline *pl, FILE *out);
void pipeline_free(struct pipeline *pl);
extern const char default_pipeline_text[];

/* ---- xla_flags.c ---- */
enum xla_source { XLA_SOURCE_DEFAULT, XLA_SOURCE_ENV, XLA_SOURCE_OPTION };

/* An option a flag given drives: pass.key = value. */
struct xla_drive {
	size_t flag; /* index of the flag (xla_flag_name) */
	const char *pass, *key;
	char *value;
	bool applied; /* the last pipeline applied to had pass */
};

/* XLA's flags in force. */
struct xla_flags {
	char **values;                /* per modelled flag; NULL: XLA's default */
	enum xla_source *sources;     /* per modelled flag */
	char **unmodelled;            /* names (or name=value) passline does not model */
	size_t nunmodelled;
	struct xla_drive *drives;     /* in the order they apply */
	size_t ndrives;
	bool given;                   /* any flag at all came from a source */
};

void xla_flags_init(struct xla_flags *xf);
/* Reads the flags of XLA_FLAGS (env, may be NULL) and --xla-flags (option,
 * may be NULL; it wins flag by flag), works out what they drive and warns
 * once about the flags not modelled. false after an error (printed): a
 * modelled flag with a value XLA would refuse. */
bool xla_flags_read(struct xla_flags *xf, const char *env, const char *option);
/* Applies what the flags given drive to the steps of pl that run the
 * pass, as -O does, and records xf in pl; with remarks, names the flags
 * whose pass is not in pl. An exit status. */
int xla_flags_apply(struct xla_flags *xf, struct pipeline *pl, bool remarks);
/* The modelled flags, k in 0 .. xla_flags_count() - 1: name and value in
 * force (the given one, else XLA's default). */
size_t xla_flags_count(void);
const char *xla_flag_name(size_t k);
const char *xla_flag_value(const struct xla_flags *xf, size_t k);
/* "XLA_FLAGS", "--xla-flags" or "XLA default". */
const char *xla_source_name(enum xla_source s);
/* The flags in force, where each came from and what it drives, as
 * comment lines of a pipeline file. */
void xla_flags_print(const struct xla_flags *xf, FILE *out);
/* Whether a flag was given or pl has a pass some flag drives. */
bool xla_flags_relevant(const struct xla_flags *xf, const struct pipeline *pl);
void xla_flags_free(struct xla_flags *xf);

/* ---- read_input.c ---- */
/* Whether path names an HLO file (.hlo, .hlo.txt). */
bool host_is_hlo_name(const char *path);
/* Whether path names a .pir file. */
bool host_is_pir_name(const char *path);
/* Reads input ("-": standard input) as fmt ("pir", "hlo"; NULL: by the
 * name, else by the first words) on up to threads threads; *hlo says
 * whether it was read as HLO. A PL_ status; errors in diags. */
int host_read_module(const char *input, const char *fmt, unsigned threads, pl_diags *diags,
                     pl_module **m, bool *hlo);

/* ---- tune.c ---- */
/* passline tune ARGS (argv[0] is "tune"): an exit status. */
int tune_main(int argc, char **argv);
extern const char xla_gpu_pipeline_text[];
/* ---- loops.c ---- */
/* Sets loop name's trip count from value (a whole number), set at file
 * and line (line 0: file is the command-line flag); a later setting of a
 * name replaces the earlier. NULL, or why not (malloc'd). */
char *loops_set(struct pipeline *pl, const char *name, const char *value, const char *file,
                unsigned line);
/* Whether text reads NAME=N[,NAME=N...] (a pass's trip_counts option);
 * else false and *why (malloc'd). */
bool loops_list_valid(const char *text, char **why);
/* Whether step s counts loops: its pass has a string option trip_counts. */
bool step_counts_loops(const struct step *s);
/* The trip_counts a counting step runs with: the pipeline's loops, then
 * its own option own (which wins for the loops it names); malloc'd, NULL
 * when both are empty. */
char *loops_option_value(const struct pipeline *pl, const char *own);
/* Checks the loops the pipeline and its steps name against m (input names
 * it in messages) and records in pl->warnings each loop that runs and
 * that a counting step (or the host itself, host_counts: --compare's
 * table) counts once for want of a trip count. EXIT_OK, or EXIT_INPUT
 * after an error. */
int loops_check(struct pipeline *pl, const pl_module *m, const char *input, bool host_counts);
/* Adds w (malloc'd, taken) to the warnings shown with the statistics. */
void pipeline_add_warning(struct pipeline *pl, char *w);
/* ---- partition_check.c ---- */
/* Records a warning when m has no collective but is meant to be cut over
 * several devices (num_partitions, sharding over devices): taken before
 * SPMD partitioning, costed as the whole program on one device. (Replicas
 * each run the whole program.) */
void partition_check(struct pipeline *pl, pl_module *m);
/* The warnings loops_check recorded, on standard error. */
void loops_print_warnings(const struct pipeline *pl);

/* ---- loader.c ---- */
struct plugin {
	char *path;
	const pl_plugin_desc *desc;
	struct plugin *next;
};

struct loader {
	char **dirs; /* search folders after the per-step `plugin =` key */
	size_t ndirs;
	bool allow_insecure;
	struct plugin *loaded;
};

/* Sets up the search path: pipeline_dir (may be NULL), the --plugin-dir
 * folders, PASSLINE_PLUGIN_PATH, the installed folder. */
void loader_init(struct loader *ld, const char *pipeline_dir, char **cli_dirs,
                 size_t ncli_dirs);
/* Finds and loads the plugin of every step, sets step->plugin and ->desc.
 * Returns an exit status; errors are printed. */
int loader_resolve(struct loader *ld, struct pipeline *pl);
/* --list-passes: every plugin in the search path, then the cost model's
 * keys. Returns an exit status. */
int loader_list(struct loader *ld, FILE *out);
void loader_free(struct loader *ld);

/* ---- runner.c ---- */
struct run_options {
	bool verify_each;
	bool print_after_all;
	/* -j: consecutive read-only passes run side by side on up to this
	 * many threads (0 or 1: one after the other) */
	unsigned threads;
};

/* Creates a context for every enabled step and sets its options: errors
 * name the file and line of the bad setting. Returns an exit status. */
int runner_configure(struct pipeline *pl, pl_diags *diags, bool remarks, unsigned threads);
/* Calls create for every enabled step, then run in order. */
int runner_run(struct pipeline *pl, pl_module *m, const struct run_options *opts);
/* Calls destroy for every created step and frees the contexts. */
void runner_finish(struct pipeline *pl);

/* ---- runner_group.c ---- */
/* Messages held back from diags; NULL when out of memory. */
struct held_diags *held_new(void);
void held_free(struct held_diags *h);
/* A diags list whose messages go to h (set up by held_new). */
pl_diags *held_list(struct held_diags *h);
/* Passes the held messages on to to, in the order they came, and forgets
 * them. */
void held_release(struct held_diags *h, pl_diags *to);
/* Whether step s may run beside others (its pass declares read-only and
 * its messages are held). */
bool step_read_only(const struct step *s);
/* Runs the n steps (enabled, read-only, created) on up to threads threads:
 * each step's rc, errors_before and seconds are set; nothing is reported. */
void group_run(struct step **steps, size_t n, pl_module *m, unsigned threads);

/* ---- report.c ---- */
struct stat_total {
	const char *pass;
	const char *name;
	const char *description;
	uint64_t hi, lo;
};

struct stats {
	struct stat_total *v;
	size_t n;
};

/* Sums the stats of every enabled step, per pass name, in pipeline order. */
void stats_collect(const struct pipeline *pl, struct stats *st);
void stats_print_table(const struct stats *st, FILE *out);
void stats_print_json(const struct stats *st, const struct pipeline *pl,
                      const char *input, FILE *out);
void stats_free(struct stats *st);
/* The cost model cm as the JSON object --stats-json gives it: "preset"
 * (null for the exact integer model), "exact", then the keys it reads. */
void cost_model_print_json(FILE *out, const pl_cost_model *cm);
/* "cost model: h100 (...)": the line under the --stats table that names
 * the model the passes ran under; nothing when none was made. */
void cost_model_print_line(const struct pipeline *pl, FILE *out);

struct timing {
	double read, verify, print, total;
	size_t insts; /* instructions read */
};
void timing_print(const struct pipeline *pl, const struct timing *t, FILE *out);

/* ---- atomic.c ---- */
/* An output written to a temporary file beside its target and renamed into
 * place on commit; on abort the target is untouched. "-" is standard
 * output. A symbolic link is followed to its final target; an existing
 * target that is not a regular file (a device, a FIFO, a socket) is opened
 * and written directly (direct), where whole-or-nothing cannot hold. */
struct atomic_file {
	char *path;   /* as the user named it, for messages */
	char *target; /* path with symbolic links followed */
	char *tmp;    /* the temporary file, unless direct or standard output */
	FILE *fp;
	bool is_stdout;
	bool direct;
};
bool atomic_open(struct atomic_file *af, const char *path);
bool atomic_commit(struct atomic_file *af);
void atomic_abort(struct atomic_file *af);
/* Removes every open temporary file; async-signal-safe (see crash.c). */
void atomic_abort_all_signal_safe(void);

/* ---- pass_files.c ---- */
/* The files the passes handed over (pl_ctx_write_file), open for writing. */
struct pass_files {
	struct atomic_file *v;
	size_t n;
};
/* Opens and writes every file the steps of pl handed over (a later write
 * of a name, by any step, replaces an earlier one) as dir/NAME, refusing
 * names that leave dir and the paths in taken (the other outputs).
 * false after an error naming the pass and the file; nothing is left. */
bool pass_files_open(struct pass_files *pf, const struct pipeline *pl, const char *dir,
                     const char *const *taken, size_t ntaken);
/* Names every file the steps of pl handed over in one warning, saying
 * why none is written: the module goes to standard output. */
void pass_files_skip(const struct pipeline *pl);
bool pass_files_commit(struct pass_files *pf);
void pass_files_abort(struct pass_files *pf);

/* ---- crash.c ---- */
/* Installs handlers that, if a pass crashes, name the pass and plugin. */
void crash_install(void);
void crash_set_current(const char *pass, const char *plugin_path);

/* ---- compare.c ---- */
/* passline --compare: the input through each pipeline file (none: the
 * built-in strategies), one table. */
struct compare_request {
	const char *input;
	const char *const *files;
	size_t nfiles;
	char **plugin_dirs;
	size_t nplugin_dirs;
	const char *const *overrides, *const *override_origins;
	size_t noverrides;
	bool allow_insecure, remarks, verify_each;
	const char *stats_json; /* NULL: none */
	const char *svg;        /* --compare-svg; NULL: none */
	struct xla_flags *xla;  /* XLA's flags, applied to each pipeline */
	/* reads the input afresh into *m (filling d); a PL_ status */
	int (*read)(void *ud, pl_diags *d, pl_module **m);
	void *read_ud;
};
int compare_run(const struct compare_request *rq);

/* The shipped strategies, conf/compare-*.ini, built in (compare_pipelines.c,
 * generated): what --compare compares without -p. */
extern const char *const compare_builtin_names[]; /* "compare-neuron.ini", ... */
extern const char *const compare_builtin_texts[];
extern const size_t compare_builtin_count;

/* ---- compare_svg.c ---- */
/* A pipeline's result kept for --compare-svg, and what Timeline drew. */
struct compare_drawn {
	pl_module *module;
	pl_cost_model *cost_model; /* the model the pipeline ran under */
	char *func;                /* the function drawn (malloc'd) */
	uint64_t makespan_ns, exposed_ns; /* of what is drawn: the step, or the function */
};
/* Runs the Timeline plugin on each of drawn[0..n) (filling func and the
 * times) on shared scales: the longest drawing across the plot, each part
 * of a step at the longest of its runs; the legend on the last only;
 * svg[k] the pictures (malloc'd). An exit status; errors are printed. */
int compare_svg_draw(const struct compare_request *rq, struct compare_drawn *drawn,
                     const char *const *labels, size_t n, char **svg);
/* The stacked picture of the svg[k], each in a <g class="strategy">. */
void compare_svg_print(FILE *out, const struct compare_request *rq,
                       const struct compare_drawn *drawn, const char *const *labels,
                       char *const *svg, size_t n);

#endif
