/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/infer.c — the verifier's rules for the ops whose
 * result XLA infers from their operands and a few attributes alone:
 * batch-norm-training, -inference and -grad (a feature_index, vectors of
 * the feature count), fft (fft_type, fft_length), topk (k), cholesky,
 * triangular-solve and ragged-dot (its dimension numbers, groups).
 * Values are leaves: a tuple is its leaves, in order. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

#include <stdio.h>

static bool floating(pl_dtype t)
{
	return hv_same_elements(t, PL_DTYPE_F32);
}

static bool complex_type(pl_dtype t)
{
	return t == PL_DTYPE_C64 || t == PL_DTYPE_C128;
}

/* Result value k has element type dt (or another floating-point one, as
 * XLA's verifier allows) and the rank dimensions dims; what names it. */
static bool value_fits(struct hv *v, size_t k, pl_dtype dt, uint32_t rank, const int64_t *dims,
                       const char *what)
{
	const pl_type *got = pl_value_type(pl_inst_result(v->at, k));
	bool same = got->rank == rank && hv_same_elements(got->dtype, dt);
	for (uint32_t j = 0; same && j < rank; j++)
		same = got->dims[j] == dims[j];
	if (same)
		return true;
	char tg[160], tw[160] = "";
	hv_type(tg, sizeof tg, got);
	size_t n = (size_t)snprintf(tw, sizeof tw, "%s[", pl_hlo_dtype_name_(dt));
	for (uint32_t j = 0; j < rank && n < sizeof tw; j++)
		n += (size_t)snprintf(tw + n, sizeof tw - n, "%s%lld", j ? "," : "", (long long)dims[j]);
	if (n < sizeof tw)
		snprintf(tw + n, sizeof tw - n, "]");
	return hv_bad(v, "value %zu of '%s' (%s) is %s: expected %s, %s", k, hv_name(v->at), v->opc,
	              tg, tw, what);
}

static bool want_values(struct hv *v, size_t n, const char *form)
{
	size_t got = pl_inst_num_results(v->at);
	if (got == n)
		return true;
	return hv_bad(v, "'%s' (%s) has %zu value%s: expected %zu, %s", hv_name(v->at), v->opc, got,
	              got == 1 ? "" : "s", n, form);
}

/* batch-norm-*: a floating-point operand of rank >= 1, feature_index one
 * of its dimensions; each other operand (grad: but the last, the output
 * gradient, of the operand's shape) a vector of the feature count, of the
 * operand's element type. training and grad give (operand's shape,
 * [features], [features]), inference the operand's shape. */
bool hv_batch_norm(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t want = v->op == HLO_OP_BATCH_NORM_TRAINING ? 3 : 5;
	if (!hv_want_operands(v, v->opc, want))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	int64_t f;
	if (!hv_num_attr(i, HK(FEATURE_INDEX), &f))
		return hv_bad(v, "%s '%s' has no feature_index=: expected the dimension of its features",
		              v->opc, hv_name(i));
	if (f < 0 || (uint64_t)f >= a->rank)
		return hv_bad(v, "feature_index=%lld of '%s' is not a dimension of its rank-%u operand",
		              (long long)f, hv_name(i), a->rank);
	if (!floating(a->dtype))
		return hv_bad(v, "%s '%s' takes %s elements: expected floating-point ones", v->opc,
		              hv_name(i), pl_hlo_dtype_name_(a->dtype));
	int64_t nf = a->dims[f];
	size_t vectors = v->op == HLO_OP_BATCH_NORM_GRAD ? want - 1 : want;
	for (size_t k = 1; k < vectors; k++) {
		const pl_type *t = hv_op_type(i, k);
		if (t->rank != 1 || t->dims[0] != nf || !hv_same_elements(t->dtype, a->dtype)) {
			char tt[160];
			hv_type(tt, sizeof tt, t);
			return hv_bad(v, "operand %zu of %s '%s' is %s: expected %s[%lld], one per feature "
			                 "(dimension %lld of the operand)",
			              k, v->opc, hv_name(i), tt, pl_hlo_dtype_name_(a->dtype),
			              (long long)nf, (long long)f);
		}
	}
	if (v->op == HLO_OP_BATCH_NORM_GRAD) {
		const pl_type *g = hv_op_type(i, 4);
		if (!hv_same_dims(g, a) || !hv_same_elements(g->dtype, a->dtype)) {
			struct hv_two ty = hv_types(g, a);
			return hv_bad(v, "the output gradient of '%s' is %s: expected %s, the operand's "
			                 "shape",
			              hv_name(i), ty.a, ty.b);
		}
	}
	if (v->op == HLO_OP_BATCH_NORM_INFERENCE)
		return want_values(v, 1, "the operand's shape") &&
		       value_fits(v, 0, a->dtype, a->rank, a->dims, "the operand's shape");
	return want_values(v, 3, "(operand's shape, [features], [features])") &&
	       value_fits(v, 0, a->dtype, a->rank, a->dims, "the operand's shape") &&
	       value_fits(v, 1, a->dtype, 1, &nf, "one per feature") &&
	       value_fits(v, 2, a->dtype, 1, &nf, "one per feature");
}

/* fft: fft_length of 1 to 3 entries, the operand at least that rank.
 * FFT and IFFT keep a complex operand; RFFT takes f32 or f64 whose inner
 * dimensions are fft_length and gives c64 or c128 with the last one
 * length/2+1; IRFFT takes complex numbers whose inner dimensions are
 * fft_length but the last, which is length/2+1, and gives their real
 * component type with the last one the length. */
bool hv_fft(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!hv_want_operands(v, "fft", 1) || !want_values(v, 1, "one array"))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	size_t tl;
	const char *t = hv_str(i, HK(FFT_TYPE), &tl);
	int64_t len[MAX_LIST];
	int n = hv_list(v, HK(FFT_LENGTH), len);
	if (n == -1)
		return false;
	static const char *const types[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
	int kind = -1;
	for (int k = 0; t && k < 4; k++)
		if (tl == strlen(types[k]) && !memcmp(t, types[k], tl))
			kind = k;
	if (kind < 0)
		return hv_bad(v, "fft '%s' has %s fft_type=: expected FFT, IFFT, RFFT or IRFFT",
		              hv_name(i), t ? "an unknown" : "no");
	if (n < 1 || n > 3)
		return hv_bad(v, "fft_length of '%s' has %d entries: expected 1 to 3", hv_name(i),
		              n < 0 ? 0 : n);
	if (a->rank < (uint32_t)n)
		return hv_bad(v, "fft '%s' of rank %d takes a rank-%u operand: expected rank %d or more",
		              hv_name(i), n, a->rank, n);
	bool real_in = kind == 2;
	if (real_in ? a->dtype != PL_DTYPE_F32 && a->dtype != PL_DTYPE_F64 : !complex_type(a->dtype))
		return hv_bad(v, "%s '%s' takes %s elements: expected %s", types[kind], hv_name(i),
		              pl_hlo_dtype_name_(a->dtype), real_in ? "f32 or f64" : "complex ones");
	uint32_t inner = a->rank - (uint32_t)n;
	int checked = kind == 2 ? n : kind == 3 ? n - 1 : 0;
	for (int k = 0; k < checked; k++)
		if (a->dims[inner + (uint32_t)k] != len[k])
			return hv_bad(v, "%s '%s': operand dimension %u is %lld: expected %lld, its "
			                 "fft_length",
			              types[kind], hv_name(i), inner + (uint32_t)k,
			              (long long)a->dims[inner + (uint32_t)k], (long long)len[k]);
	int64_t dims[MAX_LIST];
	if (a->rank > MAX_LIST)
		return true;
	memcpy(dims, a->dims, a->rank * sizeof *dims);
	int64_t last = len[n - 1];
	pl_dtype dt = a->dtype;
	if (kind == 2) {
		dt = a->dtype == PL_DTYPE_F32 ? PL_DTYPE_C64 : PL_DTYPE_C128;
		if (last)
			dims[a->rank - 1] = last / 2 + 1;
	} else if (kind == 3) {
		int64_t have = a->dims[a->rank - 1];
		if ((have || last) && have != last / 2 + 1)
			return hv_bad(v, "IRFFT '%s': operand dimension %u is %lld: expected %lld, "
			                 "fft_length/2+1",
			              hv_name(i), a->rank - 1, (long long)have, (long long)(last / 2 + 1));
		dt = a->dtype == PL_DTYPE_C64 ? PL_DTYPE_F32 : PL_DTYPE_F64;
		dims[a->rank - 1] = last;
	}
	return value_fits(v, 0, dt, a->rank, dims, "what the transform gives");
}

/* topk: k of the operand's last dimension at most; (values, s32 indices),
 * each the operand's shape with k last. */
bool hv_topk(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!hv_want_operands(v, "topk", 1))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	int64_t k;
	if (!hv_num_attr(i, HK(K), &k))
		return hv_bad(v, "topk '%s' has no k=: expected how many elements it keeps", hv_name(i));
	if (!a->rank || a->rank > MAX_LIST)
		return a->rank || hv_bad(v, "topk '%s' takes a scalar: expected an array", hv_name(i));
	if (k < 0 || k > a->dims[a->rank - 1])
		return hv_bad(v, "k=%lld of topk '%s' is beyond the operand's last dimension %lld",
		              (long long)k, hv_name(i), (long long)a->dims[a->rank - 1]);
	int64_t dims[MAX_LIST];
	memcpy(dims, a->dims, a->rank * sizeof *dims);
	dims[a->rank - 1] = k;
	return want_values(v, 2, "(values, s32 indices)") &&
	       value_fits(v, 0, a->dtype, a->rank, dims, "the k values of each row") &&
	       value_fits(v, 1, PL_DTYPE_I32, a->rank, dims, "their s32 indices");
}

/* cholesky(a) and triangular-solve(a, b): floating-point or complex
 * elements, a of rank >= 2 with its two minor dimensions equal; b of a's
 * rank, element type and batch dimensions, sharing a's size in its
 * second-minor (left_side=true) or minor dimension; the result a's shape
 * (cholesky) or b's. */
bool hv_linear_solve(struct hv *v)
{
	const pl_inst *i = v->at;
	bool solve = v->op == HLO_OP_TRIANGULAR_SOLVE;
	if (!hv_want_operands(v, v->opc, solve ? 2 : 1) || !want_values(v, 1, "one array"))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	char ta[160];
	hv_type(ta, sizeof ta, a);
	if (!floating(a->dtype) && !complex_type(a->dtype))
		return hv_bad(v, "%s '%s' takes %s elements: expected floating-point or complex ones",
		              v->opc, hv_name(i), pl_hlo_dtype_name_(a->dtype));
	if (a->rank < 2 || a->dims[a->rank - 2] != a->dims[a->rank - 1])
		return hv_bad(v, "the matrix of %s '%s' is %s: expected rank 2 or more, its two minor "
		                 "dimensions equal",
		              v->opc, hv_name(i), ta);
	const pl_type *out = a;
	if (solve) {
		const pl_type *b = hv_op_type(i, 1);
		size_t l;
		const char *ls = hv_str(i, HK(LEFT_SIDE), &l);
		bool left = ls && l == 4 && !memcmp(ls, "true", 4);
		bool fits = b->rank == a->rank && b->dtype == a->dtype &&
		            b->dims[b->rank - (left ? 2 : 1)] == a->dims[a->rank - 1];
		for (uint32_t j = 0; fits && j + 2 < a->rank; j++)
			fits = a->dims[j] == b->dims[j];
		if (!fits) {
			char tb[160];
			hv_type(tb, sizeof tb, b);
			return hv_bad(v, "the right-hand side of triangular-solve '%s' is %s: expected "
			                 "%s's rank, element type and batch dimensions, and its %s "
			                 "dimension %lld",
			              hv_name(i), tb, ta, left ? "second-minor" : "minor",
			              (long long)a->dims[a->rank - 1]);
		}
		out = b;
	}
	return value_fits(v, 0, out->dtype, out->rank, out->dims,
	                  solve ? "the right-hand side's shape" : "the matrix's shape");
}

/* Whether x is one of the n entries of d. */
static bool listed(const int64_t *d, int n, int64_t x)
{
	for (int k = 0; k < n; k++)
		if (d[k] == x)
			return true;
	return false;
}

/* A list attribute of dimensions, none when absent; false when malformed
 * (an error given). */
static bool dims_of(struct hv *v, const char *key, int64_t *d, int *n)
{
	*n = hv_list(v, key, d);
	if (*n == -2)
		*n = 0;
	return *n >= 0;
}

/* ragged-dot's dimension numbers: contracting and batch on each side,
 * the lhs ragged dimension and the rhs group dimension. */
struct ragged {
	int64_t lc[MAX_LIST], rc[MAX_LIST], lb[MAX_LIST], rb[MAX_LIST], lr[MAX_LIST], rg[MAX_LIST];
	int nlc, nrc, nlb, nrb, nlr, nrg;
};

/* Reads them, each entry a dimension of its side. */
static bool ragged_dims(struct hv *v, const pl_type *l, const pl_type *r, struct ragged *d)
{
	if (!dims_of(v, HK(LHS_CONTRACTING_DIMS), d->lc, &d->nlc) ||
	    !dims_of(v, HK(RHS_CONTRACTING_DIMS), d->rc, &d->nrc) ||
	    !dims_of(v, HK(LHS_BATCH_DIMS), d->lb, &d->nlb) ||
	    !dims_of(v, HK(RHS_BATCH_DIMS), d->rb, &d->nrb) ||
	    !dims_of(v, HK(LHS_RAGGED_DIMS), d->lr, &d->nlr) ||
	    !dims_of(v, HK(RHS_GROUP_DIMS), d->rg, &d->nrg))
		return false;
	return hv_dims_in(v, HK(LHS_CONTRACTING_DIMS), d->lc, d->nlc, l->rank) &&
	       hv_dims_in(v, HK(LHS_BATCH_DIMS), d->lb, d->nlb, l->rank) &&
	       hv_dims_in(v, HK(RHS_CONTRACTING_DIMS), d->rc, d->nrc, r->rank) &&
	       hv_dims_in(v, HK(RHS_BATCH_DIMS), d->rb, d->nrb, r->rank) &&
	       hv_dims_in(v, HK(LHS_RAGGED_DIMS), d->lr, d->nlr, l->rank) &&
	       hv_dims_in(v, HK(RHS_GROUP_DIMS), d->rg, d->nrg, r->rank);
}

/* The contracting and batch dimensions as a dot's: as many on each side,
 * of equal extents, none named twice among them. */
static bool ragged_pairs(struct hv *v, const pl_type *l, const pl_type *r, const struct ragged *d)
{
	const pl_inst *i = v->at;
	int nlc = d->nlc, nlb = d->nlb;
	if (d->nlc != d->nrc || d->nlb != d->nrb)
		return hv_bad(v, "ragged-dot '%s' has %d and %d contracting, %d and %d batch "
		                 "dimensions (lhs, rhs): expected as many on each side",
		              hv_name(i), d->nlc, d->nrc, d->nlb, d->nrb);
	for (int k = 0; k < nlc + nlb; k++) {
		int64_t a = k < nlc ? d->lc[k] : d->lb[k - nlc], b = k < nlc ? d->rc[k] : d->rb[k - nlc];
		if (l->dims[a] != r->dims[b])
			return hv_bad(v, "ragged-dot '%s': lhs dimension %lld is %lld, rhs dimension %lld "
			                 "is %lld: expected equal extents",
			              hv_name(i), (long long)a, (long long)l->dims[a], (long long)b,
			              (long long)r->dims[b]);
		if (listed(k < nlc ? d->lc : d->lb, k < nlc ? k : k - nlc, a) ||
		    listed(k < nlc ? d->lb : d->lc, k < nlc ? nlb : nlc, a) ||
		    listed(k < nlc ? d->rc : d->rb, k < nlc ? k : k - nlc, b) ||
		    listed(k < nlc ? d->rb : d->rc, k < nlc ? d->nrb : d->nrc, b))
			return hv_bad(v, "ragged-dot '%s' names lhs dimension %lld or rhs dimension %lld "
			                 "twice among its contracting and batch dimensions",
			              hv_name(i), (long long)a, (long long)b);
	}
	return true;
}

/* group_sizes g: [groups], or the extents the lhs has before its ragged
 * dimension then [groups]: the batch dimensions, then those of the ragged
 * one's kind before it (a batch one: only the batch ones before it). */
static bool group_sizes(struct hv *v, const pl_type *l, const pl_type *g, const struct ragged *d,
                        bool batch, bool contracting)
{
	int64_t pre[2 * MAX_LIST], lr = d->lr[0];
	int np = 0;
	for (int k = 0; k < d->nlb && !(batch && d->lb[k] == lr); k++)
		pre[np++] = l->dims[d->lb[k]];
	for (int k = 0; contracting && k < d->nlc && d->lc[k] != lr; k++)
		pre[np++] = l->dims[d->lc[k]];
	for (uint32_t j = 0; !batch && !contracting && j < lr && np < 2 * MAX_LIST; j++)
		if (!listed(d->lb, d->nlb, j) && !listed(d->lc, d->nlc, j))
			pre[np++] = l->dims[j];
	bool fits = g->rank >= 1 && (g->rank == 1 || g->rank == (uint32_t)np + 1);
	for (int k = 0; fits && g->rank > 1 && k < np; k++)
		fits = g->dims[k] == pre[k];
	if (fits)
		return true;
	char tg[160];
	hv_type(tg, sizeof tg, g);
	return hv_bad(v, "the group sizes of ragged-dot '%s' are %s: expected [groups] or the "
	                 "%d extents the lhs has before its ragged dimension %lld, then [groups]",
	              hv_name(v->at), tg, np, (long long)lr);
}

/* rhs_group_dims: never a batch or contracting dimension; none for a
 * ragged batch or contracting dimension, else one of groups groups. */
static bool rhs_groups(struct hv *v, const pl_type *r, const struct ragged *d, bool batch,
                       bool contracting, int64_t groups)
{
	const pl_inst *i = v->at;
	for (int k = 0; k < d->nrg; k++)
		if (listed(d->rb, d->nrb, d->rg[k]) || listed(d->rc, d->nrc, d->rg[k]))
			return hv_bad(v, "rhs_group_dims of '%s' names rhs dimension %lld, a batch or "
			                 "contracting one: expected another",
			              hv_name(i), (long long)d->rg[k]);
	if ((batch || contracting) && d->nrg)
		return hv_bad(v, "ragged-dot '%s' is ragged in a %s dimension and has rhs_group_dims: "
		                 "expected none",
		              hv_name(i), batch ? "batch" : "contracting");
	if (!batch && !contracting && (d->nrg != 1 || r->dims[d->rg[0]] != groups))
		return hv_bad(v, "ragged-dot '%s' is ragged in a free lhs dimension: expected one rhs "
		                 "group dimension of %lld groups",
		              hv_name(i), (long long)groups);
	return true;
}

/* The result: the groups (ragged in a contracting dimension), the batch
 * dimensions, the lhs's free ones, the rhs's free ones but the group
 * dimension. */
static bool ragged_result(struct hv *v, const pl_type *l, const pl_type *r,
                          const struct ragged *d, bool contracting, int64_t groups)
{
	int64_t want[4 * MAX_LIST];
	const uint32_t cap = sizeof want / sizeof *want;
	uint32_t n = 0;
	if (contracting)
		want[n++] = groups;
	for (int k = 0; k < d->nlb; k++)
		want[n++] = l->dims[d->lb[k]];
	for (uint32_t j = 0; j < l->rank && n < cap; j++)
		if (!listed(d->lb, d->nlb, j) && !listed(d->lc, d->nlc, j))
			want[n++] = l->dims[j];
	for (uint32_t j = 0; j < r->rank && n < cap; j++)
		if (!listed(d->rb, d->nrb, j) && !listed(d->rc, d->nrc, j) && !listed(d->rg, d->nrg, j))
			want[n++] = r->dims[j];
	if (n == cap)
		return true; /* beyond what is checked here */
	const pl_type *res = pl_value_type(pl_inst_result(v->at, 0));
	return value_fits(v, 0, res->dtype, n, want,
	                  contracting ? "groups, batch, lhs free, rhs free" : "batch, lhs free, rhs free");
}

/* ragged-dot(lhs, rhs, group_sizes): a dot whose one lhs ragged
 * dimension is cut into groups (XLA's InferRaggedDotOpShape). Ragged in a
 * batch dimension, or a contracting one (the result then leads with the
 * groups), the rhs has no group dimension; ragged in another one, the rhs
 * has one, of as many groups. group_sizes is [g] or [prefix..., g], the
 * prefix the lhs batch dimensions and those of the ragged one's kind
 * before it. */
bool hv_ragged_dot(struct hv *v)
{
	const pl_inst *i = v->at;
	if (!hv_want_operands(v, "ragged-dot", 3) || !want_values(v, 1, "one array"))
		return false;
	const pl_type *l = hv_op_type(i, 0), *r = hv_op_type(i, 1), *g = hv_op_type(i, 2);
	struct ragged d;
	if (!ragged_dims(v, l, r, &d) || !ragged_pairs(v, l, r, &d))
		return false;
	if (d.nlr != 1)
		return hv_bad(v, "ragged-dot '%s' has %d lhs_ragged_dims: expected exactly one",
		              hv_name(i), d.nlr);
	bool batch = listed(d.lb, d.nlb, d.lr[0]), contracting = listed(d.lc, d.nlc, d.lr[0]);
	if (!group_sizes(v, l, g, &d, batch, contracting))
		return false;
	int64_t groups = g->dims[g->rank - 1];
	return rhs_groups(v, r, &d, batch, contracting, groups) &&
	       ragged_result(v, l, r, &d, contracting, groups);
}
