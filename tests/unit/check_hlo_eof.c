/* SPDX-License-Identifier: MIT */
/* tests/unit/check_hlo_eof.c — HLO text cut short says so: each module
 * below is cut at every byte, and each cut either reads (it ends right
 * after a whole computation: XLA takes the last one as the entry) or is
 * refused with exactly one message, "file ends ...", placed at the end
 * of the cut text. The bundled modules always; real XLA modules from
 * HLO_DIR (never copied here) when it is there.
 */
#include "testutil.h"

#include <stdio.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether text[0..n) ends with a whole computation: its last char, past
 * blanks and line comments, closes a body ('}') or a quoted execution
 * thread ('"'). */
static bool ends_a_computation(const char *text, size_t n)
{
	for (;;) {
		while (n && blank(text[n - 1]))
			n--;
		size_t ls = n;
		while (ls && text[ls - 1] != '\n')
			ls--;
		const char *c = NULL;
		for (size_t k = ls; k + 1 < n; k++)
			if (text[k] == '/' && text[k + 1] == '/') {
				c = text + k;
				break;
			}
		if (!c)
			break;
		n = (size_t)(c - text);
	}
	return n && (text[n - 1] == '}' || text[n - 1] == '"');
}

/* Cuts text at every byte; returns how many cuts were refused. */
static size_t cut_everywhere(const char *name, const char *text, size_t len)
{
	size_t refused = 0;
	unsigned line = 1, col = 1; /* where text[k] is */
	for (size_t k = 0; k < len; k++) {
		pl_diags *d = pl_diags_new();
		pl_module *m = NULL;
		int rc = pl_parse_hlo_buffer(text, k, "cut.hlo", d, &m);
		if (rc == PL_OK) {
			ck_assert_msg(ends_a_computation(text, k),
			              "%s cut at byte %zu reads, but the cut is not after a computation",
			              name, k);
			pl_module_free(m);
		} else {
			refused++;
			char want[96];
			snprintf(want, sizeof want, "cut.hlo:%u:%u: error: file ends ", line, col);
			ck_assert_int_eq(rc, PL_EPARSE);
			ck_assert_msg(pl_diags_count(d) == 1, "%s cut at byte %zu: %zu messages", name, k,
			              pl_diags_count(d));
			const char *msg = pl_diags_format(d, 0);
			ck_assert_msg(strncmp(msg, want, strlen(want)) == 0,
			              "%s cut at byte %zu: \"%s\", expected it to start \"%s\"", name, k,
			              msg, want);
		}
		pl_diags_free(d);
		if (text[k] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	/* and the whole module reads */
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_msg(pl_parse_hlo_buffer(text, len, "whole.hlo", d, &m) == PL_OK, "%s: %s", name,
	              tu_first_diag(d));
	pl_module_free(m);
	pl_diags_free(d);
	return refused;
}

static void cut_file(const char *path, bool required)
{
	size_t len = 0;
	char *text = tu_read_file(path, &len);
	if (!text && !required)
		return;
	ck_assert_msg(text != NULL, "cannot read %s", path);
	size_t refused = cut_everywhere(path, text, len);
	/* nearly every cut is refused: only a handful fall between
	 * computations */
	ck_assert_msg(refused + 16 > len, "%s: only %zu of %zu cuts refused", path, refused, len);
	free(text);
}

START_TEST(bundled_modules)
{
	cut_file(TEST_SRCDIR "/hlo/step.hlo", true);
	cut_file(TEST_SRCDIR "/hlo/tuples.hlo", true);
	cut_file(TEST_SRCDIR "/hlo/coalesce.out.hlo", true);
}
END_TEST

/* Real modules XLA wrote: async-start wrappers, metadata strings, layouts
 * with tiles, replica groups, windows, signatures, stack frame tables. */
START_TEST(real_modules)
{
	static const char *const files[] = {
	        "xla-tests/latency_hiding_scheduler_test__AllToAllAsyncBalance.hlo",
	        "xla-misc/import_async__01_async_all_gather_test.hlo",
	        "xla-parser-roundtrip/long/StackFrameIndex.hlo",
	        "xla-misc/gpu_hlo_collective_cse.hlo",
	};
	const char *dir = getenv("HLO_DIR");
	if (!dir || !*dir)
		return;
	for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		cut_file(path, false);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("hlo_eof");
	TCase *tc = tcase_create("cuts");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bundled_modules);
	tcase_add_test(tc, real_modules);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(make_suite)
