/* SPDX-License-Identifier: MIT */
/* sdk/ir/diag.c — the diagnostics list. */
#include "ir/internal.h"
#include <passline/grow.h>

#include <stdio.h>
#include <stdlib.h>

struct pl_diag {
	pl_severity sev;
	char *file;
	unsigned line, col;
	char *msg;
	char *formatted;
};

struct pl_diags {
	struct pl_diag *v;
	size_t n, cap;
	size_t errors;
	size_t dropped;
	pl_diag_handler handler;
	void *handler_data;
};

static const char *const severity_names[] = {"error", "warning", "note", "remark"};

const char *pl_severity_name(pl_severity sev)
{
	if ((unsigned)sev < sizeof severity_names / sizeof *severity_names)
		return severity_names[sev];
	return "unknown";
}

pl_diags *pl_diags_new(void)
{
	return calloc(1, sizeof(pl_diags));
}

void pl_diags_clear(pl_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].msg);
		free(d->v[i].formatted);
	}
	d->n = 0;
	d->errors = 0;
	d->dropped = 0;
}

void pl_diags_free(pl_diags *d)
{
	if (!d)
		return;
	pl_diags_clear(d);
	free(d->v);
	free(d);
}

void pl_diags_set_handler(pl_diags *d, pl_diag_handler handler, void *userdata)
{
	d->handler = handler;
	d->handler_data = userdata;
}

int pl_diags_vadd_(pl_diags *d, pl_severity sev, const char *file,
                   unsigned line, unsigned col, const char *fmt, va_list ap)
{
	if (!d)
		return PL_EINVAL;
	if (sev == PL_SEV_ERROR)
		d->errors++;
	struct pl_strbuf sb = {0};
	pl_sb_vprintf(&sb, fmt, ap);
	if (d->handler) {
		d->handler(d->handler_data, sev, file, line, col,
		           sb.failed ? "out of memory" : sb.data ? sb.data : "");
		pl_sb_free(&sb);
		return PL_OK;
	}
	if (d->n >= PL_DIAGS_MAX_ENTRIES) {
		d->dropped++;
		pl_sb_free(&sb);
		return PL_OK;
	}
	if (!PL_GROW(d->v, d->cap, d->n + 1)) {
		d->dropped++;
		pl_sb_free(&sb);
		return PL_ENOMEM;
	}
	struct pl_diag *e = &d->v[d->n];
	e->sev = sev;
	e->file = file ? strdup(file) : NULL;
	e->line = line;
	e->col = col;
	e->msg = sb.failed ? strdup("out of memory") : sb.data ? sb.data : strdup("");
	if (sb.failed)
		pl_sb_free(&sb);
	e->formatted = NULL;
	if ((file && !e->file) || !e->msg) {
		free(e->file);
		free(e->msg);
		d->dropped++;
		return PL_ENOMEM;
	}
	d->n++;
	return PL_OK;
}

int pl_diags_add(pl_diags *d, pl_severity sev, const char *file, unsigned line,
                 unsigned col, const char *fmt, ...)
{
	if (!d)
		return PL_EINVAL;
	va_list ap;
	va_start(ap, fmt);
	int rc = pl_diags_vadd_(d, sev, file, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

size_t pl_diags_count(const pl_diags *d) { return d ? d->n : 0; }
size_t pl_diags_error_count(const pl_diags *d) { return d ? d->errors : 0; }
size_t pl_diags_dropped(const pl_diags *d) { return d ? d->dropped : 0; }

pl_severity pl_diags_severity(const pl_diags *d, size_t i) { return d->v[i].sev; }
const char *pl_diags_file(const pl_diags *d, size_t i) { return d->v[i].file; }
unsigned pl_diags_line(const pl_diags *d, size_t i) { return d->v[i].line; }
unsigned pl_diags_col(const pl_diags *d, size_t i) { return d->v[i].col; }
const char *pl_diags_message(const pl_diags *d, size_t i) { return d->v[i].msg; }

const char *pl_diags_format(pl_diags *d, size_t i)
{
	struct pl_diag *e = &d->v[i];
	if (e->formatted)
		return e->formatted;
	struct pl_strbuf sb = {0};
	if (e->file) {
		pl_sb_puts(&sb, e->file);
		if (e->line) {
			pl_sb_printf(&sb, ":%u", e->line);
			if (e->col)
				pl_sb_printf(&sb, ":%u", e->col);
		}
		pl_sb_puts(&sb, ": ");
	}
	pl_sb_printf(&sb, "%s: %s", pl_severity_name(e->sev), e->msg);
	if (sb.failed) {
		pl_sb_free(&sb);
		return NULL;
	}
	e->formatted = sb.data;
	return e->formatted;
}
