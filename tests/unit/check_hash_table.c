/* SPDX-License-Identifier: MIT */
/* tests/unit/check_hash_table.c — the one hash table of the library and
 * the plugins (passline/hash_table.h), and what the reader shares through it:
 *
 * table:   inserts and finds against a plain array, across growth; equal
 *          hashes of different items; clearing in O(1) by generation,
 *          generation wrap-around; a map's values survive growth; the
 *          map keyed by address (get, put, replace, absent, cleared);
 *          the slots a table outgrows go to its give_back; a table of
 *          offsets (8-byte slots): the same finds across growth and
 *          hash collisions, a map, iteration, the hash of a slot,
 *          clearing (memory kept, or freed when far too large);
 * sharing: equal dictionaries read share their entries, and writing one
 *          (copy on write) leaves the other as it was; equal value names
 *          share one copy; reading unique dictionaries gives each its own.
 */
#include "testutil.h"

#include <passline/hash_table.h>

#include <stdio.h>

/* a deliberately poor hash: collisions and long probe runs */
static uint32_t poor_hash(uintptr_t k) { return (uint32_t)(k % 97); }

START_TEST(test_insert_find_grow)
{
	struct pl_ht t = {0};
	enum { N = 5000 };
	for (uintptr_t k = 1; k <= N; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, poor_hash(k), pl_ht_same_ptr, (void *)k, NULL);
		ck_assert(!pl_ht_used(&t, j));
		pl_ht_put(&t, j, poor_hash(k), (void *)k);
		ck_assert_uint_le(t.count * 4, t.cap * 3); /* at most 3/4 full */
	}
	ck_assert_uint_eq(t.count, N);
	for (uintptr_t k = 1; k <= 2 * N; k++) {
		const void *got = pl_ht_get(&t, poor_hash(k), pl_ht_same_ptr, (void *)k, NULL);
		ck_assert_ptr_eq(got, k <= N ? (void *)k : NULL);
	}
	pl_ht_free(&t);
	ck_assert_ptr_null(pl_ht_get(&t, 1, pl_ht_same_ptr, (void *)1, NULL)); /* empty again */
}
END_TEST

START_TEST(test_clear_by_generation)
{
	struct pl_ht t = {0};
	for (int round = 0; round < 3; round++) {
		for (uintptr_t k = 1; k <= 100; k++) {
			ck_assert(pl_ht_reserve(&t));
			size_t j = pl_ht_find(&t, poor_hash(k), pl_ht_same_ptr, (void *)(k + 1000 * (uintptr_t)round), NULL);
			pl_ht_put(&t, j, poor_hash(k), (void *)(k + 1000 * (uintptr_t)round));
		}
		size_t cap = t.cap;
		pl_ht_clear(&t);
		ck_assert_uint_eq(t.count, 0);
		ck_assert_uint_eq(t.cap, cap); /* the memory is kept */
		ck_assert_ptr_null(pl_ht_get(&t, poor_hash(5), pl_ht_same_ptr, (void *)(5 + 1000 * (uintptr_t)round), NULL));
	}
	/* a generation that wraps: every slot is empty after it, none looks used */
	ck_assert(pl_ht_reserve(&t));
	size_t j = pl_ht_find(&t, 7, pl_ht_same_ptr, (void *)7, NULL);
	pl_ht_put(&t, j, 7, (void *)7);
	t.gen = UINT32_MAX;
	t.slots[j].gen = UINT32_MAX;
	pl_ht_clear(&t);
	ck_assert_uint_eq(t.gen, 1);
	for (size_t k = 0; k < t.cap; k++)
		ck_assert(!pl_ht_used(&t, k));
	pl_ht_free(&t);
}
END_TEST

START_TEST(test_map_values_survive_growth)
{
	struct pl_ht t = {.map = true};
	for (uintptr_t k = 1; k <= 1000; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, pl_ht_hash_ptr((void *)k), pl_ht_same_ptr, (void *)k, NULL);
		pl_ht_put(&t, j, pl_ht_hash_ptr((void *)k), (void *)k);
		t.vals[j] = (void *)(k * 3);
	}
	for (uintptr_t k = 1; k <= 1000; k++) {
		size_t j = pl_ht_find(&t, pl_ht_hash_ptr((void *)k), pl_ht_same_ptr, (void *)k, NULL);
		ck_assert(pl_ht_used(&t, j));
		ck_assert_ptr_eq(t.vals[j], (void *)(k * 3));
	}
	pl_ht_free(&t);
	ck_assert(t.map); /* still a map, for the next use */
}
END_TEST

static pl_module *parse_text(const char *text)
{
	pl_module *m = NULL;
	pl_diags *d = pl_diags_new();
	ck_assert_int_eq(pl_parse_buffer(text, strlen(text), "t.pir", d, &m), PL_OK);
	pl_diags_free(d);
	return m;
}

START_TEST(test_map_keyed_by_address)
{
	struct pl_ht t = {0};
	enum { N = 3000 };
	static int keys[N];
	ck_assert_ptr_null(pl_ht_ptr_get(&t, &keys[0])); /* never used */
	for (size_t k = 0; k < N; k++)
		ck_assert(pl_ht_ptr_put(&t, &keys[k], (void *)(uintptr_t)(k + 1)));
	for (size_t k = 0; k < N; k += 3) /* replaced, not added */
		ck_assert(pl_ht_ptr_put(&t, &keys[k], (void *)(uintptr_t)(k + 1 + N)));
	ck_assert_uint_eq(t.count, N);
	for (size_t k = 0; k < N; k++)
		ck_assert_uint_eq((uintptr_t)pl_ht_ptr_get(&t, &keys[k]),
		                  k % 3 ? k + 1 : k + 1 + N);
	int other;
	ck_assert_ptr_null(pl_ht_ptr_get(&t, &other));
	pl_ht_clear(&t);
	ck_assert_ptr_null(pl_ht_ptr_get(&t, &keys[1]));
	ck_assert(pl_ht_ptr_put(&t, &keys[1], &other)); /* usable again */
	ck_assert_ptr_eq(pl_ht_ptr_get(&t, &keys[1]), &other);
	pl_ht_free(&t);
}
END_TEST

START_TEST(test_equal_dictionaries_share_copy_on_write)
{
	pl_module *m = parse_text("func @f(%a: f32[4]) {\n"
	                          "  %b = acme.x %a {k = 1, s = \"x\"} : f32[4]\n"
	                          "  %c = acme.x %a {k = 1, s = \"x\"} : f32[4]\n"
	                          "  %d = acme.x %a {k = 2, s = \"x\"} : f32[4]\n"
	                          "}\n");
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *b = pl_func_first_inst(f), *c = pl_inst_next(b), *d = pl_inst_next(c);
	pl_attrs *ab = pl_inst_attrs(b), *ac = pl_inst_attrs(c), *ad = pl_inst_attrs(d);
	ck_assert_ptr_eq(pl_attrs_value_at(ab, 0), pl_attrs_value_at(ac, 0)); /* shared */
	ck_assert_ptr_ne(pl_attrs_value_at(ab, 0), pl_attrs_value_at(ad, 0));
	/* equal keys and equal strings are one copy */
	ck_assert_ptr_eq(pl_attrs_key_at(ab, 1), pl_attrs_key_at(ad, 1));
	ck_assert_ptr_eq(pl_attr_get_string(pl_attrs_value_at(ab, 1), NULL),
	                 pl_attr_get_string(pl_attrs_value_at(ad, 1), NULL));
	/* writing one leaves the other as it was */
	ck_assert_int_eq(pl_attrs_set_int(ab, "k", 7), PL_OK);
	int64_t v = 0;
	ck_assert_int_eq(pl_attrs_get_int(ab, "k", &v), PL_OK);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(pl_attrs_get_int(ac, "k", &v), PL_OK);
	ck_assert_int_eq(v, 1);
	/* values of one name in two functions share one copy */
	pl_module_free(m);
	m = parse_text("func @f(%x: f32[]) {\n  return %x\n}\n"
	               "func @g(%x: f32[]) {\n  return %x\n}\n");
	ck_assert_ptr_eq(pl_value_name(pl_func_arg(pl_module_func_at(m, 0), 0)),
	                 pl_value_name(pl_func_arg(pl_module_func_at(m, 1), 0)));
	pl_module_free(m);
}
END_TEST

START_TEST(test_unique_dictionaries_each_their_own)
{
	struct {
		char *s;
		size_t len;
	} sb = {0};
	enum { N = 10000 };
	size_t cap = 64 * N + 64;
	sb.s = malloc(cap);
	ck_assert_ptr_nonnull(sb.s);
	sb.len = (size_t)snprintf(sb.s, cap, "func @f(%%a: f32[]) {\n");
	for (int k = 0; k < N; k++)
		sb.len += (size_t)snprintf(sb.s + sb.len, cap - sb.len,
		                           "  acme.x %%a {line = %d}\n", k % 5000);
	sb.len += (size_t)snprintf(sb.s + sb.len, cap - sb.len, "}\n");
	pl_module *m = parse_text(sb.s);
	free(sb.s);
	pl_func *f = pl_module_func_at(m, 0);
	int k = 0;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i), k++)
		ck_assert_int_eq(pl_attr_get_int(pl_attrs_get(pl_inst_attrs(i), "line")), k % 5000);
	ck_assert_int_eq(k, N);
	pl_module_free(m);
}
END_TEST

/* what a table gives back instead of freeing */
struct given {
	size_t calls, bytes;
};

static void take_given(void *to, void *mem, size_t bytes)
{
	struct given *g = to;
	g->calls++;
	g->bytes += bytes;
	free(mem);
}

START_TEST(test_outgrown_slots_given_back)
{
	/* every growth gives the slots outgrown (all of them, in bytes) to
	 * give_back; freeing the table does not */
	struct given g = {0};
	struct pl_ht t = {.give_back = take_given, .give_back_to = &g};
	size_t grown = 0, outgrown = 0;
	for (uintptr_t k = 1; k <= 1000; k++) {
		size_t cap = t.cap;
		ck_assert(pl_ht_reserve(&t));
		if (t.cap != cap) {
			grown++;
			outgrown += cap * sizeof(struct pl_ht_slot);
		}
		size_t j = pl_ht_find(&t, pl_ht_hash_ptr((void *)k), pl_ht_same_ptr, (void *)k, NULL);
		pl_ht_put(&t, j, pl_ht_hash_ptr((void *)k), (void *)k);
	}
	ck_assert_uint_gt(grown, 3);
	ck_assert_uint_eq(g.calls, grown - 1); /* the first growth has none */
	ck_assert_uint_eq(g.bytes, outgrown);
	for (uintptr_t k = 1; k <= 1000; k++)
		ck_assert_ptr_eq(pl_ht_get(&t, pl_ht_hash_ptr((void *)k), pl_ht_same_ptr, (void *)k,
		                           NULL),
		                 (void *)k);
	pl_ht_free(&t);
	ck_assert_uint_eq(g.calls, grown - 1);
	/* the hook outlives a free, for the table's next use */
	ck_assert(t.give_back == take_given && t.give_back_to == &g);
}
END_TEST

/* slots from a pool of blocks the test counts */
struct pool {
	int taken, released;
	size_t live_bytes;
};

static void *pool_take(void *from, size_t bytes)
{
	struct pool *p = from;
	p->taken++;
	p->live_bytes += bytes;
	return malloc(bytes);
}

static void pool_release(void *from, void *mem, size_t bytes)
{
	struct pool *p = from;
	p->released++;
	p->live_bytes -= bytes;
	free(mem);
}

START_TEST(test_slots_taken_and_released)
{
	/* with take and release (and no give_back), every slot array comes
	 * from take and goes to release: the ones outgrown, and the last one
	 * when the table is freed; nothing is left */
	struct pool pool = {0};
	struct pl_ht t = {.take = pool_take, .release = pool_release, .give_back_to = &pool};
	for (uintptr_t k = 1; k <= 5000; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, pl_ht_hash_ptr((void *)k), pl_ht_same_ptr, (void *)k, NULL);
		pl_ht_put(&t, j, pl_ht_hash_ptr((void *)k), (void *)k);
	}
	ck_assert_int_gt(pool.taken, 5);
	ck_assert_int_eq(pool.released, pool.taken - 1);
	ck_assert_uint_eq(pool.live_bytes, t.cap * sizeof(struct pl_ht_slot));
	ck_assert_ptr_eq(pl_ht_get(&t, pl_ht_hash_ptr((void *)77), pl_ht_same_ptr, (void *)77, NULL),
	                 (void *)77);
	pl_ht_free(&t);
	ck_assert_int_eq(pool.released, pool.taken);
	ck_assert_uint_eq(pool.live_bytes, 0);
	ck_assert(t.take == pool_take && t.release == pool_release);
}
END_TEST

/* items of a table of offsets: 8-byte aligned, after its base */
static uint64_t span[6001];

static const void *span_item(size_t k) { return &span[k]; }

START_TEST(test_offsets_insert_find_grow)
{
	struct pl_ht t = {.base = (const char *)span};
	enum { N = 6000 };
	for (size_t k = 1; k <= N; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, poor_hash(k), pl_ht_same_ptr, span_item(k), NULL);
		ck_assert(!pl_ht_used(&t, j));
		pl_ht_put(&t, j, poor_hash(k), span_item(k));
		ck_assert_ptr_eq(pl_ht_at(&t, j), span_item(k));
		ck_assert_uint_eq(pl_ht_hash_at(&t, j), poor_hash(k));
	}
	ck_assert_uint_eq(t.count, N);
	for (size_t k = 1; k <= N; k++)
		ck_assert_ptr_eq(pl_ht_get(&t, poor_hash(k), pl_ht_same_ptr, span_item(k), NULL),
		                 span_item(k));
	/* an address not entered, with the hash of one that is: absent */
	ck_assert_ptr_null(pl_ht_get(&t, poor_hash(1), pl_ht_same_ptr, &span[0], NULL));
	/* every item once, at the slot its hash says */
	size_t seen = 0;
	for (size_t j = 0; j < t.cap; j++) {
		const uint64_t *item = pl_ht_at(&t, j);
		if (!item)
			continue;
		seen++;
		ck_assert_uint_eq(pl_ht_hash_at(&t, j), poor_hash((size_t)(item - span)));
	}
	ck_assert_uint_eq(seen, N);
	pl_ht_free(&t);
	ck_assert_ptr_eq(t.base, (const char *)span); /* for its next use */
	ck_assert_ptr_null(pl_ht_get(&t, poor_hash(5), pl_ht_same_ptr, span_item(5), NULL));
}
END_TEST

START_TEST(test_offsets_slots_are_8_bytes)
{
	struct pool pool = {0};
	struct pl_ht t = {.base = (const char *)span, .take = pool_take, .release = pool_release,
	                  .give_back_to = &pool};
	for (size_t k = 1; k <= 1000; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, pl_ht_hash_ptr(span_item(k)), pl_ht_same_ptr, span_item(k), NULL);
		pl_ht_put(&t, j, pl_ht_hash_ptr(span_item(k)), span_item(k));
	}
	ck_assert_uint_eq(pool.live_bytes, t.cap * 8);
	pl_ht_free(&t);
	ck_assert_uint_eq(pool.live_bytes, 0);
	ck_assert_int_eq(pool.released, pool.taken);
}
END_TEST

START_TEST(test_offsets_map)
{
	struct pl_ht t = {.base = (const char *)span};
	for (size_t k = 1; k <= 3000; k++)
		ck_assert(pl_ht_ptr_put(&t, span_item(k), (void *)(uintptr_t)(k * 3)));
	ck_assert(pl_ht_ptr_put(&t, span_item(10), (void *)(uintptr_t)7)); /* replaced */
	for (size_t k = 1; k <= 3000; k++)
		ck_assert_ptr_eq(pl_ht_ptr_get(&t, span_item(k)),
		                 (void *)(uintptr_t)(k == 10 ? 7 : k * 3));
	ck_assert_ptr_null(pl_ht_ptr_get(&t, span_item(3001)));
	pl_ht_free(&t);
}
END_TEST

START_TEST(test_offsets_clear)
{
	struct pl_ht t = {.base = (const char *)span};
	/* a table about as full as its last use keeps its memory */
	for (int round = 0; round < 3; round++) {
		for (size_t k = 1; k <= 1000; k++) {
			ck_assert(pl_ht_reserve(&t));
			size_t j = pl_ht_find(&t, poor_hash(k), pl_ht_same_ptr, span_item(k + (size_t)round), NULL);
			ck_assert(!pl_ht_used(&t, j));
			pl_ht_put(&t, j, poor_hash(k), span_item(k + (size_t)round));
		}
		size_t cap = t.cap;
		pl_ht_clear(&t);
		ck_assert_uint_eq(t.count, 0);
		ck_assert_uint_eq(t.cap, cap);
		for (size_t j = 0; j < t.cap; j++)
			ck_assert(!pl_ht_used(&t, j));
	}
	/* one far larger than the next use needed is freed when cleared */
	for (size_t k = 1; k <= 5; k++) {
		ck_assert(pl_ht_reserve(&t));
		size_t j = pl_ht_find(&t, poor_hash(k), pl_ht_same_ptr, span_item(k), NULL);
		pl_ht_put(&t, j, poor_hash(k), span_item(k));
	}
	pl_ht_clear(&t);
	ck_assert_uint_eq(t.cap, 0);
	ck_assert_ptr_null(pl_ht_get(&t, poor_hash(3), pl_ht_same_ptr, span_item(3), NULL));
	ck_assert(pl_ht_reserve(&t)); /* and used again */
	size_t j = pl_ht_find(&t, poor_hash(3), pl_ht_same_ptr, span_item(3), NULL);
	pl_ht_put(&t, j, poor_hash(3), span_item(3));
	ck_assert_ptr_eq(pl_ht_get(&t, poor_hash(3), pl_ht_same_ptr, span_item(3), NULL), span_item(3));
	pl_ht_free(&t);
}
END_TEST

static Suite *hash_table_suite(void)
{
	Suite *s = suite_create("hash_table");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_insert_find_grow);
	tcase_add_test(tc, test_clear_by_generation);
	tcase_add_test(tc, test_map_values_survive_growth);
	tcase_add_test(tc, test_map_keyed_by_address);
	tcase_add_test(tc, test_outgrown_slots_given_back);
	tcase_add_test(tc, test_slots_taken_and_released);
	tcase_add_test(tc, test_offsets_insert_find_grow);
	tcase_add_test(tc, test_offsets_slots_are_8_bytes);
	tcase_add_test(tc, test_offsets_map);
	tcase_add_test(tc, test_offsets_clear);
	suite_add_tcase(s, tc);
	tc = tcase_create("sharing");
	tcase_add_test(tc, test_equal_dictionaries_share_copy_on_write);
	tcase_add_test(tc, test_unique_dictionaries_each_their_own);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(hash_table_suite)
