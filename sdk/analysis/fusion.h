/* SPDX-License-Identifier: MIT */
/* sdk/analysis/fusion.h — what the schedule reads of a fusion model. */
#ifndef PL_ANALYSIS_FUSION_H
#define PL_ANALYSIS_FUSION_H

#include "ir/internal.h"

#include <passline/fusion.h>

/* The function fu was made from. */
PL_INTERNAL const pl_func *pl_fusion_func_(const pl_fusion *fu);
/* The compute time charged at the i-th instruction of that function: the
 * time of every kernel whose last instruction it is (the return: of the
 * copy kernels too), else 0. */
PL_INTERNAL uint64_t pl_fusion_inst_time_(const pl_fusion *fu, size_t i);

/* Whether the i-th instruction is computed again by each kernel that
 * reads it (a cheap producer of several kernels): it is never in memory. */
PL_INTERNAL bool pl_fusion_inst_recomputed_(const pl_fusion *fu, size_t i);

#endif
