/* SPDX-License-Identifier: MIT */
/* plugins/overlap_bucket.h — the state OverlapBucketCCOp shares between
 * overlap_bucket_ccop.c (groups, which candidates a bucket looks at,
 * apply) and overlap_place.c (whether and where a candidate may join). */
#ifndef PLUGINS_OVERLAP_BUCKET_H
#define PLUGINS_OVERLAP_BUCKET_H

#include <passline/passline.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <passline/grow.h>
#include "labels.h"
#include "overlap_info.h"
#include "ptr_map.h"

struct config {
	bool exposed_first, multidtype;
	uint64_t max_coll_distance, max_bucket_bytes, max_position_distance,
		max_consecutive_failures;
};

/* What collectives must share to share a bucket; a process group is a key
 * with only gid set. */
struct key {
	const char *gid;
	size_t gid_len;
	pl_op kind;
	bool has_factor, has_reduce;
	int64_t factor, dimension;
	const char *reduce;
	size_t reduce_len;
	pl_dtype dtype; /* PL_DTYPE_INVALID: not part of the key */
	int32_t pg;
};

/* Keys numbered in the order they are first seen, found by content. */
struct key_table {
	struct key *keys;
	size_t n, cap;
	struct pl_ht index; /* items: a key's index + 1 */
};

/* ---- the bucketer's state ------------------------------------------- */

struct bucket {
	uint32_t first, last, n; /* members, linked by next_member, in join order */
	uint32_t start_ev, done_ev; /* where its start and done are now */
	uint64_t bytes;
	bool has_hiding;
	uint32_t min_hf, max_hl; /* over every member's hiding nodes */
};

/* A store to a member's operand. */
struct store_rec {
	uint64_t pos;
	const pl_value *v;
};

/* What the order of a set of collectives needs: operands defined before
 * the start, results used after the done, stores to operands outside. */
struct needs {
	bool has_def, has_use;
	uint64_t max_def, min_use;
	const pl_value *def_v, *use_v;
	struct store_rec *stores;
	size_t nstores, cap;
};

struct ivl {
	uint32_t s, e; /* (start, done) or (start, hiding node) */
	int32_t bucket; /* the hiding intervals of a bucket's members, or */
	uint32_t coll;  /* of one collective (OV_NONE: the candidate's bucket) */
};

struct sort_ent {
	uint64_t hidden, est;
	uint32_t idx, coll;
	uint32_t gk; /* its place in the group, which is in the order of starts */
};

/* The candidates of one group, in the order find_buckets looks at them. */
struct cands {
	uint32_t *rank_of; /* by place in the group: the rank in that order */
	uint32_t *skip;    /* by rank: a later rank not yet taken, or itself */
	uint64_t *tree;    /* the largest size_bytes below each node, by rank */
	size_t leaves;
	uint32_t *list;    /* the ranks one bucket looks at */
	size_t nlist;
	size_t rank_cap, skip_cap, tree_cap, list_cap;
};

/* The attributes a key reads, found by their interned names. */
enum { A_GROUP_ID, A_FACTOR, A_DIMENSION, A_REDUCE, A_PINNED, NUM_ATTRS };

struct bucketer {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	bool remarks;
	struct ov_func F;
	struct key_table keys, pgs;
	struct bucket *buckets;
	size_t nbuckets, buckets_cap;
	uint32_t *ev_prev, *ev_next, *pg_tail; /* the timelines of the process groups */
	size_t ev_prev_cap, ev_next_cap, pg_cap;
	uint32_t *order, *key_first, *key_count, *pg_count;
	size_t order_cap, key_first_cap, key_count_cap, pg_count_cap;
	struct sort_ent *sorted, *sort_tmp;
	size_t sorted_cap, sort_tmp_cap;
	struct cands cands;
	struct ivl *execs, *hides, *by_start;
	size_t nexecs, nhides, execs_cap, hides_cap, by_start_cap;
	struct needs bneeds, cneeds; /* of the growing bucket, of the candidate */
	uint32_t *member_dones; /* the bucket's dones, then scratch of as many */
	size_t member_dones_cap;
	const pl_func *failed; /* the function that could not be simulated */
	struct key_classes attrs; /* attr_names by interned address */
	uint64_t num_buckets, num_bucketed, exposed_before, exposed_after;
};

/* ---- events: each collective's start (2c) and done (2c + 1) ---- */

static inline uint32_t ev_idx(const struct bucketer *B, uint32_t ev)
{
	const struct ov_coll *c = &B->F.colls[ev >> 1];
	return (ev & 1) ? c->done_idx : c->start_idx;
}

static inline uint64_t ev_pos(const struct bucketer *B, uint32_t ev)
{
	const struct ov_coll *c = &B->F.colls[ev >> 1];
	return B->F.pos[(ev & 1) ? c->done_idx : c->start_idx];
}

static inline uint32_t cur_start_ev(const struct bucketer *B, uint32_t c)
{
	int32_t b = B->F.colls[c].bucket;
	return b >= 0 ? B->buckets[b].start_ev : 2 * c;
}

static inline uint32_t cur_done_ev(const struct bucketer *B, uint32_t c)
{
	int32_t b = B->F.colls[c].bucket;
	return b >= 0 ? B->buckets[b].done_ev : 2 * c + 1;
}

static inline void ev_unlink(struct bucketer *B, uint32_t ev)
{
	uint32_t p = B->ev_prev[ev], n = B->ev_next[ev];
	if (p != OV_NONE)
		B->ev_next[p] = n;
	if (n != OV_NONE)
		B->ev_prev[n] = p;
	B->ev_prev[ev] = B->ev_next[ev] = OV_NONE;
}

/* A refusal of cand by the bucket of existing, as a remark (when remarks
 * are on): "cannot bucket %existing with %cand: REASON". Called through
 * OV_WHY, which evaluates the reason's arguments (labels, positions found
 * by binary search) only when remarks are on. */
__attribute__((format(printf, 4, 5))) void ov_why(struct bucketer *B, uint32_t existing,
                                                 uint32_t cand, const char *fmt, ...);
#define OV_WHY(B, ...)                        \
	do {                                  \
		if ((B)->remarks)             \
			ov_why((B), __VA_ARGS__); \
	} while (0)

/* What collective c's order needs (its operands' definitions, its
 * results' uses, the stores to its operands, at current positions), added
 * to nd; ov_needs_reset empties nd. PL_OK or PL_ENOMEM. */
void ov_needs_reset(struct needs *nd);
int ov_needs_add(struct bucketer *B, struct needs *nd, uint32_t c);

/* The original pass's _can_add_to_bucket: *added when cand joined b (its
 * start and done moved to the placement taken). PL_OK or PL_ENOMEM. */
int ov_can_add_to_bucket(struct bucketer *B, struct bucket *b, uint32_t cand, bool *added);

#endif
