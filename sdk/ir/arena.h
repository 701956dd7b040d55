/* SPDX-License-Identifier: MIT */
/* sdk/ir/arena.h — bump allocation for everything a module owns.
 *
 * Chunks grow geometrically (64 KiB up to 8 MiB) so a module of a million
 * instructions costs a few dozen mallocs; memory is returned only when the
 * arena is freed. Allocations are 8-byte aligned.
 */
#ifndef PL_ARENA_H
#define PL_ARENA_H

#include <stddef.h>
#include <string.h>

struct pl_arena_chunk;
struct pl_region;

typedef struct pl_arena {
	struct pl_arena_chunk *head;
	/* [cur, limit) is the free space of head; pages up to end are in
	 * place (a fresh chunk's pages are put in place a window at a time,
	 * by the slow path, as the bump pointer reaches end) */
	char *cur, *end, *limit;
	size_t next_size;   /* size of the next chunk */
	size_t total;       /* usable bytes of all chunks */
	struct pl_arena_chunk *given; /* pl_arena_give's, used before new ones */
	/* where chunks come from: a region, held (see region.h), or NULL
	 * for malloc and mmap */
	struct pl_region *region;
} pl_arena;

__attribute__((visibility("hidden"))) void pl_arena_init(pl_arena *a);
/* An arena whose chunks are taken from r, which it holds until freed. */
__attribute__((visibility("hidden"))) void pl_arena_init_in(pl_arena *a, struct pl_region *r);
__attribute__((visibility("hidden"))) void pl_arena_free(pl_arena *a);
/* NULL when out of memory. */
__attribute__((visibility("hidden"))) void *pl_arena_alloc_slow(pl_arena *a, size_t n);
/* dst takes over every chunk of src (which is left empty): what was
 * allocated from src now lives, and dies, with dst. Both take their
 * chunks from the same region, or neither from one. */
__attribute__((visibility("hidden"))) void pl_arena_adopt(pl_arena *dst, pl_arena *src);
/* The arena (a pl_arena *, as void * to serve as the give_back of a
 * struct pl_ht) takes size bytes at mem, from malloc, that its owner no
 * longer needs, to allocate from before it asks for new memory: written
 * pages cost far less than new ones, which the kernel must find and zero
 * (and a virtual machine's host, often, fault in again). For memory the
 * arena will soon fill: its pages count as used from the start. An arena
 * in a region takes only memory of its region (pl_arena_take_table's):
 * other memory is freed. */
__attribute__((visibility("hidden"))) void pl_arena_give(void *arena, void *mem, size_t size);
/* The take and release of a large hash table (struct pl_ht) whose slots
 * come from the region of an arena (a pl_arena *, as void *), so that
 * the slots it outgrows can serve that arena (pl_arena_give): asked for
 * huge pages, as pl_ht_mem_'s. */
__attribute__((visibility("hidden"))) void *pl_arena_take_table(void *arena, size_t size);
__attribute__((visibility("hidden"))) void pl_arena_release_table(void *arena, void *mem,
                                                                  size_t size);

/* Bytes free in the current chunk. */
static inline size_t pl_arena_room(const pl_arena *a)
{
	return (size_t)(a->limit - a->cur);
}

/* The pages that hold [p, p + n), but a last one partly outside, put in
 * place with one system call where the kernel can (as the arena's are),
 * for memory about to be written whole: an array of one entry an
 * instruction, say. Changes no byte. */
__attribute__((visibility("hidden"))) void pl_pages_in_place_(void *p, size_t n);

static inline void *pl_arena_alloc(pl_arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(a->end - a->cur) >= n) {
		void *p = a->cur;
		a->cur += n;
		return p;
	}
	return pl_arena_alloc_slow(a, n);
}

/* A NUL-terminated copy of s[0..len) at the next byte, for an arena of
 * text alone (pl_arena_alloc, which keeps allocations aligned, must not be
 * used on it): names one after another waste no byte on alignment, and a
 * walk over them reads them in a row. NULL when out of memory. Inline: the
 * reader names every value with one. */
static inline char *pl_arena_text(pl_arena *a, const char *s, size_t len)
{
	char *p = a->cur;
	if ((size_t)(a->end - a->cur) > len)
		a->cur += len + 1;
	else if (!(p = pl_arena_alloc_slow(a, len + 1)))
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* A NUL-terminated copy of s[0..len); NULL when out of memory. */
static inline char *pl_arena_strndup(pl_arena *a, const char *s, size_t len)
{
	char *p = pl_arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

#endif
