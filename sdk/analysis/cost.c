/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost.c — the cost model and the time of one instruction, in exact
 * integer arithmetic (passline/cost.h). */
#include "ir/internal.h"

#include <stdlib.h>

enum { K_PEAK, K_MEMORY, K_LINK, K_LATENCY, NKEYS };

struct pl_cost_model {
	int64_t v[NKEYS];
};

static const pl_option_decl keys[NKEYS] = {
	PL_OPTION_INT("peak_gflops", "400000", 1, INT64_MAX,
	              "Peak compute in FLOP per ns (400000 is 400 TFLOP/s)."),
	PL_OPTION_INT("memory_gbps", "2000", 1, INT64_MAX,
	              "Memory bandwidth in bytes per ns."),
	PL_OPTION_INT("link_gbps", "100", 1, INT64_MAX,
	              "Collective link bandwidth in bytes per ns per rank."),
	PL_OPTION_INT("latency_ns", "10000", 0, INT64_MAX,
	              "Fixed time of every collective in ns."),
};

static const pl_cost_model defaults = {{400000, 2000, 100, 10000}};

const pl_cost_model *pl_cost_model_default_(void) { return &defaults; }

pl_cost_model *pl_cost_model_new(void)
{
	pl_cost_model *cm = malloc(sizeof *cm);
	if (cm)
		*cm = defaults;
	return cm;
}

void pl_cost_model_free(pl_cost_model *cm) { free(cm); }

size_t pl_cost_model_num_keys(void) { return NKEYS; }

const pl_option_decl *pl_cost_model_key(size_t i) { return i < NKEYS ? &keys[i] : NULL; }

static int key_index(const char *key)
{
	for (int k = 0; k < NKEYS; k++)
		if (key && strcmp(keys[k].name, key) == 0)
			return k;
	return -1;
}

int pl_cost_model_set(pl_cost_model *cm, const char *key, int64_t value)
{
	int k = key_index(key);
	if (k < 0)
		return PL_ENOTFOUND;
	if (value < keys[k].min || value > keys[k].max)
		return PL_EINVAL;
	cm->v[k] = value;
	return PL_OK;
}

int pl_cost_model_get(const pl_cost_model *cm, const char *key, int64_t *out)
{
	int k = key_index(key);
	if (k < 0)
		return PL_ENOTFOUND;
	*out = cm->v[k];
	return PL_OK;
}

/* ---- the time of an instruction ---- */

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

/* The sum of the bytes of a collective's results (gathers) or operands. */
static int collective_bytes(const pl_inst *inst, bool results, pl_u128 *out)
{
	size_t n = results ? inst->nres : inst->nops;
	pl_u128 sum = 0;
	for (size_t k = 0; k < n; k++) {
		const pl_value *v = results ? &pl_inst_res_(inst)[k] : pl_use_val_(&pl_inst_ops_(inst)[k]);
		uint64_t b;
		int rc = pl_type_num_bytes(v->type, &b);
		if (rc)
			return rc;
		sum += b; /* at most 2^32 terms below 2^63 */
	}
	*out = sum;
	return PL_OK;
}

static int collective_time(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out)
{
	int64_t factor = 1;
	int rc = pl_attrs_get_int(&inst->attrs, "factor", &factor);
	if (rc == PL_ETYPE)
		return rc;
	if (factor < 1)
		return PL_EINVAL;
	bool gather = inst->op == PL_OP_ALL_GATHER || inst->op == PL_OP_ALL_GATHER_START;
	bool all_reduce = inst->op == PL_OP_ALL_REDUCE || inst->op == PL_OP_ALL_REDUCE_START;
	pl_u128 bytes;
	if ((rc = collective_bytes(inst, gather, &bytes)))
		return rc;
	/* W / link = c * (F-1) * B / (F * link), one ceiling */
	uint64_t a = (uint64_t)(factor - 1) * (all_reduce ? 2u : 1u); /* < 2^64 */
	pl_u128 d = (pl_u128)(uint64_t)factor * (uint64_t)cm->v[K_LINK];
	uint64_t wire;
	if ((rc = mul_div_ceil(a, bytes, d, &wire)))
		return rc;
	pl_u128 t = (pl_u128)(uint64_t)cm->v[K_LATENCY] + wire;
	if (t > UINT64_MAX)
		return PL_EOVERFLOW;
	*out = (uint64_t)t;
	return PL_OK;
}

int pl_inst_time_ns(const pl_inst *inst, const pl_cost_model *cm, uint64_t *out)
{
	unsigned traits = pl_op_traits(pl_inst_op_(inst));
	if (traits & (PL_TRAIT_COLLECTIVE_DONE | PL_TRAIT_TERMINATOR | PL_TRAIT_DATA_MOVEMENT)) {
		*out = 0;
		return PL_OK;
	}
	if (traits & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START))
		return collective_time(inst, cm, out);
	/* one scan of the dictionary for the count and the flops */
	struct pl_count_attrs attrs;
	pl_count_attrs_(&inst->attrs, &attrs);
	uint64_t n;
	int rc = pl_masked_dynamic_instances_(inst, &attrs, &n);
	if (rc)
		return rc;
	pl_u128 work;
	int64_t rate;
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE)) {
		const pl_value *v = NULL;
		if (traits & PL_TRAIT_LOAD)
			v = inst->nres ? &pl_inst_res_(inst)[0] : NULL;
		else
			v = inst->nops ? pl_use_val_(&pl_inst_ops_(inst)[0]) : NULL;
		if (!v)
			return PL_EINVAL;
		work = (pl_u128)n * pl_dtype_size((pl_dtype)v->type->dtype);
		rate = cm->v[K_MEMORY];
	} else {
		int64_t flops;
		if ((rc = pl_flops_(inst, &attrs, &flops)))
			return rc;
		work = (pl_u128)n * (uint64_t)flops; /* below 2^127 */
		rate = cm->v[K_PEAK];
	}
	pl_u128 t = ceil_div(work, (pl_u128)(uint64_t)rate);
	if (t > UINT64_MAX)
		return PL_EOVERFLOW;
	*out = (uint64_t)t;
	return PL_OK;
}
