/* SPDX-License-Identifier: MIT */
/* sdk/ir/arena.c — see arena.h.
 *
 * Large chunks are mapped directly, aligned to 2 MiB, so that a kernel that
 * gives every process transparent huge pages can back them with whole ones.
 * They are not marked MADV_HUGEPAGE: on a virtual machine whose host takes
 * back the guest's free memory (free page reporting), a huge page is always
 * memory the host must fault in and zero again, while small pages mostly
 * come from memory the guest freed recently. On this project's CI machine
 * kind, the default pipeline on 1.2M instructions took a median 1.03 s with
 * the mark (0.55 s of it in the kernel) and 0.87 s without, in paired runs;
 * never less without it.
 * Small chunks come from malloc. An arena may instead take all its chunks
 * from a region (region.h).
 *
 * A new chunk's pages are put in place ahead of the bump pointer, a window
 * of WINDOW bytes at a time, with one madvise(MADV_POPULATE_WRITE) each,
 * rather than by a page fault on the first write to each page. On the
 * virtual machines this project is run on a page fault costs several
 * microseconds; reading 1.2M instructions faulted in about 200 MiB, a
 * fifth of the read's time, and populating halves that. The window keeps
 * what is in place but unused to at most WINDOW bytes an arena (a whole
 * chunk at once raised the peak by 28 MiB). Where the call is not known
 * (an older kernel), pages are faulted in as before. */
#include <config.h>

#include "ir/arena.h"
#include "ir/region.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct pl_arena_chunk {
	struct pl_arena_chunk *next;
	size_t size;   /* usable bytes after the header */
	size_t mapped; /* bytes mapped with mmap or taken from a region, 0
	                * when from malloc */
	bool in_region;
	/* data follows, 16-byte aligned */
	char pad[0] __attribute__((aligned(16)));
};

enum {
	MIN_CHUNK = 64 * 1024,
	MAX_CHUNK = 8 * 1024 * 1024,
	HUGE_PAGE = 2 * 1024 * 1024,
	WINDOW = 128 * 1024
};

/* Cleared when the kernel does not know MADV_POPULATE_WRITE. */
static atomic_bool populate_known = true;

static uintptr_t page_mask(void)
{
	static atomic_size_t page; /* 0 until asked */
	size_t p = atomic_load_explicit(&page, memory_order_relaxed);
	if (!p) {
		long got = sysconf(_SC_PAGESIZE);
		p = got > 0 ? (size_t)got : 4096;
		atomic_store_explicit(&page, p, memory_order_relaxed);
	}
	return ~(uintptr_t)(p - 1);
}

void pl_pages_in_place_(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t mask = page_mask();
	uintptr_t start = (uintptr_t)p & mask, end = ((uintptr_t)p + n) & mask;
	if (start < end && atomic_load_explicit(&populate_known, memory_order_relaxed) &&
	    madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
		atomic_store_explicit(&populate_known, false, memory_order_relaxed);
#else
	(void)p;
	(void)n;
#endif
}

/* The pages of [from, to) put in place; from is where those in place end,
 * to at most the end of from's chunk. Returns the new end of the pages in
 * place: to, rounded up to a whole window within limit. */
static char *populate(char *from, char *to, char *limit)
{
	uintptr_t end = ((uintptr_t)to + WINDOW - 1) & ~(uintptr_t)(WINDOW - 1);
	if (end > (uintptr_t)limit)
		end = (uintptr_t)limit;
	pl_pages_in_place_(from, (size_t)(end - (uintptr_t)from));
	return (char *)end;
}

void pl_arena_init(pl_arena *a)
{
	memset(a, 0, sizeof *a);
	a->next_size = MIN_CHUNK;
}

void pl_arena_init_in(pl_arena *a, struct pl_region *r)
{
	pl_arena_init(a);
	pl_region_hold(r);
	a->region = r;
}

/* release: a chunk of a region goes back to the system on its own (the
 * region lives on, held by another); else it goes with the region. */
static void chunk_free(struct pl_arena_chunk *c, bool release)
{
	if (c->in_region) {
		if (release)
			pl_region_release(c, c->mapped);
	} else if (c->mapped) {
		munmap(c, c->mapped);
	} else {
		free(c);
	}
}

static void chunks_free(struct pl_arena_chunk *c, bool release)
{
	while (c) {
		struct pl_arena_chunk *next = c->next;
		chunk_free(c, release);
		c = next;
	}
}

void pl_arena_free(pl_arena *a)
{
	bool release = a->region && pl_region_shared(a->region);
	chunks_free(a->head, release);
	chunks_free(a->given, release);
	pl_region_drop(a->region);
	pl_arena_init(a);
}

void pl_arena_give(void *arena, void *mem, size_t size)
{
	pl_arena *a = arena;
	bool ours = a->region && pl_region_same_(a->region, mem);
	if (a->region && !ours) {
		free(mem); /* outside the region, where nothing may name it */
		return;
	}
	if (size < sizeof(struct pl_arena_chunk) + MIN_CHUNK) { /* not worth a chunk */
		if (ours)
			pl_region_release(mem, size);
		else
			free(mem);
		return;
	}
	struct pl_arena_chunk *c = mem;
	c->size = size - sizeof *c;
	c->mapped = ours ? size : 0;
	c->in_region = ours;
	c->next = a->given;
	a->given = c;
}

void *pl_arena_take_table(void *arena, size_t size)
{
	pl_arena *a = arena;
	size_t got;
	void *p = pl_region_take(a->region, size, &got);
#ifdef MADV_HUGEPAGE
	/* probed at random: with small pages nearly every probe of a large
	 * table would also miss the TLB */
	if (p && size >= HUGE_PAGE)
		madvise(p, got, MADV_HUGEPAGE);
#endif
	return p;
}

void pl_arena_release_table(void *arena, void *mem, size_t size)
{
	(void)arena;
	pl_region_release(mem, size);
}

/* A chunk of at least size usable bytes. */
static struct pl_arena_chunk *chunk_new(pl_arena *a, size_t size)
{
	size_t need = sizeof(struct pl_arena_chunk) + size;
	if (a->region) {
		size_t got;
		struct pl_arena_chunk *c = pl_region_take(a->region, need, &got);
		if (c) {
			c->size = got - sizeof *c;
			c->mapped = got;
			c->in_region = true;
		}
		return c;
	}
	if (need >= HUGE_PAGE) {
		size_t len = (need + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
		char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			char *aligned = (char *)(((uintptr_t)p + HUGE_PAGE - 1) &
			                         ~(uintptr_t)(HUGE_PAGE - 1));
			if (aligned > p)
				munmap(p, (size_t)(aligned - p));
			size_t tail = (size_t)(p + len + HUGE_PAGE - (aligned + len));
			if (tail)
				munmap(aligned + len, tail);
			struct pl_arena_chunk *c = (struct pl_arena_chunk *)(void *)aligned;
			c->size = len - sizeof *c;
			c->mapped = len;
			c->in_region = false;
			return c;
		}
	}
	struct pl_arena_chunk *c = malloc(need);
	if (c) {
		c->size = size;
		c->mapped = 0;
		c->in_region = false;
	}
	return c;
}

void *pl_arena_alloc_slow(pl_arena *a, size_t n)
{
	if (pl_arena_room(a) >= n) { /* room, but not yet in place */
		a->end = populate(a->end, a->cur + n, a->limit);
		void *p = a->cur;
		a->cur += n;
		return p;
	}
	size_t size = a->next_size;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(struct pl_arena_chunk) - 2 * HUGE_PAGE)
		return NULL;
	struct pl_arena_chunk *c = a->given;
	bool fresh = false; /* given memory was written, its pages are in place */
	if (c && c->size >= n) { /* given memory first, as a new head */
		a->given = c->next;
		size = c->size;
	} else if (!(c = chunk_new(a, size))) {
		return NULL;
	} else {
		fresh = true;
		if (a->next_size < MAX_CHUNK)
			a->next_size *= 2;
	}
	a->total += c->size;
	char *data = (char *)(c + 1);
	if (a->head && size == n) {
		/* An oversized block: keep the current chunk's free space. */
		if (fresh)
			populate(data, data + n, data + n);
		c->next = a->head->next;
		a->head->next = c;
		return data;
	}
	c->next = a->head;
	a->head = c;
	a->cur = data + n;
	a->limit = data + c->size;
	a->end = fresh ? populate(data, a->cur, a->limit) : a->limit;
	return data;
}

void pl_arena_adopt(pl_arena *dst, pl_arena *src)
{
	while (src->given) {
		struct pl_arena_chunk *c = src->given;
		src->given = c->next;
		c->next = dst->given;
		dst->given = c;
	}
	if (!src->head)
		return;
	if (!dst->head) {
		struct pl_arena_chunk *given = dst->given;
		*dst = *src;
		dst->given = given;
	} else {
		/* allocation goes on in the head with more room left; the
		 * other's chunks go after it (the room left in its head is
		 * not used again) */
		pl_arena keep = *dst, other = *src;
		if (pl_arena_room(&other) > pl_arena_room(&keep)) {
			keep = *src;
			other = *dst;
		}
		struct pl_arena_chunk *tail = other.head;
		while (tail->next)
			tail = tail->next;
		tail->next = keep.head->next;
		keep.head->next = other.head;
		keep.total += other.total;
		if (keep.next_size < other.next_size)
			keep.next_size = other.next_size;
		keep.given = dst->given;
		keep.region = dst->region;
		*dst = keep;
	}
	/* src keeps its hold on the region until it is freed */
	struct pl_region *region = src->region;
	pl_arena_init(src);
	src->region = region;
}
