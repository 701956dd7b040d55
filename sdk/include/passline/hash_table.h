/* SPDX-License-Identifier: MIT */
/* passline/hash_table.h — the one hash table of the library and of the
 * plugins. Installed for plugin authors (a map keyed by instruction or
 * value: pl_ht_ptr_put, pl_ht_ptr_get); header-only (static inline), so
 * nothing in it is part of the library's ABI.
 *
 * Open addressing with linear probing, at most three quarters full. A slot
 * holds an item (a pointer, or a number cast to one), the item's 32-bit
 * hash and a generation; a map also holds a value per slot. The caller
 * owns the items and says how to compare them (a function the compiler
 * inlines), so one table serves sets of strings, maps from addresses and
 * sets of records kept in the caller's arrays.
 *
 * Lookups and inserts are two steps: pl_ht_find gives the slot holding an
 * equal item or the empty slot where it would go; pl_ht_put fills that one.
 * pl_ht_reserve, before a find meant for an insert, makes room (growing
 * moves items, so a slot index is valid only until the next reserve).
 *
 * pl_ht_clear empties the table in O(1), keeping its memory: slots of an
 * older generation are empty. So a table reused per function costs what
 * the function needs, not what the largest one before it needed.
 *
 * A table of offsets (base set before first use) holds items that all lie
 * after base, 8-byte aligned, less than 32 GiB on (one module's
 * region, say): an item is kept as a 32-bit count of 8-byte units from
 * base, 0 meaning empty, beside its hash, in slots of 8 bytes where a
 * pointer's take 16. A large table is probed at random, far beyond the
 * caches: half the bytes is half the misses. Such slots have no
 * generation: pl_ht_clear zeroes them, or frees them when they are many
 * more than the items were (so a reused table still costs what each use
 * needs).
 *
 * The table is iterated (pl_ht_at) only where its order cannot reach
 * output: for a yes or no over all its items, or for work on each item
 * that no other item's changes (merging one set into another, say).
 */
#ifndef PL_HASH_TABLE_H
#define PL_HASH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct pl_ht_slot {
	const void *item;
	uint32_t hash;
	uint32_t gen; /* in use when it is the table's gen */
};

/* A slot of a table of offsets (see above). */
struct pl_ht_slot32 {
	uint32_t item;
	uint32_t hash;
};

struct pl_ht {
	union {
		struct pl_ht_slot *slots;     /* unless base */
		struct pl_ht_slot32 *slots32; /* when base */
	};
	void **vals;    /* a map's values, beside slots; NULL for a set */
	size_t cap;     /* 0 or a power of two */
	size_t count;
	uint32_t gen;   /* never 0 once slots exist: zeroed slots are empty */
	bool map;       /* set before first use: keep a value per slot */
	const char *base; /* set before first use: a table of offsets */
	/* Optional: where the slots the table outgrows go, instead of to
	 * free() (the library gives their written pages to the arenas of the
	 * module being read, pl_arena_give) */
	void (*give_back)(void *to, void *mem, size_t bytes);
	void *give_back_to;
	/* Optional, together: where the slots come from instead of malloc
	 * (take), and where they go when the table is freed instead of to
	 * free() (release; the slots it outgrows go to give_back if set,
	 * else here too). Both are passed give_back_to. */
	void *(*take)(void *from, size_t bytes);
	void (*release)(void *from, void *mem, size_t bytes);
};

/* A 32-bit hash of an address (Fibonacci hashing: the top bits of the
 * product depend on every bit, aligned low bits included). */
static inline uint32_t pl_ht_hash_ptr(const void *p)
{
	return (uint32_t)(((uint64_t)(uintptr_t)p * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
}

/* Whether item (in the table) equals probe (what is looked up). */
typedef bool (*pl_ht_same_fn)(const void *item, const void *probe, const void *ctx);

/* The pl_ht_same_fn of a table keyed by address (hashed by
 * pl_ht_hash_ptr). */
static inline bool pl_ht_same_ptr(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return item == probe;
}

static inline size_t pl_ht_slot_size_(const struct pl_ht *t)
{
	return t->base ? sizeof *t->slots32 : sizeof *t->slots;
}

static inline bool pl_ht_used(const struct pl_ht *t, size_t j)
{
	return t->base ? t->slots32[j].item != 0 : t->slots[j].gen == t->gen;
}

/* The item of the used slot j. */
static inline const void *pl_ht_item_(const struct pl_ht *t, size_t j)
{
	return t->base ? t->base + (size_t)t->slots32[j].item * 8 : t->slots[j].item;
}

/* The hash of the item in the used slot j. */
static inline uint32_t pl_ht_hash_at(const struct pl_ht *t, size_t j)
{
	return t->base ? t->slots32[j].hash : t->slots[j].hash;
}

/* The slot holding an item equal to probe, or the empty slot where it
 * would go (pl_ht_used tells which). The table must have slots: call
 * pl_ht_reserve once first, or check count. */
static inline size_t pl_ht_find(const struct pl_ht *t, uint32_t hash, pl_ht_same_fn same,
                                const void *probe, const void *ctx)
{
	size_t mask = t->cap - 1;
	for (size_t j = hash & mask;; j = (j + 1) & mask) {
		if (!pl_ht_used(t, j))
			return j;
		if (pl_ht_hash_at(t, j) == hash && same(pl_ht_item_(t, j), probe, ctx))
			return j;
	}
}

/* Asks the processor for the slot a find of hash looks at first, some
 * time before the find: a large table is far bigger than the caches.
 * Always inlined: GCC takes a function whose only effect is a prefetch
 * for one without effects, and drops the calls of one it did not inline
 * (GCC 12, -O2: every call was gone). */
static inline __attribute__((always_inline)) void pl_ht_prefetch(const struct pl_ht *t,
                                                                 uint32_t hash)
{
	if (t->cap)
		__builtin_prefetch((const char *)t->slots + (hash & (t->cap - 1)) * pl_ht_slot_size_(t));
}

/* The item equal to probe, or NULL (also in an empty table). */
static inline const void *pl_ht_get(const struct pl_ht *t, uint32_t hash, pl_ht_same_fn same,
                                    const void *probe, const void *ctx)
{
	if (!t->count)
		return NULL;
	size_t j = pl_ht_find(t, hash, same, probe, ctx);
	return pl_ht_used(t, j) ? pl_ht_item_(t, j) : NULL;
}

/* The slots are zeroed by writing, not by calloc: a page of a large
 * calloc is the shared zero page until written, so the probes of a
 * rehash would map it for reading, and every write after that must flush
 * the other processors' TLBs when the process has several threads (an
 * interrupt to each, dear in a virtual machine). The pages of a large
 * table are first put in place with one system call, where the kernel
 * can, rather than by a page fault each (several microseconds in a
 * virtual machine); its result is not needed, the write faults in what
 * it did not. Out of line, or the compiler makes malloc and memset one
 * calloc again. */
static __attribute__((noinline, unused)) void pl_ht_zero_(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	enum { PL_HT_POPULATE = 64u << 10, PL_HT_PAGE = 4096 };
	if (n >= PL_HT_POPULATE) {
		uintptr_t from = ((uintptr_t)p + PL_HT_PAGE - 1) & ~(uintptr_t)(PL_HT_PAGE - 1);
		uintptr_t to = ((uintptr_t)p + n) & ~(uintptr_t)(PL_HT_PAGE - 1);
		if (from < to)
			madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	}
#endif
	memset(p, 0, n);
}

/* With -std=c11 the system headers declare madvise's hints only when
 * _GNU_SOURCE (config.h) came before the first of them; a file that
 * defines it too late would quietly lose the hint below. */
#if defined(_GNU_SOURCE) && defined(__linux__) && !defined(MADV_HUGEPAGE)
#error "define _GNU_SOURCE before the first system header (or not at all)"
#endif

/* The memory of n bytes of slots. A large table is probed at random, so
 * with 4 KiB pages nearly every probe also misses the TLB; it is asked for
 * huge pages (the arenas are not: they are read in order, see arena.c).
 * Where the hint is not available (a plugin built as strict C), malloc. */
static inline void *pl_ht_mem_(size_t n)
{
#ifdef MADV_HUGEPAGE
	enum { PL_HT_BIG = 4u << 20, PL_HT_HUGE_PAGE = 2u << 20 };
	if (n >= PL_HT_BIG) {
		void *p = NULL;
		if (posix_memalign(&p, PL_HT_HUGE_PAGE, n) != 0)
			return NULL;
		madvise(p, n, MADV_HUGEPAGE);
		return p;
	}
#endif
	return malloc(n);
}

/* Frees n bytes of slots at p as t says. */
static inline void pl_ht_slots_free_(const struct pl_ht *t, void *p, size_t n)
{
	if (t->take && p)
		t->release(t->give_back_to, p, n);
	else
		free(p);
}

static inline bool pl_ht_alloc_(struct pl_ht *t, size_t cap)
{
	size_t n = cap <= SIZE_MAX / sizeof *t->slots ? cap * pl_ht_slot_size_(t) : 0;
	t->slots = !n ? NULL : t->take ? t->take(t->give_back_to, n) : pl_ht_mem_(n);
	t->vals = t->map && t->slots ? malloc(cap * sizeof *t->vals) : NULL;
	if (!t->slots || (t->map && !t->vals)) {
		pl_ht_slots_free_(t, t->slots, n);
		free(t->vals);
		return false;
	}
	pl_ht_zero_(t->slots, n);
	if (t->map)
		pl_ht_zero_(t->vals, cap * sizeof *t->vals);
	t->cap = cap;
	t->gen = 1;
	return true;
}

static inline bool pl_ht_grow_(struct pl_ht *t)
{
	struct pl_ht old = *t;
	if (!pl_ht_alloc_(t, old.cap ? old.cap * 2 : 64)) {
		*t = old;
		return false;
	}
	for (size_t i = 0; i < old.cap; i++) {
		if (!pl_ht_used(&old, i))
			continue;
		size_t j = pl_ht_hash_at(&old, i) & (t->cap - 1);
		while (pl_ht_used(t, j))
			j = (j + 1) & (t->cap - 1);
		if (t->base) {
			t->slots32[j] = old.slots32[i];
		} else {
			t->slots[j] = old.slots[i];
			t->slots[j].gen = t->gen;
		}
		if (t->map)
			t->vals[j] = old.vals[i];
	}
	size_t old_bytes = old.cap * pl_ht_slot_size_(&old);
	if (t->give_back && old.slots)
		t->give_back(t->give_back_to, old.slots, old_bytes);
	else
		pl_ht_slots_free_(t, old.slots, old_bytes);
	free(old.vals);
	return true;
}

/* Room for one more item; false when out of memory (the table unchanged). */
static inline bool pl_ht_reserve(struct pl_ht *t)
{
	if ((t->count + 1) * 4 > t->cap * 3)
		return pl_ht_grow_(t);
	return true;
}

/* Room for n more items; false when out of memory. */
static inline bool pl_ht_reserve_n(struct pl_ht *t, size_t n)
{
	while ((t->count + n) * 4 > t->cap * 3)
		if (!pl_ht_grow_(t))
			return false;
	return true;
}

/* The item in slot j, or NULL when it is empty: for j from 0 to cap, every
 * item, in an order that depends on the hashes (see above). */
static inline const void *pl_ht_at(const struct pl_ht *t, size_t j)
{
	return pl_ht_used(t, j) ? pl_ht_item_(t, j) : NULL;
}

/* Fills the empty slot j (from pl_ht_find after pl_ht_reserve). */
static inline void pl_ht_put(struct pl_ht *t, size_t j, uint32_t hash, const void *item)
{
	if (t->base)
		t->slots32[j] = (struct pl_ht_slot32){
			(uint32_t)((size_t)((const char *)item - t->base) / 8), hash};
	else
		t->slots[j] = (struct pl_ht_slot){item, hash, t->gen};
	t->count++;
}

/* A map keyed by address whose values are never NULL: the value of key,
 * or NULL when it has none. */
static inline void *pl_ht_ptr_get(const struct pl_ht *t, const void *key)
{
	if (!t->count)
		return NULL;
	size_t j = pl_ht_find(t, pl_ht_hash_ptr(key), pl_ht_same_ptr, key, NULL);
	return pl_ht_used(t, j) ? t->vals[j] : NULL;
}

/* Stores val (not NULL) under key in such a map, replacing what was
 * there; false when out of memory (the map is then unchanged). */
static inline bool pl_ht_ptr_put(struct pl_ht *t, const void *key, void *val)
{
	t->map = true;
	if (!pl_ht_reserve(t))
		return false;
	uint32_t hash = pl_ht_hash_ptr(key);
	size_t j = pl_ht_find(t, hash, pl_ht_same_ptr, key, NULL);
	if (!pl_ht_used(t, j))
		pl_ht_put(t, j, hash, key);
	t->vals[j] = val;
	return true;
}

static inline void pl_ht_free(struct pl_ht *t);

/* Empties the table, keeping its memory (a table of offsets: unless it is
 * far larger than its items needed). */
static inline void pl_ht_clear(struct pl_ht *t)
{
	if (!t->count)
		return;
	if (t->base) {
		if (t->count * 8 < t->cap && t->cap > 64)
			pl_ht_free(t);
		else
			memset(t->slots32, 0, t->cap * sizeof *t->slots32);
		t->count = 0;
		return;
	}
	t->count = 0;
	if (++t->gen == 0) { /* wrapped: slots of every age would look in use */
		memset(t->slots, 0, t->cap * sizeof *t->slots);
		t->gen = 1;
	}
}

static inline void pl_ht_free(struct pl_ht *t)
{
	pl_ht_slots_free_(t, t->slots, t->cap * pl_ht_slot_size_(t));
	free(t->vals);
	*t = (struct pl_ht){.map = t->map, .base = t->base, .give_back = t->give_back,
	                    .give_back_to = t->give_back_to, .take = t->take,
	                    .release = t->release};
}

#endif
