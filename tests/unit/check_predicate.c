/* SPDX-License-Identifier: MIT */
/* tests/unit/check_predicate.c — the predicate language and exact domain
 * counting (passline/predicate.h).
 *
 * parse:    every operator and term form, whitespace, errors with their
 *           column and message;
 * count:    hand-computed counts, the limits, a 2^40-point domain;
 * property: random small domains and constraints, counted against plain
 *           enumeration written here.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- helpers ------------------------------------------------------------ */

static pl_constraint *parse(const char *text, size_t rank)
{
	pl_constraint *c = NULL;
	size_t col = 0;
	const char *msg = NULL;
	int rc = pl_constraint_parse(text, strlen(text), rank, &c, &col, &msg);
	ck_assert_msg(rc == PL_OK, "\"%s\": column %zu: %s", text, col, msg ? msg : "?");
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(pl_constraint_rank(c), rank);
	return c;
}

/* Asserts the normal form sum coeff[k]*iK + constant CMP 0. */
static void expect_form(const char *text, size_t rank, const int64_t *coeff, int64_t constant,
                        pl_cmp cmp)
{
	pl_constraint *c = parse(text, rank);
	for (size_t k = 0; k < rank; k++)
		ck_assert_msg(pl_constraint_coeff(c, k) == coeff[k], "\"%s\": coeff %zu is %lld", text,
		              k, (long long)pl_constraint_coeff(c, k));
	ck_assert_msg(pl_constraint_constant(c) == constant, "\"%s\": constant %lld", text,
	              (long long)pl_constraint_constant(c));
	ck_assert_int_eq(pl_constraint_cmp(c), cmp);
	pl_constraint_free(c);
}

#define FORM(text, rank, constant, cmp, ...) \
	expect_form((text), (rank), (const int64_t[]){__VA_ARGS__}, (constant), (cmp))

static void expect_parse_error(const char *text, size_t rank, size_t col, const char *msg)
{
	pl_constraint *c = (pl_constraint *)(uintptr_t)1;
	size_t ecol = 0;
	const char *emsg = NULL;
	int rc = pl_constraint_parse(text, strlen(text), rank, &c, &ecol, &emsg);
	ck_assert_msg(rc == PL_EPARSE, "\"%s\": status %d", text, rc);
	ck_assert_ptr_null(c);
	ck_assert_ptr_nonnull(emsg);
	ck_assert_msg(ecol == col && strcmp(emsg, msg) == 0,
	              "\"%s\": got column %zu \"%s\", expected column %zu \"%s\"", text, ecol, emsg,
	              col, msg);
}

/* Counts the domain under the constraints given as text. */
static int count(const int64_t *ext, size_t rank, const char *const *texts, size_t n,
                 uint64_t *out)
{
	pl_constraint *cs[16];
	ck_assert_uint_le(n, 16);
	for (size_t k = 0; k < n; k++)
		cs[k] = parse(texts[k], rank);
	int rc = pl_domain_count(ext, rank, (const pl_constraint *const *)cs, n, out);
	for (size_t k = 0; k < n; k++)
		pl_constraint_free(cs[k]);
	return rc;
}

static uint64_t count_ok(const int64_t *ext, size_t rank, const char *const *texts, size_t n)
{
	uint64_t out = 0xdeadbeef;
	int rc = count(ext, rank, texts, n, &out);
	ck_assert_msg(rc == PL_OK, "status %d", rc);
	return out;
}

#define EXT(...) ((const int64_t[]){__VA_ARGS__})
#define CS(...) ((const char *const[]){__VA_ARGS__})
#define NARGS(...) (sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define COUNT(ext, rank, ...) count_ok((ext), (rank), CS(__VA_ARGS__), NARGS(__VA_ARGS__))

/* ---- parsing -------------------------------------------------------------- */

START_TEST(test_parse_operators)
{
	FORM("i0 < 5", 1, -5, PL_CMP_LT, 1);
	FORM("i0 <= 5", 1, -5, PL_CMP_LE, 1);
	FORM("i0 > 5", 1, -5, PL_CMP_GT, 1);
	FORM("i0 >= 5", 1, -5, PL_CMP_GE, 1);
	FORM("i0 == 5", 1, -5, PL_CMP_EQ, 1);
	FORM("i0 != 5", 1, -5, PL_CMP_NE, 1);
}
END_TEST

START_TEST(test_parse_terms)
{
	/* c, iK, c*iK, iK*c; + and -; both sides; normalised as lhs - rhs */
	FORM("3 < i1", 2, 3, PL_CMP_LT, 0, -1);
	FORM("3*i1 < 1", 2, -1, PL_CMP_LT, 0, 3);
	FORM("i1*3 < 1", 2, -1, PL_CMP_LT, 0, 3);
	FORM("2*i0 - i1 + 7 >= i2*4 - 1", 3, 8, PL_CMP_GE, 2, -1, -4);
	FORM("-i0 < -3", 1, 3, PL_CMP_LT, -1);
	FORM("- 2*i0 < 0", 1, 0, PL_CMP_LT, -2);
	FORM("0 - i0 - i0*2 < 0 - 3", 1, 3, PL_CMP_LT, -3);
	FORM("i0 + i0 + 1 + 2 < 3", 1, 0, PL_CMP_LT, 2);
	FORM("i0 < i0", 1, 0, PL_CMP_LT, 0);
	FORM("0*i0 == 0", 1, 0, PL_CMP_EQ, 0);
	FORM("128*i0 + i1 < 1000", 2, -1000, PL_CMP_LT, 128, 1);
	FORM("i10 < 4", 11, -4, PL_CMP_LT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	FORM("i007 < 1", 8, -1, PL_CMP_LT, 0, 0, 0, 0, 0, 0, 0, 1);
	/* constants only, rank 0 */
	FORM("1 < 2", 0, -1, PL_CMP_LT, 0);
	/* int64 extremes */
	FORM("9223372036854775807*i0 < 0", 1, 0, PL_CMP_LT, INT64_MAX);
	FORM("i0 < 9223372036854775807", 1, -INT64_MAX, PL_CMP_LT, 1);
	FORM("0 < 9223372036854775807 + 1", 1, INT64_MIN, PL_CMP_LT, 0);
	FORM("-9223372036854775807 - 1 < 0", 1, INT64_MIN, PL_CMP_LT, 0);
	FORM("i0 - 9223372036854775807*i0 < 1", 1, -1, PL_CMP_LT, INT64_MIN + 2);
	/* coefficients that cancel may pass int64 on the way */
	FORM("9223372036854775807*i0 + 9223372036854775807*i0 < 9223372036854775807*i0 + "
	     "9223372036854775807*i0 + i0", 1, 0, PL_CMP_LT, -1);
}
END_TEST

START_TEST(test_parse_whitespace)
{
	FORM("  i0\t<\t 5  ", 1, -5, PL_CMP_LT, 1);
	FORM("i0<5", 1, -5, PL_CMP_LT, 1);
	FORM("2 * i0+i1*3-4<=-1", 2, -3, PL_CMP_LE, 2, 3);
	FORM("2\t*\ti0 !=\t3", 1, -3, PL_CMP_NE, 2);
	/* the text need not be NUL-terminated: only len bytes are read */
	pl_constraint *c = NULL;
	ck_assert_int_eq(pl_constraint_parse("i0 < 12345", 6, 1, &c, NULL, NULL), PL_OK);
	ck_assert_int_eq(pl_constraint_constant(c), -1);
	pl_constraint_free(c);
}
END_TEST

START_TEST(test_parse_errors)
{
	expect_parse_error("", 1, 1, "expected an integer or an index variable");
	expect_parse_error("   ", 1, 4, "expected an integer or an index variable");
	expect_parse_error("i0", 1, 3, "expected a comparison, found the end");
	expect_parse_error("i0 = 1", 1, 4, "expected one of < <= > >= == !=");
	expect_parse_error("i0 =< 1", 1, 4, "expected one of < <= > >= == !=");
	expect_parse_error("i0 ! 1", 1, 4, "expected one of < <= > >= == !=");
	expect_parse_error("i0 <", 1, 5, "expected an integer or an index variable");
	expect_parse_error("i0 < ", 1, 6, "expected an integer or an index variable");
	expect_parse_error("i0 < 1 2", 1, 8, "unexpected text after the constraint");
	expect_parse_error("i0 < 1 < 2", 1, 8, "unexpected text after the constraint");
	expect_parse_error("i0 < 1)", 1, 7, "unexpected text after the constraint");
	expect_parse_error("i0 <> 1", 1, 5, "expected an integer or an index variable");
	expect_parse_error("ix < 1", 1, 1, "expected an index variable iK");
	expect_parse_error("i < 1", 1, 1, "expected an index variable iK");
	expect_parse_error("j0 < 1", 1, 1, "expected an integer or an index variable");
	expect_parse_error("(i0) < 1", 1, 1, "expected an integer or an index variable");
	expect_parse_error("- - 1 < 2", 1, 3, "expected an integer or an index variable");
	expect_parse_error("i0 + < 2", 1, 6, "expected an integer or an index variable");
	expect_parse_error("i0 +", 1, 5, "expected an integer or an index variable");
	expect_parse_error("2* < 1", 1, 4, "expected an index variable after '*'");
	expect_parse_error("2*3 < 1", 1, 3, "expected an index variable after '*'");
	expect_parse_error("i0 * < 1", 1, 6, "expected an integer after '*'");
	expect_parse_error("i0 * i1 < 1", 2, 6, "expected an integer after '*'");
	expect_parse_error("i0*-2 < 1", 1, 4, "expected an integer after '*'");
	expect_parse_error("i0 < 2.5", 1, 7, "unexpected text after the constraint");
	/* an index beyond the rank */
	expect_parse_error("i2 < 1", 2, 1, "index variable not in the domain");
	expect_parse_error("i0 + 3*i2 < 1", 2, 8, "index variable not in the domain");
	expect_parse_error("i0 < 1", 0, 1, "index variable not in the domain");
	expect_parse_error("i18446744073709551616 < 1", 2, 2, "integer out of range of int64");
	expect_parse_error("i9223372036854775807 < 1", 2, 1, "index variable not in the domain");
	/* beyond int64 */
	expect_parse_error("i0 < 9223372036854775808", 1, 6, "integer out of range of int64");
	expect_parse_error("99999999999999999999 < 1", 1, 1, "integer out of range of int64");
	expect_parse_error("9223372036854775807*i0 + i0 < 1", 1, 1,
	                   "coefficient out of range of int64");
	expect_parse_error("i0 < -9223372036854775807*i0 - 2*i0", 1, 1,
	                   "coefficient out of range of int64");
	expect_parse_error("9223372036854775807 + 1 < 0", 1, 1, "constant out of range of int64");
	expect_parse_error("-9223372036854775807 - 2 < 0", 1, 1, "constant out of range of int64");

	/* err_col and err_msg may be NULL; a rank above 64 is PL_EINVAL */
	pl_constraint *c = NULL;
	ck_assert_int_eq(pl_constraint_parse("i0 <", 4, 1, &c, NULL, NULL), PL_EPARSE);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(pl_constraint_parse("1 < 2", 5, PL_MAX_RANK + 1, &c, NULL, NULL), PL_EINVAL);
	ck_assert_int_eq(pl_constraint_parse("i63 < 2", 7, PL_MAX_RANK, &c, NULL, NULL), PL_OK);
	pl_constraint_free(c);
}
END_TEST

START_TEST(test_eval)
{
	static const struct {
		const char *text;
		int64_t at[2];
		bool holds;
	} cases[] = {
		{"i0 < 5", {4, 0}, true},           {"i0 < 5", {5, 0}, false},
		{"i0 <= 5", {5, 0}, true},          {"i0 <= 5", {6, 0}, false},
		{"i0 > 5", {6, 0}, true},           {"i0 > 5", {5, 0}, false},
		{"i0 >= 5", {5, 0}, true},          {"i0 >= 5", {4, 0}, false},
		{"i0 == 5", {5, 0}, true},          {"i0 == 5", {4, 0}, false},
		{"i0 != 5", {4, 0}, true},          {"i0 != 5", {5, 0}, false},
		{"128*i0 + i1 < 1000", {7, 103}, true},
		{"128*i0 + i1 < 1000", {7, 104}, false},
		{"2*i0 - 3*i1 == -1", {4, 3}, true},
		{"2*i0 - 3*i1 == -1", {3, 3}, false},
		{"i1*3 >= i0", {9, 3}, true},
		{"i1*3 >= i0", {10, 3}, false},
		/* no overflow at the int64 extremes */
		{"9223372036854775807*i0 + 9223372036854775807*i1 > 0", {INT64_MAX, INT64_MAX}, true},
		{"-9223372036854775807*i0 - 9223372036854775807*i1 < 0", {INT64_MAX, INT64_MAX}, true},
		{"-9223372036854775807*i0 + 9223372036854775807*i1 == 0", {INT64_MAX, INT64_MAX}, true},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		pl_constraint *c = parse(cases[k].text, 2);
		ck_assert_msg(pl_constraint_eval(c, cases[k].at) == cases[k].holds,
		              "\"%s\" at (%lld, %lld)", cases[k].text, (long long)cases[k].at[0],
		              (long long)cases[k].at[1]);
		pl_constraint_free(c);
	}
	pl_constraint *c = parse("3 > 2", 0);
	ck_assert(pl_constraint_eval(c, NULL));
	ck_assert_int_eq(pl_constraint_coeff(c, 0), 0); /* beyond the rank */
	pl_constraint_free(c);
}
END_TEST

/* ---- counting -------------------------------------------------------------- */

START_TEST(test_count_tail_mask)
{
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 < 1000"), 1000);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 <= 1000"), 1001);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 < 1024"), 1024);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 < 5000"), 1024);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 < 0"), 0);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "1000 > i1 + i0*128"), 1000);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 >= 1000"), 24);
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 > 1000"), 23);
	/* two masks at once: 1000 - 100 */
	ck_assert_uint_eq(COUNT(EXT(8, 128), 2, "128*i0 + i1 < 1000", "128*i0 + i1 >= 100"), 900);
}
END_TEST

START_TEST(test_count_eq_ne)
{
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 == 3"), 1);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 == 10"), 0);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 == -1"), 0);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "2*i0 == 3"), 0);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "2*i0 == 6"), 1);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "-3*i0 == -6"), 1);
	ck_assert_uint_eq(COUNT(EXT(4, 4), 2, "i0 + i1 == 5"), 2); /* (2,3) (3,2) */
	ck_assert_uint_eq(COUNT(EXT(10, 10), 2, "i0 == i1"), 10);
	ck_assert_uint_eq(COUNT(EXT(10, 10), 2, "2*i0 == i1"), 5);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 != 3"), 7);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 != 10"), 8);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "2*i0 != 3"), 8);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 != 3", "i0 != 3"), 7); /* the same point twice */
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 != 3", "i0 != 5", "i0 < 4"), 3);
	ck_assert_uint_eq(COUNT(EXT(5, 5), 2, "i0 != i1"), 20);
	ck_assert_uint_eq(COUNT(EXT(5, 5), 2, "i0 != i1", "i0 == 2"), 4);
	ck_assert_uint_eq(COUNT(EXT(6, 7), 2, "i0 + i1 != 4", "i1 - i0 != 1"), 42 - 5 - 6 + 0);
}
END_TEST

START_TEST(test_count_contradictions_and_constants)
{
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 < 2", "i0 > 5"), 0);
	ck_assert_uint_eq(COUNT(EXT(8, 8), 2, "i0 + i1 < 3", "i0 + i1 > 20"), 0);
	ck_assert_uint_eq(COUNT(EXT(8, 8), 2, "i0 < i1", "i1 < i0"), 0);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 < 0"), 0);
	ck_assert_uint_eq(COUNT(EXT(8), 1, "i0 >= 8"), 0);
	/* constant-only constraints hold everywhere or nowhere */
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "1 < 2"), 12);
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "2 < 1"), 0);
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "0 == 0", "7 != 8"), 12);
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "3 != 3", "i0 < 2"), 0);
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "i0 - i0 < 1"), 12);
	ck_assert_uint_eq(COUNT(EXT(3, 4), 2, "i0 - i0 > 1"), 0);
	uint64_t n = 7;
	ck_assert_int_eq(pl_domain_count(NULL, 0, NULL, 0, &n), PL_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(COUNT(NULL, 0, "1 < 2"), 1);
	ck_assert_uint_eq(COUNT(NULL, 0, "1 > 2"), 0);
}
END_TEST

START_TEST(test_count_groups_multiply)
{
	/* indices no constraint names multiply in; groups are independent */
	ck_assert_uint_eq(COUNT(EXT(10, 20, 30), 3, "i0 < 3", "i2 >= 25"), 3 * 20 * 5);
	ck_assert_uint_eq(COUNT(EXT(4, 4, 5, 5), 4, "i0 + i1 < 3", "i2 != i3"), 6 * 20);
	ck_assert_uint_eq(COUNT(EXT(4, 5, 4, 5), 4, "i0 + i2 < 3", "i1 != i3"), 6 * 20);
	ck_assert_uint_eq(COUNT(EXT(7, 3, 9), 3, "i1 == 1"), 7 * 9);
	/* a constraint joining two groups makes one */
	ck_assert_uint_eq(COUNT(EXT(4, 4, 4), 3, "i0 < i1", "i1 < i2"), 4); /* C(4,3) */
	/* no constraints: the product; a zero extent: nothing */
	uint64_t n = 0;
	ck_assert_int_eq(pl_domain_count(EXT(3, 5, 7), 3, NULL, 0, &n), PL_OK);
	ck_assert_uint_eq(n, 105);
	ck_assert_uint_eq(COUNT(EXT(3, 0, 7), 3, "i0 < 2"), 0);
	ck_assert_int_eq(pl_domain_count(EXT(INT64_MAX), 1, NULL, 0, &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)INT64_MAX);
	ck_assert_uint_eq(COUNT(EXT(INT64_MAX), 1, "i0 >= 9223372036854775806"), 1);
	ck_assert_uint_eq(COUNT(EXT(INT64_MAX), 1, "i0 != 5"), (uint64_t)INT64_MAX - 1);
}
END_TEST

START_TEST(test_count_large_domain)
{
	/* 2^40 points, a tail mask: N points for N <= 2^40, counted without
	 * enumerating the domain (which would not finish) */
	const int64_t ext[2] = {(int64_t)1 << 33, 128};
	const uint64_t ns[] = {0, 1, 127, 128, 1000, 12345678901ull, (1ull << 40) - 1, 1ull << 40};
	for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
		char text[64];
		snprintf(text, sizeof text, "128*i0 + i1 < %llu", (unsigned long long)ns[k]);
		ck_assert_uint_eq(COUNT(ext, 2, text), ns[k]);
		snprintf(text, sizeof text, "i1 + 128*i0 >= %llu", (unsigned long long)ns[k]);
		ck_assert_uint_eq(COUNT(ext, 2, text), (1ull << 40) - ns[k]);
	}
	ck_assert_uint_eq(COUNT(ext, 2, "128*i0 + i1 < 2000000000000"), 1ull << 40);
	/* three large dimensions, one linked pair and one free */
	ck_assert_uint_eq(COUNT(EXT((int64_t)1 << 30, 1 << 20, 1 << 10), 3,
	                        "i0 + 1048576*i2 < 5000000"),
	                  /* sum over i2 < 5 of (5000000 - 1048576*i2), times 2^20 */
	                  ((5000000ull - 0) + (5000000ull - 1048576) + (5000000ull - 2097152) +
	                   (5000000ull - 3145728) + (5000000ull - 4194304)) *
	                          (1ull << 20));
}
END_TEST

START_TEST(test_count_errors)
{
	uint64_t n = 42;
	pl_constraint *c1 = parse("i0 < 3", 1), *c2 = parse("i0 + i1 < 3", 2);
	const pl_constraint *cs[2] = {c1, c2};
	/* a constraint of another rank */
	ck_assert_int_eq(pl_domain_count(EXT(4, 4), 2, cs, 2, &n), PL_EINVAL);
	ck_assert_int_eq(pl_domain_count(EXT(4), 1, cs + 1, 1, &n), PL_EINVAL);
	/* a negative extent */
	ck_assert_int_eq(pl_domain_count(EXT(4, -1), 2, cs + 1, 1, &n), PL_EINVAL);
	/* a product beyond int64 */
	ck_assert_int_eq(pl_domain_count(EXT(4611686018427387904, 2), 2, cs + 1, 1, &n),
	                 PL_EOVERFLOW);
	ck_assert_int_eq(pl_domain_count(EXT(4611686018427387904, 2), 2, NULL, 0, &n), PL_EOVERFLOW);
	/* a rank above 64 */
	int64_t ones[PL_MAX_RANK + 1];
	for (int k = 0; k <= PL_MAX_RANK; k++)
		ones[k] = 1;
	ck_assert_int_eq(pl_domain_count(ones, PL_MAX_RANK + 1, NULL, 0, &n), PL_EINVAL);
	ck_assert_int_eq(pl_domain_count(ones, PL_MAX_RANK, NULL, 0, &n), PL_OK);
	ck_assert_uint_eq(n, 1);
	pl_constraint_free(c1);
	pl_constraint_free(c2);
}
END_TEST

START_TEST(test_count_limit)
{
	/* three indices of 2^14 linked by one != constraint: nothing narrows
	 * their ranges, one is inner, and the outer two would be 2^28 > 2^26
	 * points to walk */
	const int64_t *ext = EXT(1 << 14, 1 << 14, 1 << 14);
	uint64_t n = 42;
	ck_assert_int_eq(count(ext, 3, CS("i0 + i1 - i2 != 5"), 1, &n), PL_ELIMIT);
	ck_assert_uint_eq(n, 42); /* untouched on failure */
	/* the same domain with bounds the constraint implies is cheap: the
	 * triples of naturals with a sum below 5 are C(7, 3) = 35 */
	ck_assert_int_eq(count(ext, 3, CS("i0 + i1 + i2 < 5"), 1, &n), PL_OK);
	ck_assert_uint_eq(n, 35);
	/* constraints on single indices narrow the ranges first */
	ck_assert_uint_eq(COUNT(ext, 3, "i0 + i1 + i2 < 5", "i1 < 10", "i2 <= 9"), 35);
	ck_assert_uint_eq(COUNT(ext, 3, "i0 + i1 + i2 < 5", "2*i1 < 20", "-i2 > -10"), 35);
	/* the widest range is the inner one: 2^26 outer points */
	ck_assert_uint_eq(COUNT(EXT(1 << 26, 1 << 26), 2, "i0 < i1", "i0 < 3"),
	                  3ull * (1ull << 26) - 6);
}
END_TEST

/* masked_dynamic_instances on instructions */
START_TEST(test_inst_masked)
{
	const char *text =
		"func @f(%x: f32[8,128]) {\n"
		"  %a = affine_load %x {domain = [8, 128], predicate = [\"128*i0 + i1 < 1000\"]} : f32[8,128]\n"
		"  %b = affine_load %x {domain = [8, 128]} : f32[8,128]\n"
		"  %c = affine_load %x : f32[8,128]\n"
		"  %d = affine_load %x {num_dynamic_instances = 3, domain = [8, 128], predicate = [\"i0 < 2\", \"i1 != 0\"]} : f32[8,128]\n"
		"  %e = affine_load %x {domain = [8, 128], predicate = []} : f32[8,128]\n"
		"  %g = affine_load %x {num_dynamic_instances = 3} : f32[8,128]\n"
		"}\n";
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_ptr_nonnull(m);
	pl_inst *i = pl_func_first_inst(pl_module_func_at(m, 0));
	const uint64_t want[] = {1000, 1024, 1024, 2 * 127, 1024, 3};
	for (size_t k = 0; k < 6; k++, i = pl_inst_next(i)) {
		uint64_t n = 0;
		ck_assert_int_eq(pl_inst_masked_dynamic_instances(i, &n), PL_OK);
		ck_assert_uint_eq(n, want[k]);
	}
	pl_module_free(m);
	pl_diags_free(d);

	/* malformed predicates (the verifier rejects these first) */
	text = "func @f() {\n"
	       "  acme.a {predicate = [\"i0 < 1\"]}\n"
	       "  acme.b {domain = [4], predicate = [\"i0 <\"]}\n"
	       "  acme.c {domain = [4], predicate = [1]}\n"
	       "  acme.d {domain = [4], predicate = \"i0 < 1\"}\n"
	       "  acme.e {domain = [4, \"x\"], predicate = [\"i0 < 1\"]}\n"
	       "  acme.f {domain = [4611686018427387904, 2], predicate = [\"i0 < 1\"]}\n"
	       "  acme.g {domain = [4, -1], predicate = [\"i0 < 1\"]}\n"
	       "}\n";
	m = tu_parse(text, &d);
	ck_assert_ptr_nonnull(m);
	const int want_rc[] = {PL_ETYPE, PL_EPARSE, PL_ETYPE, PL_ETYPE, PL_ETYPE, PL_EOVERFLOW,
	                       PL_EINVAL};
	i = pl_func_first_inst(pl_module_func_at(m, 0));
	for (size_t k = 0; k < 7; k++, i = pl_inst_next(i)) {
		uint64_t n = 0;
		ck_assert_msg(pl_inst_masked_dynamic_instances(i, &n) == want_rc[k], "%s",
		              pl_inst_opname(i));
	}
	pl_module_free(m);
	pl_diags_free(d);
	/* a domain of more than 64 dimensions */
	char big[1024] = "func @f() {\n  acme.x {predicate = [\"i0 < 1\"], domain = [";
	for (int k = 0; k < 65; k++)
		strcat(big, k ? ", 1" : "1");
	strcat(big, "]}\n}\n");
	m = tu_parse(big, &d);
	ck_assert_ptr_nonnull(m);
	uint64_t n;
	ck_assert_int_eq(pl_inst_masked_dynamic_instances(
				 pl_func_first_inst(pl_module_func_at(m, 0)), &n),
	                 PL_ELIMIT);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* ---- property tests --------------------------------------------------------- */

/* xorshift64*: a fixed sequence on every machine */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* uniform in [lo, hi] */
static int64_t rng_range(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_next() % (uint64_t)(hi - lo + 1));
}

struct gen_constraint {
	int64_t coeff[4];
	int64_t constant;
	pl_cmp cmp;
	char text[512];
};

static const char *const cmp_text[] = {"<", "<=", ">", ">=", "==", "!="};

/* Appends one term of value v (v != 0) for index k (k < 0: a constant)
 * to side, in a random spelling; *first says whether it starts the side. */
static void put_term(char *side, int64_t v, int k, bool *first)
{
	char buf[64];
	const char *sp = rng_range(0, 1) ? " " : "";
	bool neg = v < 0;
	int64_t a = neg ? -v : v;
	if (*first)
		strcat(side, neg ? (rng_range(0, 1) ? "-" : "- ") : "");
	else
		strcat(side, neg ? (rng_range(0, 1) ? " - " : "-") : (rng_range(0, 1) ? " + " : "+"));
	*first = false;
	if (k < 0)
		snprintf(buf, sizeof buf, "%lld", (long long)a);
	else if (a == 1 && rng_range(0, 1))
		snprintf(buf, sizeof buf, "i%d", k);
	else if (rng_range(0, 1))
		snprintf(buf, sizeof buf, "%lld%s*%si%d", (long long)a, sp, sp, k);
	else
		snprintf(buf, sizeof buf, "i%d%s*%s%lld", k, sp, sp, (long long)a);
	strcat(side, buf);
}

/* A random constraint over rank indices, and its text: each coefficient
 * is split between the two sides (and sometimes written as two terms). */
static void gen(struct gen_constraint *g, size_t rank, int cmin, int cmax, int kmin, int kmax)
{
	char lhs[256] = "", rhs[256] = "";
	bool lfirst = true, rfirst = true;
	for (size_t k = 0; k < 4; k++)
		g->coeff[k] = 0;
	for (size_t k = 0; k < rank; k++) {
		int64_t c = rng_range(cmin, cmax);
		g->coeff[k] = c;
		if (c == 0) {
			if (rng_range(0, 4) == 0) { /* "iK - iK" now and then */
				put_term(lhs, 1, (int)k, &lfirst);
				put_term(lhs, -1, (int)k, &lfirst);
			}
			continue;
		}
		int where = (int)rng_range(0, 2);
		if (where == 0) {
			put_term(lhs, c, (int)k, &lfirst);
		} else if (where == 1) {
			put_term(rhs, -c, (int)k, &rfirst);
		} else { /* split: c = a - b with a on the left, b on the right */
			int64_t a = rng_range(-3, 3);
			if (a == 0 || a == c) {
				put_term(lhs, c, (int)k, &lfirst);
			} else {
				put_term(lhs, a, (int)k, &lfirst);
				put_term(rhs, a - c, (int)k, &rfirst);
			}
		}
	}
	g->constant = rng_range(kmin, kmax);
	if (g->constant != 0 && rng_range(0, 1))
		put_term(lhs, g->constant, -1, &lfirst);
	else if (g->constant != 0)
		put_term(rhs, -g->constant, -1, &rfirst);
	else if (rng_range(0, 3) == 0)
		put_term(rhs, 0, -1, &rfirst); /* an explicit "+ 0" */
	if (lfirst)
		strcpy(lhs, "0");
	if (rfirst)
		strcpy(rhs, "0");
	g->cmp = (pl_cmp)rng_range(0, 5);
	snprintf(g->text, sizeof g->text, "%s %s %s", lhs, cmp_text[g->cmp], rhs);
}

static bool holds(const struct gen_constraint *g, const int64_t *idx, size_t rank)
{
	int64_t v = g->constant;
	for (size_t k = 0; k < rank; k++)
		v += g->coeff[k] * idx[k];
	switch (g->cmp) {
	case PL_CMP_LT: return v < 0;
	case PL_CMP_LE: return v <= 0;
	case PL_CMP_GT: return v > 0;
	case PL_CMP_GE: return v >= 0;
	case PL_CMP_EQ: return v == 0;
	case PL_CMP_NE: return v != 0;
	}
	return false;
}

/* Plain enumeration of every point. */
static uint64_t brute_count(const int64_t *ext, size_t rank, const struct gen_constraint *gs,
                            size_t n)
{
	for (size_t k = 0; k < rank; k++)
		if (ext[k] == 0)
			return 0;
	int64_t idx[4] = {0, 0, 0, 0};
	uint64_t total = 0;
	for (;;) {
		bool ok = true;
		for (size_t c = 0; c < n && ok; c++)
			ok = holds(&gs[c], idx, rank);
		total += ok;
		size_t k = 0;
		while (k < rank && ++idx[k] == ext[k])
			idx[k++] = 0;
		if (k == rank)
			return total;
	}
}

static void property_round(size_t rank, int64_t emax, size_t maxc, int cmin, int cmax, int kmin,
                           int kmax)
{
	int64_t ext[4];
	for (size_t k = 0; k < rank; k++)
		ext[k] = rng_range(0, emax);
	size_t n = (size_t)rng_range(1, (int64_t)maxc);
	struct gen_constraint gs[3];
	pl_constraint *cs[3];
	for (size_t c = 0; c < n; c++) {
		gen(&gs[c], rank, cmin, cmax, kmin, kmax);
		cs[c] = parse(gs[c].text, rank);
		/* the parser's normal form is the one generated */
		for (size_t k = 0; k < rank; k++)
			ck_assert_msg(pl_constraint_coeff(cs[c], k) == gs[c].coeff[k],
			              "\"%s\": coeff %zu", gs[c].text, k);
		ck_assert_msg(pl_constraint_constant(cs[c]) == gs[c].constant, "\"%s\": constant",
		              gs[c].text);
		ck_assert_int_eq(pl_constraint_cmp(cs[c]), gs[c].cmp);
	}
	uint64_t got = 0;
	int rc = pl_domain_count(ext, rank, (const pl_constraint *const *)cs, n, &got);
	uint64_t want = brute_count(ext, rank, gs, n);
	char desc[2048];
	int len = snprintf(desc, sizeof desc, "domain [");
	for (size_t k = 0; k < rank; k++)
		len += snprintf(desc + len, sizeof desc - (size_t)len, k ? ", %lld" : "%lld",
		                (long long)ext[k]);
	len += snprintf(desc + len, sizeof desc - (size_t)len, "]");
	for (size_t c = 0; c < n; c++)
		len += snprintf(desc + len, sizeof desc - (size_t)len, " \"%s\"", gs[c].text);
	ck_assert_msg(rc == PL_OK, "%s: status %d", desc, rc);
	ck_assert_msg(got == want, "%s: counted %llu, enumerated %llu", desc,
	              (unsigned long long)got, (unsigned long long)want);
	/* and pl_constraint_eval agrees with the generated form at a point */
	int64_t pt[4];
	for (size_t k = 0; k < rank; k++)
		pt[k] = rng_range(-5, 10);
	for (size_t c = 0; c < n; c++)
		ck_assert_msg(pl_constraint_eval(cs[c], pt) == holds(&gs[c], pt, rank), "%s",
		              gs[c].text);
	for (size_t c = 0; c < n; c++)
		pl_constraint_free(cs[c]);
}

/* The brief's distribution: rank 1-4, extents 0-7, 1-3 constraints with
 * coefficients -3..3, constants -10..10, any operator. */
START_TEST(test_property_small)
{
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 3000; round++)
		property_round((size_t)rng_range(1, 4), 7, 3, -3, 3, -10, 10);
}
END_TEST

/* Wider ranges, so that intervals are long and cut in the middle. */
START_TEST(test_property_wide)
{
	rng_state = 0x0123456789abcdefull;
	for (int round = 0; round < 400; round++)
		property_round((size_t)rng_range(1, 3), 30, 3, -40, 40, -400, 400);
}
END_TEST

static Suite *predicate_suite(void)
{
	Suite *s = suite_create("predicate");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_operators);
	tcase_add_test(tc, test_parse_terms);
	tcase_add_test(tc, test_parse_whitespace);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_eval);
	suite_add_tcase(s, tc);

	tc = tcase_create("count");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_count_tail_mask);
	tcase_add_test(tc, test_count_eq_ne);
	tcase_add_test(tc, test_count_contradictions_and_constants);
	tcase_add_test(tc, test_count_groups_multiply);
	tcase_add_test(tc, test_count_large_domain);
	tcase_add_test(tc, test_count_errors);
	tcase_add_test(tc, test_count_limit);
	tcase_add_test(tc, test_inst_masked);
	suite_add_tcase(s, tc);

	tc = tcase_create("property");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_property_small);
	tcase_add_test(tc, test_property_wide);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(predicate_suite)
