/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_presets.c — the presets of the cost model.
 *
 * Between the BEGIN and END lines, the table bench/fit_cost_model.py
 * writes (--write): the collective terms, the matmul peaks (fp8, bf16,
 * tf32), the kernel floor and the memory bandwidth of h100 and b200 are
 * fitted to measured single collectives and matmuls; the f32 and f64
 * peaks, NVLink and the inter-node terms come from the vendors' datasheets
 * (every measurement is inside one node, so the inter-node terms are not
 * calibrated). A kind's NAN latency or bandwidth takes the general key
 * (collective.latency_us, intra.link_gb_per_s). */
#include "analysis/cost_model.h"

#include <math.h>

/* Keys in the order of enum CK_*. */
#define KIND(lat, bus, copy) (lat), (bus), (copy)

const struct pl_cost_preset pl_cost_presets_[] = {
	/* BEGIN FITTED PRESETS */
	{"h100",
	 "NVIDIA H100 SXM: collectives, matmul peaks, floor and memory fitted by bench/fit_cost_model.py; f32, f64, NVLink and NIC from the datasheet",
	 {2614, 784, 283.1, 67, 67, 3350, 5.6, 8, 450, 2, 50, 5, 12.13, 0,
	  KIND(12.13, 595.8, 865.1), KIND(16.52, 1e+09, 356.8), KIND(12.03, 1493, 249.2),
	  KIND(24.1, 438.6, 1451), KIND(10.68, 252.9, 0), KIND(NAN, NAN, 0)}},
	{"b200",
	 "NVIDIA B200: collectives, matmul peaks, floor and memory fitted by bench/fit_cost_model.py; f32, f64, NVLink and NIC from the datasheet",
	 {2857, 1428, 698.4, 80, 40, 5374, 5.8, 8, 900, 1.5, 50, 5, 24.73, 0,
	  KIND(23.26, 1281, 1173), KIND(25.97, 1149, 1358), KIND(24.73, 867.8, 858.5),
	  KIND(30.28, 1e+09, 636.9), KIND(15.98, 442, 0), KIND(NAN, NAN, 0)}},
	/* END FITTED PRESETS */
};
const size_t pl_cost_num_presets_ = sizeof pl_cost_presets_ / sizeof pl_cost_presets_[0];
