/* sdk/arena.c — see arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pl_arena_chunk {
	struct pl_arena_chunk *next;
	size_t size;
	/* data follows, 16-byte aligned */
	char pad[0] __attribute__((aligned(16)));
};

enum { MIN_CHUNK = 64 * 1024, MAX_CHUNK = 8 * 1024 * 1024 };

void pl_arena_init(pl_arena *a)
{
	memset(a, 0, sizeof *a);
	a->next_size = MIN_CHUNK;
}

void pl_arena_free(pl_arena *a)
{
	struct pl_arena_chunk *c = a->head;
	while (c) {
		struct pl_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	pl_arena_init(a);
}

void *pl_arena_alloc_slow(pl_arena *a, size_t n)
{
	size_t size = a->next_size;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(struct pl_arena_chunk))
		return NULL;
	struct pl_arena_chunk *c = malloc(sizeof *c + size);
	if (!c)
		return NULL;
	c->size = size;
	a->total += size;
	if (a->next_size < MAX_CHUNK)
		a->next_size *= 2;
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
	a->end = data + size;
	return data;
}

char *pl_arena_strndup(pl_arena *a, const char *s, size_t len)
{
	char *p = pl_arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
