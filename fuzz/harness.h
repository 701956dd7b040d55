/* SPDX-License-Identifier: MIT */
/* fuzz/harness.h — shared by the harnesses: printing a module into a
 * growable buffer. */
#ifndef PL_FUZZ_HARNESS_H
#define PL_FUZZ_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>

struct text_buf {
	char *p;
	size_t n, cap;
};

/* A pl_write_fn appending to a struct text_buf. */
static inline int text_buf_append(void *ud, const char *bytes, size_t len)
{
	struct text_buf *b = ud;
	/* grown by doubling: a realloc per append copies the whole buffer
	 * each time under AddressSanitizer, quadratic in the module */
	if (!PL_GROW(b->p, b->cap, b->n + len + 1))
		return -1;
	memcpy(b->p + b->n, bytes, len);
	b->n += len;
	return 0;
}

/* Whether a and b hold the same bytes. */
static inline int text_buf_equal(const struct text_buf *a, const struct text_buf *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
}

#endif
