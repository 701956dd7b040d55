/* SPDX-License-Identifier: MIT */
/* tests/unit/testutil.h — shared by the Check suites: a main that prints
 * TAP (one line per test, counted by automake's TAP driver), and helpers to
 * parse text and read diagnostics. */
#ifndef PL_TESTUTIL_H
#define PL_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/passline.h>

/* Parses text (named "test.pir"); returns the module or NULL, leaving the
 * diagnostics in *diags (a new list the caller frees). */
static inline pl_module *tu_parse(const char *text, pl_diags **diags)
{
	pl_module *m = NULL;
	*diags = pl_diags_new();
	pl_parse_buffer(text, strlen(text), "test.pir", *diags, &m);
	return m;
}

/* The first diagnostic, formatted, or "" when there is none. */
static inline const char *tu_first_diag(pl_diags *d)
{
	if (pl_diags_count(d) == 0)
		return "";
	return pl_diags_format(d, 0);
}

/* The bytes of the file at path, NUL-terminated (malloc'd), their count
 * in *len when len is not NULL; NULL when the file cannot be opened. */
static inline char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, cap);
			ck_assert_ptr_nonnull(nb);
			buf = nb;
		}
		size_t got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got == 0)
			break;
	}
	ck_assert(!ferror(f));
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static int tu_write_sb(void *ud, const char *bytes, size_t len)
{
	char **s = ud;
	size_t old = *s ? strlen(*s) : 0;
	char *n = realloc(*s, old + len + 1);
	if (!n)
		return -1;
	memcpy(n + old, bytes, len);
	n[old + len] = '\0';
	*s = n;
	return 0;
}

/* The printed module as a malloc'd string. */
static inline char *tu_print(pl_module *m)
{
	char *s = calloc(1, 1);
	if (pl_print_module(m, tu_write_sb, &s) != PL_OK) {
		free(s);
		return NULL;
	}
	return s;
}

#define TU_MAIN(make_suite)                                  \
	int main(void)                                       \
	{                                                    \
		SRunner *sr = srunner_create(make_suite());  \
		srunner_set_tap(sr, "-");                    \
		srunner_run_all(sr, CK_SILENT);              \
		int failed = srunner_ntests_failed(sr);      \
		srunner_free(sr);                            \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS; \
	}

#endif
