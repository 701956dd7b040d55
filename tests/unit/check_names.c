/* SPDX-License-Identifier: MIT */
/* tests/unit/check_names.c — naming values after a pass renamed a few or
 * added unnamed ones: the printer gives exactly what naming every value
 * again would (the first holder of a name keeps it, later holders get
 * "name.N", unnamed values the lowest free number), though it enters only
 * the names that may clash. */
#include "testutil.h"

#include <passline/ir.h>
#include <passline/text.h>

#include <stdio.h>
#include <stdlib.h>

static const char chain[] =
	"func @f(%a: f32[4]) {\n"
	"  %x = acme.neg %a : f32[4]\n"
	"  %y = acme.neg %x : f32[4]\n"
	"  %x.1 = acme.neg %y : f32[4]\n"
	"  %0 = acme.neg %x.1 : f32[4]\n"
	"  return %0\n"
	"}\n";

static pl_value *result(pl_func *f, size_t k)
{
	pl_inst *i = pl_func_first_inst(f);
	while (k--)
		i = pl_inst_next(i);
	return pl_inst_result(i, 0);
}

static void expect_print(pl_module *m, const char *want)
{
	char *s = tu_print(m);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(test_later_holder_takes_next_suffix)
{
	pl_diags *d;
	pl_module *m = tu_parse(chain, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	ck_assert_int_eq(pl_value_set_name(result(f, 1), "x"), PL_OK);
	/* "x" is held earlier and "x.1" later: %y becomes "x.2" */
	expect_print(m, "func @f(%a: f32[4]) {\n"
	                "  %x = acme.neg %a : f32[4]\n"
	                "  %x.2 = acme.neg %x : f32[4]\n"
	                "  %x.1 = acme.neg %x.2 : f32[4]\n"
	                "  %0 = acme.neg %x.1 : f32[4]\n"
	                "  return %0\n"
	                "}\n");
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_earlier_holder_keeps_the_name)
{
	pl_diags *d;
	pl_module *m = tu_parse(chain, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	/* %x takes "y": it comes first, so the old %y gives way */
	ck_assert_int_eq(pl_value_set_name(result(f, 0), "y"), PL_OK);
	expect_print(m, "func @f(%a: f32[4]) {\n"
	                "  %y = acme.neg %a : f32[4]\n"
	                "  %y.1 = acme.neg %y : f32[4]\n"
	                "  %x.1 = acme.neg %y.1 : f32[4]\n"
	                "  %0 = acme.neg %x.1 : f32[4]\n"
	                "  return %0\n"
	                "}\n");
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_unnamed_gets_lowest_free_number)
{
	pl_diags *d;
	pl_module *m = tu_parse(chain, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	pl_value *zero = result(f, 3);
	const pl_type *t = pl_value_type(zero);
	pl_inst *i = pl_inst_new(f, "acme.neg", &zero, 1, &t, 1);
	ck_assert_ptr_nonnull(i);
	pl_inst_insert_before(i, pl_func_last_inst(f));
	/* "0" is taken by a name the reader kept */
	expect_print(m, "func @f(%a: f32[4]) {\n"
	                "  %x = acme.neg %a : f32[4]\n"
	                "  %y = acme.neg %x : f32[4]\n"
	                "  %x.1 = acme.neg %y : f32[4]\n"
	                "  %0 = acme.neg %x.1 : f32[4]\n"
	                "  %1 = acme.neg %0 : f32[4]\n"
	                "  return %0\n"
	                "}\n");
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_name_given_while_detached)
{
	pl_diags *d;
	pl_module *m = tu_parse(chain, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	pl_value *x = result(f, 0);
	const pl_type *t = pl_value_type(x);
	/* %z is named while detached; a print names the values in between
	 * (without it), and another value takes "z" meanwhile */
	pl_inst *i = pl_inst_new(f, "acme.neg", &x, 1, &t, 1);
	ck_assert_ptr_nonnull(i);
	ck_assert_int_eq(pl_value_set_name(pl_inst_result(i, 0), "z"), PL_OK);
	free(tu_print(m));
	ck_assert_int_eq(pl_value_set_name(result(f, 1), "z"), PL_OK);
	free(tu_print(m));
	/* inserted before %x.1, it comes after the other "z", so it gives way */
	ck_assert_int_eq(pl_inst_insert(i, pl_value_def(result(f, 2)), PL_BEFORE), PL_OK);
	expect_print(m, "func @f(%a: f32[4]) {\n"
	                "  %x = acme.neg %a : f32[4]\n"
	                "  %z = acme.neg %x : f32[4]\n"
	                "  %z.1 = acme.neg %x : f32[4]\n"
	                "  %x.1 = acme.neg %z : f32[4]\n"
	                "  %0 = acme.neg %x.1 : f32[4]\n"
	                "  return %0\n"
	                "}\n");
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* ---- against naming every value again, written plainly ---- */

enum { N = 48, MAXN = 2100 };

static bool taken(char names[][48], size_t n, const char *s)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(names[k], s) == 0)
			return true;
	return false;
}

/* in[k] ("" for none) -> out[k], by the rule in the file's comment */
static void reference(char in[][48], size_t n, char out[][48])
{
	bool todo[MAXN] = {0};
	char kept[MAXN][48];
	size_t nkept = 0;
	for (size_t k = 0; k < n; k++) {
		if (in[k][0] && !taken(kept, nkept, in[k]))
			strcpy(kept[nkept++], in[k]);
		else
			todo[k] = true;
		strcpy(out[k], in[k]);
	}
	unsigned long number = 0;
	for (size_t k = 0; k < n; k++) {
		if (!todo[k])
			continue;
		char cand[48];
		for (unsigned long s = 1;; s++) {
			if (in[k][0])
				snprintf(cand, sizeof cand, "%.20s.%lu", in[k], s);
			else
				snprintf(cand, sizeof cand, "%lu", number++);
			if (!taken(kept, nkept, cand))
				break;
		}
		strcpy(kept[nkept++], cand);
		strcpy(out[k], cand);
	}
}

START_TEST(test_random_changes_match_full_naming)
{
	static const char *const pool[] = {"x", "y", "x.1", "x.2", "0", "1", "3", "a.b", "a.b.1", "v7"};
	char text[8192];
	size_t len = (size_t)snprintf(text, sizeof text, "func @f(%%a: f32[4]) {\n");
	for (int k = 0; k < N; k++)
		len += (size_t)snprintf(text + len, sizeof text - len,
		                        "  %%v%d = acme.neg %%a : f32[4]\n", k);
	snprintf(text + len, sizeof text - len, "  return %%a\n}\n");
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	pl_value *a = pl_func_arg(f, 0);
	const pl_type *t = pl_value_type(a);
	unsigned seed = 12345;
	for (int round = 0; round < 60; round++) {
		/* the names as they stand, and what naming them all again gives */
		static char in[MAXN][48], want[MAXN][48];
		for (int op = 0; op < 4; op++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			size_t n = 0;
			for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
				n += pl_inst_num_results(i);
			size_t k = r % n;
			pl_inst *i = pl_func_first_inst(f);
			for (size_t j = 0; j < k; i = pl_inst_next(i))
				j += pl_inst_num_results(i);
			if (r % 3 == 0 && n + 1 < MAXN) { /* a value without a name */
				pl_inst *ni = pl_inst_new(f, "acme.neg", &a, 1, &t, 1);
				ck_assert_ptr_nonnull(ni);
				pl_inst_insert_before(ni, i);
			} else {
				ck_assert_int_eq(pl_value_set_name(pl_inst_result(i, 0),
				                                   pool[(r >> 4) % 10]), PL_OK);
			}
		}
		size_t n = 0;
		for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
			for (size_t k = 0; k < pl_inst_num_results(i); k++, n++) {
				const char *s = pl_value_name(pl_inst_result(i, k));
				strcpy(in[n], s ? s : "");
			}
		/* the argument comes first and keeps "a" */
		for (size_t k = n; k > 0; k--)
			strcpy(in[k], in[k - 1]);
		strcpy(in[0], "a");
		reference(in, n + 1, want);
		char *s = tu_print(m);
		ck_assert_ptr_nonnull(s);
		free(s);
		size_t k = 1;
		for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
			for (size_t j = 0; j < pl_inst_num_results(i); j++, k++)
				ck_assert_msg(strcmp(pl_value_name(pl_inst_result(i, j)), want[k]) == 0,
				              "round %d, value %zu: %s, want %s", round, k,
				              pl_value_name(pl_inst_result(i, j)), want[k]);
	}
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* A pass that names thousands of values (and so gives many names since
 * they were last unique) must still find every clash among thousands
 * of others. */
START_TEST(test_many_given_names_match_full_naming)
{
	enum { VALUES = 2000, GIVEN = 1500 };
	size_t cap = 64 + VALUES * 40, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text, cap, "func @f(%%a: f32[4]) {\n");
	for (int k = 0; k < VALUES; k++)
		len += (size_t)snprintf(text + len, cap - len, "  %%v%d = acme.neg %%a : f32[4]\n", k);
	snprintf(text + len, cap - len, "  return %%a\n}\n");
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	static pl_value *vals[VALUES];
	size_t n = 0;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
		if (pl_inst_num_results(i))
			vals[n++] = pl_inst_result(i, 0);
	ck_assert_uint_eq(n, VALUES);
	unsigned seed = 777;
	for (int k = 0; k < GIVEN; k++) {
		seed = seed * 1103515245u + 12345u;
		unsigned r = seed >> 8;
		char name[32];
		/* names of others, their ".N" forms, numbers and new ones */
		if (r % 4 == 3)
			snprintf(name, sizeof name, "v%u.%u", (r >> 4) % VALUES, (r >> 2) % 3 + 1);
		else if (r % 4 == 2)
			snprintf(name, sizeof name, "%u", (r >> 4) % 50);
		else
			snprintf(name, sizeof name, "v%u", (r >> 4) % (VALUES + VALUES / 2));
		ck_assert_int_eq(pl_value_set_name(vals[(r >> 12) % VALUES], name), PL_OK);
	}
	static char in[MAXN][48], want[MAXN][48];
	strcpy(in[0], "a");
	for (size_t k = 0; k < VALUES; k++)
		strcpy(in[k + 1], pl_value_name(vals[k]));
	reference(in, VALUES + 1, want);
	char *s = tu_print(m);
	ck_assert_ptr_nonnull(s);
	free(s);
	for (size_t k = 0; k < VALUES; k++)
		ck_assert_msg(strcmp(pl_value_name(vals[k]), want[k + 1]) == 0, "value %zu: %s, want %s",
		              k, pl_value_name(vals[k]), want[k + 1]);
	free(text);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("incremental");
	tcase_add_test(tc, test_later_holder_takes_next_suffix);
	tcase_add_test(tc, test_earlier_holder_keeps_the_name);
	tcase_add_test(tc, test_unnamed_gets_lowest_free_number);
	tcase_add_test(tc, test_name_given_while_detached);
	tcase_add_test(tc, test_random_changes_match_full_naming);
	tcase_add_test(tc, test_many_given_names_match_full_naming);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(names_suite)
