/* SPDX-License-Identifier: MIT */
/* host/report.c — statistics (the --stats table and --stats-json) and the
 * --time-passes table. */
#include "host.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void stats_collect(const struct pipeline *pl, struct stats *st)
{
	memset(st, 0, sizeof *st);
	for (size_t k = 0; k < pl->nsteps; k++) {
		const struct step *s = &pl->steps[k];
		if (!s->enabled || !s->ctx)
			continue;
		size_t n = pl_ctx_num_stats(s->ctx);
		for (size_t j = 0; j < n; j++) {
			const char *name = pl_ctx_stat_name(s->ctx, j);
			uint64_t hi, lo;
			pl_ctx_stat_value(s->ctx, j, &hi, &lo);
			struct stat_total *t = NULL;
			for (size_t i = 0; i < st->n; i++)
				if (strcmp(st->v[i].pass, s->pass) == 0 && strcmp(st->v[i].name, name) == 0)
					t = &st->v[i];
			if (!t) {
				st->v = xrealloc(st->v, (st->n + 1) * sizeof *st->v);
				t = &st->v[st->n++];
				t->pass = s->pass;
				t->name = name;
				t->description = pl_ctx_stat_description(s->ctx, j);
				t->hi = t->lo = 0;
			}
			if (pl_u128_add(&t->hi, &t->lo, hi, lo) != PL_OK)
				host_warning("statistic %s.%s passed 2^128 - 1 and stays at the last "
				             "value", s->pass, name);
		}
	}
}

void stats_free(struct stats *st)
{
	free(st->v);
	memset(st, 0, sizeof *st);
}

/* value, PASS.stat (the name --stats-json and --list-passes give) and
 * description, in aligned columns */
void stats_print_table(const struct stats *st, FILE *out)
{
	size_t wv = 1, wn = 1;
	char buf[PL_U128_DEC_BUFSIZE];
	for (size_t i = 0; i < st->n; i++) {
		size_t lv = strlen(pl_u128_format(st->v[i].hi, st->v[i].lo, buf));
		size_t ln = strlen(st->v[i].pass) + 1 + strlen(st->v[i].name);
		if (lv > wv)
			wv = lv;
		if (ln > wn)
			wn = ln;
	}
	fputs("===== passline: statistics =====\n", out);
	for (size_t i = 0; i < st->n; i++) {
		const char *d = st->v[i].description;
		int ln = (int)(strlen(st->v[i].pass) + 1 + strlen(st->v[i].name));
		fprintf(out, "%*s  %s.%s%*s%s%s\n", (int)wv,
		        pl_u128_format(st->v[i].hi, st->v[i].lo, buf), st->v[i].pass, st->v[i].name,
		        *d ? (int)wn - ln : 0, "", *d ? "  " : "", d);
	}
}

/* ", \"reports\": {PASS: [LINE, ...], ...}": the report lines of every
 * step that wrote some, in pipeline order (a pass that runs twice has its
 * lines under one name, in order); nothing when no step wrote one. */
static void reports_print_json(const struct pipeline *pl, FILE *out)
{
	bool any = false;
	for (size_t k = 0; k < pl->nsteps; k++) {
		const struct step *s = &pl->steps[k];
		if (!s->enabled || !s->ctx || !pl_ctx_num_reports(s->ctx))
			continue;
		bool seen = false; /* this pass's lines were written with an earlier step's */
		for (size_t j = 0; j < k && !seen; j++)
			seen = pl->steps[j].enabled && pl->steps[j].ctx &&
			       pl_ctx_num_reports(pl->steps[j].ctx) &&
			       strcmp(pl->steps[j].pass, s->pass) == 0;
		if (seen)
			continue;
		fputs(any ? ", " : ", \"reports\": {", out);
		any = true;
		json_string(out, s->pass);
		fputs(": [", out);
		bool first = true;
		for (size_t j = k; j < pl->nsteps; j++) {
			const struct step *t = &pl->steps[j];
			if (!t->enabled || !t->ctx || strcmp(t->pass, s->pass) != 0)
				continue;
			for (size_t r = 0; r < pl_ctx_num_reports(t->ctx); r++) {
				if (!first)
					fputs(", ", out);
				first = false;
				json_string(out, pl_ctx_report_at(t->ctx, r));
			}
		}
		fputc(']', out);
	}
	if (any)
		fputc('}', out);
}

/* ", \"xla_flags\": {NAME: VALUE, ...}, \"xla_flags_not_modelled\": [...]":
 * every modelled flag's value in force, when XLA flags were given (their
 * source is left out: the same flags give the same statistics). */
static void xla_flags_print_json(const struct pipeline *pl, FILE *out)
{
	const struct xla_flags *xf = pl->xla;
	if (!xf || !xf->given)
		return;
	fputs(", \"xla_flags\": {", out);
	for (size_t k = 0; k < xla_flags_count(); k++) {
		if (k)
			fputs(", ", out);
		json_string(out, xla_flag_name(k));
		fputs(": ", out);
		json_string(out, xla_flag_value(xf, k));
	}
	fputs("}, \"xla_flags_not_modelled\": [", out);
	for (size_t k = 0; k < xf->nunmodelled; k++) {
		if (k)
			fputs(", ", out);
		json_string(out, xf->unmodelled[k]);
	}
	fputc(']', out);
}

void cost_model_print_json(FILE *out, const pl_cost_model *cm)
{
	bool exact = pl_cost_model_is_exact(cm);
	const char *preset = pl_cost_model_preset(cm);
	fputs("{\"preset\": ", out);
	if (preset)
		json_string(out, preset);
	else
		fputs("null", out);
	fprintf(out, ", \"exact\": %s", exact ? "true" : "false");
	for (size_t k = 0; k < pl_cost_model_num_params(); k++) {
		const char *name = pl_cost_model_param_name(k);
		int kind = pl_cost_model_param_kind(k);
		char value[64];
		if (kind == PL_COST_KEY_TEXT || (kind == PL_COST_KEY_ALIAS) != exact ||
		    pl_cost_model_format(cm, name, value, sizeof value) != PL_OK)
			continue;
		fputs(", ", out);
		json_string(out, name);
		fprintf(out, ": %s", value);
	}
	fputc('}', out);
}

void cost_model_print_line(const struct pipeline *pl, FILE *out)
{
	const pl_cost_model *cm = pl->run_cost_model ? pl->run_cost_model : pl->cost_model;
	if (!cm)
		return;
	const char *preset = pl_cost_model_preset(cm);
	if (preset)
		fprintf(out, "cost model: %s (every key in force: --stats-json)\n", preset);
	else if (pl_cost_model_is_exact(cm))
		fputs("cost model: the exact integer model (its keys: --stats-json)\n", out);
}

void stats_print_json(const struct stats *st, const struct pipeline *pl, const char *input,
                      FILE *out)
{
	char buf[PL_U128_DEC_BUFSIZE];
	fputs("{\"input\": ", out);
	json_string(out, input);
	fputs(", \"pipeline\": [", out);
	bool first = true;
	for (size_t k = 0; k < pl->nsteps; k++) {
		if (!pl->steps[k].enabled)
			continue;
		if (!first)
			fputs(", ", out);
		first = false;
		json_string(out, pl->steps[k].pass);
	}
	fputs("], \"stats\": {", out);
	for (size_t i = 0; i < st->n; i++) {
		bool new_pass = i == 0 || strcmp(st->v[i].pass, st->v[i - 1].pass) != 0;
		if (new_pass) {
			if (i)
				fputs("}, ", out);
			json_string(out, st->v[i].pass);
			fputs(": {", out);
		} else {
			fputs(", ", out);
		}
		json_string(out, st->v[i].name);
		fprintf(out, ": %s", pl_u128_format(st->v[i].hi, st->v[i].lo, buf));
	}
	if (st->n)
		fputc('}', out);
	fputc('}', out);
	/* the model in force: its preset (null for the exact integer model),
	 * whether it is that model, and the keys it reads (every key by its
	 * name, or the exact model's four integer keys) */
	const pl_cost_model *cm = pl->run_cost_model ? pl->run_cost_model : pl->cost_model;
	if (cm) {
		fputs(", \"cost_model\": ", out);
		cost_model_print_json(out, cm);
	}
	xla_flags_print_json(pl, out);
	reports_print_json(pl, out);
	if (pl->nwarnings) {
		fputs(", \"warnings\": [", out);
		for (size_t k = 0; k < pl->nwarnings; k++) {
			if (k)
				fputs(", ", out);
			json_string(out, pl->warnings[k]);
		}
		fputc(']', out);
	}
	fputs("}\n", out);
}

void timing_print(const struct pipeline *pl, const struct timing *t, FILE *out)
{
	fputs("===== passline: wall time per phase =====\n", out);
	fprintf(out, "%10.4f s  %s\n", t->read, "read");
	fprintf(out, "%10.4f s  %s\n", t->verify, "verify");
	for (size_t k = 0; k < pl->nsteps; k++)
		if (pl->steps[k].enabled)
			fprintf(out, "%10.4f s  %s\n", pl->steps[k].seconds, pl->steps[k].pass);
	fprintf(out, "%10.4f s  %s\n", t->print, "print");
	fprintf(out, "%10.4f s  %s\n", t->total, "total");
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		double bytes = (double)ru.ru_maxrss * 1024.0;
		fprintf(out, "peak memory: %.1f MiB", bytes / (1024.0 * 1024.0));
		if (t->insts)
			fprintf(out, " (%.1f bytes per instruction read)", bytes / (double)t->insts);
		fputc('\n', out);
	}
}
