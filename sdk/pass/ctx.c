/* SPDX-License-Identifier: MIT */
/* sdk/pass/ctx.c — the pass context: options, statistics, messages and report
 * lines of one pipeline step. */
#include "ir/internal.h"
#include <passline/grow.h>

#include <stdio.h>
#include <stdlib.h>

struct opt_value {
	const pl_option_decl *decl;
	bool b;
	int64_t i;
	char *s; /* canonical text; the value itself for strings and enums */
};

/* A file the pass handed to the host: its name and a copy of its bytes. */
struct ctx_file {
	char *name;
	void *data;
	size_t len;
};

struct pl_pass_ctx {
	const pl_pass_desc *pass;
	pl_diags *diags;
	bool remarks;
	size_t nopts;
	struct opt_value *opts;
	size_t nstats;
	const pl_stat_decl **stat_decls;
	pl_u128 *stats;
	char **reports;
	size_t nreports, reports_cap;
	size_t nerrors; /* reported through this context: each fails the pass */
	const pl_cost_model *cost_model; /* the host's; NULL: the defaults */
	struct ctx_file *files; /* in order of first write */
	size_t nfiles, files_cap;
};

/* Decodes an already validated canonical text into v. */
static int set_value(struct opt_value *v, char *canon)
{
	free(v->s);
	v->s = canon;
	switch (v->decl->type) {
	case PL_OPT_BOOL: v->b = strcmp(canon, "true") == 0; break;
	case PL_OPT_INT: v->i = strtoll(canon, NULL, 10); break;
	case PL_OPT_BYTES: return pl_parse_bytes(canon, &v->i);
	default: break;
	}
	return PL_OK;
}

pl_pass_ctx *pl_ctx_new(const pl_pass_desc *p, pl_diags *diags)
{
	pl_pass_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->pass = p;
	c->diags = diags;
	c->nopts = pl_pass_desc_num_options(p);
	c->nstats = pl_pass_desc_num_stats(p);
	c->opts = calloc(c->nopts ? c->nopts : 1, sizeof *c->opts);
	c->stat_decls = calloc(c->nstats ? c->nstats : 1, sizeof *c->stat_decls);
	c->stats = calloc(c->nstats ? c->nstats : 1, sizeof *c->stats);
	if (!c->opts || !c->stat_decls || !c->stats)
		goto fail;
	for (size_t k = 0; k < c->nopts; k++) {
		c->opts[k].decl = pl_pass_desc_option(p, k);
		char *canon;
		if (pl_option_validate(c->opts[k].decl, c->opts[k].decl->default_value, &canon,
		                       NULL, 0))
			goto fail;
		set_value(&c->opts[k], canon);
	}
	for (size_t k = 0; k < c->nstats; k++)
		c->stat_decls[k] = pl_pass_desc_stat(p, k);
	return c;
fail:
	pl_ctx_free(c);
	return NULL;
}

void pl_ctx_free(pl_pass_ctx *c)
{
	if (!c)
		return;
	for (size_t k = 0; c->opts && k < c->nopts; k++)
		free(c->opts[k].s);
	free(c->opts);
	free(c->stat_decls);
	free(c->stats);
	pl_ctx_clear_reports(c);
	free(c->reports);
	pl_ctx_clear_files(c);
	free(c->files);
	free(c);
}

const char *pl_ctx_pass_name(const pl_pass_ctx *c) { return c->pass->name; }

static struct opt_value *find_opt(const pl_pass_ctx *c, const char *name)
{
	for (size_t k = 0; k < c->nopts; k++)
		if (strcmp(c->opts[k].decl->name, name) == 0)
			return &c->opts[k];
	return NULL;
}

int pl_ctx_set_option(pl_pass_ctx *c, const char *name, const char *text, char *err,
                      size_t errlen)
{
	struct opt_value *v = find_opt(c, name);
	if (!v) {
		if (err && errlen)
			snprintf(err, errlen, "unknown option '%s'", name);
		return PL_ENOTFOUND;
	}
	char *canon;
	int rc = pl_option_validate(v->decl, text, &canon, err, errlen);
	if (rc)
		return rc;
	return set_value(v, canon);
}

void pl_ctx_set_remarks_enabled(pl_pass_ctx *c, bool on) { c->remarks = on; }

void pl_ctx_set_cost_model(pl_pass_ctx *c, const pl_cost_model *cm) { c->cost_model = cm; }

const pl_cost_model *pl_ctx_cost_model(const pl_pass_ctx *c)
{
	return c->cost_model ? c->cost_model : pl_cost_model_default_();
}
bool pl_ctx_remarks_enabled(const pl_pass_ctx *c) { return c->remarks; }

int pl_ctx_get_bool(const pl_pass_ctx *c, const char *name, bool *out)
{
	const struct opt_value *v = find_opt(c, name);
	if (!v)
		return PL_ENOTFOUND;
	if (v->decl->type != PL_OPT_BOOL)
		return PL_ETYPE;
	*out = v->b;
	return PL_OK;
}

int pl_ctx_get_int(const pl_pass_ctx *c, const char *name, int64_t *out)
{
	const struct opt_value *v = find_opt(c, name);
	if (!v)
		return PL_ENOTFOUND;
	if (v->decl->type != PL_OPT_INT && v->decl->type != PL_OPT_BYTES)
		return PL_ETYPE;
	*out = v->i;
	return PL_OK;
}

int pl_ctx_get_string(const pl_pass_ctx *c, const char *name, const char **out)
{
	const struct opt_value *v = find_opt(c, name);
	if (!v)
		return PL_ENOTFOUND;
	if (v->decl->type != PL_OPT_STRING && v->decl->type != PL_OPT_ENUM)
		return PL_ETYPE;
	*out = v->s;
	return PL_OK;
}

/* ---- statistics ---- */

int pl_ctx_stat_add_wide(pl_pass_ctx *c, const char *stat, uint64_t hi, uint64_t lo)
{
	for (size_t k = 0; stat && k < c->nstats; k++) {
		if (strcmp(c->stat_decls[k]->name, stat) != 0)
			continue;
		pl_u128 add = pl_u128_make(hi, lo), sum = c->stats[k] + add;
		if (sum < c->stats[k])
			return PL_EOVERFLOW;
		c->stats[k] = sum;
		return PL_OK;
	}
	/* the status alone would leave the user with "not found" */
	pl_ctx_error(c, NULL, "undeclared statistic '%s' (a pass adds only to the statistics "
	             "it declares)", stat ? stat : "(null)");
	return PL_ENOTFOUND;
}

int pl_ctx_stat_add(pl_pass_ctx *c, const char *stat, uint64_t delta)
{
	return pl_ctx_stat_add_wide(c, stat, 0, delta);
}

size_t pl_ctx_num_errors(const pl_pass_ctx *c) { return c->nerrors; }

size_t pl_ctx_num_stats(const pl_pass_ctx *c) { return c->nstats; }
const char *pl_ctx_stat_name(const pl_pass_ctx *c, size_t i) { return c->stat_decls[i]->name; }

const char *pl_ctx_stat_description(const pl_pass_ctx *c, size_t i)
{
	const char *d = c->stat_decls[i]->description;
	return d ? d : "";
}

void pl_ctx_stat_value(const pl_pass_ctx *c, size_t i, uint64_t *hi, uint64_t *lo)
{
	*hi = (uint64_t)(c->stats[i] >> 64);
	*lo = (uint64_t)c->stats[i];
}

/* ---- messages and reports ---- */

static void message(pl_pass_ctx *c, pl_severity sev, const pl_inst *at, const char *fmt,
                    va_list ap)
{
	struct pl_strbuf sb = {0};
	pl_sb_vprintf(&sb, fmt, ap);
	const char *file = NULL;
	unsigned line = 0, col = 0;
	if (at) {
		file = pl_inst_func_(at)->m->source_name;
		line = at->line;
		col = at->col;
	}
	pl_diags_add(c->diags, sev, file, line, col, "%s: %s", c->pass->name,
	             sb.failed || !sb.data ? "out of memory" : sb.data);
	pl_sb_free(&sb);
}

void pl_ctx_remark(pl_pass_ctx *c, const pl_inst *at, const char *fmt, ...)
{
	if (!c->remarks)
		return;
	va_list ap;
	va_start(ap, fmt);
	message(c, PL_SEV_REMARK, at, fmt, ap);
	va_end(ap);
}

void pl_ctx_warning(pl_pass_ctx *c, const pl_inst *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(c, PL_SEV_WARNING, at, fmt, ap);
	va_end(ap);
}

void pl_ctx_error(pl_pass_ctx *c, const pl_inst *at, const char *fmt, ...)
{
	c->nerrors++;
	va_list ap;
	va_start(ap, fmt);
	message(c, PL_SEV_ERROR, at, fmt, ap);
	va_end(ap);
}

int pl_ctx_report(pl_pass_ctx *c, const char *fmt, ...)
{
	if (!PL_GROW(c->reports, c->reports_cap, c->nreports + 1))
		return PL_ENOMEM;
	struct pl_strbuf sb = {0};
	va_list ap;
	va_start(ap, fmt);
	pl_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (sb.failed) {
		pl_sb_free(&sb);
		return PL_ENOMEM;
	}
	c->reports[c->nreports++] = sb.data ? sb.data : strdup("");
	return PL_OK;
}

size_t pl_ctx_num_reports(const pl_pass_ctx *c) { return c->nreports; }
const char *pl_ctx_report_at(const pl_pass_ctx *c, size_t i) { return c->reports[i]; }

void pl_ctx_clear_reports(pl_pass_ctx *c)
{
	for (size_t k = 0; k < c->nreports; k++)
		free(c->reports[k]);
	c->nreports = 0;
}

/* ---- files the pass writes ---- */

int pl_ctx_write_file(pl_pass_ctx *c, const char *name, const void *data, size_t len)
{
	char why[128];
	if (pl_file_name_check(name, why, sizeof why) != PL_OK) {
		pl_ctx_error(c, NULL, "cannot write file '%s': %s", name ? name : "(null)", why);
		return PL_EINVAL;
	}
	if (len && !data)
		return PL_EINVAL;
	char *norm = pl_file_name_normalize_(name);
	void *copy = malloc(len ? len : 1);
	if (!norm || !copy)
		goto nomem;
	if (len)
		memcpy(copy, data, len);
	for (size_t k = 0; k < c->nfiles; k++)
		if (strcmp(c->files[k].name, norm) == 0) {
			free(norm);
			free(c->files[k].data);
			c->files[k].data = copy;
			c->files[k].len = len;
			return PL_OK;
		}
	if (!PL_GROW(c->files, c->files_cap, c->nfiles + 1))
		goto nomem;
	c->files[c->nfiles++] = (struct ctx_file){norm, copy, len};
	return PL_OK;
nomem:
	free(norm);
	free(copy);
	return PL_ENOMEM;
}

size_t pl_ctx_num_files(const pl_pass_ctx *c) { return c->nfiles; }
const char *pl_ctx_file_name(const pl_pass_ctx *c, size_t i) { return c->files[i].name; }

const void *pl_ctx_file_data(const pl_pass_ctx *c, size_t i, size_t *len)
{
	*len = c->files[i].len;
	return c->files[i].data;
}

void pl_ctx_clear_files(pl_pass_ctx *c)
{
	for (size_t k = 0; k < c->nfiles; k++) {
		free(c->files[k].name);
		free(c->files[k].data);
	}
	c->nfiles = 0;
}
