/* SPDX-License-Identifier: MIT */
/* plugins/executions.h — how the counting passes (DynamicInstEstimator,
 * DetailDynInst, ScheduleEstimate) weigh each function by how often it
 * runs: the module's call graph (passline/callgraph.h), built with the
 * pass's trip_counts option (the host puts the pipeline's [loops] there,
 * before the pass's own), its failures reported, and a remark for each
 * loop that runs: its trip count and where it comes from, or that it is
 * unknown (counted once). */
#ifndef PLUGINS_EXECUTIONS_H
#define PLUGINS_EXECUTIONS_H

#include <passline/passline.h>

#include <stdio.h>

#include "u128_int.h"

/* The option every counting pass has. */
#define EXECUTIONS_OPTION                                                                  \
	PL_OPTION_STRING("trip_counts", "",                                                    \
	                 "Trip counts of loops by name, NAME=N[,NAME=N...], for this pass: "   \
	                 "they win over the pipeline's [loops] (-O loops.NAME=N) and the "      \
	                 "counts found in the module (a loop whose count cannot be found "     \
	                 "counts 1, with a warning)")

/* The call graph of m, or an error reported. */
static inline int executions_graph(pl_pass_ctx *ctx, const pl_module *m, pl_callgraph **out)
{
	const char *trips = NULL;
	if (pl_ctx_get_string(ctx, "trip_counts", &trips) != PL_OK)
		trips = NULL;
	const pl_inst *at = NULL;
	char err[512];
	int rc = pl_callgraph_new(out, m, trips, &at, err, sizeof err);
	if (rc == PL_ENOMEM) {
		pl_ctx_error(ctx, NULL, "out of memory");
		return rc;
	}
	if (rc) {
		pl_ctx_error(ctx, at, "%s%s", rc == PL_EPARSE || (rc == PL_ENOTFOUND && !at)
		                                  ? "option trip_counts: " : "", err);
		return rc;
	}
	const pl_callgraph *cg = *out;
	if (!pl_callgraph_entry(cg) || !pl_ctx_remarks_enabled(ctx))
		return PL_OK;
	for (size_t i = 0; i < pl_callgraph_num_loops(cg); i++) {
		const pl_inst *w = pl_callgraph_loop(cg, i);
		uint64_t hi = 0, lo = 0;
		pl_callgraph_executions(cg, pl_inst_func(w), &hi, &lo);
		if (!hi && !lo)
			continue; /* it never runs */
		const char *name = pl_callgraph_loop_name(cg, i);
		pl_trip_source src = pl_callgraph_loop_source(cg, i);
		if (src == PL_TRIP_UNKNOWN) {
			pl_ctx_remark(ctx, w,
			              "the trip count of loop '%s' in @%s is unknown: counted as 1 "
			              "(set it with -O loops.%s=N)",
			              name, pl_func_name(pl_inst_func(w)), name);
			continue;
		}
		pl_ctx_remark(ctx, w, "loop '%s' in @%s: %llu trips (%s)", name,
		              pl_func_name(pl_inst_func(w)),
		              (unsigned long long)pl_callgraph_loop_trips(cg, i),
		              src == PL_TRIP_GIVEN   ? "set by [loops] or option trip_counts"
		              : src == PL_TRIP_KNOWN ? "known_trip_count"
		                                     : "its counter");
	}
	return PL_OK;
}

/* How often f runs, or an error reported. */
static inline int executions_of(pl_pass_ctx *ctx, const pl_callgraph *cg, const pl_func *f,
                                u128 *out)
{
	uint64_t hi = 0, lo = 0;
	int rc = pl_callgraph_executions(cg, f, &hi, &lo);
	if (rc == PL_EOVERFLOW)
		pl_ctx_error(ctx, pl_func_first_inst(f), "@%s runs more than 2^128 - 1 times",
		             pl_func_name(f));
	else if (rc)
		pl_ctx_error(ctx, NULL, "cannot count the executions of @%s: %s", pl_func_name(f),
		             pl_status_string(rc));
	*out = u128_of(hi, lo);
	return rc;
}

/* *total += v x times, or an error naming stat and f reported. */
static inline int executions_add(pl_pass_ctx *ctx, const pl_func *f, u128 *total,
                                 u128 v, u128 times, const char *stat)
{
	u128 x;
	if (!__builtin_mul_overflow(v, times, &x) && !__builtin_add_overflow(*total, x, total))
		return PL_OK;
	char a[PL_U128_DEC_BUFSIZE], b[PL_U128_DEC_BUFSIZE];
	pl_ctx_error(ctx, pl_func_first_inst(f),
	             "%s overflows 128 bits at @%s: %s per execution x %s executions", stat,
	             pl_func_name(f), u128_format(v, a),
	             u128_format(times, b));
	return PL_EOVERFLOW;
}

#endif
