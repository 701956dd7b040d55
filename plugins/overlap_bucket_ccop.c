/* SPDX-License-Identifier: MIT */
/* Contract: reads asynchronous collectives and the cost model; merges starts and dones into tuple starts and dones where the overlap with compute survives; needs verified IR. */

/* plugins/overlap_bucket_ccop.c — OverlapBucketCCOp (passline-pipeline(5)).
 *
 * An overlap-preserving bucketer: it merges asynchronous collectives that
 * need not be adjacent, as long as the computation that hides each one's
 * communication stays between the bucket's start and done, and no other
 * collective of the same process group loses its own hiding (a stream runs
 * its collectives in order, so a done waits for everything issued before
 * it). The schedule is the instruction order: the only things that move
 * are starts and dones, to the position of another member's.
 *
 * Per function:
 *  1. collective info (overlap_info.c): estimated time, hiding nodes and
 *     exposed time of every start;
 *  2. groups: collectives of one key (kind, group_id, factor, dimension,
 *     reduce, and dtype except for all-gathers under multidtype), process
 *     groups in the order of their first collective, keys in the order of
 *     theirs (each key read while step 1 passes its start and done);
 *  3. per group, find_buckets: least hidden first (or by position), grow a
 *     bucket from each collective not yet taken over the next candidates,
 *     within the byte cap, the candidate and position distances and the
 *     consecutive-failure limit;
 *  4. can_add_to_bucket (overlap_place.c): no hiding node, no ancestor
 *     conflict (reachability asked only between the two nodes,
 *     overlap_info.c), then the four
 *     placements of the new start and done in order, the first valid one
 *     taken: hiding nodes strictly inside, no hiding interval enclosed by
 *     an execution interval in the regions the start and done move across,
 *     and a valid order at the current positions;
 *  5. apply, after every group: one tuple start at the bucket's start and
 *     one tuple done at its done, members in the order they joined, the
 *     first member's attributes, the same result values.
 *
 * Positions in remarks count instructions from 0 in the function as the
 * pass received it.
 */
#include <passline/passline.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_bucket.h"
#include "overlap_info.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"
#include "u128_int.h"
#include <passline/grow.h>

/* The search allowance of one bucket's growth, in units of work (an edge
 * a reachability search follows or a use it skips, an event or member a
 * check walks past, a store compared): this many per instruction of the
 * function per collective, so that the buckets of a function together
 * cost at most this many units per instruction (plus as many per
 * collective) whatever the limits; a search that would pass it answers
 * "reaches", so the candidate is refused, which is always safe. The
 * default limits use at most a sixth of it on the benchmark module; ten
 * and a hundred times them reach it on some buckets there, and still make
 * the same buckets. */
#define OV_WORK_PER_INST 1024

static const pl_option_decl overlap_options[] = {
	PL_OPTION_BOOL("bucket_exposed_first", "true",
	               "Grow buckets from the least hidden collectives first (else by position)."),
	PL_OPTION_INT("max_coll_distance", "1000", 0, INT32_MAX,
	              "Candidates looked at after a bucket's first collective, in that order."),
	PL_OPTION_BYTES("max_bucket_bytes", "1GiB", "Largest bucket, in result bytes."),
	PL_OPTION_BOOL("multidtype", "true", "All-gathers of different dtypes may share a bucket."),
	PL_OPTION_INT("max_position_distance", "20", 0, INT32_MAX,
	              "With bucket_exposed_first: candidates at most this many instructions "
	              "from the first."),
	PL_OPTION_INT("max_consecutive_failures", "20", 1, INT32_MAX,
	              "Stop growing a bucket after this many refused candidates in a row."),
	PL_OPTION_END
};

static const pl_stat_decl overlap_stats[] = {
	PL_STAT("num_buckets", "Buckets of two or more collectives made."),
	PL_STAT("num_collectives_bucketed", "Collectives merged into a bucket."),
	PL_STAT("exposed_ns_before", "Simulated exposed communication before the pass, in ns."),
	PL_STAT("exposed_ns_after", "Simulated exposed communication after the pass, in ns."),
	PL_STAT_END
};

/* ---- options ---------------------------------------------------------- */

static int overlap_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int64_t v[4] = {0};
	int rc = pl_ctx_get_bool(ctx, "bucket_exposed_first", &cfg->exposed_first);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "multidtype", &cfg->multidtype);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_coll_distance", &v[0]);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_bucket_bytes", &v[1]);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_position_distance", &v[2]);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_consecutive_failures", &v[3]);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	cfg->max_coll_distance = (uint64_t)v[0];
	cfg->max_bucket_bytes = (uint64_t)v[1];
	cfg->max_position_distance = (uint64_t)v[2];
	cfg->max_consecutive_failures = (uint64_t)v[3];
	*state = cfg;
	return PL_OK;
}

static void overlap_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- keys and process groups ----------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t hash_word(uint64_t h, uint64_t w)
{
	return (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
}

static uint32_t key_hash(const struct key *k)
{
	uint64_t h = hash_bytes(UINT64_C(0xcbf29ce484222325), k->gid, k->gid_len);
	h = hash_word(h, (uint64_t)k->kind << 2 | (uint64_t)k->has_factor << 1 | k->has_reduce);
	h = hash_word(h, (uint64_t)k->factor);
	h = hash_word(h, (uint64_t)k->dimension);
	h = hash_word(h, (uint64_t)k->dtype);
	h = hash_bytes(h, k->reduce, k->reduce_len);
	return (uint32_t)(h ^ (h >> 32));
}

static bool key_equal(const struct key *a, const struct key *b)
{
	return a->gid_len == b->gid_len && !memcmp(a->gid, b->gid, a->gid_len) &&
	       a->kind == b->kind && a->has_factor == b->has_factor && a->factor == b->factor &&
	       a->dimension == b->dimension && a->has_reduce == b->has_reduce &&
	       a->reduce_len == b->reduce_len &&
	       (!a->reduce_len || !memcmp(a->reduce, b->reduce, a->reduce_len)) &&
	       a->dtype == b->dtype;
}

/* An item of the table is a key's index + 1; ctx the table's keys. */
static bool key_item_is(const void *item, const void *probe, const void *ctx)
{
	return key_equal(&((const struct key *)ctx)[(uintptr_t)item - 1], probe);
}

/* The index of k in t, added when new; -1 when out of memory. */
static int32_t key_table_find(struct key_table *t, const struct key *k)
{
	if (!pl_ht_reserve(&t->index))
		return -1;
	uint32_t hash = key_hash(k);
	size_t j = pl_ht_find(&t->index, hash, key_item_is, k, t->keys);
	if (pl_ht_used(&t->index, j))
		return (int32_t)((uintptr_t)t->index.slots[j].item - 1);
	if (!PL_GROW(t->keys, t->cap, t->n + 1))
		return -1;
	t->keys[t->n] = *k;
	pl_ht_put(&t->index, j, hash, (const void *)(uintptr_t)(t->n + 1));
	return (int32_t)t->n++;
}

static void key_table_clear(struct key_table *t)
{
	t->n = 0;
	pl_ht_clear(&t->index);
}

static void key_table_free(struct key_table *t)
{
	free(t->keys);
	pl_ht_free(&t->index);
}

static const char *const attr_names[NUM_ATTRS] = {"group_id", "factor", "dimension", "reduce",
                                                  "pinned"};

/* ---- grouping ---------------------------------------------------------- */

static bool is_true(const pl_attr *a)
{
	return a && pl_attr_get_kind(a) == PL_ATTR_BOOL && pl_attr_get_bool(a);
}

/* The two halves of reading c's key, called while the collective info is
 * built: c->pg for any collective with a group_id, and c->key for one that
 * may be bucketed, as far as its start tells; its done is pinned, it may
 * not. Keys and process groups are numbered in the order of their first
 * collective (a key whose only members turn out pinned stays empty). */
static int classify_start(void *ud, struct ov_coll *c)
{
	struct bucketer *B = ud;
	const pl_attrs *as = pl_inst_attrs_const(c->start);
	struct key k = {.kind = pl_inst_op(c->start)};
	bool one = pl_inst_num_operands(c->start) == 1 && pl_inst_num_results(c->start) == 1;
	const pl_attr *a[NUM_ATTRS];
	key_classes_read(&B->attrs, as, a);
	if (!a[A_GROUP_ID] || pl_attr_get_kind(a[A_GROUP_ID]) != PL_ATTR_STRING)
		return PL_OK;
	k.gid = pl_attr_get_string(a[A_GROUP_ID], &k.gid_len);
	if (!k.gid_len)
		return PL_OK;
	struct key pgk = {.gid = k.gid, .gid_len = k.gid_len};
	if ((c->pg = key_table_find(&B->pgs, &pgk)) < 0)
		return PL_ENOMEM;
	if (!one || is_true(a[A_PINNED]))
		return PL_OK;
	if (a[A_FACTOR] && pl_attr_get_kind(a[A_FACTOR]) == PL_ATTR_INT) {
		k.has_factor = true;
		k.factor = pl_attr_get_int(a[A_FACTOR]);
	}
	if (a[A_DIMENSION] && pl_attr_get_kind(a[A_DIMENSION]) == PL_ATTR_INT)
		k.dimension = pl_attr_get_int(a[A_DIMENSION]);
	if ((pl_inst_traits(c->start) & PL_TRAIT_REDUCING) && a[A_REDUCE] &&
	    pl_attr_get_kind(a[A_REDUCE]) == PL_ATTR_STRING) {
		k.has_reduce = true;
		k.reduce = pl_attr_get_string(a[A_REDUCE], &k.reduce_len);
	}
	if (!(k.kind == PL_OP_ALL_GATHER_START && B->cfg->multidtype))
		k.dtype = pl_type_dtype(pl_value_type(pl_inst_operand(c->start, 0)));
	k.pg = c->pg;
	if ((c->key = key_table_find(&B->keys, &k)) < 0)
		return PL_ENOMEM;
	return PL_OK;
}

static int classify_done(void *ud, struct ov_coll *c)
{
	struct bucketer *B = ud;
	const pl_attrs *d = pl_inst_attrs_const(c->done);
	if (c->key < 0 || !pl_attrs_count(d))
		return PL_OK;
	const pl_attr *a[NUM_ATTRS];
	key_classes_read(&B->attrs, d, a);
	if (is_true(a[A_PINNED]))
		c->key = -1;
	return PL_OK;
}

/* Links every process group's starts and dones in instruction order. */
static int build_timelines(struct bucketer *B)
{
	struct ov_func *F = &B->F;
	if (!PL_GROW(B->ev_prev, B->ev_prev_cap, 2 * F->ncoll) ||
	    !PL_GROW(B->ev_next, B->ev_next_cap, 2 * F->ncoll) ||
	    !PL_GROW(B->pg_tail, B->pg_cap, B->pgs.n))
		return PL_ENOMEM;
	for (size_t p = 0; p < B->pgs.n; p++)
		B->pg_tail[p] = OV_NONE;
	for (size_t k = 0; k < F->nevents; k++) {
		uint32_t ev = F->events[k];
		int32_t pg = F->colls[ev >> 1].pg;
		if (pg < 0)
			continue;
		uint32_t *tail = &B->pg_tail[pg];
		B->ev_prev[ev] = *tail;
		B->ev_next[ev] = OV_NONE;
		if (*tail != OV_NONE)
			B->ev_next[*tail] = ev;
		*tail = ev;
	}
	return PL_OK;
}

/* ---- find_buckets ------------------------------------------------------------ */

/* Least hidden first: by hidden / estimated time (0 for an estimate of 0),
 * then by position (so no two are equal). */
static bool before_in_overlap(const struct sort_ent *a, const struct sort_ent *b)
{
	u128 l = (u128)a->hidden * (b->est ? b->est : 1);
	u128 r = (u128)b->hidden * (a->est ? a->est : 1);
	return l != r ? l < r : a->idx < b->idx;
}

/* Sorts v (n entries) least hidden first: a merge sort, bottom up, through
 * tmp (room for n), with the comparison inline rather than called through
 * a pointer as qsort would. */
static void sort_by_overlap(struct sort_ent *v, struct sort_ent *tmp, size_t n)
{
	struct sort_ent *src = v, *dst = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				dst[k++] = before_in_overlap(&src[j], &src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct sort_ent *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

static int new_bucket(struct bucketer *B, uint32_t c)
{
	struct ov_coll *x = &B->F.colls[c];
	if (!PL_GROW(B->buckets, B->buckets_cap, B->nbuckets + 1))
		return PL_ENOMEM;
	B->buckets[B->nbuckets] = (struct bucket){
		.first = c, .last = c, .n = 1, .start_ev = 2 * c,
		.done_ev = 2 * c + 1, .bytes = x->size_bytes, .has_hiding = x->nhide > 0,
		.min_hf = x->hf_idx, .max_hl = x->hl_idx,
	};
	x->bucket = (int32_t)B->nbuckets++;
	x->next_member = OV_NONE;
	x->processed = true;
	ov_needs_reset(&B->bneeds);
	return ov_needs_add(B, &B->bneeds, c);
}

/* The first rank in [lo, hi) whose size is above limit, or hi. */
static size_t first_above(const struct cands *cd, size_t lo, size_t hi, uint64_t limit)
{
	if (lo >= hi)
		return hi;
	/* climb from the leaf at lo until a subtree to the right may hold one */
	size_t node = cd->leaves + lo;
	if (cd->tree[node] > limit)
		return lo;
	for (;;) {
		while (node & 1) { /* a right child: go up */
			node >>= 1;
			if (node <= 1)
				return hi;
		}
		node++; /* the right sibling */
		if (cd->tree[node] > limit)
			break;
	}
	while (node < cd->leaves) /* down to the leftmost leaf above limit */
		node = cd->tree[2 * node] > limit ? 2 * node : 2 * node + 1;
	size_t r = node - cd->leaves;
	return r < hi ? r : hi;
}

/* The first rank at r or later not taken by a bucket. */
static uint32_t next_open(struct cands *cd, uint32_t r)
{
	uint32_t root = r;
	while (cd->skip[root] != root)
		root = cd->skip[root];
	while (cd->skip[r] != root) {
		uint32_t next = cd->skip[r];
		cd->skip[r] = root;
		r = next;
	}
	return root;
}

static int cands_build(struct bucketer *B, size_t n)
{
	struct cands *cd = &B->cands;
	size_t leaves = 1;
	while (leaves < n)
		leaves *= 2;
	if (!PL_GROW(cd->rank_of, cd->rank_cap, n) ||
	    !PL_GROW(cd->skip, cd->skip_cap, n + 1) ||
	    !PL_GROW(cd->tree, cd->tree_cap, 2 * leaves) ||
	    !PL_GROW(cd->list, cd->list_cap, n))
		return PL_ENOMEM;
	cd->leaves = leaves;
	for (size_t r = 0; r < n; r++) {
		const struct sort_ent *e = &B->sorted[r];
		cd->rank_of[e->gk] = (uint32_t)r;
		cd->skip[r] = (uint32_t)r;
		cd->tree[leaves + r] = B->F.colls[e->coll].size_bytes;
	}
	cd->skip[n] = (uint32_t)n;
	for (size_t r = n; r < leaves; r++)
		cd->tree[leaves + r] = 0;
	for (size_t k = leaves - 1; k >= 1; k--)
		cd->tree[k] = cd->tree[2 * k] > cd->tree[2 * k + 1] ? cd->tree[2 * k] : cd->tree[2 * k + 1];
	return PL_OK;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return a < b ? -1 : a > b;
}

/* The ranks the bucket of rank i looks at, when only the collectives
 * within max_position_distance of its first can join and they are fewer
 * than the ranks after it: those, taken from the group's order of starts.
 * false when walking the ranks is cheaper. */
static bool window_list(struct bucketer *B, const uint32_t *group, size_t n, size_t i,
                        size_t end)
{
	struct cands *cd = &B->cands;
	const struct ov_func *F = &B->F;
	uint64_t d = B->cfg->max_position_distance;
	uint32_t at = F->colls[B->sorted[i].coll].start_idx;
	uint64_t lo_idx = at > d ? at - d : 0, hi_idx = (uint64_t)at + d;
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first start at lo_idx or later */
		size_t mid = lo + (hi - lo) / 2;
		if (F->colls[group[mid]].start_idx < lo_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t last = lo;
	while (last < n && F->colls[group[last]].start_idx <= hi_idx && last - lo <= end - i)
		last++;
	if (last - lo > end - i)
		return false;
	cd->nlist = 0;
	for (size_t k = lo; k < last; k++) {
		uint32_t r = cd->rank_of[k];
		if (r > i && r < end && !F->colls[group[k]].processed)
			cd->list[cd->nlist++] = r;
	}
	qsort(cd->list, cd->nlist, sizeof *cd->list, cmp_u32);
	return true;
}

/* Refuses cand for want of room, when the bucket cannot take it. */
static bool over_cap(struct bucketer *B, const struct bucket *b, size_t lo, size_t hi)
{
	struct cands *cd = &B->cands;
	uint64_t max = B->cfg->max_bucket_bytes;
	size_t j = b->bytes > max ? lo : first_above(cd, lo, hi, max - b->bytes);
	if (j >= hi)
		return false;
	uint32_t cand = B->sorted[j].coll;
	OV_WHY(B, b->first, cand,
	    "bucket of %" PRIu64 " bytes cannot take %" PRIu64 " more (max_bucket_bytes %" PRIu64 ")",
	    b->bytes, B->F.colls[cand].size_bytes, max);
	return true;
}

/* The original pass's _find_buckets. Its loop looks at the next
 * max_coll_distance collectives in order: it stops at the first that
 * would pass max_bucket_bytes, skips those taken and (least hidden first)
 * those too far away, and stops after max_consecutive_failures refusals.
 * Here only the candidates it would try are visited: the byte cap is a
 * range query between two of them, those taken are skipped in one step,
 * and those near enough are read from the order of starts. */
static int find_buckets(struct bucketer *B, const uint32_t *group, size_t n)
{
	struct ov_func *F = &B->F;
	const struct config *cfg = B->cfg;
	if (!PL_GROW(B->sorted, B->sorted_cap, n) ||
	    !PL_GROW(B->sort_tmp, B->sort_tmp_cap, n))
		return PL_ENOMEM;
	struct sort_ent *sorted = B->sorted;
	for (size_t k = 0; k < n; k++) {
		const struct ov_coll *x = &F->colls[group[k]];
		sorted[k] = (struct sort_ent){x->est_ns - x->exposed_ns, x->est_ns, x->start_idx,
		                              group[k], (uint32_t)k};
	}
	if (cfg->exposed_first)
		sort_by_overlap(sorted, B->sort_tmp, n);
	int rc = cands_build(B, n);
	struct cands *cd = &B->cands;
	uint64_t allowance = OV_WORK_PER_INST * (F->n / F->ncoll + 1);
	for (size_t i = 0; i < n && rc == PL_OK; i++) {
		uint32_t c0 = sorted[i].coll;
		struct ov_coll *x0 = &F->colls[c0];
		if (x0->processed)
			continue;
		if (ov_is_hiding_node(F, x0->start_idx) || ov_is_hiding_node(F, x0->done_idx))
			continue;
		if ((rc = new_bucket(B, c0)) != PL_OK)
			break;
		cd->skip[i] = (uint32_t)i + 1;
		struct bucket *b = &B->buckets[B->nbuckets - 1];
		uint64_t failures = 0;
		F->work_limit = pl_u64_add_sat(F->work, allowance);
		size_t end = n - (i + 1) > cfg->max_coll_distance ? i + 1 + cfg->max_coll_distance : n;
		bool listed = cfg->exposed_first && window_list(B, group, n, i, end);
		size_t k = 0, prev = i; /* ranks up to prev are checked against the cap */
		bool stopped = false;
		for (;;) {
			size_t r;
			if (listed)
				r = k < cd->nlist ? cd->list[k++] : end;
			else
				r = next_open(cd, (uint32_t)prev + 1);
			if (r >= end)
				break;
			if (ov_spent(F)) {
				if (B->remarks)
					pl_ctx_remark(B->ctx, x0->start,
					              "stopped growing the bucket of %%%s: its search "
					              "allowance of %" PRIu64 " units is spent",
					              inst_label(x0->start), allowance);
				stopped = true;
				break;
			}
			if (over_cap(B, b, prev + 1, r + 1)) {
				stopped = true;
				break;
			}
			prev = r;
			uint32_t cand = sorted[r].coll;
			struct ov_coll *xc = &F->colls[cand];
			if (xc->processed)
				continue;
			uint32_t dist = xc->start_idx > x0->start_idx ? xc->start_idx - x0->start_idx
			                                              : x0->start_idx - xc->start_idx;
			if (cfg->exposed_first && dist > cfg->max_position_distance)
				continue;
			bool added;
			if ((rc = ov_can_add_to_bucket(B, b, cand, &added)) != PL_OK)
				break;
			if (added) {
				failures = 0;
				cd->skip[r] = (uint32_t)r + 1;
			} else if (++failures >= cfg->max_consecutive_failures) {
				if (B->remarks)
					pl_ctx_remark(B->ctx, x0->start,
					              "stopped growing the bucket of %%%s after %" PRIu64
					              " consecutive failures",
					              inst_label(x0->start), failures);
				stopped = true;
				break;
			}
		}
		if (!stopped && rc == PL_OK && B->remarks)
			over_cap(B, b, prev + 1, end); /* what the cap stopped, for the remark */
		if (b->n < 2) { /* a bucket of one is no bucket */
			x0->bucket = -1;
			B->nbuckets--;
		}
	}
	F->work_limit = UINT64_MAX;
	return rc;
}

/* ---- apply --------------------------------------------------------------------- */

static void remark_bucket(struct bucketer *B, const struct bucket *b)
{
	const struct ov_func *F = &B->F;
	size_t cap = 256, len = 0;
	char *list = malloc(cap);
	if (!list)
		return;
	list[0] = '\0';
	for (uint32_t m = b->first; m != OV_NONE; m = F->colls[m].next_member) {
		const char *name = inst_label(F->colls[m].start);
		size_t need = len + strlen(name) + 4;
		if (need > cap) {
			while (cap < need)
				cap *= 2;
			char *v = realloc(list, cap);
			if (!v) {
				free(list);
				return;
			}
			list = v;
		}
		len += (size_t)snprintf(list + len, cap - len, "%s%%%s", len ? ", " : "", name);
	}
	uint32_t S = ev_idx(B, b->start_ev), W = ev_idx(B, b->done_ev);
	pl_ctx_remark(B->ctx, F->colls[b->first].start,
	              "bucket of %" PRIu32 " %s: %s; start at %%%s (position %" PRIu32
	              "), done at %%%s (position %" PRIu32 ")",
	              b->n, pl_inst_opname(F->colls[b->first].start), list,
	              inst_label(F->insts[S]), S, inst_label(F->insts[W]), W);
	free(list);
}

static int apply_bucket(struct bucketer *B, const struct bucket *b)
{
	struct ov_func *F = &B->F;
	const struct ov_coll *first = &F->colls[b->first];
	size_t nops = 0, nres = 0;
	for (uint32_t m = b->first; m != OV_NONE; m = F->colls[m].next_member) {
		nops += pl_inst_num_operands(F->colls[m].start);
		nres += pl_inst_num_results(F->colls[m].start);
	}
	pl_value **ops = malloc(nops * sizeof *ops);
	const pl_type **stypes = malloc(nres * sizeof *stypes);
	const pl_type **dtypes = malloc(nres * sizeof *dtypes);
	pl_value **sres = malloc(nres * sizeof *sres);
	int rc = PL_ENOMEM;
	if (!ops || !stypes || !dtypes || !sres)
		goto out;
	size_t o = 0, r = 0;
	for (uint32_t m = b->first; m != OV_NONE; m = F->colls[m].next_member) {
		const struct ov_coll *x = &F->colls[m];
		for (size_t k = 0, n = pl_inst_num_operands(x->start); k < n; k++)
			ops[o++] = pl_inst_operand(x->start, k);
		for (size_t k = 0, n = pl_inst_num_results(x->start); k < n; k++) {
			stypes[r] = pl_value_type(pl_inst_result(x->start, k));
			dtypes[r++] = pl_value_type(pl_inst_result(x->done, k));
		}
	}
	pl_inst *at_start = F->insts[ev_idx(B, b->start_ev)], *at_done = F->insts[ev_idx(B, b->done_ev)];
	pl_inst *start = pl_inst_new(F->f, pl_inst_opname(first->start), ops, nops, stypes, nres);
	if (!start || pl_inst_copy_attrs(start, first->start) != PL_OK)
		goto out;
	pl_inst_set_loc(start, pl_inst_line(first->start), pl_inst_col(first->start));
	pl_inst_insert_before(start, at_start);
	for (size_t k = 0; k < nres; k++)
		sres[k] = pl_inst_result(start, k);
	pl_inst *done = pl_inst_new(F->f, pl_inst_opname(first->done), sres, nres, dtypes, nres);
	if (!done || pl_inst_copy_attrs(done, first->done) != PL_OK)
		goto out;
	pl_inst_set_loc(done, pl_inst_line(first->done), pl_inst_col(first->done));
	pl_inst_insert_before(done, at_done);
	r = 0;
	for (uint32_t m = b->first; m != OV_NONE; m = F->colls[m].next_member) {
		const struct ov_coll *x = &F->colls[m];
		for (size_t k = 0, n = pl_inst_num_results(x->start); k < n; k++, r++) {
			pl_value_replace(pl_inst_result(x->start, k), pl_inst_result(start, r));
			pl_value_replace(pl_inst_result(x->done, k), pl_inst_result(done, r));
		}
	}
	rc = PL_OK;
	for (uint32_t m = b->first; m != OV_NONE && rc == PL_OK; m = F->colls[m].next_member)
		rc = pl_inst_erase(F->colls[m].done);
	for (uint32_t m = b->first; m != OV_NONE && rc == PL_OK; m = F->colls[m].next_member)
		rc = pl_inst_erase(F->colls[m].start);
out:
	free(ops);
	free(stypes);
	free(dtypes);
	free(sres);
	return rc;
}

/* ---- per function ------------------------------------------------------------- */

/* Collectives of each key, keys of each process group, in order. */
static int bucket_groups(struct bucketer *B)
{
	struct ov_func *F = &B->F;
	size_t nkeys = B->keys.n, npgs = B->pgs.n;
	if (!PL_GROW(B->key_first, B->key_first_cap, nkeys) ||
	    !PL_GROW(B->key_count, B->key_count_cap, nkeys) ||
	    !PL_GROW(B->pg_count, B->pg_count_cap, npgs + 1) ||
	    !PL_GROW(B->order, B->order_cap, F->ncoll + nkeys))
		return PL_ENOMEM;
	/* collectives by key (counting sort, stable: in the order of their starts) */
	memset(B->key_count, 0, nkeys * sizeof *B->key_count);
	for (size_t c = 0; c < F->ncoll; c++)
		if (F->colls[c].key >= 0)
			B->key_count[F->colls[c].key]++;
	uint32_t at = 0;
	for (size_t k = 0; k < nkeys; k++) {
		B->key_first[k] = at;
		at += B->key_count[k];
		B->key_count[k] = 0;
	}
	uint32_t *members = B->order;
	for (uint32_t c = 0; c < F->ncoll; c++) {
		int32_t k = F->colls[c].key;
		if (k >= 0)
			members[B->key_first[k] + B->key_count[k]++] = c;
	}
	/* keys by process group (counting sort, stable: keys are numbered in
	 * the order of their first collective, groups too) */
	uint32_t *keys = B->order + at;
	memset(B->pg_count, 0, (npgs + 1) * sizeof *B->pg_count);
	for (size_t k = 0; k < nkeys; k++)
		B->pg_count[B->keys.keys[k].pg + 1]++;
	for (size_t p = 0; p < npgs; p++)
		B->pg_count[p + 1] += B->pg_count[p];
	for (size_t k = 0; k < nkeys; k++)
		keys[B->pg_count[B->keys.keys[k].pg]++] = (uint32_t)k;
	int rc = PL_OK;
	for (size_t i = 0; i < nkeys && rc == PL_OK; i++)
		rc = find_buckets(B, members + B->key_first[keys[i]], B->key_count[keys[i]]);
	return rc;
}

static int overlap_func(struct bucketer *B, pl_func *f, const pl_cost_model *cm)
{
	pl_schedule *s;
	int rc = pl_schedule_new_totals(&s, f, cm);
	if (rc != PL_OK) {
		B->failed = f;
		return rc;
	}
	uint64_t before = pl_schedule_exposed_ns(s);
	pl_schedule_free(s);
	B->exposed_before = pl_u64_add_sat(B->exposed_before, before);
	B->nbuckets = 0;
	key_table_clear(&B->keys);
	key_table_clear(&B->pgs);
	const struct ov_hooks hooks = {classify_start, classify_done, B};
	rc = ov_info_build(&B->F, f, cm, &hooks);
	/* a start without its done (the verifier refuses them) is never bucketed */
	for (size_t c = 0; c < B->F.ncoll && rc == PL_OK; c++)
		if (!B->F.colls[c].done)
			B->F.colls[c].pg = B->F.colls[c].key = -1;
	if (rc == PL_OK && B->keys.n)
		rc = build_timelines(B);
	if (rc == PL_OK && B->keys.n)
		rc = bucket_groups(B);
	for (size_t k = 0; k < B->nbuckets && rc == PL_OK; k++) {
		if (B->remarks)
			remark_bucket(B, &B->buckets[k]);
		B->num_bucketed += B->buckets[k].n;
		rc = apply_bucket(B, &B->buckets[k]);
	}
	B->num_buckets += B->nbuckets;
	uint64_t after = before;
	if (rc == PL_OK && B->nbuckets) {
		if ((rc = pl_schedule_new_totals(&s, f, cm)) != PL_OK) {
			B->failed = f;
			return rc;
		}
		after = pl_schedule_exposed_ns(s);
		pl_schedule_free(s);
	}
	B->exposed_after = pl_u64_add_sat(B->exposed_after, after);
	return rc;
}

static int overlap_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct bucketer B = {.ctx = ctx, .cfg = state, .remarks = pl_ctx_remarks_enabled(ctx),
	                     .attrs = {.names = attr_names, .count = NUM_ATTRS}};
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	if (rc == PL_OK)
		rc = pl_module_prepare_counts(m); /* each pair counted once */
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++)
		if (rewritable_at(&rw, k))
			rc = overlap_func(&B, pl_module_func_at(m, k), cm);
	rewritable_free(&rw);
	if (rc != PL_OK && rc != PL_ENOMEM && B.failed)
		pl_ctx_error(ctx, NULL, "cannot simulate @%s: %s", pl_func_name(B.failed),
		             pl_status_string(rc));
	else
		pass_end_report(ctx, rc, "bucket collectives");
	pass_end_stat(ctx, "num_buckets", B.num_buckets, &rc);
	pass_end_stat(ctx, "num_collectives_bucketed", B.num_bucketed, &rc);
	pass_end_stat(ctx, "exposed_ns_before", B.exposed_before, &rc);
	pass_end_stat(ctx, "exposed_ns_after", B.exposed_after, &rc);
	ov_info_free(&B.F);
	ptr_map_free(&B.attrs.seen);
	key_table_free(&B.keys);
	key_table_free(&B.pgs);
	free(B.buckets);
	free(B.ev_prev);
	free(B.ev_next);
	free(B.pg_tail);
	free(B.order);
	free(B.key_first);
	free(B.key_count);
	free(B.pg_count);
	free(B.sorted);
	free(B.sort_tmp);
	free(B.cands.rank_of);
	free(B.cands.skip);
	free(B.cands.tree);
	free(B.cands.list);
	free(B.execs);
	free(B.by_start);
	free(B.hides);
	free(B.bneeds.stores);
	free(B.cneeds.stores);
	free(B.member_dones);
	return rc;
}

static const pl_pass_desc overlap_pass = {
	PL_PASS_DESC_INIT,
	.name = "OverlapBucketCCOp",
	.summary = "Merges asynchronous collectives into buckets, keeping their overlap with compute.",
	.options = overlap_options,
	.stats = overlap_stats,
	.create = overlap_create,
	.run = overlap_run,
	.destroy = overlap_destroy,
};

PL_PLUGIN_DEFINE("OverlapBucketCCOp", PACKAGE_VERSION, "MIT",
                 "Overlap-preserving collective bucketing.", &overlap_pass)
