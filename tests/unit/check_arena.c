/* SPDX-License-Identifier: MIT */
/* tests/unit/check_arena.c — the bump allocator of a module's memory
 * (sdk/arena.c, built in): memory given to an arena is where its next
 * chunks come from, whole, before any new memory; an arena that adopts
 * another takes what was given to it too; what is too small to be a
 * chunk is freed at once; text is laid one string after another. Leaks
 * show under the sanitizers' build. */
#include "testutil.h"

#include "../../sdk/arena.h"

#include <stdint.h>
#include <stdio.h>

static bool inside(const void *p, const char *block, size_t size)
{
	return (const char *)p >= block && (const char *)p < block + size;
}

START_TEST(test_given_memory_first)
{
	pl_arena a;
	pl_arena_init(&a);
	enum { BLOCK = 1 << 20 };
	char *block = malloc(BLOCK);
	ck_assert_ptr_nonnull(block);
	void *before = pl_arena_alloc(&a, 64); /* a chunk of its own */
	ck_assert(!inside(before, block, BLOCK));
	pl_arena_give(&a, block, BLOCK);
	/* the first chunk's room goes first, then the block, to its end */
	size_t in_block = 0, total = 0;
	for (int k = 0; k < 40000; k++) {
		char *p = pl_arena_alloc(&a, 40);
		ck_assert_ptr_nonnull(p);
		memset(p, 0xab, 40);
		total++;
		if (inside(p, block, BLOCK))
			in_block++;
		else
			ck_assert_msg(in_block == 0 || in_block > (BLOCK - 4096) / 40,
			              "left the block after %zu", in_block);
	}
	ck_assert_uint_gt(in_block, (BLOCK - 4096) / 40);
	ck_assert_uint_lt(in_block, total);
	pl_arena_free(&a);
}
END_TEST

START_TEST(test_adopt_takes_given_memory)
{
	pl_arena a, b;
	pl_arena_init(&a);
	pl_arena_init(&b);
	enum { BLOCK = 256 << 10 };
	char *block = malloc(BLOCK);
	ck_assert_ptr_nonnull(block);
	ck_assert_ptr_nonnull(pl_arena_alloc(&a, 16));
	ck_assert_ptr_nonnull(pl_arena_alloc(&b, 16));
	pl_arena_give(&b, block, BLOCK);
	pl_arena_adopt(&a, &b);
	/* a fills its chunk, then the block b was given */
	bool reached = false;
	for (int k = 0; k < 20000 && !reached; k++)
		reached = inside(pl_arena_alloc(&a, 64), block, BLOCK);
	ck_assert(reached);
	pl_arena_free(&a);
	pl_arena_free(&b);
}
END_TEST

START_TEST(test_small_memory_freed_at_once)
{
	pl_arena a;
	pl_arena_init(&a);
	pl_arena_give(&a, malloc(4096), 4096); /* freed, or the build leaks */
	char *p = pl_arena_alloc(&a, 100);
	ck_assert_ptr_nonnull(p);
	pl_arena_free(&a);
}
END_TEST

START_TEST(test_text_in_a_row)
{
	/* names follow one another with no byte between them, across chunks,
	 * each a NUL-terminated copy */
	pl_arena a;
	pl_arena_init(&a);
	char *prev = NULL;
	size_t prev_len = 0, in_a_row = 0;
	for (int k = 0; k < 50000; k++) {
		char name[32];
		int len = snprintf(name, sizeof name, "v%d_%.*s", k, k % 7, "abcdefg");
		char *p = pl_arena_text(&a, name, (size_t)len);
		ck_assert_ptr_nonnull(p);
		ck_assert_str_eq(p, name);
		if (prev && p == prev + prev_len + 1)
			in_a_row++;
		prev = p;
		prev_len = (size_t)len;
	}
	ck_assert_uint_gt(in_a_row, 49900); /* all but the first of each chunk */
	pl_arena_free(&a);
}
END_TEST

static Suite *arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("given memory");
	tcase_add_test(tc, test_given_memory_first);
	tcase_add_test(tc, test_adopt_takes_given_memory);
	tcase_add_test(tc, test_small_memory_freed_at_once);
	tcase_add_test(tc, test_text_in_a_row);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(arena_suite)
