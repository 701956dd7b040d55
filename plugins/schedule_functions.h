/* SPDX-License-Identifier: MIT */
/* plugins/schedule_functions.h — ScheduleEstimate's per-function file. */
#ifndef PLUGINS_SCHEDULE_FUNCTIONS_H
#define PLUGINS_SCHEDULE_FUNCTIONS_H

#include <passline/passline.h>

/* Writes name (through the context) with the cost model in force, the
 * entry, step_ns and each function's executions and figures per
 * execution, as JSON. PL_OK, or an error reported. */
int schedule_write_functions(pl_pass_ctx *ctx, const pl_module *m, const pl_callgraph *cg,
                             const char *name, uint64_t step_ns);

#endif
