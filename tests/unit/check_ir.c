/* SPDX-License-Identifier: MIT */
/* tests/unit/check_ir.c — the IR API (passline/ir.h, passline/ops.h):
 * building, linking, moving, erasing and cloning instructions; attribute
 * values and dictionaries; values and uses; positions; types; the op and
 * dtype tables; derived counts; how built IR is printed.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>

/* ---- helpers ------------------------------------------------------------ */

static const pl_type *scalar(pl_module *m)
{
	return pl_type_get(m, PL_DTYPE_F32, NULL, 0);
}

static const pl_type *vec(pl_module *m, int64_t n)
{
	return pl_type_get(m, PL_DTYPE_F32, &n, 1);
}

/* A new instruction "op" with the given operands and one f32[] result,
 * appended to f. */
static pl_inst *add(pl_func *f, const char *op, pl_value *const *ops, size_t nops)
{
	const pl_type *t = scalar(pl_func_module(f));
	pl_inst *i = pl_inst_new(f, op, ops, nops, &t, 1);
	ck_assert_ptr_nonnull(i);
	pl_func_append(f, i);
	return i;
}

static pl_value *res(pl_inst *i)
{
	return pl_inst_result(i, 0);
}

/* The op names of f's instructions, space-separated, in list order; also
 * checks that prev links and counts agree with next links. */
static char *order(pl_func *f)
{
	static char buf[4096];
	buf[0] = '\0';
	size_t n = 0;
	pl_inst *prev = NULL;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		ck_assert_ptr_eq(pl_inst_prev(i), prev);
		ck_assert(pl_inst_is_linked(i));
		ck_assert_ptr_eq(pl_inst_func(i), f);
		if (n)
			strcat(buf, " ");
		strcat(buf, pl_inst_opname(i));
		prev = i;
		n++;
	}
	ck_assert_ptr_eq(pl_func_last_inst(f), prev);
	ck_assert_uint_eq(pl_func_num_insts(f), n);
	return buf;
}

static char *print_module(pl_module *m)
{
	char *s = tu_print(m);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* ---- modules and functions ------------------------------------------------- */

START_TEST(test_module_and_functions)
{
	pl_module *m = pl_module_new("a.pir");
	ck_assert_str_eq(pl_module_source_name(m), "a.pir");
	ck_assert_uint_eq(pl_module_num_funcs(m), 0);
	pl_func *f = pl_func_new(m, "f");
	pl_func *g = pl_func_new(m, "g.2$-x");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_null(pl_func_new(m, "f"));      /* duplicate */
	ck_assert_ptr_null(pl_func_new(m, ""));       /* not a NAME */
	ck_assert_ptr_null(pl_func_new(m, "a b"));
	ck_assert_ptr_null(pl_func_new(m, "@f"));
	ck_assert_ptr_null(pl_func_new(m, NULL));
	ck_assert_uint_eq(pl_module_num_funcs(m), 2);
	ck_assert_ptr_eq(pl_module_func_at(m, 0), f);
	ck_assert_ptr_eq(pl_module_func_at(m, 1), g);
	ck_assert_ptr_null(pl_module_func_at(m, 2));
	ck_assert_ptr_eq(pl_module_find_func(m, "g.2$-x"), g);
	ck_assert_ptr_null(pl_module_find_func(m, "h"));
	ck_assert_ptr_eq(pl_func_module(f), m);
	ck_assert_str_eq(pl_func_name(g), "g.2$-x");
	ck_assert_uint_eq(pl_func_line(f), 0);
	ck_assert_uint_eq(pl_func_col(f), 0);

	/* arguments */
	const pl_type *t = scalar(m);
	pl_value *a = pl_func_add_arg(f, "a", t);
	pl_value *b = pl_func_add_arg(f, NULL, vec(m, 3));
	ck_assert_ptr_null(pl_func_add_arg(f, "bad name", t));
	ck_assert_ptr_null(pl_func_add_arg(f, "c", NULL));
	ck_assert_uint_eq(pl_func_num_args(f), 2);
	ck_assert_ptr_eq(pl_func_arg(f, 0), a);
	ck_assert_ptr_eq(pl_func_arg(f, 1), b);
	ck_assert_ptr_null(pl_func_arg(f, 2));
	ck_assert_str_eq(pl_value_name(a), "a");
	ck_assert_ptr_null(pl_value_name(b));
	ck_assert_ptr_eq(pl_value_type(b), vec(m, 3));
	/* many arguments (the array grows) keep their order and index */
	for (int k = 0; k < 100; k++)
		ck_assert_ptr_nonnull(pl_func_add_arg(g, NULL, t));
	for (size_t k = 0; k < 100; k++) {
		ck_assert_uint_eq(pl_value_index(pl_func_arg(g, k)), k);
		ck_assert_ptr_eq(pl_value_func(pl_func_arg(g, k)), g);
	}

	/* instructions count per function and per module */
	pl_inst *i1 = add(f, "acme.one", &a, 1);
	add(g, "acme.two", NULL, 0);
	add(g, "acme.three", NULL, 0);
	ck_assert_uint_eq(pl_func_num_insts(f), 1);
	ck_assert_uint_eq(pl_func_num_insts(g), 2);
	ck_assert_uint_eq(pl_module_num_insts(m), 3);
	ck_assert_int_eq(pl_inst_erase(i1), PL_OK);
	ck_assert_uint_eq(pl_module_num_insts(m), 2);
	pl_module_free(m);

	m = pl_module_new(NULL);
	ck_assert_ptr_null(pl_module_source_name(m));
	pl_module_free(m);
	pl_module_free(NULL);
}
END_TEST

START_TEST(test_inst_new)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_func *g = pl_func_new(m, "g");
	pl_value *a = pl_func_add_arg(f, "a", scalar(m));
	pl_value *ga = pl_func_add_arg(g, "ga", scalar(m));
	const pl_type *ts[2] = {scalar(m), vec(m, 2)};
	pl_value *ops[3] = {a, a, a};
	pl_inst *i = pl_inst_new(f, "acme.op", ops, 3, ts, 2);
	ck_assert_ptr_nonnull(i);
	ck_assert(!pl_inst_is_linked(i));
	ck_assert_ptr_eq(pl_inst_func(i), f);
	ck_assert_str_eq(pl_inst_opname(i), "acme.op");
	ck_assert_uint_eq(pl_inst_num_operands(i), 3);
	ck_assert_uint_eq(pl_inst_num_results(i), 2);
	ck_assert_ptr_eq(pl_inst_operand(i, 2), a);
	ck_assert_ptr_null(pl_inst_operand(i, 3));
	ck_assert_ptr_null(pl_inst_result(i, 2));
	ck_assert_ptr_eq(pl_value_type(pl_inst_result(i, 1)), ts[1]);
	ck_assert_ptr_null(pl_value_name(pl_inst_result(i, 0)));
	ck_assert_uint_eq(pl_value_num_uses(a), 3); /* detached users count too */
	ck_assert_uint_eq(pl_inst_line(i), 0);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs(i)), 0);
	ck_assert_uint_eq(pl_func_num_insts(f), 0);

	/* refused: bad op names, missing or foreign operands, missing types */
	ck_assert_ptr_null(pl_inst_new(f, "Acme", NULL, 0, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(f, "1op", NULL, 0, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(f, "a-b", NULL, 0, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(f, "", NULL, 0, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(f, NULL, NULL, 0, NULL, 0));
	pl_value *bad[2] = {a, NULL};
	ck_assert_ptr_null(pl_inst_new(f, "acme.x", bad, 2, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(f, "acme.x", &ga, 1, NULL, 0));
	const pl_type *badt[2] = {scalar(m), NULL};
	ck_assert_ptr_null(pl_inst_new(f, "acme.x", NULL, 0, badt, 2));
	ck_assert_uint_eq(pl_value_num_uses(a), 3);
	/* names the table knows get their op */
	pl_inst *r = pl_inst_new(f, "return", &a, 1, NULL, 0);
	ck_assert_int_eq(pl_inst_op(r), PL_OP_RETURN);
	ck_assert_uint_eq(pl_inst_traits(r), PL_TRAIT_TERMINATOR | PL_TRAIT_SIDE_EFFECTS);
	ck_assert_int_eq(pl_inst_op(i), PL_OP_OTHER);
	ck_assert_uint_eq(pl_inst_traits(i), 0);
	pl_module_free(m);
}
END_TEST

/* Op names are remembered by the address the caller passed: a name that is
 * the tail of another ("pack" in "unpack") and a buffer whose text changes
 * at the same address still get their own op and name. */
START_TEST(test_inst_new_opname_addresses)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *a = pl_func_add_arg(f, "a", scalar(m));
	const pl_type *t = scalar(m);
	static const char unpack[] = "unpack";
	char buf[16];
	for (int k = 0; k < 3; k++) {
		pl_inst *u = pl_inst_new(f, unpack, &a, 1, &t, 1);
		pl_inst *p = pl_inst_new(f, unpack + 2, &a, 1, &t, 1);
		ck_assert_int_eq(pl_inst_op(u), PL_OP_UNPACK);
		ck_assert_str_eq(pl_inst_opname(u), "unpack");
		ck_assert_int_eq(pl_inst_op(p), PL_OP_PACK);
		ck_assert_str_eq(pl_inst_opname(p), "pack");
		strcpy(buf, k % 2 ? "return" : "acme.op");
		pl_inst *b = pl_inst_new(f, buf, &a, 1, NULL, 0);
		ck_assert_int_eq(pl_inst_op(b), k % 2 ? PL_OP_RETURN : PL_OP_OTHER);
		ck_assert_str_eq(pl_inst_opname(b), k % 2 ? "return" : "acme.op");
	}
	pl_module_free(m);
}
END_TEST

/* ---- linking --------------------------------------------------------------- */

START_TEST(test_insert_before_after)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_inst *b = pl_inst_new(f, "b", NULL, 0, NULL, 0);
	pl_func_append(f, b);
	ck_assert_str_eq(order(f), "b");
	pl_inst *a = pl_inst_new(f, "a", NULL, 0, NULL, 0);
	pl_inst_insert_before(a, b); /* new first */
	pl_inst *d = pl_inst_new(f, "d", NULL, 0, NULL, 0);
	pl_inst_insert_after(d, b); /* new last */
	pl_inst *c = pl_inst_new(f, "c", NULL, 0, NULL, 0);
	pl_inst_insert_after(c, b); /* in the middle */
	pl_inst *e = pl_inst_new(f, "e", NULL, 0, NULL, 0);
	pl_func_append(f, e);
	ck_assert_str_eq(order(f), "a b c d e");
	ck_assert_uint_eq(pl_module_num_insts(m), 5);

	/* linking what is linked already does nothing */
	pl_inst_insert_before(e, a);
	pl_inst_insert_after(a, e);
	pl_func_append(f, a);
	ck_assert_str_eq(order(f), "a b c d e");

	/* nor can an instruction go next to one that is not linked: that used
	 * to cut the function's list off at the new instruction */
	pl_inst *loose = pl_inst_new(f, "loose", NULL, 0, NULL, 0);
	pl_inst *x = pl_inst_new(f, "x", NULL, 0, NULL, 0);
	pl_inst_insert_before(x, loose);
	ck_assert(!pl_inst_is_linked(x));
	pl_inst_insert_after(x, loose);
	ck_assert(!pl_inst_is_linked(x));
	ck_assert_str_eq(order(f), "a b c d e");
	ck_assert_int_eq(pl_inst_erase(c), PL_OK);
	pl_inst_insert_after(x, c); /* erased */
	ck_assert(!pl_inst_is_linked(x));
	ck_assert_str_eq(order(f), "a b d e");

	/* nor into another function */
	pl_func *g = pl_func_new(m, "g");
	pl_inst *gi = pl_inst_new(g, "gi", NULL, 0, NULL, 0);
	pl_inst_insert_before(gi, a);
	pl_func_append(f, gi);
	ck_assert(!pl_inst_is_linked(gi));
	ck_assert_str_eq(order(f), "a b d e");
	ck_assert_uint_eq(pl_module_num_insts(m), 4);

	/* an erased instruction cannot come back */
	pl_func_append(f, c);
	ck_assert(!pl_inst_is_linked(c));
	ck_assert_str_eq(order(f), "a b d e");
	pl_module_free(m);
}
END_TEST

START_TEST(test_move_before_after)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_inst *in[5];
	const char *names[5] = {"a", "b", "c", "d", "e"};
	for (int k = 0; k < 5; k++) {
		in[k] = pl_inst_new(f, names[k], NULL, 0, NULL, 0);
		pl_func_append(f, in[k]);
	}
	pl_inst_move_before(in[4], in[0]);
	ck_assert_str_eq(order(f), "e a b c d");
	pl_inst_move_after(in[4], in[3]);
	ck_assert_str_eq(order(f), "a b c d e");
	pl_inst_move_after(in[0], in[2]);
	ck_assert_str_eq(order(f), "b c a d e");
	pl_inst_move_before(in[3], in[1]);
	ck_assert_str_eq(order(f), "d b c a e");
	/* to where it is already, and onto itself: nothing changes */
	pl_inst_move_before(in[1], in[2]);
	pl_inst_move_after(in[1], in[3]);
	pl_inst_move_before(in[1], in[1]);
	pl_inst_move_after(in[1], in[1]);
	ck_assert_str_eq(order(f), "d b c a e");
	ck_assert_uint_eq(pl_module_num_insts(m), 5);
	/* a detached instruction is not moved; nor next to a detached one */
	pl_inst *loose = pl_inst_new(f, "loose", NULL, 0, NULL, 0);
	pl_inst_move_before(loose, in[0]);
	ck_assert(!pl_inst_is_linked(loose));
	pl_inst_move_before(in[0], loose);
	pl_inst_move_after(in[0], loose);
	ck_assert_str_eq(order(f), "d b c a e");
	/* positions follow */
	ck_assert(pl_inst_comes_before(in[3], in[1]));
	ck_assert(pl_inst_comes_before(in[0], in[4]));
	ck_assert(!pl_inst_comes_before(in[4], in[3]));
	ck_assert(!pl_inst_comes_before(in[2], in[2]));
	pl_module_free(m);
}
END_TEST

START_TEST(test_erase)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	pl_inst *a = add(f, "a", &p, 1);
	pl_value *av = res(a);
	pl_value *ops[2] = {av, p};
	pl_inst *b = add(f, "b", ops, 2);
	ck_assert_uint_eq(pl_value_num_uses(p), 2);

	/* refused while its result is used; nothing changes */
	ck_assert_int_eq(pl_inst_erase(a), PL_EINVAL);
	ck_assert(pl_inst_is_linked(a));
	ck_assert_str_eq(order(f), "a b");
	ck_assert_uint_eq(pl_value_num_uses(p), 2);
	ck_assert_uint_eq(pl_value_num_uses(av), 1);

	/* the user goes first: its uses of a and p go with it */
	ck_assert_int_eq(pl_inst_erase(b), PL_OK);
	ck_assert_uint_eq(pl_value_num_uses(av), 0);
	ck_assert_uint_eq(pl_value_num_uses(p), 1);
	ck_assert_str_eq(order(f), "a");
	ck_assert_int_eq(pl_inst_erase(a), PL_OK);
	ck_assert_str_eq(order(f), "");
	ck_assert_ptr_null(pl_func_first_inst(f));
	ck_assert_ptr_null(pl_func_last_inst(f));
	ck_assert_uint_eq(pl_value_num_uses(p), 0);
	ck_assert(!pl_value_has_uses(p));
	ck_assert_uint_eq(pl_module_num_insts(m), 0);
	/* twice is refused */
	ck_assert_int_eq(pl_inst_erase(a), PL_EINVAL);

	/* a detached instruction can be erased; its uses go */
	pl_inst *loose = pl_inst_new(f, "loose", &p, 1, NULL, 0);
	ck_assert_uint_eq(pl_value_num_uses(p), 1);
	ck_assert_int_eq(pl_inst_erase(loose), PL_OK);
	ck_assert_uint_eq(pl_value_num_uses(p), 0);
	ck_assert_uint_eq(pl_module_num_insts(m), 0);

	/* erasing from the middle keeps the list whole */
	pl_inst *x = add(f, "x", NULL, 0), *y = add(f, "y", NULL, 0), *z = add(f, "z", NULL, 0);
	ck_assert_int_eq(pl_inst_erase(y), PL_OK);
	ck_assert_str_eq(order(f), "x z");
	ck_assert(pl_inst_comes_before(x, z));
	pl_module_free(m);
}
END_TEST

/* An instruction of n operands of p and one result, detached. */
static pl_inst *wide(pl_func *f, pl_value *p, size_t n)
{
	pl_value **ops = malloc(n * sizeof *ops);
	for (size_t k = 0; k < n; k++)
		ops[k] = p;
	const pl_type *t = pl_value_type(p);
	pl_inst *i;
	ck_assert_int_eq(pl_inst_create(&i, f, "acme.wide", ops, n, &t, 1), PL_OK);
	free(ops);
	return i;
}

START_TEST(test_erased_blocks_reused)
{
	/* an erased instruction's block serves the next instruction that
	 * fits in it, small or large: one of its size exactly, or smaller
	 * ones cut from it one after another (the rest of a block waits for
	 * the next) */
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	/* small: 48 + 2 * 16 + 24 bytes */
	pl_inst *a = wide(f, p, 2);
	char *at = (char *)a;
	ck_assert_int_eq(pl_inst_erase(a), PL_OK);
	ck_assert_ptr_eq((char *)wide(f, p, 2), at);
	/* large: 48 + 100 * 16 + 24 = 1672 bytes, over the small lists' */
	pl_inst *big = wide(f, p, 100);
	at = (char *)big;
	ck_assert_int_eq(pl_inst_erase(big), PL_OK);
	ck_assert_int_eq(pl_inst_erase(big), PL_EINVAL); /* still known erased */
	pl_inst *half = wide(f, p, 50); /* 872 bytes, from the front */
	ck_assert_ptr_eq((char *)half, at);
	pl_inst *rest = wide(f, p, 40); /* 712 of the 800 left */
	ck_assert_ptr_eq((char *)rest, at + 872);
	ck_assert_uint_eq(pl_value_num_uses(p), 2 + 50 + 40);
	/* a large one served by a larger erased one */
	pl_inst *bigger = wide(f, p, 300);
	at = (char *)bigger;
	ck_assert_int_eq(pl_inst_erase(bigger), PL_OK);
	pl_inst *large = wide(f, p, 120);
	ck_assert_ptr_eq((char *)large, at);
	ck_assert_uint_eq(pl_inst_num_operands(large), 120);
	ck_assert_ptr_eq(pl_inst_operand(large, 119), p);
	pl_module_free(m);
}
END_TEST

START_TEST(test_clone)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	pl_value *q = pl_func_add_arg(f, "q", vec(m, 4));
	pl_value *ops[3] = {p, q, p};
	const pl_type *ts[2] = {vec(m, 4), scalar(m)};
	pl_inst *a = pl_inst_new(f, "acme.op", ops, 3, ts, 2);
	pl_func_append(f, a);
	pl_value_set_name(pl_inst_result(a, 0), "r");
	pl_attrs_set_int(pl_inst_attrs(a), "z", 1);
	pl_attrs_set_string(pl_inst_attrs(a), "a", "s");
	pl_attrs_set_bool(pl_inst_attrs(a), "m", true);
	pl_inst_set_loc(a, 7, 3);

	pl_inst *c = pl_inst_clone(a);
	ck_assert_ptr_nonnull(c);
	ck_assert(!pl_inst_is_linked(c));
	ck_assert_ptr_eq(pl_inst_func(c), f);
	ck_assert_str_eq(pl_inst_opname(c), "acme.op");
	ck_assert_int_eq(pl_inst_op(c), pl_inst_op(a));
	ck_assert_uint_eq(pl_inst_line(c), 7);
	ck_assert_uint_eq(pl_inst_col(c), 3);
	ck_assert_uint_eq(pl_inst_num_operands(c), 3);
	for (size_t k = 0; k < 3; k++)
		ck_assert_ptr_eq(pl_inst_operand(c, k), ops[k]);
	ck_assert_uint_eq(pl_value_num_uses(p), 4);
	ck_assert_uint_eq(pl_value_num_uses(q), 2);
	/* fresh, unnamed results of the same types */
	ck_assert_uint_eq(pl_inst_num_results(c), 2);
	for (size_t k = 0; k < 2; k++) {
		pl_value *r = pl_inst_result(c, k);
		ck_assert_ptr_ne(r, pl_inst_result(a, k));
		ck_assert_ptr_eq(pl_value_type(r), ts[k]);
		ck_assert_ptr_null(pl_value_name(r));
		ck_assert_ptr_eq(pl_value_def(r), c);
		ck_assert_uint_eq(pl_value_index(r), k);
		ck_assert(!pl_value_has_uses(r));
	}
	/* the same attributes, in order, but a copy of its own */
	const pl_attrs *ca = pl_inst_attrs_const(c);
	ck_assert_uint_eq(pl_attrs_count(ca), 3);
	ck_assert_str_eq(pl_attrs_key_at(ca, 0), "z");
	ck_assert_str_eq(pl_attrs_key_at(ca, 1), "a");
	ck_assert_str_eq(pl_attrs_key_at(ca, 2), "m");
	ck_assert(pl_attr_equal(pl_attrs_value_at(ca, 1), pl_attrs_get(pl_inst_attrs(a), "a")));
	pl_attrs_set_int(pl_inst_attrs(c), "z", 2);
	pl_attrs_remove(pl_inst_attrs(c), "a");
	int64_t v;
	ck_assert_int_eq(pl_attrs_get_int(pl_inst_attrs(a), "z", &v), PL_OK);
	ck_assert_int_eq(v, 1);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs(a)), 3);

	pl_inst_insert_after(c, a);
	char *s = print_module(m);
	ck_assert_str_eq(s, "func @f(%p: f32[], %q: f32[4]) {\n"
	                    "  %r, %0 = acme.op %p, %q, %p {z = 1, a = \"s\", m = true} : (f32[4], f32[])\n"
	                    "  %1, %2 = acme.op %p, %q, %p {z = 2, m = true} : (f32[4], f32[])\n"
	                    "}\n");
	free(s);

	/* pl_inst_copy_attrs replaces the whole dictionary */
	pl_inst *plain = add(f, "plain", NULL, 0);
	pl_attrs_set_int(pl_inst_attrs(plain), "old", 0);
	ck_assert_int_eq(pl_inst_copy_attrs(plain, a), PL_OK);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs(plain)), 3);
	ck_assert_ptr_null(pl_attrs_get(pl_inst_attrs(plain), "old"));
	ck_assert_str_eq(pl_attrs_key_at(pl_inst_attrs(plain), 2), "m");
	ck_assert_int_eq(pl_inst_copy_attrs(plain, plain), PL_OK);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs(plain)), 3);
	pl_module_free(m);
}
END_TEST

/* ---- attributes ----------------------------------------------------------- */

START_TEST(test_attr_values)
{
	pl_module *m = pl_module_new(NULL);
	const pl_attr *i = pl_attr_int(m, INT64_MIN);
	const pl_attr *fl = pl_attr_float(m, -2.5);
	const pl_attr *b = pl_attr_bool(m, true);
	const pl_attr *s = pl_attr_string(m, "a\0b", 3);
	ck_assert_int_eq(pl_attr_get_kind(i), PL_ATTR_INT);
	ck_assert_int_eq(pl_attr_get_kind(fl), PL_ATTR_FLOAT);
	ck_assert_int_eq(pl_attr_get_kind(b), PL_ATTR_BOOL);
	ck_assert_int_eq(pl_attr_get_kind(s), PL_ATTR_STRING);
	ck_assert_int_eq(pl_attr_get_int(i), INT64_MIN);
	ck_assert(pl_attr_get_float(fl) == -2.5);
	ck_assert(pl_attr_get_bool(b));
	size_t len;
	const char *sv = pl_attr_get_string(s, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert(memcmp(sv, "a\0b", 4) == 0); /* and a NUL after */
	/* getters of another kind give the zero value */
	ck_assert_int_eq(pl_attr_get_int(fl), 0);
	ck_assert(pl_attr_get_float(i) == 0.0);
	ck_assert(!pl_attr_get_bool(i));
	ck_assert_str_eq(pl_attr_get_string(i, &len), "");
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(pl_attr_list_size(i), 0);
	ck_assert_ptr_null(pl_attr_list_at(i, 0));
	/* no spelling for inf or nan in the text: refused */
	ck_assert_ptr_null(pl_attr_float(m, INFINITY));
	ck_assert_ptr_null(pl_attr_float(m, -INFINITY));
	ck_assert_ptr_null(pl_attr_float(m, NAN));

	/* lists copy their elements */
	const pl_attr *elems[3] = {i, s, NULL};
	const pl_attr *l = pl_attr_list(m, elems, 2);
	ck_assert_int_eq(pl_attr_get_kind(l), PL_ATTR_LIST);
	ck_assert_uint_eq(pl_attr_list_size(l), 2);
	ck_assert(pl_attr_equal(pl_attr_list_at(l, 0), i));
	ck_assert(pl_attr_equal(pl_attr_list_at(l, 1), s));
	ck_assert_ptr_null(pl_attr_list_at(l, 2));
	ck_assert_ptr_null(pl_attr_list(m, elems, 3)); /* a NULL element */
	const pl_attr *empty = pl_attr_list(m, NULL, 0);
	ck_assert_uint_eq(pl_attr_list_size(empty), 0);
	const pl_attr *nested_elems[2] = {l, empty};
	const pl_attr *nested = pl_attr_list(m, nested_elems, 2);
	ck_assert(pl_attr_equal(pl_attr_list_at(nested, 0), l));
	/* more than 16 elements (no longer on the stack) */
	int64_t many[40];
	const pl_attr *many_elems[40];
	for (int k = 0; k < 40; k++) {
		many[k] = k * k;
		many_elems[k] = pl_attr_int(m, k * k);
	}
	const pl_attr *il = pl_attr_int_list(m, many, 40);
	const pl_attr *gl = pl_attr_list(m, many_elems, 40);
	ck_assert_uint_eq(pl_attr_list_size(il), 40);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(il, 39)), 39 * 39);
	ck_assert(pl_attr_equal(il, gl));

	/* structural equality */
	ck_assert(pl_attr_equal(pl_attr_int(m, 5), pl_attr_int(m, 5)));
	ck_assert(!pl_attr_equal(pl_attr_int(m, 5), pl_attr_int(m, 6)));
	ck_assert(!pl_attr_equal(pl_attr_int(m, 1), pl_attr_float(m, 1.0)));
	ck_assert(!pl_attr_equal(pl_attr_int(m, 1), pl_attr_bool(m, true)));
	ck_assert(pl_attr_equal(pl_attr_float(m, 0.0), pl_attr_float(m, -0.0))); /* by value */
	ck_assert(pl_attr_equal(pl_attr_string(m, "ab", 2), pl_attr_string(m, "abc", 2)));
	ck_assert(!pl_attr_equal(pl_attr_string(m, "ab", 2), pl_attr_string(m, "ab", 1)));
	ck_assert(!pl_attr_equal(pl_attr_string(m, "a\0x", 3), pl_attr_string(m, "a\0y", 3)));
	ck_assert(!pl_attr_equal(pl_attr_bool(m, true), pl_attr_bool(m, false)));
	int64_t v12[2] = {1, 2}, v13[2] = {1, 3};
	ck_assert(pl_attr_equal(pl_attr_int_list(m, v12, 2), pl_attr_int_list(m, v12, 2)));
	ck_assert(!pl_attr_equal(pl_attr_int_list(m, v12, 2), pl_attr_int_list(m, v13, 2)));
	ck_assert(!pl_attr_equal(pl_attr_int_list(m, v12, 2), pl_attr_int_list(m, v12, 1)));
	ck_assert(!pl_attr_equal(nested, l));
	pl_module_free(m);
}
END_TEST

START_TEST(test_attr_dicts)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_inst *in = add(f, "acme.x", NULL, 0);
	pl_attrs *d = pl_inst_attrs(in);

	ck_assert_int_eq(pl_attrs_set(d, "a", pl_attr_int(m, 1)), PL_OK);
	ck_assert_int_eq(pl_attrs_set_string(d, "b", "two"), PL_OK);
	ck_assert_int_eq(pl_attrs_set_bool(d, "c", false), PL_OK);
	ck_assert_int_eq(pl_attrs_set_int(d, "d", -4), PL_OK);
	ck_assert_uint_eq(pl_attrs_count(d), 4);
	/* replacing keeps the position; a new key appends */
	ck_assert_int_eq(pl_attrs_set(d, "b", pl_attr_float(m, 2.5)), PL_OK);
	ck_assert_int_eq(pl_attrs_set_int(d, "e", 5), PL_OK);
	const char *keys[] = {"a", "b", "c", "d", "e"};
	ck_assert_uint_eq(pl_attrs_count(d), 5);
	for (size_t k = 0; k < 5; k++)
		ck_assert_str_eq(pl_attrs_key_at(d, k), keys[k]);
	ck_assert_ptr_null(pl_attrs_key_at(d, 5));
	ck_assert_ptr_null(pl_attrs_value_at(d, 5));
	ck_assert(pl_attr_get_float(pl_attrs_value_at(d, 1)) == 2.5);
	ck_assert_ptr_eq(pl_attrs_get(d, "b"), pl_attrs_value_at(d, 1));
	ck_assert_ptr_null(pl_attrs_get(d, "zz"));
	ck_assert_ptr_null(pl_attrs_get(d, ""));

	/* typed getters: PL_ENOTFOUND, PL_ETYPE, *out unchanged */
	int64_t iv = 99;
	bool bv = true;
	const char *sv = "unchanged";
	size_t sl = 77;
	ck_assert_int_eq(pl_attrs_get_int(d, "zz", &iv), PL_ENOTFOUND);
	ck_assert_int_eq(pl_attrs_get_int(d, "b", &iv), PL_ETYPE);
	ck_assert_int_eq(iv, 99);
	ck_assert_int_eq(pl_attrs_get_bool(d, "zz", &bv), PL_ENOTFOUND);
	ck_assert_int_eq(pl_attrs_get_bool(d, "a", &bv), PL_ETYPE);
	ck_assert(bv);
	ck_assert_int_eq(pl_attrs_get_string(d, "zz", &sv, &sl), PL_ENOTFOUND);
	ck_assert_int_eq(pl_attrs_get_string(d, "c", &sv, &sl), PL_ETYPE);
	ck_assert_str_eq(sv, "unchanged");
	ck_assert_uint_eq(sl, 77);
	ck_assert_int_eq(pl_attrs_get_int(d, "d", &iv), PL_OK);
	ck_assert_int_eq(iv, -4);
	ck_assert_int_eq(pl_attrs_get_bool(d, "c", &bv), PL_OK);
	ck_assert(!bv);
	pl_attrs_set_string(d, "s", "str");
	ck_assert_int_eq(pl_attrs_get_string(d, "s", &sv, NULL), PL_OK);
	ck_assert_str_eq(sv, "str");
	ck_assert_int_eq(pl_attrs_get_string(d, "s", &sv, &sl), PL_OK);
	ck_assert_uint_eq(sl, 3);

	/* removing keeps the order of the rest */
	ck_assert_int_eq(pl_attrs_remove(d, "b"), PL_OK);
	ck_assert_int_eq(pl_attrs_remove(d, "b"), PL_ENOTFOUND);
	ck_assert_int_eq(pl_attrs_remove(d, "a"), PL_OK);
	ck_assert_int_eq(pl_attrs_remove(d, "s"), PL_OK);
	const char *left[] = {"c", "d", "e"};
	ck_assert_uint_eq(pl_attrs_count(d), 3);
	for (size_t k = 0; k < 3; k++)
		ck_assert_str_eq(pl_attrs_key_at(d, k), left[k]);
	ck_assert_int_eq(pl_attrs_set_int(d, "a", 1), PL_OK); /* appends again */
	ck_assert_str_eq(pl_attrs_key_at(d, 3), "a");

	/* keys must be KEYs; values must exist */
	ck_assert_int_eq(pl_attrs_set(d, "a.b", pl_attr_int(m, 1)), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set(d, "1a", pl_attr_int(m, 1)), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set(d, "", pl_attr_int(m, 1)), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set(d, NULL, pl_attr_int(m, 1)), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set(d, "ok", NULL), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set_int(d, "a-b", 1), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set_bool(d, "$", true), PL_EINVAL);
	ck_assert_int_eq(pl_attrs_set_string(d, "x y", "v"), PL_EINVAL);
	ck_assert_uint_eq(pl_attrs_count(d), 4);

	/* function attributes, and many keys */
	pl_attrs *fd = pl_func_attrs(f);
	char key[16];
	for (int k = 0; k < 300; k++) {
		snprintf(key, sizeof key, "k%d", k);
		ck_assert_int_eq(pl_attrs_set_int(fd, key, k), PL_OK);
	}
	ck_assert_uint_eq(pl_attrs_count(fd), 300);
	for (int k = 0; k < 300; k += 37) {
		snprintf(key, sizeof key, "k%d", k);
		ck_assert_str_eq(pl_attrs_key_at(fd, (size_t)k), key);
		ck_assert_int_eq(pl_attrs_get_int(fd, key, &iv), PL_OK);
		ck_assert_int_eq(iv, k);
	}
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs(in)), 4);

	char *s = pl_print_inst_string(in);
	ck_assert_str_eq(s, "%0 = acme.x {c = false, d = -4, e = 5, a = 1} : f32[]");
	free(s);
	pl_module_free(m);
}
END_TEST

/* Integers past 32 bits and floats are kept apart from their entries
 * (interned): they read back whole, compare by value, print as they
 * were; a value of another module is made again in the dictionary's,
 * which then no longer needs that module. */
START_TEST(test_attr_wide_values_and_other_modules)
{
	static const int64_t wide[] = {INT64_MIN, INT64_MAX, (int64_t)INT32_MAX + 1,
	                               (int64_t)INT32_MIN - 1, INT32_MAX, INT32_MIN, -1, 0};
	enum { N = sizeof wide / sizeof *wide };
	pl_module *m = pl_module_new(NULL), *other = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_attrs *d = pl_inst_attrs(add(f, "acme.x", NULL, 0));
	char key[16];
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "i%zu", k);
		ck_assert_int_eq(pl_attrs_set_int(d, key, wide[k]), PL_OK);
		int64_t got = 0;
		ck_assert_int_eq(pl_attrs_get_int(d, key, &got), PL_OK);
		ck_assert_int_eq(got, wide[k]);
		ck_assert_int_eq(pl_attr_get_int(pl_attr_int(m, wide[k])), wide[k]);
		ck_assert(pl_attr_equal(pl_attr_int(m, wide[k]), pl_attrs_get(d, key)));
	}
	ck_assert(!pl_attr_equal(pl_attr_int(m, INT64_MAX), pl_attr_int(m, INT64_MIN)));
	const pl_attr *wl = pl_attr_int_list(m, wide, N);
	for (size_t k = 0; k < N; k++)
		ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(wl, k)), wide[k]);
	ck_assert(pl_attr_equal(wl, pl_attr_int_list(m, wide, N)));
	ck_assert(pl_attr_get_float(pl_attr_float(m, 1e300)) == 1e300);
	ck_assert(pl_attr_get_float(pl_attr_float(m, -0.0)) == 0.0);
	ck_assert(signbit(pl_attr_get_float(pl_attr_float(m, -0.0))));

	/* values of another module, scalars, strings and nested lists */
	const pl_attr *ow = pl_attr_int(other, INT64_MIN);
	const pl_attr *of = pl_attr_float(other, 0.125);
	const pl_attr *os = pl_attr_string(other, "far", 3);
	const pl_attr *oelems[] = {ow, of, os};
	const pl_attr *ol = pl_attr_list(other, oelems, 3);
	const pl_attr *onest[] = {ol, os};
	const pl_attr *on = pl_attr_list(other, onest, 2);
	ck_assert_int_eq(pl_attrs_set(d, "ow", ow), PL_OK);
	ck_assert_int_eq(pl_attrs_set(d, "of", of), PL_OK);
	ck_assert_int_eq(pl_attrs_set(d, "os", os), PL_OK);
	ck_assert_int_eq(pl_attrs_set(d, "on", on), PL_OK);
	const pl_attr *here[] = {pl_attr_int(m, 7), ol}; /* a list made of both */
	const pl_attr *mixed = pl_attr_list(m, here, 2);
	ck_assert_ptr_nonnull(mixed);
	ck_assert_int_eq(pl_attrs_set(d, "mx", mixed), PL_OK);
	pl_module_free(other);
	int64_t iv;
	ck_assert_int_eq(pl_attrs_get_int(d, "ow", &iv), PL_OK);
	ck_assert_int_eq(iv, INT64_MIN);
	ck_assert(pl_attr_get_float(pl_attrs_get(d, "of")) == 0.125);
	const char *sv;
	ck_assert_int_eq(pl_attrs_get_string(d, "os", &sv, NULL), PL_OK);
	ck_assert_str_eq(sv, "far");
	char *text = pl_print_inst_string(pl_func_first_inst(f));
	ck_assert_ptr_nonnull(strstr(text, "i0 = -9223372036854775808, i1 = 9223372036854775807, "
	                                   "i2 = 2147483648, i3 = -2147483649, i4 = 2147483647, "
	                                   "i5 = -2147483648, i6 = -1, i7 = 0, ow = "
	                                   "-9223372036854775808, of = 0.125, os = \"far\", "
	                                   "on = [[-9223372036854775808, 0.125, \"far\"], \"far\"], "
	                                   "mx = [7, [-9223372036854775808, 0.125, \"far\"]]}"));
	free(text);
	pl_module_free(m);
}
END_TEST

/* A value may be stored under several keys and instructions; each
 * dictionary holds its own copy of the entry. */
START_TEST(test_attr_shared_values)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	int64_t dom[2] = {8, 128};
	const pl_attr *dv = pl_attr_int_list(m, dom, 2);
	pl_inst *a = add(f, "a", NULL, 0), *b = add(f, "b", NULL, 0);
	pl_attrs_set(pl_inst_attrs(a), "domain", dv);
	pl_attrs_set(pl_inst_attrs(b), "domain", dv);
	pl_attrs_set(pl_inst_attrs(b), "other", dv);
	pl_attrs_set_int(pl_inst_attrs(a), "domain", 3);
	ck_assert_int_eq(pl_attr_get_kind(pl_attrs_get(pl_inst_attrs(b), "domain")), PL_ATTR_LIST);
	ck_assert(pl_attr_equal(pl_attrs_get(pl_inst_attrs(b), "other"), dv));
	pl_module_free(m);
}
END_TEST

/* ---- values and uses -------------------------------------------------------- */

START_TEST(test_values_and_uses)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	pl_value *q = pl_func_add_arg(f, "q", scalar(m));
	ck_assert(pl_value_is_arg(q));
	ck_assert_ptr_null(pl_value_def(q));
	ck_assert_uint_eq(pl_value_index(q), 1);
	ck_assert_ptr_eq(pl_value_func(q), f);

	pl_value *ops[3] = {p, q, p};
	const pl_type *ts[3] = {scalar(m), vec(m, 2), vec(m, 3)};
	pl_inst *a = pl_inst_new(f, "a", ops, 3, ts, 3);
	pl_func_append(f, a);
	pl_value *r2 = pl_inst_result(a, 2);
	ck_assert(!pl_value_is_arg(r2));
	ck_assert_ptr_eq(pl_value_def(r2), a);
	ck_assert_uint_eq(pl_value_index(r2), 2);
	ck_assert_ptr_eq(pl_value_func(r2), f);
	ck_assert_ptr_eq(pl_value_type(r2), ts[2]);

	/* uses: p at operands 0 and 2 of a, q at 1 */
	ck_assert_uint_eq(pl_value_num_uses(p), 2);
	ck_assert_uint_eq(pl_value_num_uses(q), 1);
	ck_assert(pl_value_has_uses(p));
	ck_assert(!pl_value_has_uses(r2));
	ck_assert_ptr_null(pl_value_first_use(r2));
	unsigned seen = 0;
	for (pl_use *u = pl_value_first_use(p); u; u = pl_use_next(u)) {
		ck_assert_ptr_eq(pl_use_user(u), a);
		size_t k = pl_use_operand_index(u);
		ck_assert(k == 0 || k == 2);
		ck_assert_ptr_eq(pl_inst_operand(a, k), p);
		seen |= 1u << k;
	}
	ck_assert_uint_eq(seen, 5);
	pl_use *uq = pl_value_first_use(q);
	ck_assert_uint_eq(pl_use_operand_index(uq), 1);
	ck_assert_ptr_null(pl_use_next(uq));

	/* names */
	ck_assert_int_eq(pl_value_set_name(r2, "r.2$-x"), PL_OK);
	ck_assert_str_eq(pl_value_name(r2), "r.2$-x");
	ck_assert_int_eq(pl_value_set_name(r2, "bad name"), PL_EINVAL);
	ck_assert_int_eq(pl_value_set_name(r2, ""), PL_EINVAL);
	ck_assert_int_eq(pl_value_set_name(r2, NULL), PL_EINVAL);
	ck_assert_int_eq(pl_value_set_name(r2, "%r"), PL_EINVAL);
	ck_assert_str_eq(pl_value_name(r2), "r.2$-x");
	pl_module_free(m);
}
END_TEST

START_TEST(test_set_operand)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	pl_value *q = pl_func_add_arg(f, "q", scalar(m));
	pl_value *ops[3] = {p, p, p};
	pl_inst *a = add(f, "a", ops, 3);
	pl_inst *b = add(f, "b", &p, 1);
	ck_assert_uint_eq(pl_value_num_uses(p), 4);

	pl_inst_set_operand(a, 1, q);
	ck_assert_ptr_eq(pl_inst_operand(a, 1), q);
	ck_assert_uint_eq(pl_value_num_uses(p), 3);
	ck_assert_uint_eq(pl_value_num_uses(q), 1);
	ck_assert_ptr_eq(pl_use_user(pl_value_first_use(q)), a);
	ck_assert_uint_eq(pl_use_operand_index(pl_value_first_use(q)), 1);
	/* every remaining use of p is a real operand equal to p */
	size_t n = 0;
	for (pl_use *u = pl_value_first_use(p); u; u = pl_use_next(u), n++)
		ck_assert_ptr_eq(pl_inst_operand(pl_use_user(u), pl_use_operand_index(u)), p);
	ck_assert_uint_eq(n, 3);

	/* the same value again; then the first and last operand */
	pl_inst_set_operand(a, 1, q);
	ck_assert_uint_eq(pl_value_num_uses(q), 1);
	pl_inst_set_operand(b, 0, q);
	pl_inst_set_operand(a, 2, res(b));
	ck_assert_uint_eq(pl_value_num_uses(p), 1);
	ck_assert_uint_eq(pl_value_num_uses(q), 2);
	ck_assert_uint_eq(pl_value_num_uses(res(b)), 1);
	/* out of range and NULL are ignored */
	pl_inst_set_operand(a, 3, q);
	pl_inst_set_operand(a, 0, NULL);
	ck_assert_ptr_eq(pl_inst_operand(a, 0), p);
	ck_assert_uint_eq(pl_value_num_uses(q), 2);
	/* use lists survive unlinking from the middle */
	pl_inst_set_operand(a, 0, q);
	ck_assert_uint_eq(pl_value_num_uses(p), 0);
	ck_assert_uint_eq(pl_value_num_uses(q), 3);
	/* another module's value is ignored */
	pl_module *m2 = pl_module_new(NULL);
	pl_value *other = pl_func_add_arg(pl_func_new(m2, "g"), "o", scalar(m2));
	pl_inst_set_operand(a, 0, other);
	ck_assert_ptr_eq(pl_inst_operand(a, 0), q);
	ck_assert_uint_eq(pl_value_num_uses(q), 3);
	ck_assert(!pl_value_has_uses(other));
	pl_module_free(m2);
	pl_module_free(m);
}
END_TEST

START_TEST(test_value_replace)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_value *p = pl_func_add_arg(f, "p", scalar(m));
	pl_inst *old = add(f, "old", &p, 1);
	pl_value *from = res(old);
	pl_value_set_name(from, "a");
	pl_value *two[2] = {from, from};
	pl_inst *u1 = add(f, "u1", two, 2);
	pl_inst *u2 = add(f, "u2", &from, 1);
	pl_inst *nw = pl_inst_new(f, "new", &p, 1, (const pl_type *const[]){scalar(m)}, 1);
	pl_inst_insert_after(nw, old);
	pl_value *to = res(nw);
	ck_assert_ptr_null(pl_value_name(to));

	pl_value_replace(from, to);
	ck_assert_uint_eq(pl_value_num_uses(from), 0);
	ck_assert_uint_eq(pl_value_num_uses(to), 3);
	ck_assert_ptr_eq(pl_inst_operand(u1, 0), to);
	ck_assert_ptr_eq(pl_inst_operand(u1, 1), to);
	ck_assert_ptr_eq(pl_inst_operand(u2, 0), to);
	/* the name moves with the uses */
	ck_assert_str_eq(pl_value_name(to), "a");
	ck_assert_ptr_null(pl_value_name(from));
	char *s = print_module(m);
	ck_assert_str_eq(s, "func @f(%p: f32[]) {\n"
	                    "  %0 = old %p : f32[]\n"
	                    "  %a = new %p : f32[]\n"
	                    "  %1 = u1 %a, %a : f32[]\n"
	                    "  %2 = u2 %a : f32[]\n"
	                    "}\n");
	free(s);
	ck_assert_int_eq(pl_inst_erase(old), PL_OK);

	/* a value with a name of its own keeps it */
	pl_value_replace(to, p);
	ck_assert_str_eq(pl_value_name(p), "p");
	ck_assert_str_eq(pl_value_name(to), "a");
	ck_assert_uint_eq(pl_value_num_uses(p), 4);
	/* replacing a value by itself changes nothing */
	pl_value_replace(p, p);
	ck_assert_uint_eq(pl_value_num_uses(p), 4);
	/* nor by another module's value, or the other way round */
	pl_module *m2 = pl_module_new(NULL);
	pl_value *other = pl_func_add_arg(pl_func_new(m2, "g"), "o", scalar(m2));
	pl_inst *uses_other = add(pl_value_func(other), "u", &other, 1);
	pl_value_replace(p, other);
	pl_value_replace(other, p);
	ck_assert_uint_eq(pl_value_num_uses(p), 4);
	ck_assert_ptr_eq(pl_inst_operand(uses_other, 0), other);
	ck_assert_uint_eq(pl_value_num_uses(other), 1);
	pl_module_free(m2);
	pl_module_free(m);
}
END_TEST

/* ---- positions ---------------------------------------------------------------- */

static void check_positions(pl_func *f)
{
	pl_inst *prev = NULL;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		if (prev) {
			ck_assert(pl_inst_comes_before(prev, i));
			ck_assert(!pl_inst_comes_before(i, prev));
			ck_assert_uint_lt(pl_inst_position(prev), pl_inst_position(i));
		}
		prev = i;
	}
}

START_TEST(test_positions_many_inserts)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_inst *first = add(f, "first", NULL, 0);
	pl_inst *last = add(f, "last", NULL, 0);
	/* 10,000 inserts right after the first instruction: the gaps run out
	 * and the function is renumbered, again and again */
	pl_inst *prev_new = NULL;
	for (int k = 0; k < 10000; k++) {
		pl_inst *i = pl_inst_new(f, "x", NULL, 0, NULL, 0);
		pl_inst_insert_after(i, first);
		/* query as we go: each new one precedes the one before it */
		if (prev_new && k % 3 == 0) {
			ck_assert(pl_inst_comes_before(i, prev_new));
			ck_assert(pl_inst_comes_before(first, i));
			ck_assert(pl_inst_comes_before(prev_new, last));
		}
		prev_new = i;
	}
	ck_assert_uint_eq(pl_func_num_insts(f), 10002);
	check_positions(f);
	/* and without queries in between: 10,000 more before the last */
	for (int k = 0; k < 10000; k++) {
		pl_inst *i = pl_inst_new(f, "y", NULL, 0, NULL, 0);
		pl_inst_insert_before(i, last);
	}
	check_positions(f);
	/* after moves */
	pl_inst_move_after(last, first);
	pl_inst_move_before(first, pl_func_last_inst(f));
	ck_assert(pl_inst_comes_before(last, first));
	check_positions(f);
	/* an explicit renumber keeps the order */
	pl_func_renumber(f);
	check_positions(f);
	ck_assert(pl_inst_comes_before(pl_func_first_inst(f), pl_func_last_inst(f)));
	pl_module_free(m);
}
END_TEST

START_TEST(test_positions_prepend_and_interleave)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_inst *anchor = add(f, "anchor", NULL, 0);
	/* always at the very front */
	for (int k = 0; k < 3000; k++) {
		pl_inst *i = pl_inst_new(f, "p", NULL, 0, NULL, 0);
		pl_inst_insert_before(i, pl_func_first_inst(f));
		ck_assert(pl_inst_comes_before(i, anchor));
	}
	/* always at the end, and moving the first to the end */
	for (int k = 0; k < 3000; k++) {
		add(f, "q", NULL, 0);
		pl_inst_move_after(pl_func_first_inst(f), pl_func_last_inst(f));
		ck_assert(pl_inst_comes_before(anchor, pl_func_last_inst(f)));
	}
	check_positions(f);
	pl_module_free(m);
}
END_TEST

/* Random insertions, moves, erasures and appends, checking after each
 * edit, without a query that could renumber, that the numbers increase
 * along the list: every edit keeps them current. */
START_TEST(test_positions_random_edits)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	enum { MAX = 4096 };
	pl_inst *linked[MAX];
	size_t n = 0;
	uint64_t seed = 0x9e3779b97f4a7c15u;
	for (int step = 0; step < 60000; step++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		unsigned what = (unsigned)(seed % 8);
		pl_inst *at = n ? linked[(seed >> 8) % n] : NULL;
		pl_inst *changed;
		if (!n || (what < 4 && n < MAX)) { /* insert before or after, or append */
			changed = pl_inst_new(f, "x", NULL, 0, NULL, 0);
			pl_where where = !n ? PL_LAST : what == 0 ? PL_BEFORE : what == 1 ? PL_AFTER
			                                 : what == 2 ? PL_LAST : PL_FIRST;
			ck_assert_int_eq(pl_inst_insert(changed, where == PL_BEFORE || where == PL_AFTER
			                                                 ? at : NULL, where),
			                 PL_OK);
			linked[n++] = changed;
		} else if (what < 7 && n > 1) { /* move next to another */
			pl_inst *to = linked[(seed >> 24) % n];
			if (to == at)
				continue;
			ck_assert_int_eq(pl_inst_move(at, to, what == 4 ? PL_BEFORE : PL_AFTER), PL_OK);
			changed = at;
		} else { /* erase */
			size_t k = (seed >> 8) % n;
			ck_assert_int_eq(pl_inst_erase(linked[k]), PL_OK);
			linked[k] = linked[--n];
			continue;
		}
		uint64_t p, q;
		ck_assert_int_eq(pl_inst_get_position(&p, changed), PL_OK);
		if (pl_inst_prev(changed)) {
			ck_assert_int_eq(pl_inst_get_position(&q, pl_inst_prev(changed)), PL_OK);
			ck_assert_uint_lt(q, p);
		}
		if (pl_inst_next(changed)) {
			ck_assert_int_eq(pl_inst_get_position(&q, pl_inst_next(changed)), PL_OK);
			ck_assert_uint_gt(q, p);
		}
		if (step % 1000 == 0) {
			uint64_t last = 0;
			for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
				ck_assert_int_eq(pl_inst_get_position(&p, i), PL_OK);
				ck_assert_uint_gt(p, last);
				last = p;
			}
		}
	}
	check_positions(f);
	pl_module_free(m);
}
END_TEST

/* Appends after a renumbering that filled the whole range: the appends
 * soon find no room at the end, and the function is numbered again over
 * the lower half of the range, again and again as it grows. */
START_TEST(test_positions_appends_after_renumber)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	for (int k = 0; k < 1000; k++)
		add(f, "a", NULL, 0);
	pl_func_renumber(f);
	check_positions(f);
	for (int k = 0; k < 200000; k++) {
		pl_inst *i = pl_inst_new(f, "b", NULL, 0, NULL, 0);
		pl_func_append(f, i);
		uint64_t p, q;
		ck_assert_int_eq(pl_inst_get_position(&p, i), PL_OK);
		ck_assert_int_eq(pl_inst_get_position(&q, pl_inst_prev(i)), PL_OK);
		ck_assert_uint_lt(q, p);
	}
	ck_assert_uint_eq(pl_func_num_insts(f), 201000);
	check_positions(f);
	pl_module_free(m);
}
END_TEST

/* ---- types -------------------------------------------------------------------- */

START_TEST(test_types)
{
	pl_module *m = pl_module_new(NULL);
	int64_t d1[3] = {2, 3, 4}, d2[3] = {2, 3, 4}, d3[3] = {2, 3, 5};
	const pl_type *a = pl_type_get(m, PL_DTYPE_BF16, d1, 3);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_eq(pl_type_get(m, PL_DTYPE_BF16, d2, 3), a); /* interned */
	ck_assert_ptr_ne(pl_type_get(m, PL_DTYPE_F16, d1, 3), a);
	ck_assert_ptr_ne(pl_type_get(m, PL_DTYPE_BF16, d3, 3), a);
	ck_assert_ptr_ne(pl_type_get(m, PL_DTYPE_BF16, d1, 2), a);
	ck_assert_ptr_eq(pl_type_get(m, PL_DTYPE_F32, NULL, 0), pl_type_get(m, PL_DTYPE_F32, d1, 0));
	ck_assert_ptr_ne(pl_type_get(m, PL_DTYPE_F32, NULL, 0), pl_type_get(m, PL_DTYPE_I32, NULL, 0));
	int64_t one = 1;
	ck_assert_ptr_ne(pl_type_get(m, PL_DTYPE_F32, NULL, 0), pl_type_get(m, PL_DTYPE_F32, &one, 1));
	ck_assert_int_eq(pl_type_dtype(a), PL_DTYPE_BF16);
	ck_assert_uint_eq(pl_type_rank(a), 3);
	ck_assert_int_eq(pl_type_dim(a, 2), 4);
	ck_assert_int_eq(pl_type_dim(a, 3), 0);
	/* many distinct types (the intern table grows) stay distinct */
	const pl_type *seen[500];
	for (int64_t k = 0; k < 500; k++)
		seen[k] = pl_type_get(m, PL_DTYPE_U8, &k, 1);
	for (int64_t k = 0; k < 500; k++) {
		ck_assert_ptr_eq(pl_type_get(m, PL_DTYPE_U8, &k, 1), seen[k]);
		ck_assert_int_eq(pl_type_dim(seen[k], 0), k);
	}

	/* invalid types */
	int64_t neg[2] = {2, -1};
	ck_assert_ptr_null(pl_type_get(m, PL_DTYPE_F32, neg, 2));
	ck_assert_ptr_null(pl_type_get(m, PL_DTYPE_INVALID, d1, 1));
	ck_assert_ptr_null(pl_type_get(m, PL_DTYPE__COUNT, d1, 1));
	int64_t ones[PL_MAX_RANK + 1];
	for (int k = 0; k <= PL_MAX_RANK; k++)
		ones[k] = 1;
	ck_assert_ptr_nonnull(pl_type_get(m, PL_DTYPE_F32, ones, PL_MAX_RANK));
	ck_assert_ptr_null(pl_type_get(m, PL_DTYPE_F32, ones, PL_MAX_RANK + 1));

	/* element and byte counts */
	uint64_t n = 12345;
	ck_assert_int_eq(pl_type_num_elements(a, &n), PL_OK);
	ck_assert_uint_eq(n, 24);
	ck_assert_int_eq(pl_type_num_bytes(a, &n), PL_OK);
	ck_assert_uint_eq(n, 48);
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_F64, NULL, 0), &n), PL_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F64, NULL, 0), &n), PL_OK);
	ck_assert_uint_eq(n, 8);
	int64_t zero[3] = {INT64_MAX, 0, INT64_MAX};
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_F64, zero, 3), &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F64, zero, 3), &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	int64_t max1[1] = {INT64_MAX};
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_I8, max1, 1), &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)INT64_MAX);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_I8, max1, 1), &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)INT64_MAX);
	/* overflow: *out unchanged */
	n = 777;
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_I16, max1, 1), &n), PL_EOVERFLOW);
	ck_assert_uint_eq(n, 777);
	int64_t big[2] = {4294967296, 4294967296}; /* 2^64 elements */
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_I8, big, 2), &n), PL_EOVERFLOW);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_I8, big, 2), &n), PL_EOVERFLOW);
	ck_assert_uint_eq(n, 777);
	int64_t edge[2] = {2, 4611686018427387904}; /* 2^63 elements: one past */
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_I8, edge, 2), &n), PL_EOVERFLOW);
	int64_t fits[2] = {3, 3074457345618258602}; /* INT64_MAX - 1 */
	ck_assert_int_eq(pl_type_num_elements(pl_type_get(m, PL_DTYPE_I8, fits, 2), &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)INT64_MAX - 1);
	int64_t fourth[1] = {INT64_MAX / 4 + 1}; /* bytes of f32: one past */
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F32, fourth, 1), &n), PL_EOVERFLOW);
	fourth[0] = INT64_MAX / 4;
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F32, fourth, 1), &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)(INT64_MAX / 4) * 4);
	pl_module_free(m);
}
END_TEST

/* ---- op and dtype tables -------------------------------------------------------- */

START_TEST(test_op_table)
{
	enum { SE = PL_TRAIT_SIDE_EFFECTS };
	static const struct {
		const char *name;
		pl_op op;
		unsigned traits;
		int64_t flops;
	} ops[] = {
		{"all_gather", PL_OP_ALL_GATHER, PL_TRAIT_COLLECTIVE | SE, 0},
		{"all_reduce", PL_OP_ALL_REDUCE, PL_TRAIT_COLLECTIVE | PL_TRAIT_REDUCING | SE, 0},
		{"reduce_scatter", PL_OP_REDUCE_SCATTER,
		 PL_TRAIT_COLLECTIVE | PL_TRAIT_REDUCING | SE, 0},
		{"tensor_contract", PL_OP_TENSOR_CONTRACT, PL_TRAIT_CONTRACT, 2},
		{"affine_load", PL_OP_AFFINE_LOAD, PL_TRAIT_LOAD | PL_TRAIT_AFFINE, 0},
		{"affine_store", PL_OP_AFFINE_STORE, PL_TRAIT_STORE | PL_TRAIT_AFFINE | SE, 0},
		{"generic_load", PL_OP_GENERIC_LOAD, PL_TRAIT_LOAD, 0},
		{"generic_store", PL_OP_GENERIC_STORE, PL_TRAIT_STORE | SE, 0},
		{"reduce", PL_OP_REDUCE, PL_TRAIT_REDUCE_LIKE, 1},
		{"rms_norm", PL_OP_RMS_NORM, PL_TRAIT_REDUCE_LIKE, 1},
		{"pack", PL_OP_PACK, PL_TRAIT_DATA_MOVEMENT, 0},
		{"unpack", PL_OP_UNPACK, PL_TRAIT_DATA_MOVEMENT, 0},
		{"return", PL_OP_RETURN, PL_TRAIT_TERMINATOR | SE, 0},
		{"all_gather_start", PL_OP_ALL_GATHER_START, PL_TRAIT_COLLECTIVE_START | SE, 0},
		{"all_gather_done", PL_OP_ALL_GATHER_DONE, PL_TRAIT_COLLECTIVE_DONE | SE, 0},
		{"reduce_scatter_start", PL_OP_REDUCE_SCATTER_START,
		 PL_TRAIT_COLLECTIVE_START | PL_TRAIT_REDUCING | SE, 0},
		{"reduce_scatter_done", PL_OP_REDUCE_SCATTER_DONE, PL_TRAIT_COLLECTIVE_DONE | SE, 0},
		{"all_reduce_start", PL_OP_ALL_REDUCE_START,
		 PL_TRAIT_COLLECTIVE_START | PL_TRAIT_REDUCING | SE, 0},
		{"all_reduce_done", PL_OP_ALL_REDUCE_DONE, PL_TRAIT_COLLECTIVE_DONE | SE, 0},
	};
	size_t n = sizeof ops / sizeof *ops;
	ck_assert_int_eq(PL_OP__COUNT, (int)n + 1); /* the table has exactly these */
	ck_assert_uint_eq(pl_op_count(), PL_OP__COUNT);
	ck_assert_uint_eq(pl_dtype_count(), PL_DTYPE__COUNT);
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	for (size_t k = 0; k < n; k++) {
		ck_assert_int_eq(pl_op_from_name(ops[k].name), ops[k].op);
		ck_assert_str_eq(pl_op_name(ops[k].op), ops[k].name);
		ck_assert_uint_eq(pl_op_traits(ops[k].op), ops[k].traits);
		ck_assert_int_eq(pl_op_default_flops(ops[k].op), ops[k].flops);
		pl_inst *i = pl_inst_new(f, ops[k].name, NULL, 0, NULL, 0);
		ck_assert_int_eq(pl_inst_op(i), ops[k].op);
		ck_assert_uint_eq(pl_inst_traits(i), ops[k].traits);
		int64_t fl = -1;
		ck_assert_int_eq(pl_inst_flops(i, &fl), PL_OK);
		ck_assert_int_eq(fl, ops[k].flops);
	}
	/* anything else: PL_OP_OTHER, no traits, 1 flop */
	const char *others[] = {"acme.fused_gelu", "all_gather2", "all", "Return", "", "reduce.x"};
	for (size_t k = 0; k < sizeof others / sizeof *others; k++) {
		ck_assert_int_eq(pl_op_from_name(others[k]), PL_OP_OTHER);
	}
	ck_assert_int_eq(pl_op_from_name(NULL), PL_OP_OTHER);
	ck_assert_ptr_null(pl_op_name(PL_OP_OTHER));
	ck_assert_ptr_null(pl_op_name(PL_OP__COUNT));
	ck_assert_ptr_null(pl_op_name((pl_op)-1));
	ck_assert_uint_eq(pl_op_traits(PL_OP_OTHER), 0);
	ck_assert_uint_eq(pl_op_traits(PL_OP__COUNT), 0);
	ck_assert_int_eq(pl_op_default_flops(PL_OP_OTHER), PL_OTHER_OP_FLOPS);
	ck_assert_int_eq(PL_OTHER_OP_FLOPS, 1);
	pl_inst *other = pl_inst_new(f, "acme.fused_gelu", NULL, 0, NULL, 0);
	ck_assert_int_eq(pl_inst_op(other), PL_OP_OTHER);
	int64_t fl = -1;
	ck_assert_int_eq(pl_inst_flops(other, &fl), PL_OK);
	ck_assert_int_eq(fl, 1);
	/* the flops attribute overrides the table; a bad one is PL_ETYPE */
	pl_attrs_set_int(pl_inst_attrs(other), "flops", 12);
	ck_assert_int_eq(pl_inst_flops(other, &fl), PL_OK);
	ck_assert_int_eq(fl, 12);
	pl_attrs_set_int(pl_inst_attrs(other), "flops", 0);
	ck_assert_int_eq(pl_inst_flops(other, &fl), PL_OK);
	ck_assert_int_eq(fl, 0);
	fl = 5;
	pl_attrs_set_int(pl_inst_attrs(other), "flops", -1);
	ck_assert_int_eq(pl_inst_flops(other, &fl), PL_ETYPE);
	pl_attrs_set_string(pl_inst_attrs(other), "flops", "2");
	ck_assert_int_eq(pl_inst_flops(other, &fl), PL_ETYPE);
	ck_assert_int_eq(fl, 5);
	pl_module_free(m);
}
END_TEST

START_TEST(test_dtype_table)
{
	static const struct {
		const char *name;
		pl_dtype dt;
		unsigned size;
	} dts[] = {
		{"bool", PL_DTYPE_BOOL, 1},     {"i8", PL_DTYPE_I8, 1},       {"u8", PL_DTYPE_U8, 1},
		{"f8e4m3", PL_DTYPE_F8E4M3, 1}, {"f8e5m2", PL_DTYPE_F8E5M2, 1}, {"i16", PL_DTYPE_I16, 2},
		{"u16", PL_DTYPE_U16, 2},       {"f16", PL_DTYPE_F16, 2},     {"bf16", PL_DTYPE_BF16, 2},
		{"i32", PL_DTYPE_I32, 4},       {"u32", PL_DTYPE_U32, 4},     {"f32", PL_DTYPE_F32, 4},
		{"i64", PL_DTYPE_I64, 8},       {"u64", PL_DTYPE_U64, 8},     {"f64", PL_DTYPE_F64, 8},
		{"s4", PL_DTYPE_S4, 1},         {"u4", PL_DTYPE_U4, 1},       {"s2", PL_DTYPE_S2, 1},
		{"u2", PL_DTYPE_U2, 1},         {"s1", PL_DTYPE_S1, 1},       {"u1", PL_DTYPE_U1, 1},
		{"f8e4m3fn", PL_DTYPE_F8E4M3FN, 1}, {"f8e4m3fnuz", PL_DTYPE_F8E4M3FNUZ, 1},
		{"f8e5m2fnuz", PL_DTYPE_F8E5M2FNUZ, 1}, {"f8e4m3b11fnuz", PL_DTYPE_F8E4M3B11FNUZ, 1},
		{"f8e3m4", PL_DTYPE_F8E3M4, 1}, {"f8e8m0fnu", PL_DTYPE_F8E8M0FNU, 1},
		{"f4e2m1fn", PL_DTYPE_F4E2M1FN, 1}, {"f6e3m2fn", PL_DTYPE_F6E3M2FN, 1},
		{"f6e2m3fn", PL_DTYPE_F6E2M3FN, 1}, {"c64", PL_DTYPE_C64, 8},
		{"c128", PL_DTYPE_C128, 16},    {"token", PL_DTYPE_TOKEN, 0}, {"opaque", PL_DTYPE_OPAQUE, 0},
	};
	size_t n = sizeof dts / sizeof *dts;
	ck_assert_int_eq(PL_DTYPE__COUNT, (int)n + 1);
	for (size_t k = 0; k < n; k++) {
		ck_assert_int_eq(pl_dtype_from_name(dts[k].name, strlen(dts[k].name)), dts[k].dt);
		ck_assert_str_eq(pl_dtype_name(dts[k].dt), dts[k].name);
		ck_assert_uint_eq(pl_dtype_size(dts[k].dt), dts[k].size);
	}
	/* only the first len bytes count */
	ck_assert_int_eq(pl_dtype_from_name("f32[4]", 3), PL_DTYPE_F32);
	ck_assert_int_eq(pl_dtype_from_name("f3", 2), PL_DTYPE_INVALID);
	ck_assert_int_eq(pl_dtype_from_name("f32", 2), PL_DTYPE_INVALID);
	ck_assert_int_eq(pl_dtype_from_name("bf16x", 5), PL_DTYPE_INVALID);
	ck_assert_int_eq(pl_dtype_from_name("F32", 3), PL_DTYPE_INVALID);
	ck_assert_int_eq(pl_dtype_from_name("", 0), PL_DTYPE_INVALID);
	ck_assert_ptr_null(pl_dtype_name(PL_DTYPE_INVALID));
	ck_assert_ptr_null(pl_dtype_name(PL_DTYPE__COUNT));
	ck_assert_uint_eq(pl_dtype_size(PL_DTYPE_INVALID), 0);
	ck_assert_uint_eq(pl_dtype_size(PL_DTYPE__COUNT), 0);
}
END_TEST

/* Sub-byte element types: a tensor's bytes are its bits rounded up. */
START_TEST(test_dtype_bits)
{
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_S4), 4);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_F4E2M1FN), 4);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_F6E2M3FN), 6);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_U1), 1);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_BF16), 16);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_C128), 128);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_TOKEN), 0);
	ck_assert_uint_eq(pl_dtype_bits(PL_DTYPE_INVALID), 0);
	pl_module *m = pl_module_new(NULL);
	int64_t three = 3, eight = 8, big = INT64_MAX / 2;
	uint64_t b;
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_S4, &three, 1), &b), PL_OK);
	ck_assert_uint_eq(b, 2);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_U1, &eight, 1), &b), PL_OK);
	ck_assert_uint_eq(b, 1);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F6E3M2FN, &three, 1), &b), PL_OK);
	ck_assert_uint_eq(b, 3); /* 18 bits */
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_TOKEN, NULL, 0), &b), PL_OK);
	ck_assert_uint_eq(b, 0);
	/* past INT64_MAX / bits elements the count is still exact */
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_S4, &big, 1), &b), PL_OK);
	ck_assert_uint_eq(b, ((uint64_t)big + 1) / 2); /* big is odd */
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F64, &big, 1), &b), PL_EOVERFLOW);
	pl_module_free(m);
}
END_TEST

START_TEST(test_status_strings)
{
	ck_assert_str_eq(pl_status_string(PL_OK), "success");
	ck_assert_str_eq(pl_status_string(PL_ENOMEM), "out of memory");
	ck_assert_str_eq(pl_status_string(PL_EPARSE), "syntax error");
	ck_assert_str_eq(pl_status_string(PL_EOVERFLOW), "value too large");
	ck_assert_str_eq(pl_status_string(PL_ELIMIT), "limit exceeded");
	ck_assert_str_eq(pl_status_string(12345), "unknown status");
	/* every status has its own text */
	for (int a = PL_ELIMIT; a <= PL_OK; a++)
		for (int b = a + 1; b <= PL_OK; b++)
			ck_assert_str_ne(pl_status_string(a), pl_status_string(b));
	ck_assert_str_eq(pl_version(), PL_VERSION_STRING);
}
END_TEST

/* ---- derived counts ---------------------------------------------------------------- */

START_TEST(test_num_dynamic_instances_precedence)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	int64_t d67[2] = {6, 7}, d35[2] = {3, 5};
	pl_value *arg = pl_func_add_arg(f, "a", pl_type_get(m, PL_DTYPE_F32, d67, 2));
	const pl_type *rt = pl_type_get(m, PL_DTYPE_F32, d35, 2);
	pl_inst *i = pl_inst_new(f, "acme.x", &arg, 1, &rt, 1);
	pl_attrs *d = pl_inst_attrs(i);
	uint64_t n = 0;
	int64_t dom[3] = {2, 3, 4};

	/* 1. the attribute, over everything */
	pl_attrs_set(d, "domain", pl_attr_int_list(m, dom, 3));
	pl_attrs_set_int(d, "num_dynamic_instances", 11);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(i, &n), PL_OK);
	ck_assert_uint_eq(n, 11);
	pl_attrs_set_int(d, "num_dynamic_instances", 0);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(i, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	/* 2. the product of domain */
	pl_attrs_remove(d, "num_dynamic_instances");
	ck_assert_int_eq(pl_inst_num_dynamic_instances(i, &n), PL_OK);
	ck_assert_uint_eq(n, 24);
	pl_attrs_set(d, "domain", pl_attr_int_list(m, NULL, 0));
	ck_assert_int_eq(pl_inst_num_dynamic_instances(i, &n), PL_OK);
	ck_assert_uint_eq(n, 1);
	/* 3. elements of result 0 */
	pl_attrs_remove(d, "domain");
	ck_assert_int_eq(pl_inst_num_dynamic_instances(i, &n), PL_OK);
	ck_assert_uint_eq(n, 15);
	/* 4. elements of operand 0 */
	pl_inst *noresult = pl_inst_new(f, "acme.y", &arg, 1, NULL, 0);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(noresult, &n), PL_OK);
	ck_assert_uint_eq(n, 42);
	/* 5. one */
	pl_inst *bare = pl_inst_new(f, "acme.z", NULL, 0, NULL, 0);
	n = 0;
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_OK);
	ck_assert_uint_eq(n, 1);
	/* a scalar result counts 1 */
	const pl_type *st = scalar(m);
	pl_inst *sc = pl_inst_new(f, "acme.s", &arg, 1, &st, 1);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(sc, &n), PL_OK);
	ck_assert_uint_eq(n, 1);

	/* overflow and malformed attributes */
	int64_t huge[2] = {4611686018427387904, 2};
	pl_attrs_set(pl_inst_attrs(bare), "domain", pl_attr_int_list(m, huge, 2));
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_EOVERFLOW);
	int64_t huge0[3] = {4611686018427387904, 2, 0};
	pl_attrs_set(pl_inst_attrs(bare), "domain", pl_attr_int_list(m, huge0, 3));
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_OK);
	ck_assert_uint_eq(n, 0);
	int64_t maxd[1] = {INT64_MAX};
	pl_attrs_set(pl_inst_attrs(bare), "domain", pl_attr_int_list(m, maxd, 1));
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_OK);
	ck_assert_uint_eq(n, (uint64_t)INT64_MAX);
	int64_t negd[2] = {3, -1};
	pl_attrs_set(pl_inst_attrs(bare), "domain", pl_attr_int_list(m, negd, 2));
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_ETYPE);
	pl_attrs_set_int(pl_inst_attrs(bare), "domain", 4);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_ETYPE);
	pl_attrs_set_int(pl_inst_attrs(bare), "num_dynamic_instances", -1);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_ETYPE);
	pl_attrs_set_bool(pl_inst_attrs(bare), "num_dynamic_instances", true);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bare, &n), PL_ETYPE);
	int64_t big[2] = {4294967296, 4294967296};
	const pl_type *bt = pl_type_get(m, PL_DTYPE_I8, big, 2);
	pl_inst *bigres = pl_inst_new(f, "acme.b", NULL, 0, &bt, 1);
	ck_assert_int_eq(pl_inst_num_dynamic_instances(bigres, &n), PL_EOVERFLOW);
	pl_module_free(m);
}
END_TEST

/* ---- printing built IR ---------------------------------------------------------------- */

START_TEST(test_print_names_built)
{
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "names");
	const pl_type *t = scalar(m);
	pl_value *x = pl_func_add_arg(f, "x", t);
	pl_value *u = pl_func_add_arg(f, NULL, t);
	pl_value *x2 = pl_func_add_arg(f, "x", t);
	const pl_type *t2[2] = {t, t};
	pl_value *ops_a[3] = {x, u, x2};
	pl_inst *a = pl_inst_new(f, "acme.a", ops_a, 3, t2, 2);
	pl_func_append(f, a);
	pl_value_set_name(pl_inst_result(a, 1), "v");
	pl_value *ops_b[1] = {pl_inst_result(a, 0)};
	pl_inst *b = pl_inst_new(f, "acme.b", ops_b, 1, t2, 2);
	pl_func_append(f, b);
	pl_value_set_name(pl_inst_result(b, 0), "v");
	pl_value_set_name(pl_inst_result(b, 1), "0");
	pl_value *ops_c[2] = {pl_inst_result(b, 0), pl_inst_result(b, 1)};
	pl_inst *c = pl_inst_new(f, "acme.c", ops_c, 2, &t, 1);
	pl_func_append(f, c);
	pl_inst *d = pl_inst_new(f, "acme.d", NULL, 0, &t, 1);
	pl_func_append(f, d);
	pl_value_set_name(pl_inst_result(d, 0), "x.1");

	/* The first holder of a name keeps it; a later one gets NAME.N, the
	 * lowest N free (x.1 is taken by acme.d); unnamed values get the
	 * lowest free number in order (0 is taken by acme.b). */
	const char *want = "func @names(%x: f32[], %1: f32[], %x.2: f32[]) {\n"
	                   "  %2, %v = acme.a %x, %1, %x.2 : (f32[], f32[])\n"
	                   "  %v.1, %0 = acme.b %2 : (f32[], f32[])\n"
	                   "  %3 = acme.c %v.1, %0 : f32[]\n"
	                   "  %x.1 = acme.d : f32[]\n"
	                   "}\n";
	char *s = print_module(m);
	ck_assert_str_eq(s, want);
	free(s);
	/* the names are kept: printing again is the same, and so is a
	 * round trip through the reader */
	ck_assert_str_eq(pl_value_name(u), "1");
	ck_assert_str_eq(pl_value_name(x2), "x.2");
	s = print_module(m);
	ck_assert_str_eq(s, want);
	pl_diags *dg;
	pl_module *m2 = tu_parse(s, &dg);
	ck_assert_ptr_nonnull(m2);
	ck_assert_int_eq(pl_verify_module(m2, dg), PL_OK);
	char *s2 = print_module(m2);
	ck_assert_str_eq(s2, want);
	free(s2);
	free(s);
	pl_module_free(m2);
	pl_diags_free(dg);

	/* a fresh, deterministic module built the same way prints the same */
	pl_module_free(m);
}
END_TEST

START_TEST(test_print_names_after_late_link)
{
	/* an instruction created, then something printed, then the
	 * instruction linked: its result must still get a name (it used to
	 * print as "%<unnamed>") */
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	const pl_type *t = scalar(m);
	pl_inst *a = pl_inst_new(f, "acme.a", NULL, 0, &t, 1);
	pl_func_append(f, a);
	pl_inst *b = pl_inst_new(f, "acme.b", NULL, 0, &t, 1);
	pl_inst *c = pl_inst_clone(a);
	char *s = pl_print_inst_string(a);
	ck_assert_str_eq(s, "%0 = acme.a : f32[]");
	free(s);
	pl_func_append(f, b);
	pl_inst_insert_before(c, a);
	s = print_module(m);
	ck_assert_str_eq(s, "func @f() {\n  %1 = acme.a : f32[]\n  %0 = acme.a : f32[]\n  %2 = acme.b : f32[]\n}\n");
	free(s);
	/* and for a whole-module print in between */
	pl_inst *d = pl_inst_new(f, "acme.d", NULL, 0, &t, 1);
	s = print_module(m);
	free(s);
	pl_inst_insert_after(d, a);
	s = print_module(m);
	ck_assert_str_eq(s, "func @f() {\n  %1 = acme.a : f32[]\n  %0 = acme.a : f32[]\n  %3 = acme.d : f32[]\n  %2 = acme.b : f32[]\n}\n");
	free(s);
	pl_module_free(m);
}
END_TEST

START_TEST(test_print_built_module)
{
	/* everything a pass can build prints as text the reader takes back */
	pl_module *m = pl_module_new(NULL);
	pl_func *f = pl_func_new(m, "f");
	pl_func *g = pl_func_new(m, "g");
	int64_t dims[2] = {8, 16};
	const pl_type *t = pl_type_get(m, PL_DTYPE_BF16, dims, 2);
	pl_value *a = pl_func_add_arg(f, "a", t);
	pl_attrs_set_bool(pl_func_attrs(f), "has_copy", true);
	pl_inst *i = pl_inst_new(f, "all_gather", &a, 1,
	                         (const pl_type *const[]){pl_type_get(m, PL_DTYPE_BF16,
	                                                               (const int64_t[]){64, 16}, 2)},
	                         1);
	pl_func_append(f, i);
	pl_attrs_set_string(pl_inst_attrs(i), "group_id", "d\"p\n");
	pl_attrs_set_int(pl_inst_attrs(i), "factor", 8);
	pl_attrs_set(pl_inst_attrs(i), "scale", pl_attr_float(m, 0.1));
	pl_attrs_set(pl_inst_attrs(i), "big", pl_attr_float(m, 1e300));
	pl_attrs_set(pl_inst_attrs(i), "whole", pl_attr_float(m, 3.0));
	const pl_attr *el[2] = {pl_attr_string(m, "\x01\xff", 2), pl_attr_list(m, NULL, 0)};
	pl_attrs_set(pl_inst_attrs(i), "l", pl_attr_list(m, el, 2));
	pl_value *r = pl_inst_result(i, 0);
	pl_func_append(f, pl_inst_new(f, "return", &r, 1, NULL, 0));
	char *s = print_module(m);
	ck_assert_str_eq(s, "func @f(%a: bf16[8,16]) attributes {has_copy = true} {\n"
	                    "  %0 = all_gather %a {group_id = \"d\\\"p\\n\", factor = 8, scale = 0.1, "
	                    "big = 1e+300, whole = 3.0, l = [\"\\x01\\xff\", []]} : bf16[64,16]\n"
	                    "  return %0\n"
	                    "}\n"
	                    "\n"
	                    "func @g() {\n"
	                    "}\n");
	pl_diags *d;
	pl_module *m2 = tu_parse(s, &d);
	ck_assert_ptr_nonnull(m2);
	ck_assert_int_eq(pl_verify_module(m2, d), PL_OK);
	char *s2 = print_module(m2);
	ck_assert_str_eq(s, s2);
	free(s);
	free(s2);
	pl_module_free(m2);
	pl_diags_free(d);
	(void)g;
	pl_module_free(m);
}
END_TEST

static Suite *ir_suite(void)
{
	Suite *s = suite_create("ir");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_module_and_functions);
	tcase_add_test(tc, test_inst_new);
	tcase_add_test(tc, test_inst_new_opname_addresses);
	tcase_add_test(tc, test_insert_before_after);
	tcase_add_test(tc, test_move_before_after);
	tcase_add_test(tc, test_erase);
	tcase_add_test(tc, test_erased_blocks_reused);
	tcase_add_test(tc, test_clone);
	tcase_add_test(tc, test_values_and_uses);
	tcase_add_test(tc, test_set_operand);
	tcase_add_test(tc, test_value_replace);
	suite_add_tcase(s, tc);

	tc = tcase_create("attributes");
	tcase_add_test(tc, test_attr_values);
	tcase_add_test(tc, test_attr_dicts);
	tcase_add_test(tc, test_attr_shared_values);
	tcase_add_test(tc, test_attr_wide_values_and_other_modules);
	suite_add_tcase(s, tc);

	tc = tcase_create("positions");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_positions_many_inserts);
	tcase_add_test(tc, test_positions_prepend_and_interleave);
	tcase_add_test(tc, test_positions_random_edits);
	tcase_add_test(tc, test_positions_appends_after_renumber);
	suite_add_tcase(s, tc);

	tc = tcase_create("tables");
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_op_table);
	tcase_add_test(tc, test_dtype_table);
	tcase_add_test(tc, test_dtype_bits);
	tcase_add_test(tc, test_status_strings);
	tcase_add_test(tc, test_num_dynamic_instances_precedence);
	suite_add_tcase(s, tc);

	tc = tcase_create("printing");
	tcase_add_test(tc, test_print_names_built);
	tcase_add_test(tc, test_print_names_after_late_link);
	tcase_add_test(tc, test_print_built_module);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(ir_suite)
