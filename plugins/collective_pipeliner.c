/* SPDX-License-Identifier: MIT */
/* Contract: reads counted HLO while loops; moves collectives of their bodies across iterations (peeling one iteration), keeping what the loop computes and its FLOPs; needs verified IR. */

/* plugins/collective_pipeliner.c — CollectivePipeliner
 * (passline-pipeline(5)), after XLA's pass of that name.
 *
 * Forward (reduce-scatter, all-reduce): a collective whose result, through
 * formatting ops only, is written by a dynamic-update-slice into a loop
 * element the body returns is completed in the next iteration. The first
 * iteration is peeled before the loop without it; each trip of the loop
 * (one fewer) starts with the collective of the trip before, whose operand
 * and update index the loop now carries, and writes its slice at the end;
 * the last one runs after the loop.
 *
 * Backward (all-gather): a collective whose operand chain reads only the
 * induction variable and elements the loop never changes is issued one
 * iteration early: its first instance is peeled before the loop, each trip
 * (one fewer) gathers for the next trip and carries the result, and the
 * last trip's body is peeled after the loop.
 *
 * Either way the body's computation runs as often as before and so does
 * each collective; the loop only carries more. Each collective looked at
 * and not moved gets a remark with the reason XLA's analysis would give.
 */
#include <passline/passline.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "labels.h"
#include "collective_pipeliner.h"
#include "loop_rewrite.h"
#include "pass_end.h"
#include "ptr_map.h"
#include "rewritable.h"

static const pl_option_decl pipeliner_options[] = {
	PL_OPTION_BOOL("pipeline_all_gather", "true",
	               "Issue loop all-gathers one iteration early (backward)."),
	PL_OPTION_BOOL("pipeline_reduce_scatter", "true",
	               "Complete loop reduce-scatters in the next iteration (forward)."),
	PL_OPTION_BOOL("pipeline_all_reduce", "true",
	               "Complete loop all-reduces in the next iteration (forward)."),
	PL_OPTION_BOOL("pipeline_sink_all_reduce", "false",
	               "Sink loop all-reduces that fill a stacked buffer: one all-reduce of "
	               "the stacked operands after the loop (forward-sink)."),
	PL_OPTION_END
};

static const pl_stat_decl pipeliner_stats[] = {
	PL_STAT("num_pipelined", "Collectives moved across loop iterations."),
	PL_STAT_END
};

const char *cp_kind_name(const pl_inst *c)
{
	switch (pl_inst_op(c)) {
	case PL_OP_ALL_GATHER: return "all_gather";
	case PL_OP_REDUCE_SCATTER: return "reduce_scatter";
	default: return "all_reduce";
	}
}

bool cp_pinned(const pl_inst *i)
{
	bool b = false;
	return pl_attrs_get_bool(pl_inst_attrs_const(i), "pinned", &b) == PL_OK && b;
}

static bool cp_effective_scalar(const pl_value *v)
{
	const pl_type *t = pl_value_type(v);
	for (size_t d = 0; d < pl_type_rank(t); d++)
		if (pl_type_dim(t, d) != 1)
			return false;
	return true;
}

int cp_cmp_position(const void *a, const void *b)
{
	uint64_t x = pl_inst_position(*(pl_inst *const *)a);
	uint64_t y = pl_inst_position(*(pl_inst *const *)b);
	return x < y ? -1 : x > y;
}

bool cp_move_add(struct move *mv, pl_inst *i)
{
	if (!PL_GROW(mv->with, mv->cap, mv->nwith + 1))
		return false;
	mv->with[mv->nwith++] = i;
	return true;
}

static void cp_move_free(struct move *mv)
{
	free(mv->with);
	free(mv->carry);
	memset(mv, 0, sizeof *mv);
}

const char *cp_fail(struct pipeliner *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof p->why, fmt, ap);
	va_end(ap);
	return p->why;
}

/* Marks the run out of memory; the analysis gives up on the collective. */
const char *cp_oom(struct pipeliner *p)
{
	p->oom = true;
	return "out of memory";
}

/* ---- backward: the operand chain ---- */

static const char *backward_chain(struct pipeliner *p, const struct counted_loop *l, pl_inst *g,
                                  struct move *mv)
{
	if (cp_pinned(g))
		return "it has a control dependency";
	ptr_map_clear(&p->seen);
	if (!ptr_map_put(&p->seen, g, g))
		return cp_oom(p);
	/* the chain grows at its end; with[scan..] are still to be read */
	size_t scan = 0;
	pl_inst *cur = g;
	for (;;) {
		for (size_t k = 0; k < pl_inst_num_operands(cur); k++) {
			pl_value *v = pl_inst_operand(cur, k);
			if (pl_value_is_arg(v)) {
				if (pl_value_index(v) != l->iv && !loop_invariant_arg(l, v))
					return cp_fail(p, "its operand chain reads %%%s, a loop-variant parameter",
					            value_label(v));
				continue;
			}
			pl_inst *d = pl_value_def(v);
			if (ptr_map_get(&p->seen, d))
				continue;
			if (!ptr_map_put(&p->seen, d, d) || !cp_move_add(mv, d))
				return cp_oom(p);
		}
		if (scan == mv->nwith)
			break;
		cur = mv->with[scan++];
	}
	for (size_t k = 0; k < mv->nwith; k++) {
		pl_inst *d = mv->with[k];
		if (pl_inst_op(d) == PL_OP_RETURN || pl_inst_hlo_op(d) == PL_HLO_WHILE || cp_pinned(d))
			return cp_fail(p, "%%%s in its operand chain cannot be cloned", inst_label(d));
		for (size_t r = 0; r < pl_inst_num_results(d); r++) {
			pl_value *v = pl_inst_result(d, r);
			for (pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u))
				if (!ptr_map_get(&p->seen, pl_use_user(u)) && !cp_effective_scalar(v))
					return cp_fail(p, "%%%s in its operand chain has a use outside the chain",
					            value_label(v));
		}
	}
	if (mv->nwith)
		qsort(mv->with, mv->nwith, sizeof *mv->with, cp_cmp_position);
	return NULL;
}

/* ---- forward: formatting ops up to a dynamic-update-slice ---- */

/* The users XLA lets stand between the collective and its update. */
bool cp_formatting_op(const pl_inst *i)
{
	pl_op op = pl_inst_op(i);
	if (op == PL_OP_ALL_REDUCE || op == PL_OP_ALL_GATHER || op == PL_OP_REDUCE_SCATTER)
		return true;
	switch (pl_inst_hlo_op(i)) {
	case PL_HLO_SLICE: case PL_HLO_DYNAMIC_SLICE: case PL_HLO_PAD:
	case PL_HLO_COLLECTIVE_PERMUTE: case PL_HLO_CONVERT: case PL_HLO_RESHAPE:
	case PL_HLO_TRANSPOSE: case PL_HLO_BROADCAST: case PL_HLO_REDUCE:
	case PL_HLO_GET_TUPLE_ELEMENT: case PL_HLO_CONCATENATE: case PL_HLO_BITCAST:
		return true;
	case PL_HLO_CUSTOM_CALL: {
		const char *s = NULL;
		size_t len;
		return pl_attrs_get_string(pl_inst_attrs_const(i), "hlo_custom_call_has_side_effect",
		                           &s, &len) != PL_OK || strncmp(s, "true", len) != 0;
	}
	default:
		return false;
	}
}

/* Whether v is computed from constants and partition or replica ids only
 * (XLA's "simple dependencies"); adds what computes it to mv. */
bool cp_invariant_input(struct pipeliner *p, pl_value *v, struct move *mv)
{
	if (pl_value_is_arg(v))
		return false;
	pl_inst *d = pl_value_def(v);
	if (ptr_map_get(&p->seen, d))
		return true;
	pl_hlo_op op = pl_inst_hlo_op(d);
	if (!(op == PL_HLO_CONSTANT || op == PL_HLO_PARTITION_ID || op == PL_HLO_REPLICA_ID ||
	      op == PL_HLO_IOTA || pl_inst_num_operands(d)))
		return false;
	if (cp_pinned(d) || pl_inst_traits(d) & PL_TRAIT_COLLECTIVE || op == PL_HLO_WHILE ||
	    op == PL_HLO_RNG || op == PL_HLO_CUSTOM_CALL)
		return false;
	for (size_t k = 0; k < pl_inst_num_operands(d); k++)
		if (!cp_invariant_input(p, pl_inst_operand(d, k), mv))
			return false;
	if (ptr_map_put(&p->seen, d, d) && cp_move_add(mv, d))
		return true;
	p->oom = true;
	return false;
}

/* Whether v is the induction variable plus or minus constants. */
bool cp_linear_in_iv(const struct counted_loop *l, const pl_value *v, int depth)
{
	if (pl_value_is_arg(v))
		return pl_value_func(v) == l->body && pl_value_index(v) == l->iv;
	const pl_inst *d = pl_value_def(v);
	if (depth > 8)
		return false;
	/* a wrap or clamp: both choices linear */
	if (pl_inst_hlo_op(d) == PL_HLO_SELECT && pl_inst_num_operands(d) == 3)
		return cp_linear_in_iv(l, pl_inst_operand(d, 1), depth + 1) &&
		       cp_linear_in_iv(l, pl_inst_operand(d, 2), depth + 1);
	if (pl_inst_num_operands(d) != 2 ||
	    !(pl_inst_hlo_op(d) == PL_HLO_ADD || pl_inst_hlo_op(d) == PL_HLO_SUBTRACT))
		return false;
	const pl_inst *a = pl_value_def(pl_inst_operand(d, 0)), *b = pl_value_def(pl_inst_operand(d, 1));
	if (pl_inst_hlo_op(b) == PL_HLO_CONSTANT)
		return cp_linear_in_iv(l, pl_inst_operand(d, 0), depth + 1);
	if (pl_inst_hlo_op(a) == PL_HLO_CONSTANT)
		return cp_linear_in_iv(l, pl_inst_operand(d, 1), depth + 1);
	return false;
}

bool cp_constant_zero(const pl_value *v)
{
	const pl_inst *d = pl_value_def(v);
	const char *s = NULL;
	size_t len;
	return pl_inst_hlo_op(d) == PL_HLO_CONSTANT &&
	       pl_attrs_get_string(pl_inst_attrs_const(d), "hlo_constant", &s, &len) == PL_OK &&
	       len == 1 && s[0] == '0';
}

static const char *check_update(struct pipeliner *p, const struct counted_loop *l, struct move *mv)
{
	pl_inst *dus = mv->dus;
	pl_value *buf = pl_inst_operand(dus, 0);
	if (!pl_value_is_arg(buf) || pl_value_func(buf) != l->body || pl_value_index(buf) == l->iv)
		return "the dynamic-update-slice does not write into a loop parameter";
	if (pl_value_num_uses(buf) != 1)
		return cp_fail(p, "the loop parameter %%%s it writes into has other uses", value_label(buf));
	pl_inst *ret = pl_func_last_inst(l->body);
	size_t k = pl_value_index(buf), times = 0;
	for (size_t j = 0; j < pl_inst_num_operands(ret); j++)
		times += pl_inst_operand(ret, j) == pl_inst_result(dus, 0);
	if (times != 1 || pl_inst_operand(ret, k) != pl_inst_result(dus, 0))
		return "the updated buffer is not returned as the loop element it came from";
	mv->out = k;
	size_t moving = 0, nmoving = 0;
	for (size_t j = 2; j < pl_inst_num_operands(dus); j++) {
		pl_value *ix = pl_inst_operand(dus, j);
		if (pl_inst_hlo_op(pl_value_def(ix)) == PL_HLO_CONSTANT) {
			if (!cp_constant_zero(ix))
				return "the dynamic-update-slice has a nonzero constant index";
			continue;
		}
		moving = j;
		nmoving++;
	}
	if (nmoving != 1)
		return "the dynamic-update-slice is not indexed in exactly one dimension";
	if (!cp_linear_in_iv(l, pl_inst_operand(dus, moving), 0))
		return "the update index is not a linear function of the induction variable";
	mv->sliced = moving;
	return NULL;
}

static const char *forward_chain(struct pipeliner *p, const struct counted_loop *l, pl_inst *c,
                                 struct move *mv)
{
	if (cp_pinned(c))
		return "it has a control dependency";
	if (pl_inst_num_operands(c) != 1 || pl_inst_num_results(c) != 1)
		return "it has more than one operand";
	if (pl_value_num_uses(pl_inst_result(c, 0)) != 1)
		return "its result has more than one use";
	pl_inst *ret = pl_func_last_inst(l->body);
	ptr_map_clear(&p->seen);
	if (!ptr_map_put(&p->seen, c, c))
		return cp_oom(p);
	size_t scan = 0;
	pl_inst *cur = c;
	for (;;) {
		pl_value *v = pl_inst_result(cur, 0);
		for (size_t r = 0; r < pl_inst_num_results(cur); r++)
			for (pl_use *u = pl_value_first_use(pl_inst_result(cur, r)); u; u = pl_use_next(u)) {
				pl_inst *user = pl_use_user(u);
				v = pl_inst_result(cur, r);
				if (ptr_map_get(&p->seen, user))
					continue;
				if (pl_inst_hlo_op(user) == PL_HLO_DYNAMIC_UPDATE_SLICE &&
				    pl_inst_num_operands(user) > 2 && pl_inst_operand(user, 1) == v &&
				    pl_value_num_uses(pl_inst_result(user, 0)) == 1 &&
				    pl_use_user(pl_value_first_use(pl_inst_result(user, 0))) == ret) {
					if (mv->dus && mv->dus != user)
						return "its result is written by more than one dynamic-update-slice";
					mv->dus = user;
					continue;
				}
				if (!cp_formatting_op(user) || cp_pinned(user)) {
					char buf[256];
					snprintf(buf, sizeof buf, "%%%s (%s)", inst_label(user), pl_inst_opname(user));
					return cp_fail(p, "%s stands between it and a dynamic-update-slice into a loop "
					            "output, and is not a formatting op it may carry along", buf);
				}
				if (!ptr_map_put(&p->seen, user, user) || !cp_move_add(mv, user))
					return cp_oom(p);
			}
		if (scan == mv->nwith)
			break;
		cur = mv->with[scan++];
	}
	if (!mv->dus)
		return "its result is not written into a loop output by a dynamic-update-slice";
	mv->nformat = mv->nwith;
	/* the other operands of the formatting ops and the update's fixed
	 * indices: computations XLA clones along; anything else stays */
	for (size_t k = 0; k <= mv->nformat; k++) {
		pl_inst *f = k < mv->nformat ? mv->with[k] : mv->dus;
		for (size_t j = k < mv->nformat ? 0 : 2; j < pl_inst_num_operands(f); j++) {
			pl_value *v = pl_inst_operand(f, j);
			pl_inst *d = pl_value_def(v);
			if (d && ptr_map_get(&p->seen, d))
				continue;
			if (k == mv->nformat && pl_inst_hlo_op(d) != PL_HLO_CONSTANT)
				continue; /* the moving index: carried */
			if (p->oom)
				return "out of memory";
			if (cp_invariant_input(p, v, mv))
				continue;
			if (p->oom || k == mv->nformat)
				return p->oom ? "out of memory"
				              : cp_fail(p, "%%%s, an index of the update, is computed in the loop",
				                        value_label(v));
			/* computed in the loop: XLA carries it as one more element */
			bool had = false;
			for (size_t q = 0; q < mv->ncarry && !had; q++)
				had = mv->carry[q] == v;
			if (!had && !PL_GROW(mv->carry, mv->carrycap, mv->ncarry + 1))
				return cp_oom(p);
			if (!had)
				mv->carry[mv->ncarry++] = v;
		}
	}
	const char *why = check_update(p, l, mv);
	if (why)
		return why;
	if (mv->nformat)
		qsort(mv->with, mv->nformat, sizeof *mv->with, cp_cmp_position);
	if (mv->nwith > mv->nformat)
		qsort(mv->with + mv->nformat, mv->nwith - mv->nformat, sizeof *mv->with,
		      cp_cmp_position);
	return NULL;
}

/* ---- shared ---- */

void cp_remark_not(struct pipeliner *p, const pl_inst *c, const char *dir, const char *why)
{
	if (p->remarks)
		pl_ctx_remark(p->ctx, c, "not pipelined (%s): %s %%%s: %s", dir, cp_kind_name(c),
		              inst_label(c), why);
}

enum direction { DIR_SINK, DIR_FORWARD, DIR_BACKWARD };

static const char *const dir_name[] = {"forward-sink", "forward", "backward"};

static bool wanted(const struct config *cfg, const pl_inst *i, enum direction dir)
{
	switch (pl_inst_op(i)) {
	case PL_OP_ALL_GATHER: return dir == DIR_BACKWARD && cfg->all_gather;
	case PL_OP_REDUCE_SCATTER: return dir == DIR_FORWARD && cfg->reduce_scatter;
	case PL_OP_ALL_REDUCE:
		return dir == DIR_FORWARD ? cfg->all_reduce : dir == DIR_SINK && cfg->sink_all_reduce;
	default: return false;
	}
}

static void moves_reset(struct pipeliner *p)
{
	for (size_t k = 0; k < p->nmoves; k++)
		cp_move_free(&p->moves[k]);
	p->nmoves = 0;
	ptr_map_clear(&p->member);
	ptr_map_clear(&p->carried);
}

/* The moves of loop l in one direction, with remarks for the rest. */
static int collect(struct pipeliner *p, const struct counted_loop *l, bool backward)
{
	moves_reset(p);
	for (pl_inst *i = pl_func_first_inst(l->body); i; i = pl_inst_next(i)) {
		if (!wanted(p->cfg, i, backward ? DIR_BACKWARD : DIR_FORWARD) ||
		    ptr_map_get(&p->member, i))
			continue;
		if (!PL_GROW(p->moves, p->mcap, p->nmoves + 1))
			return PL_ENOMEM;
		struct move *mv = &p->moves[p->nmoves];
		memset(mv, 0, sizeof *mv);
		mv->coll = i;
		p->why[0] = '\0';
		const char *why = backward ? backward_chain(p, l, i, mv) : forward_chain(p, l, i, mv);
		if (p->oom) {
			cp_move_free(mv);
			return PL_ENOMEM;
		}
		if (why) {
			cp_remark_not(p, i, backward ? "backward" : "forward", why);
			cp_move_free(mv);
			continue;
		}
		/* a chain that another move already carries stays with it */
		bool taken = false;
		for (size_t k = 0; k < mv->nwith && !taken; k++)
			taken = ptr_map_get(&p->member, mv->with[k]) != NULL ||
			        (k < mv->nformat && ptr_map_get(&p->carried, mv->with[k]));
		for (size_t c = 0; c < mv->ncarry && !taken; c++)
			taken = pl_value_def(mv->carry[c]) &&
			        ptr_map_get(&p->member, pl_value_def(mv->carry[c])) != NULL;
		taken = taken || ptr_map_get(&p->carried, i) != NULL;
		if (taken) {
			cp_remark_not(p, i, backward ? "backward" : "forward",
			           "its chain overlaps another pipelined collective's");
			cp_move_free(mv);
			continue;
		}
		if (!ptr_map_put(&p->member, i, mv))
			return PL_ENOMEM;
		for (size_t k = 0; k < (backward ? 0 : mv->nformat); k++)
			if (!ptr_map_put(&p->member, mv->with[k], mv))
				return PL_ENOMEM;
		for (size_t c = 0; c < mv->ncarry; c++)
			if (pl_value_def(mv->carry[c]) &&
			    !ptr_map_put(&p->carried, pl_value_def(mv->carry[c]), mv))
				return PL_ENOMEM;
		p->nmoves++;
	}
	return PL_OK;
}

static int cp_map_args(struct ptr_map *map, const pl_func *f, pl_value *const *to, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!ptr_map_put(map, pl_func_arg(f, k), to[k]))
			return PL_ENOMEM;
	return PL_OK;
}

/* Replaces each result k of w by to[k] and erases w. */
int cp_replace_while(pl_inst *w, pl_value *const *to)
{
	pl_func *f = pl_inst_func(w);
	pl_inst *ret = pl_func_last_inst(f);
	bool returned = false;
	for (size_t k = 0; ret && k < pl_inst_num_operands(ret); k++)
		returned |= pl_value_def(pl_inst_operand(ret, k)) == w;
	for (size_t k = 0; k < pl_inst_num_results(w); k++)
		pl_value_replace(pl_inst_result(w, k), to[k]);
	int rc = pl_inst_erase(w);
	/* a root that read the loop's tuple now reads other values */
	if (rc == PL_OK && returned)
		rc = loop_new_return(f, NULL, NULL, 0);
	return rc;
}

const char *cp_loop_label(const struct counted_loop *l)
{
	return inst_label(l->w);
}

/* ---- backward ---- */

static int backward(struct pipeliner *p, struct counted_loop *l)
{
	pl_inst *w = l->w;
	pl_func *body = l->body, *cond = l->cond, *parent = l->parent;
	size_t n = pl_inst_num_operands(w), m = p->nmoves;
	struct ptr_map map = {0};
	pl_value **vals = calloc(n + m + 1, sizeof *vals);
	const pl_type **ty = calloc(m + 1, sizeof *ty);
	int rc = vals && ty ? PL_OK : PL_ENOMEM;
	if (p->remarks)
		for (size_t j = 0; j < m; j++)
			pl_ctx_remark(p->ctx, p->moves[j].coll,
			              "pipelined (backward): %s %%%s of loop %%%s issued one iteration "
			              "early, the first before the loop, the last trip's body peeled "
			              "after it: %llu trips left",
			              cp_kind_name(p->moves[j].coll), inst_label(p->moves[j].coll),
			              cp_loop_label(l), (unsigned long long)(l->trips - 1));
	/* the chains' union, in body order, cloned once per place */
	struct move all = {0};
	for (size_t j = 0; j < m && rc == PL_OK; j++)
		for (size_t k = 0; k < p->moves[j].nwith && rc == PL_OK; k++)
			if (!ptr_map_get(&map, p->moves[j].with[k]))
				rc = ptr_map_put(&map, p->moves[j].with[k], p->moves[j].with[k]) &&
				     cp_move_add(&all, p->moves[j].with[k]) ? PL_OK : PL_ENOMEM;
	ptr_map_clear(&map);
	if (rc == PL_OK && all.nwith)
		qsort(all.with, all.nwith, sizeof *all.with, cp_cmp_position);

	/* 1. the first iteration's collectives, before the loop */
	for (size_t k = 0; k < n; k++)
		vals[k] = pl_inst_operand(w, k);
	if (rc == PL_OK)
		rc = cp_map_args(&map, body, vals, n);
	for (size_t k = 0; k < all.nwith && rc == PL_OK; k++)
		if (!loop_clone_inst(parent, w, all.with[k], &map, ".peeled", &p->next_channel))
			rc = PL_ENOMEM;
	pl_value **extra = vals + n;
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		pl_inst *g = loop_clone_inst(parent, w, p->moves[j].coll, &map, ".peeled",
		                             &p->next_channel);
		if (!g)
			rc = PL_ENOMEM;
		else
			extra[j] = pl_inst_result(g, 0);
		ty[j] = pl_value_type(pl_inst_result(p->moves[j].coll, 0));
	}
	/* 2. the loop, one trip fewer, carrying the gathered values */
	pl_inst *w2 = rc == PL_OK ? loop_while_widened(w, NULL, extra, m) : NULL;
	if (rc == PL_OK && !w2)
		rc = PL_ENOMEM;
	if (rc == PL_OK && pl_attrs_get(pl_inst_attrs(w2), "hlo_backend_config"))
		rc = loop_set_known_trips(w2, l->trips - 1);
	/* 3. the last trip's body, after the loop, on the carried values */
	ptr_map_clear(&map);
	for (size_t k = 0; k < n + m && rc == PL_OK; k++)
		vals[k] = pl_inst_result(w2, k);
	if (rc == PL_OK)
		rc = cp_map_args(&map, body, vals, n);
	for (size_t j = 0; j < m && rc == PL_OK; j++)
		if (!ptr_map_put(&map, pl_inst_result(p->moves[j].coll, 0), vals[n + j]))
			rc = PL_ENOMEM;
	pl_inst *ret = pl_func_last_inst(body);
	for (pl_inst *i = pl_func_first_inst(body); i != ret && rc == PL_OK; i = pl_inst_next(i)) {
		if (ptr_map_get(&p->member, i))
			continue;
		if (!loop_clone_inst(parent, w, i, &map, ".last", &p->next_channel))
			rc = PL_ENOMEM;
	}
	for (size_t k = 0; k < n && rc == PL_OK; k++) {
		pl_value *v = pl_inst_operand(ret, k), *to = ptr_map_get(&map, v);
		vals[k] = to ? to : v;
	}
	/* the chain's clones nothing reads there (only the shared scalars stay) */
	for (size_t k = all.nwith; k-- > 0 && rc == PL_OK;) {
		pl_value *c = ptr_map_get(&map, pl_inst_result(all.with[k], 0));
		if (c)
			rc = loop_erase_if_unused(pl_value_def(c));
	}
	if (rc == PL_OK)
		rc = cp_replace_while(w, vals);

	/* 4. the body gathers for the next trip and reads this trip's gather */
	ptr_map_clear(&map);
	if (rc == PL_OK)
		rc = loop_add_args(body, ty, m, "pipelined");
	pl_value *next_iv = pl_inst_result(l->next_iv, 0);
	if (rc == PL_OK && !ptr_map_put(&map, pl_func_arg(body, l->iv), next_iv))
		rc = PL_ENOMEM;
	pl_inst *at = pl_inst_next(l->next_iv);
	for (size_t k = 0; k < all.nwith && rc == PL_OK; k++)
		if (!loop_clone_inst(body, at, all.with[k], &map, ".next", &p->next_channel))
			rc = PL_ENOMEM;
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		pl_inst *g = loop_clone_inst(body, at, p->moves[j].coll, &map, ".next", &p->next_channel);
		if (!g) {
			rc = PL_ENOMEM;
			break;
		}
		extra[j] = pl_inst_result(g, 0);
		pl_value_replace(pl_inst_result(p->moves[j].coll, 0), pl_func_arg(body, n + j));
		rc = pl_inst_erase(p->moves[j].coll);
	}
	for (size_t k = all.nwith; k-- > 0 && rc == PL_OK;)
		rc = loop_erase_if_unused(all.with[k]);
	if (rc == PL_OK)
		rc = loop_new_return(body, NULL, extra, m);
	/* 5. the condition: one trip fewer */
	if (rc == PL_OK)
		rc = loop_add_args(cond, ty, m, "pipelined");
	pl_inst *cret = pl_func_last_inst(cond);
	pl_inst *old_cmp = rc == PL_OK ? pl_value_def(pl_inst_operand(cret, 0)) : NULL;
	const pl_type *ivt = pl_value_type(pl_func_arg(cond, l->iv));
	pl_inst *bound = rc == PL_OK ? loop_int_constant(cond, cret, ivt,
	                                                 l->start + (int64_t)(l->trips - 1) * l->step)
	                             : NULL;
	pl_inst *cmp = NULL;
	if (rc == PL_OK && bound) {
		pl_value *ops[2] = {pl_func_arg(cond, l->iv), pl_inst_result(bound, 0)};
		const pl_type *bt = pl_value_type(pl_inst_operand(cret, 0));
		rc = pl_inst_create(&cmp, cond, pl_hlo_op_name(PL_HLO_COMPARE), ops, 2, &bt, 1);
		if (rc == PL_OK)
			rc = pl_attrs_set_string(pl_inst_attrs(cmp), "hlo_direction",
			                         l->step > 0 ? "LT" : "GT");
		if (rc == PL_OK) {
			pl_inst_insert_before(cmp, cret);
			pl_value *sub[1] = {pl_inst_result(cmp, 0)};
			rc = loop_new_return(cond, sub, NULL, 0);
		}
		pl_inst *old_bound[2] = {pl_value_def(pl_inst_operand(old_cmp, 0)),
		                         pl_value_def(pl_inst_operand(old_cmp, 1))};
		if (rc == PL_OK)
			rc = loop_erase_if_unused(old_cmp);
		for (size_t k = 0; k < 2 && rc == PL_OK; k++)
			if (old_bound[k] && pl_inst_hlo_op(old_bound[k]) == PL_HLO_CONSTANT)
				rc = loop_erase_if_unused(old_bound[k]);
	} else if (rc == PL_OK) {
		rc = PL_ENOMEM;
	}
	ptr_map_free(&map);
	free(all.with);
	free(vals);
	free(ty);
	return rc;
}

/* ---- forward ---- */

static int forward(struct pipeliner *p, struct counted_loop *l)
{
	pl_inst *w = l->w;
	pl_func *body = l->body, *cond = l->cond, *parent = l->parent;
	size_t n = pl_inst_num_operands(w), m = p->nmoves;
	struct ptr_map map = {0};
	/* the moves' loop-computed inputs, once each, after the 2 m elements
	 * of the operands and indices */
	size_t ncv = 0;
	for (size_t j = 0; j < m; j++)
		ncv += p->moves[j].ncarry;
	pl_value **cv = calloc(ncv + 1, sizeof *cv);
	ncv = 0;
	for (size_t j = 0; cv && j < m; j++)
		for (size_t c = 0; c < p->moves[j].ncarry; c++) {
			bool had = false;
			for (size_t k = 0; k < ncv && !had; k++)
				had = cv[k] == p->moves[j].carry[c];
			if (!had)
				cv[ncv++] = p->moves[j].carry[c];
		}
	size_t e = 2 * m + ncv;
	pl_value **vals = calloc(n + e, sizeof *vals);
	pl_value **extra = calloc(e + 1, sizeof *extra);
	const pl_type **ty = calloc(e + 1, sizeof *ty);
	int rc = vals && ty && extra && cv ? PL_OK : PL_ENOMEM;
	if (p->remarks)
		for (size_t j = 0; j < m; j++)
			pl_ctx_remark(p->ctx, p->moves[j].coll,
			              "pipelined (forward): %s %%%s of loop %%%s completed in the next "
			              "iteration, the first iteration peeled before the loop, the last "
			              "collective after it: %llu trips left",
			              cp_kind_name(p->moves[j].coll), inst_label(p->moves[j].coll),
			              cp_loop_label(l), (unsigned long long)(l->trips - 1));
	for (size_t j = 0; j < m; j++) {
		ty[2 * j] = pl_value_type(pl_inst_operand(p->moves[j].coll, 0));
		ty[2 * j + 1] = pl_value_type(pl_inst_operand(p->moves[j].dus, p->moves[j].sliced));
	}
	for (size_t c = 0; c < ncv && rc == PL_OK; c++)
		ty[2 * m + c] = pl_value_type(cv[c]);
	/* 1. the first iteration, before the loop, without the moved ops: the
	 * updates leave their buffers as they came in */
	for (size_t k = 0; k < n; k++)
		vals[k] = pl_inst_operand(w, k);
	if (rc == PL_OK)
		rc = cp_map_args(&map, body, vals, n);
	for (size_t j = 0; j < m && rc == PL_OK; j++)
		if (!ptr_map_put(&map, pl_inst_result(p->moves[j].dus, 0), vals[p->moves[j].out]))
			rc = PL_ENOMEM;
	pl_inst *ret = pl_func_last_inst(body);
	for (pl_inst *i = pl_func_first_inst(body); i != ret && rc == PL_OK; i = pl_inst_next(i)) {
		struct move *mv = ptr_map_get(&p->member, i);
		bool skip = mv != NULL;
		for (size_t j = 0; j < m && !skip; j++)
			skip = i == p->moves[j].dus;
		if (!skip && !loop_clone_inst(parent, w, i, &map, ".peeled", &p->next_channel))
			rc = PL_ENOMEM;
	}
	pl_value **init = vals;
	for (size_t k = 0; k < n && rc == PL_OK; k++) {
		pl_value *v = pl_inst_operand(ret, k), *to = ptr_map_get(&map, v);
		init[k] = to ? to : v;
	}
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		pl_value *x = pl_inst_operand(p->moves[j].coll, 0);
		pl_value *ix = pl_inst_operand(p->moves[j].dus, p->moves[j].sliced);
		extra[2 * j] = ptr_map_get(&map, x) ? ptr_map_get(&map, x) : x;
		extra[2 * j + 1] = ptr_map_get(&map, ix) ? ptr_map_get(&map, ix) : ix;
	}
	for (size_t c = 0; c < ncv && rc == PL_OK; c++)
		extra[2 * m + c] = ptr_map_get(&map, cv[c]) ? ptr_map_get(&map, cv[c]) : cv[c];
	/* the loop's counter starts one trip on, as a constant */
	pl_inst *start = rc == PL_OK ? loop_int_constant(parent, w, pl_value_type(init[l->iv]),
	                                                 l->start + l->step)
	                             : NULL;
	if (rc == PL_OK && !start)
		rc = PL_ENOMEM;
	pl_inst *peeled_next = rc == PL_OK ? pl_value_def(init[l->iv]) : NULL;
	if (rc == PL_OK)
		init[l->iv] = pl_inst_result(start, 0);
	/* 2. the loop, one trip fewer, carrying each collective's operand and
	 * update index */
	pl_inst *w2 = rc == PL_OK ? loop_while_widened(w, init, extra, e) : NULL;
	if (rc == PL_OK && !w2)
		rc = PL_ENOMEM;
	if (rc == PL_OK && peeled_next)
		rc = loop_erase_if_unused(peeled_next);
	if (rc == PL_OK && pl_attrs_get(pl_inst_attrs(w2), "hlo_backend_config"))
		rc = loop_set_known_trips(w2, l->trips - 1);
	/* 3. after the loop: the last trip's collectives and updates */
	pl_value **outs = calloc(n, sizeof *outs);
	if (rc == PL_OK && !outs)
		rc = PL_ENOMEM;
	for (size_t k = 0; k < n && rc == PL_OK; k++)
		outs[k] = pl_inst_result(w2, k);
	/* one map for all: the inputs two moves share are cloned once */
	ptr_map_clear(&map);
	for (size_t c = 0; c < ncv && rc == PL_OK; c++)
		if (!ptr_map_put(&map, cv[c], pl_inst_result(w2, n + 2 * m + c)))
			rc = PL_ENOMEM;
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		struct move *mv = &p->moves[j];
		if (!ptr_map_put(&map, pl_inst_operand(mv->coll, 0), pl_inst_result(w2, n + 2 * j)) ||
		    !ptr_map_put(&map, pl_inst_operand(mv->dus, mv->sliced),
		                 pl_inst_result(w2, n + 2 * j + 1)) ||
		    !ptr_map_put(&map, pl_inst_operand(mv->dus, 0), outs[mv->out]))
			rc = PL_ENOMEM;
		for (size_t k = mv->nformat; k < mv->nwith && rc == PL_OK; k++)
			if (!ptr_map_get(&map, pl_inst_result(mv->with[k], 0)) &&
			    !loop_clone_inst(parent, w, mv->with[k], &map, ".last", &p->next_channel))
				rc = PL_ENOMEM;
		if (rc == PL_OK && !loop_clone_inst(parent, w, mv->coll, &map, ".last", &p->next_channel))
			rc = PL_ENOMEM;
		for (size_t k = 0; k < mv->nformat && rc == PL_OK; k++)
			if (!loop_clone_inst(parent, w, mv->with[k], &map, ".last", &p->next_channel))
				rc = PL_ENOMEM;
		pl_inst *d = rc == PL_OK ? loop_clone_inst(parent, w, mv->dus, &map, ".last", NULL) : NULL;
		if (rc == PL_OK && !d)
			rc = PL_ENOMEM;
		if (rc == PL_OK)
			outs[mv->out] = pl_inst_result(d, 0);
	}
	if (rc == PL_OK)
		rc = cp_replace_while(w, outs);
	free(outs);
	/* 4. the body: the trip before's collective first, its update last */
	if (rc == PL_OK)
		rc = loop_add_args(body, ty, e, "pipelined");
	pl_value **subst = calloc(n, sizeof *subst);
	if (rc == PL_OK && !subst)
		rc = PL_ENOMEM;
	ret = pl_func_last_inst(body);
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		struct move *mv = &p->moves[j];
		ptr_map_clear(&map);
		if (!ptr_map_put(&map, pl_inst_operand(mv->coll, 0), pl_func_arg(body, n + 2 * j)) ||
		    !ptr_map_put(&map, pl_inst_operand(mv->dus, mv->sliced),
		                 pl_func_arg(body, n + 2 * j + 1)))
			rc = PL_ENOMEM;
		for (size_t c = 0; c < ncv && rc == PL_OK; c++)
			if (!ptr_map_put(&map, cv[c], pl_func_arg(body, n + 2 * m + c)))
				rc = PL_ENOMEM;
		if (rc == PL_OK && !loop_clone_inst(body, pl_func_first_inst(body), mv->coll, &map,
		                                    ".prev", &p->next_channel))
			rc = PL_ENOMEM;
		for (size_t k = 0; k < mv->nformat && rc == PL_OK; k++)
			if (!loop_clone_inst(body, ret, mv->with[k], &map, ".prev", &p->next_channel))
				rc = PL_ENOMEM;
		pl_inst *d = rc == PL_OK ? loop_clone_inst(body, ret, mv->dus, &map, ".prev", NULL) : NULL;
		if (rc == PL_OK && !d)
			rc = PL_ENOMEM;
		if (rc == PL_OK) {
			subst[mv->out] = pl_inst_result(d, 0);
			extra[2 * j] = pl_inst_operand(mv->coll, 0);
			extra[2 * j + 1] = pl_inst_operand(mv->dus, mv->sliced);
		}
	}
	for (size_t c = 0; c < ncv; c++)
		extra[2 * m + c] = cv[c];
	if (rc == PL_OK)
		rc = loop_new_return(body, subst, extra, e);
	free(subst);
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		struct move *mv = &p->moves[j];
		rc = pl_inst_erase(mv->dus);
		for (size_t k = mv->nformat; k-- > 0 && rc == PL_OK;)
			rc = pl_inst_erase(mv->with[k]);
		if (rc == PL_OK)
			rc = pl_inst_erase(mv->coll);
		for (size_t k = mv->nwith; k-- > mv->nformat && rc == PL_OK;)
			rc = loop_erase_if_unused(mv->with[k]);
	}
	/* 5. the condition reads the longer state; its bound stays */
	if (rc == PL_OK)
		rc = loop_add_args(cond, ty, e, "pipelined");
	ptr_map_free(&map);
	free(cv);
	free(vals);
	free(extra);
	free(ty);
	return rc;
}

/* ---- the pass ---- */

static int pipeline_loops(struct pipeliner *p, enum direction dir)
{
	bool backward_dir = dir == DIR_BACKWARD;
	/* the loops as they are now, innermost (callees) first as the module
	 * lists them; those this direction makes are not looked at again */
	size_t cap = 0, nloops = 0;
	pl_inst **loops = NULL;
	struct rewritable rw;
	int rc = rewritable_init(&rw, p->m);
	for (size_t k = 0; k < pl_module_num_funcs(p->m) && rc == PL_OK; k++) {
		if (!rewritable_at(&rw, k))
			continue;
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(p->m, k)); i; i = pl_inst_next(i))
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
		const char *why = counted_loop_match(p->m, loops[k], &l);
		if (!why && l.trips < 2)
			why = "the loop runs fewer than two trips";
		if (why) {
			pl_func *body = l.body;
			for (pl_inst *i = body ? pl_func_first_inst(body) : NULL; i; i = pl_inst_next(i))
				if (wanted(p->cfg, i, dir))
					cp_remark_not(p, i, dir_name[dir], why);
			continue;
		}
		if (dir == DIR_SINK) {
			pl_inst *after = pl_inst_prev(l.w), *before = pl_inst_next(l.w);
			if (before && pl_inst_op(before) == PL_OP_RETURN)
				before = NULL;
			uint64_t was = p->moved;
			rc = cp_sink_loop(p, &l);
			if (rc == PL_OK && p->moved != was)
				rc = loop_dce_between(l.parent, after, before);
			continue;
		}
		rc = collect(p, &l, backward_dir);
		if (rc == PL_OK && p->nmoves) {
			pl_inst *after = pl_inst_prev(l.w), *before = pl_inst_next(l.w);
			if (before && pl_inst_op(before) == PL_OP_RETURN)
				before = NULL; /* the return may be made again */
			rc = backward_dir ? backward(p, &l) : forward(p, &l);
			if (rc == PL_OK)
				rc = loop_dce_between(l.parent, after, before);
			p->moved += p->nmoves;
		}
	}
	moves_reset(p);
	free(loops);
	return rc;
}

static int pipeliner_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int rc = pl_ctx_get_bool(ctx, "pipeline_all_gather", &cfg->all_gather);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "pipeline_reduce_scatter", &cfg->reduce_scatter);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "pipeline_all_reduce", &cfg->all_reduce);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "pipeline_sink_all_reduce", &cfg->sink_all_reduce);
	if (rc) {
		free(cfg);
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		return rc;
	}
	*state = cfg;
	return PL_OK;
}

static void pipeliner_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static int pipeliner_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct pipeliner p = {.ctx = ctx, .m = m, .cfg = state,
	                      .remarks = pl_ctx_remarks_enabled(ctx),
	                      .next_channel = loop_next_channel(m)};
	/* XLA runs its forward pipeliners before the backward one; a
	 * collective sunk out of its loop is not pipelined as well */
	int rc = p.cfg->sink_all_reduce ? pipeline_loops(&p, DIR_SINK) : PL_OK;
	if (rc == PL_OK)
		rc = pipeline_loops(&p, DIR_FORWARD);
	if (rc == PL_OK)
		rc = pipeline_loops(&p, DIR_BACKWARD);
	pass_end_stat(ctx, "num_pipelined", p.moved, &rc);
	ptr_map_free(&p.member);
	ptr_map_free(&p.carried);
	ptr_map_free(&p.seen);
	free(p.moves);
	return pass_end_report(ctx, rc, "pipeline collectives");
}

static const pl_pass_desc pipeliner_pass = {
	PL_PASS_DESC_INIT,
	.name = "CollectivePipeliner",
	.summary = "Moves loop collectives across iterations: all-gathers one trip early, "
	           "reduce-scatters and all-reduces one trip late.",
	.options = pipeliner_options,
	.stats = pipeliner_stats,
	.create = pipeliner_create,
	.run = pipeliner_run,
	.destroy = pipeliner_destroy,
};

PL_PLUGIN_DEFINE("CollectivePipeliner", PACKAGE_VERSION, "MIT",
                 "Collectives pipelined across loop iterations.", &pipeliner_pass)
