/* SPDX-License-Identifier: MIT */
/* plugins/inst_bytes.h — the bytes of an instruction's results, as every
 * shipped pass that weighs a collective counts them, and which
 * instructions write a buffer, as every pass that moves one sees them. */
#ifndef PLUGINS_INST_BYTES_H
#define PLUGINS_INST_BYTES_H

#include <stdint.h>

#include <passline/passline.h>

/* The sum of inst's result bytes; UINT64_MAX when a type has no size or
 * the sum overflows. */
static inline uint64_t result_bytes(const pl_inst *inst)
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

/* Whether inst stores into its operand 1 (a store with its buffer). */
static inline bool inst_is_store(const pl_inst *inst)
{
	return (pl_inst_traits(inst) & PL_TRAIT_STORE) && pl_inst_num_operands(inst) >= 2;
}

#endif
