/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.h — the peak of live bytes with more bytes held
 * at some instructions (what a call runs, for the peak of a step).
 * Private. */
#ifndef PL_ANALYSIS_MEMORY_H
#define PL_ANALYSIS_MEMORY_H

#include "ir/internal.h"

/* Sets *bytes to what inst holds beyond its operands and results while
 * it runs; PL_OK or an error that stops the walk. */
typedef int (*pl_bytes_hook_)(const pl_inst *inst, void *arg, uint64_t *bytes);

/* pl_func_peak_bytes with extra's bytes added at each instruction (extra
 * NULL: none). Its errors and extra's. */
PL_INTERNAL int pl_func_peak_bytes_hooked_(const pl_func *f, pl_bytes_hook_ extra, void *arg,
                                           uint64_t *out);

#endif
