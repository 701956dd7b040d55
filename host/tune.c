/* SPDX-License-Identifier: MIT */
/* host/tune.c — passline tune: the XLA flags that make a step fastest
 * within its memory.
 *
 * The step is read once. Each configuration of the searched flags (the
 * per-kind combine thresholds, combine_by_dim, pipelining per kind, double
 * buffering, the latency-hiding scheduler) runs the built-in copy of
 * conf/xla-gpu.ini under those flags, as `passline -p conf/xla-gpu.ini
 * --xla-flags=...` would, on its own copy of the module: a child process,
 * forked after the read, so that its copy is the parent's pages, written
 * only where the passes change them. Up to -j children run at once; each
 * sends back ScheduleEstimate's step_ns, exposed_comm_ns and
 * step_peak_bytes through a pipe, and the parent keeps them by the
 * configuration's number, so the result does not depend on which child
 * finished first.
 *
 * The search is coordinate descent from XLA's defaults and from the
 * user's own flags (the "current" configuration, always evaluated): each
 * flag in turn takes every value it may while the others stay, the best
 * that fits the memory limit is kept, and rounds repeat until one changes
 * nothing; then a grid of the neighbouring thresholds (a power of two up
 * and down, per kind) around the best. A configuration is evaluated once
 * (they are kept by their flags), and --budget and --time bound the
 * number and the time. Ties: configurations whose predicted steps are
 * within --tie percent of the best (the cost model's own error) are
 * marked; the recommendation is still the lowest. */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the searched flags ---- */

enum {
	D_AR_THR,
	D_AG_THR,
	D_RS_THR,
	D_AG_BY_DIM,
	D_RS_BY_DIM,
	D_PIPE_AG,
	D_PIPE_RS,
	D_PIPE_AR,
	D_DOUBLE_BUFFER,
	D_LHS,
	D_COUNT
};

#define NUM_THRESHOLDS 3

static const char *const dim_flag[D_COUNT] = {
	"xla_gpu_all_reduce_combine_threshold_bytes",
	"xla_gpu_all_gather_combine_threshold_bytes",
	"xla_gpu_reduce_scatter_combine_threshold_bytes",
	"xla_gpu_enable_all_gather_combine_by_dim",
	"xla_gpu_enable_reduce_scatter_combine_by_dim",
	"xla_gpu_enable_pipelined_all_gather",
	"xla_gpu_enable_pipelined_reduce_scatter",
	"xla_gpu_enable_pipelined_all_reduce",
	"xla_gpu_enable_while_loop_double_buffering",
	"xla_gpu_enable_latency_hiding_scheduler",
};

static bool is_threshold(int d)
{
	return d < NUM_THRESHOLDS;
}

/* A configuration: a value per searched flag (bytes, or 0/1). */
struct config {
	int64_t v[D_COUNT];
};

/* The values a threshold takes: powers of two from 1 MiB to 8 GiB, and
 * XLA's default (which need not be a power of two). */
#define POW_MIN 20
#define POW_MAX 33

struct result {
	int status; /* EXIT_* of the evaluation */
	uint64_t step_ns, exposed_ns, peak_bytes;
};

struct entry {
	struct config c;
	struct result r;
	bool done;
	bool current; /* the user's own flags */
	unsigned order; /* when it was first asked for: output order of the JSON */
};

struct tune {
	/* options */
	const char *input, *input_format, *json, *user_flags;
	char **plugin_dirs;
	size_t nplugin_dirs;
	const char **overrides;
	size_t noverrides;
	bool allow_insecure, quiet;
	unsigned jobs;
	long budget;
	double time_limit;
	uint64_t memory_limit; /* 0: from the cost model */
	pl_cost_model *cost_model; /* the model every configuration runs under */
	bool memory_limit_given;
	double tie_percent;
	size_t top;

	pl_module *module;
	struct xla_flags user; /* the user's flags, read once */
	struct config xla_default, current;
	char **other_flags; /* the user's words that are not searched */
	size_t nother;

	struct entry *v;
	size_t n, cap;
	double t0;
	bool progress;
	size_t asked;
	struct loader warm; /* keeps the plugins loaded for the children */
};

static bool config_eq(const struct config *a, const struct config *b)
{
	return memcmp(a->v, b->v, sizeof a->v) == 0;
}

static struct entry *find(struct tune *t, const struct config *c)
{
	for (size_t k = 0; k < t->n; k++)
		if (config_eq(&t->v[k].c, c))
			return &t->v[k];
	return NULL;
}

/* The flags of c, in the order of dim_flag, then the user's others. */
static char *flags_text(const struct tune *t, const struct config *c)
{
	size_t cap = 256, len = 0;
	char *s = xmalloc(cap);
	s[0] = '\0';
	for (int d = 0; d < D_COUNT + (int)t->nother; d++) {
		char word[256];
		if (d < D_COUNT) {
			if (is_threshold(d))
				snprintf(word, sizeof word, "--%s=%" PRId64, dim_flag[d], c->v[d]);
			else
				snprintf(word, sizeof word, "--%s=%s", dim_flag[d],
				         c->v[d] ? "true" : "false");
		}
		const char *w = d < D_COUNT ? word : t->other_flags[d - D_COUNT];
		size_t wl = strlen(w);
		while (len + wl + 2 > cap)
			s = xrealloc(s, cap *= 2);
		if (len)
			s[len++] = ' ';
		memcpy(s + len, w, wl + 1);
		len += wl;
	}
	return s;
}

/* ---- one evaluation, in a child ---- */

extern const char xla_gpu_pipeline_text[];

static uint64_t stat_value(const struct stats *st, const char *pass, const char *name,
                           bool *found)
{
	for (size_t k = 0; k < st->n; k++)
		if (strcmp(st->v[k].pass, pass) == 0 && strcmp(st->v[k].name, name) == 0) {
			*found = true;
			return st->v[k].hi ? UINT64_MAX : st->v[k].lo;
		}
	return 0;
}

static struct result evaluate_here(const struct tune *t, const struct config *c)
{
	struct result r = {EXIT_INPUT, 0, 0, 0};
	struct pipeline pl;
	if (!pipeline_read_text("<built-in xla-gpu.ini>", NULL, xla_gpu_pipeline_text,
	                        strlen(xla_gpu_pipeline_text), &pl)) {
		pipeline_free(&pl);
		return r;
	}
	char *flags = flags_text(t, c);
	struct xla_flags xf;
	xla_flags_init(&xf);
	int status = xla_flags_read(&xf, NULL, flags) ? EXIT_OK : EXIT_INPUT;
	free(flags);
	if (status == EXIT_OK)
		status = xla_flags_apply(&xf, &pl, false);
	for (size_t k = 0; k < t->noverrides && status == EXIT_OK; k++)
		status = pipeline_override(&pl, t->overrides[k], "-O");
	if (status == EXIT_OK)
		status = pipeline_memory_fraction_from_env(&pl);
	struct loader ld;
	loader_init(&ld, pl.plugin_dir, t->plugin_dirs, t->nplugin_dirs);
	ld.allow_insecure = t->allow_insecure;
	if (status == EXIT_OK)
		status = loader_resolve(&ld, &pl);
	pl_diags *diags = pl_diags_new();
	if (!diags)
		status = EXIT_INPUT;
	if (status == EXIT_OK)
		status = runner_configure(&pl, diags, false, 1);
	if (status == EXIT_OK) {
		struct run_options ro = {false, false, 1};
		status = runner_run(&pl, t->module, &ro);
	}
	if (status == EXIT_OK) {
		struct stats st;
		stats_collect(&pl, &st);
		bool a = false, b = false, p = false;
		r.step_ns = stat_value(&st, "ScheduleEstimate", "step_ns", &a);
		r.exposed_ns = stat_value(&st, "ScheduleEstimate", "exposed_comm_ns", &b);
		r.peak_bytes = stat_value(&st, "ScheduleEstimate", "step_peak_bytes", &p);
		stats_free(&st);
		if (!a)
			status = EXIT_PASS;
		(void)b;
		(void)p;
	}
	r.status = status;
	runner_finish(&pl);
	pl_diags_free(diags);
	loader_free(&ld);
	xla_flags_free(&xf);
	pipeline_free(&pl);
	return r;
}

/* ---- the pool of children ---- */

struct child {
	pid_t pid;
	int fd;
	size_t index; /* of the entry it evaluates */
};

static bool write_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w;
		n -= (size_t)w;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t n)
{
	char *b = p;
	while (n) {
		ssize_t r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		b += r;
		n -= (size_t)r;
	}
	return true;
}

static bool spawn(struct tune *t, size_t index, struct child *ch)
{
	int fds[2];
	if (pipe(fds) != 0)
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		/* the child says nothing: its messages would repeat the parent's */
		host_quiet = true;
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0) {
			dup2(devnull, STDERR_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		struct result r = evaluate_here(t, &t->v[index].c);
		_exit(write_all(fds[1], &r, sizeof r) ? 0 : 1);
	}
	close(fds[1]);
	ch->pid = pid;
	ch->fd = fds[0];
	ch->index = index;
	return true;
}

static void reap(struct tune *t, struct child *ch)
{
	struct result r = {EXIT_PASS, 0, 0, 0};
	if (!read_all(ch->fd, &r, sizeof r))
		r.status = EXIT_PASS; /* the child died: a pass crashed */
	close(ch->fd);
	int ws;
	while (waitpid(ch->pid, &ws, 0) < 0 && errno == EINTR)
		;
	t->v[ch->index].r = r;
	t->v[ch->index].done = true;
}

static double elapsed(const struct tune *t)
{
	return now_seconds() - t->t0;
}

static bool out_of_budget(const struct tune *t)
{
	if (t->budget > 0 && (long)t->n >= t->budget)
		return true;
	return t->time_limit > 0 && elapsed(t) >= t->time_limit;
}

static void show_progress(struct tune *t, size_t done)
{
	if (!t->progress || elapsed(t) < 1.0)
		return;
	fprintf(stderr, "\rpassline tune: %zu configurations evaluated (%.1f s)", done,
	        elapsed(t));
	fflush(stderr);
}

/* Evaluates the entries from first on, up to t->jobs at a time. */
static int run_batch(struct tune *t, size_t first)
{
	size_t next = first, running = 0;
	unsigned jobs = t->jobs ? t->jobs : 1;
	struct child *ch = xcalloc(jobs, sizeof *ch);
	int status = EXIT_OK;
	while (next < t->n || running) {
		while (running < jobs && next < t->n) {
			if (!spawn(t, next, &ch[running])) {
				host_error("cannot start a process: %s", strerror(errno));
				status = EXIT_INPUT;
				next = t->n;
				break;
			}
			running++;
			next++;
		}
		if (!running)
			break;
		struct pollfd pf[64];
		for (size_t k = 0; k < running; k++) {
			pf[k].fd = ch[k].fd;
			pf[k].events = POLLIN;
			pf[k].revents = 0;
		}
		if (poll(pf, (nfds_t)running, -1) < 0 && errno != EINTR) {
			status = EXIT_INPUT;
			break;
		}
		for (size_t k = 0; k < running;) {
			if (pf[k].revents) {
				reap(t, &ch[k]);
				ch[k] = ch[running - 1];
				pf[k] = pf[running - 1];
				running--;
				size_t done = 0;
				for (size_t j = 0; j < t->n; j++)
					done += t->v[j].done;
				show_progress(t, done);
			} else {
				k++;
			}
		}
	}
	for (size_t k = 0; k < running; k++)
		reap(t, &ch[k]);
	free(ch);
	return status;
}

/* Asks for c (and evaluates it with the rest of its batch later); the
 * entry, or NULL when the budget is spent. */
static struct entry *ask(struct tune *t, const struct config *c)
{
	struct entry *e = find(t, c);
	if (e)
		return e;
	if (out_of_budget(t))
		return NULL;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	e = &t->v[t->n++];
	memset(e, 0, sizeof *e);
	e->c = *c;
	e->order = (unsigned)t->asked++;
	return e;
}

static bool fits(const struct tune *t, const struct entry *e)
{
	return e->done && e->r.status == EXIT_OK && e->r.peak_bytes <= t->memory_limit;
}

/* Whether a is better than b: fits first, then the lower step, then the
 * lower peak, then the earlier asked (a stable order). */
static bool better(const struct tune *t, const struct entry *a, const struct entry *b)
{
	if (!b)
		return a->done && a->r.status == EXIT_OK;
	if (fits(t, a) != fits(t, b))
		return fits(t, a);
	bool ra = a->done && a->r.status == EXIT_OK, rb = b->done && b->r.status == EXIT_OK;
	if (ra != rb)
		return ra;
	if (!ra)
		return a->order < b->order;
	if (!fits(t, a) && a->r.peak_bytes != b->r.peak_bytes)
		return a->r.peak_bytes < b->r.peak_bytes; /* neither fits: toward one that does */
	if (a->r.step_ns != b->r.step_ns)
		return a->r.step_ns < b->r.step_ns;
	if (a->r.peak_bytes != b->r.peak_bytes)
		return a->r.peak_bytes < b->r.peak_bytes;
	return a->order < b->order;
}

/* The values flag d takes in the search. */
static size_t dim_values(const struct tune *t, int d, int64_t *out)
{
	size_t n = 0;
	if (!is_threshold(d)) {
		out[n++] = 0;
		out[n++] = 1;
		return n;
	}
	bool have_default = false;
	for (int p = POW_MIN; p <= POW_MAX; p++) {
		out[n] = (int64_t)1 << p;
		have_default |= out[n] == t->xla_default.v[d];
		n++;
	}
	if (!have_default)
		out[n++] = t->xla_default.v[d];
	return n;
}

/* One round of coordinate descent from *best; true when it moved. */
static int descend(struct tune *t, struct config *best, bool *moved)
{
	*moved = false;
	for (int d = 0; d < D_COUNT; d++) {
		int64_t vals[POW_MAX - POW_MIN + 3];
		size_t nv = dim_values(t, d, vals);
		size_t first = t->n;
		for (size_t k = 0; k < nv; k++) {
			struct config c = *best;
			c.v[d] = vals[k];
			if (!ask(t, &c))
				break;
		}
		int status = run_batch(t, first);
		if (status != EXIT_OK)
			return status;
		struct entry *b = find(t, best);
		for (size_t k = 0; k < nv; k++) {
			struct config c = *best;
			c.v[d] = vals[k];
			struct entry *e = find(t, &c);
			if (e && e->done && better(t, e, b))
				b = e;
		}
		if (b && !config_eq(&b->c, best)) {
			*best = b->c;
			*moved = true;
		}
	}
	return EXIT_OK;
}

/* The thresholds a power of two up and down from each of best's. */
static int local_grid(struct tune *t, const struct config *best)
{
	size_t first = t->n;
	for (int a = -1; a <= 1; a++)
		for (int b = -1; b <= 1; b++)
			for (int c = -1; c <= 1; c++) {
				int step[NUM_THRESHOLDS] = {a, b, c};
				struct config x = *best;
				bool ok = true;
				for (int d = 0; d < NUM_THRESHOLDS; d++) {
					int64_t v = x.v[d];
					if (step[d] > 0)
						v = v > (INT64_MAX >> 1) ? 0 : v * 2;
					else if (step[d] < 0)
						v /= 2;
					if (v < ((int64_t)1 << POW_MIN) || v > ((int64_t)1 << POW_MAX))
						ok = false;
					x.v[d] = v;
				}
				if (ok && !ask(t, &x))
					goto out;
			}
out:
	return run_batch(t, first);
}

static int search(struct tune *t)
{
	/* the two starting points first, so that both are always evaluated */
	struct entry *cur = ask(t, &t->current);
	cur->current = true;
	ask(t, &t->xla_default);
	int status = run_batch(t, 0);
	struct config starts[2] = {t->current, t->xla_default};
	for (int s = 0; s < 2 && status == EXIT_OK; s++) {
		if (s == 1 && config_eq(&starts[0], &starts[1]))
			break;
		struct config best = starts[s];
		bool moved = true;
		for (int round = 0; moved && round < 8 && status == EXIT_OK && !out_of_budget(t);
		     round++)
			status = descend(t, &best, &moved);
	}
	if (status == EXIT_OK && !out_of_budget(t)) {
		struct entry *b = NULL;
		for (size_t k = 0; k < t->n; k++)
			if (better(t, &t->v[k], b))
				b = &t->v[k];
		if (b) {
			struct config best = b->c;
			status = local_grid(t, &best);
		}
	}
	if (t->progress && elapsed(t) >= 1.0)
		fputc('\n', stderr);
	return status;
}

/* ---- output ---- */

static const struct tune *sort_ctx;

static int cmp_rank(const void *pa, const void *pb)
{
	const struct entry *a = *(const struct entry *const *)pa;
	const struct entry *b = *(const struct entry *const *)pb;
	if (better(sort_ctx, a, b))
		return -1;
	if (better(sort_ctx, b, a))
		return 1;
	return 0;
}

/* Those that ran, by step, then peak, then when asked for. */
static int cmp_step(const void *pa, const void *pb)
{
	const struct entry *a = *(const struct entry *const *)pa;
	const struct entry *b = *(const struct entry *const *)pb;
	bool ra = a->r.status == EXIT_OK, rb = b->r.status == EXIT_OK;
	if (ra != rb)
		return ra ? -1 : 1;
	if (a->r.step_ns != b->r.step_ns)
		return a->r.step_ns < b->r.step_ns ? -1 : 1;
	if (a->r.peak_bytes != b->r.peak_bytes)
		return a->r.peak_bytes < b->r.peak_bytes ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void print_ms(FILE *out, uint64_t ns)
{
	fprintf(out, "%12.1f", (double)ns / 1e6);
}

static void print_gb(FILE *out, uint64_t bytes)
{
	fprintf(out, "%10.2f", (double)bytes / 1e9);
}

/* The flags of e that differ from the user's, as words. */
static void print_diff(FILE *out, const struct tune *t, const struct entry *e)
{
	bool any = false;
	for (int d = 0; d < D_COUNT; d++) {
		if (e->c.v[d] == t->current.v[d])
			continue;
		if (is_threshold(d))
			fprintf(out, "%s--%s=%" PRId64, any ? " " : "", dim_flag[d], e->c.v[d]);
		else
			fprintf(out, "%s--%s=%s", any ? " " : "", dim_flag[d],
			        e->c.v[d] ? "true" : "false");
		any = true;
	}
	if (!any)
		fputs("(your flags)", out);
}

static int write_json(const struct tune *t, struct entry **ranked, size_t n)
{
	struct atomic_file af;
	if (!atomic_open(&af, t->json))
		return EXIT_INPUT;
	FILE *out = af.fp;
	fprintf(out, "{\n  \"input\": ");
	json_string(out, t->input);
	if (t->cost_model) {
		fputs(",\n  \"cost_model\": ", out);
		cost_model_print_json(out, t->cost_model);
	}
	fprintf(out, ",\n  \"memory_limit_bytes\": %" PRIu64 ",\n  \"configurations\": [", t->memory_limit);
	for (size_t k = 0; k < n; k++) {
		const struct entry *e = ranked[k];
		char *flags = flags_text(t, &e->c);
		fprintf(out, "%s\n    {\"xla_flags\": ", k ? "," : "");
		json_string(out, flags);
		free(flags);
		if (e->r.status == EXIT_OK)
			fprintf(out,
			        ", \"step_ns\": %" PRIu64 ", \"exposed_comm_ns\": %" PRIu64
			        ", \"peak_bytes\": %" PRIu64 ", \"fits\": %s",
			        e->r.step_ns, e->r.exposed_ns, e->r.peak_bytes,
			        fits(t, e) ? "true" : "false");
		else
			fprintf(out, ", \"failed\": true");
		fprintf(out, ", \"current\": %s}", e->current ? "true" : "false");
	}
	fprintf(out, "\n  ]\n}\n");
	if (fflush(out) != 0 || ferror(out)) {
		atomic_abort(&af);
		host_error("%s: cannot write", t->json);
		return EXIT_INPUT;
	}
	return atomic_commit(&af) ? EXIT_OK : EXIT_INPUT;
}

static int report(struct tune *t)
{
	struct entry **ranked = xcalloc(t->n ? t->n : 1, sizeof *ranked);
	for (size_t k = 0; k < t->n; k++)
		ranked[k] = &t->v[k];
	sort_ctx = t;
	qsort(ranked, t->n, sizeof *ranked, cmp_rank);
	size_t nfit = 0, cur_rank = 0;
	const struct entry *cur = NULL;
	for (size_t k = 0; k < t->n; k++) {
		nfit += fits(t, ranked[k]);
		if (ranked[k]->current) {
			cur = ranked[k];
			cur_rank = k + 1;
		}
	}
	FILE *out = stdout;
	if (t->memory_limit == UINT64_MAX)
		fprintf(out, "passline tune: %zu configurations evaluated (no memory limit)\n", t->n);
	else
		fprintf(out, "passline tune: %zu configurations evaluated, %zu fit in %.2f GB\n", t->n,
		        nfit, (double)t->memory_limit / 1e9);
	if (!nfit) {
		fprintf(out, "no configuration fits the memory limit\n");
	} else {
		uint64_t best = ranked[0]->r.step_ns;
		fprintf(out, "\n%4s %12s %12s %10s  %s\n", "rank", "step_ms", "exposed_ms", "peak_GB",
		        "flags that differ from yours");
		for (size_t k = 0; k < nfit && k < t->top; k++) {
			const struct entry *e = ranked[k];
			bool tie = k > 0 && (double)(e->r.step_ns - best) <= t->tie_percent / 100 * (double)best;
			fprintf(out, "%3zu%c", k + 1, tie ? '=' : ' ');
			print_ms(out, e->r.step_ns);
			fputc(' ', out);
			print_ms(out, e->r.exposed_ns);
			fputc(' ', out);
			print_gb(out, e->r.peak_bytes);
			fputs("  ", out);
			print_diff(out, t, e);
			fputc('\n', out);
		}
		fprintf(out, "('=': within %.1f%% of the best, the cost model's own error: a tie)\n",
		        t->tie_percent);
	}
	{
		/* the Pareto front: no other is both faster and smaller */
		fprintf(out, "\nstep time against memory (the Pareto front):\n");
		struct entry **by_step = xcalloc(t->n ? t->n : 1, sizeof *by_step);
		memcpy(by_step, ranked, t->n * sizeof *by_step);
		qsort(by_step, t->n, sizeof *by_step, cmp_step);
		uint64_t best_peak = UINT64_MAX;
		for (size_t k = 0; k < t->n; k++) {
			const struct entry *e = by_step[k];
			if (e->r.status != EXIT_OK || e->r.peak_bytes >= best_peak)
				continue;
			best_peak = e->r.peak_bytes;
			fputs("    ", out);
			print_ms(out, e->r.step_ns);
			fputc(' ', out);
			print_gb(out, e->r.peak_bytes);
			fprintf(out, "%s  ", fits(t, e) ? "" : " (over)");
			print_diff(out, t, e);
			fputc('\n', out);
		}
		free(by_step);
	}
	if (cur) {
		fprintf(out, "\nyour flags: ");
		if (cur->r.status != EXIT_OK)
			fprintf(out, "failed to run\n");
		else if (!fits(t, cur))
			fprintf(out, "%.1f ms, peak %.2f GB: over the memory limit\n",
			        (double)cur->r.step_ns / 1e6, (double)cur->r.peak_bytes / 1e9);
		else
			fprintf(out, "%.1f ms, peak %.2f GB: rank %zu of %zu%s\n",
			        (double)cur->r.step_ns / 1e6, (double)cur->r.peak_bytes / 1e9, cur_rank,
			        nfit,
			        nfit && (double)(cur->r.step_ns - ranked[0]->r.step_ns) <=
			                        t->tie_percent / 100 * (double)ranked[0]->r.step_ns
			                ? " (a tie with the best: within the cost model's error)"
			                : "");
	}
	if (nfit) {
		char *flags = flags_text(t, &ranked[0]->c);
		fprintf(out, "XLA_FLAGS=\"%s\"\n", flags);
		free(flags);
	}
	int status = EXIT_OK;
	if (fflush(out) != 0 || ferror(out))
		status = EXIT_INPUT;
	if (status == EXIT_OK && t->json)
		status = write_json(t, ranked, t->n);
	free(ranked);
	return status;
}

/* ---- the command line ---- */

static void tune_usage(FILE *out)
{
	fputs("usage: passline tune [options] INPUT\n"
	      "Search XLA's collective flags for the fastest predicted step that fits in\n"
	      "memory: each configuration runs the built-in conf/xla-gpu.ini on its own\n"
	      "copy of INPUT (XLA HLO or .pir, - for standard input).\n"
	      "\n"
	      "      --xla-flags STRING  your flags (default: $XLA_FLAGS): the search starts\n"
	      "                          from them and from XLA's defaults, and keeps the\n"
	      "                          flags it does not search\n"
	      "  -O KEY=VALUE            cost_model.KEY=VALUE or PASS.KEY=VALUE, as passline -O\n"
	      "      --memory-limit SIZE the most a configuration may use (bytes, or with a\n"
	      "                          unit: kB MB GB TB, KiB MiB GiB TiB; default: the\n"
	      "                          cost model's device_memory_gb times\n"
	      "                          $XLA_PYTHON_CLIENT_MEM_FRACTION, else 0.75)\n"
	      "      --budget N          evaluate at most N configurations (default 400)\n"
	      "      --time SECONDS      stop asking for more after SECONDS\n"
	      "  -j, --jobs N            evaluate N configurations at once (default: the\n"
	      "                          processors online)\n"
	      "      --top N             rows of the ranked table (default 10)\n"
	      "      --tie PERCENT       mark configurations within PERCENT of the best as a\n"
	      "                          tie (default 5: the cost model's own error)\n"
	      "      --json FILE         every configuration evaluated, as JSON (- for stdout)\n"
	      "      --input-format FMT  pir or hlo (default: from the name or the text)\n"
	      "      --plugin-dir DIR    search DIR for plugins (repeatable)\n"
	      "      --allow-insecure-plugins\n"
	      "                          load plugins from world-writable files or folders\n"
	      "  -q, --quiet             no progress line\n"
	      "  -h, --help              show this help and exit\n"
	      "\n"
	      "The last line is XLA_FLAGS=\"...\": the complete flags of the fastest\n"
	      "configuration that fits. Exit status: 0 success, 1 an error in the input\n"
	      "or the flags, 2 usage, 3 a plugin could not be loaded, 4 a pass failed.\n",
	      out);
}

static _Noreturn void tune_usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "passline tune: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	fprintf(stderr, "Try 'passline tune --help'.\n");
	exit(EXIT_USAGE);
}

/* SIZE: bytes, or a number with a unit (powers of ten or of two). */
static bool parse_size(const char *text, uint64_t *out)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {
		{"", 1},          {"B", 1},         {"kB", 1e3},       {"KB", 1e3},
		{"MB", 1e6},      {"GB", 1e9},      {"TB", 1e12},      {"KiB", 1024.0},
		{"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
	};
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !(v >= 0))
		return false;
	while (*end == ' ')
		end++;
	for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
		if (strcmp(end, units[k].unit) == 0) {
			double b = v * units[k].scale;
			if (b >= 18446744073709551615.0)
				return false;
			*out = (uint64_t)(b + 0.5);
			return true;
		}
	return false;
}

static long parse_count(const char *text, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end || errno || v < 1)
		tune_usage_error(what, text);
	return v;
}

enum {
	TOPT_XLA_FLAGS = 256,
	TOPT_MEMORY,
	TOPT_BUDGET,
	TOPT_TIME,
	TOPT_TOP,
	TOPT_TIE,
	TOPT_JSON,
	TOPT_INPUT_FORMAT,
	TOPT_PLUGIN_DIR,
	TOPT_INSECURE
};

static void parse_tune_cli(int argc, char **argv, struct tune *t)
{
	static const struct option longopts[] = {
		{"xla-flags", required_argument, NULL, TOPT_XLA_FLAGS},
		{"memory-limit", required_argument, NULL, TOPT_MEMORY},
		{"budget", required_argument, NULL, TOPT_BUDGET},
		{"time", required_argument, NULL, TOPT_TIME},
		{"jobs", required_argument, NULL, 'j'},
		{"top", required_argument, NULL, TOPT_TOP},
		{"tie", required_argument, NULL, TOPT_TIE},
		{"json", required_argument, NULL, TOPT_JSON},
		{"input-format", required_argument, NULL, TOPT_INPUT_FORMAT},
		{"plugin-dir", required_argument, NULL, TOPT_PLUGIN_DIR},
		{"allow-insecure-plugins", no_argument, NULL, TOPT_INSECURE},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	t->budget = 400;
	t->top = 10;
	t->tie_percent = 5;
	t->user_flags = host_secure_getenv("XLA_FLAGS");
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	t->jobs = n > 0 ? (unsigned)(n > 64 ? 64 : n) : 1;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "O:j:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case TOPT_XLA_FLAGS:
			t->user_flags = optarg;
			break;
		case 'O':
			t->overrides = xrealloc(t->overrides, (t->noverrides + 1) * sizeof *t->overrides);
			t->overrides[t->noverrides++] = optarg;
			break;
		case TOPT_MEMORY:
			if (!parse_size(optarg, &t->memory_limit))
				tune_usage_error("--memory-limit needs a size such as 75GB or 64GiB", optarg);
			t->memory_limit_given = true;
			break;
		case TOPT_BUDGET:
			t->budget = parse_count(optarg, "--budget needs a positive number");
			break;
		case TOPT_TIME: {
			char *end;
			t->time_limit = strtod(optarg, &end);
			if (end == optarg || *end || !(t->time_limit > 0))
				tune_usage_error("--time needs a positive number of seconds", optarg);
			break;
		}
		case 'j': {
			long j = parse_count(optarg, "-j needs a positive number");
			t->jobs = (unsigned)(j > 64 ? 64 : j);
			break;
		}
		case TOPT_TOP:
			t->top = (size_t)parse_count(optarg, "--top needs a positive number");
			break;
		case TOPT_TIE: {
			char *end;
			t->tie_percent = strtod(optarg, &end);
			if (end == optarg || *end || !(t->tie_percent >= 0))
				tune_usage_error("--tie needs a percentage", optarg);
			break;
		}
		case TOPT_JSON:
			t->json = optarg;
			break;
		case TOPT_INPUT_FORMAT:
			if (strcmp(optarg, "pir") != 0 && strcmp(optarg, "hlo") != 0)
				tune_usage_error("--input-format is pir or hlo", optarg);
			t->input_format = optarg;
			break;
		case TOPT_PLUGIN_DIR:
			t->plugin_dirs =
				xrealloc(t->plugin_dirs, (t->nplugin_dirs + 1) * sizeof *t->plugin_dirs);
			t->plugin_dirs[t->nplugin_dirs++] = optarg;
			break;
		case TOPT_INSECURE:
			t->allow_insecure = true;
			break;
		case 'q':
			t->quiet = true;
			break;
		case 'h':
			tune_usage(stdout);
			exit(EXIT_OK);
		default:
			fprintf(stderr, "Try 'passline tune --help'.\n");
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		tune_usage_error("missing INPUT (an HLO or .pir file, or - for standard input)", NULL);
	t->input = argv[optind++];
	if (optind < argc)
		tune_usage_error("unexpected argument", argv[optind]);
	if (t->json && strcmp(t->json, "-") == 0)
		tune_usage_error("--json - would share standard output with the table; name a file",
		                 NULL);
}

/* ---- the configurations of the flags ---- */

static int flag_index(const char *name)
{
	for (size_t k = 0; k < xla_flags_count(); k++)
		if (strcmp(xla_flag_name(k), name) == 0)
			return (int)k;
	return -1;
}

static bool truthy(const char *v)
{
	return v && (strcmp(v, "true") == 0 || strcmp(v, "on") == 0 || strcmp(v, "1") == 0);
}

/* The searched flags as xf has them in force (given, else XLA's). A
 * pipelining mode (xla_gpu_pipeline_KIND=on|off) wins over the boolean,
 * as it does in XLA. */
static void config_of(const struct xla_flags *xf, struct config *c)
{
	static const char *const modes[D_COUNT] = {
		[D_PIPE_AG] = "xla_gpu_pipeline_all_gather",
		[D_PIPE_RS] = "xla_gpu_pipeline_reduce_scatter",
		[D_PIPE_AR] = "xla_gpu_pipeline_all_reduce",
	};
	for (int d = 0; d < D_COUNT; d++) {
		int k = flag_index(dim_flag[d]);
		const char *v = k >= 0 ? xla_flag_value(xf, (size_t)k) : NULL;
		if (is_threshold(d)) {
			c->v[d] = v ? strtoll(v, NULL, 10) : 0;
			continue;
		}
		c->v[d] = truthy(v);
		int m = modes[d] ? flag_index(modes[d]) : -1;
		const char *mv = m >= 0 ? xla_flag_value(xf, (size_t)m) : NULL;
		if (mv && strcmp(mv, "on") == 0)
			c->v[d] = 1;
		else if (mv && strcmp(mv, "off") == 0)
			c->v[d] = 0;
	}
}

/* Whether a word of the user's flags sets one the search decides. */
static bool searched_word(const char *w)
{
	while (*w == '-')
		w++;
	size_t n = strcspn(w, "=");
	static const char *const also[] = {"xla_gpu_pipeline_all_gather",
	                                   "xla_gpu_pipeline_reduce_scatter",
	                                   "xla_gpu_pipeline_all_reduce"};
	for (int d = 0; d < D_COUNT; d++)
		if (strlen(dim_flag[d]) == n && strncmp(dim_flag[d], w, n) == 0)
			return true;
	for (size_t k = 0; k < sizeof also / sizeof also[0]; k++)
		if (strlen(also[k]) == n && strncmp(also[k], w, n) == 0)
			return true;
	/* XLA's --noNAME form of a boolean */
	if (n > 2 && strncmp(w, "no", 2) == 0)
		for (int d = 0; d < D_COUNT; d++)
			if (strlen(dim_flag[d]) == n - 2 && strncmp(dim_flag[d], w + 2, n - 2) == 0)
				return true;
	return false;
}

/* The user's words that the search does not decide, kept in every
 * configuration's flags (split at white space; a value in quotes keeps
 * its blanks). */
static void keep_other_words(struct tune *t, const char *text)
{
	const char *p = text ? text : "";
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		const char *b = p;
		char quote = 0;
		while (*p && (quote || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"' || *p == '\'')
				quote = quote == *p ? 0 : (quote ? quote : *p);
			p++;
		}
		char *w = xmalloc((size_t)(p - b) + 1);
		memcpy(w, b, (size_t)(p - b));
		w[p - b] = '\0';
		if (searched_word(w)) {
			free(w);
			continue;
		}
		t->other_flags = xrealloc(t->other_flags, (t->nother + 1) * sizeof *t->other_flags);
		t->other_flags[t->nother++] = w;
	}
}

/* Whether the module has a collective any configuration could change. */
static bool has_collectives(const pl_module *m)
{
	for (size_t f = 0; f < pl_module_num_funcs(m); f++) {
		const pl_func *fn = pl_module_func_at(m, f);
		for (const pl_inst *i = pl_func_first_inst(fn); i; i = pl_inst_next(i))
			if (pl_inst_traits(i) & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START))
				return true;
	}
	return false;
}

/* Loads the plugins, and works out the memory limit: --memory-limit,
 * else the device's memory times the fraction JAX lets XLA take. */
static int prepare(struct tune *t)
{
	struct pipeline pl;
	if (!pipeline_read_text("<built-in xla-gpu.ini>", NULL, xla_gpu_pipeline_text,
	                        strlen(xla_gpu_pipeline_text), &pl)) {
		pipeline_free(&pl);
		return EXIT_INPUT;
	}
	int status = EXIT_OK;
	for (size_t k = 0; k < t->noverrides && status == EXIT_OK; k++)
		status = pipeline_override(&pl, t->overrides[k], "-O");
	/* Every plugin is loaded once here, before any child is forked: a
	 * missing one is reported once, and the children find them mapped. */
	loader_init(&t->warm, pl.plugin_dir, t->plugin_dirs, t->nplugin_dirs);
	t->warm.allow_insecure = t->allow_insecure;
	if (status == EXIT_OK)
		status = loader_resolve(&t->warm, &pl);
	double gb = 0, fraction = 0.75;
	if (status == EXIT_OK)
		status = pipeline_memory_fraction_from_env(&pl);
	/* the model the configurations run under (h100 when none is named) */
	const pl_cost_model *cm = status == EXIT_OK ? pipeline_run_cost_model(&pl) : NULL;
	if (cm && t->json)
		t->cost_model = pipeline_take_run_cost_model(&pl);
	if (cm) {
		(void)pl_cost_model_get_double(cm, "device_memory_gb", &gb);
		(void)pl_cost_model_get_double(cm, "memory_fraction", &fraction);
	}
	pipeline_free(&pl);
	if (status != EXIT_OK || t->memory_limit_given)
		return status;
	if (gb > 0) {
		t->memory_limit = (uint64_t)(gb * 1e9 * fraction + 0.5);
	} else {
		t->memory_limit = UINT64_MAX;
		host_warning("the cost model names no device memory (cost_model.device_memory_gb, "
		             "or a preset): no memory limit; give --memory-limit");
	}
	return EXIT_OK;
}

int tune_main(int argc, char **argv)
{
	struct tune t;
	memset(&t, 0, sizeof t);
	parse_tune_cli(argc, argv, &t);
	t.progress = !t.quiet && isatty(STDERR_FILENO);
	host_quiet = t.quiet;

	int status = prepare(&t);
	struct xla_flags defaults;
	xla_flags_init(&defaults);
	xla_flags_init(&t.user);
	if (status == EXIT_OK && !xla_flags_read(&defaults, NULL, NULL))
		status = EXIT_INPUT;
	if (status == EXIT_OK && !xla_flags_read(&t.user, NULL, t.user_flags))
		status = EXIT_INPUT;
	if (status == EXIT_OK) {
		config_of(&defaults, &t.xla_default);
		config_of(&t.user, &t.current);
		keep_other_words(&t, t.user_flags);
	}
	if (status == EXIT_OK) {
		pl_diags *d = pl_diags_new();
		bool hlo;
		int rc = d ? host_read_module(t.input, t.input_format, 1, d, &t.module, &hlo) : PL_ENOMEM;
		if (rc == PL_OK)
			rc = pl_verify_module(t.module, d);
		host_print_diags(d);
		pl_diags_free(d);
		if (rc != PL_OK)
			status = EXIT_INPUT;
	}
	if (status == EXIT_OK && !has_collectives(t.module)) {
		printf("passline tune: %s has no collectives: XLA's collective flags change "
		       "nothing\n",
		       t.input);
	} else if (status == EXIT_OK) {
		t.t0 = now_seconds();
		status = search(&t);
		if (status == EXIT_OK) {
			const struct entry *cur = find(&t, &t.current);
			if (cur && cur->r.status != EXIT_OK) {
				/* the user's own configuration fails: say why, once */
				host_quiet = false;
				struct result r = evaluate_here(&t, &t.current);
				status = r.status != EXIT_OK ? r.status : EXIT_PASS;
			}
		}
		if (status == EXIT_OK)
			status = report(&t);
	}
	pl_module_free(t.module);
	xla_flags_free(&defaults);
	xla_flags_free(&t.user);
	for (size_t k = 0; k < t.nother; k++)
		free(t.other_flags[k]);
	free(t.other_flags);
	free(t.v);
	free(t.overrides);
	free(t.plugin_dirs);
	pl_cost_model_free(t.cost_model);
	loader_free(&t.warm);
	return status;
}
