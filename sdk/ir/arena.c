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
 * from a region (region.h). */
#include <config.h>

#include "ir/arena.h"
#include "ir/region.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
	HUGE_PAGE = 2 * 1024 * 1024
};

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
	size_t size = a->next_size;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(struct pl_arena_chunk) - 2 * HUGE_PAGE)
		return NULL;
	struct pl_arena_chunk *c = a->given;
	if (c && c->size >= n) { /* given memory first, as a new head */
		a->given = c->next;
		size = c->size;
	} else if (!(c = chunk_new(a, size))) {
		return NULL;
	} else if (a->next_size < MAX_CHUNK) {
		a->next_size *= 2;
	}
	a->total += c->size;
	char *data = (char *)(c + 1);
	if (a->head && size == n) {
		/* An oversized block: keep the current chunk's free space. */
		c->next = a->head->next;
		a->head->next = c;
		return data;
	}
	c->next = a->head;
	a->head = c;
	a->cur = data + n;
	a->end = data + c->size;
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
		if ((size_t)(other.end - other.cur) > (size_t)(keep.end - keep.cur)) {
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
