/* SPDX-License-Identifier: MIT */
/* plugins/overlap_place.c — whether and where a candidate may join a
 * bucket (OverlapBucketCCOp, see overlap_bucket_ccop.c): the original
 * pass's _can_add_to_bucket with its ancestor conflicts, the four
 * placements in order, the hiding-interval check of the regions a start
 * and a done move across, and the order this IR needs at the current
 * positions (definitions before the new start, uses after the new done,
 * no store in between). */
#include "overlap_bucket.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- remarks ---- */

void ov_why(struct bucketer *B, uint32_t existing, uint32_t cand, const char *fmt, ...)
{
	if (!B->remarks)
		return;
	char reason[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	pl_ctx_remark(B->ctx, B->F.colls[cand].start, "cannot bucket %%%s with %%%s: %s",
	              inst_label(B->F.colls[existing].start), inst_label(B->F.colls[cand].start),
	              reason);
}

/* ---- what an order needs ------------------------------------------------ */

/* Where v is defined now: a done that moved defines it at its bucket's
 * done. false for an argument. */
static bool def_pos_now(const struct bucketer *B, const pl_value *v, uint64_t *pos)
{
	const pl_inst *def = pl_value_def(v);
	if (!def)
		return false;
	int64_t c = (pl_inst_traits(def) & PL_TRAIT_COLLECTIVE_DONE) ? ov_coll_of(&B->F, def) : -1;
	*pos = c >= 0 ? ev_pos(B, cur_done_ev(B, (uint32_t)c)) : pl_inst_position(def);
	return true;
}

/* Where user is now: a start that moved is at its bucket's start. */
static uint64_t use_pos_now(const struct bucketer *B, const pl_inst *user)
{
	int64_t c = (pl_inst_traits(user) & PL_TRAIT_COLLECTIVE_START) ? ov_coll_of(&B->F, user)
	                                                                : -1;
	return c >= 0 ? ev_pos(B, cur_start_ev(B, (uint32_t)c)) : pl_inst_position(user);
}

/* Adds what collective c needs to nd. */
int ov_needs_add(struct bucketer *B, struct needs *nd, uint32_t c)
{
	const struct ov_coll *x = &B->F.colls[c];
	for (size_t k = 0, n = pl_inst_num_operands(x->start); k < n; k++) {
		const pl_value *v = pl_inst_operand(x->start, k);
		uint64_t pos;
		if (def_pos_now(B, v, &pos) && (!nd->has_def || pos > nd->max_def)) {
			nd->has_def = true;
			nd->max_def = pos;
			nd->def_v = v;
		}
		for (pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u)) {
			B->F.work++;
			pl_inst *s = pl_use_user(u);
			if (!(pl_inst_traits(s) & PL_TRAIT_STORE) || pl_use_operand_index(u) != 1)
				continue;
			if (!PL_GROW(nd->stores, nd->cap, nd->nstores + 1))
				return PL_ENOMEM;
			nd->stores[nd->nstores++] = (struct store_rec){pl_inst_position(s), v};
		}
	}
	for (size_t k = 0, n = pl_inst_num_results(x->done); k < n; k++) {
		const pl_value *v = pl_inst_result(x->done, k);
		for (pl_use *u = pl_value_first_use(v); u; u = pl_use_next(u)) {
			B->F.work++;
			uint64_t pos = use_pos_now(B, pl_use_user(u));
			if (!nd->has_use || pos < nd->min_use) {
				nd->has_use = true;
				nd->min_use = pos;
				nd->use_v = v;
			}
		}
	}
	return PL_OK;
}

void ov_needs_reset(struct needs *nd)
{
	nd->has_def = nd->has_use = false;
	nd->nstores = 0;
}

static int needs_merge(struct needs *into, const struct needs *from)
{
	if (from->has_def && (!into->has_def || from->max_def > into->max_def)) {
		into->has_def = true;
		into->max_def = from->max_def;
		into->def_v = from->def_v;
	}
	if (from->has_use && (!into->has_use || from->min_use < into->min_use)) {
		into->has_use = true;
		into->min_use = from->min_use;
		into->use_v = from->use_v;
	}
	if (!from->nstores)
		return PL_OK;
	if (!PL_GROW(into->stores, into->cap, into->nstores + from->nstores))
		return PL_ENOMEM;
	memcpy(into->stores + into->nstores, from->stores, from->nstores * sizeof *from->stores);
	into->nstores += from->nstores;
	return PL_OK;
}

/* A store of nd strictly between a and b (in either order), or NULL. */
static const struct store_rec *store_between(const struct needs *nd, uint64_t a, uint64_t b,
                                             uint64_t *work)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	*work += nd->nstores;
	for (size_t k = 0; k < nd->nstores; k++)
		if (nd->stores[k].pos > lo && nd->stores[k].pos < hi)
			return &nd->stores[k];
	return NULL;
}

/* ---- ancestor conflicts ------------------------------------------------ */

static int has_ancestor_conflicts(struct bucketer *B, const struct bucket *b, uint32_t cand,
                                  bool *out)
{
	struct ov_func *F = &B->F;
	struct ov_coll *cc = &F->colls[cand];
	*out = false;
	int rc = PL_OK;
	/* Without remarks the order of the questions does not matter: whether
	 * any member's done reaches the candidate's, the costly one, is asked
	 * of all members in one search first. With remarks each member is
	 * asked in turn, so that the first conflict in the original pass's
	 * order is the one reported. */
	bool all_at_once = !B->remarks;
	if (all_at_once) {
		if (!PL_GROW(B->member_dones, B->member_dones_cap, 2 * (size_t)b->n))
			return PL_ENOMEM;
		size_t n = 0;
		for (uint32_t m = b->first; m != OV_NONE; m = F->colls[m].next_member)
			B->member_dones[n++] = F->colls[m].done_idx;
		bool r;
		if ((rc = ov_any_reaches_done(F, B->member_dones, n, B->member_dones + n, cand,
		                              &r)) != PL_OK || r) {
			*out = r;
			return rc;
		}
	}
	for (uint32_t m = b->first; m != OV_NONE && rc == PL_OK; m = F->colls[m].next_member) {
		struct ov_coll *mc = &F->colls[m];
		bool r = false;
		F->work++;
		if ((rc = ov_reaches_start(F, mc->start_idx, cand, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand, "has ancestor conflicts (%%%s depends on %%%s)",
			    inst_label(cc->start), inst_label(mc->start));
			*out = true;
			break;
		}
		if ((rc = ov_reaches_start(F, cc->start_idx, m, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand, "has ancestor conflicts (%%%s depends on %%%s)",
			    inst_label(mc->start), inst_label(cc->start));
			*out = true;
			break;
		}
		if (!all_at_once && (rc = ov_reaches_done(F, mc->done_idx, cand, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand, "has ancestor conflicts (%%%s depends on %%%s)",
			    inst_label(cc->done), inst_label(mc->done));
			*out = true;
			break;
		}
		if ((rc = ov_reaches_done(F, cc->done_idx, m, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand, "has ancestor conflicts (%%%s depends on %%%s)",
			    inst_label(mc->done), inst_label(cc->done));
			*out = true;
			break;
		}
		if ((rc = ov_reaches_hiding(F, cc->done_idx, m, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand,
			    "has ancestor conflicts (a hiding node of %%%s depends on %%%s)",
			    inst_label(mc->start), inst_label(cc->done));
			*out = true;
			break;
		}
		if ((rc = ov_reaches_hiding(F, mc->done_idx, cand, &r)) != PL_OK)
			break;
		if (r) {
			OV_WHY(B, b->first, cand,
			    "has ancestor conflicts (a hiding node of %%%s depends on %%%s)",
			    inst_label(cc->start), inst_label(mc->done));
			*out = true;
			break;
		}
	}
	return rc;
}

/* ---- hiding intervals ---------------------------------------------------- */

static int add_ivl(struct ivl **v, size_t *n, size_t *cap, struct ivl x)
{
	if (!pl_grow_(v, cap, *n + 1, sizeof **v))
		return PL_ENOMEM;
	(*v)[(*n)++] = x;
	return PL_OK;
}

/* The execution interval of the collective whose event ev is, and the
 * hiding intervals of it (of every member, when it is in a bucket). */
static int add_event_intervals(struct bucketer *B, uint32_t ev)
{
	uint32_t c = ev >> 1;
	const struct ov_coll *x = &B->F.colls[c];
	uint32_t s = ev_idx(B, cur_start_ev(B, c)), w = ev_idx(B, cur_done_ev(B, c));
	int rc = add_ivl(&B->execs, &B->nexecs, &B->execs_cap, (struct ivl){s, w, -1, c});
	if (rc != PL_OK)
		return rc;
	if (x->bucket >= 0) {
		const struct bucket *bb = &B->buckets[x->bucket];
		if (bb->has_hiding)
			rc = add_ivl(&B->hides, &B->nhides, &B->hides_cap,
			             (struct ivl){s, bb->min_hf, x->bucket, OV_NONE});
	} else if (x->nhide) {
		rc = add_ivl(&B->hides, &B->nhides, &B->hides_cap, (struct ivl){s, x->hf_idx, -1, c});
	}
	return rc;
}

static bool encloses(const struct ivl *outer, uint32_t s, uint32_t h)
{
	return outer->s < s && h < outer->e;
}

/* The first exec interval enclosing (s, h), or NULL. */
static const struct ivl *enclosing(const struct bucketer *B, uint32_t s, uint32_t h)
{
	for (size_t k = 0; k < B->nexecs; k++)
		if (encloses(&B->execs[k], s, h))
			return &B->execs[k];
	return NULL;
}

/* The first hiding entry some execution interval encloses, or nhides.
 * Many of both are asked in O((hides + execs) log execs): the execution
 * intervals by start, with the latest end among those starting before. */
static int cmp_ivl_start(const void *pa, const void *pb)
{
	const struct ivl *a = pa, *b = pb;
	return a->s < b->s ? -1 : a->s > b->s;
}

static size_t first_enclosed(struct bucketer *B)
{
	if (B->nhides * B->nexecs <= 64) {
		for (size_t k = 0; k < B->nhides; k++)
			if (enclosing(B, B->hides[k].s, B->hides[k].e))
				return k;
		return B->nhides;
	}
	if (!PL_GROW(B->by_start, B->by_start_cap, B->nexecs))
		goto naive; /* no memory for the fast way: the plain one needs none */
	memcpy(B->by_start, B->execs, B->nexecs * sizeof *B->execs);
	qsort(B->by_start, B->nexecs, sizeof *B->by_start, cmp_ivl_start);
	for (size_t k = 1; k < B->nexecs; k++) /* e: the latest end so far */
		if (B->by_start[k].e < B->by_start[k - 1].e)
			B->by_start[k].e = B->by_start[k - 1].e;
	for (size_t k = 0; k < B->nhides; k++) {
		size_t lo = 0, hi = B->nexecs; /* how many start before it */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (B->by_start[mid].s < B->hides[k].s)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && B->hides[k].e < B->by_start[lo - 1].e)
			return k;
	}
	return B->nhides;
naive:
	for (size_t k = 0; k < B->nhides; k++)
		if (enclosing(B, B->hides[k].s, B->hides[k].e))
			return k;
	return B->nhides;
}

/* Reports the first hiding interval of hide entry he that an execution
 * interval encloses, in the order of the original pass: the candidate's,
 * then each member's in join order. */
static void report_enclosed(struct bucketer *B, const struct bucket *b, uint32_t cand,
                            const struct ivl *he)
{
	if (!B->remarks)
		return;
	const struct ov_func *F = &B->F;
	uint32_t first = he->coll;
	if (he->bucket >= 0)
		first = B->buckets[he->bucket].first;
	else if (he->coll == OV_NONE)
		first = cand;
	for (uint32_t m = first; m != OV_NONE;) {
		const struct ov_coll *mc = &F->colls[m];
		const struct ivl *e = mc->nhide ? enclosing(B, he->s, mc->hf_idx) : NULL;
		if (e) {
			OV_WHY(B, b->first, cand,
			    "hiding interval (%" PRIu32 ", %" PRIu32 ") enclosed by execution "
			    "interval (%" PRIu32 ", %" PRIu32 ")",
			    he->s, mc->hf_idx, e->s, e->e);
			return;
		}
		if (he->coll != OV_NONE && he->bucket < 0)
			break; /* one collective */
		m = (m == cand && he->coll == OV_NONE) ? b->first : mc->next_member;
	}
}

/* The original pass's _preserves_hiding_intervals, for the new start at
 * event sev and the new done at wev. */
static int preserves_hiding_intervals(struct bucketer *B, const struct bucket *b,
                                      uint32_t cand, uint32_t sev, uint32_t wev, bool *ok)
{
	struct ov_func *F = &B->F;
	const struct ov_coll *cc = &F->colls[cand];
	uint32_t S = ev_idx(B, sev), W = ev_idx(B, wev);
	*ok = false;

	/* every hiding node of the bucket and the candidate strictly inside */
	bool has = b->has_hiding || cc->nhide;
	uint32_t min_hf = UINT32_MAX, max_hl = 0;
	if (b->has_hiding) {
		min_hf = b->min_hf;
		max_hl = b->max_hl;
	}
	if (cc->nhide) {
		min_hf = cc->hf_idx < min_hf ? cc->hf_idx : min_hf;
		max_hl = cc->hl_idx > max_hl ? cc->hl_idx : max_hl;
	}
	if (has && !(S < min_hf && max_hl < W)) {
		for (uint32_t m = cand; m != OV_NONE;
		     m = m == cand ? b->first : F->colls[m].next_member, F->work++) {
			const struct ov_coll *mc = &F->colls[m];
			if (!mc->nhide)
				continue;
			uint32_t bad = mc->hf_idx <= S ? mc->hf_idx
			             : mc->hl_idx >= W ? ov_first_hiding_at_or_after(F, m, W)
			                               : OV_NONE;
			if (bad != OV_NONE) {
				OV_WHY(B, b->first, cand,
				    "hiding compute at pos %" PRIu32 " not between start %" PRIu32
				    " and wait %" PRIu32,
				    bad, S, W);
				return PL_OK;
			}
		}
	}

	/* the intervals of the regions the start and the done move across: a
	 * start moved earlier may now enclose what others hide (the original
	 * pass walks from the new start), and one moved later may now be
	 * enclosed by those it passes (so here the walk begins at the earlier
	 * start either way); a done moved later may enclose what others hide */
	uint32_t bs = ev_idx(B, b->start_ev), bw = ev_idx(B, b->done_ev);
	uint32_t latest_start = cc->start_idx > bs ? cc->start_idx : bs;
	uint32_t earliest_wait = cc->done_idx < bw ? cc->done_idx : bw;
	uint32_t first_start = cc->start_idx < bs ? 2 * cand : b->start_ev;
	int32_t cur = F->colls[b->first].bucket;
	B->nexecs = B->nhides = 0;
	int rc = add_ivl(&B->execs, &B->nexecs, &B->execs_cap, (struct ivl){S, W, -1, OV_NONE});
	if (rc == PL_OK && has)
		rc = add_ivl(&B->hides, &B->nhides, &B->hides_cap, (struct ivl){S, min_hf, -1, OV_NONE});
	for (uint32_t e = B->ev_next[first_start];
	     rc == PL_OK && e != OV_NONE && ev_idx(B, e) < latest_start && !ov_spent(F);
	     e = B->ev_next[e], F->work++)
		if ((e >> 1) != cand && F->colls[e >> 1].bucket != cur)
			rc = add_event_intervals(B, e);
	for (uint32_t e = B->ev_prev[wev];
	     rc == PL_OK && e != OV_NONE && ev_idx(B, e) > earliest_wait && !ov_spent(F);
	     e = B->ev_prev[e], F->work++)
		if ((e >> 1) != cand && F->colls[e >> 1].bucket != cur)
			rc = add_event_intervals(B, e);
	if (rc != PL_OK)
		return rc;
	if (ov_spent(F)) { /* not walked to the end: refused, which is safe */
		OV_WHY(B, b->first, cand, "the search allowance of the bucket is spent");
		return PL_OK;
	}
	F->work += B->nexecs + B->nhides; /* sorted and searched */

	size_t k = first_enclosed(B);
	if (k < B->nhides) {
		report_enclosed(B, b, cand, &B->hides[k]);
		return PL_OK;
	}
	*ok = true;
	return PL_OK;
}

/* ---- a valid order at the current positions ------------------------------ */

/* The starts: every member's operands defined before the new start, and no
 * store to one of them between where each start is and the new start. */
static bool starts_valid(struct bucketer *B, const struct bucket *b, uint32_t cand,
                         uint64_t spos, uint32_t S)
{
	const struct ov_func *F = &B->F;
	const struct needs *nds[2] = {&B->bneeds, &B->cneeds};
	uint64_t from[2] = {ev_pos(B, b->start_ev), F->pos[F->colls[cand].start_idx]};
	for (int k = 0; k < 2; k++) {
		const struct needs *nd = nds[k];
		if (nd->has_def && nd->max_def >= spos) {
			OV_WHY(B, b->first, cand,
			    "path exists between starts (%%%s defined at %" PRIu32
			    ", not before the new start at %" PRIu32 ")",
			    value_label(nd->def_v), ov_index_of(F, nd->max_def), S);
			return false;
		}
	}
	for (int k = 0; k < 2; k++) {
		const struct store_rec *st = store_between(nds[k], from[k], spos, &B->F.work);
		if (st) {
			OV_WHY(B, b->first, cand,
			    "path exists between starts (store to %%%s at %" PRIu32
			    " between the start at %" PRIu32 " and the new start at %" PRIu32 ")",
			    value_label(st->v), ov_index_of(F, st->pos), ov_index_of(F, from[k]), S);
			return false;
		}
	}
	return true;
}

/* The dones: after the new start, before every use of a member's result,
 * and no store to a member's operand while the bucket is in flight. */
static bool waits_valid(struct bucketer *B, const struct bucket *b, uint32_t cand,
                        uint64_t spos, uint64_t wpos, uint32_t S, uint32_t W)
{
	const struct ov_func *F = &B->F;
	if (wpos <= spos) {
		OV_WHY(B, b->first, cand,
		    "path exists between waits (the new done at %" PRIu32
		    " is not after the new start at %" PRIu32 ")",
		    W, S);
		return false;
	}
	const struct needs *nds[2] = {&B->bneeds, &B->cneeds};
	for (int k = 0; k < 2; k++) {
		const struct needs *nd = nds[k];
		if (nd->has_use && nd->min_use <= wpos) {
			OV_WHY(B, b->first, cand,
			    "path exists between waits (%%%s used at %" PRIu32
			    ", not after the new done at %" PRIu32 ")",
			    value_label(nd->use_v), ov_index_of(F, nd->min_use), W);
			return false;
		}
	}
	for (int k = 0; k < 2; k++) {
		const struct store_rec *st = store_between(nds[k], spos, wpos, &B->F.work);
		if (st) {
			OV_WHY(B, b->first, cand,
			    "path exists between waits (store to %%%s at %" PRIu32
			    " while in flight from %" PRIu32 " to %" PRIu32 ")",
			    value_label(st->v), ov_index_of(F, st->pos), S, W);
			return false;
		}
	}
	return true;
}

/* ---- can_add_to_bucket ----------------------------------------------------- */

static int join(struct bucketer *B, struct bucket *b, uint32_t cand, uint32_t sev, uint32_t wev)
{
	struct ov_func *F = &B->F;
	struct ov_coll *cc = &F->colls[cand];
	uint32_t moved_start = sev == b->start_ev ? 2 * cand : b->start_ev;
	uint32_t moved_done = wev == b->done_ev ? 2 * cand + 1 : b->done_ev;
	ev_unlink(B, moved_start);
	ev_unlink(B, moved_done);
	b->start_ev = sev;
	b->done_ev = wev;
	F->colls[b->last].next_member = cand;
	b->last = cand;
	b->n++;
	b->bytes = pl_u64_add_sat(b->bytes, cc->size_bytes);
	if (cc->nhide) {
		if (!b->has_hiding || cc->hf_idx < b->min_hf)
			b->min_hf = cc->hf_idx;
		if (!b->has_hiding || cc->hl_idx > b->max_hl)
			b->max_hl = cc->hl_idx;
		b->has_hiding = true;
	}
	cc->bucket = F->colls[b->first].bucket;
	cc->processed = true;
	return needs_merge(&B->bneeds, &B->cneeds);
}

int ov_can_add_to_bucket(struct bucketer *B, struct bucket *b, uint32_t cand, bool *added)
{
	struct ov_func *F = &B->F;
	struct ov_coll *cc = &F->colls[cand];
	*added = false;
	if (ov_is_hiding_node(F, cc->start_idx) || ov_is_hiding_node(F, cc->done_idx)) {
		OV_WHY(B, b->first, cand, "nyi: bucketing collective used for overlap");
		return PL_OK;
	}
	bool conflict;
	int rc = has_ancestor_conflicts(B, b, cand, &conflict);
	if (rc != PL_OK || conflict)
		return rc;
	ov_needs_reset(&B->cneeds);
	if ((rc = ov_needs_add(B, &B->cneeds, cand)) != PL_OK)
		return rc;
	/* the original pass's order: most likely to work first */
	const uint32_t placements[4][2] = {
		{b->start_ev, 2 * cand + 1},
		{b->start_ev, b->done_ev},
		{2 * cand, 2 * cand + 1},
		{2 * cand, b->done_ev},
	};
	for (int k = 0; k < 4; k++) {
		uint32_t sev = placements[k][0], wev = placements[k][1];
		uint32_t S = ev_idx(B, sev), W = ev_idx(B, wev);
		uint64_t spos = ev_pos(B, sev), wpos = ev_pos(B, wev);
		/* A placement needs both checks, so their order changes only the
		 * reason a remark gives: the original pass's (intervals first)
		 * when remarks are asked for, else the cheap one first. */
		if (!B->remarks &&
		    !(starts_valid(B, b, cand, spos, S) && waits_valid(B, b, cand, spos, wpos, S, W)))
			continue;
		bool ok;
		if ((rc = preserves_hiding_intervals(B, b, cand, sev, wev, &ok)) != PL_OK)
			return rc;
		if (!ok)
			continue;
		if (B->remarks &&
		    !(starts_valid(B, b, cand, spos, S) && waits_valid(B, b, cand, spos, wpos, S, W)))
			continue;
		if (B->remarks)
			pl_ctx_remark(B->ctx, cc->start,
			              "bucketed %%%s with %%%s using timeline position %d: (start=%%%s, "
			              "wait=%%%s)",
			              inst_label(cc->start), inst_label(F->colls[b->first].start), k + 1,
			              inst_label(F->insts[S]), inst_label(F->insts[W]));
		*added = true;
		return join(B, b, cand, sev, wev);
	}
	OV_WHY(B, b->first, cand, "all timeline positions failed");
	return PL_OK;
}

