/* SPDX-License-Identifier: MIT */
/* passline/grow.h — the one way the library and the plugins grow an
 * array. Installed for plugin authors; header-only (static inline), so
 * nothing in it is part of the library's ABI.
 *
 *	if (!PL_GROW(s->v, s->cap, s->n + 1))
 *		return PL_ENOMEM;
 *	s->v[s->n++] = x;
 *
 * The capacity doubles, so n pushes cost O(n) copies in all. */
#ifndef PL_GROW_H
#define PL_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for need elements of elem bytes in the array at *(void **)
 * arrp, of *cap elements: *cap doubles (from 8) until it holds need. False
 * when out of memory or when the size would overflow; the array and *cap
 * are then unchanged. */
static inline bool pl_grow_(void *arrp, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 8;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return false;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return false;
	void *v;
	memcpy(&v, arrp, sizeof v);
	v = realloc(v, c * elem);
	if (!v)
		return false;
	memcpy(arrp, &v, sizeof v);
	*cap = c;
	return true;
}

/* pl_grow_ for an array arr (a pointer lvalue) and its capacity cap (a
 * size_t lvalue). */
#define PL_GROW(arr, cap, need) pl_grow_(&(arr), &(cap), (need), sizeof *(arr))

#endif
