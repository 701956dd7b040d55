/* sdk/predicate.c — parsing affine constraints, and counting the points of
 * a domain that satisfy them without enumerating the domain.
 *
 * Counting: indices no constraint names multiply in directly. The rest split
 * into groups linked by shared constraints, counted separately and
 * multiplied. In a group, constraints on a single index first narrow its
 * range; then the index with the widest range becomes the inner one and the
 * others are enumerated: for fixed outer indices every constraint is linear
 * in the inner index, so its solutions form an interval (or, for !=, all
 * but one point). Only the outer product is walked, and it is bounded.
 *
 * Arithmetic is in 128 bits: with a domain of at most INT64_MAX points and
 * int64 coefficients no partial sum can pass 2^127.
 */
#include "internal.h"

#include <stdlib.h>

typedef __int128 i128;

struct pl_constraint {
	size_t rank;
	pl_cmp cmp;
	int64_t constant;
	int64_t coeff[]; /* rank entries */
};

/* ---- parsing ---- */

struct cparser {
	const char *s, *p, *end;
	size_t rank;
	i128 *coeff; /* rank entries, accumulated as lhs - rhs */
	i128 constant;
	size_t err_col;
	const char *err;
};

static void cskip(struct cparser *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool cfail(struct cparser *c, const char *at, const char *msg)
{
	if (!c->err) {
		c->err = msg;
		c->err_col = (size_t)(at - c->s) + 1;
	}
	return false;
}

static bool cdigit(char ch) { return ch >= '0' && ch <= '9'; }

/* An unsigned decimal; fails beyond int64. */
static bool cnumber(struct cparser *c, int64_t *out)
{
	const char *start = c->p;
	uint64_t v = 0;
	while (c->p < c->end && cdigit(*c->p)) {
		unsigned d = (unsigned)(*c->p - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return cfail(c, start, "integer out of range of int64");
		v = v * 10 + d;
		c->p++;
	}
	*out = (int64_t)v;
	return true;
}

/* "iK" where K < rank. */
static bool cindex(struct cparser *c, size_t *k)
{
	const char *start = c->p;
	c->p++; /* 'i' */
	if (c->p == c->end || !cdigit(*c->p))
		return cfail(c, start, "expected an index variable iK");
	int64_t v;
	if (!cnumber(c, &v))
		return false;
	if ((uint64_t)v >= c->rank)
		return cfail(c, start, "index variable not in the domain");
	*k = (size_t)v;
	return true;
}

static const i128 COEFF_LIMIT = (i128)1 << 100; /* far beyond int64, far from overflow */

static bool cadd(struct cparser *c, const char *at, i128 *acc, i128 v)
{
	*acc += v;
	if (*acc > COEFF_LIMIT || *acc < -COEFF_LIMIT)
		return cfail(c, at, "coefficient out of range of int64");
	return true;
}

/* term := c | iK | c*iK | iK*c, with an optional leading '-'. */
static bool cterm(struct cparser *c, int sign)
{
	cskip(c);
	const char *start = c->p;
	if (c->p < c->end && *c->p == '-') {
		sign = -sign;
		c->p++;
		cskip(c);
	}
	if (c->p == c->end)
		return cfail(c, c->p, "expected an integer or an index variable");
	if (*c->p == 'i') {
		size_t k;
		if (!cindex(c, &k))
			return false;
		cskip(c);
		int64_t mul = 1;
		if (c->p < c->end && *c->p == '*') {
			c->p++;
			cskip(c);
			if (c->p == c->end || !cdigit(*c->p))
				return cfail(c, c->p, "expected an integer after '*'");
			if (!cnumber(c, &mul))
				return false;
		}
		return cadd(c, start, &c->coeff[k], (i128)sign * mul);
	}
	if (!cdigit(*c->p))
		return cfail(c, c->p, "expected an integer or an index variable");
	int64_t v;
	if (!cnumber(c, &v))
		return false;
	cskip(c);
	if (c->p < c->end && *c->p == '*') {
		c->p++;
		cskip(c);
		if (c->p == c->end || *c->p != 'i')
			return cfail(c, c->p, "expected an index variable after '*'");
		size_t k;
		if (!cindex(c, &k))
			return false;
		return cadd(c, start, &c->coeff[k], (i128)sign * v);
	}
	return cadd(c, start, &c->constant, (i128)sign * v);
}

static bool cexpr(struct cparser *c, int sign)
{
	if (!cterm(c, sign))
		return false;
	for (;;) {
		cskip(c);
		if (c->p < c->end && (*c->p == '+' || (*c->p == '-'))) {
			int s = *c->p == '+' ? sign : -sign;
			c->p++;
			if (!cterm(c, s))
				return false;
		} else {
			return true;
		}
	}
}

static bool ccmp(struct cparser *c, pl_cmp *out)
{
	cskip(c);
	const char *q = c->p;
	size_t left = (size_t)(c->end - q);
	if (left >= 2 && q[1] == '=') {
		switch (q[0]) {
		case '<': *out = PL_CMP_LE; c->p += 2; return true;
		case '>': *out = PL_CMP_GE; c->p += 2; return true;
		case '=': *out = PL_CMP_EQ; c->p += 2; return true;
		case '!': *out = PL_CMP_NE; c->p += 2; return true;
		default: break;
		}
	}
	if (left >= 1 && q[0] == '<') {
		*out = PL_CMP_LT;
		c->p++;
		return true;
	}
	if (left >= 1 && q[0] == '>') {
		*out = PL_CMP_GT;
		c->p++;
		return true;
	}
	return cfail(c, q, left ? "expected one of < <= > >= == !=" :
	                          "expected a comparison, found the end");
}

int pl_constraint_parse(const char *text, size_t len, size_t rank,
                        pl_constraint **out, size_t *err_col, const char **err_msg)
{
	*out = NULL;
	if (rank > PL_MAX_RANK)
		return PL_EINVAL;
	i128 coeff[PL_MAX_RANK] = {0};
	struct cparser c = {text, text, text + len, rank, coeff, 0, 0, NULL};
	pl_cmp cmp = PL_CMP_LT;
	bool ok = cexpr(&c, 1) && ccmp(&c, &cmp) && cexpr(&c, -1);
	if (ok) {
		cskip(&c);
		if (c.p != c.end)
			ok = cfail(&c, c.p, "unexpected text after the constraint");
	}
	for (size_t k = 0; ok && k < rank; k++)
		if (coeff[k] > INT64_MAX || coeff[k] < INT64_MIN)
			ok = cfail(&c, text, "coefficient out of range of int64");
	if (ok && (c.constant > INT64_MAX || c.constant < INT64_MIN))
		ok = cfail(&c, text, "constant out of range of int64");
	if (!ok) {
		if (err_col)
			*err_col = c.err_col;
		if (err_msg)
			*err_msg = c.err;
		return PL_EPARSE;
	}
	pl_constraint *k = malloc(sizeof *k + rank * sizeof(int64_t));
	if (!k)
		return PL_ENOMEM;
	k->rank = rank;
	k->cmp = cmp;
	k->constant = (int64_t)c.constant;
	for (size_t i = 0; i < rank; i++)
		k->coeff[i] = (int64_t)coeff[i];
	*out = k;
	return PL_OK;
}

void pl_constraint_free(pl_constraint *c) { free(c); }
size_t pl_constraint_rank(const pl_constraint *c) { return c->rank; }
int64_t pl_constraint_coeff(const pl_constraint *c, size_t k) { return k < c->rank ? c->coeff[k] : 0; }
int64_t pl_constraint_constant(const pl_constraint *c) { return c->constant; }
pl_cmp pl_constraint_cmp(const pl_constraint *c) { return c->cmp; }

static bool holds(pl_cmp cmp, i128 v)
{
	switch (cmp) {
	case PL_CMP_LT: return v < 0;
	case PL_CMP_LE: return v <= 0;
	case PL_CMP_GT: return v > 0;
	case PL_CMP_GE: return v >= 0;
	case PL_CMP_EQ: return v == 0;
	case PL_CMP_NE: return v != 0;
	}
	return false;
}

bool pl_constraint_eval(const pl_constraint *c, const int64_t *idx)
{
	i128 v = c->constant;
	for (size_t k = 0; k < c->rank; k++)
		v += (i128)c->coeff[k] * idx[k];
	return holds(c->cmp, v);
}

/* ---- counting ---- */

static i128 floordiv(i128 n, i128 d) /* d > 0 */
{
	i128 q = n / d;
	if (n % d != 0 && n < 0)
		q--;
	return q;
}

static i128 ceildiv(i128 n, i128 d) /* d > 0 */
{
	return -floordiv(-n, d);
}

/* Narrows [*lo, *hi] to the x with a*x + b CMP 0 (a != 0). For !=, sets
 * *excl (and *has_excl) to the one excluded point instead. */
static void solve(pl_cmp cmp, i128 a, i128 b, i128 *lo, i128 *hi, i128 *excl,
                  bool *has_excl)
{
	if (a < 0) {
		a = -a;
		b = -b;
		switch (cmp) {
		case PL_CMP_LT: cmp = PL_CMP_GT; break;
		case PL_CMP_LE: cmp = PL_CMP_GE; break;
		case PL_CMP_GT: cmp = PL_CMP_LT; break;
		case PL_CMP_GE: cmp = PL_CMP_LE; break;
		default: break;
		}
	}
	i128 v;
	switch (cmp) {
	case PL_CMP_LE: /* a x <= -b */
		v = floordiv(-b, a);
		if (v < *hi)
			*hi = v;
		break;
	case PL_CMP_LT: /* a x <= -b - 1 */
		v = floordiv(-b - 1, a);
		if (v < *hi)
			*hi = v;
		break;
	case PL_CMP_GE:
		v = ceildiv(-b, a);
		if (v > *lo)
			*lo = v;
		break;
	case PL_CMP_GT:
		v = ceildiv(-b + 1, a);
		if (v > *lo)
			*lo = v;
		break;
	case PL_CMP_EQ:
		if ((-b) % a != 0) {
			*lo = 1;
			*hi = 0;
		} else {
			v = -b / a;
			if (v > *lo)
				*lo = v;
			if (v < *hi)
				*hi = v;
		}
		break;
	case PL_CMP_NE:
		if ((-b) % a == 0) {
			*excl = -b / a;
			*has_excl = true;
		}
		break;
	}
}

struct group {
	size_t ndims;
	size_t dims[PL_MAX_RANK];
	i128 lo[PL_MAX_RANK], hi[PL_MAX_RANK]; /* per position in dims */
};

static int cmp_i128(const void *a, const void *b)
{
	i128 x = *(const i128 *)a, y = *(const i128 *)b;
	return x < y ? -1 : x > y;
}

/* Counts one group of linked indices. cs are the group's constraints. */
static int count_group(struct group *g, const pl_constraint *const *cs, size_t ncs,
                       uint64_t *out)
{
	/* 1. single-index constraints narrow ranges (!= waits for the end) */
	for (size_t c = 0; c < ncs; c++) {
		size_t only = SIZE_MAX, named = 0;
		for (size_t k = 0; k < g->ndims; k++)
			if (cs[c]->coeff[g->dims[k]]) {
				only = k;
				named++;
			}
		if (named == 1 && cs[c]->cmp != PL_CMP_NE) {
			i128 dummy;
			bool has = false;
			solve(cs[c]->cmp, cs[c]->coeff[g->dims[only]], cs[c]->constant,
			      &g->lo[only], &g->hi[only], &dummy, &has);
		}
	}
	for (size_t k = 0; k < g->ndims; k++)
		if (g->lo[k] > g->hi[k]) {
			*out = 0;
			return PL_OK;
		}

	/* 2. the widest index is the inner one; the rest are enumerated */
	size_t inner = 0;
	for (size_t k = 1; k < g->ndims; k++)
		if (g->hi[k] - g->lo[k] > g->hi[inner] - g->lo[inner])
			inner = k;
	i128 points = 1;
	for (size_t k = 0; k < g->ndims; k++)
		if (k != inner) {
			points *= g->hi[k] - g->lo[k] + 1;
			if (points > (i128)PL_COUNT_MAX_ENUMERATION)
				return PL_ELIMIT;
		}

	size_t nouter = 0;
	size_t outer[PL_MAX_RANK];
	for (size_t k = 0; k < g->ndims; k++)
		if (k != inner)
			outer[nouter++] = k;

	i128 *b = malloc((ncs ? ncs : 1) * sizeof *b);
	i128 *excl = malloc((ncs ? ncs : 1) * sizeof *excl);
	if (!b || !excl) {
		free(b);
		free(excl);
		return PL_ENOMEM;
	}
	i128 idx[PL_MAX_RANK];
	for (size_t k = 0; k < nouter; k++)
		idx[k] = g->lo[outer[k]];
	/* b[c] = constant + sum over outer indices, kept up to date as the
	 * odometer turns */
	for (size_t c = 0; c < ncs; c++) {
		b[c] = cs[c]->constant;
		for (size_t k = 0; k < nouter; k++)
			b[c] += (i128)cs[c]->coeff[g->dims[outer[k]]] * idx[k];
	}
	size_t jd = g->dims[inner];
	i128 total = 0;
	for (;;) {
		i128 lo = g->lo[inner], hi = g->hi[inner];
		size_t nexcl = 0;
		bool empty = false;
		for (size_t c = 0; c < ncs && !empty; c++) {
			i128 a = cs[c]->coeff[jd];
			if (a == 0) {
				empty = !holds(cs[c]->cmp, b[c]);
				continue;
			}
			bool has = false;
			solve(cs[c]->cmp, a, b[c], &lo, &hi, &excl[nexcl], &has);
			if (has)
				nexcl++;
			empty = lo > hi;
		}
		if (!empty && lo <= hi) {
			i128 n = hi - lo + 1;
			if (nexcl) {
				qsort(excl, nexcl, sizeof *excl, cmp_i128);
				for (size_t e = 0; e < nexcl; e++)
					if ((e == 0 || excl[e] != excl[e - 1]) && excl[e] >= lo &&
					    excl[e] <= hi)
						n--;
			}
			total += n;
		}
		/* next outer point */
		size_t k = 0;
		for (; k < nouter; k++) {
			size_t d = g->dims[outer[k]];
			if (idx[k] < g->hi[outer[k]]) {
				idx[k]++;
				for (size_t c = 0; c < ncs; c++)
					b[c] += cs[c]->coeff[d];
				break;
			}
			i128 span = g->hi[outer[k]] - g->lo[outer[k]];
			idx[k] = g->lo[outer[k]];
			for (size_t c = 0; c < ncs; c++)
				b[c] -= (i128)cs[c]->coeff[d] * span;
		}
		if (k == nouter)
			break;
	}
	free(b);
	free(excl);
	*out = (uint64_t)total;
	return PL_OK;
}

int pl_domain_count(const int64_t *extents, size_t rank,
                    const pl_constraint *const *cs, size_t ncs, uint64_t *out)
{
	if (rank > PL_MAX_RANK)
		return PL_EINVAL;
	for (size_t c = 0; c < ncs; c++)
		if (cs[c]->rank != rank)
			return PL_EINVAL;
	uint64_t product = 1;
	for (size_t k = 0; k < rank; k++) {
		if (extents[k] < 0)
			return PL_EINVAL;
		if (extents[k] == 0) {
			*out = 0;
			return PL_OK;
		}
	}
	for (size_t k = 0; k < rank; k++) {
		if (product > (uint64_t)INT64_MAX / (uint64_t)extents[k])
			return PL_EOVERFLOW;
		product *= (uint64_t)extents[k];
	}

	/* constraints naming no index are true or false everywhere */
	for (size_t c = 0; c < ncs; c++) {
		bool named = false;
		for (size_t k = 0; k < rank && !named; k++)
			named = cs[c]->coeff[k] != 0;
		if (!named && !holds(cs[c]->cmp, cs[c]->constant)) {
			*out = 0;
			return PL_OK;
		}
	}

	/* union-find over indices linked by a constraint */
	size_t parent[PL_MAX_RANK];
	bool used[PL_MAX_RANK] = {false};
	for (size_t k = 0; k < rank; k++)
		parent[k] = k;
	for (size_t c = 0; c < ncs; c++) {
		size_t first = SIZE_MAX;
		for (size_t k = 0; k < rank; k++) {
			if (!cs[c]->coeff[k])
				continue;
			used[k] = true;
			if (first == SIZE_MAX) {
				first = k;
				continue;
			}
			size_t a = first, b = k;
			while (parent[a] != a)
				a = parent[a];
			while (parent[b] != b)
				b = parent[b];
			if (a != b)
				parent[b] = a;
		}
	}

	uint64_t total = 1;
	for (size_t k = 0; k < rank; k++)
		if (!used[k])
			total *= (uint64_t)extents[k];

	const pl_constraint **gcs = malloc((ncs ? ncs : 1) * sizeof *gcs);
	if (!gcs)
		return PL_ENOMEM;
	for (size_t root = 0; root < rank; root++) {
		if (!used[root] || parent[root] != root)
			continue;
		struct group g;
		g.ndims = 0;
		for (size_t k = 0; k < rank; k++) {
			if (!used[k])
				continue;
			size_t r = k;
			while (parent[r] != r)
				r = parent[r];
			if (r != root)
				continue;
			g.lo[g.ndims] = 0;
			g.hi[g.ndims] = extents[k] - 1;
			g.dims[g.ndims++] = k;
		}
		size_t ngcs = 0;
		for (size_t c = 0; c < ncs; c++)
			for (size_t k = 0; k < g.ndims; k++)
				if (cs[c]->coeff[g.dims[k]]) {
					gcs[ngcs++] = cs[c];
					break;
				}
		uint64_t n;
		int rc = count_group(&g, gcs, ngcs, &n);
		if (rc) {
			free(gcs);
			return rc;
		}
		total *= n; /* bounded by the product of extents */
		if (total == 0)
			break;
	}
	free(gcs);
	*out = total;
	return PL_OK;
}

int pl_inst_masked_dynamic_instances(const pl_inst *inst, uint64_t *out)
{
	const pl_attr *pred = pl_attrs_get(&inst->attrs, "predicate");
	const pl_attr *dom = pl_attrs_get(&inst->attrs, "domain");
	if (!pred)
		return pl_inst_num_dynamic_instances(inst, out);
	if (!dom || dom->kind != PL_ATTR_LIST || pred->kind != PL_ATTR_LIST)
		return PL_ETYPE;
	size_t rank = dom->len;
	if (rank > PL_MAX_RANK)
		return PL_ELIMIT;
	int64_t extents[PL_MAX_RANK];
	for (size_t k = 0; k < rank; k++) {
		if (dom->u.list[k].kind != PL_ATTR_INT)
			return PL_ETYPE;
		extents[k] = dom->u.list[k].u.i;
	}
	size_t ncs = pred->len;
	pl_constraint **cs = calloc(ncs ? ncs : 1, sizeof *cs);
	if (!cs)
		return PL_ENOMEM;
	int rc = PL_OK;
	for (size_t c = 0; c < ncs && rc == PL_OK; c++) {
		const pl_attr *s = &pred->u.list[c];
		if (s->kind != PL_ATTR_STRING)
			rc = PL_ETYPE;
		else
			rc = pl_constraint_parse(s->u.s, s->len, rank, &cs[c], NULL, NULL);
	}
	if (rc == PL_OK)
		rc = pl_domain_count(extents, rank, (const pl_constraint *const *)cs, ncs, out);
	for (size_t c = 0; c < ncs; c++)
		free(cs[c]);
	free(cs);
	return rc;
}
