/* SPDX-License-Identifier: MIT */
/* plugins/rs_match.h — XLA's rule for an all-reduce that is a reduce-
 * scatter in disguise (MatchReduceScatter in XLA's collective_opt_utils):
 * its one user is a dynamic-slice (maybe through a reshape whose one user
 * it is) that takes, in one dimension, the shard of each device's index in
 * its replica group, the offset computed from partition-id / replica-id
 * directly or through tables of constants. */
#ifndef PLUGINS_RS_MATCH_H
#define PLUGINS_RS_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <passline/passline.h>

#include "ptr_map.h"
#include "rs_groups.h"

/* The devices of the module, as XLA's module config gives them. */
struct rs_devices {
	int64_t replicas, partitions;
};

/* Tables of constants read while matching, kept for the whole run. */
struct rs_tables {
	struct ptr_map of;   /* constant inst -> its entry index + 1 */
	struct rs_table *v;  /* the entries */
	size_t n, cap;
};
void rs_tables_free(struct rs_tables *t);

/* What a match found. */
struct rs_spec {
	pl_inst *ds;        /* the dynamic-slice */
	pl_inst *reshape;   /* the reshape between the all-reduce and it, or NULL */
	size_t split_dim;   /* in the all-reduce's shape */
	int64_t group_size; /* devices in a replica group */
};

/* Matches all_reduce ar with groups g. PL_OK with *why NULL and *spec
 * filled when it is a reduce-scatter; PL_OK with *why the reason (in
 * whybuf, or a constant) when not; PL_ENOMEM. */
int rs_match(const pl_inst *ar, const struct rs_groups *g, const struct rs_devices *dev,
             struct rs_tables *tables, struct rs_spec *spec, const char **why, char *whybuf,
             size_t whylen);

#endif
