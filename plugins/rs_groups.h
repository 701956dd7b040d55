/* SPDX-License-Identifier: MIT */
/* plugins/rs_groups.h — what ReduceScatterCreator needs to know of a
 * collective's devices: its replica groups (as XLA lists them: explicit,
 * iota, or none), its group mode, and the module's replica and partition
 * counts. Read from the attributes the HLO reader keeps (hlo_replica_groups,
 * hlo_channel_id, hlo_use_global_device_ids, the hlo_module header), or
 * from the canonical group_id of a module written as .pir. */
#ifndef PLUGINS_RS_GROUPS_H
#define PLUGINS_RS_GROUPS_H

#include <stdbool.h>
#include <stdint.h>

#include <passline/passline.h>

/* The replica groups of one collective. ngroups == 0 is XLA's empty list
 * ({}: every device of the mode). Group g holds ids[start[g]] ..
 * ids[start[g + 1] - 1]. Owned by the struct: rs_groups_free. */
struct rs_groups {
	int64_t *ids;
	size_t *start; /* ngroups + 1 entries */
	size_t ngroups;
	bool cross_module;   /* a channel_id: cross-partition or global ids */
	bool global_ids;     /* use_global_device_ids=true */
	bool known;          /* false: the groups could not be read */
};

/* The groups and mode of collective inst. PL_OK (with known false when the
 * text is in a form passline does not expand, such as a mesh, or too
 * large), or PL_ENOMEM. */
int rs_groups_read(struct rs_groups *g, const pl_inst *inst);
void rs_groups_free(struct rs_groups *g);

static inline size_t rs_group_size(const struct rs_groups *g, size_t k)
{
	return g->start[k + 1] - g->start[k];
}

/* The largest device id the groups name, or -1 for none. */
int64_t rs_groups_max_id(const struct rs_groups *g);

/* The module's replica_count and num_partitions from the HloModule line
 * kept on its entry function, each 0 when the line does not give it. */
void rs_module_counts(const pl_module *m, int64_t *replicas, int64_t *partitions);

#endif
