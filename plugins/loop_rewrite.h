/* SPDX-License-Identifier: MIT */
/* plugins/loop_rewrite.h — what the passes that rewrite HLO while loops
 * (CollectivePipeliner, DoubleBufferLoopUnrolling) share: recognising a
 * counted loop (a counter from a constant, plus a constant per trip,
 * compared with a constant: the loops whose trip count passline knows
 * statically), cloning a body's instructions into another function, and
 * building a while with more loop-carried elements than the one it
 * replaces. */
#ifndef PLUGINS_LOOP_REWRITE_H
#define PLUGINS_LOOP_REWRITE_H

#include <passline/passline.h>

#include "ptr_map.h"

struct counted_loop {
	pl_inst *w;            /* the hlo.while */
	pl_func *parent, *body, *cond;
	size_t iv;             /* the element that counts the trips */
	int64_t start, step;   /* its constant initial value and increment */
	uint64_t trips;
	pl_inst *next_iv;      /* the body's "iv + step" it returns */
};

/* Fills *out for the while w when it is a counted loop whose body and
 * condition no other instruction calls, and returns NULL; else returns
 * why not (a phrase for a remark). */
const char *counted_loop_match(pl_module *m, pl_inst *w, struct counted_loop *out);

/* Whether v is element k of the body that the body returns unchanged. */
bool loop_invariant_arg(const struct counted_loop *l, const pl_value *v);

/* An integer hlo.constant of type t with value v, inserted before pos (or
 * at the top of f when pos is NULL). NULL when out of memory. */
pl_inst *loop_int_constant(pl_func *f, pl_inst *pos, const pl_type *t, int64_t v);

/* Clones src into f before pos (or appends when pos is NULL): operands are
 * looked up in map (a value not in it is used as it is), each result of
 * src is mapped to the clone's. Keeps src's attributes except those tied
 * to the lines of its old function; a collective clone gets channel
 * *next_channel (then incremented) when src had one. The clone's results
 * are named after src's with suffix. NULL when out of memory. */
pl_inst *loop_clone_inst(pl_func *f, pl_inst *pos, const pl_inst *src, struct ptr_map *map,
                         const char *suffix, int64_t *next_channel);

/* Like loop_clone_inst for a src of one result, but with the nops
 * operands ops and the result type t (a shape attribute read with src's
 * type is dropped); the map is not touched. NULL when out of memory or
 * src has another number of results. */
pl_inst *loop_clone_typed(pl_func *f, pl_inst *pos, const pl_inst *src, pl_value *const *ops,
                          size_t nops, const pl_type *t, const char *suffix, int64_t *next_channel);

/* The largest hlo_channel_id of the module plus one (1 when none). */
int64_t loop_next_channel(const pl_module *m);

/* A new while before w with w's operands (or base, one per operand of w,
 * when not NULL) followed by extra (n_extra), and w's attributes less the recorded tuple structure (the written HLO makes
 * the longer tuple). NULL when out of memory. */
pl_inst *loop_while_widened(pl_inst *w, pl_value *const *base, pl_value *const *extra,
                            size_t n_extra);

/* Appends arguments of the given types to f (names: prefix.N). */
int loop_add_args(pl_func *f, const pl_type *const *t, size_t n, const char *prefix);

/* Replaces f's return by one of its operands, with operand k replaced by
 * subst[k] where that is not NULL, followed by extra (n_extra). */
int loop_new_return(pl_func *f, pl_value *const *subst, pl_value *const *extra, size_t n_extra);

/* Sets known_trip_count in w's backend configuration to n. */
int loop_set_known_trips(pl_inst *w, uint64_t n);

/* Forgets the tuple structure f's parameters were read with (they grew). */
void loop_forget_param_shapes(pl_func *f);

/* Erases inst when none of its results has a use. */
int loop_erase_if_unused(pl_inst *inst);

/* Erases, last first, the instructions of f strictly between after and
 * before (NULL: the ends) that compute HLO values nothing reads, as XLA's
 * dead code elimination does after the loop passes. */
int loop_dce_between(pl_func *f, pl_inst *after, pl_inst *before);

#endif
