/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_time.c — the time of one instruction under the cost
 * model (passline/cost.h): a roofline for every kernel, a two-tier
 * formula for every collective.
 *
 * Two ways to count. A model with no preset and no key set by its new name
 * (the "legacy" model) is the exact integer model of ABI 1.1's first
 * release, extended to the ops it did not know (bytes of HLO ops,
 * all-to-all and permutes) in the same integers. Any other model is
 * counted in doubles and rounded up to the nanosecond once.
 */
#include "analysis/cost_model.h"
#include "analysis/cost_groups.h"
#include "ir/hlo_keys.h"
#include "ir/hlo_opcodes.h"

#include <math.h>

/* ---- exact integers (the legacy model) ---- */

static pl_u128 ceil_div(pl_u128 n, pl_u128 d)
{
	if ((n | d) <= UINT64_MAX) /* the common case, without a 128-bit division */
		return (uint64_t)n / (uint64_t)d + ((uint64_t)n % (uint64_t)d != 0);
	return n / d + (n % d != 0);
}

/* ceil(a * b / d) for a < 2^64 and d > 0, whatever the width of a * b;
 * PL_EOVERFLOW when it passes UINT64_MAX. */
static int mul_div_ceil(uint64_t a, pl_u128 b, pl_u128 d, uint64_t *out)
{
	/* a * b as hi * 2^128 + lo */
	pl_u128 p0 = (pl_u128)a * (uint64_t)b;
	pl_u128 p1 = (pl_u128)a * (uint64_t)(b >> 64);
	pl_u128 lo = p0 + (p1 << 64);
	pl_u128 hi = (p1 >> 64) + (lo < p0);
	pl_u128 q;
	if (hi == 0) {
		q = ceil_div(lo, d);
	} else {
		if (hi >= d)
			return PL_EOVERFLOW; /* the quotient has more than 128 bits */
		/* long division, one bit at a time: rare (a product past 2^128) */
		pl_u128 rem = hi;
		q = 0;
		for (int bit = 127; bit >= 0; bit--) {
			bool carry = rem >> 127;
			rem = (rem << 1) | ((lo >> bit) & 1);
			q <<= 1;
			if (carry || rem >= d) {
				rem -= d;
				q |= 1;
			}
		}
		if (rem && ++q == 0)
			return PL_EOVERFLOW;
	}
	if (q > UINT64_MAX)
		return PL_EOVERFLOW;
	*out = (uint64_t)q;
	return PL_OK;
}

static int ns_of(double t, uint64_t *out)
{
	t = ceil(t);
	if (!(t < 18446744073709551616.0)) /* 2^64; NaN too */
		return PL_EOVERFLOW;
	*out = t > 0 ? (uint64_t)t : 0;
	return PL_OK;
}

/* ---- what an op is ---- */

/* Byte by byte: asked of every instruction's op name and keys, and most
 * differ at the first byte. */
static inline bool prefixed(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return false;
	return true;
}

/* Ops that only name, regroup or call values: no kernel of their own
 * (the table's PL_HLO_F_NO_KERNEL). */
static bool free_op(const pl_inst *inst)
{
	return pl_inst_hlo_row_(inst)->flags & PL_HLO_F_NO_KERNEL;
}

/* The cost model's kind of a collective of the table (COLL). */
static bool coll_kind(enum pl_hlo_coll c, enum pl_coll_kind *kind)
{
	static const signed char kinds[] = {
		[PL_HLO_COLL_NONE] = -1,
		[PL_HLO_COLL_ALL_GATHER] = PL_CK_ALL_GATHER,
		[PL_HLO_COLL_REDUCE_SCATTER] = PL_CK_REDUCE_SCATTER,
		[PL_HLO_COLL_ALL_REDUCE] = PL_CK_ALL_REDUCE,
		[PL_HLO_COLL_ALL_TO_ALL] = PL_CK_ALL_TO_ALL,
		[PL_HLO_COLL_PERMUTE] = PL_CK_PERMUTE,
		[PL_HLO_COLL_BROADCAST] = PL_CK_BROADCAST,
	};
	if ((unsigned)c >= sizeof kinds || kinds[c] < 0)
		return false;
	*kind = (enum pl_coll_kind)kinds[c];
	return true;
}

/* The root of the computation an async-start calls, or NULL. */
static const pl_inst *async_root(const pl_inst *inst)
{
	const pl_func *f = pl_inst_callee(inst, HK(CALLS), 0);
	const pl_inst *ret = f ? pl_func_last_inst(f) : NULL;
	if (!ret || pl_inst_num_operands(ret) < 1)
		return NULL;
	return pl_value_def(pl_inst_operand(ret, 0));
}

/* The collective an async-start calls, by the root of its computation. */
static bool async_kind(const pl_inst *inst, enum pl_coll_kind *kind)
{
	const pl_inst *root = async_root(inst);
	if (!root)
		return false;
	switch (pl_inst_op_(root)) {
	case PL_OP_ALL_GATHER: *kind = PL_CK_ALL_GATHER; return true;
	case PL_OP_ALL_REDUCE: *kind = PL_CK_ALL_REDUCE; return true;
	case PL_OP_REDUCE_SCATTER: *kind = PL_CK_REDUCE_SCATTER; return true;
	default: return coll_kind(pl_inst_hlo_coll_(root, NULL), kind);
	}
}

enum pl_comm_role pl_comm_role_(const pl_inst *inst, enum pl_coll_kind *kind)
{
	pl_op op = pl_inst_op_(inst);
	unsigned traits = pl_inst_traits_(inst);
	if (traits & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START | PL_TRAIT_COLLECTIVE_DONE)) {
		switch (op) {
		case PL_OP_ALL_GATHER: case PL_OP_ALL_GATHER_START: case PL_OP_ALL_GATHER_DONE:
			*kind = PL_CK_ALL_GATHER; break;
		case PL_OP_REDUCE_SCATTER: case PL_OP_REDUCE_SCATTER_START:
		case PL_OP_REDUCE_SCATTER_DONE:
			*kind = PL_CK_REDUCE_SCATTER; break;
		default: *kind = PL_CK_ALL_REDUCE; break;
		}
		return traits & PL_TRAIT_COLLECTIVE         ? PL_COMM_SYNC
		       : traits & PL_TRAIT_COLLECTIVE_START ? PL_COMM_START
		                                            : PL_COMM_DONE;
	}
	if (op != PL_OP_OTHER)
		return PL_COMM_NONE;
	pl_hlo_op h = pl_inst_hlo_op_(inst);
	if (h == PL_HLO_ASYNC_START)
		return async_kind(inst, kind) ? PL_COMM_START : PL_COMM_NONE;
	if (h == PL_HLO_ASYNC_DONE) {
		const pl_inst *st = inst->nops ? pl_value_def(pl_inst_operand(inst, 0)) : NULL;
		return st && pl_comm_role_(st, kind) == PL_COMM_START ? PL_COMM_DONE : PL_COMM_NONE;
	}
	int phase = 0;
	if (!coll_kind(pl_inst_hlo_coll_(inst, &phase), kind))
		return PL_COMM_NONE;
	return phase == 1 ? PL_COMM_START : phase == 2 ? PL_COMM_DONE : PL_COMM_SYNC;
}

/* An instruction read from HLO is an hlo.* op, or a known op carrying
 * attributes the HLO reader keeps (hlo_*): whether inst carries one. */
static bool from_hlo_keys(const pl_inst *inst)
{
	if (!inst->attrs.n)
		return false;
	const char *const *keys = pl_inst_func_(inst)->m->keys.names;
	const struct pl_attr_entry *v = pl_attrs_v_(&inst->attrs);
	for (uint16_t i = 0; i < inst->attrs.n; i++)
		if (prefixed(keys[v[i].val.key], PL_HLO_KEY_PREFIX))
			return true;
	return false;
}

/* ---- bytes ---- */

static int value_bytes(const pl_value *v, pl_u128 *sum)
{
	uint64_t b;
	int rc = pl_type_num_bytes(v->type, &b);
	if (rc == PL_OK)
		*sum += b;
	return rc;
}

/* The bytes of operands [from, to) and of the results (when results). */
static int sum_bytes(const pl_inst *inst, size_t from, size_t to, bool results, pl_u128 *out)
{
	pl_u128 sum = 0;
	int rc = PL_OK;
	for (size_t k = from; k < to && k < inst->nops && rc == PL_OK; k++)
		rc = value_bytes(pl_use_val_(&pl_inst_ops_(inst)[k]), &sum);
	for (size_t k = 0; results && k < inst->nres && rc == PL_OK; k++)
		rc = value_bytes(&pl_inst_res_(inst)[k], &sum);
	*out = sum; /* at most 2^33 terms below 2^63 */
	return rc;
}

static int operand_bytes(const pl_inst *inst, size_t k, pl_u128 *out)
{
	*out = 0;
	return k < inst->nops ? value_bytes(pl_use_val_(&pl_inst_ops_(inst)[k]), out) : PL_OK;
}

static int kernel_bytes(const pl_inst *inst, pl_u128 *out)
{
	pl_hlo_op op = pl_inst_hlo_op_(inst);
	pl_u128 a, b;
	int rc;
	if (!pl_inst_is_hlo_(inst))
		return sum_bytes(inst, 0, inst->nops, true, out);
	if (free_op(inst)) {
		*out = 0;
		return PL_OK;
	}
	/* a slice or gather reads what it writes (and its indices) */
	if (op == PL_HLO_DYNAMIC_SLICE || op == PL_HLO_GATHER || op == PL_HLO_SLICE) {
		if ((rc = sum_bytes(inst, 1, inst->nops, true, &a)) ||
		    (rc = sum_bytes(inst, 0, 0, true, &b)))
			return rc;
		*out = a + b;
		return PL_OK;
	}
	/* an update in place reads and writes the update, and reads the indices */
	if (op == PL_HLO_DYNAMIC_UPDATE_SLICE || op == PL_HLO_SCATTER) {
		if ((rc = sum_bytes(inst, 1, inst->nops, false, &a)) ||
		    (rc = operand_bytes(inst, op == PL_HLO_SCATTER ? 2 : 1, &b)))
			return rc;
		*out = a + b;
		return PL_OK;
	}
	return sum_bytes(inst, 0, inst->nops, true, out);
}

int pl_inst_kernel_bytes(const pl_inst *inst, uint64_t *out)
{
	unsigned traits = pl_inst_traits_(inst);
	pl_u128 b;
	int rc;
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE)) {
		/* a load or store moves one element per dynamic instance */
		struct pl_count_attrs attrs;
		pl_count_attrs_(&inst->attrs, &attrs);
		uint64_t n;
		if ((rc = pl_masked_dynamic_instances_(inst, &attrs, &n)))
			return rc;
		const pl_value *v = traits & PL_TRAIT_LOAD
		                            ? (inst->nres ? &pl_inst_res_(inst)[0] : NULL)
		                            : (inst->nops ? pl_use_val_(&pl_inst_ops_(inst)[0]) : NULL);
		if (!v)
			return PL_EINVAL;
		b = (pl_u128)n * pl_dtype_size((pl_dtype)v->type->dtype);
	} else if (traits & (PL_TRAIT_COLLECTIVE_DONE | PL_TRAIT_TERMINATOR)) {
		b = 0;
	} else if ((rc = kernel_bytes(inst, &b))) {
		return rc;
	}
	if (b > UINT64_MAX)
		return PL_EOVERFLOW;
	*out = (uint64_t)b;
	return PL_OK;
}

/* ---- compute ---- */

static enum pl_dclass class_of_dtype(pl_dtype dt, bool contraction)
{
	switch (dt) {
	case PL_DTYPE_F64: case PL_DTYPE_C128: return PL_DC_F64;
	default: break;
	}
	if (!contraction)
		return PL_DC_F32;
	switch (dt) {
	case PL_DTYPE_BF16: case PL_DTYPE_F16: return PL_DC_BF16;
	case PL_DTYPE_F32: case PL_DTYPE_C64: return PL_DC_TF32;
	default: break;
	}
	return pl_dtype_bits(dt) <= 8 && dt != PL_DTYPE_INVALID ? PL_DC_FP8 : PL_DC_F32;
}

static pl_dtype operand_dtype(const pl_inst *inst, size_t k)
{
	return k < inst->nops ? (pl_dtype)pl_use_val_(&pl_inst_ops_(inst)[k])->type->dtype
	                      : PL_DTYPE_INVALID;
}

/* A contraction runs at the peak of its narrowest input. */
static enum pl_dclass contraction_class(const pl_inst *inst)
{
	enum pl_dclass a = class_of_dtype(operand_dtype(inst, 0), true);
	enum pl_dclass b = inst->nops > 1 ? class_of_dtype(operand_dtype(inst, 1), true) : a;
	return a < b ? a : b; /* the classes are ordered fastest first */
}

enum pl_dclass pl_contraction_class_(const pl_inst *inst)
{
	return contraction_class(inst);
}

static double elements(const pl_value *v)
{
	uint64_t n = 0;
	pl_type_num_elements(v->type, &n);
	return (double)n;
}

/* A fused attention kernel: cuDNN's through XLA, or Transformer Engine's
 * (a target spelled with or without its quotes). */
static bool attention_target(const char *t, size_t len)
{
	if (len && *t == '"')
		t++, len--;
	return (len >= 12 && memcmp(t, "__cudnn$fmha", 12) == 0) ||
	       (len >= 13 && memcmp(t, "te_fused_attn", 13) == 0);
}

/* Whether an attention's backend config asks for a causal mask: cuDNN's
 * "mask_type":"CAUSAL" (or PADDING_CAUSAL), or Transformer Engine's
 * mask_type = N, whose causal values are 2-5 (causal, padding causal, and
 * both bottom-right aligned). A causal kernel skips the masked half. */
static bool causal_mask(const char *cfg, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++)
		if (memcmp(cfg + i, "CAUSAL", 6) == 0)
			return true;
	static const char key[] = "mask_type = ";
	for (size_t i = 0; i + sizeof key <= len; i++)
		if (memcmp(cfg + i, key, sizeof key - 1) == 0) {
			char c = cfg[i + sizeof key - 1];
			bool digit_after = i + sizeof key < len && cfg[i + sizeof key] >= '0' &&
			                   cfg[i + sizeof key] <= '9';
			return c >= '2' && c <= '5' && !digit_after;
		}
	return false;
}

/* A custom call the model knows: its FLOPs from its shapes; false for an
 * unknown target (bytes only). */
static bool custom_call_flops(const pl_inst *inst, double *flops, enum pl_dclass *dc)
{
	const char *t;
	size_t len;
	if (pl_attrs_get_string(&inst->attrs, HK(CUSTOM_CALL_TARGET), &t, &len) != PL_OK)
		return false;
	char target[96];
	size_t k = 0;
	for (size_t i = 0; i < len && k + 1 < sizeof target; i++)
		if (t[i] != '"' && t[i] != '\\')
			target[k++] = t[i];
	target[k] = '\0';
	if (inst->nops < 2 || inst->nres < 1)
		return false;
	const pl_value *lhs = pl_use_val_(&pl_inst_ops_(inst)[0]);
	const pl_value *rhs = pl_use_val_(&pl_inst_ops_(inst)[1]);
	const pl_value *res = &pl_inst_res_(inst)[0];
	*dc = contraction_class(inst);
	if (prefixed(target, "__cublas$gemm") || prefixed(target, "__cublas$lt$matmul")) {
		/* lhs [b..,m,k], rhs [b..,k,n], out [b..,m,n]: lhs * rhs / out = b * k^2 */
		size_t r = pl_type_rank(res->type);
		double batch = 1;
		for (size_t i = 0; i + 2 < r; i++)
			batch *= (double)pl_type_dim(res->type, i);
		double out = elements(res);
		if (out <= 0 || batch <= 0)
			return false;
		double kk = round(sqrt(elements(lhs) * elements(rhs) / (out * batch)));
		*flops = 2 * out * kk;
		return true;
	}
	if (attention_target(target, strlen(target))) {
		/* q [b, s_q, h, d], k [b, s_kv, h, d]: two matmuls of 2 b h s_q s_kv d
		 * forward, 2.5 times that backward, half of it under a causal mask */
		if (pl_type_rank(rhs->type) != 4)
			return false;
		double f = 4 * elements(lhs) * (double)pl_type_dim(rhs->type, 1);
		if (strstr(target, "ackward"))
			f *= 2.5;
		const char *cfg;
		size_t clen;
		if (pl_attrs_get_string(&inst->attrs, HK(BACKEND_CONFIG), &cfg, &clen) == PL_OK &&
		    causal_mask(cfg, clen))
			f /= 2;
		*flops = f;
		return true;
	}
	return false;
}

bool pl_attention_call_(const pl_inst *inst)
{
	const char *t;
	size_t len;
	return pl_inst_hlo_op_(inst) == PL_HLO_CUSTOM_CALL &&
	       pl_attrs_get_string(&inst->attrs, HK(CUSTOM_CALL_TARGET), &t, &len) == PL_OK &&
	       attention_target(t, len);
}

bool pl_custom_call_flops_(const pl_inst *inst, double *flops, enum pl_dclass *dc)
{
	return pl_inst_hlo_op_(inst) == PL_HLO_CUSTOM_CALL && custom_call_flops(inst, flops, dc);
}

double pl_roofline_ns_(const pl_cost_model *cm, double flops, enum pl_dclass dc, double bytes)
{
	double compute = flops / (cm->v[CK_PEAK + dc] * 1000);
	double memory = bytes / cm->v[CK_MEMORY];
	/* a small contraction runs below its peak (too few tiles to fill the
	 * device): a ramp growing with the square root of its work */
	double ramp = cm->v[CK_RAMP + dc] * 1000 * sqrt(flops / 1e12);
	return cm->v[CK_FLOOR] * 1000 + (compute > memory ? compute : memory) + ramp;
}

static int compute_time(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out)
{
	unsigned traits = pl_inst_traits_(inst);
	bool hlo_op = pl_inst_is_hlo_(inst);
	if (free_op(inst) || ((traits & PL_TRAIT_DATA_MOVEMENT) && cm->legacy)) {
		*out = 0;
		return PL_OK;
	}
	/* the legacy model counts no bytes for a .pir op that computes: that
	 * model's results stay what they were */
	uint64_t bytes = 0;
	int rc = PL_OK;
	if ((!cm->legacy || hlo_op || from_hlo_keys(inst) ||
	     (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE))) &&
	    (rc = pl_inst_kernel_bytes(inst, &bytes)))
		return rc;
	bool memory_only = traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE | PL_TRAIT_DATA_MOVEMENT);
	double flops_d = 0;
	enum pl_dclass dc = PL_DC_F32;
	bool known_call = false;
	if (pl_inst_hlo_op_(inst) == PL_HLO_CUSTOM_CALL) {
		known_call = custom_call_flops(inst, &flops_d, &dc);
		memory_only = !known_call;
	}
	pl_u128 flops = 0;
	if (!memory_only && !known_call) {
		struct pl_count_attrs attrs;
		pl_count_attrs_(&inst->attrs, &attrs);
		uint64_t n;
		int64_t f;
		if ((rc = pl_masked_dynamic_instances_(inst, &attrs, &n)) ||
		    (rc = pl_flops_(inst, &attrs, &f)))
			return rc;
		flops = (pl_u128)n * (uint64_t)f; /* below 2^127 */
		flops_d = (double)flops;
		/* the class of peak: the roofline's, which the legacy model has not */
		if (!cm->legacy && (traits & PL_TRAIT_CONTRACT))
			dc = contraction_class(inst);
		else if (!cm->legacy && inst->nres)
			dc = class_of_dtype((pl_dtype)pl_inst_res_(inst)[0].type->dtype, false);
	}
	if (!cm->legacy) {
		/* fused attention runs below the contraction peak: its FLOPs take
		 * the time of flops / efficiency at that peak */
		double timed = known_call && pl_attention_call_(inst) ? flops_d / cm->v[CK_ATTENTION]
		                                                      : flops_d;
		return ns_of(pl_roofline_ns_(cm, timed, dc, (double)bytes), out);
	}
	/* exact: max(ceil(flops / peak_gflops), ceil(bytes / memory_gbps)) */
	if (known_call)
		flops = (pl_u128)flops_d; /* whole numbers, below 2^64 for any real shape */
	pl_u128 tc = ceil_div(flops, (pl_u128)(uint64_t)cm->alias[LK_PEAK]);
	pl_u128 tm = ceil_div(bytes, (pl_u128)(uint64_t)cm->alias[LK_MEMORY]);
	pl_u128 t = tc > tm ? tc : tm;
	if (t > UINT64_MAX)
		return PL_EOVERFLOW;
	*out = (uint64_t)t;
	return PL_OK;
}

/* ---- collectives ---- */

/* The devices of the collective's groups: from its replica groups or
 * source-target pairs where it has them, else `factor` devices 0 .. F-1
 * (a permute without pairs: 2). */
static void group_shape(const pl_inst *inst, const pl_cost_model *cm, enum pl_coll_kind kind,
                        int64_t factor, struct pl_group_shape *g)
{
	int64_t per_node = (int64_t)cm->v[CK_DEVICES_PER_NODE];
	const char *s;
	size_t len;
	if (pl_attrs_get_string(&inst->attrs, HK(SOURCE_TARGET_PAIRS), &s, &len) == PL_OK &&
	    pl_pairs_shape_(s, len, per_node, g))
		return;
	if (pl_attrs_get_string(&inst->attrs, HK(REPLICA_GROUPS), &s, &len) == PL_OK &&
	    pl_replica_groups_shape_(s, len, per_node, g))
		return;
	if (kind == PL_CK_PERMUTE && factor < 2)
		factor = 2;
	g->size = factor;
	g->nodes = (factor + per_node - 1) / per_node;
	g->per_node = factor < per_node ? factor : per_node;
}

/* B: the bytes XLA counts a collective by: an all-gather's results (its
 * operands' bytes for an unmapped start, whose results hold both), every
 * other's operands. */
static int message_bytes(const pl_inst *inst, enum pl_coll_kind kind, pl_u128 *out)
{
	pl_u128 ops, all;
	int rc;
	if (kind != PL_CK_ALL_GATHER)
		return sum_bytes(inst, 0, inst->nops, false, out);
	if ((rc = sum_bytes(inst, 0, 0, true, &all)))
		return rc;
	bool unmapped_start = pl_inst_hlo_op_(inst) == PL_HLO_ALL_GATHER_START;
	if (unmapped_start && (rc = sum_bytes(inst, 0, inst->nops, false, &ops)) == PL_OK)
		all = all > ops ? all - ops : 0;
	*out = all;
	return rc;
}

/* What a collective sends: *inst becomes the collective an async-start
 * wrapper calls (its groups, factor and message are that one's), *factor
 * its factor (1 without one), *bytes its message. */
static int collective_message(const pl_inst **inst, enum pl_coll_kind kind, int64_t *factor,
                              pl_u128 *bytes)
{
	if (pl_inst_hlo_op_(*inst) == PL_HLO_ASYNC_START) {
		const pl_inst *root = async_root(*inst);
		if (root)
			*inst = root;
	}
	*factor = 1;
	int rc = pl_attrs_get_int(&(*inst)->attrs, "factor", factor);
	if (rc == PL_ETYPE)
		return rc;
	if (*factor < 1)
		return PL_EINVAL;
	return message_bytes(*inst, kind, bytes);
}

static int collective_time(const pl_inst *inst, enum pl_coll_kind kind,
                           const pl_cost_model *cm, uint64_t *out)
{
	int64_t factor;
	pl_u128 bytes;
	int rc = collective_message(&inst, kind, &factor, &bytes);
	if (rc)
		return rc;
	if (cm->legacy) {
		/* W / link = c * (F-1) * B / (F * link), one ceiling (a permute
		 * sends its whole message: W = B) */
		if (kind == PL_CK_PERMUTE || kind == PL_CK_BROADCAST)
			factor = 2;
		uint64_t a = (uint64_t)(factor - 1) * (kind == PL_CK_ALL_REDUCE ? 2u : 1u);
		uint64_t f = kind == PL_CK_PERMUTE || kind == PL_CK_BROADCAST ? 1 : (uint64_t)factor;
		pl_u128 d = (pl_u128)f * (uint64_t)cm->alias[LK_LINK];
		uint64_t wire;
		if ((rc = mul_div_ceil(a, bytes, d, &wire)))
			return rc;
		pl_u128 t = (pl_u128)(uint64_t)cm->alias[LK_LATENCY] + wire;
		if (t > UINT64_MAX)
			return PL_EOVERFLOW;
		*out = (uint64_t)t;
		return PL_OK;
	}
	struct pl_coll_terms_ terms;
	pl_coll_terms_of_(cm, kind, inst, factor, (double)bytes, &terms);
	return ns_of(terms.total_ns, out);
}

/* The two-tier model of one collective of B bytes (see cost_model.h). */
static void coll_terms(const pl_cost_model *cm, enum pl_coll_kind kind,
                       const struct pl_group_shape *g, double B, struct pl_coll_terms_ *out)
{
	double F = (double)g->size, N = (double)(g->nodes > 1 ? g->nodes : 1);
	/* devices of the group on one node: the NICs it drives at once */
	double G = g->per_node > 0 ? (double)g->per_node : ceil(F / N);
	/* the share of the message each device sends, and the ring's steps */
	double share, steps;
	switch (kind) {
	case PL_CK_ALL_REDUCE: share = 2 * (F - 1) / F; steps = 2 * (F - 1); break;
	case PL_CK_PERMUTE: share = 1; steps = 1; break;
	case PL_CK_BROADCAST: share = F > 1 ? 1 : 0; steps = F - 1; break;
	default: share = (F - 1) / F; steps = F - 1; break;
	}
	const double *k = &cm->v[CK_KIND + CK_KIND_KEYS * kind];
	double latency = isnan(k[CK_KIND_LATENCY]) ? cm->v[CK_COLL_LATENCY] : k[CK_KIND_LATENCY];
	double bus = isnan(k[CK_KIND_BUS]) ? cm->v[CK_INTRA_LINK] : k[CK_KIND_BUS];
	double intra_lat = cm->v[CK_INTRA_LATENCY], inter_lat = cm->v[CK_INTER_LATENCY];
	/* the terms every algorithm pays once: touching the whole message, and
	 * the ramp to full bandwidth of a transfer sent in pipelined chunks
	 * ((sqrt(a) + sqrt(B / bw))^2 = a + B / bw + 2 sqrt(a B / bw)) */
	double extra = k[CK_KIND_RAMP] * 1000 * sqrt(B / 1e6);
	if (k[CK_KIND_COPY] > 0)
		extra += B / k[CK_KIND_COPY];
	*out = (struct pl_coll_terms_){0};
	out->nodes = (int64_t)N;
	if (N <= 1) { /* inside a node: the ring, or one step (one-shot) */
		if (B <= cm->v[CK_ONE_SHOT_KIB] * 1024 && steps > 1) {
			steps = 1;
			out->algorithm = PL_COLL_ONE_SHOT;
		}
		out->latency_ns = (latency + steps * intra_lat) * 1000;
		out->intra_ns = share * B / bus + extra;
		out->total_ns = out->latency_ns + out->intra_ns;
		return;
	}
	/* across nodes: each device of the group drives its own NIC, so a
	 * ring per NIC (NCCL's channels) carries the message at G NICs' pace;
	 * the in-node hops run at the kind's bus bandwidth, pipelined with
	 * the NIC hops, the slower tier setting the pace */
	double nic = cm->v[CK_INTER_LINK], nics = G * nic;
	double inter_steps, intra_steps;
	switch (kind) {
	case PL_CK_ALL_TO_ALL: /* every device to every other at once */
		out->algorithm = PL_COLL_DIRECT;
		out->latency_ns = (latency + intra_lat + inter_lat) * 1000;
		out->intra_ns = (G - 1) / F * B / bus + extra;
		out->inter_ns = (F - G) / F * B / nic;
		break;
	case PL_CK_PERMUTE: /* one pair per device, on its own NIC */
		out->algorithm = PL_COLL_DIRECT;
		out->latency_ns = (latency + inter_lat) * 1000;
		out->intra_ns = extra;
		out->inter_ns = B / nic;
		break;
	default:
		/* the ring crosses the NICs N - 1 times a round (an all-reduce
		 * goes round twice) */
		inter_steps = kind == PL_CK_ALL_REDUCE ? 2 * (N - 1) : N - 1;
		intra_steps = steps > inter_steps ? steps - inter_steps : 0;
		out->algorithm = PL_COLL_RING;
		out->latency_ns = (latency + intra_steps * intra_lat + inter_steps * inter_lat) * 1000;
		out->intra_ns = share * B / bus + extra;
		out->inter_ns = share * B / nics;
		break;
	}
	out->total_ns = out->latency_ns + (out->intra_ns - extra > out->inter_ns
	                                           ? out->intra_ns
	                                           : out->inter_ns + extra);
	if (kind != PL_CK_ALL_REDUCE)
		return;
	/* the hierarchical all-reduce (NCCL's tree, NVLS tree with in-switch
	 * reduction): reduce inside each node, all-reduce its 1/G across the
	 * nodes on every NIC at once, broadcast inside the node; its steps
	 * grow with log2 of the nodes, not with the ranks. NCCL takes the
	 * faster of the two for the message's size. */
	double up = cm->v[CK_NVLS] >= 1 ? 1 : G - 1;
	double tree_lat = (latency + 2 * up * intra_lat + 2 * ceil(log2(N)) * inter_lat) * 1000;
	double tree_intra = 2 * (G - 1) / G * B / bus + extra;
	double tree_inter = 2 * (N - 1) / N * B / nics;
	double tree = tree_lat + (tree_intra - extra > tree_inter ? tree_intra : tree_inter + extra);
	if (tree < out->total_ns) {
		out->algorithm = PL_COLL_TREE;
		out->latency_ns = tree_lat;
		out->intra_ns = tree_intra;
		out->inter_ns = tree_inter;
		out->total_ns = tree;
	}
}

void pl_coll_terms_of_(const pl_cost_model *cm, enum pl_coll_kind kind, const pl_inst *inst,
                       int64_t factor, double bytes, struct pl_coll_terms_ *out)
{
	struct pl_group_shape g;
	group_shape(inst, cm, kind, factor, &g);
	coll_terms(cm, kind, &g, bytes, out);
}

int pl_inst_time_role_ns_(const pl_inst *inst, const pl_cost_model *cm, enum pl_comm_role role,
                          enum pl_coll_kind kind, uint64_t *out)
{
	if (pl_inst_traits_(inst) & PL_TRAIT_TERMINATOR) {
		*out = 0;
		return PL_OK;
	}
	switch (role) {
	case PL_COMM_DONE:
		*out = 0;
		return PL_OK;
	case PL_COMM_SYNC:
	case PL_COMM_START:
		return collective_time(inst, kind, cm, out);
	default:
		return compute_time(inst, cm, out);
	}
}

int pl_inst_time_ns(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out)
{
	enum pl_coll_kind kind = PL_CK_ALL_REDUCE;
	enum pl_comm_role role = pl_comm_role_(inst, &kind);
	return pl_inst_time_role_ns_(inst, cm, role, kind, out);
}

/* ---- where the time goes ---- */

static bool contains(const char *s, size_t len, const char *want)
{
	size_t n = strlen(want);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, want, n) == 0)
			return true;
	return false;
}

int pl_inst_cost_class(const pl_inst *inst, const pl_cost_model *cm)
{
	enum pl_coll_kind kind = PL_CK_ALL_REDUCE;
	enum pl_comm_role role = pl_comm_role_(inst, &kind);
	if (role == PL_COMM_SYNC || role == PL_COMM_START)
		return PL_COST_CLASS_COLLECTIVE;
	unsigned traits = pl_inst_traits_(inst);
	if (role == PL_COMM_DONE || (traits & PL_TRAIT_TERMINATOR) || free_op(inst))
		return PL_COST_CLASS_NONE;
	if (pl_inst_hlo_op_(inst) == PL_HLO_CUSTOM_CALL) {
		double flops;
		enum pl_dclass dc;
		const char *t;
		size_t len;
		if (custom_call_flops(inst, &flops, &dc) &&
		    pl_attrs_get_string(&inst->attrs, HK(CUSTOM_CALL_TARGET), &t, &len) == PL_OK &&
		    contains(t, len, "cublas"))
			return PL_COST_CLASS_MATMUL_FP8 + (int)dc;
		return PL_COST_CLASS_CUSTOM_CALL;
	}
	if (traits & PL_TRAIT_CONTRACT)
		return PL_COST_CLASS_MATMUL_FP8 + (int)contraction_class(inst);
	/* any other kernel: compute-bound or memory-bound on the roofline */
	uint64_t bytes = 0, n = 0;
	int64_t f = 0;
	struct pl_count_attrs attrs;
	pl_count_attrs_(&inst->attrs, &attrs);
	if (pl_inst_kernel_bytes(inst, &bytes) != PL_OK ||
	    pl_masked_dynamic_instances_(inst, &attrs, &n) != PL_OK ||
	    pl_flops_(inst, &attrs, &f) != PL_OK)
		return PL_COST_CLASS_MEMORY;
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE | PL_TRAIT_DATA_MOVEMENT))
		f = 0;
	double peak = cm->legacy ? (double)cm->alias[LK_PEAK] : cm->v[CK_PEAK + PL_DC_F32] * 1000;
	double mem = cm->legacy ? (double)cm->alias[LK_MEMORY] : cm->v[CK_MEMORY];
	return (double)n * (double)f / peak > (double)bytes / mem ? PL_COST_CLASS_ELEMENTWISE
	                                                          : PL_COST_CLASS_MEMORY;
}

int pl_inst_comm_term(const pl_inst *inst, const pl_cost_model *cm, int term, double *out)
{
	enum pl_coll_kind kind = PL_CK_ALL_REDUCE;
	enum pl_comm_role role = pl_comm_role_(inst, &kind);
	if (role != PL_COMM_SYNC && role != PL_COMM_START)
		return PL_EINVAL;
	if (term == PL_COMM_TERM_KIND) {
		*out = (double)kind;
		return PL_OK;
	}
	int64_t factor;
	pl_u128 bytes;
	int rc = collective_message(&inst, kind, &factor, &bytes);
	if (rc)
		return rc;
	struct pl_coll_terms_ t = {0};
	if (cm->legacy) { /* one tier: the fixed latency and the wire */
		uint64_t total;
		if ((rc = collective_time(inst, kind, cm, &total)))
			return rc;
		t.latency_ns = (double)cm->alias[LK_LATENCY];
		t.intra_ns = (double)total - t.latency_ns;
		t.nodes = 1;
	} else {
		pl_coll_terms_of_(cm, kind, inst, factor, (double)bytes, &t);
	}
	switch (term) {
	case PL_COMM_TERM_LATENCY: *out = t.latency_ns; break;
	case PL_COMM_TERM_INTRA: *out = t.intra_ns; break;
	case PL_COMM_TERM_INTER: *out = t.inter_ns; break;
	case PL_COMM_TERM_NODES: *out = (double)t.nodes; break;
	case PL_COMM_TERM_ALGORITHM: *out = (double)t.algorithm; break;
	default: return PL_EINVAL;
	}
	return PL_OK;
}
