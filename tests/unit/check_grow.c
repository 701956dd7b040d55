/* SPDX-License-Identifier: MIT */
/* tests/unit/check_grow.c — the one way the library and the plugins grow
 * an array (passline/grow.h): room for what is asked, the elements kept, the
 * capacity doubling, and nothing changed when the size would overflow.
 * Leaks show under the sanitizers' build. */
#include "testutil.h"

#include <passline/grow.h>

#include <stdint.h>

START_TEST(test_room_and_elements_kept)
{
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, grew = 0, last_cap = 0;
	for (uint64_t k = 0; k < 100000; k++) {
		ck_assert(PL_GROW(v, cap, n + 1));
		ck_assert_uint_ge(cap, n + 1);
		if (cap != last_cap) {
			/* doubles: at most twice what it had, from 8 */
			ck_assert(last_cap == 0 ? cap == 8 : cap == 2 * last_cap);
			last_cap = cap;
			grew++;
		}
		v[n++] = k * 7919;
	}
	ck_assert_uint_le(grew, 15); /* 8 << 14 > 100000 */
	for (size_t k = 0; k < n; k++)
		ck_assert_uint_eq(v[k], k * 7919);
	free(v);
}
END_TEST

START_TEST(test_enough_is_nothing)
{
	char *v = malloc(32);
	ck_assert_ptr_nonnull(v);
	char *before = v;
	size_t cap = 32;
	ck_assert(PL_GROW(v, cap, 32));
	ck_assert_ptr_eq(v, before);
	ck_assert_uint_eq(cap, 32);
	/* far more than twice at once: the first doubling that holds it */
	ck_assert(PL_GROW(v, cap, 1000));
	ck_assert_uint_eq(cap, 1024);
	free(v);
}
END_TEST

START_TEST(test_overflow_changes_nothing)
{
	uint64_t *v = NULL;
	size_t cap = 0;
	ck_assert(PL_GROW(v, cap, 3));
	uint64_t *before = v;
	size_t cap_before = cap;
	ck_assert(!PL_GROW(v, cap, SIZE_MAX / 4));     /* bytes overflow */
	ck_assert(!PL_GROW(v, cap, SIZE_MAX / 2 + 2)); /* the count overflows */
	ck_assert(!PL_GROW(v, cap, SIZE_MAX));
	ck_assert_ptr_eq(v, before);
	ck_assert_uint_eq(cap, cap_before);
	free(v);
}
END_TEST

static Suite *grow_suite(void)
{
	Suite *s = suite_create("grow");
	TCase *tc = tcase_create("arrays");
	/* 300,000 assertions: past Check's 4 s under sanitizers on a busy
	 * machine */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_room_and_elements_kept);
	tcase_add_test(tc, test_enough_is_nothing);
	tcase_add_test(tc, test_overflow_changes_nothing);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(grow_suite)
