/* SPDX-License-Identifier: MIT */
/* plugins/schedule_memory.h — ScheduleEstimate's memory report and its
 * out-of-memory warning. */
#ifndef PLUGINS_SCHEDULE_MEMORY_H
#define PLUGINS_SCHEDULE_MEMORY_H

#include <passline/passline.h>

/* The memory of one step of cg's entry: a report line (and, with
 * --remarks, a remark) naming the peak and the instruction where it
 * happens, one line for each of the top largest buffers live there, and
 * a warning at that instruction when the peak passes the cost model's
 * device_memory_gb times memory_fraction. *peak is the peak (that of
 * pl_callgraph_step_peak_bytes). PL_OK, or an error reported. */
int schedule_memory_report(pl_pass_ctx *ctx, const pl_callgraph *cg, size_t top,
                           uint64_t *peak);

#endif
