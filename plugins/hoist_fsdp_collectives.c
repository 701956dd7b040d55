/* SPDX-License-Identifier: MIT */
/* Contract: reads operands, uses, stores; moves FSDP all-gathers up, then FSDP reduce-scatters down; needs verified IR. */

/* plugins/hoist_fsdp_collectives.c — HoistFSDPCollectives (passline-pipeline(5)).
 * Only the order of instructions changes.
 *
 * An FSDP all-gather is an all_gather with fsdp = true or whose operands
 * are all function arguments; an FSDP reduce-scatter is a reduce_scatter
 * with fsdp = true; neither is pinned = true (an HLO control dependency:
 * such an instruction never moves). An all_gather_start is hoisted like an all_gather (its
 * done stays: the window where the gather hides grows); reduce-scatter
 * starts and dones stay, since sinking a start would shrink its window.
 *
 * Hoisting, one forward sweep that only plans, then the moves. An FSDP
 * all-gather g goes to just after its anchor, the latest of
 *   - the definition of each operand (none for an argument),
 *   - the last store to one of its operands before g,
 *   - the previous FSDP all-gather (in its new place: relative order kept),
 *   - with max_distance D, the (D+1)-th instruction above g that stays put
 *     (so g moves past at most D instructions),
 * or to the top of the function when there is none. "Stays put" is every
 * instruction but the all-gathers that move; an anchor is always one of
 * those, so g moves exactly when its anchor is not the last instruction
 * that stays put before it. Two all-gathers with the same anchor keep
 * their order (the later goes after the earlier).
 *
 * Sinking is the mirror image, planned by one backward sweep over the
 * module as hoisting left it: an FSDP reduce-scatter r goes to just before
 * the earliest of the first user of its results, the first store to one of
 * its operands after r, the next FSDP reduce-scatter (order kept), with
 * max_distance the (D+1)-th instruction below r that stays put, and the
 * function's return; or to the end of the function. Users and definitions
 * that are themselves FSDP collectives of the kind being moved are covered
 * by the "previous/next one" rule, which is why they are skipped.
 *
 * Hoisting comes first, and sinking plans on the module as hoisting left
 * it. The two only meet when an FSDP all-gather reads an FSDP
 * reduce-scatter's result: either order is correct, but the first one to
 * move wins the gap between them. Hoisting
 * first gives the parameter prefetch priority: the all-gather rises to just
 * after the reduce-scatter, which then stays before it.
 *
 * Linear: each sweep visits every instruction once and every use of an
 * FSDP reduce-scatter's results once; positions are compared in O(1)
 * (no edits while planning); "the last store to v" is a hash map from
 * buffer value to store filled by the same sweep; each move is O(1), and
 * keeps the positions current by renumbering a few neighbours at times
 * (O(log^2 n) numbers amortised).
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_bytes.h"
#include "labels.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"
#include <passline/grow.h>

static const pl_option_decl hoist_options[] = {
	PL_OPTION_BOOL("hoist_all_gathers", "true",
	               "Move FSDP all-gathers up to just after their operands."),
	PL_OPTION_BOOL("sink_reduce_scatters", "true",
	               "Move FSDP reduce-scatters down to just before their first use."),
	PL_OPTION_INT("max_distance", "0", 0, INT64_MAX,
	              "Most instructions a collective may move past (0: unlimited)."),
	PL_OPTION_END
};

static const pl_stat_decl hoist_stats[] = {
	PL_STAT("num_all_gathers_hoisted", "FSDP all-gathers moved up."),
	PL_STAT("num_reduce_scatters_sunk", "FSDP reduce-scatters moved down."),
	PL_STAT_END
};

struct config {
	bool hoist, sink;
	uint64_t max_distance; /* 0: unlimited */
};

/* A planned move: inst goes right after (hoisting) or right before
 * (sinking) target; a NULL target is the top / the end of the function. */
struct move {
	pl_inst *inst;
	pl_inst *target;
};

struct move_vec {
	struct move *v;
	size_t len, cap;
};

struct mover {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	pl_inst *last_stay;       /* the last instruction that stays put, in sweep order */
	pl_inst *terminator;      /* the function's return, or NULL (sinking stops there) */
	struct inst_vec stay;     /* all of them, kept only with max_distance */
	struct move_vec moves;
	struct ptr_map nearest_store; /* buffer value -> nearest store in sweep order */
	/* all-gathers that define an operand of an FSDP all-gather, by
	 * whether they are FSDP ones themselves (hoisting): asked once each */
	struct ptr_map gather_defs;
	struct attr_key fsdp, pinned;
	bool remarks;
	uint64_t hoisted, sunk; /* for the stats, added at the end of the run */
};

/* ---- options ------------------------------------------------------------- */

static int hoist_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int64_t dist = 0;
	int rc = pl_ctx_get_bool(ctx, "hoist_all_gathers", &cfg->hoist);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "sink_reduce_scatters", &cfg->sink);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_distance", &dist);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	cfg->max_distance = dist > 0 ? (uint64_t)dist : 0;
	*state = cfg;
	return PL_OK;
}

static void hoist_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- small helpers ----------------------------------------------------------- */

static bool is_true(struct attr_key *k, const pl_inst *inst)
{
	const pl_attr *a = attr_key_get(k, pl_inst_attrs_const(inst));
	return a && pl_attr_get_bool(a); /* false unless a boolean true */
}

/* Real steps slice and convert a parameter before they gather it
 * (MaxText gathers convert(param), and a scanned layer
 * convert(dynamic-slice(params, i))): the gather sees through a small
 * tree of such operations over arguments, which moves with it. A node of
 * the tree only converts, re-views or slices (see is_seen_through); its
 * result is used by nothing but the tree and the gather, so moving it up
 * moves no other instruction's operand; its other operands are arguments
 * or constants (instructions without operands) or, for a dynamic-slice,
 * scalar start indexes computed anyhow; those are dependencies like any
 * other. Only without max_distance: a distance
 * bound may be a node of a tree that moves. */
enum { MAX_TREE = 16 };

struct tree {
	pl_inst *v[MAX_TREE]; /* operands before users */
	size_t n;
};

static bool is_seen_through(struct mover *mv, const pl_inst *inst)
{
	static const pl_hlo_op ops[] = {PL_HLO_CONVERT,         PL_HLO_BITCAST,       PL_HLO_COPY,
	                                PL_HLO_RESHAPE,         PL_HLO_BITCAST_CONVERT,
	                                PL_HLO_DYNAMIC_SLICE,   PL_HLO_SLICE,         PL_HLO_TRANSPOSE};
	if (pl_inst_num_operands(inst) < 1 || pl_inst_num_results(inst) != 1 ||
	    is_true(&mv->pinned, inst))
		return false;
	pl_hlo_op op = pl_inst_hlo_op(inst);
	for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
		if (op == ops[k])
			return true;
	return false;
}

static bool in_tree(const struct tree *t, const pl_inst *i)
{
	for (size_t k = 0; k < t->n; k++)
		if (t->v[k] == i)
			return true;
	return false;
}

/* Whether v is an argument or a constant: nothing to move for it. */
static bool is_leaf(const pl_value *v)
{
	const pl_inst *d = pl_value_def(v);
	return !d || (pl_inst_num_operands(d) == 0 && pl_inst_num_results(d) == 1 &&
	              pl_inst_is_hlo(d));
}

/* Adds to t the nodes that compute v from leaves (operands first); false
 * when v needs anything else or more than MAX_TREE nodes. */
static bool grow_tree(struct mover *mv, const pl_value *v, struct tree *t)
{
	if (is_leaf(v))
		return true;
	pl_inst *d = pl_value_def(v);
	if (in_tree(t, d))
		return true;
	if (!is_seen_through(mv, d) || t->n == MAX_TREE)
		return false;
	bool slice = pl_inst_hlo_op(d) == PL_HLO_DYNAMIC_SLICE;
	for (size_t k = 0; k < pl_inst_num_operands(d); k++) {
		const pl_value *o = pl_inst_operand(d, k);
		/* a scalar start index (a layer's, computed from the loop's
		 * counter) is a dependency, not part of the tree */
		if (slice && k > 0 && pl_type_rank(pl_value_type(o)) == 0)
			continue;
		if (!grow_tree(mv, o, t))
			return false;
	}
	if (t->n == MAX_TREE)
		return false;
	t->v[t->n++] = d;
	return true;
}

/* The tree g sees through (t->n == 0 when its operands are leaves), or
 * false when an operand is neither a leaf nor such a tree. */
static bool tree_of(struct mover *mv, const pl_inst *g, struct tree *t)
{
	t->n = 0;
	for (size_t k = 0; k < pl_inst_num_operands(g); k++)
		if (!grow_tree(mv, pl_inst_operand(g, k), t))
			return false;
	if (t->n && mv->cfg->max_distance)
		return false;
	/* nothing but the tree and g may use a node */
	for (size_t k = 0; k < t->n; k++)
		for (pl_use *u = pl_value_first_use(pl_inst_result(t->v[k], 0)); u; u = pl_use_next(u))
			if (pl_use_user(u) != g && !in_tree(t, pl_use_user(u)))
				return false;
	return true;
}

static bool operands_all_args(struct mover *mv, const pl_inst *inst)
{
	struct tree t;
	for (size_t k = 0; k < pl_inst_num_operands(inst); k++) {
		const pl_value *v = pl_inst_operand(inst, k);
		if (!pl_value_is_arg(v))
			return tree_of(mv, inst, &t);
	}
	return true;
}

/* Whether an all_gather or all_gather_start (op already checked) is an
 * FSDP one. */
static bool is_fsdp_all_gather(struct mover *mv, const pl_inst *inst)
{
	return (is_true(&mv->fsdp, inst) || operands_all_args(mv, inst)) &&
	       !is_true(&mv->pinned, inst);
}

static bool is_fsdp_reduce_scatter(struct mover *mv, const pl_inst *inst)
{
	return pl_inst_op(inst) == PL_OP_REDUCE_SCATTER && is_true(&mv->fsdp, inst) &&
	       !is_true(&mv->pinned, inst);
}

/* The later of two instructions; NULL stands for the top of the function. */
static pl_inst *later_of(pl_inst *a, pl_inst *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return pl_inst_position(a) >= pl_inst_position(b) ? a : b;
}

/* The earlier of two instructions; NULL stands for the end of the function. */
static pl_inst *earlier_of(pl_inst *a, pl_inst *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return pl_inst_position(a) <= pl_inst_position(b) ? a : b;
}

static bool push_move(struct move_vec *s, pl_inst *inst, pl_inst *target)
{
	if (!PL_GROW(s->v, s->cap, s->len + 1))
		return false;
	s->v[s->len++] = (struct move){inst, target};
	return true;
}

/* Records an instruction that stays put. */
static inline bool note_stay(struct mover *mv, pl_inst *inst)
{
	mv->last_stay = inst;
	return !mv->cfg->max_distance || push_inst(&mv->stay, inst);
}

/* With max_distance D, the instruction that stays put D+1 steps back in
 * the sweep (the farthest a collective may go), or NULL when unlimited. */
static pl_inst *distance_limit(const struct mover *mv)
{
	uint64_t d = mv->cfg->max_distance;
	if (!d || mv->stay.len <= d)
		return NULL;
	return mv->stay.v[mv->stay.len - 1 - d];
}

static void reset_sweep(struct mover *mv)
{
	mv->last_stay = NULL;
	mv->stay.len = 0;
	mv->moves.len = 0;
	ptr_map_clear(&mv->nearest_store);
	ptr_map_clear(&mv->gather_defs);
}

/* ---- hoisting ---------------------------------------------------------------- */

/* Whether def, an instruction before the one being planned, is an FSDP
 * all-gather: 1, 0, or -1 when out of memory. Only the operands of FSDP
 * all-gathers are asked about, and those are nearly all arguments; the
 * answer for an all-gather is remembered (asking again would rescan its
 * operands for every reader), where the sweep used to enter every FSDP
 * all-gather it passed in a set that was then hardly ever read. */
static int is_fsdp_gather_def(struct mover *mv, const pl_inst *def)
{
	pl_op op = pl_inst_op(def);
	if (op != PL_OP_ALL_GATHER && op != PL_OP_ALL_GATHER_START)
		return 0;
	void *known = ptr_map_get(&mv->gather_defs, def);
	if (known)
		return (int)((uintptr_t)known - 1);
	int yes = is_fsdp_all_gather(mv, def);
	if (!ptr_map_put(&mv->gather_defs, def, (void *)(uintptr_t)(yes + 1)))
		return -1;
	return yes;
}

/* The latest instruction g must stay after, apart from the order and
 * distance rules: operand definitions and stores to operands. A definition
 * that is an FSDP all-gather does not count (the order rule covers it).
 * NULL with *oom set when out of memory. */
static pl_inst *hoist_dependency(struct mover *mv, pl_inst *g, bool *oom)
{
	pl_inst *anchor = NULL;
	/* a tree g sees through moves with it: its leaves bind instead */
	struct tree t;
	if (tree_of(mv, g, &t))
		for (size_t k = 0; k < t.n; k++)
			for (size_t o = 0; o < pl_inst_num_operands(t.v[k]); o++) {
				pl_value *v = pl_inst_operand(t.v[k], o);
				if (pl_value_def(v) && !in_tree(&t, pl_value_def(v)))
					anchor = later_of(anchor, pl_value_def(v));
				anchor = later_of(anchor, ptr_map_get(&mv->nearest_store, v));
			}
	for (size_t k = 0; k < pl_inst_num_operands(g); k++) {
		pl_value *v = pl_inst_operand(g, k);
		pl_inst *def = pl_value_def(v);
		if (def && in_tree(&t, def))
			continue;
		if (def) {
			int fsdp = is_fsdp_gather_def(mv, def);
			if (fsdp < 0) {
				*oom = true;
				return NULL;
			}
			if (!fsdp)
				anchor = later_of(anchor, def);
		}
		anchor = later_of(anchor, ptr_map_get(&mv->nearest_store, v));
	}
	return anchor;
}

/* Why all-gather g is not an FSDP one, as a remark. */
static void explain_not_fsdp(struct mover *mv, const pl_inst *g)
{
	char what[128], which[128];
	inst_remark_label(g, what, sizeof what);
	if (is_true(&mv->pinned, g)) {
		pl_ctx_remark(mv->ctx, g, "left %s %s in place: it is pinned", pl_inst_opname(g), what);
		return;
	}
	for (size_t k = 0; k < pl_inst_num_operands(g); k++) {
		const pl_value *v = pl_inst_operand(g, k);
		struct tree t = {.n = 0};
		if (pl_value_is_arg(v) || grow_tree(mv, v, &t))
			continue;
		/* the first node that is neither a leaf nor seen through */
		const pl_value *at = v;
		for (int depth = 0; depth < MAX_TREE && pl_value_def(at); depth++) {
			const pl_inst *d = pl_value_def(at);
			if (!is_seen_through(mv, d))
				break;
			size_t o = 0;
			while (o < pl_inst_num_operands(d) && is_leaf(pl_inst_operand(d, o)))
				o++;
			if (o == pl_inst_num_operands(d))
				break;
			at = pl_inst_operand(d, o);
		}
		const pl_inst *d = pl_value_def(at);
		snprintf(which, sizeof which, "%%%s", value_label(at));
		pl_ctx_remark(mv->ctx, g, "left %s %s in place: not an FSDP gather (no fsdp = true, and "
		                          "its operand comes from %s = %s, not from an argument through "
		                          "conversions, reshapes or slices)",
		              pl_inst_opname(g), what, which, d ? pl_inst_opname(d) : "?");
		return;
	}
	pl_ctx_remark(mv->ctx, g, "left %s %s in place: not an FSDP gather (no fsdp = true, and what "
	                          "it sees through is used by other instructions too%s)",
	              pl_inst_opname(g), what,
	              mv->cfg->max_distance ? ", or max_distance is set" : "");
}

/* Whether i is what hoisting moves: an FSDP all-gather (or its start). */
static bool hoist_candidate(struct mover *mv, pl_inst *i, pl_op op)
{
	if (op != PL_OP_ALL_GATHER && op != PL_OP_ALL_GATHER_START)
		return false;
	if (is_fsdp_all_gather(mv, i))
		return true;
	if (mv->remarks)
		explain_not_fsdp(mv, i);
	return false;
}

static int apply_hoists(struct mover *mv, pl_func *f)
{
	bool remarks = mv->remarks;
	for (size_t k = 0; k < mv->moves.len; k++) {
		pl_inst *g = mv->moves.v[k].inst, *after = mv->moves.v[k].target;
		if (remarks) {
			char what[256], where[256];
			inst_remark_label(g, what, sizeof what);
			if (after)
				pl_ctx_remark(mv->ctx, g, "hoisted %s %s to just after %s",
				              pl_inst_opname(g), what, inst_remark_label(after, where, sizeof where));
			else
				pl_ctx_remark(mv->ctx, g, "hoisted %s %s to the top of @%s",
				              pl_inst_opname(g), what, pl_func_name(f));
		}
		/* the tree it sees through goes first, operands before users */
		struct tree t;
		pl_inst *cursor = after;
		if (tree_of(mv, g, &t))
			for (size_t c = 0; c < t.n; c++) {
				int rc = pl_inst_move(t.v[c], cursor, cursor ? PL_AFTER : PL_FIRST);
				if (rc != PL_OK)
					return rc;
				cursor = t.v[c];
			}
		int rc = pl_inst_move(g, cursor, cursor ? PL_AFTER : PL_FIRST);
		if (rc != PL_OK)
			return rc;
	}
	return PL_OK;
}

/* ---- sinking ------------------------------------------------------------------ */

/* The earliest instruction r must stay before, apart from the order and
 * distance rules: users of its results, stores to its operands, and the
 * function's return. */
static pl_inst *sink_dependency(struct mover *mv, pl_inst *r, bool *oom)
{
	(void)oom;
	pl_inst *bound = mv->terminator;
	for (size_t k = 0; k < pl_inst_num_results(r); k++)
		for (pl_use *u = pl_value_first_use(pl_inst_result(r, k)); u; u = pl_use_next(u)) {
			pl_inst *user = pl_use_user(u);
			if (!is_fsdp_reduce_scatter(mv, user))
				bound = earlier_of(bound, user);
		}
	for (size_t k = 0; k < pl_inst_num_operands(r); k++)
		bound = earlier_of(bound, ptr_map_get(&mv->nearest_store, pl_inst_operand(r, k)));
	return bound;
}

static bool sink_candidate(struct mover *mv, pl_inst *i, pl_op op)
{
	(void)op;
	return is_fsdp_reduce_scatter(mv, i);
}

static int apply_sinks(struct mover *mv, pl_func *f)
{
	bool remarks = mv->remarks;
	for (size_t k = 0; k < mv->moves.len; k++) {
		pl_inst *r = mv->moves.v[k].inst, *before = mv->moves.v[k].target;
		if (remarks) {
			char what[256], where[256];
			inst_remark_label(r, what, sizeof what);
			if (before)
				pl_ctx_remark(mv->ctx, r, "sank reduce_scatter %s to just before %s", what,
				              inst_remark_label(before, where, sizeof where));
			else
				pl_ctx_remark(mv->ctx, r, "sank reduce_scatter %s to the end of @%s", what,
				              pl_func_name(f));
		}
		int rc = pl_inst_move(r, before, before ? PL_BEFORE : PL_LAST);
		if (rc != PL_OK)
			return rc;
	}
	return PL_OK;
}

/* ---- one sweep, either way ----------------------------------------------------- */

/* Hoisting sweeps forward, each FSDP all-gather going up to just after the
 * latest instruction it must follow; sinking sweeps backward, each FSDP
 * reduce-scatter going down to just before the earliest it must precede.
 * The same rules, mirrored: */
struct direction {
	pl_inst *(*first)(const pl_func *f);
	pl_inst *(*step)(const pl_inst *i);
	bool (*candidate)(struct mover *mv, pl_inst *i, pl_op op);
	/* the nearest instruction (in sweep order, the last passed) that i
	 * must stay beyond, apart from the order and distance rules; NULL
	 * with *oom set when out of memory */
	pl_inst *(*dependency)(struct mover *mv, pl_inst *i, bool *oom);
	/* of two bounds (either NULL), the one nearer i: met later in the sweep */
	pl_inst *(*nearer)(pl_inst *a, pl_inst *b);
};

static const struct direction hoisting = {pl_func_first_inst, pl_inst_next, hoist_candidate,
                                          hoist_dependency, later_of};
static const struct direction sinking = {pl_func_last_inst, pl_inst_prev, sink_candidate,
                                         sink_dependency, earlier_of};

/* Plans the moves of one sweep over f: each candidate goes to just beyond
 * its bound, or just beyond the candidate before it when both share a
 * bound (so their order is kept), or stays put. */
static int plan_moves(struct mover *mv, pl_func *f, const struct direction *d)
{
	pl_inst *last = pl_func_last_inst(f);
	mv->terminator = last && (pl_inst_traits(last) & PL_TRAIT_TERMINATOR) ? last : NULL;
	pl_inst *prev = NULL, *prev_bound = NULL;
	bool prev_moved = false;
	for (pl_inst *i = d->first(f); i; i = d->step(i)) {
		pl_op op = pl_inst_op(i);
		if (!d->candidate(mv, i, op)) {
			if (!note_stay(mv, i))
				return PL_ENOMEM;
			if (inst_is_store(i) &&
			    !ptr_map_put(&mv->nearest_store, pl_inst_operand(i, 1), i))
				return PL_ENOMEM;
			continue;
		}
		bool oom = false;
		pl_inst *bound = d->dependency(mv, i, &oom);
		if (oom)
			return PL_ENOMEM;
		if (prev)
			bound = d->nearer(bound, prev_moved ? prev_bound : prev);
		bound = d->nearer(bound, distance_limit(mv));
		bool moved = bound != mv->last_stay;
		if (moved) {
			bool beside_prev = prev && prev_moved && prev_bound == bound;
			if (!push_move(&mv->moves, i, beside_prev ? prev : bound))
				return PL_ENOMEM;
		} else if (!note_stay(mv, i)) {
			return PL_ENOMEM;
		}
		prev = i;
		prev_moved = moved;
		prev_bound = bound;
	}
	return PL_OK;
}

/* ---- driver ------------------------------------------------------------------- */

static int move_collectives(struct mover *mv, pl_func *f)
{
	int rc = PL_OK;
	if (mv->cfg->hoist) {
		reset_sweep(mv);
		if ((rc = plan_moves(mv, f, &hoisting)) != PL_OK)
			return rc;
		if ((rc = apply_hoists(mv, f)) != PL_OK)
			return rc;
		mv->hoisted += mv->moves.len;
	}
	if (mv->cfg->sink) {
		reset_sweep(mv);
		if ((rc = plan_moves(mv, f, &sinking)) != PL_OK)
			return rc;
		if ((rc = apply_sinks(mv, f)) != PL_OK)
			return rc;
		mv->sunk += mv->moves.len;
	}
	return rc;
}

static int hoist_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct mover mv = {.ctx = ctx, .cfg = state, .fsdp = {"fsdp", NULL}, .pinned = {"pinned", NULL},
	                   .remarks = pl_ctx_remarks_enabled(ctx)};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++)
		if (rewritable_at(&rw, k))
			rc = move_collectives(&mv, pl_module_func_at(m, k));
	rewritable_free(&rw);
	/* every move made counts, as when each function added its own */
	pass_end_stat(ctx, "num_all_gathers_hoisted", mv.hoisted, &rc);
	pass_end_stat(ctx, "num_reduce_scatters_sunk", mv.sunk, &rc);
	ptr_map_free(&mv.nearest_store);
	ptr_map_free(&mv.gather_defs);
	free(mv.stay.v);
	free(mv.moves.v);
	return pass_end_report(ctx, rc, "move collectives");
}

static const pl_pass_desc hoist_pass = {
	PL_PASS_DESC_INIT,
	.name = "HoistFSDPCollectives",
	.summary = "Moves FSDP all-gathers up and FSDP reduce-scatters down.",
	.options = hoist_options,
	.stats = hoist_stats,
	.create = hoist_create,
	.run = hoist_run,
	.destroy = hoist_destroy,
};

PL_PLUGIN_DEFINE("HoistFSDPCollectives", PACKAGE_VERSION, "MIT",
                 "FSDP collective scheduling.", &hoist_pass)
