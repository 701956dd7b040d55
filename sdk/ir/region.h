/* SPDX-License-Identifier: MIT */
/* sdk/ir/region.h — the address space a module's IR lives in: its
 * instruction blocks, dictionaries, interned strings, lists and scalars.
 *
 * A region is one reserved span of PL_REGION_SIZE bytes of address space,
 * aligned to its size (or, where the process may not have so much
 * address space, the start of such a span). Nothing in it is memory
 * until a chunk of it is taken (pl_region_take), so a module that holds
 * ten instructions costs what ten instructions cost. Because the span is
 * aligned to its size, anything inside it finds the region's start from
 * its own address, and one object in the region names another by a
 * 32-bit offset in 8-byte units (pl_region_off_, pl_region_at_) instead
 * of a 64-bit pointer: an operand use is 16 bytes instead of 32, a
 * value 24 instead of 32, an attribute value 8 instead of 16.
 *
 * Several arenas may take chunks of one region at once (the two readers
 * of one file do, so that the offsets in what the second reads stay valid
 * when it is put after the first's): taking is atomic. A region lives
 * while anyone holds a reference (pl_region_hold, pl_region_drop).
 */
#ifndef PL_REGION_H
#define PL_REGION_H

#include <stddef.h>
#include <stdint.h>

/* 32 GiB: 2^32 offsets of 8 bytes. At about 100 bytes an instruction
 * block, over 300 million instructions a module. Where addresses have 32
 * bits, 256 MiB (a few million instructions). */
#if UINTPTR_MAX > 0xffffffffu
#define PL_REGION_SHIFT 35
#else
#define PL_REGION_SHIFT 28
#endif
#define PL_REGION_SIZE ((uintptr_t)1 << PL_REGION_SHIFT)

struct pl_region;

/* A new region, held once; NULL when the address space cannot be had. */
__attribute__((visibility("hidden"))) struct pl_region *pl_region_new(void);
__attribute__((visibility("hidden"))) void pl_region_hold(struct pl_region *r);
/* Whether another holds r too (when not, nobody else can come to). */
__attribute__((visibility("hidden"))) _Bool pl_region_shared(struct pl_region *r);
/* The last drop gives the whole span back. NULL is allowed. */
__attribute__((visibility("hidden"))) void pl_region_drop(struct pl_region *r);
/* At least size bytes of new memory in r (zeroed, 8-byte aligned; the
 * usable size in *got), or NULL when r is full or memory is short. */
__attribute__((visibility("hidden"))) void *pl_region_take(struct pl_region *r, size_t size,
                                                           size_t *got);
/* Memory taken from a region that is no longer needed: the whole pages
 * of [p, p + size) go back to the system (the span stays reserved until
 * the region goes). */
__attribute__((visibility("hidden"))) void pl_region_release(void *p, size_t size);
/* Whether a and b lie in one region's span (a region lies at the start
 * of its own: pl_region_same_(r, p) says whether p is in r). */
static inline int pl_region_same_(const void *a, const void *b)
{
	return (((uintptr_t)a ^ (uintptr_t)b) & ~(PL_REGION_SIZE - 1)) == 0;
}

/* The offset of p, which lies in a region, in 8-byte units from its
 * start; 0 for NULL (the region's first bytes hold no object). */
static inline uint32_t pl_region_off_(const void *p)
{
	return (uint32_t)(((uintptr_t)p & (PL_REGION_SIZE - 1)) >> 3);
}

/* The object at offset off of the region that near lies in; NULL for 0. */
static inline void *pl_region_at_(const void *near, uint32_t off)
{
	if (!off)
		return NULL;
	return (void *)(((uintptr_t)near & ~(PL_REGION_SIZE - 1)) + ((uintptr_t)off << 3));
}

#endif
