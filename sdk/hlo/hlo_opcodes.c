/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_opcodes.c — lookups in the table of HLO opcodes. */
#include "hlo/hlo_opcodes.h"

#include <string.h>

#define PL_HLO_OPCODE_NAME_(id, s) s,
static const char *const opcodes[] = {PL_HLO_OPCODES(PL_HLO_OPCODE_NAME_)};
#define NOPCODES (sizeof opcodes / sizeof *opcodes)
_Static_assert(NOPCODES == HLO_OP_OTHER, "one name per enum hlo_op");

/* byte order of s[0..len) against the NUL-ended t */
static int cmp_name(const char *s, size_t len, const char *t)
{
	size_t tl = strlen(t), n = len < tl ? len : tl;
	int c = memcmp(s, t, n);
	if (c)
		return c;
	return len < tl ? -1 : len > tl;
}

/* The index of s[0..len) in the table (its enum hlo_op), or HLO_OP_OTHER */
static enum hlo_op in_table(const char *s, size_t len)
{
	size_t lo = 0, hi = NOPCODES;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(s, len, opcodes[mid]);
		if (!c)
			return (enum hlo_op)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return HLO_OP_OTHER;
}

enum hlo_op pl_hlo_opcode_of_(const char *s, size_t len, enum hlo_phase *phase)
{
	*phase = HLO_PHASE_NONE;
	enum hlo_op op = in_table(s, len);
	if (op != HLO_OP_OTHER)
		return op;
	static const char *const sugar[] = {"-start", "-update", "-done"};
	static const enum hlo_phase phases[] = {HLO_PHASE_START, HLO_PHASE_UPDATE,
	                                        HLO_PHASE_DONE};
	for (size_t k = 0; k < 3; k++) {
		size_t sl = strlen(sugar[k]);
		if (len > sl && !memcmp(s + len - sl, sugar[k], sl)) {
			op = in_table(s, len - sl);
			if (op != HLO_OP_OTHER)
				*phase = phases[k];
			return op;
		}
	}
	return HLO_OP_OTHER;
}

const char *pl_hlo_opcode_name_(enum hlo_op op)
{
	return op < HLO_OP_OTHER ? opcodes[op] : NULL;
}

bool pl_hlo_opcode_known_(const char *s, size_t len)
{
	enum hlo_phase phase;
	return pl_hlo_opcode_of_(s, len, &phase) != HLO_OP_OTHER;
}

#define SAME HLO_F_SHAPE_OF_OPERAND
static const unsigned char flags[HLO_OP_OTHER + 1] = {
	[HLO_OP_ABS] = SAME, [HLO_OP_ADD] = SAME, [HLO_OP_AND] = SAME, [HLO_OP_ATAN2] = SAME,
	[HLO_OP_CBRT] = SAME, [HLO_OP_CEIL] = SAME, [HLO_OP_CLAMP] = SAME, [HLO_OP_COPY] = SAME,
	[HLO_OP_COSINE] = SAME, [HLO_OP_DIVIDE] = SAME,
	[HLO_OP_ERF] = SAME, [HLO_OP_EXPONENTIAL] = SAME, [HLO_OP_EXPONENTIAL_MINUS_ONE] = SAME,
	[HLO_OP_FLOOR] = SAME, [HLO_OP_LOG] = SAME, [HLO_OP_LOG_PLUS_ONE] = SAME,
	[HLO_OP_LOGISTIC] = SAME, [HLO_OP_MAXIMUM] = SAME, [HLO_OP_MINIMUM] = SAME,
	[HLO_OP_MULTIPLY] = SAME, [HLO_OP_NEGATE] = SAME, [HLO_OP_NOT] = SAME, [HLO_OP_OR] = SAME,
	[HLO_OP_POWER] = SAME, [HLO_OP_REMAINDER] = SAME, [HLO_OP_ROUND_NEAREST_AFZ] = SAME,
	[HLO_OP_ROUND_NEAREST_EVEN] = SAME, [HLO_OP_RSQRT] = SAME, [HLO_OP_SHIFT_LEFT] = SAME,
	[HLO_OP_SHIFT_RIGHT_ARITHMETIC] = SAME, [HLO_OP_SHIFT_RIGHT_LOGICAL] = SAME,
	[HLO_OP_SIGN] = SAME, [HLO_OP_SINE] = SAME, [HLO_OP_SQRT] = SAME, [HLO_OP_SUBTRACT] = SAME,
	[HLO_OP_TAN] = SAME, [HLO_OP_TANH] = SAME, [HLO_OP_WHILE] = SAME, [HLO_OP_XOR] = SAME,
};
#undef SAME

unsigned pl_hlo_opcode_flags_(enum hlo_op op, enum hlo_phase phase)
{
	return phase == HLO_PHASE_NONE && op <= HLO_OP_OTHER ? flags[op] : 0;
}

/* As CreateInstruction of XLA's hlo_parser.cc declares them, attribute
 * by attribute "required=true". */
static const char *const required[HLO_OP_OTHER + 1] = {
	[HLO_OP_ALL_GATHER] = "dimensions",
	[HLO_OP_ALL_GATHER_START] = "dimensions",
	[HLO_OP_ALL_REDUCE] = "to_apply",
	[HLO_OP_ALL_REDUCE_START] = "to_apply",
	[HLO_OP_ASYNC_START] = "calls",
	[HLO_OP_BATCH_NORM_GRAD] = "epsilon feature_index",
	[HLO_OP_BATCH_NORM_INFERENCE] = "epsilon feature_index",
	[HLO_OP_BATCH_NORM_TRAINING] = "epsilon feature_index",
	[HLO_OP_CALL] = "to_apply",
	[HLO_OP_COLLECTIVE_PERMUTE] = "source_target_pairs",
	[HLO_OP_COLLECTIVE_PERMUTE_START] = "source_target_pairs",
	[HLO_OP_COMPARE] = "direction",
	[HLO_OP_CONCATENATE] = "dimensions",
	[HLO_OP_CONVOLUTION] = "dim_labels",
	[HLO_OP_CUSTOM_CALL] = "custom_call_target",
	[HLO_OP_DOMAIN] = "domain",
	[HLO_OP_DYNAMIC_SLICE] = "dynamic_slice_sizes",
	[HLO_OP_FFT] = "fft_type fft_length",
	[HLO_OP_FUSION] = "calls kind",
	[HLO_OP_GATHER] = "offset_dims collapsed_slice_dims start_index_map index_vector_dim "
	                  "slice_sizes",
	[HLO_OP_GET_DIMENSION_SIZE] = "dimensions",
	[HLO_OP_GET_TUPLE_ELEMENT] = "index",
	[HLO_OP_IOTA] = "iota_dimension",
	[HLO_OP_MAP] = "to_apply",
	[HLO_OP_PAD] = "padding",
	[HLO_OP_REDUCE] = "to_apply dimensions",
	[HLO_OP_REDUCE_PRECISION] = "exponent_bits mantissa_bits",
	[HLO_OP_REDUCE_SCATTER] = "to_apply dimensions",
	[HLO_OP_REDUCE_WINDOW] = "to_apply",
	[HLO_OP_REVERSE] = "dimensions",
	[HLO_OP_RNG] = "distribution",
	[HLO_OP_RNG_BIT_GENERATOR] = "algorithm",
	[HLO_OP_RNG_GET_AND_UPDATE_STATE] = "delta",
	[HLO_OP_SCAN] = "to_apply dimensions num_carries",
	[HLO_OP_SCATTER] = "update_window_dims inserted_window_dims scatter_dims_to_operand_dims "
	                   "index_vector_dim to_apply",
	[HLO_OP_SELECT_AND_SCATTER] = "select scatter",
	[HLO_OP_SET_DIMENSION_SIZE] = "dimensions",
	[HLO_OP_SLICE] = "slice",
	[HLO_OP_SORT] = "dimensions to_apply",
	[HLO_OP_TOPK] = "k",
	[HLO_OP_TRANSPOSE] = "dimensions",
	[HLO_OP_WHILE] = "condition body",
};

const char *pl_hlo_opcode_required_(enum hlo_op op)
{
	return op < HLO_OP_OTHER && required[op] ? required[op] : "";
}

enum hlo_op pl_hlo_opcode_sync_(enum hlo_op op)
{
	switch (op) {
	case HLO_OP_ALL_GATHER_START:
	case HLO_OP_ALL_GATHER_DONE: return HLO_OP_ALL_GATHER;
	case HLO_OP_ALL_REDUCE_START:
	case HLO_OP_ALL_REDUCE_DONE: return HLO_OP_ALL_REDUCE;
	case HLO_OP_COLLECTIVE_PERMUTE_START:
	case HLO_OP_COLLECTIVE_PERMUTE_DONE: return HLO_OP_COLLECTIVE_PERMUTE;
	case HLO_OP_COPY_START:
	case HLO_OP_COPY_DONE: return HLO_OP_COPY;
	default: return op;
	}
}

/* Edit distance of a and b, both shorter than 40 bytes; 3 when longer. */
static unsigned distance(const char *a, size_t al, const char *b)
{
	size_t bl = strlen(b);
	if (al >= 40 || bl >= 40)
		return 3;
	unsigned row[41];
	for (size_t j = 0; j <= bl; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= al; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= bl; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[bl];
}

const char *pl_hlo_opcode_nearest_(const char *s, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (size_t k = 0; k < NOPCODES; k++) {
		unsigned d = distance(s, len, opcodes[k]);
		if (d < bd) {
			bd = d;
			best = opcodes[k];
		}
	}
	return best;
}
