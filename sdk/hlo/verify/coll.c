/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/coll.c — the shapes of the collectives against their
 * groups and dimension: all-gather, reduce-scatter and all-reduce (the
 * SDK's own ops the reader maps them onto, their starts, and the results
 * part of all-gather-start and all-reduce-start kept as HLO), and
 * all-to-all's split. Their replica groups are groups.c's. */
#include "hlo/verify/checks.h"

#include <stdio.h>

/* all-gather: result = operand x shards along the dimension;
 * reduce-scatter divides; all-reduce keeps the shape. The shards are the
 * group size, unless that is 1 (XLA's default config, which its verifier
 * does not check): then as many as the first operand and result give.
 * Result value res0+k is operand k's (res0 > 0: a start's results after
 * its operands part). listed is the group size hv_groups gave. */
static bool collective(struct hv *v, pl_op op, size_t res0, int64_t listed)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	if (pl_inst_num_results(i) < res0 + n || (!res0 && pl_inst_num_results(i) != n))
		return true;
	int64_t dv[MAX_LIST];
	int nd = op == PL_OP_ALL_REDUCE ? 0 : hv_list(v, HK(DIMENSIONS), dv);
	if (nd == -1)
		return false;
	int64_t size = hv_subgroup_size(v, listed), shards = size > 1 ? size : 0;
	char how[96];
	snprintf(how, sizeof how, "over groups of %lld", (long long)size);
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k), *r = pl_value_type(pl_inst_result(i, res0 + k));
		struct hv_two ty = hv_types(a, r);
		if (op == PL_OP_ALL_REDUCE) {
			if (!hv_same_dims(a, r))
				return hv_bad(v, "'%s' (all-reduce) turns %s into %s: expected the same shape",
				           hv_name(i), ty.a, ty.b);
			continue;
		}
		if (nd != 1)
			continue;
		int64_t d = dv[0];
		if (!a->rank && !r->rank)
			continue; /* a scalar rides along, as PyTorch/XLA writes them */
		if (d < 0 || (uint64_t)d >= a->rank)
			return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of %s (rank %u)",
			           (long long)d, hv_name(i), ty.a, a->rank);
		bool fits = a->rank == r->rank;
		for (uint32_t j = 0; fits && j < a->rank; j++)
			if (j != (uint32_t)d && a->dims[j] != r->dims[j])
				fits = false;
		if (!fits)
			return hv_bad(v, "'%s' turns %s into %s: expected the same extents but dimension %lld",
			           hv_name(i), ty.a, ty.b, (long long)d);
		bool gather = op == PL_OP_ALL_GATHER;
		int64_t whole = gather ? r->dims[d] : a->dims[d], part = gather ? a->dims[d] : r->dims[d];
		if (!shards && part > 0) {
			/* XLA's shard count: the ratio, rounded up, of the first pair */
			shards = whole / part + (whole % part != 0);
			snprintf(how, sizeof how, "of %lld shards, as its first operand and result give",
			         (long long)shards);
		}
		if (shards <= 0)
			continue;
		if (gather && r->dims[d] != hv_mul(a->dims[d], shards))
			return hv_bad(v, "'%s' (all-gather %s) turns %s into %s: expected dimension %lld "
			                 "to be %lld",
			              hv_name(i), how, ty.a, ty.b, (long long)d,
			              (long long)hv_mul(a->dims[d], shards));
		if (!gather && a->dims[d] % shards)
			return hv_bad(v, "'%s' (reduce-scatter %s): dimension %lld of %s does not divide "
			                 "by %lld",
			              hv_name(i), how, (long long)d, ty.a, (long long)shards);
		if (!gather && r->dims[d] != a->dims[d] / shards)
			return hv_bad(v, "'%s' (reduce-scatter %s) turns %s into %s: expected dimension "
			                 "%lld to be %lld",
			              hv_name(i), how, ty.a, ty.b, (long long)d,
			              (long long)(a->dims[d] / shards));
	}
	return true;
}

/* all-to-all: its split count is the group size (XLA's GetSubgroupSize,
 * a count of 1 included). With dimensions={d}, one array whose dimension
 * d divides by that count, the result its shape; without, one array per
 * device of a group, all of one shape, the result their shapes. */
bool hv_all_to_all(struct hv *v)
{
	const pl_inst *i = v->at;
	int64_t d[MAX_LIST], split = hv_subgroup_size(v, v->group_size);
	int nd = hv_list(v, HK(DIMENSIONS), d);
	size_t n = pl_inst_num_operands(i);
	if (nd == -1 || !n)
		return nd != -1;
	const pl_type *a = hv_op_type(i, 0);
	if (nd < 0) {
		if (split > 0 && n != (uint64_t)split)
			return hv_bad(v, "'%s' (all-to-all over groups of %lld) has %zu operands: expected "
			                 "%lld, one per device of a group, as it has no dimensions=",
			              hv_name(i), (long long)split, n, (long long)split);
		for (size_t k = 1; k < n; k++)
			if (!hv_same_type(hv_op_type(i, k), a)) {
				struct hv_two ty = hv_types(hv_op_type(i, k), a);
				return hv_bad(v, "operand %zu of '%s' (all-to-all) is %s: expected %s, the "
				                 "shape of operand 0",
				              k, hv_name(i), ty.a, ty.b);
			}
		if (pl_inst_num_results(i) != n)
			return hv_bad(v, "'%s' (all-to-all) has %zu values for %zu operands: expected one "
			                 "per operand",
			              hv_name(i), pl_inst_num_results(i), n);
		for (size_t k = 0; k < n; k++)
			if (!hv_same_dims(pl_value_type(pl_inst_result(i, k)), a))
				return hv_value_is(v, "all-to-all", k, a, "the shape of its operands");
		return true;
	}
	if (nd != 1 || pl_inst_num_results(i) != 1)
		return true;
	if (n != 1)
		return hv_bad(v, "'%s' (all-to-all) has dimensions= and %zu operands: expected one "
		                 "array to split",
		              hv_name(i), n);
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	struct hv_two ty = hv_types(a, r);
	if (d[0] < 0 || (uint64_t)d[0] >= a->rank)
		return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of %s (rank %u)",
		              (long long)d[0], hv_name(i), ty.a, a->rank);
	if (split > 0 && a->dims[d[0]] % split)
		return hv_bad(v, "'%s' (all-to-all over groups of %lld): dimension %lld of %s does not "
		                 "divide by %lld",
		              hv_name(i), (long long)split, (long long)d[0], ty.a, (long long)split);
	if (!hv_same_dims(a, r))
		return hv_bad(v, "'%s' (all-to-all) turns %s into %s: expected the same shape", hv_name(i),
		              ty.a, ty.b);
	return true;
}

/* An all-gather, reduce-scatter or all-reduce the reader mapped onto the
 * SDK's op (or its start, whose results are the collective's): its
 * groups, then its shapes. All-reduce's groups may differ in size (XLA's
 * verifier). */
static bool sdk_collective(struct hv *v, pl_op op)
{
	int64_t listed;
	return hv_groups(v, HK(REPLICA_GROUPS), &listed, op != PL_OP_ALL_REDUCE) &&
	       collective(v, op, 0, listed);
}

bool hv_sdk_all_gather(struct hv *v)
{
	return sdk_collective(v, PL_OP_ALL_GATHER);
}

bool hv_sdk_reduce_scatter(struct hv *v)
{
	return sdk_collective(v, PL_OP_REDUCE_SCATTER);
}

bool hv_sdk_all_reduce(struct hv *v)
{
	return sdk_collective(v, PL_OP_ALL_REDUCE);
}

/* all-gather-start kept as HLO: the results after its operands part are
 * an all-gather's (its groups were checked before the table's checks). */
bool hv_all_gather_start(struct hv *v)
{
	return collective(v, PL_OP_ALL_GATHER, pl_inst_num_operands(v->at), v->group_size);
}

/* all-reduce-start kept as HLO: its results are an all-reduce's. */
bool hv_all_reduce_start(struct hv *v)
{
	return collective(v, PL_OP_ALL_REDUCE, 0, v->group_size);
}
