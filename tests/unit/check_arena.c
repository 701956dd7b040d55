/* SPDX-License-Identifier: MIT */
/* tests/unit/check_arena.c — the bump allocator of a module's memory
 * (sdk/ir/arena.c, built in): memory given to an arena is where its next
 * chunks come from, whole, before any new memory; an arena that adopts
 * another takes what was given to it too; what is too small to be a
 * chunk is freed at once; text is laid one string after another. An
 * arena in a region (sdk/ir/region.c) takes every chunk from it, so that
 * 32-bit offsets name what it holds, shares it with another arena that
 * may adopt it, and takes no given memory; a fresh chunk's pages are put
 * in place a window ahead of what it hands out. Leaks show under the
 * sanitizers' build. */
#include <config.h> /* _GNU_SOURCE: madvise and mincore */

#include "testutil.h"

#include "../../sdk/ir/arena.h"
#include "../../sdk/ir/region.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

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

/* Whether p lies in the region that holds near. */
static bool same_region(const void *p, const void *near)
{
	return ((uintptr_t)p & ~(PL_REGION_SIZE - 1)) == ((uintptr_t)near & ~(PL_REGION_SIZE - 1));
}

/* An arena in a new region, which the arena alone holds; the region. */
static struct pl_region *arena_in_new_region(pl_arena *a)
{
	struct pl_region *r = pl_region_new();
	ck_assert_ptr_nonnull(r);
	pl_arena_init_in(a, r);
	pl_region_drop(r); /* the arena holds it now */
	return r;
}

START_TEST(test_region_offsets)
{
	pl_arena a;
	arena_in_new_region(&a);
	/* across many chunks, every allocation is in the region, zeroed,
	 * and found again from its offset through any other one */
	char *first = pl_arena_alloc(&a, 24);
	ck_assert_ptr_nonnull(first);
	ck_assert_uint_ne(pl_region_off_(first), 0);
	for (int k = 0; k < 300000; k++) {
		size_t n = 8 + (size_t)(k % 61) * 8;
		char *p = pl_arena_alloc(&a, n);
		ck_assert_ptr_nonnull(p);
		ck_assert(same_region(p, first));
		ck_assert_int_eq(p[0] | p[n - 1], 0);
		memset(p, 0x5a, n);
		ck_assert_ptr_eq(pl_region_at_(first, pl_region_off_(p)), p);
		ck_assert_ptr_eq(pl_region_at_(p, pl_region_off_(first)), first);
	}
	ck_assert_ptr_null(pl_region_at_(first, pl_region_off_(NULL)));
	pl_arena_free(&a);
}
END_TEST

START_TEST(test_region_shared_and_adopted)
{
	struct pl_region *r = pl_region_new();
	ck_assert_ptr_nonnull(r);
	pl_arena a, b;
	pl_arena_init_in(&a, r);
	pl_arena_init_in(&b, r);
	pl_region_drop(r);
	/* a region arena takes no given memory: the block is freed */
	pl_arena_give(&b, malloc(1 << 20), 1 << 20);
	char *pa = pl_arena_alloc(&a, 64), *pb = NULL;
	for (int k = 0; k < 100000; k++) {
		pb = pl_arena_alloc(&b, 64);
		ck_assert_ptr_nonnull(pb);
		ck_assert(same_region(pb, pa));
		memset(pb, 1, 64);
	}
	pl_arena_adopt(&a, &b);
	/* b's memory lives with a; b still holds the region until freed */
	pl_arena_free(&b);
	ck_assert_int_eq(pb[63], 1);
	char *pc = pl_arena_alloc(&a, 64);
	ck_assert(same_region(pc, pa));
	pl_arena_free(&a);
}
END_TEST

START_TEST(test_region_takes_its_own_memory)
{
	/* a region arena takes memory of its region that is given to it (a
	 * table's outgrown slots) as its next chunk, and frees any other */
	pl_arena a;
	struct pl_region *r = arena_in_new_region(&a);
	enum { BLOCK = 1 << 20 };
	char *table = pl_arena_take_table(&a, BLOCK);
	ck_assert_ptr_nonnull(table);
	ck_assert(same_region(table, r));
	memset(table, 0x11, BLOCK);
	pl_arena_give(&a, malloc(BLOCK), BLOCK); /* not the region's: freed */
	pl_arena_give(&a, table, BLOCK);
	char *p = pl_arena_alloc(&a, 64);
	ck_assert(inside(p, table, BLOCK));
	/* and the last slots of a table go back, leaving the span reserved */
	char *last = pl_arena_take_table(&a, BLOCK);
	ck_assert_ptr_nonnull(last);
	memset(last, 1, BLOCK);
	pl_arena_release_table(&a, last, BLOCK);
	pl_arena_free(&a);
}
END_TEST

START_TEST(test_regions_apart)
{
	/* many live regions, each its own span (fewer where addresses have
	 * 32 bits: 256 MiB each there) */
	enum { N = sizeof(void *) > 4 ? 64 : 4 };
	struct pl_region *r[N];
	void *p[N];
	for (int k = 0; k < N; k++) {
		ck_assert_ptr_nonnull(r[k] = pl_region_new());
		size_t got = 0;
		ck_assert_ptr_nonnull(p[k] = pl_region_take(r[k], 100, &got));
		ck_assert_uint_ge(got, 100);
		for (int j = 0; j < k; j++)
			ck_assert(!same_region(p[k], p[j]));
	}
	for (int k = 0; k < N; k++)
		pl_region_drop(r[k]);
}
END_TEST

START_TEST(test_region_under_address_space_limit)
{
	/* a process allowed 6 GiB more address space than it has (ulimit
	 * -v) still gets a region, a smaller one, that works the same */
	FILE *f = fopen("/proc/self/statm", "r");
	ck_assert_ptr_nonnull(f);
	unsigned long pages = 0;
	ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	rlim_t have = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
	struct rlimit lim = {have + ((rlim_t)6 << 30), have + ((rlim_t)6 << 30)};
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	struct pl_region *r = pl_region_new();
	ck_assert_ptr_nonnull(r);
	size_t got = 0;
	char *p = pl_region_take(r, 1 << 20, &got), *q = pl_region_take(r, 1 << 20, &got);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	memset(q, 7, 1 << 20);
	ck_assert_ptr_eq(pl_region_at_(p, pl_region_off_(q + 8)), q + 8);
	/* it holds less than the span, and says so when full */
	ck_assert_ptr_null(pl_region_take(r, PL_REGION_SIZE / 2, &got));
	pl_region_drop(r);
}
END_TEST

/* Whether the page holding p is memory (resident), not merely mapped. */
static bool resident(const void *p)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	unsigned char in = 0;
	ck_assert_int_eq(mincore((void *)((uintptr_t)p & ~(page - 1)), 1, &in), 0);
	return in & 1;
}

/* A fresh chunk's pages are put in place ahead of the bump pointer, a
 * window at a time: what the arena handed out is memory before anyone
 * writes it (where the kernel can put pages in place), and at most a
 * window beyond it, never the rest of the chunk. */
START_TEST(test_pages_in_place_a_window_ahead)
{
	pl_arena a;
	arena_in_new_region(&a);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* into a chunk of 4 MiB or more (64 KiB, doubling), never written */
	while (a.total < 4u << 20)
		ck_assert_ptr_nonnull(pl_arena_alloc(&a, 1024));
	char *from = pl_arena_alloc(&a, 1024);
	for (int k = 0; k < 600; k++) /* 600 KiB in the same chunk */
		ck_assert_ptr_eq(pl_arena_alloc(&a, 1024), from + 1024 * (k + 1));
	ck_assert(a.cur <= a.end && a.end <= a.limit);
	ck_assert_uint_le((size_t)(a.end - a.cur), 128 * 1024);
	ck_assert_uint_ge((size_t)(a.limit - a.end), 1u << 20);
	/* whether the kernel knows the call (an unknown one is refused
	 * whatever the length) */
	bool known = madvise((void *)((uintptr_t)from & ~(uintptr_t)(page - 1)), 0,
	                     MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
	for (char *p = from + page; p + page <= a.cur; p += page)
		ck_assert(resident(p) == known);
	for (char *p = a.end; p < a.limit; p += page)
		ck_assert(!resident(p));
	/* and what it holds reads as zero, like any new memory */
	for (char *p = from; p < a.cur; p += 512)
		ck_assert_int_eq(*p, 0);
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
	tc = tcase_create("region");
	/* hundreds of thousands of checked allocations: seconds under the
	 * sanitizers on a loaded machine, past Check's default of 4 */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_region_offsets);
	tcase_add_test(tc, test_region_shared_and_adopted);
	tcase_add_test(tc, test_region_takes_its_own_memory);
	tcase_add_test(tc, test_regions_apart);
	tcase_add_test(tc, test_region_under_address_space_limit);
	tcase_add_test(tc, test_pages_in_place_a_window_ahead);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(arena_suite)
