/* SPDX-License-Identifier: MIT */
/* sdk/analysis/predicate.c — parsing affine constraints, and counting the points of
 * a domain that satisfy them without enumerating the domain.
 *
 * Counting, in three steps:
 * 1. Bound propagation narrows each index's range [lo, hi] by what every
 *    constraint but != implies given the others' ranges (a single-index
 *    constraint simply clamps its index; "128*i0 + i1 < N" caps i0 at about
 *    N/128). Constraints the narrowed box decides are dropped: one false
 *    everywhere makes the count 0, one true everywhere no longer links its
 *    indices.
 * 2. Indices no remaining constraint names multiply in with their width.
 *    The others split into groups linked by shared constraints, counted
 *    separately and multiplied.
 * 3. In a group, the inner indices are a set no two of which share a
 *    constraint, with the largest product of widths (exhaustive search for
 *    small groups, greedy beyond); the rest, the outer ones, are enumerated.
 *    For fixed outer indices every constraint is linear in the one inner
 *    index it names (if any), so each inner index ranges over an interval
 *    (less the points a != excludes) independently of the others: a point
 *    of the outer walk adds the product of those widths. The outer walk is
 *    bounded by PL_COUNT_MAX_ENUMERATION points per group (PL_ELIMIT).
 *
 * Arithmetic is in 128 bits: with a domain of at most INT64_MAX points the
 * sum of the indices' largest values is below 2^63, so with int64
 * coefficients no partial sum passes 2^127.
 */
#include "ir/count_memo.h"
#include <passline/grow.h>

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
	if (n >= INT64_MIN && n <= INT64_MAX && d <= INT64_MAX) {
		/* the usual case, and a 128-bit division is many times slower */
		int64_t n64 = (int64_t)n, d64 = (int64_t)d, q64 = n64 / d64;
		return q64 - (n64 % d64 != 0 && n64 < 0);
	}
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
		v = floordiv(-b, a);
		if (v * a != -b) {
			*lo = 1;
			*hi = 0;
		} else {
			if (v > *lo)
				*lo = v;
			if (v < *hi)
				*hi = v;
		}
		break;
	case PL_CMP_NE:
		v = floordiv(-b, a);
		if (v * a == -b) {
			*excl = v;
			*has_excl = true;
		}
		break;
	}
}

/* The interval of S = sum coeff*x + constant that a constraint allows:
 * [*need_lo, *need_hi], each side possibly open (has_lo / has_hi false).
 * Not used for !=. */
static void allowed(pl_cmp cmp, bool *has_lo, i128 *need_lo, bool *has_hi, i128 *need_hi)
{
	*has_lo = *has_hi = false;
	*need_lo = *need_hi = 0;
	switch (cmp) {
	case PL_CMP_LT: *has_hi = true; *need_hi = -1; break;
	case PL_CMP_LE: *has_hi = true; break;
	case PL_CMP_GT: *has_lo = true; *need_lo = 1; break;
	case PL_CMP_GE: *has_lo = true; break;
	case PL_CMP_EQ: *has_lo = *has_hi = true; break;
	case PL_CMP_NE: break;
	}
}

/* The least and greatest value of coeff*x + constant over the box. */
static void span_of(const pl_constraint *c, const i128 *lo, const i128 *hi, i128 *mn,
                    i128 *mx)
{
	*mn = *mx = c->constant;
	for (size_t k = 0; k < c->rank; k++) {
		i128 a = c->coeff[k];
		if (a > 0) {
			*mn += a * lo[k];
			*mx += a * hi[k];
		} else if (a < 0) {
			*mn += a * hi[k];
			*mx += a * lo[k];
		}
	}
}

enum { NARROW_ROUNDS = 4 };

/* Bound propagation: every constraint but != bounds each index it names by
 * the extremes of its other terms over the box, for a few rounds or until
 * nothing changes. Only points that break a constraint are cut, so counting
 * the narrowed box gives the same number. False when the box is empty. */
static bool narrow(const pl_constraint *const *cs, size_t ncs, size_t rank, i128 *lo,
                   i128 *hi)
{
	for (int round = 0; round < NARROW_ROUNDS; round++) {
		bool changed = false;
		for (size_t c = 0; c < ncs; c++) {
			if (cs[c]->cmp == PL_CMP_NE)
				continue;
			bool has_lo, has_hi;
			i128 need_lo, need_hi, mn, mx;
			allowed(cs[c]->cmp, &has_lo, &need_lo, &has_hi, &need_hi);
			span_of(cs[c], lo, hi, &mn, &mx);
			for (size_t k = 0; k < rank; k++) {
				i128 a = cs[c]->coeff[k];
				if (a == 0)
					continue;
				i128 tmin = a > 0 ? a * lo[k] : a * hi[k];
				i128 tmax = a > 0 ? a * hi[k] : a * lo[k];
				i128 olo = lo[k], ohi = hi[k], unused;
				bool no_excl = false;
				/* a x <= need_hi - (mn - tmin) and a x >= need_lo - (mx - tmax) */
				if (has_hi)
					solve(PL_CMP_LE, a, mn - tmin - need_hi, &lo[k], &hi[k], &unused,
					      &no_excl);
				if (has_lo)
					solve(PL_CMP_GE, a, mx - tmax - need_lo, &lo[k], &hi[k], &unused,
					      &no_excl);
				if (lo[k] > hi[k])
					return false;
				changed |= lo[k] != olo || hi[k] != ohi;
			}
		}
		if (!changed)
			break;
	}
	return true;
}

/* Whether the box decides the constraint: *verdict is then whether it
 * holds at every point (true) or at none (false). */
static bool decided(const pl_constraint *c, const i128 *lo, const i128 *hi, bool *verdict)
{
	i128 mn, mx;
	span_of(c, lo, hi, &mn, &mx);
	if (c->cmp == PL_CMP_NE) {
		if (mn > 0 || mx < 0) {
			*verdict = true;
			return true;
		}
		if (mn == 0 && mx == 0) {
			*verdict = false;
			return true;
		}
		return false;
	}
	bool has_lo, has_hi;
	i128 need_lo, need_hi;
	allowed(c->cmp, &has_lo, &need_lo, &has_hi, &need_hi);
	if ((has_hi && mn > need_hi) || (has_lo && mx < need_lo)) {
		*verdict = false;
		return true;
	}
	if ((!has_hi || mx <= need_hi) && (!has_lo || mn >= need_lo)) {
		*verdict = true;
		return true;
	}
	return false;
}

/* A group of indices linked by constraints. Positions 0..ndims-1 index
 * dims (the domain's index numbers) and lo / hi (their narrowed ranges). */
struct group {
	size_t ndims;
	size_t dims[PL_MAX_RANK];
	i128 lo[PL_MAX_RANK], hi[PL_MAX_RANK];
};

/* Exhaustive search for the inner set up to this many indices in a group
 * (2^N subsets); a greedy choice beyond. */
enum { EXACT_INNER_SEARCH = 10 };

/* Chooses the inner indices: no two named by one constraint, so that for
 * fixed outer indices each ranges over its own interval, and with the
 * largest product of widths, so that the product of the outer ones (the
 * points enumerated) is the smallest. adj[k] has bit j set when position k
 * and j share a constraint. Returns the set as a bit mask of positions. */
static uint64_t choose_inner(const struct group *g, const uint64_t *adj)
{
	size_t n = g->ndims;
	uint64_t best = 0;
	if (n <= EXACT_INNER_SEARCH) {
		i128 best_width = 0;
		for (uint64_t mask = 1; mask < ((uint64_t)1 << n); mask++) {
			i128 width = 1;
			bool independent = true;
			for (size_t k = 0; k < n && independent; k++)
				if (mask >> k & 1) {
					independent = (adj[k] & mask) == 0;
					width *= g->hi[k] - g->lo[k] + 1;
				}
			if (independent && width > best_width) {
				best = mask;
				best_width = width;
			}
		}
		return best;
	}
	/* widest first, each taken when none taken shares a constraint with it */
	uint64_t taken = 0;
	for (size_t step = 0; step < n; step++) {
		size_t widest = SIZE_MAX;
		for (size_t k = 0; k < n; k++)
			if (!(taken >> k & 1) &&
			    (widest == SIZE_MAX ||
			     g->hi[k] - g->lo[k] > g->hi[widest] - g->lo[widest]))
				widest = k;
		taken |= (uint64_t)1 << widest;
		if ((adj[widest] & best) == 0)
			best |= (uint64_t)1 << widest;
	}
	return best;
}

struct excluded {
	size_t pos; /* inner position */
	i128 v;
};

static int cmp_excluded(const void *a, const void *b)
{
	const struct excluded *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/* Counts one group of linked indices. cs are the constraints naming its
 * indices, none of them decided by the box. */
static int count_group(const struct group *g, const pl_constraint *const *cs, size_t ncs,
                       uint64_t *out)
{
	size_t n = g->ndims;
	uint64_t adj[PL_MAX_RANK] = {0};
	for (size_t c = 0; c < ncs; c++) {
		uint64_t named = 0;
		for (size_t k = 0; k < n; k++)
			if (cs[c]->coeff[g->dims[k]])
				named |= (uint64_t)1 << k;
		for (size_t k = 0; k < n; k++)
			if (named >> k & 1)
				adj[k] |= named & ~((uint64_t)1 << k);
	}
	uint64_t inner = choose_inner(g, adj);

	size_t nouter = 0, ninner = 0;
	size_t outer[PL_MAX_RANK], inners[PL_MAX_RANK];
	i128 points = 1;
	for (size_t k = 0; k < n; k++) {
		if (inner >> k & 1) {
			inners[ninner++] = k;
			continue;
		}
		outer[nouter++] = k;
		points *= g->hi[k] - g->lo[k] + 1;
		if (points > (i128)PL_COUNT_MAX_ENUMERATION)
			return PL_ELIMIT;
	}

	size_t m = ncs ? ncs : 1;
	i128 *b = malloc(m * sizeof *b);
	size_t *cpos = malloc(m * sizeof *cpos); /* the inner position named, or SIZE_MAX */
	struct excluded *excl = malloc(m * sizeof *excl);
	if (!b || !cpos || !excl) {
		free(b);
		free(cpos);
		free(excl);
		return PL_ENOMEM;
	}
	i128 idx[PL_MAX_RANK];
	for (size_t k = 0; k < nouter; k++)
		idx[k] = g->lo[outer[k]];
	/* b[c] = constant + the outer terms, kept up to date as the odometer
	 * turns */
	for (size_t c = 0; c < ncs; c++) {
		b[c] = cs[c]->constant;
		for (size_t k = 0; k < nouter; k++)
			b[c] += (i128)cs[c]->coeff[g->dims[outer[k]]] * idx[k];
		cpos[c] = SIZE_MAX;
		for (size_t j = 0; j < ninner; j++)
			if (cs[c]->coeff[g->dims[inners[j]]])
				cpos[c] = inners[j];
	}
	i128 total = 0;
	for (;;) {
		i128 lo[PL_MAX_RANK], hi[PL_MAX_RANK];
		for (size_t j = 0; j < ninner; j++) {
			lo[inners[j]] = g->lo[inners[j]];
			hi[inners[j]] = g->hi[inners[j]];
		}
		size_t nexcl = 0;
		bool empty = false;
		for (size_t c = 0; c < ncs && !empty; c++) {
			size_t p = cpos[c];
			if (p == SIZE_MAX) {
				empty = !holds(cs[c]->cmp, b[c]);
				continue;
			}
			bool has = false;
			solve(cs[c]->cmp, cs[c]->coeff[g->dims[p]], b[c], &lo[p], &hi[p],
			      &excl[nexcl].v, &has);
			if (has)
				excl[nexcl++].pos = p;
			empty = lo[p] > hi[p];
		}
		if (!empty) {
			if (nexcl > 1)
				qsort(excl, nexcl, sizeof *excl, cmp_excluded);
			i128 product = 1;
			for (size_t j = 0; j < ninner && product; j++) {
				size_t p = inners[j];
				i128 width = hi[p] - lo[p] + 1;
				for (size_t e = 0; e < nexcl; e++)
					if (excl[e].pos == p && excl[e].v >= lo[p] && excl[e].v <= hi[p] &&
					    (e == 0 || excl[e - 1].pos != p || excl[e - 1].v != excl[e].v))
						width--;
				product *= width;
			}
			total += product;
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
	free(cpos);
	free(excl);
	*out = (uint64_t)total;
	return PL_OK;
}

/* The first index a constraint names (it names one: the box decides the
 * rest). */
static size_t first_named(const pl_constraint *c)
{
	size_t k = 0;
	while (k < c->rank && c->coeff[k] == 0)
		k++;
	return k;
}

static size_t uf_root(size_t *parent, size_t k)
{
	while (parent[k] != k)
		k = parent[k] = parent[parent[k]];
	return k;
}

int pl_domain_count(const int64_t *extents, size_t rank,
                    const pl_constraint *const *cs, size_t ncs, uint64_t *out)
{
	if (rank > PL_MAX_RANK)
		return PL_EINVAL;
	for (size_t c = 0; c < ncs; c++)
		if (cs[c]->rank != rank)
			return PL_EINVAL;
	for (size_t k = 0; k < rank; k++) {
		if (extents[k] < 0)
			return PL_EINVAL;
		if (extents[k] == 0) {
			*out = 0;
			return PL_OK;
		}
	}
	uint64_t product = 1;
	for (size_t k = 0; k < rank; k++) {
		if (product > (uint64_t)INT64_MAX / (uint64_t)extents[k])
			return PL_EOVERFLOW;
		product *= (uint64_t)extents[k];
	}

	/* 1. narrow the box; drop the constraints it decides */
	i128 lo[PL_MAX_RANK], hi[PL_MAX_RANK];
	for (size_t k = 0; k < rank; k++) {
		lo[k] = 0;
		hi[k] = extents[k] - 1;
	}
	if (!narrow(cs, ncs, rank, lo, hi)) {
		*out = 0;
		return PL_OK;
	}
	const pl_constraint **live = malloc((ncs ? ncs : 1) * sizeof *live);
	if (!live)
		return PL_ENOMEM;
	size_t nlive = 0;
	for (size_t c = 0; c < ncs; c++) {
		bool verdict;
		if (!decided(cs[c], lo, hi, &verdict)) {
			live[nlive++] = cs[c];
		} else if (!verdict) {
			free(live);
			*out = 0;
			return PL_OK;
		}
	}

	/* 2. indices no live constraint names multiply in; the others form
	 * groups linked by shared constraints (union-find) */
	size_t parent[PL_MAX_RANK];
	bool used[PL_MAX_RANK] = {false};
	for (size_t k = 0; k < rank; k++)
		parent[k] = k;
	for (size_t c = 0; c < nlive; c++) {
		size_t first = SIZE_MAX;
		for (size_t k = 0; k < rank; k++) {
			if (!live[c]->coeff[k])
				continue;
			used[k] = true;
			if (first == SIZE_MAX)
				first = k;
			else
				parent[uf_root(parent, k)] = uf_root(parent, first);
		}
	}
	uint64_t total = 1;
	for (size_t k = 0; k < rank; k++)
		if (!used[k])
			total *= (uint64_t)(hi[k] - lo[k] + 1);

	/* 3. count each group and multiply */
	const pl_constraint **gcs = malloc((nlive ? nlive : 1) * sizeof *gcs);
	if (!gcs) {
		free(live);
		return PL_ENOMEM;
	}
	int rc = PL_OK;
	for (size_t root = 0; root < rank && rc == PL_OK && total; root++) {
		if (!used[root] || uf_root(parent, root) != root)
			continue;
		struct group g;
		g.ndims = 0;
		for (size_t k = 0; k < rank; k++) {
			if (!used[k] || uf_root(parent, k) != root)
				continue;
			g.lo[g.ndims] = lo[k];
			g.hi[g.ndims] = hi[k];
			g.dims[g.ndims++] = k;
		}
		size_t ngcs = 0;
		for (size_t c = 0; c < nlive; c++)
			if (uf_root(parent, first_named(live[c])) == root)
				gcs[ngcs++] = live[c];
		uint64_t n = 0;
		rc = count_group(&g, gcs, ngcs, &n);
		total *= n; /* bounded by the product of extents */
	}
	free(gcs);
	free(live);
	if (rc == PL_OK)
		*out = total;
	return rc;
}

/* The count of the domain's rank extents in dom under the ncs
 * constraints in pred (the elements of two interned lists). */
static int count_predicated(const pl_attr *dom, size_t rank, const pl_attr *pred, size_t ncs,
                            uint64_t *out)
{
	if (rank > PL_MAX_RANK)
		return PL_ELIMIT;
	int64_t extents[PL_MAX_RANK];
	for (size_t k = 0; k < rank; k++) {
		if (dom[k].kind != PL_ATTR_INT)
			return PL_ETYPE;
		extents[k] = pl_attr_i_(&dom[k]);
	}
	pl_constraint **cs = calloc(ncs ? ncs : 1, sizeof *cs);
	if (!cs)
		return PL_ENOMEM;
	int rc = PL_OK;
	for (size_t c = 0; c < ncs && rc == PL_OK; c++) {
		const pl_attr *s = &pred[c];
		if (s->kind != PL_ATTR_STRING)
			rc = PL_ETYPE;
		else
			rc = pl_constraint_parse(pl_attr_s_(s), pl_attr_len_(s), rank, &cs[c], NULL, NULL);
	}
	if (rc == PL_OK)
		rc = pl_domain_count(extents, rank, (const pl_constraint *const *)cs, ncs, out);
	for (size_t c = 0; c < ncs; c++)
		free(cs[c]);
	free(cs);
	return rc;
}

int pl_inst_masked_dynamic_instances(const pl_inst *inst, uint64_t *out)
{
	struct pl_count_attrs a;
	pl_count_attrs_(&inst->attrs, &a);
	return pl_masked_dynamic_instances_(inst, &a, out);
}

int pl_module_prepare_counts(pl_module *m)
{
	struct pl_count_memo *memo = m->count_memo;
	for (; memo && memo->counted < memo->n; memo->counted++) {
		struct count_slot *s = &memo->v[memo->counted];
		int rc = count_predicated(s->dom, s->dom_len, s->pred, s->pred_len, &s->n);
		if (rc == PL_ENOMEM) /* not the pair's answer: asked again later */
			return rc;
		s->rc = rc;
		s->counted = true;
	}
	return PL_OK;
}

int pl_masked_dynamic_instances_(const pl_inst *inst, const struct pl_count_attrs *a,
                                 uint64_t *out)
{
	if (!a->predicate)
		return pl_num_dynamic_instances_(inst, a, out);
	struct count_slot key;
	if (!pl_count_pair_of_(a, &key))
		return PL_ETYPE;
	const struct count_slot *known = pl_count_memo_find_(pl_inst_func_(inst)->m->count_memo, &key);
	if (known && known->counted) {
		if (known->rc == PL_OK)
			*out = known->n;
		return known->rc;
	}
	int rc = count_predicated(key.dom, key.dom_len, key.pred, key.pred_len, &key.n);
	if (rc == PL_OK)
		*out = key.n;
	return rc;
}
