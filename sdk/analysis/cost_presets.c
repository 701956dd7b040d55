/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_presets.c — the presets of the cost model.
 *
 * Between the BEGIN and END lines, the table bench/fit_cost_model.py
 * writes (--write): the collective terms, the matmul peaks (fp8, bf16,
 * tf32), the kernel floor and the memory bandwidth of h100 and b200 are
 * fitted to measured single collectives and matmuls; the f32 and f64
 * peaks, NVLink and the inter-node terms come from the vendors' datasheets
 * (every measurement is inside one node, so the inter-node terms are not
 * calibrated); device memory (GB, 1e9 bytes) from the datasheets, with
 * JAX's default memory fraction. A kind's NAN latency or bandwidth takes the general key
 * (collective.latency_us, intra.link_gb_per_s). */
#include "analysis/cost_model.h"

#include <math.h>

/* Keys in the order of enum CK_*. */
#define KIND(lat, bus, copy, ramp) (lat), (bus), (copy), (ramp)
#define RAMP(fp8, bf16, tf32) (fp8), (bf16), (tf32), 0, 0

const struct pl_cost_preset pl_cost_presets_[] = {
	/* BEGIN FITTED PRESETS */
	{"h100",
	 "NVIDIA H100 SXM: collectives, matmul peaks, floor and memory fitted by bench/fit_cost_model.py; f32, f64, NVLink and NIC from the datasheet",
	 {2578, 819.9, 368, 67, 67, 3350, 5.4, 8, 450, 2, 50, 5, 9.335, 0,
	  KIND(9.019, 576.6, 1189, 4.659), KIND(14.44, 3.159e+04, 392, 3.22), KIND(9.335, 1832, 294.2, 6.395),
	  KIND(19.57, 436.7, 5726, 8.627), KIND(8.682, 347.3, 0, 18.5), KIND(NAN, NAN, 0, 0),
	  RAMP(0, 13, 104), 80, 0.75}},
	{"b200",
	 "NVIDIA B200: collectives, matmul peaks, floor and memory fitted by bench/fit_cost_model.py; f32, f64, NVLink and NIC from the datasheet",
	 {2870, 1435, 856.1, 80, 40, 5940, 5.8, 8, 900, 1.5, 50, 5, 22.68, 0,
	  KIND(20.79, 1256, 1484, 2.674), KIND(23.37, 1571, 1362, 2.587), KIND(22.68, 967.5, 993.4, 4.429),
	  KIND(25.46, 7678, 905, 6.482), KIND(12.22, 922.1, 0, 26.9), KIND(NAN, NAN, 0, 0),
	  RAMP(0, 0, 40), 180, 0.75}},
	/* END FITTED PRESETS */
};
const size_t pl_cost_num_presets_ = sizeof pl_cost_presets_ / sizeof pl_cost_presets_[0];
