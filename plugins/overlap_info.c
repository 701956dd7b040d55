/* SPDX-License-Identifier: MIT */
/* plugins/overlap_info.c — collective info, hiding nodes and bounded
 * reachability for OverlapBucketCCOp (see overlap_info.h).
 *
 * One walk over the function: a start joins the back of the line of
 * collectives waiting for time (when its estimate is not 0), each compute
 * instruction gives its time to the front of the line until the time is
 * used up, a collective leaves the line when it has all it needs or at its
 * done, and what it still needs then is its exposed time. An instruction
 * whose line is empty gives nothing. Times are the simulation's: the pass
 * simulates each function anyway for its statistics.
 *
 * Reachability is asked of pairs of instructions, never stored: a search
 * forward from the earlier one that never goes past the later one (every
 * edge goes forward in the function), so its cost is bounded by the
 * instructions between them, not by the function.
 */
#include "overlap_info.h"
#include "inst_bytes.h"
#include "u128_int.h"
#include <passline/grow.h>

#include <stdlib.h>
#include <string.h>

/* The index in [lo, hi) of the first instruction at position pos or later. */
static uint32_t lower_bound(const struct ov_func *F, uint64_t pos, uint32_t lo, uint32_t hi)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (F->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void line_unlink(struct ov_func *F, uint32_t c, uint32_t *head, uint32_t *tail)
{
	struct ov_coll *x = &F->colls[c];
	if (!x->in_line)
		return;
	if (x->q_prev != OV_NONE)
		F->colls[x->q_prev].q_next = x->q_next;
	else
		*head = x->q_next;
	if (x->q_next != OV_NONE)
		F->colls[x->q_next].q_prev = x->q_prev;
	else
		*tail = x->q_prev;
	x->in_line = false;
}

static int add_start(struct ov_func *F, pl_inst *inst, uint32_t idx, uint64_t est,
                     uint32_t *head, uint32_t *tail)
{
	if (!PL_GROW(F->colls, F->colls_cap, F->ncoll + 1))
		return PL_ENOMEM;
	uint32_t c = (uint32_t)F->ncoll;
	F->colls[c] = (struct ov_coll){
		.start = inst, .start_idx = idx,
		.est_ns = est, .exposed_ns = est, .size_bytes = result_bytes(inst),
		.q_prev = OV_NONE, .q_next = OV_NONE, .pg = -1, .key = -1, .bucket = -1,
		.next_member = OV_NONE,
	};
	for (size_t k = 0, n = pl_inst_num_operands(inst); k < n; k++) {
		const pl_inst *def = pl_value_def(pl_inst_operand(inst, k));
		uint64_t pos = def ? pl_inst_position(def) : 0;
		if (def && (!F->colls[c].has_pred || pos > F->colls[c].pred_pos)) {
			F->colls[c].has_pred = true;
			F->colls[c].pred_pos = pos;
		}
	}
	F->ncoll++;
	F->coll_at[idx] = c;
	if (!PL_GROW(F->events, F->events_cap, F->nevents + 1))
		return PL_ENOMEM;
	F->events[F->nevents++] = 2 * c;
	if (est > 0) {
		F->colls[c].in_line = true;
		F->colls[c].q_prev = *tail;
		if (*tail != OV_NONE)
			F->colls[*tail].q_next = c;
		else
			*head = c;
		*tail = c;
	}
	return PL_OK;
}

static int add_done(struct ov_func *F, pl_inst *inst, uint32_t idx, uint32_t *head,
                    uint32_t *tail)
{
	if (!pl_inst_num_operands(inst))
		return PL_OK;
	const pl_inst *start = pl_value_def(pl_inst_operand(inst, 0));
	if (!start || pl_inst_func(start) != F->f)
		return PL_OK;
	uint32_t at = lower_bound(F, pl_inst_position(start), 0, idx);
	if (at >= idx || F->insts[at] != start || F->coll_at[at] == OV_NONE)
		return PL_OK; /* not a done of a start before it: the verifier says so */
	uint32_t c = F->coll_at[at];
	if (F->colls[c].done)
		return PL_OK;
	F->colls[c].done = inst;
	F->colls[c].done_idx = idx;
	F->coll_at[idx] = c;
	if (!PL_GROW(F->events, F->events_cap, F->nevents + 1))
		return PL_ENOMEM;
	F->events[F->nevents++] = 2 * c + 1;
	line_unlink(F, c, head, tail);
	return PL_OK;
}

/* Compute inst gives its time to the front of the line. */
static int give_time(struct ov_func *F, uint32_t idx, uint64_t t, uint32_t *head,
                     uint32_t *tail)
{
	if (t > 0)
		F->pair_at[idx] = (uint32_t)F->npairs;
	while (t > 0 && *head != OV_NONE) {
		uint32_t c = *head;
		struct ov_coll *x = &F->colls[c];
		uint64_t take = x->exposed_ns < t ? x->exposed_ns : t;
		x->exposed_ns -= take;
		t -= take;
		if (F->npairs >= OV_NONE - 1)
			return PL_ELIMIT;
		if (!PL_GROW(F->pairs, F->pairs_cap, F->npairs + 1))
			return PL_ENOMEM;
		F->pairs[F->npairs] = (struct ov_pair){idx, c};
		if (!x->nhide) {
			x->hf_idx = idx;
			x->pair_first = (uint32_t)F->npairs;
		}
		x->hl_idx = idx;
		x->pair_end = (uint32_t)F->npairs + 1;
		x->nhide++;
		F->npairs++;
		if (!x->exposed_ns)
			line_unlink(F, c, head, tail);
	}
	return PL_OK;
}

int ov_info_build(struct ov_func *F, pl_func *f, const pl_cost_model *cm,
                  const struct ov_hooks *h)
{
	F->f = f;
	F->n = F->ncoll = F->npairs = F->nevents = 0;
	size_t n = pl_func_num_insts(f);
	if (n >= OV_NONE)
		return PL_ELIMIT;
	if (!PL_GROW(F->insts, F->insts_cap, n) ||
	    !PL_GROW(F->pos, F->pos_cap, n) ||
	    !PL_GROW(F->pair_at, F->pair_at_cap, n) ||
	    !PL_GROW(F->coll_at, F->coll_at_cap, n))
		return PL_ENOMEM;
	if (n > F->stamp_cap) { /* every stamp 0: seen by no search */
		uint32_t *st = calloc(n, sizeof *st);
		if (!st)
			return PL_ENOMEM;
		free(F->stamp);
		F->stamp = st;
		F->stamp_cap = n;
		F->search = 0;
	}
	F->work = 0;
	F->work_limit = UINT64_MAX;
	uint32_t head = OV_NONE, tail = OV_NONE;
	int rc = PL_OK;
	uint32_t idx = 0;
	for (pl_inst *i = pl_func_first_inst(f); i && idx < n && rc == PL_OK;
	     i = pl_inst_next(i), idx++) {
		F->insts[idx] = i;
		F->pos[idx] = pl_inst_position(i);
		F->pair_at[idx] = OV_NONE;
		F->coll_at[idx] = OV_NONE;
		unsigned tr = pl_inst_traits(i);
		uint64_t t; /* the simulation's time, asked only where it counts */
		if (tr & PL_TRAIT_COLLECTIVE_START) {
			size_t c = F->ncoll;
			if ((rc = pl_inst_time_ns(i, cm, &t)) == PL_OK)
				rc = add_start(F, i, idx, t, &head, &tail);
			if (rc == PL_OK && F->ncoll > c)
				rc = h->start(h->ud, &F->colls[c]);
		} else if (tr & PL_TRAIT_COLLECTIVE_DONE) {
			rc = add_done(F, i, idx, &head, &tail);
			if (rc == PL_OK && F->coll_at[idx] != OV_NONE)
				rc = h->done(h->ud, &F->colls[F->coll_at[idx]]);
		} else if (!(tr & (PL_TRAIT_COLLECTIVE | PL_TRAIT_TERMINATOR)) && head != OV_NONE) {
			if ((rc = pl_inst_time_ns(i, cm, &t)) == PL_OK)
				rc = give_time(F, idx, t, &head, &tail);
		}
	}
	F->n = idx;
	return rc;
}

void ov_info_free(struct ov_func *F)
{
	free(F->insts);
	free(F->pos);
	free(F->pair_at);
	free(F->coll_at);
	free(F->events);
	free(F->colls);
	free(F->pairs);
	free(F->stamp);
	free(F->stack);
}

/* ---- lookups ---- */

int64_t ov_coll_of(const struct ov_func *F, const pl_inst *inst)
{
	if (!inst || pl_inst_func(inst) != F->f)
		return -1;
	uint32_t idx = lower_bound(F, pl_inst_position(inst), 0, (uint32_t)F->n);
	if (idx >= F->n || F->insts[idx] != inst || F->coll_at[idx] == OV_NONE)
		return -1;
	return F->coll_at[idx];
}

bool ov_is_hiding_node(const struct ov_func *F, uint32_t idx)
{
	for (uint32_t k = F->pair_at[idx]; k < F->npairs && F->pairs[k].idx == idx; k++)
		if (!ov_is_exposed(&F->colls[F->pairs[k].coll]))
			return true;
	return false;
}

uint32_t ov_first_hiding_at_or_after(const struct ov_func *F, uint32_t c, uint32_t idx)
{
	const struct ov_coll *x = &F->colls[c];
	if (!x->nhide || idx > x->hl_idx)
		return OV_NONE;
	if (idx <= x->hf_idx)
		return x->hf_idx;
	for (uint32_t k = x->pair_first; k < x->pair_end; k++)
		if (F->pairs[k].coll == c && F->pairs[k].idx >= idx)
			return F->pairs[k].idx;
	return OV_NONE;
}

uint32_t ov_index_of(const struct ov_func *F, uint64_t pos)
{
	return lower_bound(F, pos, 0, (uint32_t)F->n);
}

/* ---- bounded reachability ---- */

struct target {
	uint32_t idx;             /* this instruction, or */
	const struct ov_coll *of; /* any hiding node of this collective */
};

static bool is_target(const struct ov_func *F, const struct target *t, uint32_t y)
{
	if (!t->of)
		return y == t->idx;
	return y >= t->of->hf_idx && y <= t->of->hl_idx && F->pair_at[y] != OV_NONE;
}

/* Visits index y: the target ends the search; else y is pushed, once. */
static int visit(struct ov_func *F, uint32_t y, const struct target *t, bool *found)
{
	if (++F->work >= F->work_limit) { /* too costly to answer: as if it reached */
		*found = true;
		return PL_OK;
	}
	if (F->stamp[y] == F->search)
		return PL_OK;
	if (is_target(F, t, y)) {
		*found = true;
		return PL_OK;
	}
	F->stamp[y] = F->search;
	if (!PL_GROW(F->stack, F->stack_cap, F->stack_len + 1))
		return PL_ENOMEM;
	F->stack[F->stack_len++] = y;
	return PL_OK;
}

/* The index in [lo, hi] of the instruction at position pos, which is
 * there: positions are usually spread evenly, so a guess in proportion
 * mostly lands on it; a binary search finishes otherwise. */
static uint32_t index_between(const struct ov_func *F, uint64_t pos, uint32_t lo, uint32_t hi)
{
	if (F->pos[hi] > F->pos[lo]) {
		uint64_t span = F->pos[hi] - F->pos[lo], off = pos - F->pos[lo];
		uint32_t guess = lo + (uint32_t)((u128)off * (hi - lo) / span);
		if (F->pos[guess] == pos)
			return guess;
		if (F->pos[guess] < pos)
			lo = guess + 1;
		else
			hi = guess;
	}
	return lower_bound(F, pos, lo, hi + 1);
}

/* Depth first from the nfrom indices from (themselves not counted), never
 * past index bound: every edge goes forward, so nothing past it can lead
 * back to a target at or before it, and an instruction's index is found by
 * a binary search between the two. */
static int search_from(struct ov_func *F, const uint32_t *from, size_t nfrom, uint32_t bound,
                       const struct target *t, bool *found)
{
	*found = false;
	if (++F->search == 0) { /* wrapped: old stamps would look current */
		memset(F->stamp, 0, F->n * sizeof *F->stamp);
		F->search = 1;
	}
	F->stack_len = 0;
	F->work++;
	int rc = PL_OK;
	for (size_t k = 0; k < nfrom && rc == PL_OK; k++)
		rc = visit(F, from[k], &(struct target){.idx = OV_NONE}, found);
	uint64_t bound_pos = F->pos[bound];
	while (F->stack_len && !*found && rc == PL_OK) {
		uint32_t xi = F->stack[--F->stack_len];
		pl_inst *x = F->insts[xi];
		for (size_t r = 0, nr = pl_inst_num_results(x); r < nr && !*found && rc == PL_OK; r++)
			for (pl_use *u = pl_value_first_use(pl_inst_result(x, r));
			     u && !*found && rc == PL_OK; u = pl_use_next(u)) {
				uint64_t pos = pl_inst_position(pl_use_user(u));
				if (pos <= bound_pos)
					rc = visit(F, index_between(F, pos, xi + 1, bound), t, found);
				else
					F->work++;
			}
		if (*found || rc != PL_OK)
			break;
		if (F->pair_at[xi] != OV_NONE) {
			/* hiding node -> the done of each collective it hides */
			for (uint32_t k = F->pair_at[xi];
			     k < F->npairs && F->pairs[k].idx == xi && !*found && rc == PL_OK; k++) {
				const struct ov_coll *hc = &F->colls[F->pairs[k].coll];
				if (!ov_is_exposed(hc) && hc->done && hc->done_idx <= bound)
					rc = visit(F, hc->done_idx, t, found);
			}
		} else if (F->coll_at[xi] != OV_NONE) {
			/* start -> each hiding node, when not exposed */
			uint32_t c = F->coll_at[xi];
			const struct ov_coll *xc = &F->colls[c];
			if (xc->start_idx != xi || ov_is_exposed(xc) || !xc->nhide)
				continue;
			for (uint32_t k = xc->pair_first; k < xc->pair_end && !*found && rc == PL_OK; k++) {
				if (F->pairs[k].idx > bound)
					break;
				if (F->pairs[k].coll == c)
					rc = visit(F, F->pairs[k].idx, t, found);
			}
		}
	}
	return rc;
}

static int search(struct ov_func *F, uint32_t from, uint32_t bound, const struct target *t,
                  bool *found)
{
	return search_from(F, &from, 1, bound, t, found);
}

int ov_reaches_start(struct ov_func *F, uint32_t from, uint32_t c, bool *out)
{
	const struct ov_coll *x = &F->colls[c];
	*out = false;
	/* its direct predecessors are its operands' definitions */
	if (from >= x->start_idx || !x->has_pred || x->pred_pos < F->pos[from])
		return PL_OK;
	return search(F, from, x->start_idx, &(struct target){.idx = x->start_idx}, out);
}

int ov_reaches_done(struct ov_func *F, uint32_t from, uint32_t c, bool *out)
{
	const struct ov_coll *x = &F->colls[c];
	*out = false;
	if (from >= x->done_idx)
		return PL_OK;
	/* its direct predecessors are its start and, when it is not exposed,
	 * its hiding nodes: a path goes through one of them, and each search
	 * stops at what it looks for */
	int rc = PL_OK;
	if (x->start_idx > from)
		rc = ov_reaches_start(F, from, c, out);
	if (rc == PL_OK && !*out && !ov_is_exposed(x))
		rc = ov_reaches_hiding(F, from, c, out);
	return rc;
}

int ov_reaches_hiding(struct ov_func *F, uint32_t from, uint32_t c, bool *out)
{
	*out = false;
	const struct ov_coll *x = &F->colls[c];
	if (!x->nhide || from >= x->hl_idx)
		return PL_OK;
	return search(F, from, x->hl_idx, &(struct target){.of = x}, out);
}

int ov_any_reaches_done(struct ov_func *F, const uint32_t *from, size_t n, uint32_t *scratch,
                        uint32_t c, bool *out)
{
	const struct ov_coll *x = &F->colls[c];
	*out = false;
	/* ov_reaches_done of each, as one search per part: through the start
	 * (for the sources its operands are defined after), then through a
	 * hiding node (when c is not exposed) */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (from[i] < x->start_idx && x->has_pred && x->pred_pos >= F->pos[from[i]])
			scratch[k++] = from[i];
	int rc = PL_OK;
	if (k)
		rc = search_from(F, scratch, k, x->start_idx, &(struct target){.idx = x->start_idx},
		                 out);
	if (rc != PL_OK || *out || ov_is_exposed(x) || !x->nhide)
		return rc;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (from[i] < x->hl_idx)
			scratch[k++] = from[i];
	if (k)
		rc = search_from(F, scratch, k, x->hl_idx, &(struct target){.of = x}, out);
	return rc;
}
