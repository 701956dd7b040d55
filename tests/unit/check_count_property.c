/* SPDX-License-Identifier: MIT */
/* tests/unit/check_count_property.c — exact domain counting (predicate.h)
 * checked against plain enumeration.
 *
 * "property": thousands of random small domains and predicates from a fixed
 * seed. Each constraint is generated as coefficients first, then spelled as
 * text in one of the grammar's forms (c*iK, iK*c, iK, terms on both sides,
 * leading minus), so the parser is checked too: the expected count comes
 * from the test's own coefficients, evaluated in 128 bits point by point.
 * Every case is counted twice, through pl_domain_count on parsed
 * constraints and through pl_inst_masked_dynamic_instances on an
 * instruction parsed from .pir text.
 *
 * "cases": hand-checked counts, the enumeration bound and the overflow of
 * a domain beyond INT64_MAX.
 */
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>

#define MAX_R 13
#define MAX_C 8

typedef __int128 i128;

/* xorshift64*: small, and the same sequence everywhere */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int64_t rng_range(int64_t lo, int64_t hi) /* inclusive */
{
	return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}

struct tconstraint {
	int64_t coeff[MAX_R]; /* lhs - rhs, as generated */
	int64_t constant;
	pl_cmp cmp;
	char text[600];
};

struct tcase {
	size_t rank;
	int64_t ext[MAX_R];
	size_t ncs;
	struct tconstraint cs[MAX_C];
};

static const char *const cmp_text[] = {"<", "<=", ">", ">=", "==", "!="};

static bool holds(pl_cmp cmp, i128 v)
{
	switch (cmp) {
	case PL_CMP_LT: return v < 0;
	case PL_CMP_LE: return v <= 0;
	case PL_CMP_GT: return v > 0;
	case PL_CMP_GE: return v >= 0;
	case PL_CMP_EQ: return v == 0;
	case PL_CMP_NE: return v != 0;
	}
	return false;
}

/* The reference: walk every point. */
static uint64_t enumerate(const struct tcase *t)
{
	for (size_t k = 0; k < t->rank; k++)
		if (t->ext[k] == 0)
			return 0;
	int64_t idx[MAX_R] = {0};
	uint64_t n = 0;
	for (;;) {
		bool ok = true;
		for (size_t c = 0; c < t->ncs && ok; c++) {
			i128 v = t->cs[c].constant;
			for (size_t k = 0; k < t->rank; k++)
				v += (i128)t->cs[c].coeff[k] * idx[k];
			ok = holds(t->cs[c].cmp, v);
		}
		n += ok;
		size_t k = 0;
		for (; k < t->rank; k++) {
			if (++idx[k] < t->ext[k])
				break;
			idx[k] = 0;
		}
		if (k == t->rank)
			return n;
	}
}

/* Appends one term "value*iK" (k < 0: a constant) to buf, in a random
 * spelling, with its sign; first says whether it starts its side. */
static void put_term(char *buf, size_t cap, int64_t value, int k, bool first)
{
	size_t len = strlen(buf);
	uint64_t mag = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
	const char *sign = value < 0 ? (first ? "-" : " - ") : (first ? "" : " + ");
	if (k < 0) {
		snprintf(buf + len, cap - len, "%s%" PRIu64, sign, mag);
		return;
	}
	switch (rng() % 3) {
	case 0:
		if (mag == 1) {
			snprintf(buf + len, cap - len, "%si%d", sign, k);
			break;
		}
		/* fall through */
	case 1:
		snprintf(buf + len, cap - len, "%s%" PRIu64 "*i%d", sign, mag, k);
		break;
	default:
		snprintf(buf + len, cap - len, "%si%d*%" PRIu64, sign, k, mag);
		break;
	}
}

/* Spells the constraint: every term lands on the left or, negated, on the
 * right; an empty side is written as 0. */
static void spell(struct tconstraint *c, size_t rank)
{
	char lhs[256] = "", rhs[256] = "";
	for (int k = -1; k < (int)rank; k++) {
		int64_t v = k < 0 ? c->constant : c->coeff[k];
		if (v == 0)
			continue;
		bool left = rng() % 2;
		char *side = left ? lhs : rhs;
		put_term(side, sizeof lhs, left ? v : -v, k, side[0] == '\0');
	}
	snprintf(c->text, sizeof c->text, "%s %s %s", lhs[0] ? lhs : "0",
	         cmp_text[c->cmp], rhs[0] ? rhs : "0");
}

static void make_case(struct tcase *t)
{
	memset(t, 0, sizeof *t);
	t->rank = (size_t)rng_range(0, 4) + (rng() % 4 == 0);
	for (size_t k = 0; k < t->rank; k++) {
		switch (rng() % 10) {
		case 0: t->ext[k] = 1; break;
		case 1: t->ext[k] = rng_range(0, 2); break;
		case 2: t->ext[k] = rng_range(10, 24); break;
		default: t->ext[k] = rng_range(2, 7); break;
		}
	}
	t->ncs = (size_t)rng_range(0, 3) + (rng() % 8 == 0);
	for (size_t c = 0; c < t->ncs; c++) {
		struct tconstraint *tc = &t->cs[c];
		static const pl_cmp cmps[] = {PL_CMP_LT, PL_CMP_LE, PL_CMP_GT, PL_CMP_GE,
		                              PL_CMP_NE, PL_CMP_LT, PL_CMP_LE, PL_CMP_GT,
		                              PL_CMP_GE, PL_CMP_NE, PL_CMP_EQ};
		tc->cmp = cmps[rng() % (sizeof cmps / sizeof cmps[0])];
		/* mostly a hyperplane through or near a point of the domain, so
		 * that the constraint cuts it rather than keeping all or nothing */
		int64_t dot = 0;
		bool constant_only = rng() % 8 == 0;
		for (size_t k = 0; k < t->rank && !constant_only; k++) {
			if (rng() % 3 == 0)
				continue;
			tc->coeff[k] = rng_range(-4, 4);
			dot += tc->coeff[k] * (t->ext[k] ? rng_range(0, t->ext[k] - 1) : 0);
		}
		tc->constant = constant_only ? rng_range(-2, 2) : -dot + rng_range(-3, 3);
		if (rng() % 16 == 0) { /* large coefficients: 128-bit arithmetic */
			size_t k = t->rank ? (size_t)(rng() % t->rank) : 0;
			if (t->rank)
				tc->coeff[k] = (int64_t)(rng() >> 2) * (rng() % 2 ? 1 : -1);
			tc->constant = (int64_t)(rng() >> 2) * (rng() % 2 ? 1 : -1);
		}
		spell(tc, t->rank);
	}
}

/* Many small linked indices: groups beyond the exhaustive choice of inner
 * indices (more than 10 linked), chains where several inner indices are
 * independent. Extents 1 to 3 keep the enumeration small. */
static void make_wide_case(struct tcase *t)
{
	memset(t, 0, sizeof *t);
	t->rank = (size_t)rng_range(8, MAX_R);
	int64_t point[MAX_R];
	for (size_t k = 0; k < t->rank; k++) {
		t->ext[k] = rng_range(2, 3);
		point[k] = rng_range(0, t->ext[k] - 1);
	}
	bool chain = rng() % 2;
	t->ncs = chain ? (t->rank + 1) / 2 : (size_t)rng_range(2, MAX_C);
	for (size_t c = 0; c < t->ncs; c++) {
		struct tconstraint *tc = &t->cs[c];
		static const pl_cmp cmps[] = {PL_CMP_LT, PL_CMP_LE, PL_CMP_GT, PL_CMP_GE,
		                              PL_CMP_NE, PL_CMP_EQ};
		tc->cmp = chain ? (rng() % 3 ? PL_CMP_NE : PL_CMP_LE)
		                : cmps[rng() % (sizeof cmps / sizeof cmps[0])];
		int64_t dot = 0;
		if (chain) { /* i(2c), i(2c+1), i(2c+2): one long group */
			for (size_t k = 2 * c; k <= 2 * c + 2 && k < t->rank; k++)
				tc->coeff[k] = rng_range(1, 3) * (rng() % 2 ? 1 : -1);
		} else {
			for (int n = (int)rng_range(2, 3); n > 0; n--) {
				size_t k = (size_t)(rng() % t->rank);
				tc->coeff[k] = rng_range(1, 3) * (rng() % 2 ? 1 : -1);
			}
		}
		for (size_t k = 0; k < t->rank; k++)
			dot += tc->coeff[k] * point[k];
		tc->constant = -dot + rng_range(-1, 1);
		spell(tc, t->rank);
	}
}

static char *describe(const struct tcase *t)
{
	static char buf[4096];
	size_t len = (size_t)snprintf(buf, sizeof buf, "domain [");
	for (size_t k = 0; k < t->rank; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%" PRId64, k ? ", " : "",
		                        t->ext[k]);
	len += (size_t)snprintf(buf + len, sizeof buf - len, "], predicate [");
	for (size_t c = 0; c < t->ncs; c++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s\"%s\"", c ? ", " : "",
		                        t->cs[c].text);
	snprintf(buf + len, sizeof buf - len, "]");
	return buf;
}

/* pl_domain_count on constraints parsed from the spelled text. */
static int count_parsed(const struct tcase *t, uint64_t *out)
{
	pl_constraint *cs[MAX_C] = {NULL};
	int rc = PL_OK;
	for (size_t c = 0; c < t->ncs && rc == PL_OK; c++) {
		size_t col;
		const char *msg;
		rc = pl_constraint_parse(t->cs[c].text, strlen(t->cs[c].text), t->rank, &cs[c],
		                         &col, &msg);
		ck_assert_msg(rc == PL_OK, "\"%s\" does not parse: column %zu: %s",
		              t->cs[c].text, col, msg);
		for (size_t k = 0; k < t->rank; k++)
			ck_assert_msg(pl_constraint_coeff(cs[c], k) == t->cs[c].coeff[k],
			              "\"%s\": coefficient of i%zu", t->cs[c].text, k);
		ck_assert(pl_constraint_constant(cs[c]) == t->cs[c].constant);
		ck_assert_int_eq(pl_constraint_cmp(cs[c]), t->cs[c].cmp);
	}
	rc = pl_domain_count(t->ext, t->rank, (const pl_constraint *const *)cs, t->ncs, out);
	for (size_t c = 0; c < t->ncs; c++)
		pl_constraint_free(cs[c]);
	return rc;
}

/* pl_inst_masked_dynamic_instances on "%v = acme.op {domain, predicate}". */
static int count_inst(const struct tcase *t, uint64_t *out)
{
	char text[4096];
	size_t len = (size_t)snprintf(text, sizeof text,
	                              "func @f() {\n  %%v = acme.op {domain = [");
	for (size_t k = 0; k < t->rank; k++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%" PRId64, k ? ", " : "",
		                        t->ext[k]);
	len += (size_t)snprintf(text + len, sizeof text - len, "], predicate = [");
	for (size_t c = 0; c < t->ncs; c++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s\"%s\"", c ? ", " : "",
		                        t->cs[c].text);
	snprintf(text + len, sizeof text - len, "]} : f32[]\n}\n");
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "%s: %s", text, tu_first_diag(d));
	ck_assert_msg(pl_verify_module(m, d) == PL_OK, "%s: %s", text, tu_first_diag(d));
	int rc = pl_inst_masked_dynamic_instances(
		pl_func_first_inst(pl_module_func_at(m, 0)), out);
	pl_module_free(m);
	pl_diags_free(d);
	return rc;
}

enum { NUM_RANDOM_CASES = 5000 };

START_TEST(test_random_against_enumeration)
{
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < NUM_RANDOM_CASES; i++) {
		struct tcase t;
		make_case(&t);
		uint64_t want = enumerate(&t), got = UINT64_MAX, got_inst = UINT64_MAX;
		int rc = count_parsed(&t, &got);
		ck_assert_msg(rc == PL_OK && got == want,
		              "case %d, %s: pl_domain_count gives %" PRIu64 " (status %d), "
		              "enumeration %" PRIu64, i, describe(&t), got, rc, want);
		rc = count_inst(&t, &got_inst);
		ck_assert_msg(rc == PL_OK && got_inst == want,
		              "case %d, %s: masked_dynamic_instances gives %" PRIu64
		              " (status %d), enumeration %" PRIu64, i, describe(&t), got_inst, rc,
		              want);
	}
}
END_TEST

enum { NUM_WIDE_CASES = 300 };

START_TEST(test_random_wide_against_enumeration)
{
	rng_state = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < NUM_WIDE_CASES; i++) {
		struct tcase t;
		make_wide_case(&t);
		uint64_t want = enumerate(&t), got = UINT64_MAX, got_inst = UINT64_MAX;
		int rc = count_parsed(&t, &got);
		ck_assert_msg(rc == PL_OK && got == want,
		              "wide case %d, %s: pl_domain_count gives %" PRIu64 " (status %d), "
		              "enumeration %" PRIu64, i, describe(&t), got, rc, want);
		rc = count_inst(&t, &got_inst);
		ck_assert_msg(rc == PL_OK && got_inst == want,
		              "wide case %d, %s: masked_dynamic_instances gives %" PRIu64
		              " (status %d), enumeration %" PRIu64, i, describe(&t), got_inst, rc,
		              want);
	}
}
END_TEST

/* ---- hand-checked cases ---- */

static int count_text(const int64_t *ext, size_t rank, const char *const *texts,
                      size_t n, uint64_t *out)
{
	pl_constraint *cs[8] = {NULL};
	for (size_t c = 0; c < n; c++)
		ck_assert_int_eq(pl_constraint_parse(texts[c], strlen(texts[c]), rank, &cs[c],
		                                     NULL, NULL), PL_OK);
	int rc = pl_domain_count(ext, rank, (const pl_constraint *const *)cs, n, out);
	for (size_t c = 0; c < n; c++)
		pl_constraint_free(cs[c]);
	return rc;
}

/* 2^40 points with a tail mask: 128*i0 + i1 < N holds for the first N
 * points of the flattened [2^23, 128] tile loop; i2 is free. */
START_TEST(test_tail_mask_2_40)
{
	int64_t ext[] = {(int64_t)1 << 23, 128, 1024}; /* 2^23 * 2^7 * 2^10 */
	const char *mask[] = {"128*i0 + i1 < 1000000007"};
	uint64_t n = 0;
	ck_assert_int_eq(count_text(ext, 3, mask, 1, &n), PL_OK);
	/* (i0, i1) flattened is 128*i0 + i1 in [0, 2^30): 1000000007 of them
	 * are below N; i2 is free: times 1024. */
	ck_assert_uint_eq(n, (uint64_t)1000000007 * 1024);
}
END_TEST

START_TEST(test_contradiction_and_empty)
{
	int64_t ext[] = {100, 100};
	uint64_t n = 99;
	const char *contra[] = {"i0 < 5", "i0 > 10"};
	ck_assert_int_eq(count_text(ext, 2, contra, 2, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	const char *never[] = {"2*i0 == 7"}; /* no integer solution */
	n = 99;
	ck_assert_int_eq(count_text(ext, 2, never, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	const char *const_false[] = {"1 < 0"};
	n = 99;
	ck_assert_int_eq(count_text(ext, 2, const_false, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	const char *linked_contra[] = {"i0 + i1 < 10", "i0 + i1 > 20"};
	n = 99;
	ck_assert_int_eq(count_text(ext, 2, linked_contra, 2, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	/* no constraints at all: the whole domain */
	ck_assert_int_eq(count_text(ext, 2, NULL, 0, &n), PL_OK);
	ck_assert_uint_eq(n, 10000);
}
END_TEST

START_TEST(test_eq_ne)
{
	int64_t ext[] = {10, 10};
	uint64_t n = 0;
	/* i0 == i1: the diagonal, 10 points */
	const char *diag[] = {"i0 == i1"};
	ck_assert_int_eq(count_text(ext, 2, diag, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 10);
	/* i0 != i1: 100 - 10 */
	const char *off[] = {"i0 != i1"};
	ck_assert_int_eq(count_text(ext, 2, off, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 90);
	/* two != excluding the same point count it once: i0 != 3 twice */
	const char *twice[] = {"i0 != 3", "2*i0 != 6"};
	ck_assert_int_eq(count_text(ext, 2, twice, 2, &n), PL_OK);
	ck_assert_uint_eq(n, 90);
	/* 2*i0 + 3*i1 == 12: (0,4) (3,2) (6,0) */
	const char *line[] = {"2*i0 + 3*i1 == 12"};
	ck_assert_int_eq(count_text(ext, 2, line, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 3);
}
END_TEST

/* Two constrained indices of 2^14 each linked by one constraint: the outer
 * walk is 2^14 points, within the bound. Three of 2^14 that no bound
 * narrows: 2^28 outer points, beyond PL_COUNT_MAX_ENUMERATION (2^26). */
START_TEST(test_enumeration_bound)
{
	int64_t ext[] = {16384, 16384, 16384};
	uint64_t n = 0;
	const char *two[] = {"i0 + i1 < 16384"};
	ck_assert_int_eq(count_text(ext, 3, two, 1, &n), PL_OK);
	/* i0 + i1 < 16384: sum over i0 of (16384 - i0) = 16384*16385/2 */
	ck_assert_uint_eq(n, (uint64_t)16384 * 16385 / 2 * 16384);
	const char *three[] = {"i0 + i1 + i2 < 30000"};
	ck_assert_int_eq(count_text(ext, 3, three, 1, &n), PL_ELIMIT);
}
END_TEST

/* Bound propagation: i0 + i1 + i2 < 100 caps every index at 99, so the
 * outer walk is 100 * 100 points, not 2^28. The points are the triples of
 * naturals with a sum below 100: C(102, 3) = 102*101*100/6 = 171700. */
START_TEST(test_implied_bounds)
{
	int64_t ext[] = {16384, 16384, 16384};
	uint64_t n = 0;
	const char *c[] = {"i0 + i1 + i2 < 100"};
	ck_assert_int_eq(count_text(ext, 3, c, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 171700);
}
END_TEST

/* A constraint that holds on the whole box links nothing: 128*i0 + i1 is
 * at most 128*(2^20 - 1) + 2^20 - 1 < 1000000007, so all 2^40 points. */
START_TEST(test_decided_constraint)
{
	int64_t ext[] = {(int64_t)1 << 20, (int64_t)1 << 20};
	uint64_t n = 0;
	const char *c[] = {"128*i0 + i1 < 1000000007"};
	ck_assert_int_eq(count_text(ext, 2, c, 1, &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)1 << 40);
	const char *never[] = {"i0 + i1 < 0"}; /* false on the whole box */
	ck_assert_int_eq(count_text(ext, 2, never, 1, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* i1 and i2 share no constraint, so with i0 fixed they are independent
 * intervals: only i0 (8192 points) is walked, not i0 x i1 (2^26).
 *   i0 <= 1808:        8192 * 1024                 (1809 values of i0)
 *   1809 <= i0 <= 7976: (10000 - i0) * 1024
 *   7977 <= i0 <= 8191: (10000 - i0) * (9000 - i0)
 * = 15174991872 + 32259133440 + 378165220 = 47812290532. */
START_TEST(test_independent_inner_indices)
{
	int64_t ext[] = {8192, 8192, 1024};
	uint64_t n = 0;
	const char *c[] = {"i0 + i1 < 10000", "i0 + i2 < 9000"};
	ck_assert_int_eq(count_text(ext, 3, c, 2, &n), PL_OK);
	ck_assert_uint_eq(n, 47812290532ull);
}
END_TEST

START_TEST(test_domain_overflow)
{
	int64_t ext[] = {(int64_t)1 << 32, (int64_t)1 << 32};
	uint64_t n = 0;
	const char *c[] = {"i0 < 5"};
	ck_assert_int_eq(count_text(ext, 2, c, 1, &n), PL_EOVERFLOW);
}
END_TEST

static Suite *count_suite(void)
{
	Suite *s = suite_create("count");
	TCase *tc = tcase_create("property");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_against_enumeration);
	tcase_add_test(tc, test_random_wide_against_enumeration);
	suite_add_tcase(s, tc);
	tc = tcase_create("cases");
	tcase_add_test(tc, test_tail_mask_2_40);
	tcase_add_test(tc, test_contradiction_and_empty);
	tcase_add_test(tc, test_eq_ne);
	tcase_add_test(tc, test_enumeration_bound);
	tcase_add_test(tc, test_implied_bounds);
	tcase_add_test(tc, test_decided_constraint);
	tcase_add_test(tc, test_independent_inner_indices);
	tcase_add_test(tc, test_domain_overflow);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(count_suite)
