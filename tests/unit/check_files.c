/* SPDX-License-Identifier: MIT */
/* tests/unit/check_files.c — files a pass hands to the host: which names
 * pl_file_name_check accepts, and what the context keeps of each
 * pl_ctx_write_file (normal-form names, copies, the last write wins). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <passline/host.h>
#include <stdio.h>

static int fx_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)ctx;
	(void)state;
	(void)m;
	return PL_OK;
}

static const pl_pass_desc fx_pass = {PL_PASS_DESC_INIT, .name = "FxFiles", .run = fx_run};

START_TEST(test_name_check)
{
	static const char *const good[] = {"a", "a.svg", "sub/a.svg", "./a", "a//b",
	                                   "a/../b", "a/./b", "..a", "a..", "x/y/../../z"};
	static const struct {
		const char *name, *why;
	} bad[] = {
		{"", "the file name is empty"},
		{"/abs", "the file name is absolute (names are relative to the output folder)"},
		{"../x", "the file name leaves the output folder"},
		{"a/../../x", "the file name leaves the output folder"},
		{"./..", "the file name leaves the output folder"},
		{"a/", "the file name names a folder, not a file"},
		{".", "the file name names a folder, not a file"},
		{"a/..", "the file name names a folder, not a file"},
		{"a/.", "the file name names a folder, not a file"},
	};
	char err[128];
	for (size_t k = 0; k < sizeof good / sizeof *good; k++)
		ck_assert_msg(pl_file_name_check(good[k], err, sizeof err) == PL_OK, "%s", good[k]);
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		strcpy(err, "untouched");
		ck_assert_int_eq(pl_file_name_check(bad[k].name, err, sizeof err), PL_EINVAL);
		ck_assert_str_eq(err, bad[k].why);
	}
	ck_assert_int_eq(pl_file_name_check(NULL, NULL, 0), PL_EINVAL);
}
END_TEST

START_TEST(test_ctx_files)
{
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *ctx = pl_ctx_new(&fx_pass, d);
	ck_assert_uint_eq(pl_ctx_num_files(ctx), 0);
	char buf[] = "first";
	ck_assert_int_eq(pl_ctx_write_file(ctx, "./out/a.svg", buf, 5), PL_OK);
	buf[0] = 'X'; /* the context keeps a copy */
	ck_assert_int_eq(pl_ctx_write_file(ctx, "b.json", NULL, 0), PL_OK);
	ck_assert_int_eq(pl_ctx_write_file(ctx, "out/x/../a.svg", "second!", 7), PL_OK);
	ck_assert_uint_eq(pl_ctx_num_files(ctx), 2);
	size_t len;
	ck_assert_str_eq(pl_ctx_file_name(ctx, 0), "out/a.svg");
	const char *data = pl_ctx_file_data(ctx, 0, &len);
	ck_assert_uint_eq(len, 7);
	ck_assert(memcmp(data, "second!", 7) == 0);
	ck_assert_str_eq(pl_ctx_file_name(ctx, 1), "b.json");
	pl_ctx_file_data(ctx, 1, &len);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(pl_diags_count(d), 0);

	ck_assert_int_eq(pl_ctx_write_file(ctx, "../up", "x", 1), PL_EINVAL);
	ck_assert_uint_eq(pl_ctx_num_files(ctx), 2);
	ck_assert_uint_eq(pl_diags_count(d), 1);
	ck_assert_str_eq(pl_diags_message(d, 0),
	                 "FxFiles: cannot write file '../up': the file name leaves the output "
	                 "folder");
	ck_assert_int_eq(pl_ctx_write_file(ctx, "c", NULL, 3), PL_EINVAL);

	pl_ctx_clear_files(ctx);
	ck_assert_uint_eq(pl_ctx_num_files(ctx), 0);
	ck_assert_int_eq(pl_ctx_write_file(ctx, "a", "1", 1), PL_OK);
	ck_assert_uint_eq(pl_ctx_num_files(ctx), 1);
	pl_ctx_free(ctx); /* frees the files still held */
	pl_diags_free(d);
}
END_TEST

static Suite *files_suite(void)
{
	Suite *s = suite_create("files");
	TCase *tc = tcase_create("files");
	tcase_add_test(tc, test_name_check);
	tcase_add_test(tc, test_ctx_files);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(files_suite)
