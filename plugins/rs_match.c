/* SPDX-License-Identifier: MIT */
/* plugins/rs_match.c — XLA's reduce-scatter matcher on passline's IR
 * (rs_match.h).
 *
 * The rule, step by step as XLA takes it (each refusal says which step):
 *  1. one result (an array), layout not constrained, a dimension > 1;
 *  2. exactly one user; replica groups of one size;
 *  3. the user is a dynamic-slice of it, or a reshape whose one user is;
 *  4. the group mode gives the group size and how a device's id is read
 *     from partition-id / replica-id (map_id below);
 *  5. the dynamic-slice cuts one dimension, by the group size;
 *  6. its offset there is, for the j-th device of every group, j times the
 *     slice size (is_per_id_offset), read through reshapes, bitcasts,
 *     copies, widening integer converts, clamps that cannot bind,
 *     multiplications by constants, tables of constants (dynamic-slices
 *     of a constant or iota, any number deep) and the subtraction
 *     id * k - table[id];
 *  7. a reshape in between leaves that dimension as it is.
 */
#include "rs_match.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>

/* A table of constants: a rank-1 i32/u32 constant, or an iota (values
 * NULL: entry k is k). */
struct rs_table {
	const int64_t *values;
	size_t n;
};

void rs_tables_free(struct rs_tables *t)
{
	for (size_t k = 0; k < t->n; k++)
		free((void *)t->v[k].values);
	free(t->v);
	ptr_map_free(&t->of);
}

/* The matcher's view of one all-reduce. */
enum mode { BY_REPLICA, BY_PARTITION, BY_GLOBAL_ID };
struct m {
	const struct rs_groups *g;
	const struct rs_devices *dev;
	struct rs_tables *tables;
	enum mode mode;
	bool orthogonal; /* BY_GLOBAL_ID: every group's partitions keep their places */
	bool iota_group; /* the ids of a group are 0..size-1 */
	int rc;          /* PL_ENOMEM once out of memory */
};

/* ---- reading instructions ------------------------------------------------ */

static bool is_op(const pl_inst *i, pl_hlo_op op)
{
	return i && pl_inst_hlo_op(i) == op;
}

static pl_inst *operand_def(const pl_inst *i, size_t k)
{
	return k < pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, k)) : NULL;
}

static const pl_type *result_type(const pl_inst *i)
{
	return pl_value_type(pl_inst_result(i, 0));
}

static bool is_integer(pl_dtype d)
{
	switch (d) {
	case PL_DTYPE_I8: case PL_DTYPE_U8: case PL_DTYPE_I16: case PL_DTYPE_U16:
	case PL_DTYPE_I32: case PL_DTYPE_U32: case PL_DTYPE_I64: case PL_DTYPE_U64:
	case PL_DTYPE_S4: case PL_DTYPE_U4: case PL_DTYPE_S2: case PL_DTYPE_U2:
	case PL_DTYPE_S1: case PL_DTYPE_U1:
		return true;
	default:
		return false;
	}
}

static bool effective_scalar(const pl_type *t)
{
	for (size_t k = 0; k < pl_type_rank(t); k++)
		if (pl_type_dim(t, k) != 1)
			return false;
	return true;
}

/* The integers of a constant's literal text ("7", "{0, 128, 256}"); false
 * when it holds anything else. At most max are stored, *n counts all. */
static bool literal_ints(const char *s, size_t len, int64_t *out, size_t max, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == '{' || c == '}' || c == ',' || c == ' ' || c == '\n' || c == '\t') {
			i++;
			continue;
		}
		bool neg = c == '-';
		if (neg)
			i++;
		if (i >= len || s[i] < '0' || s[i] > '9')
			return false;
		int64_t v = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (v > (INT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (s[i++] - '0');
		}
		if (*n < max)
			out[*n] = neg ? -v : v;
		(*n)++;
	}
	return true;
}

/* The value of an integer constant of one element (XLA's
 * GetScalarInt64Value). */
static bool scalar_value(const pl_inst *c, int64_t *v)
{
	const char *s;
	size_t len, n;
	if (!is_op(c, PL_HLO_CONSTANT) || pl_inst_num_results(c) != 1 ||
	    !effective_scalar(result_type(c)) || !is_integer(pl_type_dtype(result_type(c))) ||
	    pl_attrs_get_string(pl_inst_attrs_const(c), "hlo_constant", &s, &len) != PL_OK)
		return false;
	return literal_ints(s, len, v, 1, &n) && n == 1;
}

static bool is_table_type(const pl_inst *t)
{
	if (!t || pl_inst_num_results(t) != 1)
		return false;
	const pl_type *ty = result_type(t);
	pl_dtype d = pl_type_dtype(ty);
	return pl_type_rank(ty) == 1 && (d == PL_DTYPE_I32 || d == PL_DTYPE_U32) &&
	       (is_op(t, PL_HLO_CONSTANT) || is_op(t, PL_HLO_IOTA));
}

/* The entries of table t (is_table_type); NULL when its text is not a
 * list of integers (or out of memory: m->rc). */
static const struct rs_table *table_of(struct m *m, const pl_inst *t)
{
	struct rs_tables *ts = m->tables;
	uintptr_t at = (uintptr_t)ptr_map_get(&ts->of, t);
	if (at)
		return ts->v[at - 1].n || is_op(t, PL_HLO_IOTA) ? &ts->v[at - 1] : NULL;
	struct rs_table e = {NULL, (size_t)pl_type_dim(result_type(t), 0)};
	const char *s;
	size_t len, n = 0;
	if (is_op(t, PL_HLO_CONSTANT)) {
		int64_t *v = malloc((e.n ? e.n : 1) * sizeof *v);
		if (!v) {
			m->rc = PL_ENOMEM;
			return NULL;
		}
		if (pl_attrs_get_string(pl_inst_attrs_const(t), "hlo_constant", &s, &len) != PL_OK ||
		    !literal_ints(s, len, v, e.n, &n) || n != e.n) {
			free(v);
			e.n = 0; /* remembered as unreadable */
		} else {
			e.values = v;
		}
	}
	if (!PL_GROW(ts->v, ts->cap, ts->n + 1) ||
	    !ptr_map_put(&ts->of, t, (void *)(uintptr_t)(ts->n + 1))) {
		free((void *)e.values);
		m->rc = PL_ENOMEM;
		return NULL;
	}
	ts->v[ts->n++] = e;
	return e.n || is_op(t, PL_HLO_IOTA) ? &ts->v[ts->n - 1] : NULL;
}

/* Entry k of a table; false outside it. */
static bool table_entry(const struct rs_table *t, int64_t k, int64_t *out)
{
	if (k < 0 || (uint64_t)k >= t->n)
		return false;
	*out = t->values ? t->values[k] : k;
	return true;
}

static const pl_inst *peel_moves(const pl_inst *i)
{
	while (i && (is_op(i, PL_HLO_RESHAPE) || is_op(i, PL_HLO_BITCAST) || is_op(i, PL_HLO_COPY)))
		i = operand_def(i, 0);
	return i;
}

/* A table lookup: a dynamic-slice of a table, seen through moves. Returns
 * the dynamic-slice, or NULL. */
static const pl_inst *table_lookup(const pl_inst *i)
{
	i = peel_moves(i);
	return is_op(i, PL_HLO_DYNAMIC_SLICE) && pl_inst_num_operands(i) >= 2 &&
	               is_table_type(operand_def(i, 0))
	           ? i
	           : NULL;
}

/* ---- device ids -------------------------------------------------------- */

/* What the instruction i reads on the device of id (an id of the groups'
 * numbering): its index for the tables, or -1 when i is not such a read
 * (XLA's map_id). */
static int64_t map_id(const struct m *m, const pl_inst *i, int64_t id)
{
	const struct rs_devices *d = m->dev;
	switch (m->mode) {
	case BY_REPLICA:
		return is_op(i, PL_HLO_REPLICA_ID) ? id : -1;
	case BY_PARTITION:
		return is_op(i, PL_HLO_PARTITION_ID) ? id : -1;
	case BY_GLOBAL_ID:
		break;
	}
	if (is_op(i, PL_HLO_REPLICA_ID))
		return d->partitions == 1 ? id : -1;
	if (is_op(i, PL_HLO_PARTITION_ID))
		return d->replicas == 1 ? id : m->orthogonal ? id % d->partitions : -1;
	if (!is_op(i, PL_HLO_ADD))
		return -1;
	/* partition-id + replica-id * num_partitions, either way round */
	for (size_t k = 0; k < 2; k++) {
		const pl_inst *p = operand_def(i, k), *mul = operand_def(i, 1 - k);
		if (!is_op(p, PL_HLO_PARTITION_ID) || !is_op(mul, PL_HLO_MULTIPLY))
			continue;
		for (size_t j = 0; j < 2; j++) {
			int64_t c;
			if (is_op(operand_def(mul, j), PL_HLO_REPLICA_ID) &&
			    scalar_value(operand_def(mul, 1 - j), &c) && c == d->partitions)
				return id;
		}
	}
	return -1;
}

/* The table index the value i holds on the device of id: the id itself,
 * or a lookup of a lookup ... of it (XLA's GetIndexForId). -1 when not. */
static int64_t index_for_id(struct m *m, const pl_inst *i, int64_t id, int depth)
{
	int64_t v = map_id(m, i, id);
	if (v >= 0 || depth > 64)
		return v >= 0 ? v : -1;
	const pl_inst *ds = table_lookup(i);
	if (!ds)
		return -1;
	int64_t inner = index_for_id(m, operand_def(ds, 1), id, depth + 1);
	const struct rs_table *t = inner >= 0 ? table_of(m, operand_def(ds, 0)) : NULL;
	return t && table_entry(t, inner, &v) ? v : -1;
}

/* ---- offsets --------------------------------------------------------------- */

/* The smallest and largest value i may hold, where that is known. */
static bool known_range(struct m *m, const pl_inst *i, int64_t *lo, int64_t *hi)
{
	while (i && (is_op(i, PL_HLO_CONVERT) || is_op(i, PL_HLO_RESHAPE) || is_op(i, PL_HLO_BITCAST) ||
	             is_op(i, PL_HLO_COPY)))
		i = operand_def(i, 0);
	const pl_inst *ds = table_lookup(i);
	if (ds && is_op(operand_def(ds, 0), PL_HLO_CONSTANT)) {
		const struct rs_table *t = table_of(m, operand_def(ds, 0));
		if (!t || !t->n)
			return false;
		*lo = INT64_MAX, *hi = INT64_MIN;
		for (size_t k = 0; k < t->n; k++) {
			*lo = t->values[k] < *lo ? t->values[k] : *lo;
			*hi = t->values[k] > *hi ? t->values[k] : *hi;
		}
		return true;
	}
	if (scalar_value(i, lo)) {
		*hi = *lo;
		return true;
	}
	return false;
}

/* Through what leaves a value as it is: moves, converts that widen an
 * integer, clamps whose bounds its known range lies within (XLA's
 * BacktrackToBase). */
static const pl_inst *backtrack(struct m *m, const pl_inst *i)
{
	for (;;) {
		if (is_op(i, PL_HLO_RESHAPE) || is_op(i, PL_HLO_BITCAST) || is_op(i, PL_HLO_COPY)) {
			i = operand_def(i, 0);
			continue;
		}
		if (is_op(i, PL_HLO_CONVERT) && operand_def(i, 0)) {
			pl_dtype from = pl_type_dtype(pl_value_type(pl_inst_operand(i, 0)));
			pl_dtype to = pl_type_dtype(result_type(i));
			if (is_integer(from) && is_integer(to) && pl_dtype_bits(from) <= pl_dtype_bits(to)) {
				i = operand_def(i, 0);
				continue;
			}
		}
		int64_t lo, hi, rlo, rhi;
		if (is_op(i, PL_HLO_CLAMP) && scalar_value(operand_def(i, 0), &lo) &&
		    scalar_value(operand_def(i, 2), &hi) && known_range(m, operand_def(i, 1), &rlo, &rhi) &&
		    rlo >= lo && rhi <= hi) {
			i = operand_def(i, 1);
			continue;
		}
		return i;
	}
}

/* The id of the j-th device of group k. */
static int64_t device_id(const struct m *m, size_t k, int64_t j)
{
	return m->iota_group ? j : m->g->ids[m->g->start[k] + (size_t)j];
}

static size_t num_groups(const struct m *m)
{
	return m->iota_group ? 1 : m->g->ngroups;
}

/* id * k - table[id], each device's offset j * shard (XLA's subtraction
 * pattern). */
static bool subtraction_is_per_id(struct m *m, const pl_inst *sub, int64_t shard,
                                  int64_t group_size)
{
	const pl_inst *mul = operand_def(sub, 0);
	if (!is_op(mul, PL_HLO_MULTIPLY))
		return false;
	int64_t k = -1;
	const pl_inst *id_operand = NULL;
	if (scalar_value(operand_def(mul, 0), &k))
		id_operand = operand_def(mul, 1);
	else if (scalar_value(operand_def(mul, 1), &k))
		id_operand = operand_def(mul, 0);
	const pl_inst *lookup = table_lookup(operand_def(sub, 1));
	if (k <= 0 || !id_operand || !lookup)
		return false;
	const pl_inst *id_base = backtrack(m, id_operand);
	lookup = backtrack(m, operand_def(sub, 1));
	if (!is_op(lookup, PL_HLO_DYNAMIC_SLICE))
		return false;
	const pl_inst *table = backtrack(m, operand_def(lookup, 0));
	const pl_inst *index = backtrack(m, operand_def(lookup, 1));
	if (id_base != index || !is_table_type(table))
		return false;
	const struct rs_table *t = table_of(m, table);
	if (!t)
		return false;
	for (size_t g = 0; g < num_groups(m); g++)
		for (int64_t j = 0; j < group_size; j++) {
			int64_t id = device_id(m, g, j);
			int64_t ti = index_for_id(m, index, id, 0), tv;
			int64_t mi = index_for_id(m, id_base, id, 0);
			if (ti < 0 || !table_entry(t, ti, &tv) || mi < 0 || mi * k - tv != shard * j)
				return false;
		}
	return true;
}

/* Whether offset is, on the j-th device of each group, shard * j (XLA's
 * IsPerIdOffset). */
static bool is_per_id_offset(struct m *m, const pl_inst *offset, int64_t shard, int64_t group_size,
                             int depth)
{
	if (!offset || depth > 64)
		return false;
	offset = backtrack(m, offset);
	if (!offset)
		return false;
	if (is_op(offset, PL_HLO_MULTIPLY)) {
		/* constant * an offset of shard / constant */
		if (!effective_scalar(result_type(offset)))
			return false;
		int64_t c;
		size_t k = is_op(operand_def(offset, 0), PL_HLO_CONSTANT) ? 0
		           : is_op(operand_def(offset, 1), PL_HLO_CONSTANT) ? 1 : 2;
		if (k == 2 || !scalar_value(operand_def(offset, k), &c) || c <= 0 || shard % c)
			return false;
		return is_per_id_offset(m, operand_def(offset, 1 - k), shard / c, group_size, depth + 1);
	}
	if (shard == 1 && m->iota_group) {
		int64_t id = 0;
		while (id < group_size && map_id(m, offset, id) == id)
			id++;
		if (id == group_size)
			return true;
	}
	if (is_op(offset, PL_HLO_CLAMP)) {
		int64_t lo, hi;
		if (!scalar_value(operand_def(offset, 0), &lo) || !scalar_value(operand_def(offset, 2), &hi) ||
		    lo != 0 || hi < (group_size - 1) * shard)
			return false;
		return is_per_id_offset(m, operand_def(offset, 1), shard, group_size, depth + 1);
	}
	if (is_op(offset, PL_HLO_SUBTRACT))
		return subtraction_is_per_id(m, offset, shard, group_size);
	const pl_inst *lookup = table_lookup(offset);
	const struct rs_table *t = lookup ? table_of(m, operand_def(lookup, 0)) : NULL;
	if (lookup && !t)
		return false;
	for (size_t g = 0; g < num_groups(m); g++)
		for (int64_t j = 0; j < group_size; j++) {
			int64_t id = device_id(m, g, j), v;
			if (lookup) {
				int64_t ti = index_for_id(m, operand_def(lookup, 1), id, 0);
				if (ti < 0 || !table_entry(t, ti, &v))
					return false;
			} else {
				v = map_id(m, offset, id);
			}
			if (v != shard * j)
				return false;
		}
	return true;
}

/* ---- shapes -------------------------------------------------------------- */

/* The dimension of in that reshape dimension out_dim is, unmerged and
 * unsplit (XLA's DimensionsUnmodifiedByReshape: the common factors of the
 * two shapes that span one dimension on each side); -1 when none. */
static int64_t unmodified_source(const pl_type *in, const pl_type *out, size_t out_dim)
{
	size_t ra = pl_type_rank(in), rb = pl_type_rank(out), i = 0, j = 0;
	int64_t pa = 1, pb = 1;
	/* the last common-factor bound, and whether it was (i - 1, j - 1) */
	size_t bi = SIZE_MAX, bj = SIZE_MAX;
	for (size_t k = 0; k < ra; k++)
		if (pl_type_dim(in, k) == 0)
			return -1;
	for (size_t k = 0; k < rb; k++)
		if (pl_type_dim(out, k) == 0)
			return -1;
	while (i < ra && j < rb && pl_type_dim(in, i) == pl_type_dim(out, j)) {
		if (j == out_dim)
			return (int64_t)i;
		bi = i++, bj = j++;
	}
	for (;;) {
		if (pa == pb && (bi == SIZE_MAX || i != bi || j != bj)) {
			if (bi != SIZE_MAX && i == bi + 1 && j == bj + 1 && bj == out_dim)
				return (int64_t)bi;
			bi = i, bj = j;
			continue;
		}
		bool ii = i < ra, jj = j < rb;
		if (!ii && !jj)
			return -1;
		int64_t a = ii ? pl_type_dim(in, i) : 0, b = jj ? pl_type_dim(out, j) : 0;
		bool next_a = pa < pb || (ii && (!jj || (pa == pb && a <= b)));
		bool next_b = pb < pa || (jj && (!ii || (pa == pb && b <= a)));
		/* shapes of different sizes (no reshape's) end the walk */
		if ((!next_a && !next_b) || (next_a && !ii) || (next_b && !jj) ||
		    (next_a && __builtin_mul_overflow(pa, a, &pa)) ||
		    (next_b && __builtin_mul_overflow(pb, b, &pb)))
			return -1;
		i += next_a;
		j += next_b;
	}
}

/* ---- the rule ------------------------------------------------------------- */

static bool uniform(const struct rs_groups *g)
{
	for (size_t k = 1; k < g->ngroups; k++)
		if (rs_group_size(g, k) != rs_group_size(g, 0))
			return false;
	return true;
}

/* The offset operand of ds is the constant 0. */
static bool zero_offset(const pl_inst *ds, size_t dim)
{
	int64_t v;
	return scalar_value(operand_def(ds, dim + 1), &v) && v == 0;
}

/* The one user of v, or NULL. */
static pl_inst *only_user(const pl_value *v, size_t *operand)
{
	if (pl_value_num_uses(v) != 1)
		return NULL;
	const pl_use *u = pl_value_first_use(v);
	*operand = pl_use_operand_index(u);
	return pl_use_user(u);
}

int rs_match(const pl_inst *ar, const struct rs_groups *g, const struct rs_devices *dev,
             struct rs_tables *tables, struct rs_spec *spec, const char **why, char *whybuf,
             size_t whylen)
{
#define REFUSE(...)                                          \
	do {                                                 \
		snprintf(whybuf, whylen, __VA_ARGS__);       \
		*why = whybuf;                               \
		return m.rc;                                 \
	} while (0)
	struct m m = {.g = g, .dev = dev, .tables = tables, .rc = PL_OK};
	*why = NULL;
	if (pl_inst_num_results(ar) != 1 || pl_inst_num_operands(ar) != 1)
		REFUSE("it reduces %zu operands (a tuple, not an array)", pl_inst_num_operands(ar));
	const pl_attr *cl = pl_attrs_get(pl_inst_attrs_const(ar), "hlo_constrain_layout");
	if (cl && pl_attr_get_kind(cl) == PL_ATTR_STRING && !strcmp(pl_attr_get_string(cl, NULL), "true"))
		REFUSE("its layout is constrained");
	const pl_type *t = result_type(ar);
	size_t rank = pl_type_rank(t), big = 0;
	for (size_t k = 0; k < rank; k++)
		big += pl_type_dim(t, k) != 1;
	if (big < 1)
		REFUSE("it has no dimension larger than 1 (XLA wants rank 1 at least)");
	size_t nuses = pl_value_num_uses(pl_inst_result(ar, 0)), at = 0;
	if (nuses != 1)
		REFUSE("it has %zu users, not one", nuses);
	if (!g->known)
		REFUSE("its replica groups are in a form passline does not read");
	if (!uniform(g))
		REFUSE("its replica groups are not all of one size");
	pl_inst *user = only_user(pl_inst_result(ar, 0), &at), *reshape = NULL;
	if (is_op(user, PL_HLO_RESHAPE)) {
		reshape = user;
		user = only_user(pl_inst_result(reshape, 0), &at);
		if (!user)
			REFUSE("its user is a reshape with %zu users, not one",
			       pl_value_num_uses(pl_inst_result(reshape, 0)));
	}
	if (!is_op(user, PL_HLO_DYNAMIC_SLICE) || at != 0)
		REFUSE("its user is not a dynamic-slice of it");

	int64_t group_size;
	if (!g->cross_module) {
		m.mode = BY_REPLICA;
		group_size = g->ngroups ? (int64_t)rs_group_size(g, 0) : dev->replicas;
	} else if (g->global_ids) {
		m.mode = BY_GLOBAL_ID;
		if (!g->ngroups)
			REFUSE("it uses global device ids without replica groups");
		group_size = (int64_t)rs_group_size(g, 0);
		/* partitions at one index of every group, each group within one replica */
		int64_t np = dev->partitions > 0 ? dev->partitions : 1;
		int64_t *index_of = malloc((size_t)np * sizeof *index_of);
		if (!index_of)
			return PL_ENOMEM;
		for (int64_t p = 0; p < np; p++)
			index_of[p] = -1;
		m.orthogonal = true;
		for (size_t k = 0; k < g->ngroups && m.orthogonal; k++)
			for (size_t i = 0; i < rs_group_size(g, k); i++) {
				int64_t id = g->ids[g->start[k] + i], p = id % np;
				if (index_of[p] == -1) {
					index_of[p] = (int64_t)i;
				} else if (index_of[p] != (int64_t)i ||
				           id / np != g->ids[g->start[k]] / np) {
					m.orthogonal = false;
					break;
				}
			}
		free(index_of);
	} else {
		m.mode = BY_PARTITION;
		if ((int64_t)g->ngroups != dev->replicas || rs_group_size(g, 0) != 1)
			REFUSE("cross-partition without global device ids, its groups must be one "
			       "group of one replica per replica (%" PRId64 ")", dev->replicas);
		group_size = dev->partitions;
	}
	m.iota_group = !g->ngroups || m.mode == BY_PARTITION;
	if (group_size < 2)
		REFUSE("its groups have %" PRId64 " device%s, fewer than 2", group_size,
		       group_size == 1 ? "" : "s");

	/* the dimension the dynamic-slice cuts */
	const pl_type *in = pl_value_type(pl_inst_operand(user, 0)), *out = result_type(user);
	size_t drank = pl_type_rank(in), ncut = 0, split = SIZE_MAX;
	if (pl_type_rank(out) != drank || pl_inst_num_operands(user) != drank + 1)
		REFUSE("its dynamic-slice is malformed");
	for (size_t k = 0; k < drank; k++)
		if (pl_type_dim(in, k) != pl_type_dim(out, k))
			ncut++, split = k;
	if (ncut != 1) {
		split = SIZE_MAX;
		for (size_t k = 0; k < drank; k++) {
			if (pl_type_dim(in, k) == 1 || zero_offset(user, k))
				continue;
			if (split != SIZE_MAX)
				REFUSE("its dynamic-slice slices dimensions %zu and %zu, not one", split, k);
			split = k;
		}
	}
	int64_t cut = split == SIZE_MAX ? 1 : pl_type_dim(in, split) / pl_type_dim(out, split);
	if (split == SIZE_MAX || cut != group_size)
		REFUSE("its dynamic-slice takes 1/%" PRId64 " of %s, not 1/%" PRId64
		       " (one shard per device of the group)",
		       cut, split == SIZE_MAX ? "the value" : "a dimension", group_size);
	int64_t shard = pl_type_dim(out, split);
	if (!is_per_id_offset(&m, operand_def(user, split + 1), shard, group_size, 0))
		REFUSE("the dynamic-slice's offset in dimension %zu is not %" PRId64
		       " times the device's index in its group",
		       split, shard);
	int64_t src = reshape ? unmodified_source(t, in, split) : (int64_t)split;
	if (src < 0)
		REFUSE("the reshape before the dynamic-slice changes its dimension %zu", split);
	/* what XLA's rewrite then needs, lest it fail */
	for (size_t k = 0; k < drank; k++)
		if (k != split && pl_type_dim(in, k) != pl_type_dim(out, k))
			REFUSE("the dynamic-slice also cuts dimension %zu", k);
	if (pl_type_dim(t, (size_t)src) / group_size != shard)
		REFUSE("a shard of %" PRId64 " is not the dynamic-slice's %" PRId64,
		       pl_type_dim(t, (size_t)src) / group_size, shard);
	*spec = (struct rs_spec){user, reshape, (size_t)src, group_size};
	return m.rc;
#undef REFUSE
}
