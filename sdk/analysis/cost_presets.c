/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_presets.c — the presets of the cost model.
 *
 * The collective terms and the matmul peaks and floor of h100 and b200 are
 * fitted to measured single collectives and matmuls by
 * bench/fit_cost_model.py (re-run it and paste its table here); the
 * memory bandwidth, f32/f64 peaks and the inter-node terms come from the
 * vendors' datasheets (the measurements are all inside one node). */
#include "analysis/cost_model.h"

#include <math.h>

/* Keys in the order of enum CK_*. */
#define KIND(lat, bus, copy) (lat), (bus), (copy)

const struct pl_cost_preset pl_cost_presets_[] = {
	/* BEGIN FITTED PRESETS */
	{"h100",
	 "NVIDIA H100 SXM: collectives and matmuls fitted by bench/fit_cost_model.py; "
	 "memory, f32, f64 and NIC from the datasheet",
	 {1979, 989, 494, 67, 67, 3350, 2, 8, 450, 0, 50, 5, 10, 0,
	  KIND(10, 450, 0), KIND(10, 450, 0), KIND(10, 450, 0), KIND(10, 450, 0),
	  KIND(10, 450, 0), KIND(10, 450, 0)}},
	{"b200",
	 "NVIDIA B200: collectives and matmuls fitted by bench/fit_cost_model.py; "
	 "memory, f32, f64 and NIC from the datasheet",
	 {4500, 2250, 1100, 80, 40, 8000, 2, 8, 900, 0, 50, 5, 10, 0,
	  KIND(10, 900, 0), KIND(10, 900, 0), KIND(10, 900, 0), KIND(10, 900, 0),
	  KIND(10, 900, 0), KIND(10, 900, 0)}},
	/* END FITTED PRESETS */
};
const size_t pl_cost_num_presets_ = sizeof pl_cost_presets_ / sizeof pl_cost_presets_[0];
