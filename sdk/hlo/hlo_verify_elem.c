/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_verify_elem.c — the verifier's rules for ops that work
 * element by element but change types or order: bitcast-convert (the
 * element size ratio as a last dimension), rng (its distribution's
 * operands), reverse and reduce-precision. */
#include "hlo/hlo_verify_int.h"

#include "hlo/hlo.h"

#include <stdio.h>

/* bitcast-convert: elements of one width keep the shape; to narrower
 * ones, the result gains a last dimension of the ratio; to wider ones,
 * the operand's last dimension is the ratio and goes. */
bool hv_bitcast_convert(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "bitcast-convert", 1))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	unsigned bi = pl_dtype_bits(a->dtype), bo = r ? pl_dtype_bits(r->dtype) : 0;
	if (!bi || !bo || bi == bo)
		return !r || hv_dims_are(v, "the result", r, a);
	const pl_type *wide = bi > bo ? a : r, *narrow = bi > bo ? r : a;
	unsigned ratio = bi > bo ? bi / bo : bo / bi;
	bool fits = (bi > bo ? bi % bo : bo % bi) == 0 && narrow->rank == wide->rank + 1 &&
	            narrow->dims[wide->rank] == (int64_t)ratio;
	for (uint32_t d = 0; fits && d < wide->rank; d++)
		fits = narrow->dims[d] == wide->dims[d];
	if (fits)
		return true;
	char ta[160], tr[160];
	hv_type(ta, sizeof ta, a);
	hv_type(tr, sizeof tr, r);
	return hv_bad(v, "bitcast-convert '%s' turns %s into %s: expected the %s to have the other's "
	                 "dimensions and a last one of %u (%u-bit elements in %u-bit ones)",
	              hv_name(i), ta, tr, bi > bo ? "result" : "operand", ratio,
	              bi > bo ? bo : bi, bi > bo ? bi : bo);
}

/* rng: distribution=rng_uniform (low, high) or rng_normal (mean, sigma),
 * two scalars of the result's element type. */
bool hv_rng(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	size_t len;
	const char *s = hv_str(i, HK(DISTRIBUTION), &len);
	bool uniform = s && len == 11 && !memcmp(s, "rng_uniform", 11);
	bool normal = s && len == 10 && !memcmp(s, "rng_normal", 10);
	if (!uniform && !normal)
		return hv_bad(v, "rng '%s' has %s distribution: expected distribution=rng_uniform or "
		                 "rng_normal",
		              hv_name(i), s ? "an unknown" : "no");
	if (!hv_want_operands(v, "rng", 2))
		return false;
	for (size_t k = 0; k < 2 && r; k++) {
		const pl_type *t = hv_op_type(i, k);
		if (t->rank || t->dtype != r->dtype) {
			char tt[160];
			hv_type(tt, sizeof tt, t);
			return hv_bad(v, "the %s of rng '%s' is %s: expected a %s[] scalar, the result's "
			                 "element type",
			              uniform ? (k ? "high bound" : "low bound") : (k ? "sigma" : "mean"),
			              hv_name(i), tt, pl_hlo_dtype_name_(r->dtype));
		}
	}
	return true;
}

/* reverse: dimensions of the operand, each once; the result its shape. */
bool hv_reverse(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	int64_t d[MAX_LIST];
	if (!hv_want_operands(v, "reverse", 1))
		return false;
	const pl_type *a = hv_op_type(i, 0);
	int nd = hv_list(v, HK(DIMENSIONS), d);
	if (nd == -1 || !hv_dims_in(v, HK(DIMENSIONS), d, nd < 0 ? 0 : nd, a->rank))
		return false;
	for (int k = 1; k < nd; k++)
		for (int e = 0; e < k; e++) /* at most MAX_LIST entries */
			if (d[e] == d[k])
				return hv_bad(v, "reverse '%s' names dimension %lld twice", hv_name(i),
				              (long long)d[k]);
	return !r || hv_dims_are(v, "the result", r, a);
}

/* reduce-precision: exponent_bits >= 1, mantissa_bits >= 0, the result
 * the operand's shape. */
bool hv_reduce_precision(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "reduce-precision", 1))
		return false;
	int64_t e = 1, m = 0;
	bool he = hv_num_attr(i, HK(EXPONENT_BITS), &e), hm = hv_num_attr(i, HK(MANTISSA_BITS), &m);
	if (!he || !hm || e < 1 || m < 0)
		return hv_bad(v, "reduce-precision '%s': expected exponent_bits= at least 1 and "
		                 "mantissa_bits= at least 0",
		              hv_name(i));
	return !r || hv_dims_are(v, "the result", r, hv_op_type(i, 0));
}
