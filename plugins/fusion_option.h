/* SPDX-License-Identifier: MIT */
/* plugins/fusion_option.h — the options of the passes that simulate a
 * schedule (ScheduleEstimate, Timeline, LatencyHidingScheduler) for the
 * fusion model, read one way so that the three time a function alike:
 * `fusion` (auto, on, off) and `kernel_floor_ns`. */
#ifndef PLUGINS_FUSION_OPTION_H
#define PLUGINS_FUSION_OPTION_H

#include <passline/passline.h>

#include <stdint.h>
#include <string.h>

static const char *const fusion_choices[] = {"auto", "on", "off", NULL};

/* The two options; what says what the model is used for. */
#define FUSION_OPTIONS(what)                                                             \
	PL_OPTION_ENUM("fusion", "auto", fusion_choices, what),                              \
	    PL_OPTION_INT("kernel_floor_ns", "1000", 0, INT64_MAX,                           \
	                  "Time every kernel of the fusion model takes at least (ns).")

/* The mode and the floor the pass was given. */
static inline pl_fusion_mode fusion_option(pl_pass_ctx *ctx, uint64_t *floor_ns)
{
	const char *mode = "auto";
	int64_t floor = 1000;
	pl_ctx_get_string(ctx, "fusion", &mode);
	pl_ctx_get_int(ctx, "kernel_floor_ns", &floor);
	*floor_ns = (uint64_t)floor;
	return strcmp(mode, "on") == 0 ? PL_FUSION_ON : strcmp(mode, "off") == 0 ? PL_FUSION_OFF
	                                                                         : PL_FUSION_AUTO;
}

/* Whether m came from HLO: a function is its entry computation. */
static inline bool fusion_hlo_module(const pl_module *m)
{
	return pl_module_hlo_entry(m) != NULL;
}

/* Whether f is costed as the fusion model's kernels under mode: on, or
 * auto for an HLO function (hlo says the module is one) without fusion
 * instructions, which a compiler has not fused yet. */
static inline bool fusion_applies(pl_fusion_mode mode, bool hlo, const pl_func *f)
{
	return mode == PL_FUSION_ON || (mode == PL_FUSION_AUTO && hlo && !pl_func_has_fusion(f));
}

#endif
