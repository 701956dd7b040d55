/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/elem.c — the rules of the ops that work element by
 * element: the operands' and result's shapes of the unary and binary
 * ones (and compare), the element types each takes and gives, and those
 * that change types or order: bitcast-convert (the element size ratio as
 * a last dimension), bitcast (its bytes), domain, stochastic-convert, rng
 * (its distribution's operands), reverse and reduce-precision. */
#include "hlo/verify/checks.h"

#include "hlo/hlo.h"

#include <stdio.h>

/* Operands and result of an elementwise op: n operands, all of the
 * result's dimensions; the element types agree unless the op changes
 * them (compare, complex, is-finite, real, imag). */
static bool elementwise(struct hv *v, const char *opc, size_t n, bool keep_dtype)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != n)
		return hv_bad(v, "'%s' takes %zu operand%s, not %zu", opc, n, n == 1 ? "" : "s",
		           pl_inst_num_operands(i));
	if (pl_inst_num_results(i) != 1)
		return true;
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	for (size_t k = 0; k < n; k++) {
		const pl_type *t = hv_op_type(i, k);
		if (!hv_same_dims(t, r) || (keep_dtype && !hv_same_elements(t->dtype, r->dtype))) {
			char a[160], b[160];
			hv_type(a, sizeof a, t);
			hv_type(b, sizeof b, r);
			return hv_bad(v, "operand %zu of '%s' (%s) is %s: expected the result's shape %s", k,
			           hv_name(i), opc, a, b);
		}
	}
	return true;
}

bool hv_unary_shape(struct hv *v)
{
	return elementwise(v, v->opc, 1, false);
}

/* complex makes its element type, compare gives pred */
bool hv_binary_shape(struct hv *v)
{
	return elementwise(v, v->opc, 2, v->op != HLO_OP_COMPLEX && v->op != HLO_OP_COMPARE);
}

/* bitcast-convert: complex stays complex, real real; elements of one
 * width keep the shape; to narrower
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
	bool ci = a->dtype == PL_DTYPE_C64 || a->dtype == PL_DTYPE_C128;
	bool co = r && (r->dtype == PL_DTYPE_C64 || r->dtype == PL_DTYPE_C128);
	if (r && ci != co)
		return hv_bad(v, "bitcast-convert '%s' turns %s elements into %s: expected no conversion "
		                 "between complex and real ones",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype), pl_hlo_dtype_name_(r->dtype));
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
	struct hv_two ty = hv_types(a, r);
	return hv_bad(v, "bitcast-convert '%s' turns %s into %s: expected the %s to have the other's "
	                 "dimensions and a last one of %u (%u-bit elements in %u-bit ones)",
	              hv_name(i), ty.a, ty.b, bi > bo ? "result" : "operand", ratio,
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

/* reduce-precision: floating-point elements, exponent_bits >= 1,
 * mantissa_bits >= 0, the result the operand's shape. */
bool hv_reduce_precision(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "reduce-precision", 1))
		return false;
	if (!hv_same_elements(hv_op_type(i, 0)->dtype, PL_DTYPE_F32))
		return hv_bad(v, "reduce-precision '%s' takes %s elements: expected floating-point ones",
		              hv_name(i), pl_hlo_dtype_name_(hv_op_type(i, 0)->dtype));
	int64_t e = 1, m = 0;
	bool he = hv_num_attr(i, HK(EXPONENT_BITS), &e), hm = hv_num_attr(i, HK(MANTISSA_BITS), &m);
	if (!he || !hm || e < 1 || m < 0)
		return hv_bad(v, "reduce-precision '%s': expected exponent_bits= at least 1 and "
		                 "mantissa_bits= at least 0",
		              hv_name(i));
	return !r || hv_dims_are(v, "the result", r, hv_op_type(i, 0));
}

enum { C_PRED = 1, C_SINT = 2, C_UINT = 4, C_FLOAT = 8, C_COMPLEX = 16 };

static unsigned dtype_class(pl_dtype t)
{
	switch (t) {
	case PL_DTYPE_BOOL:
		return C_PRED;
	case PL_DTYPE_I8: case PL_DTYPE_I16: case PL_DTYPE_I32: case PL_DTYPE_I64:
	case PL_DTYPE_S4: case PL_DTYPE_S2: case PL_DTYPE_S1:
		return C_SINT;
	case PL_DTYPE_U8: case PL_DTYPE_U16: case PL_DTYPE_U32: case PL_DTYPE_U64:
	case PL_DTYPE_U4: case PL_DTYPE_U2: case PL_DTYPE_U1:
		return C_UINT;
	case PL_DTYPE_C64: case PL_DTYPE_C128:
		return C_COMPLEX;
	case PL_DTYPE_TOKEN: case PL_DTYPE_OPAQUE: case PL_DTYPE_INVALID:
		return 0;
	default:
		return hv_same_elements(t, PL_DTYPE_F32) ? C_FLOAT : 0;
	}
}

/* What each unary op whose operand's element type is limited takes, by
 * opcode (0: no limit); a result type of its own (is-finite, and the real
 * component of a complex for real, imag and abs) is given by result_of. */
#define FP C_FLOAT, "floating-point"
#define FP_C C_FLOAT | C_COMPLEX, "floating-point or complex"
#define SIGNED C_SINT | C_FLOAT | C_COMPLEX, "signed or complex"
#define INT C_SINT | C_UINT, "integer"
static const struct {
	unsigned takes;
	const char *words;
} unary_classes[HLO_OP_OTHER] = {
	[HLO_OP_FLOOR] = {FP},
	[HLO_OP_CEIL] = {FP},
	[HLO_OP_ROUND_NEAREST_AFZ] = {FP},
	[HLO_OP_ROUND_NEAREST_EVEN] = {FP},
	[HLO_OP_IS_FINITE] = {FP},
	[HLO_OP_COSINE] = {FP_C},
	[HLO_OP_SINE] = {FP_C},
	[HLO_OP_EXPONENTIAL] = {FP_C},
	[HLO_OP_EXPONENTIAL_MINUS_ONE] = {FP_C},
	[HLO_OP_LOG] = {FP_C},
	[HLO_OP_LOG_PLUS_ONE] = {FP_C},
	[HLO_OP_LOGISTIC] = {FP_C},
	[HLO_OP_RSQRT] = {FP_C},
	[HLO_OP_SQRT] = {FP_C},
	[HLO_OP_CBRT] = {FP_C},
	[HLO_OP_TANH] = {FP_C},
	[HLO_OP_REAL] = {FP_C},
	[HLO_OP_IMAG] = {FP_C},
	[HLO_OP_ABS] = {SIGNED},
	[HLO_OP_SIGN] = {SIGNED},
	[HLO_OP_COUNT_LEADING_ZEROS] = {INT},
	[HLO_OP_POPCNT] = {INT},
	[HLO_OP_NEGATE] = {C_SINT | C_UINT | C_FLOAT | C_COMPLEX, "integer, floating-point or complex"},
	[HLO_OP_NOT] = {C_PRED | C_SINT | C_UINT, "pred or integer"},
};
#undef FP
#undef FP_C
#undef SIGNED
#undef INT

/* What op gives for elements of type t. */
static pl_dtype result_of(enum hlo_op op, pl_dtype t)
{
	if (op == HLO_OP_IS_FINITE)
		return PL_DTYPE_BOOL;
	bool part = op == HLO_OP_REAL || op == HLO_OP_IMAG || op == HLO_OP_ABS;
	if (part && t == PL_DTYPE_C64)
		return PL_DTYPE_F32;
	if (part && t == PL_DTYPE_C128)
		return PL_DTYPE_F64;
	return t;
}

bool hv_unary_types(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) != 1 || v->op >= HLO_OP_OTHER)
		return true; /* the count is elementwise's to report */
	pl_dtype t = hv_op_type(i, 0)->dtype;
	unsigned takes = unary_classes[v->op].takes;
	if (takes && !(dtype_class(t) & takes))
		return hv_bad(v, "'%s' (%s) takes %s elements: expected %s ones", hv_name(i), v->opc,
		              pl_hlo_dtype_name_(t), unary_classes[v->op].words);
	pl_dtype want = result_of(v->op, t);
	if (r && !hv_same_elements(r->dtype, want))
		return hv_bad(v, "'%s' gives %s elements for %s ones: expected %s", hv_name(i),
		              pl_hlo_dtype_name_(r->dtype), pl_hlo_dtype_name_(t),
		              pl_hlo_dtype_name_(want));
	return true;
}

/* A binary op's two operands have one element type (or two
 * floating-point ones). */
static bool one_element_type(struct hv *v, pl_dtype a, pl_dtype b)
{
	if (hv_same_elements(a, b))
		return true;
	return hv_bad(v, "the operands of '%s' (%s) have %s and %s elements: expected one element "
	                 "type",
	              hv_name(v->at), v->opc, pl_hlo_dtype_name_(a), pl_hlo_dtype_name_(b));
}

/* The element types XLA's binary ops take (InferBinaryOpShape): and, or
 * and xor pred or integers; the arithmetic ops that subtract, divide,
 * raise or shift no pred (shifts of floating-point numbers pass there, as
 * in XLA); complex two f32 or two f64 into c64 or c128. The two operands
 * have one element type (or two floating-point ones). */
bool hv_binary_types(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (pl_inst_num_operands(i) != 2)
		return true; /* the count is elementwise's to report */
	pl_dtype a = hv_op_type(i, 0)->dtype, b = hv_op_type(i, 1)->dtype;
	if (!one_element_type(v, a, b))
		return false;
	unsigned c = dtype_class(a);
	switch (v->op) {
	case HLO_OP_AND:
	case HLO_OP_OR:
	case HLO_OP_XOR:
		if (!(c & (C_PRED | C_SINT | C_UINT)))
			return hv_bad(v, "'%s' (%s) takes %s elements: expected pred or integer ones",
			              hv_name(i), v->opc, pl_hlo_dtype_name_(a));
		return true;
	case HLO_OP_SUBTRACT:
	case HLO_OP_ATAN2:
	case HLO_OP_POWER:
	case HLO_OP_DIVIDE:
	case HLO_OP_REMAINDER:
	case HLO_OP_SHIFT_LEFT:
	case HLO_OP_SHIFT_RIGHT_ARITHMETIC:
	case HLO_OP_SHIFT_RIGHT_LOGICAL:
		if (c & C_PRED)
			return hv_bad(v, "'%s' (%s) takes pred elements: expected numbers", hv_name(i),
			              v->opc);
		return true;
	case HLO_OP_COMPLEX: {
		pl_dtype want = a == PL_DTYPE_F32 && b == PL_DTYPE_F32   ? PL_DTYPE_C64
		                : a == PL_DTYPE_F64 && b == PL_DTYPE_F64 ? PL_DTYPE_C128
		                                                         : PL_DTYPE_INVALID;
		if (want == PL_DTYPE_INVALID)
			return hv_bad(v, "complex '%s' takes %s and %s elements: expected two f32 or two "
			                 "f64 ones",
			              hv_name(i), pl_hlo_dtype_name_(a), pl_hlo_dtype_name_(b));
		if (r && r->dtype != want)
			return hv_bad(v, "complex '%s' gives %s elements for %s ones: expected %s",
			              hv_name(i), pl_hlo_dtype_name_(r->dtype), pl_hlo_dtype_name_(a),
			              pl_hlo_dtype_name_(want));
		return true;
	}
	default:
		return true;
	}
}

/* compare: a direction of XLA's six; pred elements out; a type=, when
 * given, as XLA's instruction verifier checks it: FLOAT or TOTALORDER for
 * floating-point numbers, else the type XLA's parser gives an absent one
 * (DefaultComparisonType): FLOAT for complex numbers, SIGNED for signed
 * integers, UNSIGNED for unsigned ones and pred. */
bool hv_compare(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	size_t len;
	const char *d = hv_str(i, HK(DIRECTION), &len);
	static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
	bool known = false;
	for (size_t k = 0; d && k < 6 && !known; k++)
		known = len == 2 && !memcmp(d, dirs[k], 2);
	if (!known)
		return hv_bad(v, "compare '%s' has %s direction=: expected EQ, NE, LT, LE, GT or GE",
		              hv_name(i), d ? "an unknown" : "no");
	if (pl_inst_num_operands(i) != 2)
		return true; /* the count is elementwise's to report */
	pl_dtype a = hv_op_type(i, 0)->dtype, b = hv_op_type(i, 1)->dtype;
	if (!one_element_type(v, a, b))
		return false;
	if (r && r->dtype != PL_DTYPE_BOOL)
		return hv_bad(v, "compare '%s' gives %s elements: expected pred", hv_name(i),
		              pl_hlo_dtype_name_(r->dtype));
	const char *t = hv_str(i, HK(COMPARISON_TYPE), &len);
	if (!t)
		return true;
	unsigned c = dtype_class(a);
	const char *want = c & C_FLOAT     ? "FLOAT or TOTALORDER"
	                   : c & C_COMPLEX ? "FLOAT"
	                   : c & C_SINT    ? "SIGNED"
	                   : c & (C_UINT | C_PRED) ? "UNSIGNED"
	                                           : NULL;
	bool fits = !want || (c & C_FLOAT ? (len == 5 && !memcmp(t, "FLOAT", 5)) ||
	                                        (len == 10 && !memcmp(t, "TOTALORDER", 10))
	                                  : len == strlen(want) && !memcmp(t, want, len));
	if (!fits)
		return hv_bad(v, "compare '%s' of %s elements has type=%.*s: expected %s", hv_name(i),
		              pl_hlo_dtype_name_(a), (int)len, t, want);
	return true;
}

/* A shape as the text gave it (an instruction's hlo_shape, a parameter's
 * in hlo_param_shapes) that XLA sizes otherwise than its elements times
 * their bytes: a layout with more than the dimensions' order (tiles,
 * packed elements, a memory space: "{1,0:T(8,128)}") or a dynamic extent. */
static bool sized_otherwise(const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++)
		if (s[k] == ':' || s[k] == '<' || s[k] == '?')
			return true;
	return false;
}

/* Whether the value's shape, as read, is one sized_otherwise (a shape
 * the reader kept no text of has the default layout). */
static bool value_sized_otherwise(const pl_value *val)
{
	const pl_inst *d = pl_value_def(val);
	size_t len;
	if (d) {
		const char *s = hv_str(d, HK(SHAPE), &len);
		return s && sized_otherwise(s, len);
	}
	const pl_attr *ps = pl_attrs_get(pl_func_attrs(pl_value_func(val)), HK(PARAM_SHAPES));
	for (size_t k = 0; ps && pl_attr_get_kind(ps) == PL_ATTR_LIST && k < pl_attr_list_size(ps);
	     k++) {
		const pl_attr *a = pl_attr_list_at(ps, k);
		const char *s = pl_attr_get_kind(a) == PL_ATTR_STRING ? pl_attr_get_string(a, &len) : NULL;
		if (s && sized_otherwise(s, len))
			return true;
	}
	return false;
}

/* bitcast: XLA's verifier checks one thing, and only layout-sensitive
 * (after layout assignment): the result takes as many bytes as the
 * operand. Checked in a module whose text has layouts, for arrays whose
 * bytes are their elements times the element's (rounded up to a byte, as
 * XLA counts an unpacked s4); not where a layout tiles, packs or places
 * the array or an extent is dynamic (XLA's size then counts what the IR
 * does not model). */
bool hv_bitcast(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!v->layouts || !r || pl_inst_num_operands(i) != 1)
		return true;
	const pl_type *a = hv_op_type(i, 0);
	if (value_sized_otherwise(pl_inst_operand(i, 0)) || value_sized_otherwise(pl_inst_result(i, 0)))
		return true;
	uint64_t ba = (uint64_t)a->elements * pl_dtype_size(a->dtype);
	uint64_t br = (uint64_t)r->elements * pl_dtype_size(r->dtype);
	if (ba == br)
		return true;
	struct hv_two ty = hv_types(a, r);
	return hv_bad(v, "bitcast '%s' turns %s (%llu bytes) into %s (%llu bytes): expected as many "
	                 "bytes",
	              hv_name(i), ty.a, (unsigned long long)ba, ty.b, (unsigned long long)br);
}

/* domain: its operand passed on, value by value (XLA infers a domain's
 * shape as its operand's). Floating-point precision may differ, as for
 * every op XLA's shape check does not hold to exact shapes; opt-barrier,
 * copy-start and the other pure pass-throughs it does (fixed.c's
 * results_are_operands). */
bool hv_domain(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (pl_inst_num_results(i) != n)
		return hv_bad(v, "domain '%s' has %zu values for an operand of %zu: expected its "
		                 "operand's",
		              hv_name(i), pl_inst_num_results(i), n);
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k), *r = pl_value_type(pl_inst_result(i, k));
		if (!hv_same_dims(a, r) || !hv_same_elements(a->dtype, r->dtype)) {
			struct hv_two ty = hv_types(r, a);
			return hv_bad(v, "value %zu of domain '%s' is %s: expected %s, its operand's", k,
			              hv_name(i), ty.a, ty.b);
		}
	}
	return true;
}

/* stochastic-convert(operand, random): floating-point elements, random
 * unsigned integers of as many bits and the operand's dimensions; the
 * result the operand's dimensions in its own element type. */
bool hv_stochastic_convert(struct hv *v)
{
	const pl_inst *i = v->at;
	const pl_type *r = RESULT_OF(i);
	if (!hv_want_operands(v, "stochastic-convert", 2))
		return false;
	const pl_type *a = hv_op_type(i, 0), *rnd = hv_op_type(i, 1);
	if (dtype_class(rnd->dtype) != C_UINT)
		return hv_bad(v, "the random numbers of stochastic-convert '%s' are %s: expected "
		                 "unsigned integers",
		              hv_name(i), pl_hlo_dtype_name_(rnd->dtype));
	if (dtype_class(a->dtype) != C_FLOAT)
		return hv_bad(v, "stochastic-convert '%s' converts %s elements: expected "
		                 "floating-point ones",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype));
	if (pl_dtype_bits(a->dtype) != pl_dtype_bits(rnd->dtype))
		return hv_bad(v, "stochastic-convert '%s' takes %u-bit random numbers for %u-bit "
		                 "elements: expected as many bits",
		              hv_name(i), pl_dtype_bits(rnd->dtype), pl_dtype_bits(a->dtype));
	return hv_dims_are(v, "the random numbers", rnd, a) &&
	       (!r || hv_dims_are(v, "the result", r, a));
}
