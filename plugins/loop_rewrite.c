/* SPDX-License-Identifier: MIT */
/* plugins/loop_rewrite.c — counted loops and the edits the loop passes
 * share (loop_rewrite.h). */
#include "loop_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_attr(const pl_inst *i, const char *key, size_t *len)
{
	const char *s = NULL;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), key, &s, len) != PL_OK)
		return NULL;
	return s;
}

/* The function an attribute "%name" names, or NULL. */
static pl_func *called(pl_module *m, const pl_inst *i, const char *key)
{
	size_t len;
	const char *s = str_attr(i, key, &len);
	if (!s)
		return NULL;
	while (len && (*s == '%' || *s == '{' || *s == ' ')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == '}' || s[len - 1] == ' '))
		len--;
	char buf[512];
	if (!len || len >= sizeof buf || memchr(s, ',', len))
		return NULL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return pl_module_find_func(m, buf);
}

/* The integer an hlo.constant defining v holds, or a sum or difference
 * of two such (a loop's start XLA folds). */
static bool const_int(const pl_value *v, int64_t *out)
{
	const pl_inst *d = v ? pl_value_def(v) : NULL;
	pl_hlo_op op = pl_inst_hlo_op(d);
	int64_t a, b;
	if ((op == PL_HLO_ADD || op == PL_HLO_SUBTRACT) && pl_inst_num_operands(d) == 2 &&
	    pl_inst_hlo_op(pl_value_def(pl_inst_operand(d, 0))) == PL_HLO_CONSTANT &&
	    pl_inst_hlo_op(pl_value_def(pl_inst_operand(d, 1))) == PL_HLO_CONSTANT &&
	    const_int(pl_inst_operand(d, 0), &a) && const_int(pl_inst_operand(d, 1), &b)) {
		*out = op == PL_HLO_ADD ? a + b : a - b;
		return true;
	}
	size_t len;
	const char *s = op == PL_HLO_CONSTANT ? str_attr(d, "hlo_constant", &len) : NULL;
	if (!s || !len || len > 24 || pl_type_rank(pl_value_type(v)) != 0)
		return false;
	char buf[32], *end;
	memcpy(buf, s, len);
	buf[len] = '\0';
	long long x = strtoll(buf, &end, 10);
	if (end == buf || *end)
		return false;
	*out = x;
	return true;
}

static bool int_dtype(pl_dtype d)
{
	switch (d) {
	case PL_DTYPE_I8: case PL_DTYPE_U8: case PL_DTYPE_I16: case PL_DTYPE_U16:
	case PL_DTYPE_I32: case PL_DTYPE_U32: case PL_DTYPE_I64: case PL_DTYPE_U64:
		return true;
	default:
		return false;
	}
}

static long arg_index(const pl_value *v, const pl_func *f)
{
	return v && pl_value_is_arg(v) && pl_value_func(v) == f ? (long)pl_value_index(v) : -1;
}

static pl_value *returned(const pl_func *f, size_t k)
{
	pl_inst *ret = pl_func_last_inst(f);
	if (!ret || pl_inst_op(ret) != PL_OP_RETURN || k >= pl_inst_num_operands(ret))
		return NULL;
	return pl_inst_operand(ret, k);
}

/* Trips of "for (i = i0; i DIR bound; i += step)", false when unknown. */
static bool trips_of(__int128 i0, __int128 step, const char *dir, __int128 bound, uint64_t *out)
{
	__int128 n;
	if (!strcmp(dir, "LE") || !strcmp(dir, "GE")) {
		bound += dir[0] == 'L' ? 1 : -1;
		dir = dir[0] == 'L' ? "LT" : "GT";
	}
	if (!strcmp(dir, "LT") && step > 0)
		n = i0 >= bound ? 0 : (bound - i0 + step - 1) / step;
	else if (!strcmp(dir, "GT") && step < 0)
		n = i0 <= bound ? 0 : (i0 - bound - step - 1) / -step;
	else if (!strcmp(dir, "NE") && step != 0 && (bound - i0) % step == 0 &&
	         (bound - i0) / step >= 0)
		n = (bound - i0) / step;
	else
		return false;
	*out = (uint64_t)n;
	return true;
}

/* How many whiles of the module name f as body or condition. */
static size_t loop_callers(pl_module *m, const pl_func *f)
{
	size_t n = 0;
	for (size_t k = 0; k < pl_module_num_funcs(m); k++)
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(m, k)); i; i = pl_inst_next(i))
			if (pl_inst_hlo_op(i) == PL_HLO_WHILE)
				n += (called(m, i, "hlo_body") == f) + (called(m, i, "hlo_condition") == f);
	return n;
}

const char *counted_loop_match(pl_module *m, pl_inst *w, struct counted_loop *out)
{
	memset(out, 0, sizeof *out);
	out->w = w;
	out->parent = pl_inst_func(w);
	out->body = called(m, w, "hlo_body");
	out->cond = called(m, w, "hlo_condition");
	if (!out->body || !out->cond)
		return "its body or condition is not a function of the module";
	size_t n = pl_inst_num_operands(w);
	if (pl_func_num_args(out->body) != n || pl_func_num_args(out->cond) != n ||
	    pl_inst_num_results(w) != n)
		return "its loop state is not a tuple of arrays";
	pl_value *c = returned(out->cond, 0);
	pl_inst *cmp = c ? pl_value_def(c) : NULL;
	size_t dlen;
	bool compare = pl_inst_hlo_op(cmp) == PL_HLO_COMPARE;
	const char *dir = compare ? str_attr(cmp, "hlo_direction", &dlen) : NULL;
	if (!dir || dlen != 2)
		return "its trip count is not known statically";
	char d[3] = {dir[0], dir[1], '\0'};
	int64_t bound;
	long k = arg_index(pl_inst_operand(cmp, 0), out->cond);
	if (k < 0 || !const_int(pl_inst_operand(cmp, 1), &bound)) {
		k = arg_index(pl_inst_operand(cmp, 1), out->cond);
		if (k < 0 || !const_int(pl_inst_operand(cmp, 0), &bound))
			return "its trip count is not known statically";
		if (d[1] == 'T' || d[1] == 'E')
			d[0] = d[0] == 'L' ? 'G' : d[0] == 'G' ? 'L' : d[0];
	}
	pl_value *next = returned(out->body, (size_t)k);
	pl_inst *inc = next ? pl_value_def(next) : NULL;
	int64_t step;
	bool add = pl_inst_hlo_op(inc) == PL_HLO_ADD;
	if (add && arg_index(pl_inst_operand(inc, 0), out->body) == k &&
	    const_int(pl_inst_operand(inc, 1), &step))
		;
	else if (add && arg_index(pl_inst_operand(inc, 1), out->body) == k &&
	         const_int(pl_inst_operand(inc, 0), &step))
		;
	else
		return "its trip count is not known statically";
	if (!const_int(pl_inst_operand(w, (size_t)k), &out->start) ||
	    !trips_of(out->start, step, d, bound, &out->trips))
		return "its trip count is not known statically";
	if (!int_dtype(pl_type_dtype(pl_value_type(next))))
		return "its induction variable is not an integer";
	out->iv = (size_t)k;
	out->step = step;
	out->next_iv = inc;
	if (loop_callers(m, out->body) != 1 || loop_callers(m, out->cond) != 1)
		return "its body or condition is shared with another loop";
	return NULL;
}

bool loop_invariant_arg(const struct counted_loop *l, const pl_value *v)
{
	long k = arg_index(v, l->body);
	return k >= 0 && (size_t)k != l->iv && returned(l->body, (size_t)k) == v;
}

pl_inst *loop_int_constant(pl_func *f, pl_inst *pos, const pl_type *t, int64_t v)
{
	pl_inst *c = pl_inst_new(f, pl_hlo_op_name(PL_HLO_CONSTANT), NULL, 0, &t, 1);
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	if (!c || pl_attrs_set_string(pl_inst_attrs(c), "hlo_constant", buf) != PL_OK)
		return NULL;
	if (pos)
		pl_inst_insert_before(c, pos);
	else if (pl_func_first_inst(f))
		pl_inst_insert_before(c, pl_func_first_inst(f));
	else
		pl_func_append(f, c);
	return c;
}

/* The row of an opcode as HLO text spells it ("get-tuple-element"), as an
 * attribute keeps it, or PL_HLO_OTHER. */
static pl_hlo_op hlo_text_op(const char *s, size_t len)
{
	char name[64];
	if (len + 5 > sizeof name)
		return PL_HLO_OTHER;
	memcpy(name, "hlo.", 4);
	for (size_t k = 0; k < len; k++)
		name[4 + k] = s[k] == '-' ? '_' : s[k];
	name[4 + len] = '\0';
	return pl_hlo_op_from_name(name);
}

/* Appends ", T" for each type, as HLO writes an array (without layout: the
 * writer gives it the default one), to the tuple text s ending in ')'.
 * NULL when s is not a tuple's text or out of memory; free the result. */
static char *tuple_text_plus(const char *s, size_t len, const pl_type *const *t, size_t n)
{
	if (len < 2 || s[0] != '(' || s[len - 1] != ')')
		return NULL;
	size_t cap = len + 1 + n * 160;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t at = (size_t)snprintf(out, cap, "%.*s", (int)(len - 1), s);
	for (size_t k = 0; k < n && at < cap; k++) {
		pl_dtype d = pl_type_dtype(t[k]);
		const char *name = pl_dtype_name(d);
		char hname[32];
		if (d == PL_DTYPE_BOOL)
			snprintf(hname, sizeof hname, "pred");
		else if (name[0] == 'i')
			snprintf(hname, sizeof hname, "s%s", name + 1);
		else
			snprintf(hname, sizeof hname, "%s", name);
		at += (size_t)snprintf(out + at, cap - at, "%s%s[", len > 2 || k ? ", " : "", hname);
		for (size_t r = 0; r < pl_type_rank(t[k]) && at < cap; r++)
			at += (size_t)snprintf(out + at, cap - at, "%s%lld", r ? "," : "",
			                       (long long)pl_type_dim(t[k], r));
		if (at < cap)
			at += (size_t)snprintf(out + at, cap - at, "]");
	}
	if (at + 2 > cap) {
		free(out);
		return NULL;
	}
	out[at++] = ')';
	out[at] = '\0';
	return out;
}

/* The tuple text under key of a made longer by the n types, or removed
 * when it is not one (the writer then makes the shape from the types). */
static int grow_tuple_attr(pl_attrs *a, const char *key, const pl_type *const *t, size_t n)
{
	const pl_attr *v = pl_attrs_get(a, key);
	if (!v)
		return PL_OK;
	size_t len = 0;
	const char *s = pl_attr_get_kind(v) == PL_ATTR_STRING ? pl_attr_get_string(v, &len) : NULL;
	char *grown = s ? tuple_text_plus(s, len, t, n) : NULL;
	int rc = grown ? pl_attrs_set_string(a, key, grown) : pl_attrs_remove(a, key);
	free(grown);
	return rc;
}

/* Attributes that describe the lines around an instruction in the text it
 * was read from: meaningless for a clone in another place. */
static bool line_bound_key(const char *key)
{
	static const char *const keys[] = {
		"hlo_operand_names", "hlo_operand_shapes", "hlo_operand_attrs",
		"hlo_operands",      "hlo_label_attrs",    "hlo_name",
		"id",
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* hlo_operands without the names of the input's tuple lines
 * ("t@p(_,u@t:_)" becomes "(_,_)"): the operands' tuple structure, which
 * a get-tuple-element without results (of a token) needs to be written,
 * is no line of the input. A label is the text from the "(" or "," before an "@" to the
 * "(" or ":" after it. malloc'd; NULL when out of memory. */
static char *bare_operands(const char *s, size_t len)
{
	char *out = malloc(len + 1);
	size_t n = 0;
	if (!out)
		return NULL;
	for (size_t k = 0; k < len; k++) {
		if (s[k] != '@') {
			out[n++] = s[k];
			continue;
		}
		while (n && out[n - 1] != '(' && out[n - 1] != ',')
			n--;
		while (k + 1 < len && s[k + 1] != '(' && s[k + 1] != ':')
			k++;
		if (k + 1 < len && s[k + 1] == ':')
			k++;
	}
	out[n] = '\0';
	return out;
}

static int strip_line_keys(pl_inst *i)
{
	pl_attrs *a = pl_inst_attrs(i);
	size_t len;
	/* only a line without results needs it: the rest are written from
	 * their operands' types */
	const char *ops = pl_inst_num_results(i) ? NULL : str_attr(i, "hlo_operands", &len);
	char *bare = ops ? bare_operands(ops, len) : NULL;
	if (ops && !bare)
		return PL_ENOMEM;
	int rc = PL_OK;
	for (size_t k = pl_attrs_count(a); k-- > 0 && rc == PL_OK;) {
		const char *key = pl_attrs_key_at(a, k);
		if (line_bound_key(key))
			rc = pl_attrs_remove(a, key);
	}
	if (rc == PL_OK && bare && strchr(bare, '('))
		rc = pl_attrs_set_string(a, "hlo_operands", bare);
	free(bare);
	return rc;
}

/* src's name with suffix on v, when src has one. */
static void name_after(pl_value *v, const pl_value *src, const char *suffix)
{
	const char *name = pl_value_name(src);
	if (!name)
		return;
	size_t len = strlen(name) + strlen(suffix) + 1;
	char *s = malloc(len);
	if (s) {
		snprintf(s, len, "%s%s", name, suffix);
		pl_value_set_name(v, s);
		free(s);
	}
}

pl_inst *loop_clone_typed(pl_func *f, pl_inst *pos, const pl_inst *src, pl_value *const *ops,
                          size_t nops, const pl_type *t, const char *suffix, int64_t *next_channel)
{
	pl_inst *c = NULL;
	if (pl_inst_num_results(src) != 1 ||
	    pl_inst_create(&c, f, pl_inst_opname(src), ops, nops, &t, 1) != PL_OK)
		return NULL;
	if (pl_inst_copy_attrs(c, src) != PL_OK || strip_line_keys(c) != PL_OK)
		return NULL;
	/* a shape read with the old type (its layout) no longer fits */
	if (t != pl_value_type(pl_inst_result(src, 0)) && pl_attrs_get(pl_inst_attrs(c), "hlo_shape") &&
	    pl_attrs_remove(pl_inst_attrs(c), "hlo_shape") != PL_OK)
		return NULL;
	if (next_channel && str_attr(c, "hlo_channel_id", NULL)) {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)(*next_channel)++);
		if (pl_attrs_set_string(pl_inst_attrs(c), "hlo_channel_id", buf) != PL_OK)
			return NULL;
	}
	name_after(pl_inst_result(c, 0), pl_inst_result(src, 0), suffix);
	if (pos)
		pl_inst_insert_before(c, pos);
	else
		pl_func_append(f, c);
	return c;
}

pl_inst *loop_clone_inst(pl_func *f, pl_inst *pos, const pl_inst *src, struct ptr_map *map,
                         const char *suffix, int64_t *next_channel)
{
	size_t no = pl_inst_num_operands(src), nr = pl_inst_num_results(src);
	pl_value **ops = malloc((no ? no : 1) * sizeof *ops);
	const pl_type **ty = malloc((nr ? nr : 1) * sizeof *ty);
	pl_inst *c = NULL;
	if (!ops || !ty)
		goto out;
	for (size_t k = 0; k < no; k++) {
		pl_value *v = pl_inst_operand(src, k), *to = ptr_map_get(map, v);
		ops[k] = to ? to : v;
	}
	for (size_t k = 0; k < nr; k++)
		ty[k] = pl_value_type(pl_inst_result(src, k));
	if (pl_inst_create(&c, f, pl_inst_opname(src), ops, no, ty, nr) != PL_OK)
		goto out;
	if (pl_inst_copy_attrs(c, src) != PL_OK || strip_line_keys(c) != PL_OK) {
		c = NULL;
		goto out;
	}
	if (next_channel && str_attr(c, "hlo_channel_id", NULL)) {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)(*next_channel)++);
		if (pl_attrs_set_string(pl_inst_attrs(c), "hlo_channel_id", buf) != PL_OK) {
			c = NULL;
			goto out;
		}
	}
	for (size_t k = 0; k < nr; k++) {
		const char *name = pl_value_name(pl_inst_result(src, k));
		if (name) {
			size_t len = strlen(name) + strlen(suffix) + 1;
			char *s = malloc(len);
			if (s) {
				snprintf(s, len, "%s%s", name, suffix);
				pl_value_set_name(pl_inst_result(c, k), s);
				free(s);
			}
		}
		if (!ptr_map_put(map, pl_inst_result(src, k), pl_inst_result(c, k))) {
			c = NULL;
			goto out;
		}
	}
	if (pos)
		pl_inst_insert_before(c, pos);
	else
		pl_func_append(f, c);
out:
	free(ops);
	free(ty);
	return c;
}

int64_t loop_next_channel(const pl_module *m)
{
	int64_t next = 1;
	for (size_t k = 0; k < pl_module_num_funcs(m); k++)
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(m, k)); i; i = pl_inst_next(i)) {
			const char *s = str_attr(i, "hlo_channel_id", NULL);
			long long v = s ? strtoll(s, NULL, 10) : 0;
			if (v >= next)
				next = v + 1;
		}
	return next;
}

pl_inst *loop_while_widened(pl_inst *w, pl_value *const *base, pl_value *const *extra,
                            size_t n_extra)
{
	size_t n = pl_inst_num_operands(w), total = n + n_extra;
	pl_value **ops = malloc(total * sizeof *ops);
	const pl_type **ty = malloc(total * sizeof *ty);
	pl_inst *w2 = NULL;
	if (!ops || !ty)
		goto out;
	for (size_t k = 0; k < total; k++) {
		ops[k] = k >= n ? extra[k - n] : base ? base[k] : pl_inst_operand(w, k);
		ty[k] = pl_value_type(ops[k]);
	}
	if (pl_inst_create(&w2, pl_inst_func(w), pl_hlo_op_name(PL_HLO_WHILE), ops, total, ty,
	                   total) != PL_OK)
		goto out;
	/* its operand: one tuple the writer makes, of the loop's state */
	char *tuple = malloc(2 * total + 2);
	if (tuple) {
		size_t at = 0;
		tuple[at++] = '(';
		for (size_t k = 0; k < total; k++) {
			if (k)
				tuple[at++] = ',';
			tuple[at++] = '_';
		}
		tuple[at++] = ')';
		tuple[at] = '\0';
	}
	if (!tuple || pl_inst_copy_attrs(w2, w) != PL_OK || strip_line_keys(w2) != PL_OK ||
	    grow_tuple_attr(pl_inst_attrs(w2), "hlo_shape", ty + n, n_extra) != PL_OK ||
	    pl_attrs_set_string(pl_inst_attrs(w2), "hlo_operands", tuple) != PL_OK) {
		free(tuple);
		w2 = NULL;
		goto out;
	}
	free(tuple);
	for (size_t k = 0; k < n; k++) {
		const char *name = pl_value_name(pl_inst_result(w, k));
		if (name)
			pl_value_set_name(pl_inst_result(w2, k), name);
	}
	pl_inst_insert_before(w2, w);
out:
	free(ops);
	free(ty);
	return w2;
}

int loop_add_args(pl_func *f, const pl_type *const *t, size_t n, const char *prefix)
{
	for (size_t k = 0; k < n; k++) {
		char name[64];
		snprintf(name, sizeof name, "%s.%zu", prefix, k);
		if (!pl_func_add_arg(f, name, t[k]))
			return PL_ENOMEM;
	}
	/* a loop's body or condition takes one tuple: its recorded shape grows */
	pl_attrs *a = pl_func_attrs(f);
	const pl_attr *ps = pl_attrs_get(a, "hlo_param_shapes");
	size_t len = 0;
	const pl_attr *only = ps && pl_attr_get_kind(ps) == PL_ATTR_LIST && pl_attr_list_size(ps) == 1
	                      ? pl_attr_list_at(ps, 0) : NULL;
	const char *s = only && pl_attr_get_kind(only) == PL_ATTR_STRING
	                ? pl_attr_get_string(only, &len) : NULL;
	char *grown = s ? tuple_text_plus(s, len, t, n) : NULL;
	if (!grown) {
		loop_forget_param_shapes(f);
		return PL_OK;
	}
	const pl_attr *elem = pl_attr_string(pl_func_module(f), grown, strlen(grown));
	const pl_attr *list = elem ? pl_attr_list(pl_func_module(f), &elem, 1) : NULL;
	free(grown);
	if (!list)
		return PL_ENOMEM;
	return pl_attrs_set(a, "hlo_param_shapes", list);
}

int loop_new_return(pl_func *f, pl_value *const *subst, pl_value *const *extra, size_t n_extra)
{
	pl_inst *ret = pl_func_last_inst(f);
	size_t n = pl_inst_num_operands(ret), total = n + n_extra;
	pl_value **ops = malloc((total ? total : 1) * sizeof *ops);
	if (!ops)
		return PL_ENOMEM;
	for (size_t k = 0; k < total; k++)
		ops[k] = k >= n ? extra[k - n] : subst && subst[k] ? subst[k] : pl_inst_operand(ret, k);
	pl_inst *r2 = NULL;
	int rc = pl_inst_create(&r2, f, "return", ops, total, NULL, 0);
	free(ops);
	if (rc)
		return rc;
	rc = pl_inst_copy_attrs(r2, ret);
	pl_attrs *a = pl_inst_attrs(r2);
	const pl_type **ty = calloc(n_extra + 1, sizeof *ty);
	for (size_t k = 0; ty && k < n_extra; k++)
		ty[k] = pl_value_type(extra[k]);
	if (rc == PL_OK && !ty)
		rc = PL_ENOMEM;
	if (rc == PL_OK && n_extra)
		rc = grow_tuple_attr(a, "hlo_shape", ty, n_extra);
	free(ty);
	/* a root that stood for another line (a get-tuple-element of the
	 * loop) now returns what replaced it */
	const char *op = NULL;
	size_t oplen;
	if (rc == PL_OK && pl_attrs_get_string(a, "hlo_opcode", &op, &oplen) == PL_OK &&
	    hlo_text_op(op, oplen) != PL_HLO_TUPLE)
		rc = pl_attrs_remove(a, "hlo_opcode");
	if (rc == PL_OK)
		rc = strip_line_keys(r2);
	if (rc == PL_OK) {
		pl_inst_insert_after(r2, ret);
		rc = pl_inst_erase(ret);
	}
	return rc;
}

int loop_set_known_trips(pl_inst *w, uint64_t n)
{
	size_t len = 0;
	const char *s = str_attr(w, "hlo_backend_config", &len);
	char num[32];
	snprintf(num, sizeof num, "%llu", (unsigned long long)n);
	size_t cap = len + 64;
	char *buf = malloc(cap);
	if (!buf)
		return PL_ENOMEM;
	const char *p = s ? strstr(s, "known_trip_count") : NULL;
	if (!s || len < 2 || s[0] != '{') {
		snprintf(buf, cap, "{\"known_trip_count\":{\"n\":\"%s\"}}", num);
	} else if (!p) {
		/* put it first in the object */
		snprintf(buf, cap, "{\"known_trip_count\":{\"n\":\"%s\"}%s%.*s", num,
		         len > 2 ? "," : "", (int)(len - 1), s + 1);
	} else {
		/* the digits after "known_trip_count"...n...: replaced */
		const char *q = p + strlen("known_trip_count");
		while (*q && !(*q >= '0' && *q <= '9'))
			q++;
		const char *e = q;
		while (*e >= '0' && *e <= '9')
			e++;
		snprintf(buf, cap, "%.*s%s%s", (int)(q - s), s, num, e);
	}
	int rc = pl_attrs_set_string(pl_inst_attrs(w), "hlo_backend_config", buf);
	free(buf);
	return rc;
}

void loop_forget_param_shapes(pl_func *f)
{
	pl_attrs *a = pl_func_attrs(f);
	static const char *const keys[] = {"hlo_param_shapes", "hlo_param_attrs", "hlo_param_names"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (pl_attrs_get(a, keys[k]))
			pl_attrs_remove(a, keys[k]);
}

int loop_erase_if_unused(pl_inst *inst)
{
	for (size_t r = 0; r < pl_inst_num_results(inst); r++)
		if (pl_value_has_uses(pl_inst_result(inst, r)))
			return PL_OK;
	return pl_inst_erase(inst);
}

/* HLO ops that do something besides computing their results (an op that
 * is not HLO counts as one). */
static bool hlo_effectful(const pl_inst *i)
{
	if (!pl_inst_is_hlo(i))
		return true;
	switch (pl_inst_hlo_op(i)) {
	case PL_HLO_CUSTOM_CALL: case PL_HLO_SEND: case PL_HLO_SEND_DONE: case PL_HLO_RECV:
	case PL_HLO_RECV_DONE: case PL_HLO_INFEED: case PL_HLO_OUTFEED: case PL_HLO_RNG:
	case PL_HLO_RNG_BIT_GENERATOR: case PL_HLO_RNG_GET_AND_UPDATE_STATE: case PL_HLO_WHILE:
	case PL_HLO_CALL: case PL_HLO_CONDITIONAL: case PL_HLO_AFTER_ALL: case PL_HLO_ADD_DEPENDENCY:
		return true;
	default: {
		bool pin = false;
		return pl_attrs_get_bool(pl_inst_attrs_const(i), "pinned", &pin) == PL_OK && pin;
	}
	}
}

int loop_dce_between(pl_func *f, pl_inst *after, pl_inst *before)
{
	pl_inst *i = before ? pl_inst_prev(before) : pl_func_last_inst(f);
	while (i && i != after) {
		pl_inst *prev = pl_inst_prev(i);
		bool used = hlo_effectful(i);
		for (size_t r = 0; r < pl_inst_num_results(i) && !used; r++)
			used = pl_value_has_uses(pl_inst_result(i, r));
		if (!used) {
			int rc = pl_inst_erase(i);
			if (rc)
				return rc;
		}
		i = prev;
	}
	return PL_OK;
}
