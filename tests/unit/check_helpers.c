/* SPDX-License-Identifier: MIT */
/* tests/unit/check_helpers.c — the SDK's helpers that passes and the host
 * once wrote for themselves: the entry function, a collective's start and
 * done, the functions an attribute names, saturating sums. */
#include "testutil.h"

#include <stdint.h>

START_TEST(entry)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @a() {\n  return\n}\n"
	                        "func @b() attributes {entry = true} {\n  return\n}\n",
	                        &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	ck_assert_ptr_eq(pl_module_entry(m), pl_module_find_func(m, "b"));
	ck_assert(pl_func_is_entry(pl_module_find_func(m, "b")));
	ck_assert(!pl_func_is_entry(pl_module_find_func(m, "a")));
	/* entry = true is a .pir module's, not one read from HLO */
	ck_assert_ptr_null(pl_module_hlo_entry(m));
	ck_assert_ptr_null(pl_module_entry(NULL));
	pl_module_free(m);
	pl_diags_free(d);

	static const char hlo[] = "HloModule h\n\n"
	                          "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
	                          "  ROOT s = f32[] add(x, y)\n}\n\n"
	                          "ENTRY main {\n  p = f32[4] parameter(0)\n"
	                          "  ROOT n = f32[4] negate(p)\n}\n";
	d = pl_diags_new();
	m = NULL;
	ck_assert_int_eq(pl_parse_hlo_buffer(hlo, strlen(hlo), "h.hlo", d, &m), PL_OK);
	ck_assert_str_eq(pl_func_name(pl_module_hlo_entry(m)), "main");
	ck_assert_ptr_eq(pl_module_entry(m), pl_module_hlo_entry(m));
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(split_collective)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @f(%p: f32[4]) {\n"
	                        "  %ag = all_gather %p {group_id = \"dp\", factor = 2} : f32[8]\n"
	                        "  %n = hlo.negate %p : f32[4]\n"
	                        "  return %ag\n"
	                        "}\n",
	                        &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *ag = pl_func_first_inst(f), *start = NULL, *done = NULL;
	ck_assert_int_eq(pl_inst_split_collective(ag, &start, &done), PL_OK);
	ck_assert_int_eq(pl_inst_op(start), PL_OP_ALL_GATHER_START);
	ck_assert_int_eq(pl_inst_op(done), PL_OP_ALL_GATHER_DONE);
	ck_assert_ptr_eq(pl_inst_operand(start, 0), pl_inst_operand(ag, 0));
	ck_assert_ptr_eq(pl_inst_operand(done, 0), pl_inst_result(start, 0));
	ck_assert_str_eq(pl_value_name(pl_inst_result(start, 0)), "ag_s");
	ck_assert_ptr_eq(pl_value_type(pl_inst_result(done, 0)), pl_value_type(pl_inst_result(ag, 0)));
	int64_t factor = 0;
	ck_assert_int_eq(pl_attrs_get_int(pl_inst_attrs(start), "factor", &factor), PL_OK);
	ck_assert_int_eq(factor, 2);
	/* detached, and ag unchanged */
	ck_assert_ptr_eq(pl_func_first_inst(f), ag);
	ck_assert_ptr_eq(pl_inst_next(ag), pl_inst_next(pl_func_first_inst(f)));
	/* not a synchronous collective */
	ck_assert_int_eq(pl_inst_split_collective(pl_inst_next(ag), &start, &done), PL_EINVAL);
	ck_assert_int_eq(pl_inst_split_collective(NULL, &start, &done), PL_EINVAL);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(callees)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @a() {\n  return\n}\n"
	                        "func @b() {\n  return\n}\n"
	                        "func @f() {\n"
	                        "  hlo.conditional {hlo_branch_computations = \"{%a, %b}\", "
	                        "hlo_calls = \"%b\", hlo_to_apply = \"a\", hlo_body = \"%zz\"}\n"
	                        "  return\n"
	                        "}\n",
	                        &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_inst *c = pl_func_first_inst(pl_module_find_func(m, "f"));
	pl_func *a = pl_module_find_func(m, "a"), *b = pl_module_find_func(m, "b");
	ck_assert_ptr_eq(pl_inst_callee(c, "hlo_branch_computations", 0), a);
	ck_assert_ptr_eq(pl_inst_callee(c, "hlo_branch_computations", 1), b);
	ck_assert_ptr_null(pl_inst_callee(c, "hlo_branch_computations", 2));
	ck_assert_ptr_eq(pl_inst_callee(c, "hlo_calls", 0), b);
	ck_assert_ptr_eq(pl_inst_callee(c, "hlo_to_apply", 0), a);
	ck_assert_ptr_null(pl_inst_callee(c, "hlo_body", 0)); /* no such function */
	ck_assert_ptr_null(pl_inst_callee(c, "hlo_condition", 0)); /* no such key */
	const char *s = "{%x.1, %y}", *name;
	size_t at = 0, n;
	ck_assert(pl_name_list_next(s, strlen(s), &at, &name, &n));
	ck_assert_int_eq((int)n, 3);
	ck_assert(!memcmp(name, "x.1", 3));
	ck_assert(pl_name_list_next(s, strlen(s), &at, &name, &n));
	ck_assert(n == 1 && name[0] == 'y');
	ck_assert(!pl_name_list_next(s, strlen(s), &at, &name, &n));
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(saturating)
{
	ck_assert_uint_eq(pl_u64_add_sat(2, 3), 5);
	ck_assert_uint_eq(pl_u64_add_sat(UINT64_MAX - 1, 1), UINT64_MAX);
	ck_assert_uint_eq(pl_u64_add_sat(UINT64_MAX - 1, 2), UINT64_MAX);
	ck_assert_uint_eq(pl_u64_mul_sat(1u << 20, 1u << 20), (uint64_t)1 << 40);
	ck_assert_uint_eq(pl_u64_mul_sat((uint64_t)1 << 32, (uint64_t)1 << 32), UINT64_MAX);
}
END_TEST

static Suite *helpers_suite(void)
{
	Suite *s = suite_create("helpers");
	TCase *tc = tcase_create("helpers");
	tcase_add_test(tc, entry);
	tcase_add_test(tc, split_collective);
	tcase_add_test(tc, callees);
	tcase_add_test(tc, saturating);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(helpers_suite)
