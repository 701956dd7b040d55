/* SPDX-License-Identifier: MIT */
/* host/cost_default.c — the cost model a pipeline runs under, and the
 * warnings for keys set beyond their physical bounds. */
#include "host.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The device a pipeline runs under when it names none: a real one, not
 * the library's defaults (a made-up device of 400 TFLOP/s for every dtype
 * and no kernel floor op by op), which stay for the exact integer model
 * only. */
static const char default_preset[] = "h100";

const pl_cost_model *pipeline_run_cost_model(struct pipeline *pl)
{
	if (pl->run_cost_model)
		return pl->run_cost_model;
	const pl_cost_model *cm = pl->cost_model;
	/* a pipeline that names a preset, or keeps the exact integer model by
	 * the old integer keys (at any value, none by its new name), runs
	 * under its own */
	if (cm && (pl_cost_model_preset(cm) || (pl->old_keys && pl_cost_model_is_exact(cm))))
		return cm;
	/* else the default device, under the keys the pipeline set (none, or
	 * some by name: those, and old ones it set beside them, override it) */
	pl_cost_model *run = pl_cost_model_new();
	if (!run || pl_cost_model_set_text(run, "preset", default_preset, NULL, 0) != PL_OK) {
		pl_cost_model_free(run);
		return cm;
	}
	for (size_t k = 0; cm && k < pl_cost_model_num_params(); k++) {
		const char *name = pl_cost_model_param_name(k);
		char value[64];
		if ((pl_cost_model_is_set(cm, name) || pipeline_old_key_set(pl, name)) &&
		    pl_cost_model_format(cm, name, value, sizeof value) == PL_OK)
			pl_cost_model_set_text(run, name, value, NULL, 0);
	}
	pl->run_cost_model = run;
	return run;
}

pl_cost_model *pipeline_take_run_cost_model(struct pipeline *pl)
{
	pl_cost_model *cm = (pl_cost_model *)pipeline_run_cost_model(pl);
	if (cm && cm == pl->run_cost_model)
		pl->run_cost_model = NULL;
	else if (cm && cm == pl->cost_model)
		pl->cost_model = NULL;
	return cm;
}

void pipeline_warn_cost_bounds(struct pipeline *pl)
{
	const pl_cost_model *cm = pipeline_run_cost_model(pl);
	if (!cm || !pl->cost_model)
		return;
	for (size_t k = 0; k < pl_cost_model_num_params(); k++) {
		const char *name = pl_cost_model_param_name(k);
		double v, bound;
		char what[128];
		if (!pl_cost_model_is_set(pl->cost_model, name) ||
		    pl_cost_model_get_double(cm, name, &v) != PL_OK ||
		    pl_cost_model_bound(cm, name, &bound, what, sizeof what) != PL_OK ||
		    !(v > bound * (1 + 1e-9)))
			continue;
		host_warning("cost_model.%s = %g %s is above its physical bound, %s (%g %s)", name,
		             v, pl_cost_model_param_unit(k), what, bound, pl_cost_model_param_unit(k));
	}
}

/* "UNIT; default D; h100 X, b200 Y; at most WHAT (h100 A, b200 B)" of key
 * k, for the listing of --list-passes and the manual. */
void cost_key_summary(size_t k, char *buf, size_t len)
{
	const char *name = pl_cost_model_param_name(k);
	size_t n = 0;
	char v[64];
#define PUT(...)                                                                           \
	do {                                                                               \
		int w_ = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__);             \
		if (w_ > 0)                                                                \
			n += (size_t)w_;                                                   \
	} while (0)
	if (len)
		buf[0] = '\0';
	pl_cost_model *cm = pl_cost_model_new();
	if (!cm)
		return;
	PUT("%s", pl_cost_model_param_unit(k));
	if (pl_cost_model_format(cm, name, v, sizeof v) == PL_OK)
		PUT("; default %s", v);
	size_t np = pl_cost_model_num_presets();
	for (size_t p = 0; p < np; p++) {
		pl_cost_model_set_text(cm, "preset", pl_cost_model_preset_name(p), NULL, 0);
		if (pl_cost_model_format(cm, name, v, sizeof v) == PL_OK)
			PUT("%s %s %s", p ? "," : ";", pl_cost_model_preset_name(p), v);
	}
	char what[128];
	double b;
	for (size_t p = 0; p < np; p++) {
		pl_cost_model_set_text(cm, "preset", pl_cost_model_preset_name(p), NULL, 0);
		if (pl_cost_model_bound(cm, name, &b, what, sizeof what) != PL_OK)
			break;
		/* a datasheet's figure differs by device; a key's does not */
		char *dev = strstr(what, "'s ");
		bool sheet = dev && strncmp(what, "the ", 4) == 0;
		if (p == 0)
			PUT("; at most %s%s", sheet ? "the device's " : "", sheet ? dev + 3 : what);
		if (sheet)
			PUT("%s%s %g%s", p ? ", " : " (", pl_cost_model_preset_name(p), b,
			    p + 1 == np ? ")" : "");
	}
	pl_cost_model_free(cm);
#undef PUT
}
