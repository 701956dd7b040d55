/* SPDX-License-Identifier: MIT */
/* fuzz/split_same.h — shared by fuzz/fuzz_split.c and tests/unit/check_split.c,
 * which are built with the library's sources (the split read is internal):
 * whether reading a text on two readers, the second from a given line,
 * gives what one reader gives. */
#ifndef PL_FUZZ_SPLIT_SAME_H
#define PL_FUZZ_SPLIT_SAME_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "text/parse.h"

/* What a read gave: its status, diagnostics, printed module, and per
 * instruction its position, line and column, then the users of each of
 * its values (and of each argument) in use-list order. */
struct read_result {
	int rc;
	struct text_buf diags, text, uses;
};

static void read_result_free(struct read_result *r)
{
	free(r->diags.p);
	free(r->text.p);
	free(r->uses.p);
}

static int put_num(struct text_buf *b, uint64_t x)
{
	char s[24];
	int n = snprintf(s, sizeof s, "%llu ", (unsigned long long)x);
	return text_buf_append(b, s, (size_t)n);
}

/* A value's users in use-list order, each as its line, column and
 * operand index (a read instruction's place in the text is its own). */
static int put_users(struct text_buf *b, const pl_value *v)
{
	int rc = text_buf_append(b, "|", 1);
	for (const pl_use *u = pl_value_first_use(v); u && !rc; u = pl_use_next(u))
		rc = put_num(b, pl_inst_line(pl_use_user(u))) ||
		     put_num(b, pl_inst_col(pl_use_user(u))) || put_num(b, pl_use_operand_index(u));
	return rc;
}

/* Whether what a names is interned in m, as the SDK's lookups by
 * address expect (strings, lists, the 8 bytes of scalars, types; keys
 * and op names by number). */
static bool interned_attr(pl_module *m, const pl_attr *a)
{
	if (a->kind == PL_ATTR_STRING)
		return pl_intern_str_(m, pl_attr_s_(a), pl_attr_len_(a)) == pl_attr_s_(a);
	if (a->kind == PL_ATTR_FLOAT || a->boxed) {
		const void *box = pl_region_at_(a, a->v);
		return pl_intern_blob_(m, &m->scalars, box, sizeof(int64_t)) == box;
	}
	if (a->kind != PL_ATTR_LIST || !pl_attr_len_(a))
		return true;
	const pl_attr *elems = pl_attr_elems_(a);
	for (uint32_t k = 0; k < pl_attr_len_(a); k++)
		if (!interned_attr(m, &elems[k]))
			return false;
	const pl_attr *same = pl_attr_intern_list_(m, elems, pl_attr_len_(a));
	return same && pl_attr_elems_(same) == elems;
}

/* id is a number in t, of a name interned in m, which t numbers id */
static bool numbered(pl_module *m, struct pl_numbered *t, uint32_t id)
{
	if (id < 1 || id > t->n)
		return false;
	const char *name = t->names[id];
	return pl_intern_str_(m, name, strlen(name)) == name && pl_number_(t, name) == id;
}

/* id is the number of an op name in m, which the op names number by
 * its bytes (they are not interned in m's strings) */
static bool numbered_op(pl_module *m, uint32_t id)
{
	if (id < 1 || id > m->ops.n)
		return false;
	const char *name = m->ops.names[id];
	return pl_op_number_text_(m, name, strlen(name)) == id && pl_number_(&m->ops, name) == id;
}

/* every key is numbered in m's keys, under its interned name */
static bool interned_attrs(pl_module *m, const pl_attrs *d)
{
	const struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t k = 0; k < d->n; k++)
		if (!numbered(m, &m->keys, v[k].val.key) || !interned_attr(m, &v[k].val))
			return false;
	return true;
}

static bool interned_type(pl_module *m, const pl_type *t)
{
	return pl_type_get(m, (pl_dtype)t->dtype, t->dims, t->rank) == t;
}

static bool all_interned(pl_module *m)
{
	for (size_t f = 0; f < m->nfuncs; f++) {
		const pl_func *fn = m->funcs[f];
		if (!interned_attrs(m, &fn->attrs))
			return false;
		for (size_t a = 0; a < fn->nargs; a++)
			if (!interned_type(m, fn->args[a]->v.type))
				return false;
		for (const pl_inst *i = fn->first; i; i = pl_inst_after_(i)) {
			if (!numbered_op(m, i->op) || !interned_attrs(m, &i->attrs))
				return false;
			const pl_value *res = pl_inst_res_((pl_inst *)(uintptr_t)i);
			for (uint32_t k = 0; k < i->nres; k++)
				if (!interned_type(m, res[k].type))
					return false;
		}
	}
	return true;
}

static int describe(const pl_module *m, struct text_buf *b)
{
	int rc = 0;
	for (size_t f = 0; f < pl_module_num_funcs(m) && !rc; f++) {
		const pl_func *fn = pl_module_func_at(m, f);
		for (size_t a = 0; a < pl_func_num_args(fn) && !rc; a++)
			rc = put_users(b, pl_func_arg(fn, a));
		for (const pl_inst *i = pl_func_first_inst(fn); i && !rc; i = pl_inst_next(i)) {
			uint64_t pos = 0;
			rc = pl_inst_get_position(&pos, i) != PL_OK || put_num(b, pos) ||
			     put_num(b, pl_inst_line(i)) || put_num(b, pl_inst_col(i));
			for (size_t k = 0; k < pl_inst_num_results(i) && !rc; k++)
				rc = put_users(b, pl_inst_result(i, k));
		}
	}
	return rc;
}

/* split: where the second reader begins looking for its line (SIZE_MAX:
 * one reader). */
static void read_text(const char *text, size_t len, size_t split, struct read_result *r,
                      bool *taken)
{
	memset(r, 0, sizeof *r);
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	if (!d)
		abort();
	r->rc = pl_parse_text_(text, len, split, "split.pir", d, false, taken, &m);
	for (size_t k = 0; k < pl_diags_count(d); k++) {
		const char *s = pl_diags_format(d, k);
		if (text_buf_append(&r->diags, s, strlen(s)) || text_buf_append(&r->diags, "\n", 1))
			abort();
	}
	if (m && (pl_print_module(m, text_buf_append, &r->text) != PL_OK || describe(m, &r->uses)))
		abort();
	if (m && !all_interned(m)) {
		fprintf(stderr, "a pointer of the module read is not to what it interned\n");
		abort();
	}
	pl_module_free(m);
	pl_diags_free(d);
}

/* Whether text read with the second reader from the first value name
 * line after split is what one reader makes of it (else says how it
 * differs on stderr); *taken: whether the second reader's work was used. */
static bool split_same(const char *text, size_t len, size_t split, bool *taken)
{
	struct read_result one, two;
	read_text(text, len, SIZE_MAX, &one, NULL);
	read_text(text, len, split, &two, taken);
	bool same = one.rc == two.rc && text_buf_equal(&one.diags, &two.diags) &&
	            text_buf_equal(&one.text, &two.text) && text_buf_equal(&one.uses, &two.uses);
	if (!same) {
		fprintf(stderr, "split at %zu differs: status %d and %d\n", split, one.rc, two.rc);
		const struct text_buf *parts[] = {&one.diags, &one.text, &one.uses,
		                                  &two.diags, &two.text, &two.uses};
		for (size_t k = 0; k < 6; k++)
			fprintf(stderr, "%s%.*s\n", k == 0 ? "-- one reader:\n" : k == 3 ? "-- two readers:\n" : "",
			        (int)parts[k]->n, parts[k]->p ? parts[k]->p : "");
	}
	read_result_free(&one);
	read_result_free(&two);
	return same;
}

#endif
