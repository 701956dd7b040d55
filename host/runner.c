/* SPDX-License-Identifier: MIT */
/* host/runner.c — configuring, creating, running and finishing the steps
 * of a pipeline. */
#include "host.h"

#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

static void option_error(const struct step *s, const struct setting *set, const char *msg)
{
	if (set->line)
		host_error_at(set->file, set->line, "[pass %s] %s", s->pass, msg);
	else
		host_error("%s: [pass %s] %s", set->file, s->pass, msg);
}

static void unknown_option(const struct step *s, const struct setting *set)
{
	size_t n = pl_pass_desc_num_options(s->desc);
	const char **names = xcalloc(n + 2, sizeof *names);
	for (size_t k = 0; k < n; k++)
		names[k] = pl_pass_desc_option(s->desc, k)->name;
	names[n] = "enabled";
	names[n + 1] = "plugin";
	const char *near = closest_match(set->key, names, n + 2);
	char *detail = near ? xasprintf("unknown option '%s' (did you mean '%s'?)", set->key, near)
	                    : xasprintf("unknown option '%s' (see passline --list-passes)",
	                                set->key);
	option_error(s, set, detail);
	free(detail);
	free(names);
}

/* The pipeline's trip counts, then the step's own: its option trip_counts. */
static int give_loops(const struct pipeline *pl, struct step *s)
{
	const char *own = NULL;
	for (size_t j = 0; j < s->nsettings; j++)
		if (strcmp(s->settings[j].key, "trip_counts") == 0)
			own = s->settings[j].value;
	char *value = loops_option_value(pl, own), err[512];
	int rc = value ? pl_ctx_set_option(s->ctx, "trip_counts", value, err, sizeof err) : PL_OK;
	free(value);
	if (rc != PL_OK) {
		host_error_decl(s->file, s->line, "[pass %s] cannot take the trip counts of [loops]: %s",
		                s->pass, rc == PL_ENOMEM ? "out of memory" : err);
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

int runner_configure(struct pipeline *pl, pl_diags *diags, bool remarks, unsigned threads)
{
	int status = EXIT_OK;
	pl->diags = diags;
	const pl_cost_model *cm = pipeline_run_cost_model(pl);
	for (size_t k = 0; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		if (!s->enabled || !s->desc)
			continue;
		/* a read-only pass that may run beside others writes its
		 * messages to a list of its own, passed on in order */
		if (threads >= 2 && (pl_pass_desc_flags(s->desc) & PL_PASS_READ_ONLY))
			s->held = held_new();
		s->ctx = pl_ctx_new(s->desc, s->held ? held_list(s->held) : diags);
		if (!s->ctx) {
			host_error("out of memory");
			return EXIT_INPUT;
		}
		pl_ctx_set_remarks_enabled(s->ctx, remarks);
		pl_ctx_set_cost_model(s->ctx, cm);
		for (size_t j = 0; j < s->nsettings; j++) {
			struct setting *set = &s->settings[j];
			char err[512], *why = NULL;
			int rc = pl_ctx_set_option(s->ctx, set->key, set->value, err, sizeof err);
			if (rc == PL_ENOTFOUND) {
				unknown_option(s, set);
				status = EXIT_INPUT;
			} else if (rc != PL_OK) {
				char *detail = xasprintf("option '%s': %s", set->key, err);
				option_error(s, set, detail);
				free(detail);
				status = EXIT_INPUT;
			} else if (strcmp(set->key, "trip_counts") == 0 && step_counts_loops(s) &&
			           !loops_list_valid(set->value, &why)) {
				char *detail = xasprintf("option 'trip_counts': %s", why);
				option_error(s, set, detail);
				free(detail);
				free(why);
				status = EXIT_INPUT;
			} else {
				/* keep the canonical spelling for --print-pipeline */
				char *canon = NULL;
				const pl_option_decl *d = pl_pass_desc_find_option(s->desc, set->key);
				if (d && pl_option_validate(d, set->value, &canon, NULL, 0) == PL_OK) {
					free(set->value);
					set->value = canon;
				}
			}
		}
		if (status == EXIT_OK && pl->nloops && step_counts_loops(s))
			status = give_loops(pl, s);
	}
	return status;
}

/* Shows the step's report lines; they stay in its context for
 * --stats-json. */
static void print_reports(struct step *s)
{
	if (!host_quiet)
		for (size_t j = 0; j < pl_ctx_num_reports(s->ctx); j++)
			fprintf(stderr, "%s\n", pl_ctx_report_at(s->ctx, j));
}

/* Why a step failed: its status, or the error it reported while it
 * returned PL_OK (an error reported is a failure all the same). */
static const char *failure(int rc)
{
	return rc != PL_OK ? pl_status_string(rc) : "it reported an error";
}

/* Passes on what step s said while it ran (held when it may have run on
 * another thread), shows its reports, and checks it: EXIT_OK or
 * EXIT_PASS. */
static int step_done(struct step *s, pl_diags *diags, int rc, size_t errors)
{
	if (s->held)
		held_release(s->held, diags);
	print_reports(s);
	if (rc != PL_OK || pl_ctx_num_errors(s->ctx) != errors) {
		host_error("pass %s failed: %s", s->pass, failure(rc));
		return EXIT_PASS;
	}
	return EXIT_OK;
}

/* The enabled steps from k on that may run side by side, into group; how
 * many. Steps that are disabled do not end a group. Stops at the first
 * enabled step that may write. */
static size_t read_only_run(struct pipeline *pl, size_t k, struct step **group, size_t *end)
{
	size_t n = 0;
	for (; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		if (!s->enabled)
			continue;
		if (!step_read_only(s))
			break;
		group[n++] = s;
	}
	*end = k;
	return n;
}

/* Runs the group of n read-only steps side by side, then takes their
 * messages, reports and failures in pipeline order. The module's lazily
 * filled memo of predicated counts is filled first, so that the passes
 * only read it. */
static int run_group(struct step **group, size_t n, pl_module *m, pl_diags *diags,
                     unsigned threads)
{
	if (pl_module_prepare_counts(m) != PL_OK)
		threads = 1; /* out of memory: the memo may still be written */
	group_run(group, n, m, threads);
#ifdef HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
	for (size_t k = 0; k < n; k++) {
		int status = step_done(group[k], diags, group[k]->rc, group[k]->errors_before);
		if (status != EXIT_OK)
			return status; /* the later passes' words are dropped, as
			                * if they had not run */
	}
	return EXIT_OK;
}

int runner_run(struct pipeline *pl, pl_module *m, const struct run_options *opts)
{
	pl_diags *vd = pl_diags_new();
	if (!vd) {
		host_error("out of memory");
		return EXIT_INPUT;
	}
	int status = EXIT_OK;
	for (size_t k = 0; k < pl->nsteps && status == EXIT_OK; k++) {
		struct step *s = &pl->steps[k];
		if (!s->enabled || !s->desc->create)
			continue;
		crash_set_current(s->pass, s->plugin->path);
		size_t errors = pl_ctx_num_errors(s->ctx);
		int rc = s->desc->create(s->ctx, &s->state);
		crash_set_current(NULL, NULL);
		if (s->held)
			held_release(s->held, pl->diags);
		s->created = true;
		if (rc == PL_EINVAL) { /* an option value the pass does not take */
			host_error_decl(s->file, s->line, "pass %s rejected its options", s->pass);
			s->created = false;
			status = EXIT_INPUT;
		} else if (rc != PL_OK || pl_ctx_num_errors(s->ctx) != errors) {
			host_error("pass %s failed to start: %s", s->pass, failure(rc));
			s->created = false;
			status = EXIT_PASS;
		}
	}
	/* side by side only when nothing runs between two passes */
	bool side_by_side = opts->threads >= 2 && !opts->verify_each && !opts->print_after_all;
	struct step **group = xcalloc(pl->nsteps ? pl->nsteps : 1, sizeof *group);
	for (size_t k = 0; k < pl->nsteps && status == EXIT_OK; k++) {
		struct step *s = &pl->steps[k];
		if (!s->enabled)
			continue;
		size_t end, n = side_by_side ? read_only_run(pl, k, group, &end) : 0;
		if (n >= 2) {
			status = run_group(group, n, m, pl->diags, opts->threads);
			k = end - 1;
			continue;
		}
		crash_set_current(s->pass, s->plugin->path);
		size_t errors = pl_ctx_num_errors(s->ctx);
		double t0 = now_seconds();
		int rc = s->desc->run(s->ctx, s->state, m);
		s->seconds += now_seconds() - t0;
#ifdef HAVE_MALLOC_TRIM
		/* What the pass freed goes back to the system: the C library
		 * keeps it otherwise, and the next pass's memory would come on
		 * top of it, raising the peak by every pass's scratch at once. */
		malloc_trim(0);
#endif
		crash_set_current(NULL, NULL);
		status = step_done(s, pl->diags, rc, errors);
		if (status != EXIT_OK)
			break;
		if (opts->verify_each) {
			pl_diags_clear(vd);
			if (pl_verify_module(m, vd) != PL_OK) {
				host_print_diags(vd);
				host_error("the IR is invalid after pass %s", s->pass);
				status = EXIT_PASS;
				break;
			}
		}
		if (opts->print_after_all) {
			fprintf(stderr, "; *** IR after %s ***\n", s->pass);
			if (pl_print_module_file(m, stderr) != PL_OK) {
				host_error("cannot print the IR after %s", s->pass);
				status = EXIT_PASS;
			}
		}
	}
	free(group);
	pl_diags_free(vd);
	return status;
}

void runner_finish(struct pipeline *pl)
{
	for (size_t k = 0; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		if (s->created && s->desc->destroy) {
			crash_set_current(s->pass, s->plugin->path);
			s->desc->destroy(s->ctx, s->state);
			crash_set_current(NULL, NULL);
		}
		s->created = false;
		pl_ctx_free(s->ctx);
		s->ctx = NULL;
		held_free(s->held);
		s->held = NULL;
	}
}
