/* SPDX-License-Identifier: MIT */
/* sdk/ir/count_memo.h — the module's memo of predicated counts: which pairs
 * of domain and predicate its dictionaries hold, and their counts once
 * analysis/predicate.c has made them. The IR enters pairs as dictionaries
 * get them; it never counts (counting is analysis, a floor above). */
#ifndef PL_COUNT_MEMO_H
#define PL_COUNT_MEMO_H

#include "ir/internal.h"

/* Predicated counts remembered per module. The key is the interned
 * element arrays of the domain and predicate lists: interned blobs live,
 * unchanged, as long as the module, so an address stands for one value
 * (equal values share one address, which is what makes repeats hit).
 *
 * A pair is entered, not counted, when a dictionary gets it
 * (pl_count_note_, from the reader, the splice and pl_attrs_set); it is
 * counted by pl_module_prepare_counts, which a pass that asks for many
 * counts calls first (a count can take seconds: reading must not pay for
 * counts nobody asks for). The counts take a const instruction and only
 * read the memo, so several threads may ask at once; a pair not counted
 * yet is counted on each call. */
struct count_slot {
	const pl_attr *dom, *pred;
	uint32_t dom_len, pred_len;
	bool counted; /* else entered only */
	int rc;       /* the count's status once counted (n when PL_OK) */
	uint64_t n;
};

/* The pairs, and the one hash table (hash_table.h) of their indexes + 1. */
struct pl_count_memo {
	struct count_slot *v;
	size_t n, cap;
	size_t counted; /* v[0..counted) are counted, the rest entered only */
	struct pl_ht index;
};

/* The slot of key in memo, or NULL (memo may be NULL). */
PL_INTERNAL const struct count_slot *pl_count_memo_find_(const struct pl_count_memo *memo,
                                                         const struct count_slot *key);
/* The memo's key for the pair of a; false when a has no predicate, or a
 * domain or predicate that is not a list (no count to remember). */
PL_INTERNAL bool pl_count_pair_of_(const struct pl_count_attrs *a, struct count_slot *key);

#endif
