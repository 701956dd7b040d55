/* SPDX-License-Identifier: MIT */
/* host/util.c — allocation that exits on failure (the host, unlike the
 * library, may exit), messages on standard error, small path helpers. */
#include "host.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool host_quiet;

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("passline: error: out of memory\n", stderr);
		exit(EXIT_INPUT);
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fputs("passline: error: out of memory\n", stderr);
		exit(EXIT_INPUT);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fputs("passline: error: out of memory\n", stderr);
		exit(EXIT_INPUT);
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void host_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("passline: error: ", fmt, ap);
	va_end(ap);
}

void host_warning(const char *fmt, ...)
{
	if (host_quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmessage("passline: warning: ", fmt, ap);
	va_end(ap);
}

void host_remark(const char *fmt, ...)
{
	if (host_quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmessage("passline: remark: ", fmt, ap);
	va_end(ap);
}

static void verror_at(const char *file, unsigned line, const char *fmt, va_list ap)
{
	if (line)
		fprintf(stderr, "%s:%u: error: ", file, line);
	else
		fprintf(stderr, "%s: error: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void host_error_at(const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_at(file, line, fmt, ap);
	va_end(ap);
}

void host_error_decl(const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (line)
		verror_at(file, line, fmt, ap);
	else
		vmessage("passline: error: ", fmt, ap);
	va_end(ap);
}

void host_print_diags(pl_diags *d)
{
	for (size_t i = 0; i < pl_diags_count(d); i++) {
		if (host_quiet && pl_diags_severity(d, i) != PL_SEV_ERROR)
			continue;
		const char *s = pl_diags_format(d, i);
		fprintf(stderr, "%s\n", s ? s : "out of memory");
	}
	if (pl_diags_dropped(d))
		fprintf(stderr, "passline: note: %zu more messages not shown\n",
		        pl_diags_dropped(d));
}

void host_diag_printer(void *unused, pl_severity sev, const char *file, unsigned line,
                       unsigned col, const char *message)
{
	(void)unused;
	if (host_quiet && sev != PL_SEV_ERROR)
		return;
	if (file) {
		fputs(file, stderr);
		if (line) {
			fprintf(stderr, ":%u", line);
			if (col)
				fprintf(stderr, ":%u", col);
		}
		fputs(": ", stderr);
	} else {
		fputs("passline: ", stderr);
	}
	fprintf(stderr, "%s: %s\n", pl_severity_name(sev), message);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *closest_match(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	size_t limit = strlen(word) / 3 + 1;
	if (limit > 3)
		limit = 3;
	for (size_t k = 0; k < n; k++) {
		size_t d = edit_distance(word, candidates[k]);
		if (d <= limit && d < best_d) {
			best = candidates[k];
			best_d = d;
		}
	}
	return best;
}

const char *host_secure_getenv(const char *name)
{
#ifdef HAVE_SECURE_GETENV
	return secure_getenv(name);
#else
	return getuid() == geteuid() && getgid() == getegid() ? getenv(name) : NULL;
#endif
}

char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	size_t n = (size_t)(slash - path);
	char *d = xmalloc(n + 1);
	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

char *path_join(const char *dir, const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	return xasprintf("%s/%s", dir, path);
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}
