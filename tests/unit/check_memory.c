/* SPDX-License-Identifier: MIT */
/* tests/unit/check_memory.c — pl_func_peak_bytes: live bytes over an
 * instruction order, on small functions whose peaks are worked out by
 * hand in each test. */
#include "testutil.h"

static uint64_t peak_of(const char *text)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_func_peak_bytes(pl_module_func_at(m, 0), &peak), PL_OK);
	pl_module_free(m);
	return peak;
}

/* Arguments only: 400 + 800 bytes, live throughout. */
START_TEST(args_only)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100], %b: f64[100]) {\n  return %a\n}\n"), 1200);
}
END_TEST

/* A chain: %x (400) is freed at %y, its last use, after %y (400) is made:
 * at %y both live with the argument: 400 + 400 + 400. %z reuses nothing:
 * at %z, %y (400) and %z (400) with the argument. */
START_TEST(chain_frees_at_last_use)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %y = acme.op %x : f32[100]\n"
	                          "  %z = acme.op %y : f32[100]\n"
	                          "  return %z\n}\n"),
	                  1200);
}
END_TEST

/* A value used late stays live: %x (4000) until %w; at %w: argument 40,
 * %x 4000, %y 40, %w 40 = 4120 (%y, used by %w, still live there). */
START_TEST(late_use_keeps_live)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[10]) {\n"
	                          "  %x = acme.op %a : f32[1000]\n"
	                          "  %y = acme.op %a : f32[10]\n"
	                          "  %w = acme.op %x, %y : f32[10]\n"
	                          "  return %w\n}\n"),
	                  4120);
}
END_TEST

/* A result nothing uses is live at its definition only: at %big,
 * 40 + 8000; afterwards 40 + 40. */
START_TEST(unused_result)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[10]) {\n"
	                          "  %big = acme.op %a : f64[1000]\n"
	                          "  %y = acme.op %a : f32[10]\n"
	                          "  return %y\n}\n"),
	                  8040);
}
END_TEST

/* In flight: the start's operand %x (400, not an argument) is held until
 * the done although the start is its last user; the done's ready value
 * takes the place of the in-flight buffer (1600), never both. At %c:
 * argument 400 + %x 400 + buffer 1600 + %c 400 = 2800; at the done:
 * 400 + 400 + 400 + 1600 (%x freed there) = 2800 too; at %u: 400 + 400 +
 * 1600 + 400 = 2800. */
START_TEST(in_flight_holds_operands)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %s = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
	                          "  %c = acme.op %a : f32[100]\n"
	                          "  %g = all_gather_done %s : f32[400]\n"
	                          "  %u = acme.op %g, %c : f32[100]\n"
	                          "  return %u\n}\n"),
	                  2800);
}
END_TEST

/* Order matters: the same instructions peak lower when the second big
 * value is made after the first is freed. First order: at %r, its operand
 * %p (4000), %q (4000), the argument (40) and %r (40): 8080. Second: %p
 * dies at %r before %q is made: 40 + 4000 + 40 = 4080 at %r, and at %s
 * the argument, %r, %q and %s: 40 + 40 + 4000 + 40 = 4120. */
START_TEST(order_matters)
{
	uint64_t together = peak_of("func @f(%a: f32[10]) {\n"
	                            "  %p = acme.op %a : f32[1000]\n"
	                            "  %q = acme.op %a : f32[1000]\n"
	                            "  %r = acme.op %p : f32[10]\n"
	                            "  %s = acme.op %q, %r : f32[10]\n"
	                            "  return %s\n}\n");
	uint64_t apart = peak_of("func @f(%a: f32[10]) {\n"
	                         "  %p = acme.op %a : f32[1000]\n"
	                         "  %r = acme.op %p : f32[10]\n"
	                         "  %q = acme.op %a : f32[1000]\n"
	                         "  %s = acme.op %q, %r : f32[10]\n"
	                         "  return %s\n}\n");
	ck_assert_uint_eq(together, 8080);
	ck_assert_uint_eq(apart, 4120);
}
END_TEST

/* The order is the function's, not the memory's: order_matters' first
 * order, read, then %r moved before %q (so that the blocks lie in
 * memory as the first order has them, the instructions as the second):
 * 4120, as the second order read; and an instruction made later, whose
 * block lies after all others, counts where it is linked. */
START_TEST(order_is_the_functions)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @f(%a: f32[10]) {\n"
	                        "  %p = acme.op %a : f32[1000]\n"
	                        "  %q = acme.op %a : f32[1000]\n"
	                        "  %r = acme.op %p : f32[10]\n"
	                        "  %s = acme.op %q, %r : f32[10]\n"
	                        "  return %s\n}\n",
	                        &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *p = pl_func_first_inst(f), *q = pl_inst_next(p), *r = pl_inst_next(q);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	ck_assert_uint_eq(peak, 8080);
	pl_inst_move_before(r, q);
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	ck_assert_uint_eq(peak, 4120);
	/* %t = acme.op %p (4 bytes), made now (its block after all the
	 * others in memory) and linked after %q: %p lives to %t, so at %t
	 * the argument, %r, %q, %p and %t: 40 + 40 + 4000 + 4000 + 4 = 8084;
	 * after it %p and %t are freed, and at %s 4120 again. Taken in the
	 * memory's order, %t would be last and %p live at %s: 8120. */
	const pl_type *t4 = pl_type_get(m, PL_DTYPE_F32, (const int64_t[]){1}, 1);
	pl_value *pv = pl_inst_result(p, 0);
	pl_inst *t = pl_inst_new(f, "acme.op", &pv, 1, &t4, 1);
	ck_assert_ptr_nonnull(t);
	pl_inst_insert_after(t, q);
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	ck_assert_uint_eq(peak, 8084);
	pl_module_free(m);
}
END_TEST

static Suite *memory_suite(void)
{
	Suite *s = suite_create("memory");
	TCase *tc = tcase_create("peak");
	tcase_add_test(tc, args_only);
	tcase_add_test(tc, chain_frees_at_last_use);
	tcase_add_test(tc, late_use_keeps_live);
	tcase_add_test(tc, unused_result);
	tcase_add_test(tc, in_flight_holds_operands);
	tcase_add_test(tc, order_matters);
	tcase_add_test(tc, order_is_the_functions);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(memory_suite)
