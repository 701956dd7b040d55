/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/slices.c — the rules of the ops that cut or index into
 * an array: slice, dynamic-slice, dynamic-update-slice, pad, gather and
 * scatter (their index counts, sizes in bounds, dimension numbers and
 * index_vector_dim). */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

/* slice={[start:limit:stride], ...}: one per dimension, in bounds; the
 * result's dimension is ceil((limit - start) / stride). */
bool hv_slice(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t len, k = 0;
	const char *s = hv_str(i, HK(SLICE), &len);
	const pl_type *a, *r = RESULT_OF(i);
	if (!hv_want_operands(v, "slice", 1))
		return false;
	if (!s || !r)
		return true;
	a = hv_op_type(i, 0);
	if (!hv_same_elements(a->dtype, r->dtype))
		return hv_bad(v, "slice '%s' turns %s elements into %s: expected the operand's",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype), pl_hlo_dtype_name_(r->dtype));
	uint32_t d = 0;
	for (; k < len; d++) {
		int64_t x[3] = {0, 0, 1};
		int nx = 0;
		while (k < len && s[k] != '[')
			k++;
		if (k++ >= len)
			break;
		for (; nx < 3 && k < len && s[k] != ']'; nx++) {
			int64_t one[MAX_LIST];
			size_t e = k;
			while (e < len && s[e] != ':' && s[e] != ']')
				e++;
			if (hv_ints(s + k, e - k, one) != 1)
				return hv_bad(v, "slice of '%s': expected [start:limit] or [start:limit:stride]",
				              hv_name(i));
			x[nx] = one[0];
			k = e < len && s[e] == ':' ? e + 1 : e;
		}
		if (d >= a->rank)
			continue;
		if (x[0] < 0 || x[0] > x[1] || x[1] > a->dims[d] || x[2] < 1)
			return hv_bad(v, "slice [%lld:%lld:%lld] of '%s' does not fit dimension %u of its "
			                 "operand (%lld): expected 0 <= start <= limit <= %lld, stride >= 1",
			              (long long)x[0], (long long)x[1], (long long)x[2], hv_name(i), d,
			              (long long)a->dims[d], (long long)a->dims[d]);
		int64_t want = hv_add(x[1] - x[0], x[2] - 1) / x[2];
		if (r->rank == a->rank && r->dims[d] != want)
			return hv_bad(v, "slice '%s': result dimension %u is %lld: expected %lld", hv_name(i),
			              d, (long long)r->dims[d], (long long)want);
	}
	if (d != a->rank)
		return hv_bad(v, "slice of '%s' gives %u ranges for a rank-%u operand: expected %u",
		              hv_name(i), d, a->rank, a->rank);
	if (r->rank != a->rank)
		return hv_bad(v, "slice '%s' has a rank-%u result: expected rank %u, as its operand",
		              hv_name(i), r->rank, a->rank);
	return true;
}

/* Start indices k0.. of a dynamic slice: one integer scalar per dimension
 * of a rank-n operand (or, as older modules write it, one vector of n). */
static bool start_indices(struct hv *v, const char *opc, size_t k0, uint32_t rank)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i) - k0;
	if (n == 1 && hv_op_type(i, k0)->rank == 1 && hv_op_type(i, k0)->dims[0] == (int64_t)rank)
		return true;
	if (n != rank)
		return hv_bad(v, "%s '%s' has %zu start indices for a rank-%u operand: expected %u",
		              opc, hv_name(i), n, rank, rank);
	for (size_t k = k0; k < k0 + n; k++)
		if (hv_op_type(i, k)->rank)
			return hv_bad(v, "start index %zu of %s '%s' is not a scalar: expected one integer "
			                 "per dimension",
			              k - k0, opc, hv_name(i));
	return true;
}

/* dynamic-slice: sizes one per dimension, each within the operand; the
 * result has those sizes. */
bool hv_dynamic_slice(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) < 2)
		return hv_bad(v, "dynamic-slice '%s' has no start indices", hv_name(i));
	const pl_type *a = hv_op_type(i, 0);
	if (!start_indices(v, "dynamic-slice", 1, a->rank))
		return false;
	int64_t sz[MAX_LIST];
	int n = hv_list(v, HK(DYNAMIC_SLICE_SIZES), sz);
	if (n == -1)
		return false;
	if (n == -2 || !r)
		return true;
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "dynamic_slice_sizes of '%s' has %d sizes for a rank-%u operand: "
		                 "expected %u",
		              hv_name(i), n, a->rank, a->rank);
	for (int k = 0; k < n; k++) {
		if (sz[k] < 0 || sz[k] > a->dims[k])
			return hv_bad(v, "dynamic_slice_sizes of '%s': size %lld of dimension %d is beyond "
			                 "the operand's %lld",
			              hv_name(i), (long long)sz[k], k, (long long)a->dims[k]);
		if (r->rank == a->rank && r->dims[k] != sz[k])
			return hv_bad(v, "dynamic-slice '%s': result dimension %d is %lld: expected %lld, "
			                 "its slice size",
			              hv_name(i), k, (long long)r->dims[k], (long long)sz[k]);
	}
	if (r->rank != a->rank)
		return hv_bad(v, "dynamic-slice '%s' has a rank-%u result: expected rank %u", hv_name(i),
		              r->rank, a->rank);
	return true;
}

/* dynamic-update-slice: the update fits in the operand, the result is it. */
bool hv_dynamic_update_slice(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) < 3)
		return hv_bad(v, "dynamic-update-slice '%s' has %zu operands: expected the operand, the "
		                 "update and start indices",
		              hv_name(i), pl_inst_num_operands(i));
	const pl_type *a = hv_op_type(i, 0), *u = hv_op_type(i, 1);
	if (!start_indices(v, "dynamic-update-slice", 2, a->rank))
		return false;
	if (u->rank != a->rank)
		return hv_bad(v, "the update of '%s' has rank %u: expected %u, the operand's", hv_name(i),
		              u->rank, a->rank);
	for (uint32_t k = 0; k < a->rank; k++)
		if (u->dims[k] > a->dims[k])
			return hv_bad(v, "the update of '%s' is %lld in dimension %u: expected at most the "
			                 "operand's %lld",
			              hv_name(i), (long long)u->dims[k], k, (long long)a->dims[k]);
	return !r || hv_dims_are(v, "the result", r, a);
}

/* pad: a scalar padding value of the operand's element type; lo_hi[_interior]
 * per dimension; the result adds them up. */
bool hv_pad(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	size_t len;
	const char *s = hv_str(i, HK(PADDING), &len);
	if (!hv_want_operands(v, "pad", 2))
		return false;
	if (!s || !r)
		return true;
	const pl_type *a = hv_op_type(i, 0);
	if (!hv_same_elements(hv_op_type(i, 1)->dtype, a->dtype))
		return hv_bad(v, "the padding value of '%s' is %s: expected the operand's element type "
		                 "%s",
		              hv_name(i), pl_hlo_dtype_name_(hv_op_type(i, 1)->dtype),
		              pl_hlo_dtype_name_(a->dtype));
	if (hv_op_type(i, 1)->rank)
		return hv_bad(v, "the padding value of '%s' is not a scalar", hv_name(i));
	uint32_t d = 0;
	for (size_t k = 0; k < len; d++) {
		int64_t x[3] = {0, 0, 0};
		for (int n = 0; n < 3 && k < len && s[k] != 'x'; n++) {
			bool neg = s[k] == '-';
			k += neg;
			while (k < len && s[k] >= '0' && s[k] <= '9' && x[n] < INT64_MAX / 16)
				x[n] = x[n] * 10 + (s[k++] - '0');
			x[n] = neg ? -x[n] : x[n];
			k += k < len && s[k] == '_';
		}
		/* each dimension ends at an 'x' or the end: anything else is not
		 * padding (and would not move k on) */
		if (k < len && s[k] != 'x')
			return hv_bad(v, "padding of '%s' is not low_high[_interior] per dimension, "
			                 "separated by 'x'",
			              hv_name(i));
		k += k < len;
		if (d >= a->rank || r->rank != a->rank)
			continue;
		int64_t want = hv_add(hv_add(a->dims[d], x[0]), x[1]);
		want = hv_add(want, a->dims[d] ? hv_mul(a->dims[d] - 1, x[2]) : 0);
		if (x[2] < 0 || r->dims[d] != want)
			return hv_bad(v, "pad '%s': result dimension %u is %lld: expected %lld (%lld padded "
			                 "by %lld_%lld_%lld)",
			              hv_name(i), d, (long long)r->dims[d], (long long)want,
			              (long long)a->dims[d], (long long)x[0], (long long)x[1],
			              (long long)x[2]);
	}
	if (d != a->rank)
		return hv_bad(v, "padding of '%s' has %u dimensions for a rank-%u operand: expected %u",
		              hv_name(i), d, a->rank, a->rank);
	return r->rank == a->rank ||
	       hv_bad(v, "pad '%s' has a rank-%u result: expected rank %u", hv_name(i), r->rank,
	              a->rank);
}

/* gather: slice_sizes one per operand dimension and within it; collapsed
 * dimensions of size 1; start_index_map one per index; the result holds
 * the offset dimensions and the batch ones the indices leave. */
bool hv_gather(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "gather", 2))
		return false;
	const pl_type *a = hv_op_type(i, 0), *x = hv_op_type(i, 1);
	int64_t off[MAX_LIST], col[MAX_LIST], map[MAX_LIST], sz[MAX_LIST], ob[MAX_LIST], ivd;
	int noff = hv_list(v, HK(OFFSET_DIMS), off), ncol = hv_list(v, HK(COLLAPSED_SLICE_DIMS), col);
	int nmap = hv_list(v, HK(START_INDEX_MAP), map), nsz = hv_list(v, HK(SLICE_SIZES), sz);
	int nob = hv_list(v, HK(OPERAND_BATCHING_DIMS), ob);
	if (noff == -1 || ncol == -1 || nmap == -1 || nsz == -1 || nob == -1)
		return false;
	if (nsz < 0 || !hv_num_attr(i, HK(INDEX_VECTOR_DIM), &ivd) || !r)
		return true;
	noff = noff < 0 ? 0 : noff;
	ncol = ncol < 0 ? 0 : ncol;
	nmap = nmap < 0 ? 0 : nmap;
	nob = nob < 0 ? 0 : nob;
	if ((uint32_t)nsz != a->rank)
		return hv_bad(v, "slice_sizes of '%s' has %d sizes for a rank-%u operand: expected %u",
		              hv_name(i), nsz, a->rank, a->rank);
	for (int k = 0; k < nsz; k++)
		if (sz[k] < 0 || sz[k] > a->dims[k])
			return hv_bad(v, "slice_sizes of '%s': size %lld of dimension %d is beyond the "
			                 "operand's %lld",
			              hv_name(i), (long long)sz[k], k, (long long)a->dims[k]);
	if (!hv_dims_in(v, HK(COLLAPSED_SLICE_DIMS), col, ncol, a->rank) ||
	    !hv_dims_in(v, HK(START_INDEX_MAP), map, nmap, a->rank) ||
	    !hv_dims_in(v, HK(OFFSET_DIMS), off, noff, r->rank))
		return false;
	for (int k = 0; k < ncol; k++)
		if (sz[col[k]] > 1)
			return hv_bad(v, "gather '%s' collapses dimension %lld of slice size %lld: expected "
			                 "size 1",
			              hv_name(i), (long long)col[k], (long long)sz[col[k]]);
	if (ivd < 0 || (uint64_t)ivd > x->rank)
		return hv_bad(v, "index_vector_dim=%lld of '%s' is beyond its rank-%u indices",
		              (long long)ivd, hv_name(i), x->rank);
	int64_t nidx = (uint64_t)ivd == x->rank ? 1 : x->dims[ivd];
	if (nmap != nidx)
		return hv_bad(v, "start_index_map of '%s' has %d entries: expected %lld, one per index",
		              hv_name(i), nmap, (long long)nidx);
	if (noff != nsz - ncol - nob)
		return hv_bad(v, "gather '%s' has %d offset_dims: expected %d, the slice's dimensions "
		                 "not collapsed",
		              hv_name(i), noff, nsz - ncol - nob);
	uint32_t want = (uint32_t)noff + x->rank - ((uint64_t)ivd < x->rank);
	if (r->rank != want)
		return hv_bad(v, "gather '%s' has a rank-%u result: expected rank %u (offset and batch "
		                 "dimensions)",
		              hv_name(i), r->rank, want);
	return true;
}

/* Each update window dimension of scatter is at most the operand
 * dimension it lands on: the operand's dimensions in order, less the
 * inserted and batching ones, pair up with update_window_dims. */
static bool window_bounds(struct hv *v, const pl_type *a, const pl_type *u, const int64_t *uw,
                          int nuw, const int64_t *iw, int niw, const int64_t *ib, int nib)
{
	bool skip[MAX_LIST] = {false};
	if (a->rank > MAX_LIST || !hv_dims_in(v, HK(UPDATE_WINDOW_DIMS), uw, nuw, u->rank) ||
	    !hv_dims_in(v, HK(INPUT_BATCHING_DIMS), ib, nib, a->rank))
		return a->rank > MAX_LIST;
	for (int k = 0; k < niw; k++)
		skip[iw[k]] = true;
	for (int k = 0; k < nib; k++)
		skip[ib[k]] = true;
	uint32_t d = 0;
	for (int k = 0; k < nuw; k++, d++) {
		while (d < a->rank && skip[d])
			d++;
		if (d >= a->rank)
			break;
		if (u->dims[uw[k]] > a->dims[d])
			return hv_bad(v, "scatter '%s': update window dimension %lld is %lld: expected at "
			                 "most %lld, operand dimension %u",
			              hv_name(v->at), (long long)uw[k], (long long)u->dims[uw[k]],
			              (long long)a->dims[d], d);
	}
	return true;
}

/* scatter: operands, indices, updates; index_vector_dim within the
 * indices; one scatter_dims_to_operand_dims per index; window and
 * inserted dimensions make up the operand; updates have the window and
 * batch dimensions; the combiner takes two scalars per operand. */
bool hv_scatter(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (n < 3 || n % 2 == 0)
		return hv_bad(v, "scatter '%s' has %zu operands: expected operands, indices and as many "
		                 "updates",
		              hv_name(i), n);
	size_t k = (n - 1) / 2;
	const pl_type *a = hv_op_type(i, 0), *x = hv_op_type(i, k), *u = hv_op_type(i, k + 1);
	int64_t uw[MAX_LIST], iw[MAX_LIST], sd[MAX_LIST], ib[MAX_LIST], ivd;
	int nuw = hv_list(v, HK(UPDATE_WINDOW_DIMS), uw);
	int niw = hv_list(v, HK(INSERTED_WINDOW_DIMS), iw);
	int nsd = hv_list(v, HK(SCATTER_DIMS_TO_OPERAND_DIMS), sd);
	int nib = hv_list(v, HK(INPUT_BATCHING_DIMS), ib);
	if (nuw == -1 || niw == -1 || nsd == -1 || nib == -1)
		return false;
	if (!hv_num_attr(i, HK(INDEX_VECTOR_DIM), &ivd))
		return true;
	nuw = nuw < 0 ? 0 : nuw;
	niw = niw < 0 ? 0 : niw;
	nsd = nsd < 0 ? 0 : nsd;
	nib = nib < 0 ? 0 : nib;
	if (ivd < 0 || (uint64_t)ivd > x->rank)
		return hv_bad(v, "index_vector_dim=%lld of '%s' is beyond its rank-%u indices",
		              (long long)ivd, hv_name(i), x->rank);
	int64_t nidx = (uint64_t)ivd == x->rank ? 1 : x->dims[ivd];
	if (nsd != nidx)
		return hv_bad(v, "scatter_dims_to_operand_dims of '%s' has %d entries: expected %lld, "
		                 "one per index",
		              hv_name(i), nsd, (long long)nidx);
	if (!hv_dims_in(v, HK(SCATTER_DIMS_TO_OPERAND_DIMS), sd, nsd, a->rank) ||
	    !hv_dims_in(v, HK(INSERTED_WINDOW_DIMS), iw, niw, a->rank))
		return false;
	if ((uint32_t)(nuw + niw + nib) != a->rank)
		return hv_bad(v, "scatter '%s': %d window, %d inserted and %d batching dimensions for a "
		                 "rank-%u operand: expected them to add up to %u",
		              hv_name(i), nuw, niw, nib, a->rank, a->rank);
	uint32_t want = (uint32_t)nuw + x->rank - ((uint64_t)ivd < x->rank);
	if (u->rank != want)
		return hv_bad(v, "the updates of scatter '%s' have rank %u: expected %u (window and "
		                 "batch dimensions)",
		              hv_name(i), u->rank, want);
	return window_bounds(v, a, u, uw, nuw, iw, niw, ib, nib) &&
	       hv_scalar_pairs(v, "combiner", 0, k, false);
}
