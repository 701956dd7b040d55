/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost.c — the cost model: its keys, presets and values
 * (passline/cost.h). The time of an instruction is cost_time.c.
 *
 * What is in force is recomputed after every change, in a fixed order:
 * the preset's values (or the defaults), then the old integer keys that
 * were set (aliases of the new ones), then the keys set by their new
 * names. So a key overrides the preset whatever order they were given in.
 */
#include "analysis/cost_model.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* ---- the old integer keys (ABI 1.1's first release) ---- */

static const pl_option_decl keys[LK__COUNT] = {
	PL_OPTION_INT("peak_gflops", "400000", 1, INT64_MAX,
	              "Peak compute in FLOP per ns (400000 is 400 TFLOP/s)."),
	PL_OPTION_INT("memory_gbps", "2000", 1, INT64_MAX,
	              "Memory bandwidth in bytes per ns."),
	PL_OPTION_INT("link_gbps", "100", 1, INT64_MAX,
	              "Collective link bandwidth in bytes per ns per rank."),
	PL_OPTION_INT("latency_ns", "10000", 0, INT64_MAX,
	              "Fixed time of every collective in ns."),
};
static const int64_t alias_defaults[LK__COUNT] = {400000, 2000, 100, 10000};

/* ---- every key, by its name ---- */

struct param {
	const char *name;
	int kind;       /* PL_COST_KEY_* */
	int index;      /* CK_* (numbers), LK_* (aliases) */
	double min, max;
	const char *help;
};

#define KIND_KEY(k, field) (CK_KIND + CK_KIND_KEYS * (k) + (field))
#define KIND_KEYS(k, n)                                                                     \
	{#n ".latency_us", PL_COST_KEY_DOUBLE, KIND_KEY(k, CK_KIND_LATENCY), 0, 1e12,            \
	 "Fixed time of one " #n " in us (default: collective.latency_us)."},                   \
	{#n ".bus_gb_per_s", PL_COST_KEY_DOUBLE, KIND_KEY(k, CK_KIND_BUS), 1e-9, 1e12,           \
	 "Bus bandwidth of " #n " inside a node, GB/s (default: intra.link_gb_per_s)."},        \
	{#n ".copy_gb_per_s", PL_COST_KEY_DOUBLE, KIND_KEY(k, CK_KIND_COPY), 0, 1e12,            \
	 "Rate at which " #n " touches its whole message, GB/s (0: no such term)."},          \
	{#n ".ramp_us", PL_COST_KEY_DOUBLE, KIND_KEY(k, CK_KIND_RAMP), 0, 1e12,                  \
	 "Time " #n " takes to reach its bandwidth, us at a 1 MB message, growing with the "    \
	 "square root of the message (0: no such term)."}

static const struct param params[] = {
	{"preset", PL_COST_KEY_TEXT, -1, 0, 0,
	 "A device whose numbers every other key starts from (see the manual)."},
	{"peak_tflops.fp8", PL_COST_KEY_DOUBLE, CK_PEAK + PL_DC_FP8, 1e-9, 1e12,
	 "Peak of 8-bit (and 4-bit, integer) contractions, TFLOP/s."},
	{"peak_tflops.bf16", PL_COST_KEY_DOUBLE, CK_PEAK + PL_DC_BF16, 1e-9, 1e12,
	 "Peak of bf16 and f16 contractions, TFLOP/s."},
	{"peak_tflops.tf32", PL_COST_KEY_DOUBLE, CK_PEAK + PL_DC_TF32, 1e-9, 1e12,
	 "Peak of f32 contractions (on TF32 tensor cores), TFLOP/s."},
	{"peak_tflops.f32", PL_COST_KEY_DOUBLE, CK_PEAK + PL_DC_F32, 1e-9, 1e12,
	 "Peak of every other op (elementwise, reductions), TFLOP/s."},
	{"peak_tflops.f64", PL_COST_KEY_DOUBLE, CK_PEAK + PL_DC_F64, 1e-9, 1e12,
	 "Peak of f64 work, TFLOP/s."},
	{"memory_gb_per_s", PL_COST_KEY_DOUBLE, CK_MEMORY, 1e-9, 1e12,
	 "Memory bandwidth, GB/s (= bytes per ns)."},
	{"ramp_us.fp8", PL_COST_KEY_DOUBLE, CK_RAMP + PL_DC_FP8, 0, 1e12,
	 "Time an 8-bit contraction takes to reach its peak, us at 1e12 FLOP, growing with "
	 "the square root of its FLOP (0: none)."},
	{"ramp_us.bf16", PL_COST_KEY_DOUBLE, CK_RAMP + PL_DC_BF16, 0, 1e12,
	 "The same for bf16 and f16 contractions."},
	{"ramp_us.tf32", PL_COST_KEY_DOUBLE, CK_RAMP + PL_DC_TF32, 0, 1e12,
	 "The same for f32 contractions."},
	{"ramp_us.f32", PL_COST_KEY_DOUBLE, CK_RAMP + PL_DC_F32, 0, 1e12,
	 "The same for every other kernel."},
	{"ramp_us.f64", PL_COST_KEY_DOUBLE, CK_RAMP + PL_DC_F64, 0, 1e12,
	 "The same for f64 work."},
	{"kernel_floor_us", PL_COST_KEY_DOUBLE, CK_FLOOR, 0, 1e12,
	 "Time every kernel takes besides its roofline (launch, tail), us."},
	{"devices_per_node", PL_COST_KEY_INT, CK_DEVICES_PER_NODE, 1, 1 << 30,
	 "Devices joined by the intra-node links; devices d and e share a node when "
	 "d / devices_per_node == e / devices_per_node."},
	{"intra.link_gb_per_s", PL_COST_KEY_DOUBLE, CK_INTRA_LINK, 1e-9, 1e12,
	 "Bus bandwidth of a collective inside a node, GB/s per device."},
	{"intra.latency_us", PL_COST_KEY_DOUBLE, CK_INTRA_LATENCY, 0, 1e12,
	 "Latency of one algorithm step inside a node, us."},
	{"inter.link_gb_per_s", PL_COST_KEY_DOUBLE, CK_INTER_LINK, 1e-9, 1e12,
	 "Bus bandwidth of a collective whose group spans nodes (the NIC), GB/s per device."},
	{"inter.latency_us", PL_COST_KEY_DOUBLE, CK_INTER_LATENCY, 0, 1e12,
	 "Latency of one algorithm step between nodes, us."},
	{"collective.latency_us", PL_COST_KEY_DOUBLE, CK_COLL_LATENCY, 0, 1e12,
	 "Fixed time of every collective (launch and synchronisation), us."},
	{"one_shot_max_kib", PL_COST_KEY_DOUBLE, CK_ONE_SHOT_KIB, 0, 1e12,
	 "Messages up to this size (KiB) go in one step (one-shot) instead of a ring."},
	KIND_KEYS(PL_CK_ALL_GATHER, all_gather),
	KIND_KEYS(PL_CK_REDUCE_SCATTER, reduce_scatter),
	KIND_KEYS(PL_CK_ALL_REDUCE, all_reduce),
	KIND_KEYS(PL_CK_ALL_TO_ALL, all_to_all),
	KIND_KEYS(PL_CK_PERMUTE, collective_permute),
	KIND_KEYS(PL_CK_BROADCAST, collective_broadcast),
	{"device_memory_gb", PL_COST_KEY_DOUBLE, CK_DEVICE_MEMORY, 0, 1e12,
	 "Memory of one device, GB (1e9 bytes; 0: unknown): a step whose peak passes it "
	 "times memory_fraction gets a warning."},
	{"memory_fraction", PL_COST_KEY_DOUBLE, CK_MEMORY_FRACTION, 1e-9, 1,
	 "Fraction of device_memory_gb a program may hold (JAX's default 0.75; the host "
	 "takes XLA_PYTHON_CLIENT_MEM_FRACTION when set)."},
	{"peak_gflops", PL_COST_KEY_ALIAS, LK_PEAK, 1, 9223372036854775807.0,
	 "Old integer key: FLOP per ns, sets every peak_tflops.* to it / 1000."},
	{"memory_gbps", PL_COST_KEY_ALIAS, LK_MEMORY, 1, 9223372036854775807.0,
	 "Old integer key: bytes per ns, sets memory_gb_per_s."},
	{"link_gbps", PL_COST_KEY_ALIAS, LK_LINK, 1, 9223372036854775807.0,
	 "Old integer key: bytes per ns, sets intra.link_gb_per_s and inter.link_gb_per_s."},
	{"latency_ns", PL_COST_KEY_ALIAS, LK_LATENCY, 0, 9223372036854775807.0,
	 "Old integer key: ns, sets collective.latency_us to it / 1000."},
};
enum { NPARAMS = sizeof params / sizeof params[0] };

#define KIND_DEFAULTS NAN, NAN, 0, 0
#define DEFAULT_VALUES                                                                     \
	{400, 400, 400, 400, 400, 2000, 0, 8, 100, 0, 100, 0, 10, 0, KIND_DEFAULTS,          \
	 KIND_DEFAULTS, KIND_DEFAULTS, KIND_DEFAULTS, KIND_DEFAULTS, KIND_DEFAULTS, 0, 0, 0, 0, 0, \
	 0, 0.75}
_Static_assert(sizeof((double[])DEFAULT_VALUES) / sizeof(double) == CK__COUNT,
               "a default for every key");
static const pl_cost_model defaults = {
	.preset = -1,
	.base = DEFAULT_VALUES,
	.alias = {400000, 2000, 100, 10000},
	.v = DEFAULT_VALUES,
	.legacy = true,
};

static void recompute(pl_cost_model *cm)
{
	if (cm->preset >= 0)
		memcpy(cm->base, pl_cost_presets_[cm->preset].v, sizeof cm->base);
	else
		memcpy(cm->base, defaults.base, sizeof cm->base);
	memcpy(cm->v, cm->base, sizeof cm->v);
	for (int a = 0; a < LK__COUNT; a++) {
		if (!cm->alias_set[a])
			continue;
		double x = (double)cm->alias[a];
		switch (a) {
		case LK_PEAK:
			for (int d = 0; d < PL_DC__COUNT; d++)
				cm->v[CK_PEAK + d] = x / 1000;
			break;
		case LK_MEMORY: cm->v[CK_MEMORY] = x; break;
		case LK_LINK: cm->v[CK_INTRA_LINK] = cm->v[CK_INTER_LINK] = x; break;
		default: cm->v[CK_COLL_LATENCY] = x / 1000; break;
		}
	}
	bool any = false;
	for (int k = 0; k < CK__COUNT; k++)
		if (cm->set[k]) {
			cm->v[k] = cm->user[k];
			/* the device's memory takes no part in the time */
			any = any || (k != CK_DEVICE_MEMORY && k != CK_MEMORY_FRACTION);
		}
	cm->legacy = cm->preset < 0 && !any;
}

const pl_cost_model *pl_cost_model_default_(void) { return &defaults; }

pl_cost_model *pl_cost_model_new(void)
{
	pl_cost_model *cm = malloc(sizeof *cm);
	if (cm) {
		*cm = defaults;
		recompute(cm);
	}
	return cm;
}

void pl_cost_model_free(pl_cost_model *cm) { free(cm); }

size_t pl_cost_model_num_keys(void) { return LK__COUNT; }

const pl_option_decl *pl_cost_model_key(size_t i) { return i < LK__COUNT ? &keys[i] : NULL; }

static int param_index(const char *key)
{
	for (int k = 0; key && k < NPARAMS; k++)
		if (strcmp(params[k].name, key) == 0)
			return k;
	return -1;
}

static int set_number(pl_cost_model *cm, const struct param *p, double value)
{
	if (!(value >= p->min && value <= p->max))
		return PL_EINVAL; /* NaN too */
	if (p->kind == PL_COST_KEY_ALIAS || p->kind == PL_COST_KEY_INT) {
		if (value != floor(value))
			return PL_EINVAL;
	}
	if (p->kind == PL_COST_KEY_ALIAS) {
		cm->alias[p->index] = (int64_t)value;
		cm->alias_set[p->index] = true;
	} else {
		cm->user[p->index] = value;
		cm->set[p->index] = true;
	}
	recompute(cm);
	return PL_OK;
}

int pl_cost_model_set(pl_cost_model *cm, const char *key, int64_t value)
{
	int k = param_index(key);
	if (k < 0 || params[k].kind == PL_COST_KEY_TEXT)
		return PL_ENOTFOUND;
	if (params[k].kind == PL_COST_KEY_ALIAS) {
		/* exact for every int64, which a double is not */
		if (value < (int64_t)params[k].min)
			return PL_EINVAL;
		cm->alias[params[k].index] = value;
		cm->alias_set[params[k].index] = true;
		recompute(cm);
		return PL_OK;
	}
	return set_number(cm, &params[k], (double)value);
}

int pl_cost_model_get(const pl_cost_model *cm, const char *key, int64_t *out)
{
	int k = param_index(key);
	if (k < 0 || params[k].kind == PL_COST_KEY_TEXT)
		return PL_ENOTFOUND;
	if (params[k].kind == PL_COST_KEY_ALIAS) {
		int a = params[k].index;
		if (cm->legacy) {
			*out = cm->alias_set[a] ? cm->alias[a] : alias_defaults[a];
			return PL_OK;
		}
		double x = a == LK_PEAK     ? cm->v[CK_PEAK + PL_DC_BF16] * 1000
		           : a == LK_MEMORY ? cm->v[CK_MEMORY]
		           : a == LK_LINK   ? cm->v[CK_INTRA_LINK]
		                            : cm->v[CK_COLL_LATENCY] * 1000;
		*out = (int64_t)llround(x);
		return PL_OK;
	}
	double d;
	pl_cost_model_get_double(cm, key, &d);
	*out = (int64_t)llround(d);
	return PL_OK;
}

/* ---- ABI 1.1 additions: every key, decimals, presets ---- */

size_t pl_cost_model_num_params(void) { return NPARAMS; }

const char *pl_cost_model_param_name(size_t i) { return i < NPARAMS ? params[i].name : NULL; }

int pl_cost_model_param_kind(size_t i) { return i < NPARAMS ? params[i].kind : 0; }

const char *pl_cost_model_param_help(size_t i) { return i < NPARAMS ? params[i].help : NULL; }

size_t pl_cost_model_num_presets(void) { return pl_cost_num_presets_; }

const char *pl_cost_model_preset_name(size_t i)
{
	return i < pl_cost_num_presets_ ? pl_cost_presets_[i].name : NULL;
}

const char *pl_cost_model_preset_source(size_t i)
{
	return i < pl_cost_num_presets_ ? pl_cost_presets_[i].source : NULL;
}

const char *pl_cost_model_preset(const pl_cost_model *cm)
{
	return cm->preset >= 0 ? pl_cost_presets_[cm->preset].name : NULL;
}

int pl_cost_model_set_double(pl_cost_model *cm, const char *key, double value)
{
	int k = param_index(key);
	if (k < 0 || params[k].kind == PL_COST_KEY_TEXT)
		return PL_ENOTFOUND;
	return set_number(cm, &params[k], value);
}

int pl_cost_model_get_double(const pl_cost_model *cm, const char *key, double *out)
{
	int k = param_index(key);
	if (k < 0 || params[k].kind == PL_COST_KEY_TEXT)
		return PL_ENOTFOUND;
	if (params[k].kind == PL_COST_KEY_ALIAS) {
		int64_t v;
		pl_cost_model_get(cm, key, &v);
		*out = (double)v;
		return PL_OK;
	}
	int i = params[k].index;
	double v = cm->v[i];
	if (isnan(v)) /* a kind's latency or bandwidth that takes the general one */
		v = (i - CK_KIND) % CK_KIND_KEYS == CK_KIND_LATENCY ? cm->v[CK_COLL_LATENCY]
		                                         : cm->v[CK_INTRA_LINK];
	*out = v;
	return PL_OK;
}

static void say(char *err, size_t errlen, const char *fmt, ...) PL_PRINTF(3, 4);
static void say(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int pl_cost_model_set_text(pl_cost_model *cm, const char *key, const char *value, char *err,
                           size_t errlen)
{
	int k = param_index(key);
	if (k < 0) {
		say(err, errlen, "unknown key '%s'%s", key ? key : "", "");
		return PL_ENOTFOUND;
	}
	const struct param *p = &params[k];
	if (p->kind == PL_COST_KEY_TEXT) {
		for (size_t i = 0; i < pl_cost_num_presets_; i++)
			if (strcasecmp(pl_cost_presets_[i].name, value) == 0) { /* H100 too */
				cm->preset = (int)i;
				recompute(cm);
				return PL_OK;
			}
		char names[256] = "";
		for (size_t i = 0; i < pl_cost_num_presets_; i++) {
			size_t n = strlen(names);
			snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
			         pl_cost_presets_[i].name);
		}
		say(err, errlen, "unknown preset '%s' (known: %s)", value, names);
		return PL_EINVAL;
	}
	if (p->kind == PL_COST_KEY_ALIAS) {
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (end == value || *end || errno) {
			say(err, errlen, "'%s' is not an integer%s", value, "");
			return PL_EINVAL;
		}
		if (v < (long long)p->min) {
			char min[32];
			snprintf(min, sizeof min, "%.0f", p->min);
			say(err, errlen, "%s is below the minimum %s", value, min);
			return PL_EINVAL;
		}
		return pl_cost_model_set(cm, key, v);
	}
	char *end;
	errno = 0;
	double v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v)) {
		say(err, errlen, "'%s' is not a %s", value,
		    p->kind == PL_COST_KEY_INT ? "whole number" : "decimal number");
		return PL_EINVAL;
	}
	if (p->kind == PL_COST_KEY_INT && v != floor(v)) {
		say(err, errlen, "'%s' is not a %s", value, "whole number");
		return PL_EINVAL;
	}
	if (v < p->min || v > p->max) {
		char lim[64];
		snprintf(lim, sizeof lim, "%.9g", v < p->min ? p->min : p->max);
		if (v < p->min)
			say(err, errlen, "%s is below the minimum %s", value, lim);
		else
			say(err, errlen, "%s is above the maximum %s", value, lim);
		return PL_EINVAL;
	}
	return set_number(cm, p, v);
}

bool pl_cost_model_is_set(const pl_cost_model *cm, const char *key)
{
	int k = param_index(key);
	if (k < 0)
		return false;
	const struct param *p = &params[k];
	if (p->kind == PL_COST_KEY_TEXT)
		return cm->preset >= 0;
	if (p->kind == PL_COST_KEY_ALIAS)
		return cm->alias_set[p->index] && cm->alias[p->index] != alias_defaults[p->index];
	int i = p->index;
	if (!cm->set[i])
		return false;
	double b = cm->base[i];
	return isnan(b) || b != cm->user[i];
}

int pl_cost_model_format(const pl_cost_model *cm, const char *key, char *buf, size_t len)
{
	int k = param_index(key);
	if (k < 0)
		return PL_ENOTFOUND;
	int n;
	if (params[k].kind == PL_COST_KEY_TEXT) {
		n = snprintf(buf, len, "%s", cm->preset >= 0 ? pl_cost_presets_[cm->preset].name : "");
	} else if (params[k].kind == PL_COST_KEY_ALIAS) {
		int64_t v;
		pl_cost_model_get(cm, key, &v);
		n = snprintf(buf, len, "%lld", (long long)v);
	} else {
		double v;
		pl_cost_model_get_double(cm, key, &v);
		/* the shortest decimal that reads back to the same double */
		n = 0;
		for (int prec = 6; prec <= 17; prec++) {
			n = snprintf(buf, len, "%.*g", prec, v);
			if (n < 0 || (size_t)n >= len || strtod(buf, NULL) == v)
				break;
		}
	}
	return n < 0 || (size_t)n >= len ? PL_EINVAL : PL_OK;
}

bool pl_cost_model_is_exact(const pl_cost_model *cm) { return cm->legacy; }
