/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_presets.c — the presets of the cost model, made from
 * cost_keys.def: each key's V(h100, b200) and, for a key bounded by a
 * datasheet, SHEET(h100, b200, ...). bench/fit_cost_model.py --write fits
 * the collective terms inside a node, the matmul peaks and ramps, the
 * kernel floor and the memory bandwidth under those bounds and rewrites
 * their V(...) in cost_keys.def; the rest is the vendors' datasheets and
 * the published multi-node measurements bench/README.md cites. */
#include "analysis/cost_model.h"

#include <math.h>

/* Column COL (0: h100, 1: b200) of V(...) and of SHEET(...); a bound that
 * is not a datasheet's is NAN in the arrays of bounds. */
#define FIRST(a, b) (a)
#define SECOND(a, b) (b)
#define NONE NAN
#define TWICE(id) NAN
#define ATMOST(id) NAN
#define SHEET(a, b, what) COL(a, b)

#define X(id, name, type, unit, min, def, vals, bound, help) [CK_##id] = vals,
#define COL(a, b) FIRST(a, b)
#define V(a, b) FIRST(a, b)
static const double h100_values[CK__COUNT] = {
#include "analysis/cost_keys.def"
};
#undef V
#define V(a, b) SECOND(a, b)
static const double b200_values[CK__COUNT] = {
#include "analysis/cost_keys.def"
};
#undef V
#undef X

#define X(id, name, type, unit, min, def, vals, bound, help) [CK_##id] = bound,
static const double h100_sheet[CK__COUNT] = {
#include "analysis/cost_keys.def"
};
#undef COL
#define COL(a, b) SECOND(a, b)
static const double b200_sheet[CK__COUNT] = {
#include "analysis/cost_keys.def"
};
#undef X

const struct pl_cost_preset pl_cost_presets_[] = {
	{"h100",
	 "NVIDIA H100 SXM 80 GB: collectives inside a node, matmul peaks and ramps, kernel floor "
	 "and memory fitted by bench/fit_cost_model.py under the datasheet's bounds; f32, f64, "
	 "NVLink and HBM from the datasheet; NIC and steps between nodes from published NCCL "
	 "measurements (bench/README.md)",
	 h100_values, h100_sheet},
	{"b200",
	 "NVIDIA B200 180 GB: collectives inside a node, matmul peaks and ramps, kernel floor "
	 "and memory fitted by bench/fit_cost_model.py under the datasheet's bounds; f32, f64, "
	 "NVLink and HBM from the datasheet; NIC and steps between nodes as the h100's",
	 b200_values, b200_sheet},
};
const size_t pl_cost_num_presets_ = sizeof pl_cost_presets_ / sizeof pl_cost_presets_[0];
