/* SPDX-License-Identifier: MIT */
/* sdk/analysis/name_list.h — the ops and keys that name computations,
 * numbered in a module, for the call graph and the rewritable-function
 * query alike (the names themselves: ir/name_list.h). */
#ifndef PL_ANALYSIS_NAME_LIST_H
#define PL_ANALYSIS_NAME_LIST_H

#include "ir/hlo_keys.h"
#include "ir/hlo_opcodes.h"
#include "ir/internal.h"
#include "ir/name_list.h"

#include <stdbool.h>
#include <stddef.h>

/* The keys by which an instruction names computations, in this order
 * (the rewritable-function query tells code apart by it). */
enum call_key {
	CALL_BODY,
	CALL_CONDITION,
	CALL_TO_APPLY,
	CALL_CALLS,
	CALL_CALLED_COMPUTATIONS,
	CALL_BRANCH_COMPUTATIONS,
	CALL_TRUE_COMPUTATION,
	CALL_FALSE_COMPUTATION,
	CALL_NKEYS
};

/* Those keys and the ops whose computations run as code, numbered in a
 * module once per walk (0: the module has none, so nothing matches): a
 * walk compares numbers where a lookup by name would compare strings. */
struct call_ids {
	uint32_t key[CALL_NKEYS];
	uint32_t op_while, op_call, op_cond;
	bool any_key; /* a key of key[] is in the module */
};

static inline void call_ids_number(const pl_module *m, struct call_ids *ids)
{
	static const enum pl_hlo_key keys[CALL_NKEYS] = {
		PL_HK_BODY,           PL_HK_CONDITION,           PL_HK_TO_APPLY,
		PL_HK_CALLS,          PL_HK_CALLED_COMPUTATIONS, PL_HK_BRANCH_COMPUTATIONS,
		PL_HK_TRUE_COMPUTATION, PL_HK_FALSE_COMPUTATION};
	ids->any_key = false;
	for (size_t k = 0; k < CALL_NKEYS; k++) {
		ids->key[k] = pl_key_number_find_(m, pl_hlo_key_(keys[k]));
		ids->any_key |= ids->key[k] != 0;
	}
	ids->op_while = pl_hlo_op_number_find_(m, PL_HLO_WHILE);
	ids->op_call = pl_hlo_op_number_find_(m, PL_HLO_CALL);
	ids->op_cond = pl_hlo_op_number_find_(m, PL_HLO_CONDITIONAL);
}

#endif
