/* SPDX-License-Identifier: MIT */
/* tests/unit/check_pir_eof.c — .pir text cut short says so: each file
 * below is cut at every byte, and each cut either reads (it ends between
 * functions: past blanks and comments, nothing or a closing '}') or is
 * refused with exactly one message, "file ends ...", placed at the end of
 * the cut text or at the word (or UTF-8 sequence) the cut made the last
 * (it may have been cut short), and naming the construct left open and where it began.
 */
#include "testutil.h"

#include <ctype.h>
#include <stdio.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* text[0..n) less trailing blanks and line comments: its length. */
static size_t trimmed(const char *text, size_t n)
{
	for (;;) {
		while (n && blank(text[n - 1]))
			n--;
		size_t ls = n;
		while (ls && text[ls - 1] != '\n')
			ls--;
		const char *c = NULL;
		for (size_t k = ls; k + 1 < n; k++)
			if (text[k] == '"')
				break; /* "//" in a string is no comment */
			else if (text[k] == '/' && text[k + 1] == '/') {
				c = text + k;
				break;
			}
		if (!c)
			return n;
		n = (size_t)(c - text);
	}
}

/* Whether the cut at n falls between functions. */
static bool between_functions(const char *text, size_t n)
{
	n = trimmed(text, n);
	return !n || text[n - 1] == '}';
}

/* Where text[0..n) ends, and where its last word (one the cut may have
 * cut short) begins. */
static void ends_at(const char *text, size_t n, unsigned *line, unsigned *col, unsigned *wcol)
{
	*line = 1;
	size_t ls = 0;
	for (size_t k = 0; k < n; k++)
		if (text[k] == '\n') {
			++*line;
			ls = k + 1;
		}
	*col = (unsigned)(n - ls) + 1;
	size_t w = n;
	while (w > ls && (isalnum((unsigned char)text[w - 1]) || text[w - 1] == '_' ||
	                  text[w - 1] == '.' || text[w - 1] == '%' || text[w - 1] == '@' ||
	                  text[w - 1] == '-' || text[w - 1] == '+' || text[w - 1] == '/' ||
	                  (unsigned char)text[w - 1] >= 0x80))
		w--;
	*wcol = (unsigned)(w - ls) + 1;
}

/* Cuts text at every byte; returns how many cuts were refused. */
static size_t cut_everywhere(const char *name, const char *text, size_t len)
{
	size_t refused = 0;
	for (size_t k = 0; k < len; k++) {
		pl_diags *d = pl_diags_new();
		pl_module *m = NULL;
		int rc = pl_parse_buffer(text, k, "cut.pir", d, &m);
		if (rc == PL_OK) {
			ck_assert_msg(between_functions(text, k),
			              "%s cut at byte %zu reads, but the cut is inside a function", name,
			              k);
			pl_module_free(m);
			pl_diags_free(d);
			continue;
		}
		refused++;
		unsigned line, col, wcol;
		ends_at(text, k, &line, &col, &wcol);
		ck_assert_int_eq(rc, PL_EPARSE);
		ck_assert_msg(pl_diags_count(d) == 1, "%s cut at byte %zu: %zu messages", name, k,
		              pl_diags_count(d));
		const char *msg = pl_diags_format(d, 0);
		unsigned l, c;
		int at = 0;
		ck_assert_msg(sscanf(msg, "cut.pir:%u:%u: error: file ends %n", &l, &c, &at) == 2 && at,
		              "%s cut at byte %zu: \"%s\" does not say the file ends", name, k, msg);
		ck_assert_msg(l == line && c >= wcol && c <= col,
		              "%s cut at byte %zu: \"%s\" is not at the end, %u:%u (or the word at "
		              "%u:%u)",
		              name, k, msg, line, col, line, wcol);
		ck_assert_msg(strstr(msg, "(opened at ") || msg[at] == ':',
		              "%s cut at byte %zu: \"%s\" does not say where", name, k, msg);
		pl_diags_free(d);
	}
	/* and the whole file reads */
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_msg(pl_parse_buffer(text, len, "whole.pir", d, &m) == PL_OK, "%s: %s", name,
	              tu_first_diag(d));
	pl_module_free(m);
	pl_diags_free(d);
	return refused;
}

static void cut_file(const char *path)
{
	size_t len = 0;
	char *text = tu_read_file(path, &len);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	size_t refused = cut_everywhere(path, text, len);
	ck_assert_msg(refused > len / 2, "%s: only %zu of %zu cuts refused", path, refused, len);
	free(text);
}

START_TEST(bundled_files)
{
	cut_file(TEST_SRCDIR "/../examples/fsdp_step.pir");
	cut_file(TEST_SRCDIR "/pir/roundtrip/attrs.pir");
	cut_file(TEST_SRCDIR "/pir/roundtrip/func_attrs.pir");
	cut_file(TEST_SRCDIR "/pir/roundtrip/async_ops.pir");
	cut_file(TEST_SRCDIR "/pir/roundtrip/dtypes.pir");
	cut_file(TEST_SRCDIR "/pir/roundtrip/deep.pir");
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("pir_eof");
	TCase *tc = tcase_create("cuts");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bundled_files);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(make_suite)
