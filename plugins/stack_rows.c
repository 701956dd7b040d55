/* SPDX-License-Identifier: MIT */
/* plugins/stack_rows.c — one value per loop trip, stacked after the loop
 * (stack_rows.h): the stacked types, the ops that keep each trip's row,
 * their attributes at the stacked shape. */
#include "stack_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HLO ops applied element by element, whose operands all have the
 * result's dimensions (XLA lets them stand in a sunk chain): the table's
 * elementwise ops but clamp (its bounds may be scalars), bitcast-convert
 * (it may change the last dimension) and stochastic-convert. */
bool rows_elementwise(const pl_inst *i)
{
	pl_hlo_op op = pl_inst_hlo_op(i);
	return (pl_hlo_op_flags(op) & PL_HLO_F_ELEMENTWISE) && op != PL_HLO_CLAMP &&
	       op != PL_HLO_BITCAST_CONVERT && op != PL_HLO_STOCHASTIC_CONVERT;
}

/* The formatting ops given a leading stacked dimension after the loop. */
bool rows_stackable(const pl_inst *i)
{
	if (pl_inst_num_results(i) != 1)
		return false;
	if (rows_elementwise(i))
		return true;
	if (pl_inst_op(i) == PL_OP_ALL_GATHER || pl_inst_op(i) == PL_OP_ALL_REDUCE)
		return true;
	switch (pl_inst_hlo_op(i)) {
	case PL_HLO_RESHAPE: case PL_HLO_BROADCAST: case PL_HLO_TRANSPOSE:
	case PL_HLO_CONCATENATE: case PL_HLO_SLICE: case PL_HLO_COLLECTIVE_PERMUTE:
	case PL_HLO_DYNAMIC_SLICE: case PL_HLO_PAD:
		return true;
	case PL_HLO_REDUCE:
		return pl_inst_num_operands(i) == 2;
	default:
		return false;
	}
}

/* Whether operand k of the stacked op f has the stacked dimension too
 * (else it stays as it is: a reduce's initial value). */
bool rows_full_operand(const pl_inst *f, size_t k)
{
	pl_hlo_op op = pl_inst_hlo_op(f);
	return k == 0 || !(op == PL_HLO_REDUCE || op == PL_HLO_DYNAMIC_SLICE || op == PL_HLO_PAD);
}

/* Whether a value of type t keeps one trip's row in a leading extent of
 * 1, which the stack grows to the trip count; else the stack is a new
 * leading dimension. Either way row i of the stack is trip i's value. */
bool rows_merged(const pl_type *t)
{
	return pl_type_rank(t) && pl_type_dim(t, 0) == 1;
}

const pl_type *rows_type(pl_module *m, const pl_type *t, int64_t n)
{
	int64_t dims[PL_MAX_RANK];
	size_t r = pl_type_rank(t), lead = rows_merged(t) ? 0 : 1;
	if (r + lead > PL_MAX_RANK)
		return NULL;
	dims[0] = n;
	for (size_t k = 1 - lead; k < r; k++)
		dims[k + lead] = pl_type_dim(t, k);
	return pl_type_get(m, pl_type_dtype(t), dims, r + lead);
}

/* The integers of the list attribute "{a,b}" under key; false if none. */
static bool dims_attr(const pl_inst *f, const char *key, int64_t *d, size_t *n)
{
	const char *s = NULL;
	size_t len = 0;
	*n = 0;
	if (pl_attrs_get_string(pl_inst_attrs_const(f), key, &s, &len) != PL_OK || len < 2 ||
	    s[0] != '{')
		return false;
	char buf[8 * PL_MAX_RANK];
	if (len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *q = buf + 1;
	while (*q && *q != '}' && *n < PL_MAX_RANK) {
		char *end;
		d[(*n)++] = strtoll(q, &end, 10);
		if (end == q)
			return false;
		q = end;
		while (*q == ',' || *q == ' ')
			q++;
	}
	return true;
}

/* Whether the stacked form of f (whose stacked operand has type in) keeps
 * each trip's row where its operand had it. */
bool rows_alike(const pl_inst *f, const pl_type *in)
{
	const pl_type *out = pl_value_type(pl_inst_result(f, 0));
	pl_hlo_op op = pl_inst_hlo_op(f);
	if (op == PL_HLO_RESHAPE || rows_elementwise(f) || pl_inst_op(f) == PL_OP_ALL_REDUCE ||
	    op == PL_HLO_COLLECTIVE_PERMUTE)
		return true;
	if (rows_merged(in) != rows_merged(out))
		return false;
	if (!rows_merged(in) || op == PL_HLO_SLICE || op == PL_HLO_DYNAMIC_SLICE)
		return true; /* a new leading dimension: the attributes shift */
	if (op == PL_HLO_PAD) { /* the rows unpadded */
		const char *pad = NULL;
		size_t len = 0;
		return pl_attrs_get_string(pl_inst_attrs_const(f), "hlo_padding", &pad, &len) == PL_OK &&
		       len >= 3 && !strncmp(pad, "0_0", 3) && (len == 3 || pad[3] == 'x' ||
		                                               (len >= 5 && !strncmp(pad + 3, "_0", 2)));
	}
	int64_t d[PL_MAX_RANK];
	size_t n;
	if (!dims_attr(f, "hlo_dimensions", d, &n))
		return false;
	if (op == PL_HLO_BROADCAST || op == PL_HLO_TRANSPOSE)
		return n && d[0] == 0;
	for (size_t k = 0; k < n; k++)
		if (d[k] == 0)
			return false; /* reduced, concatenated or gathered along the rows */
	return true;
}

/* "{a,b}" as "{0,a+1,b+1}" (lead) or "{a+1,b+1}"; NULL when not a list. */
static char *shift_dims(const char *s, size_t len, bool lead)
{
	size_t cap = 2 * len + 16;
	char *out = malloc(cap);
	if (!out || len < 2 || s[0] != '{' || s[len - 1] != '}') {
		free(out);
		return NULL;
	}
	size_t at = (size_t)snprintf(out, cap, "{%s", lead ? "0" : "");
	bool first = !lead;
	const char *q = s + 1, *e = s + len - 1;
	while (q < e) {
		char *end;
		long long d = strtoll(q, &end, 10);
		if (end == q) {
			free(out);
			return NULL;
		}
		at += (size_t)snprintf(out + at, cap - at, "%s%lld", first ? "" : ",", d + 1);
		first = false;
		q = end;
		while (q < e && (*q == ',' || *q == ' '))
			q++;
	}
	snprintf(out + at, cap - at, "}");
	return out;
}

/* The attributes of a clone of f given a leading dimension of n. */
int rows_attrs(pl_inst *c, const pl_inst *f, int64_t n)
{
	pl_attrs *a = pl_inst_attrs(c);
	const char *s = NULL;
	size_t len = 0;
	bool has = pl_attrs_get_string(a, "hlo_dimensions", &s, &len) == PL_OK;
	char *grown = NULL;
	pl_hlo_op op = pl_inst_hlo_op(f);
	bool gather = pl_inst_op(f) == PL_OP_ALL_GATHER;
	if (op == PL_HLO_DYNAMIC_SLICE &&
	    pl_attrs_get_string(a, "hlo_dynamic_slice_sizes", &s, &len) == PL_OK && len > 1 &&
	    s[0] == '{') {
		/* the rows' sizes: the first grown to n, or a new first one */
		bool grow = rows_merged(pl_value_type(pl_inst_result(f, 0)));
		const char *rest = grow ? memchr(s, ',', len) : s + 1;
		size_t rlen = rest ? len - (size_t)(rest - s) : 1;
		grown = malloc(rlen + 40);
		if (!grown)
			return PL_ENOMEM;
		snprintf(grown, rlen + 40, "{%lld%s%.*s", (long long)n, grow || rlen < 2 ? "" : ",",
		         (int)rlen, rest ? rest : "}");
		int rc = pl_attrs_set_string(a, "hlo_dynamic_slice_sizes", grown);
		free(grown);
		return rc;
	}
	if (rows_merged(pl_value_type(pl_inst_result(f, 0)))) {
		/* the rows grow in place: only a slice's first range changes */
		if (op != PL_HLO_SLICE ||
		    pl_attrs_get_string(a, "hlo_slice", &s, &len) != PL_OK || len < 2)
			return PL_OK;
		const char *close = memchr(s, ']', len);
		if (!close)
			return PL_OK;
		size_t rest = len - (size_t)(close + 1 - s);
		grown = malloc(rest + 40);
		if (!grown)
			return PL_ENOMEM;
		snprintf(grown, rest + 40, "{[0:%lld]%.*s", (long long)n, (int)rest, close + 1);
		int rc = pl_attrs_set_string(a, "hlo_slice", grown);
		free(grown);
		return rc;
	}
	if (op == PL_HLO_BROADCAST || op == PL_HLO_TRANSPOSE)
		grown = has ? shift_dims(s, len, true) : NULL;
	else if (op == PL_HLO_CONCATENATE || op == PL_HLO_REDUCE || gather)
		grown = has ? shift_dims(s, len, false) : NULL;
	else if (op == PL_HLO_SLICE &&
	         pl_attrs_get_string(a, "hlo_slice", &s, &len) == PL_OK && len > 1 && s[0] == '{') {
		grown = malloc(len + 32);
		if (!grown)
			return PL_ENOMEM;
		snprintf(grown, len + 32, "{[0:%lld], %.*s", (long long)n, (int)(len - 1), s + 1);
		int rc = pl_attrs_set_string(a, "hlo_slice", grown);
		free(grown);
		return rc;
	} else if (op == PL_HLO_PAD &&
	           pl_attrs_get_string(a, "hlo_padding", &s, &len) == PL_OK) {
		grown = malloc(len + 8);
		if (!grown)
			return PL_ENOMEM;
		snprintf(grown, len + 8, "0_0%s%.*s", len ? "x" : "", (int)len, s);
		int rc = pl_attrs_set_string(a, "hlo_padding", grown);
		free(grown);
		return rc;
	} else
		return PL_OK;
	if (!grown)
		return has ? PL_ENOMEM : PL_OK;
	int rc = pl_attrs_set_string(a, "hlo_dimensions", grown);
	free(grown);
	int64_t dim;
	if (rc == PL_OK && gather &&
	    pl_attrs_get_int(a, "dimension", &dim) == PL_OK)
		rc = pl_attrs_set_int(a, "dimension", dim + 1);
	return rc;
}

/* Names v after src with suffix, when src has a name. */
void rows_name_after(pl_value *v, const pl_value *src, const char *suffix)
{
	const char *name = pl_value_name(src);
	char buf[256];
	if (name && (size_t)snprintf(buf, sizeof buf, "%s%s", name, suffix) < sizeof buf)
		pl_value_set_name(v, buf);
}

/* A new instruction op(ops) : t before pos, or NULL. */
pl_inst *rows_make(pl_func *f, pl_inst *pos, pl_hlo_op op, pl_value *const *ops, size_t n,
                   const pl_type *t, const char *dims)
{
	pl_inst *i = NULL;
	if (pl_inst_create(&i, f, pl_hlo_op_name(op), ops, n, &t, 1) != PL_OK)
		return NULL;
	if (dims && pl_attrs_set_string(pl_inst_attrs(i), "hlo_dimensions", dims) != PL_OK)
		return NULL;
	pl_inst_insert_before(i, pos);
	return i;
}

/* The stack of n copies of the body's value v, which the loop does not
 * change (after the loop, map gives what stands for a body value): a
 * broadcast of a scalar is made at the stacked shape, as the trips made
 * it; anything else is broadcast over the rows. */
pl_value *rows_spread(pl_module *m, pl_func *f, pl_inst *pos, pl_value *v, struct ptr_map *map,
                        int64_t n)
{
	const pl_type *t = pl_value_type(v), *st = rows_type(m, t, n);
	pl_inst *d = pl_value_def(v);
	pl_value *u = ptr_map_get(map, v);
	u = u ? u : v;
	if (!st)
		return NULL;
	if (pl_inst_hlo_op(d) == PL_HLO_BROADCAST && pl_inst_num_operands(d) == 1 &&
	    !pl_type_rank(pl_value_type(pl_inst_operand(d, 0)))) {
		pl_value *x = ptr_map_get(map, pl_inst_operand(d, 0));
		x = x ? x : pl_inst_operand(d, 0);
		pl_inst *b = rows_make(f, pos, PL_HLO_BROADCAST, &x, 1, st, "{}");
		if (b)
			rows_name_after(pl_inst_result(b, 0), v, ".sunk");
		return b ? pl_inst_result(b, 0) : NULL;
	}
	size_t r = pl_type_rank(t), lead = rows_merged(t) ? 1 : 0;
	if (lead) { /* drop the row extent first: a broadcast does not grow one */
		int64_t dims[PL_MAX_RANK];
		for (size_t k = 1; k < r; k++)
			dims[k - 1] = pl_type_dim(t, k);
		const pl_type *rt = pl_type_get(m, pl_type_dtype(t), dims, r - 1);
		pl_inst *rs = rt ? rows_make(f, pos, PL_HLO_RESHAPE, &u, 1, rt, NULL) : NULL;
		if (!rs)
			return NULL;
		u = pl_inst_result(rs, 0);
	}
	char dims[8 * PL_MAX_RANK + 4];
	size_t at = (size_t)snprintf(dims, sizeof dims, "{");
	for (size_t k = 0; k + lead < r; k++)
		at += (size_t)snprintf(dims + at, sizeof dims - at, "%s%zu", k ? "," : "", k + 1);
	snprintf(dims + at, sizeof dims - at, "}");
	pl_inst *b = rows_make(f, pos, PL_HLO_BROADCAST, &u, 1, st, dims);
	if (b)
		rows_name_after(pl_inst_result(b, 0), v, ".sunk");
	return b ? pl_inst_result(b, 0) : NULL;
}

/* A zero of type t before pos: a constant, broadcast when t is an array. */
pl_value *rows_zeros(pl_module *m, pl_func *f, pl_inst *pos, const pl_type *t)
{
	const pl_type *st = pl_type_get(m, pl_type_dtype(t), NULL, 0);
	pl_inst *c = NULL;
	if (!st || pl_inst_create(&c, f, pl_hlo_op_name(PL_HLO_CONSTANT), NULL, 0, &st, 1) != PL_OK ||
	    pl_attrs_set_string(pl_inst_attrs(c), "hlo_constant",
	                        pl_type_dtype(t) == PL_DTYPE_BOOL ? "false" : "0") != PL_OK)
		return NULL;
	pl_inst_insert_before(c, pos);
	pl_value *z = pl_inst_result(c, 0);
	if (!pl_type_rank(t))
		return z;
	pl_inst *b = rows_make(f, pos, PL_HLO_BROADCAST, &z, 1, t, "{}");
	return b ? pl_inst_result(b, 0) : NULL;
}
