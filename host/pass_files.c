/* SPDX-License-Identifier: MIT */
/* host/pass_files.c — the files passes hand over (pl_ctx_write_file),
 * written under the same rules as the module: relative to the output's
 * folder, never outside it, and only when the whole run succeeded. They
 * are opened and written with the other outputs and committed with them.
 * With the module on standard output they have no folder: they are named
 * in a warning and dropped. */
#include "host.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The last write of each name, over every step in pipeline order. */
struct wanted {
	const char *name, *pass;
	const void *data;
	size_t len;
};

static size_t collect(const struct pipeline *pl, struct wanted **out)
{
	size_t n = 0, cap = 0;
	struct wanted *v = NULL;
	for (size_t k = 0; k < pl->nsteps; k++) {
		const struct step *s = &pl->steps[k];
		if (!s->ctx)
			continue;
		for (size_t j = 0; j < pl_ctx_num_files(s->ctx); j++) {
			struct wanted w = {pl_ctx_file_name(s->ctx, j), s->pass, NULL, 0};
			w.data = pl_ctx_file_data(s->ctx, j, &w.len);
			size_t at = 0;
			while (at < n && strcmp(v[at].name, w.name) != 0)
				at++;
			if (at == n) {
				if (n == cap) {
					cap = cap ? 2 * cap : 4;
					v = xrealloc(v, cap * sizeof *v);
				}
				n++;
			}
			v[at] = w;
		}
	}
	*out = v;
	return n;
}

/* Whether a and b name one file: the same folder (resolved) and the same
 * last component. Only for refusing a pass's file over -o or the stats. */
static bool same_file(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	if (strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b) != 0)
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

bool pass_files_open(struct pass_files *pf, const struct pipeline *pl, const char *dir,
                     const char *const *taken, size_t ntaken)
{
	memset(pf, 0, sizeof *pf);
	struct wanted *w;
	size_t n = collect(pl, &w);
	if (!n) {
		free(w);
		return true;
	}
	pf->v = xcalloc(n, sizeof *pf->v);
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		char why[128];
		char *path = path_join(dir, w[k].name);
		if (pl_file_name_check(w[k].name, why, sizeof why) != PL_OK) {
			host_error("pass %s: cannot write file '%s': %s", w[k].pass, w[k].name, why);
			ok = false;
		}
		for (size_t t = 0; ok && t < ntaken; t++)
			if (taken[t] && strcmp(taken[t], "-") != 0 && same_file(path, taken[t])) {
				host_error("pass %s: cannot write file '%s': it is the output %s",
				           w[k].pass, w[k].name, taken[t]);
				ok = false;
			}
		if (ok && !atomic_open(&pf->v[k], path)) {
			host_error("pass %s: file '%s' not written", w[k].pass, w[k].name);
			ok = false;
		}
		free(path);
		if (!ok)
			break;
		pf->n++;
		if (w[k].len && fwrite(w[k].data, 1, w[k].len, pf->v[k].fp) != w[k].len) {
			host_error("pass %s: cannot write file '%s'", w[k].pass, w[k].name);
			ok = false;
		}
	}
	free(w);
	if (!ok)
		pass_files_abort(pf);
	return ok;
}

void pass_files_skip(const struct pipeline *pl)
{
	struct wanted *w;
	size_t n = collect(pl, &w);
	if (n) {
		size_t len = 1;
		for (size_t k = 0; k < n; k++)
			len += strlen(w[k].name) + strlen(w[k].pass) + 6;
		char *list = xmalloc(len), *p = list;
		for (size_t k = 0; k < n; k++)
			p += sprintf(p, "%s%s (%s)", k ? ", " : "", w[k].name, w[k].pass);
		host_warning("not written, as the module goes to standard output (give -o FILE "
		             "and they go beside it): %s", list);
		free(list);
	}
	free(w);
}

bool pass_files_commit(struct pass_files *pf)
{
	bool ok = true;
	for (size_t k = 0; k < pf->n; k++)
		ok = atomic_commit(&pf->v[k]) && ok;
	free(pf->v);
	memset(pf, 0, sizeof *pf);
	return ok;
}

void pass_files_abort(struct pass_files *pf)
{
	for (size_t k = 0; k < pf->n; k++)
		atomic_abort(&pf->v[k]);
	free(pf->v);
	memset(pf, 0, sizeof *pf);
}
