/* SPDX-License-Identifier: MIT */
/* plugins/collective_pipeliner.h — what CollectivePipeliner's directions
 * share: its options, the collectives one direction moves, the pass's
 * state, and the checks both the forward directions make. The forward and
 * backward rewrites are in collective_pipeliner.c, forward-sink in
 * pipeliner_sink.c. */
#ifndef PLUGINS_COLLECTIVE_PIPELINER_H
#define PLUGINS_COLLECTIVE_PIPELINER_H

#include <passline/passline.h>

#include "loop_rewrite.h"
#include "ptr_map.h"

struct config {
	bool all_gather, reduce_scatter, all_reduce;
	bool sink_all_reduce;
};

/* One collective to move, with the instructions that move with it, in
 * body order: backward, its operand chain; forward, the formatting ops
 * between it and its dynamic-update-slice and the loop-invariant
 * computations (constants, partition ids) those read. */
struct move {
	pl_inst *coll;
	pl_inst **with;
	size_t nwith, cap;
	size_t nformat; /* forward: with[0..nformat) format, the rest are inputs */
	pl_inst *dus;   /* forward */
	size_t out;     /* forward: the loop element the update is returned as */
	size_t sliced;  /* forward: the operand of dus that is the moving index */
	pl_value **carry; /* forward: loop-computed inputs of the formatting ops */
	size_t ncarry, carrycap;
};

struct pipeliner {
	pl_pass_ctx *ctx;
	pl_module *m;
	const struct config *cfg;
	bool remarks;
	bool oom; /* an analysis ran out of memory */
	uint64_t moved;
	int64_t next_channel;
	char why[512];
	struct ptr_map member; /* instruction -> its move (claimed) */
	struct ptr_map seen;   /* scratch set */
	struct ptr_map carried; /* forward: definitions of carried inputs -> move */
	struct move *moves;
	size_t nmoves, mcap;
};

/* "all_gather", "reduce_scatter" or "all_reduce", for remarks. */
const char *cp_kind_name(const pl_inst *c);
/* Whether i has a control dependency (the IR's "pinned"). */
bool cp_pinned(const pl_inst *i);
/* Formats the reason into p->why and returns it. */
const char *cp_fail(struct pipeliner *p, const char *fmt, ...) PL_PRINTF(2, 3);
/* Marks the run out of memory and returns a reason. */
const char *cp_oom(struct pipeliner *p);
/* Whether v is computed from constants and partition or replica ids only;
 * adds what computes it to mv (and to p->seen). */
bool cp_invariant_input(struct pipeliner *p, pl_value *v, struct move *mv);
/* Whether v is the induction variable plus or minus constants. */
bool cp_linear_in_iv(const struct counted_loop *l, const pl_value *v, int depth);
bool cp_constant_zero(const pl_value *v);
/* The users XLA lets stand between a collective and its update. */
bool cp_formatting_op(const pl_inst *i);
/* The remark for a collective not moved in direction dir. */
void cp_remark_not(struct pipeliner *p, const pl_inst *c, const char *dir, const char *why);
const char *cp_loop_label(const struct counted_loop *l);
/* Replaces each result k of w by to[k] and erases w. */
int cp_replace_while(pl_inst *w, pl_value *const *to);
bool cp_move_add(struct move *mv, pl_inst *i);
/* qsort comparator: instructions in body order. */
int cp_cmp_position(const void *a, const void *b);

/* Forward-sink on loop l: collects the all-reduces to sink (remarks for
 * the rest), rewrites the loop, and adds what it sank to p->moved. */
int cp_sink_loop(struct pipeliner *p, struct counted_loop *l);

#endif
