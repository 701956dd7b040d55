/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_groups.c — group sizes and node spans of XLA's replica
 * groups and source-target pairs, for the cost model. Linear in the text
 * (the iota form in the number of devices it names). */
#include "ir/internal.h"
#include "analysis/cost_groups.h"

#include <stdlib.h>

enum { MAX_DIMS = 16, MAX_DEVICES = 1 << 20 };

struct cursor {
	const char *s, *end;
};

static void skip_ws(struct cursor *c)
{
	while (c->s < c->end && (*c->s == ' ' || *c->s == '\t'))
		c->s++;
}

static bool eat(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->s < c->end && *c->s == ch) {
		c->s++;
		return true;
	}
	return false;
}

static bool number(struct cursor *c, int64_t *out)
{
	skip_ws(c);
	int64_t v = 0;
	const char *start = c->s;
	while (c->s < c->end && *c->s >= '0' && *c->s <= '9') {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*c->s++ - '0');
	}
	*out = v;
	return c->s > start;
}

/* "[a,b,...]" into v (at most MAX_DIMS), or "(a,b,...)" when open is '('. */
static bool int_list(struct cursor *c, char open, char close, int64_t *v, size_t *n)
{
	*n = 0;
	if (!eat(c, open))
		return false;
	if (eat(c, close))
		return true;
	do {
		if (*n == MAX_DIMS || !number(c, &v[*n]))
			return false;
		(*n)++;
	} while (eat(c, ','));
	return eat(c, close);
}

/* Nodes among n device ids (n small: a group), sorted in place. */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The nodes among the devices, and the most devices on one of them. */
static int64_t distinct_nodes(int64_t *dev, size_t n, int64_t per_node, int64_t *most)
{
	for (size_t i = 0; i < n; i++)
		dev[i] /= per_node;
	qsort(dev, n, sizeof *dev, cmp_i64);
	int64_t k = n ? 1 : 0, run = n ? 1 : 0;
	*most = run;
	for (size_t i = 1; i < n; i++) {
		bool next = dev[i] != dev[i - 1];
		k += next;
		run = next ? 1 : run + 1;
		if (run > *most)
			*most = run;
	}
	return k;
}

static void note_group(struct pl_group_shape *g, int64_t *dev, size_t n, int64_t per_node)
{
	if ((int64_t)n > g->size)
		g->size = (int64_t)n;
	int64_t most;
	int64_t k = distinct_nodes(dev, n, per_node, &most);
	if (k > g->nodes || (k == g->nodes && most > g->per_node)) {
		g->nodes = k;
		g->per_node = most;
	}
}

static bool iota_groups(struct cursor *c, int64_t per_node, struct pl_group_shape *out)
{
	int64_t shape[MAX_DIMS], dims[MAX_DIMS], perm[MAX_DIMS];
	size_t ns, nd, np = 0;
	if (!int_list(c, '[', ']', shape, &ns) || ns != 2 || !eat(c, '<') || !eat(c, '=') ||
	    !int_list(c, '[', ']', dims, &nd) || nd == 0)
		return false;
	if (eat(c, 'T')) {
		if (!int_list(c, '(', ')', perm, &np) || np != nd)
			return false;
	} else {
		for (size_t i = 0; i < nd; i++)
			perm[i] = (int64_t)i;
	}
	skip_ws(c);
	int64_t total = 1;
	for (size_t i = 0; i < nd; i++) {
		if (dims[i] < 1 || perm[i] < 0 || perm[i] >= (int64_t)nd || total > MAX_DEVICES)
			return false;
		total *= dims[i];
	}
	if (c->s != c->end || total > MAX_DEVICES || shape[0] < 1 || shape[1] < 1 ||
	    shape[0] * shape[1] != total)
		return false;
	/* the transposed array's element i, in row-major order of the permuted
	 * dims, is the original element at the un-permuted index */
	int64_t stride[MAX_DIMS], tdims[MAX_DIMS];
	int64_t st = 1;
	for (size_t i = nd; i-- > 0;) {
		stride[i] = st;
		st *= dims[i];
	}
	for (size_t i = 0; i < nd; i++)
		tdims[i] = dims[perm[i]];
	int64_t *dev = malloc((size_t)shape[1] * sizeof *dev);
	if (!dev)
		return false;
	*out = (struct pl_group_shape){0, 0, 0};
	int64_t idx[MAX_DIMS] = {0};
	for (int64_t g = 0; g < shape[0]; g++) {
		for (int64_t k = 0; k < shape[1]; k++) {
			int64_t d = 0;
			for (size_t i = 0; i < nd; i++)
				d += idx[i] * stride[perm[i]];
			dev[k] = d;
			for (size_t i = nd; i-- > 0;) { /* next index, row-major */
				if (++idx[i] < tdims[i])
					break;
				idx[i] = 0;
			}
		}
		note_group(out, dev, (size_t)shape[1], per_node);
	}
	free(dev);
	return true;
}

/* "{{a,b},{c}}": every inner list a group (pairs: every inner list is a
 * pair). */
static bool list_groups(struct cursor *c, int64_t per_node, bool pairs,
                        struct pl_group_shape *out)
{
	if (!eat(c, '{'))
		return false;
	*out = (struct pl_group_shape){0, 0, 0};
	size_t cap = 16, n = 0;
	int64_t *dev = malloc(cap * sizeof *dev);
	bool ok = dev != NULL, any = false;
	while (ok && eat(c, '{')) {
		n = 0;
		if (!eat(c, '}')) {
			do {
				if (n == cap) {
					int64_t *p = n < MAX_DEVICES ? realloc(dev, 2 * cap * sizeof *dev) : NULL;
					if (!p) {
						ok = false;
						break;
					}
					dev = p;
					cap *= 2;
				}
				ok = number(c, &dev[n++]);
			} while (ok && eat(c, ','));
			ok = ok && eat(c, '}');
		}
		if (!ok || (pairs && n != 2))
			ok = false;
		else if (n) {
			note_group(out, dev, n, per_node);
			any = true;
		}
		if (!eat(c, ','))
			break;
	}
	ok = ok && eat(c, '}');
	skip_ws(c);
	free(dev);
	return ok && any && c->s == c->end;
}

/* The attribute as stored may keep XLA's quotes. */
static struct cursor unquoted(const char *s, size_t len)
{
	struct cursor c = {s, s + len};
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		c.s++;
		c.end--;
	}
	return c;
}

bool pl_replica_groups_shape_(const char *s, size_t len, int64_t devices_per_node,
                              struct pl_group_shape *out)
{
	struct cursor c = unquoted(s, len);
	skip_ws(&c);
	if (c.s < c.end && *c.s == '[')
		return iota_groups(&c, devices_per_node, out);
	return list_groups(&c, devices_per_node, false, out);
}

bool pl_pairs_shape_(const char *s, size_t len, int64_t devices_per_node,
                     struct pl_group_shape *out)
{
	struct cursor c = unquoted(s, len);
	return list_groups(&c, devices_per_node, true, out);
}
