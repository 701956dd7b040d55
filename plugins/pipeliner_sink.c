/* SPDX-License-Identifier: MIT */
/* plugins/pipeliner_sink.c — CollectivePipeliner's forward-sink direction
 * (passline-pipeline(5)), after XLA's kForwardSink.
 *
 * An all-reduce whose result, through formatting ops, is written each trip
 * by a dynamic-update-slice into row i of a loop-carried buffer of one row
 * per trip leaves the loop: the loop writes the all-reduce's operand (and
 * any other loop-computed value the formatting ops read) into row i of a
 * new element, the stack, and after the loop one all-reduce of the whole
 * stack runs, followed by the formatting ops at the stacked shape; their
 * result stands for the buffer, which the loop now passes through. A
 * value whose first extent is 1 keeps its row there (the stack grows that
 * extent to the trip count); any other gets a new leading dimension, as
 * XLA's sink gives every value. An all-reduce whose result only the chain
 * reads is sunk with it, as XLA merges collectives that share an update.
 * The trip count does not change and nothing is peeled.
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "collective_pipeliner.h"
#include "labels.h"
#include "loop_rewrite.h"
#include "ptr_map.h"
#include "stack_rows.h"

/* One all-reduce to sink and what moves with it. */
struct sink {
	pl_inst *coll;
	pl_inst **chain; /* its users through formatting ops and the
	                  * all-reduces merged with it, body order */
	size_t nchain, ccap;
	pl_inst **dus; /* the updates that end the chain */
	size_t *out;   /* the loop element each returns */
	size_t ndus, dcap, ocap;
	pl_value *index;  /* the row they write, the same for all */
	pl_value **stk;   /* loop-computed inputs of the chain, stacked per trip */
	size_t nstk, scap;
	struct move inv;  /* computations of constants and ids the chain reads */
};

static bool is_chain(const struct sink *s, const pl_inst *d)
{
	if (d == s->coll)
		return true;
	for (size_t k = 0; k < s->nchain; k++)
		if (s->chain[k] == d)
			return true;
	return false;
}

static void sink_free(struct sink *s)
{
	free(s->chain);
	free(s->dus);
	free(s->out);
	free(s->stk);
	free(s->inv.with);
	memset(s, 0, sizeof *s);
}

static bool grow_ptr(void *pa, size_t *cap, size_t n)
{
	void ***a = pa;
	return PL_GROW(*a, *cap, n);
}

static bool add_unique(void *pa, size_t *n, size_t *cap, void *x)
{
	void ***a = pa;
	for (size_t k = 0; k < *n; k++)
		if ((*a)[k] == x)
			return true;
	if (!grow_ptr(pa, cap, *n + 1))
		return false;
	(*a)[(*n)++] = x;
	return true;
}

static const char *not_carried(struct pipeliner *p, const pl_inst *u, const char *what)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%%%s (%s)", inst_label(u), pl_inst_opname(u));
	return cp_fail(p, "%s stands between it and a dynamic-update-slice into a loop output, and %s",
	               buf, what);
}

/* Whether u is a dynamic-update-slice the body returns directly. */
static bool final_update(const pl_inst *u, const pl_inst *ret)
{
	return pl_inst_hlo_op(u) == PL_HLO_DYNAMIC_UPDATE_SLICE && pl_inst_num_operands(u) > 2 &&
	       pl_value_num_uses(pl_inst_result(u, 0)) == 1 &&
	       pl_use_user(pl_value_first_use(pl_inst_result(u, 0))) == ret;
}

/* The formatting ops from c to the updates that end them. */
static const char *sink_users(struct pipeliner *p, const struct counted_loop *l, struct sink *s)
{
	pl_inst *ret = pl_func_last_inst(l->body);
	size_t scan = 0;
	pl_inst *cur = s->coll;
	for (;;) {
		pl_value *v = pl_inst_result(cur, 0);
		for (pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u)) {
			pl_inst *user = pl_use_user(u);
			if (ptr_map_get(&p->seen, user))
				continue;
			if (final_update(user, ret)) {
				if (pl_inst_operand(user, 1) != v)
					return cp_fail(p, "it reaches %%%s other than as its update",
					               inst_label(user));
				size_t had = s->ndus;
				if (!add_unique(&s->dus, &s->ndus, &s->dcap, user) ||
				    (s->ndus != had && !PL_GROW(s->out, s->ocap, s->ndus)))
					return cp_oom(p);
				continue;
			}
			if (cp_pinned(user))
				return cp_fail(p, "%%%s in its chain has a control dependency", inst_label(user));
			/* XLA's sink carries no get-tuple-element or reduce-scatter */
			bool formatting = (cp_formatting_op(user) || rows_elementwise(user)) &&
			                  pl_inst_hlo_op(user) != PL_HLO_GET_TUPLE_ELEMENT &&
			                  pl_inst_op(user) != PL_OP_REDUCE_SCATTER;
			if (!formatting)
				return not_carried(p, user, "is not a formatting op it may carry along");
			if (!rows_stackable(user))
				return not_carried(p, user, "passline does not give that op the stacked "
				                            "dimension after the loop");
			if (!ptr_map_put(&p->seen, user, user) ||
			    !add_unique(&s->chain, &s->nchain, &s->ccap, user))
				return cp_oom(p);
		}
		if (scan == s->nchain)
			break;
		cur = s->chain[scan++];
	}
	if (!s->ndus)
		return "its result is not written into a loop output by a dynamic-update-slice";
	return NULL;
}

/* XLA's checks of one update of a sunk chain. */
static const char *sink_update(struct pipeliner *p, const struct counted_loop *l, struct sink *s,
                               size_t j)
{
	pl_inst *dus = s->dus[j];
	pl_value *buf = pl_inst_operand(dus, 0);
	if (!pl_value_is_arg(buf) || pl_value_func(buf) != l->body || pl_value_index(buf) == l->iv)
		return "the dynamic-update-slice does not write into a loop parameter";
	if (pl_value_num_uses(buf) != 1)
		return cp_fail(p, "the loop parameter %%%s it writes into has other uses",
		               value_label(buf));
	pl_inst *ret = pl_func_last_inst(l->body);
	size_t k = pl_value_index(buf), times = 0;
	for (size_t r = 0; r < pl_inst_num_operands(ret); r++)
		times += pl_inst_operand(ret, r) == pl_inst_result(dus, 0);
	if (times != 1 || pl_inst_operand(ret, k) != pl_inst_result(dus, 0))
		return "the updated buffer is not returned as the loop element it came from";
	s->out[j] = k;
	size_t moving = 0, nmoving = 0;
	for (size_t r = 2; r < pl_inst_num_operands(dus); r++) {
		pl_value *ix = pl_inst_operand(dus, r);
		if (pl_inst_hlo_op(pl_value_def(ix)) == PL_HLO_CONSTANT) {
			if (!cp_constant_zero(ix))
				return "the dynamic-update-slice has a nonzero constant index";
			continue;
		}
		moving = r;
		nmoving++;
	}
	if (nmoving != 1)
		return "the dynamic-update-slice is not indexed in exactly one dimension";
	const pl_type *bt = pl_value_type(buf), *ut = pl_value_type(pl_inst_operand(dus, 1));
	if (moving != 2)
		return "the dynamic-update-slice is not indexed in its first dimension";
	if (pl_type_dim(bt, 0) < 0 || (uint64_t)pl_type_dim(bt, 0) != l->trips)
		return cp_fail(p, "the buffer's first dimension, %lld, is not the loop's trip count, %llu",
		               (long long)pl_type_dim(bt, 0), (unsigned long long)l->trips);
	if (pl_type_dim(ut, 0) != 1)
		return "each trip's update is not one row of the buffer";
	if (!cp_linear_in_iv(l, pl_inst_operand(dus, moving), 0))
		return "the update index is not a linear function of the induction variable";
	if (s->index && s->index != pl_inst_operand(dus, moving))
		return "its dynamic-update-slices write at different indices";
	s->index = pl_inst_operand(dus, moving);
	return NULL;
}

/* Whether d is an all-reduce whose result only the chain (p->seen) reads. */
static bool merges(struct pipeliner *p, const pl_inst *d)
{
	if (!d || pl_inst_op(d) != PL_OP_ALL_REDUCE || cp_pinned(d) ||
	    pl_inst_num_operands(d) != 1 || pl_inst_num_results(d) != 1)
		return false;
	for (pl_use *u = pl_value_first_use(pl_inst_result(d, 0)); u; u = pl_use_next(u))
		if (!ptr_map_get(&p->seen, pl_use_user(u)))
			return false;
	return true;
}

/* The other inputs of the chain: computations of constants and ids are
 * cloned after the loop, elements the loop does not change read from its
 * results, anything else stacked per trip. */
static const char *sink_inputs(struct pipeliner *p, const struct counted_loop *l, struct sink *s)
{
	for (size_t k = 0; k < s->nchain; k++) {
		pl_inst *f = s->chain[k];
		for (size_t j = 0; j < pl_inst_num_operands(f); j++) {
			pl_value *v = pl_inst_operand(f, j);
			pl_inst *d = pl_value_def(v);
			if (d && (d == s->coll || ptr_map_get(&p->seen, d))) {
				if (is_chain(s, d)) {
					if (!rows_full_operand(f, j) || !rows_alike(f, pl_value_type(v)))
						return not_carried(p, f, "passline cannot stack it over the "
						                         "trips keeping each trip's row");
					continue;
				}
				continue; /* an input already found */
			}
			if (pl_value_is_arg(v) && loop_invariant_arg(l, v))
				continue;
			if (cp_invariant_input(p, v, &s->inv))
				continue;
			if (p->oom)
				return "out of memory";
			if (!rows_full_operand(f, j))
				return cp_fail(p, "%%%s, an operand of a formatting op, is computed in the loop",
				               value_label(v));
			if (merges(p, d)) {
				/* XLA merges collectives that share an update: this one
				 * is sunk with the chain, its operand stacked */
				if (!ptr_map_put(&p->seen, d, d) ||
				    !add_unique(&s->chain, &s->nchain, &s->ccap, d))
					return cp_oom(p);
				continue;
			}
			if (!add_unique(&s->stk, &s->nstk, &s->scap, v))
				return cp_oom(p);
		}
	}
	if (s->inv.nwith)
		qsort(s->inv.with, s->inv.nwith, sizeof *s->inv.with, cp_cmp_position);
	return NULL;
}

static const char *sink_check(struct pipeliner *p, const struct counted_loop *l, struct sink *s)
{
	pl_inst *c = s->coll;
	if (cp_pinned(c))
		return "it has a control dependency";
	if (pl_inst_num_operands(c) != 1 || pl_inst_num_results(c) != 1)
		return "it has more than one operand";
	ptr_map_clear(&p->seen);
	if (!ptr_map_put(&p->seen, c, c))
		return cp_oom(p);
	const char *why = sink_users(p, l, s);
	for (size_t j = 0; j < s->ndus && !why; j++)
		why = sink_update(p, l, s, j);
	if (!why)
		why = sink_inputs(p, l, s);
	if (!why && s->nchain)
		qsort(s->chain, s->nchain, sizeof *s->chain, cp_cmp_position);
	return why;
}

/* ---- the rewrite ---- */

/* In the body, before its return: row `index` of the stacked argument a
 * set to v. */
static pl_value *stack_row(pl_module *m, pl_func *body, pl_inst *ret, pl_value *a, pl_value *v,
                           pl_value *index, pl_value *zero)
{
	const pl_type *vt = pl_value_type(v);
	pl_value *row = v;
	if (!rows_merged(vt)) {
		const pl_type *rt = rows_type(m, vt, 1);
		pl_inst *r = rt ? rows_make(body, ret, PL_HLO_RESHAPE, &v, 1, rt, NULL) : NULL;
		row = r ? pl_inst_result(r, 0) : NULL;
	}
	size_t n = pl_type_rank(pl_value_type(a)) + 2;
	pl_value **ops = calloc(n, sizeof *ops);
	pl_inst *d = NULL;
	if (row && ops) {
		ops[0] = a;
		ops[1] = row;
		ops[2] = index;
		for (size_t k = 3; k < n; k++)
			ops[k] = zero;
		d = rows_make(body, ret, PL_HLO_DYNAMIC_UPDATE_SLICE, ops, n, pl_value_type(a), NULL);
	}
	free(ops);
	if (d)
		rows_name_after(pl_inst_result(d, 0), v, ".rows");
	return d ? pl_inst_result(d, 0) : NULL;
}

static int sink_rewrite(struct pipeliner *p, struct counted_loop *l, struct sink *s, size_t m)
{
	pl_module *mod = p->m;
	pl_inst *w = l->w;
	pl_func *body = l->body, *parent = l->parent;
	size_t n = pl_inst_num_operands(w), e = 0;
	int64_t rows = (int64_t)l->trips;
	for (size_t j = 0; j < m; j++)
		e += 1 + s[j].nstk;
	const pl_type **ty = calloc(e + 1, sizeof *ty);
	pl_value **extra = calloc(e + 1, sizeof *extra);
	pl_value **subst = calloc(n, sizeof *subst);
	pl_value **outs = calloc(n, sizeof *outs);
	struct ptr_map map = {0};
	int rc = ty && extra && subst && outs ? PL_OK : PL_ENOMEM;
	/* the stacked elements, from zeros */
	for (size_t j = 0, at = 0; j < m && rc == PL_OK; j++)
		for (size_t k = 0; k <= s[j].nstk && rc == PL_OK; k++, at++) {
			pl_value *v = k ? s[j].stk[k - 1] : pl_inst_operand(s[j].coll, 0);
			ty[at] = rows_type(mod, pl_value_type(v), rows);
			/* every row is written before it is read: a buffer of the
			 * stack's type the loop gives up serves as its start */
			extra[at] = NULL;
			for (size_t d = 0; !k && d < s[j].ndus && !extra[at]; d++)
				if (pl_value_type(pl_inst_result(s[j].dus[d], 0)) == ty[at])
					extra[at] = pl_inst_operand(w, s[j].out[d]);
			if (!extra[at] && ty[at])
				extra[at] = rows_zeros(mod, parent, w, ty[at]);
			if (!extra[at])
				rc = PL_ENOMEM;
		}
	pl_inst *w2 = rc == PL_OK ? loop_while_widened(w, NULL, extra, e) : NULL;
	if (rc == PL_OK && !w2)
		rc = PL_ENOMEM;
	/* the body: each trip's rows stacked; the buffers returned as they came */
	if (rc == PL_OK)
		rc = loop_add_args(body, ty, e, "sunk");
	pl_inst *ret = pl_func_last_inst(body);
	for (size_t j = 0, at = 0; j < m && rc == PL_OK; j++) {
		/* a zero index: the update's own, else a new constant */
		pl_inst *d0 = s[j].dus[0];
		pl_value *zero = pl_inst_num_operands(d0) > 3 ? pl_inst_operand(d0, 3)
		                 : rows_zeros(mod, body, ret, pl_value_type(s[j].index));
		for (size_t k = 0; k <= s[j].nstk && rc == PL_OK; k++, at++) {
			pl_value *v = k ? s[j].stk[k - 1] : pl_inst_operand(s[j].coll, 0);
			extra[at] = zero ? stack_row(mod, body, ret, pl_func_arg(body, n + at), v,
			                             s[j].index, zero)
			                 : NULL;
			if (!extra[at])
				rc = PL_ENOMEM;
		}
		for (size_t d = 0; d < s[j].ndus; d++)
			subst[s[j].out[d]] = pl_func_arg(body, s[j].out[d]);
	}
	if (rc == PL_OK)
		rc = loop_new_return(body, subst, extra, e);
	if (rc == PL_OK)
		rc = loop_add_args(l->cond, ty, e, "sunk");
	/* after the loop: one all-reduce of the stack, the chain stacked */
	for (size_t k = 0; k < n; k++)
		outs[k] = w2 ? pl_inst_result(w2, k) : NULL;
	for (size_t j = 0, at = 0; j < m && rc == PL_OK; j++) {
		struct sink *sj = &s[j];
		ptr_map_clear(&map);
		/* stacked values: the collective's operand, the stacked inputs */
		struct ptr_map stk = {0};
		for (size_t k = 0; k <= sj->nstk && rc == PL_OK; k++, at++) {
			pl_value *v = k ? sj->stk[k - 1] : pl_inst_operand(sj->coll, 0);
			if (!ptr_map_put(&stk, v, pl_inst_result(w2, n + at)))
				rc = PL_ENOMEM;
		}
		/* unstacked: the elements the loop keeps, the cloned constants */
		for (size_t k = 0; k < n && rc == PL_OK; k++)
			if (!ptr_map_put(&map, pl_func_arg(body, k), pl_inst_result(w2, k)))
				rc = PL_ENOMEM;
		for (size_t k = 0; k < sj->inv.nwith && rc == PL_OK; k++)
			if (!loop_clone_inst(parent, w, sj->inv.with[k], &map, ".sunk", &p->next_channel))
				rc = PL_ENOMEM;
		for (size_t k = 0; k <= sj->nchain && rc == PL_OK; k++) {
			pl_inst *f = k ? sj->chain[k - 1] : sj->coll;
			size_t no = pl_inst_num_operands(f);
			pl_value **ops = calloc(no + 2, sizeof *ops);
			if (!ops) {
				rc = PL_ENOMEM;
				break;
			}
			for (size_t o = 0; o < no && rc == PL_OK; o++) {
				pl_value *v = pl_inst_operand(f, o);
				ops[o] = ptr_map_get(&stk, v);
				if (ops[o])
					continue;
				pl_value *u = ptr_map_get(&map, v);
				ops[o] = rows_full_operand(f, o) ? rows_spread(mod, parent, w, v, &map, rows) : u ? u : v;
				if (!ops[o])
					rc = PL_ENOMEM;
			}
			const pl_type *t = rows_type(mod, pl_value_type(pl_inst_result(f, 0)), rows);
			size_t nops = no;
			if (rc == PL_OK && pl_inst_hlo_op(f) == PL_HLO_DYNAMIC_SLICE && no > 1) {
				/* the rows all taken: index 0 in their dimension */
				pl_value *zero = rows_zeros(mod, parent, w, pl_value_type(ops[1]));
				if (!zero)
					rc = PL_ENOMEM;
				else if (rows_merged(pl_value_type(pl_inst_operand(f, 0)))) {
					ops[1] = zero;
				} else {
					memmove(ops + 2, ops + 1, (no - 1) * sizeof *ops);
					ops[1] = zero;
					nops++;
				}
			}
			if (rc == PL_OK && t && pl_inst_hlo_op(f) == PL_HLO_RESHAPE &&
			    pl_value_type(ops[0]) == t) {
				/* it only moved the row extent: the stack has it already */
				if (!ptr_map_put(&stk, pl_inst_result(f, 0), ops[0]))
					rc = PL_ENOMEM;
				free(ops);
				continue;
			}
			pl_inst *c = rc == PL_OK && t ? loop_clone_typed(parent, w, f, ops, nops, t, ".sunk",
			                                                 &p->next_channel)
			                              : NULL;
			free(ops);
			if (rc == PL_OK && (!c || rows_attrs(c, f, rows) != PL_OK ||
			                    !ptr_map_put(&stk, pl_inst_result(f, 0), pl_inst_result(c, 0))))
				rc = PL_ENOMEM;
		}
		/* each buffer is the stack of its rows */
		for (size_t d = 0; d < sj->ndus && rc == PL_OK; d++) {
			pl_value *v = ptr_map_get(&stk, pl_inst_operand(sj->dus[d], 1));
			const pl_type *bt = pl_value_type(pl_inst_result(sj->dus[d], 0));
			/* a row of one extent per trip: the stack is the buffer */
			pl_inst *r = v && pl_value_type(v) != bt
			             ? rows_make(parent, w, PL_HLO_RESHAPE, &v, 1, bt, NULL) : NULL;
			if (v && (r || pl_value_type(v) == bt))
				outs[sj->out[d]] = r ? pl_inst_result(r, 0) : v;
			else
				rc = PL_ENOMEM;
		}
		ptr_map_free(&stk);
	}
	if (rc == PL_OK)
		rc = cp_replace_while(w, outs);
	/* the body no longer updates, formats or reduces */
	for (size_t j = 0; j < m && rc == PL_OK; j++) {
		struct sink *sj = &s[j];
		for (size_t d = 0; d < sj->ndus && rc == PL_OK; d++) {
			pl_inst *dus = sj->dus[d];
			size_t no = pl_inst_num_operands(dus);
			pl_inst **ix = calloc(no, sizeof *ix);
			if (!ix) {
				rc = PL_ENOMEM;
				break;
			}
			for (size_t k = 2; k < no; k++)
				ix[k] = pl_value_def(pl_inst_operand(dus, k));
			rc = pl_inst_erase(dus);
			for (size_t k = 2; k < no && rc == PL_OK; k++)
				if (ix[k])
					rc = loop_erase_if_unused(ix[k]);
			free(ix);
		}
		for (size_t k = sj->nchain; k-- > 0 && rc == PL_OK;)
			rc = pl_inst_erase(sj->chain[k]);
		if (rc == PL_OK)
			rc = pl_inst_erase(sj->coll);
		for (size_t k = sj->inv.nwith; k-- > 0 && rc == PL_OK;)
			rc = loop_erase_if_unused(sj->inv.with[k]);
	}
	ptr_map_free(&map);
	free(ty);
	free(extra);
	free(subst);
	free(outs);
	return rc;
}

int cp_sink_loop(struct pipeliner *p, struct counted_loop *l)
{
	struct sink *s = NULL;
	size_t m = 0, cap = 0;
	struct ptr_map claimed = {0};
	int rc = PL_OK;
	for (pl_inst *i = pl_func_first_inst(l->body); i && rc == PL_OK; i = pl_inst_next(i)) {
		if (pl_inst_op(i) != PL_OP_ALL_REDUCE || ptr_map_get(&claimed, i))
			continue;
		if (!PL_GROW(s, cap, m + 1)) {
			rc = PL_ENOMEM;
			break;
		}
		memset(&s[m], 0, sizeof s[m]);
		s[m].coll = i;
		p->why[0] = '\0';
		const char *why = sink_check(p, l, &s[m]);
		if (p->oom) {
			rc = PL_ENOMEM;
			sink_free(&s[m]);
			break;
		}
		bool taken = false;
		for (size_t k = 0; !why && k < s[m].nchain && !taken; k++)
			taken = ptr_map_get(&claimed, s[m].chain[k]) != NULL;
		for (size_t k = 0; !why && k < s[m].ndus && !taken; k++)
			taken = ptr_map_get(&claimed, s[m].dus[k]) != NULL;
		for (size_t k = 0; !why && k < s[m].nstk && !taken; k++)
			taken = pl_value_def(s[m].stk[k]) &&
			        ptr_map_get(&claimed, pl_value_def(s[m].stk[k])) != NULL;
		if (taken)
			why = "its chain overlaps another sunk collective's";
		if (why) {
			cp_remark_not(p, i, "forward-sink", why);
			sink_free(&s[m]);
			continue;
		}
		bool ok = ptr_map_put(&claimed, i, i);
		for (size_t k = 0; k < s[m].nchain && ok; k++)
			ok = ptr_map_put(&claimed, s[m].chain[k], i);
		for (size_t k = 0; k < s[m].ndus && ok; k++)
			ok = ptr_map_put(&claimed, s[m].dus[k], i);
		if (!ok)
			rc = PL_ENOMEM;
		m++;
	}
	if (rc == PL_OK && m) {
		/* the merged all-reduces count as sunk; those formatting
		 * another's result are carried along, as forward does */
		for (size_t j = 0; j < m; j++)
			for (size_t k = 0; k < s[j].nchain; k++) {
				pl_inst *y = s[j].chain[k];
				if (pl_inst_op(y) != PL_OP_ALL_REDUCE ||
				    is_chain(&s[j], pl_value_def(pl_inst_operand(y, 0))))
					continue;
				p->moved++;
				if (p->remarks)
					pl_ctx_remark(p->ctx, s[j].chain[k],
					              "pipelined (forward-sink): all_reduce %%%s of loop %%%s "
					              "sunk with %%%s, whose formatting ops read it",
					              inst_label(y), cp_loop_label(l), inst_label(s[j].coll));
			}
		if (p->remarks)
			for (size_t j = 0; j < m; j++)
				pl_ctx_remark(p->ctx, s[j].coll,
				              "pipelined (forward-sink): %s %%%s of loop %%%s sunk after it: "
				              "the loop stacks its operand over %llu trips, one %s of the "
				              "stack follows the loop",
				              cp_kind_name(s[j].coll), inst_label(s[j].coll), cp_loop_label(l),
				              (unsigned long long)l->trips, cp_kind_name(s[j].coll));
		rc = sink_rewrite(p, l, s, m);
		p->moved += m;
	}
	for (size_t j = 0; j < m; j++)
		sink_free(&s[j]);
	free(s);
	ptr_map_free(&claimed);
	return rc;
}
