/* SPDX-License-Identifier: MIT */
/* plugins/overlap_info.h — what OverlapBucketCCOp knows about the
 * asynchronous collectives of one function before it changes anything:
 * each start's estimated time, its hiding nodes and exposed time, and
 * whether one instruction depends on another through data or through a
 * hiding relation (passline-pipeline(5), OverlapBucketCCOp).
 *
 * Everything is computed from the function as the pass receives it and
 * stays valid while the function is not edited: positions are the
 * instructions' pl_inst_position numbers then, indices count instructions
 * from 0 in that order.
 *
 * Hiding is first come, first served: each compute instruction gives its
 * time to the collectives in flight, in the order of their starts. So once
 * a collective has been given time it is first in line until it is
 * satisfied or done, and its hiding nodes are exactly the compute
 * instructions of nonzero time between its first and last one. The pairs
 * (instruction, collective it gave time to) are kept in one array in
 * instruction order: at most one pair per instruction plus one per
 * collective, so linear memory, and no per-instruction table.
 */
#ifndef PLUGINS_OVERLAP_INFO_H
#define PLUGINS_OVERLAP_INFO_H

#include <passline/passline.h>

#include <stdbool.h>
#include <stdint.h>

#include "ptr_map.h" /* push_inst, grow */

#define OV_NONE UINT32_MAX

/* One asynchronous collective: a start and its done. */
struct ov_coll {
	pl_inst *start, *done;
	uint32_t start_idx, done_idx; /* instruction indices */
	uint64_t est_ns;              /* pl_inst_time_ns of the start */
	uint64_t exposed_ns;          /* what no compute hid by the done */
	uint64_t size_bytes;          /* result bytes, saturating */
	/* hiding nodes: the compute of nonzero time in [hf, hl]; nhide 0: none */
	uint32_t nhide;
	uint32_t hf_idx, hl_idx;
	uint32_t pair_first, pair_end; /* its pairs lie in this range, with others */
	uint32_t q_prev, q_next;       /* the line of collectives waiting for time */
	bool in_line;
	bool has_pred;        /* the start has an operand defined in the function */
	uint64_t pred_pos;    /* then the latest such definition */
	/* set by the bucketer */
	int32_t pg, key;       /* -1: no process group / never bucketed */
	int32_t bucket;        /* -1: in none */
	uint32_t next_member;  /* the next member of its bucket, OV_NONE */
	bool processed;
};

/* One instruction that gave time to one collective. */
struct ov_pair {
	uint32_t idx;
	uint32_t coll;
};

struct ov_func {
	pl_func *f;
	const pl_cost_model *cm;
	pl_inst **insts; /* by index */
	uint64_t *pos;   /* pl_inst_position, by index */
	uint32_t *pair_at; /* the first pair of each instruction, OV_NONE */
	uint32_t *coll_at; /* the collective whose start or done it is, OV_NONE */
	size_t n, insts_cap, pos_cap, pair_at_cap, coll_at_cap;
	uint32_t *events; /* starts (2c) and dones (2c + 1) in instruction order */
	size_t nevents, events_cap;
	struct ov_coll *colls; /* in the order of their starts */
	size_t ncoll, colls_cap;
	struct ov_pair *pairs;
	size_t npairs, pairs_cap;
	/* the scratch of the reachability searches: an instruction is seen by
	 * the current search when its stamp is the search's */
	uint32_t *stamp;
	size_t stamp_cap;
	uint32_t search;
	uint32_t *stack;
	size_t stack_len, stack_cap;
	/* the work the searches did, in edges followed (each search adds its
	 * own, so the caller can bound what they cost together) */
	uint64_t work;
	/* the searches give up, answering "reaches", once work passes this */
	uint64_t work_limit;
};

/* Whether the work allowed is spent: the checks then refuse what they
 * cannot finish, which is always safe. */
static inline bool ov_spent(const struct ov_func *F)
{
	return F->work >= F->work_limit;
}

/* What the caller does with each collective while the walk is at it (its
 * instructions are in the cache then, and would not be later): start when
 * its start is seen, done when its done is (c->start and c->done set).
 * Each returns PL_OK or an error that stops the walk. */
struct ov_hooks {
	int (*start)(void *ud, struct ov_coll *c);
	int (*done)(void *ud, struct ov_coll *c);
	void *ud;
};

/* Fills F for f, with each instruction's time as the simulation under cm
 * gives it (pl_inst_time_ns), calling h's hooks. F keeps its memory from
 * one function to the next. PL_OK, PL_ENOMEM, PL_ELIMIT (2^32 - 1
 * instructions or more), what pl_inst_time_ns or a hook returns. */
int ov_info_build(struct ov_func *F, pl_func *f, const pl_cost_model *cm,
                  const struct ov_hooks *h);
void ov_info_free(struct ov_func *F);

/* The collective whose start or done inst is (an instruction of F's
 * function as it came in); -1 for any other. */
int64_t ov_coll_of(const struct ov_func *F, const pl_inst *inst);

static inline bool ov_is_exposed(const struct ov_coll *c)
{
	return c->exposed_ns > 0;
}

/* Whether the instruction at idx is a hiding node of a collective that is
 * not exposed (the original pass's all_hiding_nodes). */
bool ov_is_hiding_node(const struct ov_func *F, uint32_t idx);

/* The first hiding node of c at index idx or later; OV_NONE when none. */
uint32_t ov_first_hiding_at_or_after(const struct ov_func *F, uint32_t c, uint32_t idx);

/* Whether there is a path from the instruction at index from to the start
 * of collective c, through data and hiding edges (start -> each hiding
 * node -> done, for every collective that is not exposed); from itself is
 * not counted. Searches only the instructions between the two, and not at
 * all when every direct predecessor comes before from. PL_OK or
 * PL_ENOMEM. */
int ov_reaches_start(struct ov_func *F, uint32_t from, uint32_t c, bool *out);
/* The same, to the done of c; to any hiding node of c. */
int ov_reaches_done(struct ov_func *F, uint32_t from, uint32_t c, bool *out);
int ov_reaches_hiding(struct ov_func *F, uint32_t from, uint32_t c, bool *out);
/* Whether ov_reaches_done holds for any of the n instructions from, in
 * two searches rather than 2n (scratch: room for n indices). */
int ov_any_reaches_done(struct ov_func *F, const uint32_t *from, size_t n, uint32_t *scratch,
                        uint32_t c, bool *out);

/* The index of the instruction at position pos (binary search). */
uint32_t ov_index_of(const struct ov_func *F, uint64_t pos);

#endif
