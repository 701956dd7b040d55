/* SPDX-License-Identifier: MIT */
/* tests/unit/check_api11.c — the additions of plugin ABI 1.1 for plugin
 * authors: side effects, status-returning creation, insertion and moves,
 * positions read without writing, what pl_inst_copy_attrs promises,
 * counts asked from several threads,
 * messages that copy their location, errors and undeclared statistics
 * counted by the context, and the 128-bit helpers in plugin.h. */
#include <passline/plugin.h> /* first: it alone must declare pl_u128_add */

#include "testutil.h"

#include <passline/cost.h>
#include <passline/host.h>

#include <pthread.h>

/* ---- side effects ---- */

START_TEST(test_side_effects)
{
	static const char text[] =
		"func @f(%p: f32[4], %q: f32[4], %b: f32[4]) {\n"
		"  %l = affine_load %b {domain = [4]} : f32[4]\n"
		"  %g = generic_load %b : f32[4]\n"
		"  %c = tensor_contract %p, %q : f32[4]\n"
		"  %r = reduce %p : f32[1]\n"
		"  %n = rms_norm %p : f32[4]\n"
		"  %k = pack %p, %q : f32[8]\n"
		"  %u = unpack %k : f32[4]\n"
		"  affine_store %l, %b {domain = [4]}\n"
		"  generic_store %g, %b\n"
		"  %ag = all_gather %p {group_id = \"dp\", factor = 2} : f32[8]\n"
		"  %ar = all_reduce %p {group_id = \"dp\", factor = 2, reduce = \"add\"} : f32[4]\n"
		"  %rs = reduce_scatter %p {group_id = \"dp\", factor = 2, reduce = \"add\"} : f32[2]\n"
		"  %s = all_gather_start %q {group_id = \"dp\", factor = 2} : f32[8]\n"
		"  %d = all_gather_done %s : f32[8]\n"
		"  %x = acme.fused_gelu %p : f32[4]\n"
		"  acme.barrier\n"
		"  return %c\n"
		"}\n";
	static const struct {
		const char *op;
		bool side_effects;
	} want[] = {
		{"affine_load", false},  {"generic_load", false},  {"tensor_contract", false},
		{"reduce", false},       {"rms_norm", false},      {"pack", false},
		{"unpack", false},       {"affine_store", true},   {"generic_store", true},
		{"all_gather", true},    {"all_reduce", true},     {"reduce_scatter", true},
		{"all_gather_start", true}, {"all_gather_done", true}, {"acme.fused_gelu", true},
		{"acme.barrier", true},  {"return", true},
	};
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	size_t k = 0;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i), k++) {
		ck_assert_uint_lt(k, sizeof want / sizeof *want);
		ck_assert_str_eq(pl_inst_opname(i), want[k].op);
		ck_assert_msg(pl_inst_has_side_effects(i) == want[k].side_effects, "%s", want[k].op);
		/* the trait bit says the same for every op the SDK knows */
		if (pl_inst_op(i) != PL_OP_OTHER)
			ck_assert(((pl_inst_traits(i) & PL_TRAIT_SIDE_EFFECTS) != 0) ==
			          want[k].side_effects);
	}
	ck_assert_uint_eq(k, sizeof want / sizeof *want);
	/* an unknown op has no traits; only pl_inst_has_side_effects knows */
	ck_assert_uint_eq(pl_op_traits(PL_OP_OTHER), 0);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* ---- pl_inst_create ---- */

struct two_funcs {
	pl_module *m;
	pl_func *f, *g;
	pl_value *x, *y; /* arguments of f and of g */
	const pl_type *t;
};

static void two_funcs(struct two_funcs *w)
{
	int64_t dims[] = {4};
	w->m = pl_module_new("test.pir");
	w->f = pl_func_new(w->m, "f");
	w->g = pl_func_new(w->m, "g");
	w->t = pl_type_get(w->m, PL_DTYPE_F32, dims, 1);
	w->x = pl_func_add_arg(w->f, "x", w->t);
	w->y = pl_func_add_arg(w->g, "y", w->t);
}

START_TEST(test_create)
{
	struct two_funcs w;
	two_funcs(&w);
	pl_inst *i = (pl_inst *)&w; /* not NULL: failures must clear it */
	pl_value *ops[] = {w.x};
	const pl_type *types[] = {w.t};
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", ops, 1, types, 1), PL_OK);
	ck_assert_ptr_nonnull(i);
	ck_assert_str_eq(pl_inst_opname(i), "acme.op");
	ck_assert_ptr_eq(pl_inst_operand(i, 0), w.x);
	ck_assert_ptr_eq(pl_value_type(pl_inst_result(i, 0)), w.t);
	ck_assert(!pl_inst_is_linked(i));
	/* a bad op name */
	const char *bad[] = {"", "1abc", "a b", ".a", "Return", "all-gather"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		i = (pl_inst *)&w;
		ck_assert_int_eq(pl_inst_create(&i, w.f, bad[k], NULL, 0, NULL, 0), PL_EINVAL);
		ck_assert_ptr_null(i);
	}
	i = (pl_inst *)&w;
	ck_assert_int_eq(pl_inst_create(&i, w.f, NULL, NULL, 0, NULL, 0), PL_EINVAL);
	ck_assert_ptr_null(i);
	/* an operand of another function, a NULL operand, a NULL type */
	pl_value *other[] = {w.y};
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", other, 1, NULL, 0), PL_EINVAL);
	ck_assert_ptr_null(i);
	pl_value *none[] = {NULL};
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", none, 1, NULL, 0), PL_EINVAL);
	const pl_type *no_type[] = {NULL};
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", NULL, 0, no_type, 1), PL_EINVAL);
	/* arrays missing for their counts */
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", NULL, 1, NULL, 0), PL_EINVAL);
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", NULL, 0, NULL, 1), PL_EINVAL);
	/* more operands or results than an instruction holds: refused before
	 * the arrays are read */
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", ops, (size_t)1 << 31, NULL, 0),
	                 PL_ELIMIT);
	ck_assert_int_eq(pl_inst_create(&i, w.f, "acme.op", NULL, 0, types, (size_t)1 << 31),
	                 PL_ELIMIT);
	ck_assert_ptr_null(i);
	/* the failures changed nothing: f has one use of %x, from the first */
	ck_assert_uint_eq(pl_value_num_uses(w.x), 1);
	ck_assert_uint_eq(pl_func_num_insts(w.f), 0);
	/* pl_inst_new keeps its NULL for all of them */
	ck_assert_ptr_null(pl_inst_new(w.f, "1abc", NULL, 0, NULL, 0));
	ck_assert_ptr_null(pl_inst_new(w.f, "acme.op", other, 1, NULL, 0));
	pl_module_free(w.m);
}
END_TEST

/* ---- pl_inst_insert and pl_inst_move ---- */

/* The op names of f's instructions, in order, joined by ' '. */
static const char *order(pl_func *f)
{
	static char buf[256];
	buf[0] = '\0';
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		if (buf[0])
			strcat(buf, " ");
		strcat(buf, pl_inst_opname(i));
	}
	return buf;
}

static pl_inst *make(pl_func *f, const char *op)
{
	pl_inst *i;
	ck_assert_int_eq(pl_inst_create(&i, f, op, NULL, 0, NULL, 0), PL_OK);
	return i;
}

START_TEST(test_insert)
{
	struct two_funcs w;
	two_funcs(&w);
	pl_inst *b = make(w.f, "b"), *d = make(w.f, "d"), *a = make(w.f, "a"), *c = make(w.f, "c");
	pl_inst *e = make(w.f, "e"), *z = make(w.f, "z");
	ck_assert_int_eq(pl_inst_insert(b, NULL, PL_LAST), PL_OK);  /* into an empty function */
	ck_assert_int_eq(pl_inst_insert(d, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_insert(a, NULL, PL_FIRST), PL_OK);
	ck_assert_int_eq(pl_inst_insert(c, d, PL_BEFORE), PL_OK);
	ck_assert_int_eq(pl_inst_insert(e, d, PL_AFTER), PL_OK);
	ck_assert_str_eq(order(w.f), "a b c d e");
	ck_assert_uint_eq(pl_func_num_insts(w.f), 5);
	/* misuse: nothing changes */
	ck_assert_int_eq(pl_inst_insert(c, a, PL_BEFORE), PL_EINVAL); /* already linked */
	ck_assert_int_eq(pl_inst_insert(NULL, a, PL_BEFORE), PL_EINVAL);
	pl_inst *y = make(w.f, "y");
	ck_assert_int_eq(pl_inst_insert(z, y, PL_BEFORE), PL_EINVAL); /* pos not linked */
	ck_assert_int_eq(pl_inst_insert(z, NULL, PL_BEFORE), PL_EINVAL);
	ck_assert_int_eq(pl_inst_insert(z, NULL, PL_AFTER), PL_EINVAL);
	ck_assert_int_eq(pl_inst_insert(z, a, PL_FIRST), PL_EINVAL); /* pos with FIRST/LAST */
	ck_assert_int_eq(pl_inst_insert(z, a, PL_LAST), PL_EINVAL);
	ck_assert_int_eq(pl_inst_insert(z, a, (pl_where)0), PL_EINVAL);
	ck_assert_int_eq(pl_inst_insert(z, a, (pl_where)99), PL_EINVAL);
	pl_inst *g1 = make(w.g, "g1");
	ck_assert_int_eq(pl_inst_insert(g1, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_insert(z, g1, PL_AFTER), PL_EINVAL); /* another function */
	ck_assert_int_eq(pl_inst_insert(y, z, PL_AFTER), PL_EINVAL);  /* pos detached */
	ck_assert_str_eq(order(w.f), "a b c d e");
	ck_assert_str_eq(order(w.g), "g1");
	ck_assert(!pl_inst_is_linked(z));
	ck_assert_uint_eq(pl_module_num_insts(w.m), 6);
	pl_module_free(w.m);
}
END_TEST

START_TEST(test_move)
{
	struct two_funcs w;
	two_funcs(&w);
	pl_inst *v[5];
	const char *names[] = {"a", "b", "c", "d", "e"};
	for (int k = 0; k < 5; k++) {
		v[k] = make(w.f, names[k]);
		ck_assert_int_eq(pl_inst_insert(v[k], NULL, PL_LAST), PL_OK);
	}
	pl_inst *a = v[0], *b = v[1], *c = v[2], *d = v[3], *e = v[4];
	ck_assert_int_eq(pl_inst_move(e, b, PL_BEFORE), PL_OK);
	ck_assert_str_eq(order(w.f), "a e b c d");
	ck_assert_int_eq(pl_inst_move(a, d, PL_AFTER), PL_OK);
	ck_assert_str_eq(order(w.f), "e b c d a");
	ck_assert_int_eq(pl_inst_move(c, NULL, PL_FIRST), PL_OK);
	ck_assert_str_eq(order(w.f), "c e b d a");
	ck_assert_int_eq(pl_inst_move(c, NULL, PL_LAST), PL_OK);
	ck_assert_str_eq(order(w.f), "e b d a c");
	/* to where it is already: PL_OK, nothing changes */
	ck_assert_int_eq(pl_inst_move(c, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_move(e, NULL, PL_FIRST), PL_OK);
	ck_assert_int_eq(pl_inst_move(b, d, PL_BEFORE), PL_OK);
	ck_assert_int_eq(pl_inst_move(d, b, PL_AFTER), PL_OK);
	ck_assert_str_eq(order(w.f), "e b d a c");
	/* misuse */
	ck_assert_int_eq(pl_inst_move(b, b, PL_BEFORE), PL_EINVAL); /* before itself */
	ck_assert_int_eq(pl_inst_move(b, b, PL_AFTER), PL_EINVAL);
	ck_assert_int_eq(pl_inst_move(NULL, b, PL_AFTER), PL_EINVAL);
	pl_inst *x = make(w.f, "x");
	ck_assert_int_eq(pl_inst_move(x, b, PL_AFTER), PL_EINVAL); /* not linked */
	ck_assert_int_eq(pl_inst_move(b, x, PL_AFTER), PL_EINVAL); /* pos not linked */
	ck_assert_int_eq(pl_inst_move(b, NULL, PL_AFTER), PL_EINVAL);
	ck_assert_int_eq(pl_inst_move(b, d, PL_FIRST), PL_EINVAL);
	ck_assert_int_eq(pl_inst_move(b, d, (pl_where)7), PL_EINVAL);
	pl_inst *g1 = make(w.g, "g1");
	ck_assert_int_eq(pl_inst_insert(g1, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_move(b, g1, PL_AFTER), PL_EINVAL); /* another function */
	ck_assert_int_eq(pl_inst_move(g1, b, PL_AFTER), PL_EINVAL);
	ck_assert_str_eq(order(w.f), "e b d a c");
	ck_assert_str_eq(order(w.g), "g1");
	ck_assert_uint_eq(pl_func_num_insts(w.f), 5);
	/* the positions follow the moves */
	for (pl_inst *i = pl_func_first_inst(w.f); pl_inst_next(i); i = pl_inst_next(i))
		ck_assert(pl_inst_comes_before(i, pl_inst_next(i)));
	pl_module_free(w.m);
}
END_TEST

/* ---- positions ---- */

START_TEST(test_positions)
{
	struct two_funcs w;
	two_funcs(&w);
	pl_inst *first = make(w.f, "first"), *last = make(w.f, "last");
	uint64_t p = 12345;
	ck_assert_int_eq(pl_inst_get_position(&p, first), PL_ENOTFOUND); /* detached */
	ck_assert_uint_eq(p, 12345);
	ck_assert_int_eq(pl_inst_insert(first, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_insert(last, NULL, PL_LAST), PL_OK);
	ck_assert_int_eq(pl_inst_get_position(&p, first), PL_OK);
	uint64_t q;
	ck_assert_int_eq(pl_inst_get_position(&q, last), PL_OK);
	ck_assert_uint_lt(p, q);
	/* inserting again and again just before `last` uses up every gap,
	 * yet the numbers stay current after each edit: a reader that must
	 * not write always gets them */
	for (int k = 0; k < 5000; k++) {
		pl_inst *i = make(w.f, "mid");
		ck_assert_int_eq(pl_inst_insert(i, last, PL_BEFORE), PL_OK);
		ck_assert_int_eq(pl_inst_get_position(&p, i), PL_OK);
		ck_assert_int_eq(pl_inst_get_position(&q, last), PL_OK);
		ck_assert_uint_lt(p, q);
		ck_assert_int_eq(pl_inst_get_position(&q, pl_inst_prev(i)), PL_OK);
		ck_assert_uint_lt(q, p);
	}
	/* reading them writes nothing: the numbers before and after every
	 * query are the same */
	size_t n = pl_func_num_insts(w.f);
	uint64_t *before = malloc(n * sizeof *before);
	ck_assert_ptr_nonnull(before);
	size_t k = 0;
	for (pl_inst *i = pl_func_first_inst(w.f); i; i = pl_inst_next(i), k++) {
		ck_assert_int_eq(pl_inst_get_position(&before[k], i), PL_OK);
		ck_assert(k == 0 || before[k - 1] < before[k]);
		ck_assert_uint_eq(pl_inst_position(i), before[k]);
		ck_assert(k == 0 || pl_inst_comes_before(pl_inst_prev(i), i));
	}
	ck_assert_uint_eq(k, n);
	k = 0;
	for (pl_inst *i = pl_func_first_inst(w.f); i; i = pl_inst_next(i), k++) {
		ck_assert_int_eq(pl_inst_get_position(&p, i), PL_OK);
		ck_assert_uint_eq(p, before[k]);
	}
	free(before);
	pl_module_free(w.m);
}
END_TEST

/* ---- pl_inst_copy_attrs: a copy, whichever side changes ---- */

START_TEST(test_copy_attrs)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @f() {\n"
	                        "  a {x = 1, y = \"s\", z = [1, 2]}\n"
	                        "  b {old = true}\n"
	                        "  c\n"
	                        "}\n",
	                        &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_inst *a = pl_func_first_inst(pl_module_func_at(m, 0));
	pl_inst *b = pl_inst_next(a), *c = pl_inst_next(b);
	ck_assert_int_eq(pl_inst_copy_attrs(b, a), PL_OK);
	ck_assert_int_eq(pl_inst_copy_attrs(c, a), PL_OK);
	char *s = tu_print(m);
	ck_assert_str_eq(s, "func @f() {\n"
	                    "  a {x = 1, y = \"s\", z = [1, 2]}\n"
	                    "  b {x = 1, y = \"s\", z = [1, 2]}\n"
	                    "  c {x = 1, y = \"s\", z = [1, 2]}\n"
	                    "}\n");
	free(s);
	/* change the copy: replace, append, remove */
	ck_assert_int_eq(pl_attrs_set_int(pl_inst_attrs(b), "x", 9), PL_OK);
	ck_assert_int_eq(pl_attrs_set_bool(pl_inst_attrs(b), "w", true), PL_OK);
	ck_assert_int_eq(pl_attrs_remove(pl_inst_attrs(b), "y"), PL_OK);
	/* change the original */
	ck_assert_int_eq(pl_attrs_remove(pl_inst_attrs(a), "z"), PL_OK);
	ck_assert_int_eq(pl_attrs_set_string(pl_inst_attrs(a), "y", "t"), PL_OK);
	s = tu_print(m);
	ck_assert_str_eq(s, "func @f() {\n"
	                    "  a {x = 1, y = \"t\"}\n"
	                    "  b {x = 9, z = [1, 2], w = true}\n"
	                    "  c {x = 1, y = \"s\", z = [1, 2]}\n"
	                    "}\n");
	free(s);
	/* a's entries are its own now: copying from a only reads it, so a
	 * still changes in place afterwards (sharing would have made it copy
	 * on write: a new array at its next change) */
	const pl_attr *before = pl_attrs_value_at(pl_inst_attrs_const(a), 0);
	ck_assert_int_eq(pl_inst_copy_attrs(c, a), PL_OK);
	ck_assert_int_eq(pl_attrs_set_int(pl_inst_attrs(a), "x", 7), PL_OK);
	ck_assert_ptr_eq(pl_attrs_value_at(pl_inst_attrs_const(a), 0), before);
	s = tu_print(m);
	ck_assert_str_eq(s, "func @f() {\n"
	                    "  a {x = 7, y = \"t\"}\n"
	                    "  b {x = 9, z = [1, 2], w = true}\n"
	                    "  c {x = 1, y = \"t\"}\n"
	                    "}\n");
	free(s);
	/* another module's instruction: refused, nothing changed */
	pl_diags *d2;
	pl_module *m2 = tu_parse("func @g() {\n  o {k = 5}\n}\n", &d2);
	ck_assert_ptr_nonnull(m2);
	pl_inst *o = pl_func_first_inst(pl_module_func_at(m2, 0));
	ck_assert_int_eq(pl_inst_copy_attrs(o, a), PL_EINVAL);
	ck_assert_int_eq(pl_inst_copy_attrs(a, o), PL_EINVAL);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs_const(o)), 1);
	ck_assert_uint_eq(pl_attrs_count(pl_inst_attrs_const(a)), 2);
	pl_module_free(m2);
	pl_diags_free(d2);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* ---- the pass context ---- */

static const pl_stat_decl ctx_stats[] = {
	PL_STAT("num_things", "Things."),
	PL_STAT_END
};
static int ctx_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)ctx;
	(void)state;
	(void)m;
	return PL_OK;
}
static const pl_pass_desc ctx_pass = {PL_PASS_DESC_INIT, .name = "Ctx", .stats = ctx_stats,
                                      .run = ctx_run};

START_TEST(test_message_location_copied)
{
	pl_diags *pd;
	pl_module *m = tu_parse("func @f(%x: f32[4]) {\n"
	                        "  %y = acme.op %x : f32[4]\n"
	                        "  return %x\n"
	                        "}\n",
	                        &pd);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(pd));
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *ctx = pl_ctx_new(&ctx_pass, d);
	pl_ctx_set_remarks_enabled(ctx, true);
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *op = pl_func_first_inst(f);
	ck_assert_uint_eq(pl_inst_line(op), 2);
	pl_ctx_remark(ctx, op, "erasing %s", pl_inst_opname(op));
	pl_ctx_warning(ctx, op, "a warning");
	ck_assert_int_eq(pl_inst_erase(op), PL_OK);
	/* the erased block is reused at once by an instruction of its size,
	 * elsewhere */
	pl_value *ops[] = {pl_func_arg(f, 0)};
	const pl_type *types[] = {pl_value_type(pl_func_arg(f, 0))};
	pl_inst *other;
	ck_assert_int_eq(pl_inst_create(&other, f, "acme.other", ops, 1, types, 1), PL_OK);
	pl_inst_set_loc(other, 40, 9);
	/* and the module goes away before the messages are read */
	pl_module_free(m);
	ck_assert_uint_eq(pl_diags_count(d), 2);
	ck_assert_str_eq(pl_diags_format(d, 0), "test.pir:2:3: remark: Ctx: erasing acme.op");
	ck_assert_str_eq(pl_diags_format(d, 1), "test.pir:2:3: warning: Ctx: a warning");
	pl_ctx_free(ctx);
	pl_diags_free(d);
	pl_diags_free(pd);
}
END_TEST

START_TEST(test_errors_counted)
{
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *ctx = pl_ctx_new(&ctx_pass, d);
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 0);
	pl_ctx_warning(ctx, NULL, "only a warning");
	pl_ctx_remark(ctx, NULL, "a remark (not shown)");
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 0);
	pl_ctx_error(ctx, NULL, "one");
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 1);
	ck_assert_int_eq(pl_ctx_stat_add(ctx, "num_things", 2), PL_OK);
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 1);
	/* an undeclared statistic: the status, and an error naming it */
	ck_assert_int_eq(pl_ctx_stat_add(ctx, "num_thngs", 1), PL_ENOTFOUND);
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 2);
	ck_assert_int_eq(pl_ctx_stat_add_wide(ctx, "other", 1, 0), PL_ENOTFOUND);
	ck_assert_uint_eq(pl_ctx_num_errors(ctx), 3);
	ck_assert_uint_eq(pl_diags_count(d), 4);
	ck_assert_str_eq(pl_diags_format(d, 2),
	                 "error: Ctx: undeclared statistic 'num_thngs' (a pass adds only to the "
	                 "statistics it declares)");
	ck_assert_ptr_nonnull(strstr(pl_diags_format(d, 3), "undeclared statistic 'other'"));
	uint64_t hi, lo;
	pl_ctx_stat_value(ctx, 0, &hi, &lo);
	ck_assert_uint_eq(hi, 0);
	ck_assert_uint_eq(lo, 2);
	pl_ctx_free(ctx);
	pl_diags_free(d);
}
END_TEST

/* ---- 128-bit helpers ---- */

START_TEST(test_u128)
{
	uint64_t hi = 0, lo = UINT64_MAX;
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 0, 1), PL_OK); /* the carry */
	ck_assert_uint_eq(hi, 1);
	ck_assert_uint_eq(lo, 0);
	char buf[PL_U128_DEC_BUFSIZE];
	ck_assert_str_eq(pl_u128_format(hi, lo, buf), "18446744073709551616");
	hi = UINT64_MAX;
	lo = UINT64_MAX;
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 0, 1), PL_EOVERFLOW);
	ck_assert_uint_eq(hi, UINT64_MAX);
	ck_assert_uint_eq(lo, UINT64_MAX);
	ck_assert_str_eq(pl_u128_format(hi, lo, buf), "340282366920938463463374607431768211455");
}
END_TEST

/* pl_type_num_bytes stays within int64_t, the range of a bytes option */
START_TEST(test_num_bytes_range)
{
	pl_module *m = pl_module_new(NULL);
	int64_t just[] = {INT64_MAX / 8};
	int64_t over[] = {INT64_MAX / 8 + 1};
	uint64_t b = 0;
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F64, just, 1), &b), PL_OK);
	ck_assert_uint_le(b, (uint64_t)INT64_MAX);
	ck_assert_int_eq((int64_t)b, INT64_MAX / 8 * 8);
	ck_assert_int_eq(pl_type_num_bytes(pl_type_get(m, PL_DTYPE_F64, over, 1), &b),
	                 PL_EOVERFLOW);
	pl_module_free(m);
}
END_TEST

/* A module of functions of the given sizes (0: empty), every instruction
 * with attributes of its own. */
static char *module_of_sizes(const size_t *sizes, size_t n)
{
	size_t cap = 1 << 20, len = 0;
	char *t = malloc(cap);
	for (size_t f = 0; f < n; f++) {
		for (size_t k = 0; k <= sizes[f]; k++) {
			if (cap - len < 256)
				t = realloc(t, cap *= 2);
			ck_assert_ptr_nonnull(t);
			if (k == 0)
				len += (size_t)sprintf(t + len, "func @f%zu(%%a: f32[]) {\n", f);
			else
				len += (size_t)sprintf(t + len,
				                       "  %%v%zu = add %%a, %%a {k = %zu, s = \"x%zu\"} : f32[]\n",
				                       k, k * 7 + f, k % 13);
		}
		len += (size_t)sprintf(t + len, "}\n");
	}
	return t;
}

static int fail_after(void *ud, const char *bytes, size_t len)
{
	(void)bytes;
	(void)len;
	int *calls = ud;
	return --*calls < 0 ? -1 : 0;
}

/* pl_print_module_threads writes pl_print_module's text, whatever the
 * shape: parts of 4096 instructions begin inside functions, at their
 * headers, at empty functions. */
START_TEST(test_print_threads)
{
	static const size_t one[] = {3 * 4096 + 17};
	static const size_t exact[] = {4096, 0, 4095, 1, 4097, 0, 0, 8192, 3};
	size_t many[300];
	for (size_t k = 0; k < 300; k++)
		many[k] = k % 7 == 0 ? 0 : (k * 37) % 150;
	const struct {
		const size_t *sizes;
		size_t n;
	} shapes[] = {{one, 1}, {exact, sizeof exact / sizeof *exact}, {many, 300}};
	for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++) {
		char *text = module_of_sizes(shapes[sh].sizes, shapes[sh].n);
		pl_diags *d;
		pl_module *m = tu_parse(text, &d);
		ck_assert_msg(m, "%s", tu_first_diag(d));
		char *want = tu_print(m);
		ck_assert_ptr_nonnull(want);
		for (unsigned threads = 1; threads <= 4; threads++) {
			char *got = calloc(1, 1);
			ck_assert_int_eq(pl_print_module_threads(m, threads, tu_write_sb, &got), PL_OK);
			ck_assert_msg(strcmp(got, want) == 0, "shape %zu on %u threads", sh, threads);
			free(got);
		}
		/* a write that fails stops it, whichever part it was */
		for (int calls = 0; calls < 4; calls++) {
			int left = calls;
			ck_assert_int_eq(pl_print_module_threads(m, 2, fail_after, &left), PL_EIO);
		}
		free(want);
		free(text);
		pl_module_free(m);
		pl_diags_free(d);
	}
}
END_TEST

/* ---- counts asked from several threads ---- */

struct asker {
	const pl_module *m;
	const pl_cost_model *cm;
	uint64_t sum; /* of every count and time, over the rounds */
	int rc;
	/* when set, the memo is made complete first, as the read-only passes
	 * that run side by side do at their start: with every pair counted
	 * already (the host sees to it), that call writes nothing */
	pl_module *prepare;
};

static void *ask_counts(void *arg)
{
	struct asker *a = arg;
	if (a->prepare && (a->rc = pl_module_prepare_counts(a->prepare)) != PL_OK)
		return NULL;
	const pl_func *f = pl_module_func_at(a->m, 0);
	for (int round = 0; round < 50 && a->rc == PL_OK; round++) {
		for (const pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
			uint64_t n = 0, t = 0;
			if ((a->rc = pl_inst_masked_dynamic_instances(i, &n)) != PL_OK ||
			    (a->rc = pl_inst_time_ns(i, a->cm, &t)) != PL_OK)
				break;
			a->sum += n + t + pl_inst_position(i) % 1000;
		}
		pl_schedule *s = NULL;
		if (a->rc == PL_OK && (a->rc = pl_schedule_new(&s, f, a->cm)) == PL_OK)
			a->sum += pl_schedule_makespan_ns(s);
		pl_schedule_free(s);
	}
	return NULL;
}

/* The counts, times, positions and schedules take const handles and write
 * nothing, so two threads may ask at once (ThreadSanitizer, in CI, reports
 * any write),
 * before and after pl_module_prepare_counts, for pairs read and a pair set
 * after reading; once the memo is complete, each thread may call
 * pl_module_prepare_counts again (read-only passes side by side do); and
 * they give what one thread gets. */
START_TEST(test_counts_from_threads)
{
	pl_diags *d;
	pl_module *m = tu_parse(
		"func @f(%buf: f32[4]) {\n"
		"  %a = affine_load %buf {domain = [10, 10], predicate = [\"i0 + i1 < 10\"]} : f32[4]\n"
		"  %b = affine_load %buf {domain = [10, 10], predicate = [\"i0 + i1 < 10\"], flops = 3} : f32[4]\n"
		"  %c = acme.mul %a, %b {domain = [8, 8], predicate = [\"i0 < 3\", \"i1 < 3\"], flops = 2} : f32[4]\n"
		"  %e = acme.mul %a, %b {domain = [8, 8]} : f32[4]\n"
		"  return\n}\n",
		&d);
	ck_assert_msg(m, "%s", tu_first_diag(d));
	pl_inst *e = pl_inst_prev(pl_func_last_inst(pl_module_func_at(m, 0)));
	const pl_attr *pred[] = {pl_attr_string(m, "i0 < i1", 7)};
	ck_assert_int_eq(pl_attrs_set(pl_inst_attrs(e), "predicate",
	                              pl_attr_list(m, pred, 1)), PL_OK);
	pl_cost_model *cm = pl_cost_model_new();
	/* counted on each call (the threads ask first: a call that wrote
	 * would write then), then from what the module counted once */
	uint64_t sum = 0;
	for (int prepared = 0; prepared < 2; prepared++) {
		if (prepared)
			ck_assert_int_eq(pl_module_prepare_counts(m), PL_OK);
		pl_module *again = prepared ? m : NULL;
		struct asker two[2] = {{m, cm, 0, PL_OK, again}, {m, cm, 0, PL_OK, again}};
		pthread_t th[2];
		for (int k = 0; k < 2; k++)
			ck_assert_int_eq(pthread_create(&th[k], NULL, ask_counts, &two[k]), 0);
		for (int k = 0; k < 2; k++) {
			ck_assert_int_eq(pthread_join(th[k], NULL), 0);
			ck_assert_int_eq(two[k].rc, PL_OK);
		}
		struct asker one = {m, cm, 0, PL_OK, NULL};
		ask_counts(&one);
		ck_assert_int_eq(one.rc, PL_OK);
		ck_assert_uint_eq(two[0].sum, one.sum);
		ck_assert_uint_eq(two[1].sum, one.sum);
		ck_assert(!prepared || one.sum == sum);
		sum = one.sum;
	}
	uint64_t n = 0;
	ck_assert_int_eq(pl_inst_masked_dynamic_instances(e, &n), PL_OK);
	ck_assert_uint_eq(n, 28); /* 0 + 1 + ... + 7 */
	pl_cost_model_free(cm);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

static Suite *api11_suite(void)
{
	Suite *s = suite_create("api11");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120); /* printing on 1 to 4 threads, slow under ThreadSanitizer */
	tcase_add_test(tc, test_side_effects);
	tcase_add_test(tc, test_create);
	tcase_add_test(tc, test_insert);
	tcase_add_test(tc, test_move);
	tcase_add_test(tc, test_positions);
	tcase_add_test(tc, test_copy_attrs);
	tcase_add_test(tc, test_message_location_copied);
	tcase_add_test(tc, test_errors_counted);
	tcase_add_test(tc, test_u128);
	tcase_add_test(tc, test_num_bytes_range);
	tcase_add_test(tc, test_print_threads);
	tcase_add_test(tc, test_counts_from_threads);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(api11_suite)
