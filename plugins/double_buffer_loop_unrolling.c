/* SPDX-License-Identifier: MIT */
/* Contract: reads counted HLO while loops; unrolls each body by two (one trip peeled before the loop when the count is odd) and records the halved count as known_trip_count; keeps what the loop computes; needs verified IR. */

/* plugins/double_buffer_loop_unrolling.c — DoubleBufferLoopUnrolling
 * (passline-pipeline(5)), after XLA's pass of that name in its
 * double-buffer mode.
 *
 * The body of each loop with a statically known trip count N >= 2 becomes
 * two copies of itself, the second reading what the first returns, so
 * that a scheduler can let one trip's collectives run under the other's
 * computation. The loop then runs N/2 trips, which its backend
 * configuration records as known_trip_count (the counter now steps twice
 * a trip, which no longer reads as a counted loop). When N is odd, one
 * trip is peeled before the loop, as XLA does. The body's instructions
 * thus run N times, as before.
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "labels.h"
#include "loop_rewrite.h"
#include "pass_end.h"
#include "ptr_map.h"
#include "rewritable.h"

static const pl_stat_decl unroll_stats[] = {
	PL_STAT("num_unrolled", "Loops whose body was unrolled by two."),
	PL_STAT("num_peeled", "Loops of an odd trip count, one trip peeled before them."),
	PL_STAT_END
};

/* Clones every instruction of body but its return before pos in f, its
 * arguments read as args; the values it returns go to out. */
static int clone_body(pl_func *f, pl_inst *pos, pl_func *body, pl_value *const *args,
                      pl_value **out, const char *suffix, int64_t *next_channel)
{
	struct ptr_map map = {0};
	size_t n = pl_func_num_args(body);
	int rc = PL_OK;
	for (size_t k = 0; k < n && rc == PL_OK; k++)
		if (!ptr_map_put(&map, pl_func_arg(body, k), args[k]))
			rc = PL_ENOMEM;
	/* the clones may land in body itself, before its return: the walk
	 * stops at the last instruction it had */
	pl_inst *ret = pl_func_last_inst(body), *last = pl_inst_prev(ret);
	for (pl_inst *i = last ? pl_func_first_inst(body) : NULL, *next; i && rc == PL_OK; i = next) {
		next = i == last ? NULL : pl_inst_next(i);
		if (!loop_clone_inst(f, pos, i, &map, suffix, next_channel))
			rc = PL_ENOMEM;
	}
	for (size_t k = 0; k < pl_inst_num_operands(ret) && rc == PL_OK; k++) {
		pl_value *v = pl_inst_operand(ret, k), *to = ptr_map_get(&map, v);
		out[k] = to ? to : v;
	}
	ptr_map_free(&map);
	return rc;
}

static int unroll(pl_pass_ctx *ctx, struct counted_loop *l, int64_t *next_channel,
                  uint64_t *peeled)
{
	size_t n = pl_inst_num_operands(l->w);
	pl_value **vals = calloc(2 * n, sizeof *vals);
	if (!vals)
		return PL_ENOMEM;
	pl_value **out = vals + n;
	int rc = PL_OK;
	if (pl_ctx_remarks_enabled(ctx))
		pl_ctx_remark(ctx, l->w, "loop %%%s of %llu trips unrolled by two%s", inst_label(l->w),
		              (unsigned long long)l->trips,
		              l->trips % 2 ? ", one trip peeled before it" : "");
	if (l->trips % 2) {
		for (size_t k = 0; k < n; k++)
			vals[k] = pl_inst_operand(l->w, k);
		rc = clone_body(l->parent, l->w, l->body, vals, out, ".peeled", next_channel);
		for (size_t k = 0; k < n && rc == PL_OK; k++)
			pl_inst_set_operand(l->w, k, out[k]);
		++*peeled;
	}
	/* the second copy reads what the first returns */
	pl_inst *ret = pl_func_last_inst(l->body);
	for (size_t k = 0; k < n; k++)
		vals[k] = pl_inst_operand(ret, k);
	if (rc == PL_OK)
		rc = clone_body(l->body, ret, l->body, vals, out, ".unrolled", next_channel);
	if (rc == PL_OK)
		rc = loop_new_return(l->body, out, NULL, 0);
	if (rc == PL_OK)
		rc = loop_set_known_trips(l->w, l->trips / 2);
	free(vals);
	return rc;
}

static int unroll_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	size_t cap = 0, nloops = 0;
	pl_inst **loops = NULL;
	uint64_t unrolled = 0, peeled = 0;
	int64_t next_channel = loop_next_channel(m);
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		if (!rewritable_at(&rw, k))
			continue;
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(m, k)); i; i = pl_inst_next(i))
			if (pl_inst_hlo_op(i) == PL_HLO_WHILE) {
				if (!PL_GROW(loops, cap, nloops + 1)) {
					rc = PL_ENOMEM;
					break;
				}
				loops[nloops++] = i;
			}
	}
	rewritable_free(&rw);
	for (size_t k = 0; k < nloops && rc == PL_OK; k++) {
		struct counted_loop l;
		const char *why = counted_loop_match(m, loops[k], &l);
		if (!why && l.trips < 2)
			why = "it runs fewer than two trips";
		if (why) {
			if (pl_ctx_remarks_enabled(ctx))
				pl_ctx_remark(ctx, loops[k], "loop %%%s not unrolled: %s",
				              inst_label(loops[k]), why);
			continue;
		}
		pl_inst *after = pl_inst_prev(l.w);
		rc = unroll(ctx, &l, &next_channel, &peeled);
		if (rc == PL_OK)
			rc = loop_dce_between(l.parent, after, l.w);
		unrolled++;
	}
	free(loops);
	pass_end_stat(ctx, "num_unrolled", unrolled, &rc);
	pass_end_stat(ctx, "num_peeled", peeled, &rc);
	return pass_end_report(ctx, rc, "unroll loops");
}

static const pl_pass_desc unroll_pass = {
	PL_PASS_DESC_INIT,
	.name = "DoubleBufferLoopUnrolling",
	.summary = "Unrolls each counted loop by two, peeling one trip of an odd count.",
	.stats = unroll_stats,
	.run = unroll_run,
};

PL_PLUGIN_DEFINE("DoubleBufferLoopUnrolling", PACKAGE_VERSION, "MIT",
                 "Loops unrolled by two (double buffering).", &unroll_pass)
