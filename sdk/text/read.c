/* SPDX-License-Identifier: MIT */
/* sdk/text/read.c — reading a .pir file, on one thread or two.
 *
 * A regular file is mapped, and the pages behind the instruction being
 * read are given back as the parse goes, a megabyte at a time, so that the
 * text of a large module does not stay resident beside its IR.
 *
 * Given two threads, a text of a megabyte or more is read by two readers
 * at once: the first from the start, the second from the first line after
 * the middle that begins with a value name, as the rest of the function
 * around it (parse.h). When the first reader comes to an instruction that
 * begins exactly there, the second's module is spliced in after it
 * (splice.c) and the read is done. When it does not (the line was inside
 * an instruction written over several lines, say), or the rest does not
 * fit, the first reader reads on alone, so the module and the diagnostics
 * are always what one reader makes of the text.
 */
#include "text/parse.h"
#include "ir/input.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct mapping {
	const char *base;
	size_t len, released, page;
};

static void release_pages(void *ud, const char *upto)
{
	struct mapping *mp = ud;
	const size_t step = 1u << 20;
	/* only a position in the text: a string token's is elsewhere */
	if (upto < mp->base || upto > mp->base + mp->len)
		return;
	size_t off = (size_t)(upto - mp->base);
	if (off < mp->released + 2 * step)
		return;
	size_t to = (off - step) & ~(mp->page - 1);
	madvise((void *)(uintptr_t)(mp->base + mp->released), to - mp->released, MADV_DONTNEED);
	mp->released = to;
}

/* ---- the second reader ---- */

enum { SPLIT_MIN = 1 << 20, SPLIT_SEARCH = 1 << 20 };

struct rest {
	struct pl_parse_job job;
	struct mapping mp;
	pl_module *m;
	int rc;
	pthread_t thread;
	bool started, joined, taken;
};

static void *read_rest(void *arg)
{
	struct rest *r = arg;
	r->rc = pl_parse_job_(&r->job, &r->m);
	return NULL;
}

static void join_rest(struct rest *r)
{
	if (r->started && !r->joined)
		pthread_join(r->thread, NULL);
	r->joined = true;
}

static int take_rest(void *ud, pl_func *f, struct pl_ht *values, uint32_t line)
{
	struct rest *r = ud;
	join_rest(r);
	if (r->rc != PL_OK)
		return 0;
	int rc = pl_splice_rest_(f, values, line, r->m, &r->job);
	r->taken = rc > 0;
	return rc;
}

/* The first '%' that begins a line (after blanks) from text + from on,
 * within SPLIT_SEARCH bytes, and the start of its line in *line; NULL when
 * there is none. */
static const char *split_point(const char *text, size_t len, size_t from, const char **line)
{
	if (from >= len)
		return NULL;
	const char *end = text + len;
	const char *limit = len - from > SPLIT_SEARCH ? text + from + SPLIT_SEARCH : end;
	for (const char *q = memchr(text + from, '\n', len - from); q && q < limit;
	     q = memchr(q + 1, '\n', (size_t)(end - q - 1))) {
		const char *s = q + 1;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s < end && *s == '%') {
			*line = q + 1;
			return s;
		}
	}
	return NULL;
}

/* Text in memory, read on the caller's thread. */
int pl_parse_buffer(const char *text, size_t len, const char *source_name,
                    pl_diags *diags, pl_module **out)
{
	if (!text && len)
		return PL_EINVAL;
	struct pl_parse_job job = {.text = text ? text : "", .len = len,
	                           .source_name = source_name, .diags = diags};
	return pl_parse_job_(&job, out);
}

int pl_parse_text_(const char *text, size_t len, size_t split, const char *name,
                   pl_diags *diags, bool release, bool *split_taken, pl_module **out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct mapping mp = {text, len, 0, page};
	struct pl_parse_job job = {.text = text, .len = len, .source_name = name, .diags = diags,
	                           .release = release ? release_pages : NULL, .release_ud = &mp};
	const char *line = NULL, *at = len <= UINT32_MAX ? split_point(text, len, split, &line) : NULL;
	struct rest *r = at ? calloc(1, sizeof *r) : NULL;
	struct pl_region *region = r ? pl_region_new() : NULL;
	if (r && region && (r->job.diags = pl_diags_new())) {
		job.region = r->job.region = region;
		r->job.text = line;
		r->job.len = (size_t)(text + len - line);
		r->job.source_name = name;
		r->job.rest = true;
		/* its own pages, from the first whole one */
		size_t first = ((size_t)(line - text) + page - 1) & ~(page - 1);
		if (release && first < len) {
			r->mp = (struct mapping){text + first, len - first, 0, page};
			r->job.release = release_pages;
			r->job.release_ud = &r->mp;
		}
		r->started = pthread_create(&r->thread, NULL, read_rest, r) == 0;
		if (r->started) {
			job.stop_at = at;
			job.take_rest = take_rest;
			job.take_ud = r;
		}
	}
	int rc = pl_parse_job_(&job, out);
	if (split_taken)
		*split_taken = r && r->taken;
	if (r) {
		join_rest(r);
		pl_module_free(r->m);
		pl_ht_free(&r->job.holes);
		pl_ht_free(&r->job.cont_values);
		pl_diags_free(r->job.diags);
		free(r);
	}
	pl_region_drop(region);
	return rc;
}

/* ---- files ---- */

static int read_file(const char *path, unsigned threads, pl_diags *diags, pl_module **out)
{
	*out = NULL;
	struct pl_input in;
	int rc = pl_input_read_(path, diags, &in);
	if (rc != PL_OK)
		return rc;
	size_t split = threads > 1 && in.len >= SPLIT_MIN ? in.len / 2 : SIZE_MAX;
	rc = pl_parse_text_(in.text, in.len, split, in.name, diags, in.mapped, NULL, out);
	pl_input_free_(&in);
	return rc;
}

int pl_parse_file(const char *path, pl_diags *diags, pl_module **out)
{
	return read_file(path, 1, diags, out);
}

int pl_parse_file_threads(const char *path, unsigned threads, pl_diags *diags,
                          pl_module **out)
{
	return read_file(path, threads, diags, out);
}
