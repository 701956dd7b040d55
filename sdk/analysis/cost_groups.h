/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_groups.h — the devices of a collective's groups, as the
 * cost model needs them: how many devices a group has and how many nodes
 * the widest group spans. Private to the library. */
#ifndef PL_ANALYSIS_COST_GROUPS_H
#define PL_ANALYSIS_COST_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pl_group_shape {
	int64_t size;  /* devices in one group (the largest), >= 1 */
	int64_t nodes; /* nodes the group spanning the most spans, >= 1 */
	/* the most devices of one group on one node (of the group spanning
	 * the most nodes): how many NICs that group drives at once; 0 when
	 * not known (the caller takes size / nodes) */
	int64_t per_node;
};

/* Reads XLA's replica groups text: "{{0,1},{2,3}}", "{}" (no groups: one
 * group of every device, which the caller knows: *out is left alone and
 * false returned) or the iota form "[G,S]<=[d0,d1,...]" with an optional
 * "T(p0,p1,...)". Device d is on node d / devices_per_node. false for text
 * it cannot read (the caller then falls back on the factor). */
bool pl_replica_groups_shape_(const char *s, size_t len, int64_t devices_per_node,
                              struct pl_group_shape *out);
/* source_target_pairs "{{0,1},{1,2}}": size 2; nodes 2 when some pair
 * crosses nodes. false for text it cannot read or no pairs. */
bool pl_pairs_shape_(const char *s, size_t len, int64_t devices_per_node,
                     struct pl_group_shape *out);

#endif
