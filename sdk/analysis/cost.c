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
	const char *unit;
	enum pl_cost_bound bound;
	int ref;          /* the key a TWICE or ATMOST bound is of */
	const char *what; /* a SHEET bound: the datasheet figure's name */
	const char *help;
};

#define TYPE_DOUBLE PL_COST_KEY_DOUBLE
#define TYPE_INT PL_COST_KEY_INT
#define NONE PL_CB_NONE, -1, NULL
#define SHEET(a, b, w) PL_CB_SHEET, -1, w
#define TWICE(id) PL_CB_TWICE, CK_##id, NULL
#define ATMOST(id) PL_CB_ATMOST, CK_##id, NULL
/* every key at most 1e12 (a fraction at most 1: param_max) */
#define X(id, name, type, unit, min, def, vals, bound, help)                                 \
	{name, TYPE_##type, CK_##id, min, 1e12, unit, bound, help},

static const struct param params[] = {
	{"preset", PL_COST_KEY_TEXT, -1, 0, 0, "", PL_CB_NONE, -1, NULL,
	 "A device whose numbers every other key starts from (see the manual)."},
#include "analysis/cost_keys.def"
	{"peak_gflops", PL_COST_KEY_ALIAS, LK_PEAK, 1, 9223372036854775807.0, "FLOP/ns", NONE,
	 "Old integer key: FLOP per ns, sets every peak_tflops.* to it / 1000."},
	{"memory_gbps", PL_COST_KEY_ALIAS, LK_MEMORY, 1, 9223372036854775807.0, "bytes/ns", NONE,
	 "Old integer key: bytes per ns, sets memory_gb_per_s."},
	{"link_gbps", PL_COST_KEY_ALIAS, LK_LINK, 1, 9223372036854775807.0, "bytes/ns", NONE,
	 "Old integer key: bytes per ns, sets intra.link_gb_per_s and inter.link_gb_per_s."},
	{"latency_ns", PL_COST_KEY_ALIAS, LK_LATENCY, 0, 9223372036854775807.0, "ns", NONE,
	 "Old integer key: ns, sets collective.latency_us to it / 1000."},
};
enum { NPARAMS = sizeof params / sizeof params[0] };
#undef X
#undef NONE
#undef SHEET
#undef TWICE
#undef ATMOST

#define X(id, name, type, unit, min, def, vals, bound, help) [CK_##id] = def,
static const pl_cost_model defaults = {
	.preset = -1,
	.base = {
#include "analysis/cost_keys.def"
	},
	.alias = {400000, 2000, 100, 10000},
	.v = {
#include "analysis/cost_keys.def"
	},
	.legacy = true,
};
#undef X

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

/* The most a key may be set to: 1 for a key whose unit is a fraction. */
static double param_max(const struct param *p)
{
	return strcmp(p->unit, "fraction") == 0 ? 1 : p->max;
}

static int set_number(pl_cost_model *cm, const struct param *p, double value)
{
	if (!(value >= p->min && value <= param_max(p)))
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

const char *pl_cost_model_param_unit(size_t i) { return i < NPARAMS ? params[i].unit : NULL; }

static const char *param_name_of(int ck)
{
	for (int k = 0; k < NPARAMS; k++)
		if (params[k].index == ck && (params[k].kind == PL_COST_KEY_DOUBLE ||
		                              params[k].kind == PL_COST_KEY_INT))
			return params[k].name;
	return "?";
}

int pl_cost_model_bound(const pl_cost_model *cm, const char *key, double *bound, char *what,
                        size_t len)
{
	int k = param_index(key);
	if (k < 0)
		return PL_ENOTFOUND;
	const struct param *p = &params[k];
	double b = NAN;
	char words[128] = "";
	switch (p->bound) {
	case PL_CB_SHEET:
		if (cm->preset >= 0) {
			b = pl_cost_presets_[cm->preset].sheet[p->index];
			snprintf(words, sizeof words, "the %s's %s", pl_cost_presets_[cm->preset].name,
			         p->what);
		}
		break;
	case PL_CB_TWICE:
		b = 2 * cm->v[p->ref];
		snprintf(words, sizeof words, "twice %s", param_name_of(p->ref));
		break;
	case PL_CB_ATMOST:
		b = cm->v[p->ref];
		snprintf(words, sizeof words, "%s", param_name_of(p->ref));
		break;
	default:
		break;
	}
	if (isnan(b))
		return PL_ENOTFOUND;
	*bound = b;
	if (what && len)
		snprintf(what, len, "%s", words);
	return PL_OK;
}

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
	if (v < p->min || v > param_max(p)) {
		char lim[64];
		snprintf(lim, sizeof lim, "%.9g", v < p->min ? p->min : param_max(p));
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
