/* SPDX-License-Identifier: MIT */
/* sdk/ir/region.c — see region.h.
 *
 * The span is reserved without access (PROT_NONE), which costs neither
 * memory nor commit charge, even where the system does not overcommit;
 * each chunk taken is made readable and writable on its own. Where the
 * process may not have that much address space, a smaller part of an
 * aligned span is reserved: a region that holds fewer instructions. */
#include <config.h>

#include "ir/region.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

struct pl_region {
	atomic_size_t refs;
	atomic_size_t top; /* bytes of the span taken so far */
	size_t len;        /* bytes reserved: PL_REGION_SIZE, or fewer */
};

/* FIRST: made writable at once with the header, so that a small module's
 * first chunks cost no system call of their own */
enum { HUGE_PAGE = 2 * 1024 * 1024, MIN_SPAN = 64 * 1024 * 1024, HINT_TRIES = 16,
       FIRST = 256 * 1024 };

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

static bool writable(void *p, size_t len)
{
	return mprotect(p, len, PROT_READ | PROT_WRITE) == 0;
}

static char *reserve(void *at, size_t len)
{
	char *p = mmap(at, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Where the last whole span began: a module made after another was
 * freed mostly finds that span free again, and one system call reserves
 * it (a hint only: any value is safe). */
static _Atomic uintptr_t last_whole;

/* The whole span: where the last one was, or twice its size reserved and
 * the aligned part kept. */
static char *reserve_whole(void)
{
	uintptr_t hint = atomic_load(&last_whole);
	char *p = hint ? reserve((void *)hint, PL_REGION_SIZE) : NULL;
	if (p == (char *)hint && p)
		return p;
	if (p)
		munmap(p, PL_REGION_SIZE);
	p = reserve(NULL, 2 * PL_REGION_SIZE);
	if (!p)
		return NULL;
	char *base = (char *)(((uintptr_t)p + PL_REGION_SIZE - 1) & ~(PL_REGION_SIZE - 1));
	if (base > p)
		munmap(p, (size_t)(base - p));
	char *end = p + 2 * PL_REGION_SIZE;
	if (end > base + PL_REGION_SIZE)
		munmap(base + PL_REGION_SIZE, (size_t)(end - base - PL_REGION_SIZE));
	atomic_store(&last_whole, (uintptr_t)base);
	return base;
}

/* len bytes at at exactly, or NULL (the kernel takes a free address it
 * is offered as a hint). */
static char *reserve_at(uintptr_t at, size_t len)
{
	char *p = at ? reserve((void *)at, len) : NULL;
	if (p && p != (char *)at) {
		munmap(p, len);
		p = NULL;
	}
	return p;
}

/* len bytes (less than the span) at an aligned address, where the process
 * may not have twice the span of address space (a limit on it, as ulimit
 * -v sets): aligned addresses on either side of where the kernel would
 * put len bytes, nearest first (the kernel fills the address space from
 * the top down, and what lies above may be taken: a sanitizer's shadow
 * memory, say). */
static char *reserve_part(size_t len)
{
	char *probe = reserve(NULL, len);
	if (!probe)
		return NULL;
	munmap(probe, len);
	uintptr_t up = ((uintptr_t)probe + PL_REGION_SIZE - 1) & ~(PL_REGION_SIZE - 1);
	uintptr_t down = (uintptr_t)probe & ~(PL_REGION_SIZE - 1);
	for (uintptr_t k = 0; k < HINT_TRIES; k++) {
		char *p = reserve_at(up + k * PL_REGION_SIZE, len);
		if (!p && down >= k * PL_REGION_SIZE)
			p = reserve_at(down - k * PL_REGION_SIZE, len);
		if (p)
			return p;
	}
	return NULL;
}

struct pl_region *pl_region_new(void)
{
	size_t len = PL_REGION_SIZE;
	char *base = reserve_whole();
	while (!base && (len /= 2) >= MIN_SPAN)
		base = reserve_part(len);
	if (!base)
		return NULL;
	size_t page = page_size();
	if (!writable(base, FIRST)) {
		munmap(base, len);
		return NULL;
	}
	struct pl_region *r = (struct pl_region *)(void *)base;
	atomic_init(&r->refs, 1);
	atomic_init(&r->top, page); /* the header's page: offset 0 is no object */
	r->len = len;
	return r;
}

void pl_region_hold(struct pl_region *r)
{
	atomic_fetch_add(&r->refs, 1);
}

bool pl_region_shared(struct pl_region *r)
{
	return atomic_load(&r->refs) > 1;
}

void pl_region_drop(struct pl_region *r)
{
	if (r && atomic_fetch_sub(&r->refs, 1) == 1)
		munmap(r, r->len);
}

void *pl_region_take(struct pl_region *r, size_t size, size_t *got)
{
	size_t page = page_size();
	/* large chunks start on a huge page boundary, so that a kernel that
	 * gives every process transparent huge pages can back them whole */
	size_t align = size >= HUGE_PAGE ? HUGE_PAGE : page;
	if (size > r->len)
		return NULL;
	size = (size + page - 1) & ~(page - 1);
	size_t top = atomic_load(&r->top), at;
	do {
		at = (top + align - 1) & ~(align - 1);
		if (at > r->len || r->len - at < size)
			return NULL;
	} while (!atomic_compare_exchange_weak(&r->top, &top, at + size));
	char *p = (char *)r + at;
	if (at + size > FIRST && !writable(p, size))
		return NULL; /* the span stays taken: it was never memory */
	*got = size;
	return p;
}

void pl_region_release(void *p, size_t size)
{
	size_t page = page_size();
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t to = ((uintptr_t)p + size) & ~(uintptr_t)(page - 1);
	/* a fresh mapping without access in its place: the pages and their
	 * commit charge go, the span stays reserved */
	if (from < to)
		mmap((void *)from, to - from, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}
