/* SPDX-License-Identifier: MIT */
/* plugins/overlap_info.c — collective info, hiding nodes and bounded
 * reachability for OverlapBucketCCOp (see overlap_info.h).
 *
 * One walk over the function: a start joins the back of the line of
 * collectives waiting for time (when its estimate is not 0), each compute
 * instruction gives its time to the front of the line until the time is
 * used up, a collective leaves the line when it has all it needs or at its
 * done, and what it still needs then is its exposed time. An instruction
 * whose line is empty is not even timed.
 *
 * Reachability is asked of pairs of instructions, never stored: a search
 * forward from the earlier one that never goes past the later one (every
 * edge goes forward in the function), so its cost is bounded by the
 * instructions between them, not by the function.
 */
#include "overlap_info.h"

#include <stdlib.h>

static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *n = realloc(*v, c * size);
	if (!n)
		return false;
	*v = n;
	*cap = c;
	return true;
}

static uint64_t result_bytes(const pl_inst *inst)
{
	uint64_t sum = 0;
	for (size_t k = 0, n = pl_inst_num_results(inst); k < n; k++) {
		uint64_t b;
		if (pl_type_num_bytes(pl_value_type(pl_inst_result(inst, k)), &b) != PL_OK ||
		    b > UINT64_MAX - sum)
			return UINT64_MAX;
		sum += b;
	}
	return sum;
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

static int add_start(struct ov_func *F, pl_inst *inst, uint32_t idx, uint32_t *head,
                     uint32_t *tail)
{
	if (!grow((void **)&F->colls, &F->colls_cap, F->ncoll + 1, sizeof *F->colls))
		return PL_ENOMEM;
	uint64_t est;
	int rc = pl_inst_time_ns(inst, F->cm, &est);
	if (rc != PL_OK) {
		F->failed_at = inst;
		return rc;
	}
	uint32_t c = (uint32_t)F->ncoll;
	F->colls[c] = (struct ov_coll){
		.start = inst, .start_pos = pl_inst_position(inst), .start_idx = idx,
		.est_ns = est, .exposed_ns = est, .size_bytes = result_bytes(inst),
		.q_prev = OV_NONE, .q_next = OV_NONE, .pg = -1, .key = -1, .bucket = -1,
		.next_member = OV_NONE,
	};
	if (!ptr_map_put(&F->coll_of, inst, (void *)(uintptr_t)(c + 1)))
		return PL_ENOMEM;
	F->ncoll++;
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
	int64_t c = ov_coll_of(F, pl_value_def(pl_inst_operand(inst, 0)));
	if (c < 0 || F->colls[c].done)
		return PL_OK; /* not a done of a start seen before: the verifier says so */
	F->colls[c].done = inst;
	F->colls[c].done_pos = pl_inst_position(inst);
	F->colls[c].done_idx = idx;
	line_unlink(F, (uint32_t)c, head, tail);
	return ptr_map_put(&F->coll_of, inst, (void *)(uintptr_t)(c + 1)) ? PL_OK : PL_ENOMEM;
}

/* Compute inst gives its time to the front of the line. */
static int give_time(struct ov_func *F, pl_inst *inst, uint32_t idx, uint32_t *head,
                     uint32_t *tail)
{
	uint64_t t;
	int rc = pl_inst_time_ns(inst, F->cm, &t);
	if (rc != PL_OK) {
		F->failed_at = inst;
		return rc;
	}
	uint64_t pos = t ? pl_inst_position(inst) : 0;
	while (t > 0 && *head != OV_NONE) {
		uint32_t c = *head;
		struct ov_coll *x = &F->colls[c];
		uint64_t take = x->exposed_ns < t ? x->exposed_ns : t;
		x->exposed_ns -= take;
		t -= take;
		if (!grow((void **)&F->pairs, &F->pairs_cap, F->npairs + 1, sizeof *F->pairs))
			return PL_ENOMEM;
		F->pairs[F->npairs] = (struct ov_pair){pos, idx, c};
		if (!x->nhide) {
			x->hf_idx = idx;
			x->hf_pos = pos;
			x->pair_first = (uint32_t)F->npairs;
		}
		x->hl_idx = idx;
		x->hl_pos = pos;
		x->pair_end = (uint32_t)F->npairs + 1;
		x->nhide++;
		F->npairs++;
		if (!x->exposed_ns)
			line_unlink(F, c, head, tail);
	}
	return PL_OK;
}

int ov_info_build(struct ov_func *F, pl_func *f, const pl_cost_model *cm)
{
	F->f = f;
	F->cm = cm;
	F->n = F->ncoll = F->npairs = 0;
	F->failed_at = NULL;
	ptr_map_clear(&F->coll_of);
	size_t n = pl_func_num_insts(f);
	if (n >= OV_NONE)
		return PL_ELIMIT;
	if (!grow((void **)&F->insts, &F->insts_cap, n, sizeof *F->insts))
		return PL_ENOMEM;
	uint32_t head = OV_NONE, tail = OV_NONE, idx = 0;
	int rc = PL_OK;
	for (pl_inst *i = pl_func_first_inst(f); i && rc == PL_OK; i = pl_inst_next(i), idx++) {
		F->insts[idx] = i;
		unsigned tr = pl_inst_traits(i);
		if (tr & PL_TRAIT_COLLECTIVE_START)
			rc = add_start(F, i, idx, &head, &tail);
		else if (tr & PL_TRAIT_COLLECTIVE_DONE)
			rc = add_done(F, i, idx, &head, &tail);
		else if (!(tr & (PL_TRAIT_COLLECTIVE | PL_TRAIT_TERMINATOR)) && head != OV_NONE)
			rc = give_time(F, i, idx, &head, &tail);
	}
	F->n = idx;
	return rc;
}

void ov_info_free(struct ov_func *F)
{
	free(F->insts);
	free(F->colls);
	free(F->pairs);
	ptr_map_free(&F->coll_of);
	ptr_map_free(&F->seen);
	free(F->stack.v);
}

/* ---- lookups ---- */

/* The first pair at position pos or later. */
static size_t pairs_lower_bound(const struct ov_func *F, uint64_t pos)
{
	size_t lo = 0, hi = F->npairs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (F->pairs[mid].pos < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool ov_is_hiding_node(const struct ov_func *F, const pl_inst *inst)
{
	uint64_t pos = pl_inst_position(inst);
	for (size_t k = pairs_lower_bound(F, pos); k < F->npairs && F->pairs[k].pos == pos; k++)
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
	size_t lo = 0, hi = F->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pl_inst_position(F->insts[mid]) < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* ---- bounded reachability ---- */

struct target {
	const pl_inst *inst;      /* this one, or */
	const struct ov_coll *of; /* any hiding node of this collective */
};

static bool is_target(const struct ov_func *F, const struct target *t, const pl_inst *x,
                      uint64_t pos)
{
	if (t->inst)
		return x == t->inst;
	if (pos < t->of->hf_pos || pos > t->of->hl_pos)
		return false;
	size_t k = pairs_lower_bound(F, pos);
	return k < F->npairs && F->pairs[k].pos == pos; /* timed compute inside its range */
}

/* Visits y: true when it is the target; pushes it when it is new and not
 * past bound. */
static int visit(struct ov_func *F, pl_inst *y, uint64_t bound, const struct target *t,
                 bool *found)
{
	uint64_t pos = pl_inst_position(y);
	if (pos > bound || ptr_map_get(&F->seen, y))
		return PL_OK;
	if (is_target(F, t, y, pos)) {
		*found = true;
		return PL_OK;
	}
	if (!ptr_map_put(&F->seen, y, y) || !push_inst(&F->stack, y))
		return PL_ENOMEM;
	return PL_OK;
}

static int search(struct ov_func *F, pl_inst *from, uint64_t bound, const struct target *t,
                  bool *found)
{
	*found = false;
	ptr_map_clear(&F->seen);
	F->stack.len = 0;
	if (!ptr_map_put(&F->seen, from, from) || !push_inst(&F->stack, from))
		return PL_ENOMEM;
	int rc = PL_OK;
	while (F->stack.len && !*found && rc == PL_OK) {
		pl_inst *x = F->stack.v[--F->stack.len];
		for (size_t r = 0, nr = pl_inst_num_results(x); r < nr && !*found && rc == PL_OK; r++)
			for (pl_use *u = pl_value_first_use(pl_inst_result(x, r));
			     u && !*found && rc == PL_OK; u = pl_use_next(u))
				rc = visit(F, pl_use_user(u), bound, t, found);
		if (*found || rc != PL_OK)
			break;
		unsigned tr = pl_inst_traits(x);
		if (tr & PL_TRAIT_COLLECTIVE_START) {
			/* start -> each hiding node, when not exposed */
			int64_t c = ov_coll_of(F, x);
			const struct ov_coll *xc = c >= 0 ? &F->colls[c] : NULL;
			if (!xc || ov_is_exposed(xc) || !xc->nhide)
				continue;
			for (uint32_t k = xc->pair_first; k < xc->pair_end && !*found && rc == PL_OK; k++) {
				if (F->pairs[k].pos > bound)
					break;
				if (F->pairs[k].coll == (uint32_t)c)
					rc = visit(F, F->insts[F->pairs[k].idx], bound, t, found);
			}
		} else if (!(tr & (PL_TRAIT_COLLECTIVE_DONE | PL_TRAIT_COLLECTIVE))) {
			/* hiding node -> the done of each collective it hides */
			uint64_t pos = pl_inst_position(x);
			for (size_t k = pairs_lower_bound(F, pos);
			     k < F->npairs && F->pairs[k].pos == pos && !*found && rc == PL_OK; k++) {
				const struct ov_coll *hc = &F->colls[F->pairs[k].coll];
				if (!ov_is_exposed(hc) && hc->done)
					rc = visit(F, hc->done, bound, t, found);
			}
		}
	}
	return rc;
}

int ov_reaches(struct ov_func *F, pl_inst *from, const pl_inst *to, bool *out)
{
	*out = false;
	uint64_t bound = pl_inst_position(to);
	if (pl_inst_position(from) >= bound)
		return PL_OK;
	struct target t = {.inst = to};
	return search(F, from, bound, &t, out);
}

int ov_reaches_hiding(struct ov_func *F, pl_inst *from, uint32_t c, bool *out)
{
	*out = false;
	const struct ov_coll *x = &F->colls[c];
	if (!x->nhide || pl_inst_position(from) >= x->hl_pos)
		return PL_OK;
	struct target t = {.of = x};
	return search(F, from, x->hl_pos, &t, out);
}
