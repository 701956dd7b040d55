/* SPDX-License-Identifier: MIT */
/* sdk/analysis/schedule.h — the schedule simulation with the time of some
 * instructions given by the caller (the time of a whole step, where an
 * instruction that calls functions takes their time). Private. */
#ifndef PL_ANALYSIS_SCHEDULE_H
#define PL_ANALYSIS_SCHEDULE_H

#include "ir/internal.h"

#include <passline/cost.h>

/* Sets *handled and *t when the caller decides inst's time; leaves
 * *handled false for pl_inst_time_ns to decide. PL_OK or an error that
 * stops the simulation. */
typedef int (*pl_time_hook_)(const pl_inst *inst, void *arg, uint64_t *t, bool *handled);

/* The makespan of f as pl_schedule_new_totals simulates it, each
 * instruction's time from hook first. Its errors. */
PL_INTERNAL int pl_schedule_makespan_hooked_(const pl_func *f, const pl_cost_model *cm,
                                             pl_time_hook_ hook, void *arg, uint64_t *out);

/* pl_schedule_new (with rows), each instruction's time from hook first.
 * Its errors. */
PL_INTERNAL int pl_schedule_new_hooked_(pl_schedule **out, const pl_func *f,
                                        const pl_cost_model *cm, pl_time_hook_ hook, void *arg);

#endif
