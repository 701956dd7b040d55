/* SPDX-License-Identifier: MIT */
/* host/runner_group.c — read-only passes side by side. Consecutive steps
 * whose passes declare PL_PASS_READ_ONLY run on up to -j threads while
 * nothing writes the module. Each such step's messages are held back (a
 * diags list of its own whose handler keeps them) and passed on after the
 * group, step by step in pipeline order, with its reports: what the user
 * sees is what one thread gives. */
#include "host.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct held_msg {
	pl_severity sev;
	char *file;
	unsigned line, col;
	char *message;
};

struct held_diags {
	pl_diags *list; /* what the pass's context writes to */
	struct held_msg *v;
	size_t n, cap;
};

static void held_keep(void *ud, pl_severity sev, const char *file, unsigned line,
                      unsigned col, const char *message)
{
	struct held_diags *h = ud;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->v = xrealloc(h->v, h->cap * sizeof *h->v);
	}
	h->v[h->n++] = (struct held_msg){sev, file ? xstrdup(file) : NULL, line, col,
	                                 xstrdup(message)};
}

struct held_diags *held_new(void)
{
	struct held_diags *h = xcalloc(1, sizeof *h);
	h->list = pl_diags_new();
	if (!h->list) {
		free(h);
		return NULL;
	}
	pl_diags_set_handler(h->list, held_keep, h);
	return h;
}

pl_diags *held_list(struct held_diags *h) { return h->list; }

void held_release(struct held_diags *h, pl_diags *to)
{
	for (size_t k = 0; k < h->n; k++) {
		struct held_msg *e = &h->v[k];
		pl_diags_add(to, e->sev, e->file, e->line, e->col, "%s", e->message);
		free(e->file);
		free(e->message);
	}
	h->n = 0;
}

void held_free(struct held_diags *h)
{
	if (!h)
		return;
	for (size_t k = 0; k < h->n; k++) {
		free(h->v[k].file);
		free(h->v[k].message);
	}
	free(h->v);
	pl_diags_free(h->list);
	free(h);
}

bool step_read_only(const struct step *s)
{
	return s->held && (pl_pass_desc_flags(s->desc) & PL_PASS_READ_ONLY);
}

struct group {
	struct step **steps;
	size_t n;
	pl_module *m;
	atomic_size_t next; /* the next step to take */
};

/* Takes steps until none is left: a long pass and two short ones share two
 * threads as well as they can without knowing the passes' times. */
static void *group_worker(void *arg)
{
	struct group *g = arg;
	for (;;) {
		size_t k = atomic_fetch_add(&g->next, 1);
		if (k >= g->n)
			break;
		struct step *s = g->steps[k];
		crash_set_current(s->pass, s->plugin->path);
		s->errors_before = pl_ctx_num_errors(s->ctx);
		double t0 = now_seconds();
		s->rc = s->desc->run(s->ctx, s->state, g->m);
		s->seconds += now_seconds() - t0;
		crash_set_current(NULL, NULL);
	}
	return NULL;
}

void group_run(struct step **steps, size_t n, pl_module *m, unsigned threads)
{
	struct group g = {steps, n, m, 0};
	size_t extra = (threads < n ? threads : n) - 1;
	pthread_t *tid = xcalloc(extra ? extra : 1, sizeof *tid);
	size_t started = 0;
	/* a thread that cannot start leaves its share to the others */
	while (started < extra && pthread_create(&tid[started], NULL, group_worker, &g) == 0)
		started++;
	group_worker(&g);
	for (size_t k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	free(tid);
}
