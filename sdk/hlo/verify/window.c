/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/window.c — the verifier's rules for the ops that
 * slide a window: convolution (dim_labels, window, feature and batch
 * groups), reduce-window (window against the operand, result shape,
 * reducer) and select-and-scatter (its two computations, the source
 * against what the window leaves of the operand). A window is
 * window={size=AxB stride=.. pad=lo_hi.. lhs_dilate=.. rhs_dilate=..},
 * one entry per dimension in each field. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

#include <stdio.h>

struct win {
	int n; /* dimensions, from size= */
	int64_t size[MAX_LIST], stride[MAX_LIST], lo[MAX_LIST], hi[MAX_LIST];
	int64_t lhs_dil[MAX_LIST], rhs_dil[MAX_LIST];
};

/* The field key= of window text w: its 'x'-separated entries (lo_hi
 * pairs when pairs) into a (and b); the count, 0 when absent, -1 when
 * malformed or longer than MAX_LIST. */
static int field(const char *w, size_t len, const char *key, bool pairs, int64_t *a, int64_t *b)
{
	size_t kl = strlen(key), k = 0;
	for (; k + kl <= len; k++)
		if ((k == 0 || w[k - 1] == ' ' || w[k - 1] == '{') && !memcmp(w + k, key, kl))
			break;
	if (k + kl > len)
		return 0;
	int n = 0;
	for (k += kl; k < len && w[k] != ' ' && w[k] != '}'; n++) {
		if (n == MAX_LIST)
			return -1;
		int64_t *out[2] = {a + n, b ? b + n : NULL};
		for (int half = 0; half < (pairs ? 2 : 1); half++) {
			bool neg = k < len && w[k] == '-';
			k += neg;
			if (k >= len || w[k] < '0' || w[k] > '9')
				return -1;
			int64_t x = 0;
			while (k < len && w[k] >= '0' && w[k] <= '9' && x < INT64_MAX / 16)
				x = x * 10 + (w[k++] - '0');
			*out[half] = neg ? -x : x;
			if (pairs && !half && (k >= len || w[k++] != '_'))
				return -1;
		}
		if (k < len && w[k] == 'x')
			k++;
	}
	return n;
}

/* Reads the instruction's window; false when it has none (*ok true) or
 * it is malformed (an error given, *ok false). */
static bool read_window(struct hv *v, struct win *w, bool *ok)
{
	size_t len;
	const char *s = hv_str(v->at, HK(WINDOW), &len);
	*ok = true;
	if (!s)
		return false;
	w->n = field(s, len, "size=", false, w->size, NULL);
	int fields[4] = {field(s, len, "stride=", false, w->stride, NULL),
	                 field(s, len, "pad=", true, w->lo, w->hi),
	                 field(s, len, "lhs_dilate=", false, w->lhs_dil, NULL),
	                 field(s, len, "rhs_dilate=", false, w->rhs_dil, NULL)};
	int64_t *fill[4] = {w->stride, w->lo, w->lhs_dil, w->rhs_dil};
	static const int64_t dflt[4] = {1, 0, 1, 1};
	bool bad = w->n < 0;
	for (int f = 0; f < 4 && !bad; f++) {
		bad = fields[f] < 0 || (fields[f] > 0 && fields[f] != w->n);
		for (int d = fields[f] > 0 ? fields[f] : 0; d < w->n && !bad; d++) {
			fill[f][d] = dflt[f];
			if (f == 1)
				w->hi[d] = 0;
		}
	}
	for (int d = 0; d < w->n && !bad; d++)
		bad = w->size[d] < 1 || w->stride[d] < 1 || w->lhs_dil[d] < 1 || w->rhs_dil[d] < 1;
	if (bad) {
		*ok = hv_bad(v, "window of '%s': expected size=, stride=, pad=lo_hi, lhs_dilate= and "
		                "rhs_dilate= with one positive entry per window dimension",
		             hv_name(v->at));
		return false;
	}
	return true;
}

/* The size dimension d of an input of size in has once the window has
 * slid over it (XLA's window output shape). */
static int64_t slid(const struct win *w, int d, int64_t in)
{
	int64_t padded = in ? hv_add(hv_mul(in - 1, w->lhs_dil[d]), 1) : 0;
	padded = hv_add(hv_add(padded, w->lo[d]), w->hi[d]);
	int64_t span = hv_add(hv_mul(w->size[d] - 1, w->rhs_dil[d]), 1);
	return padded < span ? 0 : (padded - span) / w->stride[d] + 1;
}

/* feature_group_count divides the input features into the kernel's, and
 * the kernel's output features; batch_group_count divides the input batch and the kernel's output
 * features; at most one of them is above 1. */
static bool groups(struct hv *v, const pl_type *lhs, const pl_type *rhs, size_t f, size_t b,
                   size_t ki, size_t ko, int64_t *bgp)
{
	const pl_inst *i = v->at;
	int64_t g = 1, bg = 1, in = lhs->dims[f], kin = rhs->dims[ki];
	hv_num_attr(i, HK(FEATURE_GROUP_COUNT), &g);
	hv_num_attr(i, HK(BATCH_GROUP_COUNT), &bg);
	if (g < 1 || in % g)
		return hv_bad(v, "convolution '%s': %lld input features do not divide into "
		                 "feature_group_count=%lld groups",
		              hv_name(i), (long long)in, (long long)g);
	if (in / g != kin)
		return hv_bad(v, "convolution '%s': %lld input features in %lld groups give %lld per "
		                 "group: expected %lld, the kernel's input features",
		              hv_name(i), (long long)in, (long long)g, (long long)(in / g),
		              (long long)kin);
	if (rhs->dims[ko] % g)
		return hv_bad(v, "convolution '%s': %lld kernel output features do not divide by "
		                 "feature_group_count=%lld",
		              hv_name(i), (long long)rhs->dims[ko], (long long)g);
	if (bg < 1 || (g > 1 && bg > 1))
		return hv_bad(v, "convolution '%s' has batch_group_count=%lld and "
		                 "feature_group_count=%lld: expected at least 1 each, and not both "
		                 "above 1",
		              hv_name(i), (long long)bg, (long long)g);
	if (lhs->dims[b] % bg || rhs->dims[ko] % bg)
		return hv_bad(v, "convolution '%s': batch %lld and kernel output features %lld do not "
		                 "both divide by batch_group_count=%lld",
		              hv_name(i), (long long)lhs->dims[b], (long long)rhs->dims[ko],
		              (long long)bg);
	*bgp = bg;
	return true;
}

/* The result's extents from the labels of input (l, nl), kernel (k, nk)
 * and output (o, no): the batch over batch_group_count, the kernel's
 * output features, and each spatial dimension (a digit, the window
 * dimension of that number) what the window leaves of the input's; each
 * window size is the kernel's extent there (XLA's InferConvolveShape). */
static bool conv_result(struct hv *v, const struct win *w, const char *l, size_t nl,
                        const char *k, size_t nk, const char *o, size_t no, int64_t bg)
{
	const pl_inst *i = v->at;
	const pl_type *lhs = hv_op_type(i, 0), *rhs = hv_op_type(i, 1), *r = RESULT_OF(i);
	const char *b = memchr(l, 'b', nl), *ko = memchr(k, 'o', nk);
	for (size_t p = 0; p < no; p++) {
		int64_t want;
		if (o[p] == 'b') {
			want = lhs->dims[b - l] / bg;
		} else if (o[p] == 'f') {
			want = rhs->dims[ko - k];
		} else {
			const char *li = memchr(l, o[p], nl), *ki = memchr(k, o[p], nk);
			int d = o[p] - '0';
			if (!li || !ki || d < 0 || d >= w->n)
				return hv_bad(v, "dim_labels of '%s': output dimension '%c' is not a spatial "
				                 "dimension (0..%d) of the input, the kernel and the window",
				              hv_name(i), o[p], w->n - 1);
			if (w->size[d] != rhs->dims[ki - k])
				return hv_bad(v, "convolution '%s': window dimension %d has size %lld: expected "
				                 "%lld, the kernel's spatial dimension %c",
				              hv_name(i), d, (long long)w->size[d],
				              (long long)rhs->dims[ki - k], o[p]);
			want = slid(w, d, lhs->dims[li - l]);
		}
		if (r->dims[p] != want) {
			char tr[160];
			hv_type(tr, sizeof tr, r);
			return hv_bad(v, "convolution '%s' gives %s: expected dimension %zu ('%c') to be "
			                 "%lld",
			              hv_name(i), tr, p, o[p], (long long)want);
		}
	}
	return true;
}

/* convolution: dim_labels as long as the ranks, a window over the spatial
 * dimensions, the groups, then the result's extents. */
bool hv_convolution(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t len;
	const char *s = hv_str(i, HK(DIM_LABELS), &len);
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "convolution", 2))
		return false;
	const char *us = s ? memchr(s, '_', len) : NULL, *ar = s ? strstr(s, "->") : NULL;
	if (!s || !r)
		return true;
	if (!us || !ar || ar < us)
		return hv_bad(v, "dim_labels of '%s': expected lhs_rhs->out, as b01f_01io->b01f",
		              hv_name(i));
	const pl_type *lhs = hv_op_type(i, 0), *rhs = hv_op_type(i, 1);
	size_t nl = (size_t)(us - s), nr = (size_t)(ar - us - 1), no = len - (size_t)(ar + 2 - s);
	if (nl != lhs->rank || nr != rhs->rank || no != r->rank)
		return hv_bad(v, "dim_labels of '%s' name %zu, %zu and %zu dimensions: expected %u, %u "
		                 "and %u, the ranks of its input, kernel and result",
		              hv_name(i), nl, nr, no, lhs->rank, rhs->rank, r->rank);
	const char *f = memchr(s, 'f', nl), *b = memchr(s, 'b', nl);
	const char *ki = memchr(us + 1, 'i', nr), *ko = memchr(us + 1, 'o', nr);
	if (!f || !b || !ki || !ko)
		return hv_bad(v, "dim_labels of '%s' name no batch or feature dimension (b, f, i, o)",
		              hv_name(i));
	struct win w = {.n = 0};
	bool ok, has = read_window(v, &w, &ok);
	if (has && (size_t)w.n != nl - 2)
		return hv_bad(v, "the window of '%s' has %d dimensions: expected %zu, the spatial ones",
		              hv_name(i), w.n, nl - 2);
	int64_t bg = 1;
	if (!ok || !groups(v, lhs, rhs, (size_t)(f - s), (size_t)(b - s), (size_t)(ki - us - 1),
	                   (size_t)(ko - us - 1), &bg))
		return false;
	if (!memchr(ar + 2, 'b', no) || !memchr(ar + 2, 'f', no))
		return hv_bad(v, "dim_labels of '%s' name no batch or feature dimension (b, f) of the "
		                 "output",
		              hv_name(i));
	/* without a window there are no spatial dimensions to check */
	return (!has && nl > 2) ||
	       conv_result(v, &w, s, nl, us + 1, nr, ar + 2, no, bg);
}

/* reduce-window: inputs and as many initial values, the inputs of one
 * shape; a window dimension per input dimension; each result dimension
 * what the window leaves of the input's; the reducer as reduce's. */
bool hv_reduce_window(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (n < 2 || n % 2)
		return hv_bad(v, "reduce-window '%s' has %zu operands: expected inputs and as many "
		                 "initial values",
		              hv_name(i), n);
	const pl_type *a = hv_op_type(i, 0);
	for (size_t k = 1; k < n / 2; k++)
		if (!hv_dims_are(v, "an input", hv_op_type(i, k), a))
			return false;
	for (size_t k = n / 2; k < n; k++)
		if (hv_op_type(i, k)->rank)
			return hv_bad(v, "initial value %zu of reduce-window '%s' is not a scalar",
			              k - n / 2, hv_name(i));
	struct win w;
	bool ok;
	if (!read_window(v, &w, &ok))
		return ok && hv_scalar_pairs(v, "reducer", 0, n / 2, false);
	if ((uint32_t)w.n != a->rank)
		return hv_bad(v, "the window of '%s' has %d dimension%s: expected %u, its input's rank",
		              hv_name(i), w.n, w.n == 1 ? "" : "s", a->rank);
	for (size_t k = 0; k < pl_inst_num_results(i) && k < n / 2; k++) {
		const pl_type *r = pl_value_type(pl_inst_result(i, k));
		if (r->rank != a->rank)
			return hv_bad(v, "reduce-window '%s' has a rank-%u result: expected rank %u",
			              hv_name(i), r->rank, a->rank);
		for (int d = 0; d < w.n; d++)
			if (r->dims[d] != slid(&w, d, a->dims[d]))
				return hv_bad(v, "reduce-window '%s': result dimension %d is %lld: expected "
				                 "%lld, what the window leaves of %lld",
				              hv_name(i), d, (long long)r->dims[d],
				              (long long)slid(&w, d, a->dims[d]), (long long)a->dims[d]);
	}
	return hv_scalar_pairs(v, "reducer", 0, n / 2, false);
}

/* Computation f called by key takes two scalars of element types t0 and t1
 * (floating-point precision aside) and returns a scalar of type ret (or,
 * ret PL_DTYPE_INVALID, of its first parameter's type). */
static bool scalar_fn(struct hv *v, const char *key, const char *role, pl_dtype t0, pl_dtype t1,
                      pl_dtype ret)
{
	const pl_func *f = hv_callee(v, key, 0);
	if (!f)
		return true;
	const pl_dtype want[2] = {t0, t1};
	if (pl_func_num_args(f) != 2)
		return hv_bad(v, "the %s computation '%s' of '%s' takes %zu parameters: expected 2",
		              role, pl_func_name(f), hv_name(v->at), pl_func_num_args(f));
	for (size_t k = 0; k < 2; k++) {
		const pl_type *p = pl_value_type(pl_func_arg(f, k));
		if (p->rank || !hv_same_elements(p->dtype, want[k]))
			return hv_bad(v, "parameter %zu of the %s computation '%s' of '%s' is not a %s[] "
			                 "scalar",
			              k, role, pl_func_name(f), hv_name(v->at), pl_hlo_dtype_name_(want[k]));
	}
	const pl_inst *r = hv_returned(f);
	pl_dtype out = ret != PL_DTYPE_INVALID ? ret : pl_value_type(pl_func_arg(f, 0))->dtype;
	if (r && (pl_inst_num_operands(r) != 1 || hv_op_type(r, 0)->rank ||
	          (ret == PL_DTYPE_BOOL ? hv_op_type(r, 0)->dtype != ret
	                                : !hv_same_elements(hv_op_type(r, 0)->dtype, out))))
		return hv_bad(v, "the %s computation '%s' of '%s' does not return a %s[] scalar", role,
		              pl_func_name(f), hv_name(v->at), pl_hlo_dtype_name_(out));
	return true;
}

/* select-and-scatter(operand, source, init): select takes two of the
 * operand's elements and returns pred[]; scatter combines two of the
 * source's, as a reducer whose accumulator is the initial value's; the
 * source is what the window leaves of the operand; the result is the
 * operand's shape (XLA's InferSelectAndScatterShape). */
bool hv_select_and_scatter(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "select-and-scatter", 3))
		return false;
	const pl_type *a = hv_op_type(i, 0), *src = hv_op_type(i, 1), *init = hv_op_type(i, 2);
	if (init->rank)
		return hv_bad(v, "the initial value of select-and-scatter '%s' is not a scalar",
		              hv_name(i));
	if (!scalar_fn(v, HK(SELECT), "select", a->dtype, a->dtype, PL_DTYPE_BOOL) ||
	    !scalar_fn(v, HK(SCATTER), "scatter", init->dtype, src->dtype, PL_DTYPE_INVALID))
		return false;
	struct win w = {.n = 0};
	bool ok;
	if (!read_window(v, &w, &ok) && !ok)
		return false;
	if ((uint32_t)w.n != a->rank)
		return hv_bad(v, "the window of '%s' has %d dimension%s: expected %u, its operand's rank",
		              hv_name(i), w.n, w.n == 1 ? "" : "s", a->rank);
	bool fits = src->rank == a->rank && hv_same_elements(src->dtype, a->dtype);
	char want[160];
	size_t k = (size_t)snprintf(want, sizeof want, "%s[", pl_hlo_dtype_name_(a->dtype));
	for (int d = 0; d < w.n; d++) {
		fits = fits && src->dims[d] == slid(&w, d, a->dims[d]);
		if (k < sizeof want)
			k += (size_t)snprintf(want + k, sizeof want - k, "%s%lld", d ? "," : "",
			                      (long long)slid(&w, d, a->dims[d]));
	}
	if (!fits) {
		struct hv_two ty = hv_types(src, a);
		return hv_bad(v, "the source of select-and-scatter '%s' is %s: expected %s], what its "
		                 "window leaves of the operand %s",
		              hv_name(i), ty.a, want, ty.b);
	}
	if (r && (!hv_same_dims(r, a) || !hv_same_elements(r->dtype, a->dtype))) {
		struct hv_two ty = hv_types(r, a);
		return hv_bad(v, "select-and-scatter '%s' gives %s: expected %s, its operand's shape",
		              hv_name(i), ty.a, ty.b);
	}
	return true;
}
