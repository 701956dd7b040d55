/* SPDX-License-Identifier: MIT */
/* sdk/text/print_threads.c — printing a large module on two threads.
 *
 * The text is cut into parts of PART instructions, inside one function or
 * across several. A second thread formats every other part into a buffer
 * of its own (two buffers, so that it works a part ahead); the calling
 * thread formats the other parts straight to the writer and, in their
 * turn, writes the second thread's. Each thread walks the whole list: it
 * formats its own parts and steps over the other's (whole functions that
 * fit in a part without a walk), so neither waits for the other to find
 * where a part begins, and no walk of the whole module comes first. Each
 * has its own writer state, and the module is only read (its values are
 * named first), so the text is pl_print_module's, byte for byte.
 */
#include "text/print.h"

#include <pthread.h>
#include <stdlib.h>

enum { PART = 4096, MIN_INSTS = 2 * PART };

struct printer {
	const pl_module *m;
	pthread_mutex_t mu;
	pthread_cond_t changed;
	struct slot {
		struct pl_strbuf text;
		bool full;
	} slots[2];      /* part p, odd, goes to slots[p / 2 % 2] */
	struct slot *cur; /* the one the second thread writes */
	bool stop;       /* the calling thread gives up: stop formatting */
	int status;      /* the second thread's: PL_OK or PL_ENOMEM */
};

/* Formats the part at *at (o), or steps over it (o NULL); *at is left
 * where the next one begins. Both threads step the same way. */
static void part(struct out *o, const pl_module *m, struct pl_out_at *at)
{
	const pl_func *const *funcs = (const pl_func *const *)m->funcs;
	if (o) {
		pl_out_part_(o, funcs, m->nfuncs, at, PART);
		return;
	}
	for (size_t n = PART; at->k < m->nfuncs && n; at->k++, at->i = NULL) {
		if (!at->i) {
			size_t units = funcs[at->k]->ninsts ? funcs[at->k]->ninsts : 1;
			if (units <= n) {
				n -= units;
				continue;
			}
			at->i = funcs[at->k]->first;
		}
		for (; at->i && n; n--)
			at->i = pl_inst_next_(at->i);
		if (at->i)
			return;
	}
}

static int to_slot(void *userdata, const char *bytes, size_t len)
{
	struct printer *pr = userdata;
	pl_sb_put(&pr->cur->text, bytes, len);
	return pr->cur->text.failed ? -1 : 0;
}

static void *print_odd(void *arg)
{
	struct printer *pr = arg;
	/* a small buffer: its text goes on into a slot */
	struct out *o = pl_out_new_(to_slot, pr, 1 << 16, true);
	if (!o) {
		pthread_mutex_lock(&pr->mu);
		pr->status = PL_ENOMEM;
		pthread_cond_broadcast(&pr->changed);
		pthread_mutex_unlock(&pr->mu);
	}
	struct pl_out_at at = {0, NULL};
	part(NULL, pr->m, &at); /* part 0 is the calling thread's */
	for (size_t p = 1; at.k < pr->m->nfuncs && o; p += 2) {
		struct slot *s = &pr->slots[p / 2 % 2];
		pthread_mutex_lock(&pr->mu);
		while (s->full && !pr->stop)
			pthread_cond_wait(&pr->changed, &pr->mu);
		bool stop = pr->stop;
		pthread_mutex_unlock(&pr->mu);
		if (stop)
			break;
		s->text.len = 0;
		pr->cur = s;
		part(o, pr->m, &at);
		int rc = pl_out_flush_(o);
		pthread_mutex_lock(&pr->mu);
		if (rc != PL_OK)
			pr->status = PL_ENOMEM;
		s->full = true;
		pthread_cond_broadcast(&pr->changed);
		pthread_mutex_unlock(&pr->mu);
		if (rc != PL_OK)
			break;
		part(NULL, pr->m, &at); /* the next even one */
	}
	if (o)
		pl_out_finish_(o);
	return NULL;
}

/* The calling thread's share: the even parts, and the odd ones written in
 * their turn. */
static int print_even(struct printer *pr, struct out *o, pl_write_fn write, void *userdata)
{
	int rc = PL_OK;
	struct pl_out_at at = {0, NULL};
	for (size_t p = 0; at.k < pr->m->nfuncs && rc == PL_OK; p++) {
		if (p % 2 == 0) {
			part(o, pr->m, &at);
			continue;
		}
		part(NULL, pr->m, &at); /* while the second thread formats it */
		struct slot *s = &pr->slots[p / 2 % 2];
		pthread_mutex_lock(&pr->mu);
		while (!s->full && pr->status == PL_OK)
			pthread_cond_wait(&pr->changed, &pr->mu);
		rc = s->full ? PL_OK : pr->status;
		pthread_mutex_unlock(&pr->mu);
		if (rc == PL_OK && s->text.failed)
			rc = PL_ENOMEM;
		if (rc == PL_OK && (rc = pl_out_flush_(o)) == PL_OK && s->text.len &&
		    write(userdata, s->text.data, s->text.len) != 0)
			rc = PL_EIO;
		pthread_mutex_lock(&pr->mu);
		s->full = false;
		pthread_cond_broadcast(&pr->changed);
		pthread_mutex_unlock(&pr->mu);
	}
	return rc;
}

int pl_print_module_threads(pl_module *m, unsigned threads, pl_write_fn write,
                            void *userdata)
{
	if (threads < 2 || m->ninsts < MIN_INSTS)
		return pl_print_module(m, write, userdata);
	int rc = pl_module_name_values(m);
	if (rc)
		return rc;
	struct printer pr = {.m = m, .status = PL_OK};
	struct out *o = pl_out_new_(write, userdata, PL_OUT_BUF, true);
	pthread_t thread;
	if (!o)
		return PL_ENOMEM;
	pthread_mutex_init(&pr.mu, NULL);
	pthread_cond_init(&pr.changed, NULL);
	bool started = pthread_create(&thread, NULL, print_odd, &pr) == 0;
	if (started) {
		rc = print_even(&pr, o, write, userdata);
		pthread_mutex_lock(&pr.mu);
		pr.stop = true;
		pthread_cond_broadcast(&pr.changed);
		pthread_mutex_unlock(&pr.mu);
		pthread_join(thread, NULL);
	} else {
		pl_out_part_(o, (const pl_func *const *)m->funcs, m->nfuncs,
		             &(struct pl_out_at){0, NULL}, SIZE_MAX);
	}
	int frc = pl_out_finish_(o);
	if (rc == PL_OK)
		rc = frc;
	pthread_cond_destroy(&pr.changed);
	pthread_mutex_destroy(&pr.mu);
	pl_sb_free(&pr.slots[0].text);
	pl_sb_free(&pr.slots[1].text);
	return rc;
}
