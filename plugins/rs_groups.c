/* SPDX-License-Identifier: MIT */
/* plugins/rs_groups.c — replica groups and device counts for
 * ReduceScatterCreator (rs_groups.h). */
#include "rs_groups.h"

#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>

/* The most devices an iota list may name here (a machine of a million). */
#define MAX_IOTA_DEVICES (1 << 20)

struct cursor {
	const char *s, *end;
};

static void skip_space(struct cursor *c)
{
	while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\n'))
		c->s++;
}

static bool eat(struct cursor *c, char ch)
{
	skip_space(c);
	if (c->s < c->end && *c->s == ch) {
		c->s++;
		return true;
	}
	return false;
}

/* A non-negative decimal integer. */
static bool number(struct cursor *c, int64_t *out)
{
	skip_space(c);
	int64_t v = 0;
	const char *at = c->s;
	while (c->s < c->end && *c->s >= '0' && *c->s <= '9') {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*c->s++ - '0');
	}
	*out = v;
	return c->s > at;
}

/* "n0,n1,...,nk" up to the closing ch (eaten), at most max numbers. */
static bool int_list(struct cursor *c, char close, int64_t *v, size_t max, size_t *n)
{
	*n = 0;
	if (eat(c, close))
		return true;
	do {
		if (*n == max || !number(c, &v[*n]))
			return false;
		(*n)++;
	} while (eat(c, ','));
	return eat(c, close);
}

static bool push_id(struct rs_groups *g, size_t *cap, size_t n, int64_t id)
{
	if (!PL_GROW(g->ids, *cap, n + 1))
		return false;
	g->ids[n] = id;
	return true;
}

static bool push_start(struct rs_groups *g, size_t *cap, size_t at)
{
	if (!PL_GROW(g->start, *cap, g->ngroups + 2))
		return false;
	g->start[g->ngroups + 1] = at;
	return true;
}

/* {{a,b},{c,d}} or {}: *ok false when malformed. */
static int explicit_groups(struct rs_groups *g, struct cursor *c, bool *ok)
{
	size_t idcap = 0, stcap = 0, n = 0;
	*ok = false;
	if (!eat(c, '{'))
		return PL_OK;
	if (!PL_GROW(g->start, stcap, 1))
		return PL_ENOMEM;
	g->start[0] = 0;
	if (eat(c, '}')) {
		*ok = true;
		return PL_OK;
	}
	do {
		if (!eat(c, '{'))
			return PL_OK;
		if (!eat(c, '}')) {
			do {
				int64_t id;
				if (!number(c, &id))
					return PL_OK;
				if (!push_id(g, &idcap, n++, id))
					return PL_ENOMEM;
			} while (eat(c, ','));
			if (!eat(c, '}'))
				return PL_OK;
		}
		if (!push_start(g, &stcap, n))
			return PL_ENOMEM;
		g->ngroups++;
	} while (eat(c, ','));
	*ok = eat(c, '}');
	return PL_OK;
}

/* [G,S]<=[d0,...,dk]T(p0,...,pk): the iota over the dims, transposed by
 * p, read row-major in G groups of S. */
static int iota_groups(struct rs_groups *g, struct cursor *c, bool *ok)
{
	int64_t gs[2], d[PL_MAX_RANK], perm[PL_MAX_RANK];
	size_t ngs, nd, np;
	*ok = false;
	if (!eat(c, '[') || !int_list(c, ']', gs, 2, &ngs) || ngs != 2 || !eat(c, '<') ||
	    !eat(c, '=') || !eat(c, '[') || !int_list(c, ']', d, PL_MAX_RANK, &nd) || nd == 0)
		return PL_OK;
	if (eat(c, 'T')) {
		if (!eat(c, '(') || !int_list(c, ')', perm, PL_MAX_RANK, &np) || np != nd)
			return PL_OK;
	} else {
		for (size_t k = 0; k < nd; k++)
			perm[k] = (int64_t)k;
	}
	skip_space(c);
	if (c->s != c->end)
		return PL_OK;
	int64_t total = 1, stride[PL_MAX_RANK];
	bool seen[PL_MAX_RANK] = {false};
	for (size_t k = 0; k < nd; k++) {
		if (d[k] <= 0 || total > MAX_IOTA_DEVICES / d[k] || perm[k] < 0 ||
		    (size_t)perm[k] >= nd || seen[perm[k]])
			return PL_OK;
		seen[perm[k]] = true;
		total *= d[k];
	}
	if (gs[0] <= 0 || gs[1] <= 0 || gs[0] * gs[1] != total)
		return PL_OK;
	stride[nd - 1] = 1;
	for (size_t k = nd - 1; k-- > 0;)
		stride[k] = stride[k + 1] * d[k + 1];
	g->ids = malloc((size_t)total * sizeof *g->ids);
	g->start = malloc(((size_t)gs[0] + 1) * sizeof *g->start);
	if (!g->ids || !g->start)
		return PL_ENOMEM;
	int64_t idx[PL_MAX_RANK] = {0};
	for (int64_t n = 0; n < total; n++) {
		int64_t id = 0;
		for (size_t k = 0; k < nd; k++)
			id += idx[k] * stride[perm[k]];
		g->ids[n] = id;
		for (size_t k = nd; k-- > 0;) { /* the next index of the transposed array */
			if (++idx[k] < d[perm[k]])
				break;
			idx[k] = 0;
		}
	}
	g->ngroups = (size_t)gs[0];
	for (size_t k = 0; k <= g->ngroups; k++)
		g->start[k] = k * (size_t)gs[1];
	*ok = true;
	return PL_OK;
}

static const char *string_attr(const pl_attrs *d, const char *key, size_t *len)
{
	const char *s = NULL;
	*len = 0;
	return pl_attrs_get_string(d, key, &s, len) == PL_OK ? s : NULL;
}

int rs_groups_read(struct rs_groups *g, const pl_inst *inst)
{
	memset(g, 0, sizeof *g);
	const pl_attrs *d = pl_inst_attrs_const(inst);
	size_t len, glen, ulen;
	const char *text = string_attr(d, "hlo_replica_groups", &len);
	const char *gid = string_attr(d, "group_id", &glen);
	const char *ug = string_attr(d, "hlo_use_global_device_ids", &ulen);
	if (text || pl_attrs_get(d, "hlo_channel_id") || ug) {
		g->cross_module = pl_attrs_get(d, "hlo_channel_id") != NULL;
		g->global_ids = ug && ulen == 4 && !memcmp(ug, "true", 4);
	} else if (gid) {
		/* a module written as .pir: the mode is the group_id's prefix */
		g->global_ids = glen > 7 && !memcmp(gid, "global:", 7);
		g->cross_module = g->global_ids || (glen > 18 && !memcmp(gid, "replica_partition:", 18));
	}
	if (!text && gid) {
		const char *colon = memchr(gid, ':', glen);
		text = colon ? colon + 1 : gid;
		len = glen - (size_t)(text - gid);
		if (len == 3 && !memcmp(text, "all", 3))
			text = "{}", len = 2;
	}
	if (!text)
		text = "{}", len = 2;
	struct cursor c = {text, text + len};
	skip_space(&c);
	bool ok = false;
	int rc = c.s < c.end && *c.s == '[' ? iota_groups(g, &c, &ok) : explicit_groups(g, &c, &ok);
	if (rc != PL_OK || !ok) {
		rs_groups_free(g);
		g->known = false;
		return rc;
	}
	g->known = true;
	return PL_OK;
}

void rs_groups_free(struct rs_groups *g)
{
	free(g->ids);
	free(g->start);
	g->ids = NULL;
	g->start = NULL;
	g->ngroups = 0;
}

int64_t rs_groups_max_id(const struct rs_groups *g)
{
	int64_t max = -1;
	for (size_t k = 0; g->ngroups && k < g->start[g->ngroups]; k++)
		if (g->ids[k] > max)
			max = g->ids[k];
	return max;
}

/* The value of key=N at the top level of the header text; 0 when absent. */
static int64_t header_count(const char *s, size_t len, const char *key)
{
	size_t klen = strlen(key);
	int depth = 0;
	for (size_t i = 0; i + klen < len; i++) {
		if (s[i] == '{' || s[i] == '(' || s[i] == '[')
			depth++;
		else if (s[i] == '}' || s[i] == ')' || s[i] == ']')
			depth--;
		if (depth || memcmp(s + i, key, klen) || s[i + klen] != '=' ||
		    (i && s[i - 1] != ' ' && s[i - 1] != ','))
			continue;
		struct cursor c = {s + i + klen + 1, s + len};
		int64_t v;
		return number(&c, &v) ? v : 0;
	}
	return 0;
}

void rs_module_counts(const pl_module *m, int64_t *replicas, int64_t *partitions)
{
	*replicas = *partitions = 0;
	for (size_t k = 0, n = pl_module_num_funcs(m); k < n; k++) {
		size_t len;
		const char *h = string_attr(pl_func_attrs(pl_module_func_at(m, k)), "hlo_module", &len);
		if (!h)
			continue;
		*replicas = header_count(h, len, "replica_count");
		*partitions = header_count(h, len, "num_partitions");
		return;
	}
}
