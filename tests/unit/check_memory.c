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

/* Only linked users count: an instruction made to use %p but never
 * inserted (or erased) does not keep it live. order_is_the_functions'
 * second order peaks at 4120 with or without it. */
START_TEST(detached_user_does_not_hold)
{
	pl_diags *d;
	pl_module *m = tu_parse("func @f(%a: f32[10]) {\n"
	                        "  %p = acme.op %a : f32[1000]\n"
	                        "  %r = acme.op %p : f32[10]\n"
	                        "  %q = acme.op %a : f32[1000]\n"
	                        "  %s = acme.op %q, %r : f32[10]\n"
	                        "  return %s\n}\n",
	                        &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *p = pl_func_first_inst(f);
	const pl_type *t4 = pl_type_get(m, PL_DTYPE_F32, (const int64_t[]){1}, 1);
	pl_value *pv = pl_inst_result(p, 0);
	pl_inst *t = pl_inst_new(f, "acme.op", &pv, 1, &t4, 1);
	ck_assert_ptr_nonnull(t);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	ck_assert_uint_eq(peak, 4120);
	/* linked before the return, it holds %p (4000) to there: at %s the
	 * argument, %p, %r, %q and %s, 40 + 4000 + 40 + 4000 + 40 */
	pl_inst_insert_before(t, pl_func_last_inst(f));
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	ck_assert_uint_eq(peak, 8120);
	pl_module_free(m);
}
END_TEST

/* Positions made by many insertions at one place (their low bits all
 * differ, where a function read in order steps by a constant) give the
 * peak the same function read as text has: a chain of 300 values
 * inserted between %p and %q, each freed at the next, crowded into the
 * gap between two of 100 instructions read in order after them (so that
 * many releases share the top bits of their positions). */
START_TEST(inserted_chain_matches_text)
{
	enum { CHAIN = 300, TAIL = 100 };
	static const char head[] = "func @f(%a: f32[10]) {\n  %p = acme.op %a : f32[1000]\n";
	char tail[TAIL * 40 + 64];
	size_t tlen = (size_t)snprintf(tail, sizeof tail, "  %%q = acme.op %%a : f32[10]\n");
	for (int k = 0; k < TAIL; k++)
		tlen += (size_t)snprintf(tail + tlen, sizeof tail - tlen,
		                         "  %%t%d = acme.op %%a : f32[1]\n", k);
	snprintf(tail + tlen, sizeof tail - tlen, "  return %%q\n}\n");
	char text[CHAIN * 64 + sizeof tail + 256];
	size_t len = (size_t)snprintf(text, sizeof text, "%s%s", head, tail);
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	len = (size_t)snprintf(text, sizeof text, "%s", head);
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *p = pl_func_first_inst(f), *q = pl_inst_next(p);
	/* %c0 = acme.op %p : f32[2], %c1 = acme.op %c0 : f32[3], ... each
	 * one element larger, inserted before %q one after another */
	pl_value *prev = pl_inst_result(p, 0);
	for (int64_t k = 0; k < CHAIN; k++) {
		const pl_type *t = pl_type_get(m, PL_DTYPE_F32, (const int64_t[]){k + 2}, 1);
		pl_inst *c = pl_inst_new(f, "acme.op", &prev, 1, &t, 1);
		ck_assert_ptr_nonnull(c);
		pl_inst_insert_before(c, q);
		prev = pl_inst_result(c, 0);
		if (k == 0)
			len += (size_t)snprintf(text + len, sizeof text - len,
			                        "  %%c0 = acme.op %%p : f32[2]\n");
		else
			len += (size_t)snprintf(text + len, sizeof text - len,
			                        "  %%c%lld = acme.op %%c%lld : f32[%lld]\n", (long long)k,
			                        (long long)k - 1, (long long)k + 2);
	}
	snprintf(text + len, sizeof text - len, "%s", tail);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_func_peak_bytes(f, &peak), PL_OK);
	/* at %c0: %a, %p and %c0, 40 + 4000 + 8; at %cK, K > 0: %a, %c(K-1)
	 * and %cK, 40 + 4 (K + 1) + 4 (K + 2), at most 2444; at %tK 44 */
	ck_assert_uint_eq(peak, 40 + 4000 + 8);
	ck_assert_uint_eq(peak_of(text), peak);
	pl_module_free(m);
}
END_TEST

/* Many values freed at one instruction (its releases share a position,
 * more than a bucket sorts by insertion): 40 values of 4 bytes, all
 * last used by %s; at %s the argument, the 40 and %s: 40 + 160 + 4. */
START_TEST(many_freed_at_one)
{
	enum { N = 40 };
	char text[N * 64 + 256];
	size_t len = (size_t)snprintf(text, sizeof text, "func @f(%%a: f32[10]) {\n");
	for (int k = 0; k < N; k++)
		len += (size_t)snprintf(text + len, sizeof text - len,
		                        "  %%v%d = acme.op %%a : f32[1]\n", k);
	len += (size_t)snprintf(text + len, sizeof text - len, "  %%s = acme.op ");
	for (int k = 0; k < N; k++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%%v%d", k ? ", " : "", k);
	snprintf(text + len, sizeof text - len, " : f32[1]\n  return %%s\n}\n");
	ck_assert_uint_eq(peak_of(text), 40 + N * 4 + 4);
}
END_TEST

/* ---- buffers shared as XLA shares them (f32[100] is 400 bytes) ---- */

/* The peak of a step of the module's function called main. */
static uint64_t step_peak_of(const char *text)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	pl_callgraph *cg = NULL;
	char err[256];
	const pl_inst *at;
	ck_assert_int_eq(pl_callgraph_new(&cg, m, NULL, &at, err, sizeof err), PL_OK);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_callgraph_step_peak_bytes(cg, pl_module_find_func(m, "main"), &peak),
	                 PL_OK);
	pl_callgraph_free(cg);
	pl_module_free(m);
	return peak;
}

/* A bitcast, a reshape and a tuple are views, even of a value read
 * later: %a 400, %x 400 and %c 400 (each a buffer of its own would make
 * 400 x 6). */
START_TEST(views_allocate_nothing)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %b = hlo.bitcast %x : f32[10,10]\n"
	                          "  %r = hlo.reshape %b : f32[100]\n"
	                          "  %t = hlo.tuple %r : f32[100]\n"
	                          "  %c = acme.op %t, %x : f32[100]\n"
	                          "  return %c\n}\n"),
	                  1200);
}
END_TEST

/* A dynamic-update-slice updates %x in place when nothing reads %x
 * later: the arguments 400 + 40 + 4, %x 400 = 844. When %z reads %x
 * after it, %y is a copy: at %z 444 + %x 400 + %y 400 + %z 400 = 1644. */
START_TEST(dynamic_update_slice_in_place)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100], %u: f32[10], %i: i32[]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %y = hlo.dynamic_update_slice %x, %u, %i : f32[100]\n"
	                          "  return %y\n}\n"),
	                  844);
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100], %u: f32[10], %i: i32[]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %y = hlo.dynamic_update_slice %x, %u, %i : f32[100]\n"
	                          "  %z = acme.op %x, %y : f32[100]\n"
	                          "  return %z\n}\n"),
	                  1644);
}
END_TEST

/* A scatter updates its operand in place too: 400 + 40 + 4 + %x 400. */
START_TEST(scatter_in_place)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100], %u: f32[10], %i: i32[1]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %y = hlo.scatter %x, %i, %u : f32[100]\n"
	                          "  return %y\n}\n"),
	                  844);
}
END_TEST

/* A fusion whose root is a dynamic-update-slice (through a bitcast) of
 * its first parameter updates that operand in place: 844 as above; its
 * body holds nothing of its own. */
START_TEST(fusion_in_place)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100], %u: f32[10], %i: i32[]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %y = hlo.fusion %x, %u, %i {hlo_calls = \"%fused\"} : f32[100]\n"
	                          "  return %y\n}\n"
	                          "func @fused(%p: f32[100], %q: f32[10], %j: i32[]) {\n"
	                          "  %d = hlo.dynamic_update_slice %p, %q, %j : f32[100]\n"
	                          "  %b = hlo.bitcast %d : f32[100]\n"
	                          "  return %b\n}\n"),
	                  844);
}
END_TEST

/* The entry's parameters may not be written unless input_output_alias
 * donates them: %y copies %a (444 + 400 = 844); donated, %y is %a's
 * buffer (444). */
START_TEST(entry_parameters_and_donation)
{
	ck_assert_uint_eq(peak_of("func @main(%a: f32[100], %u: f32[10], %i: i32[]) "
	                          "attributes {entry = true} {\n"
	                          "  %y = hlo.dynamic_update_slice %a, %u, %i : f32[100]\n"
	                          "  return %y\n}\n"),
	                  844);
	ck_assert_uint_eq(peak_of("func @main(%a: f32[100], %u: f32[10], %i: i32[]) "
	                          "attributes {entry = true, hlo_module = \"HloModule m, "
	                          "input_output_alias={ {0}: (0, {}, may-alias) }\"} {\n"
	                          "  %y = hlo.dynamic_update_slice %a, %u, %i : f32[100]\n"
	                          "  return %y\n}\n"),
	                  444);
}
END_TEST

/* An output input_output_alias binds to a parameter lives in its buffer
 * once the parameter is read for the last time: %y (made after %a's last
 * read, at %y itself) takes no bytes: 400 + %t 400 = 800; unbound, %y is
 * an output of its own: 1200. */
START_TEST(output_bound_to_parameter)
{
	static const char body[] = "  %t = acme.op %a : f32[100]\n"
	                           "  %y = acme.op %t, %a : f32[100]\n"
	                           "  return %y\n}\n";
	char text[512];
	snprintf(text, sizeof text,
	         "func @main(%%a: f32[100]) attributes {entry = true, hlo_module = \"HloModule m, "
	         "input_output_alias={ {0}: (0, {}, may-alias) }\"} {\n%s",
	         body);
	ck_assert_uint_eq(peak_of(text), 800);
	snprintf(text, sizeof text, "func @main(%%a: f32[100]) attributes {entry = true} {\n%s",
	         body);
	ck_assert_uint_eq(peak_of(text), 1200);
}
END_TEST

/* A constant is a buffer for the whole function: at %x, %big 4000 (made
 * last) is live already with %a 400 and %x 400. */
START_TEST(constant_for_the_whole_function)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100]) {\n"
	                          "  %x = acme.op %a : f32[100]\n"
	                          "  %big = hlo.constant {hlo_constant = \"0\"} : f32[1000]\n"
	                          "  %y = acme.op %x, %big : f32[100]\n"
	                          "  return %y\n}\n"),
	                  400 + 4000 + 400 + 400);
}
END_TEST

/* A loop: @body holds its arguments (4 + 400) and constant (4) for the
 * whole function; %n lives in %i's buffer and %y in %x's (each made once
 * the argument is read for the last time); %t 4000: 4408, that is 4004
 * beyond its arguments. @cond: 404 + 4 + 1 = 409, 5 beyond. @main: %a 400
 * and %z 4 throughout; %x 400; the while's first result copies the
 * constant %z (4), its second takes %x's buffer (nothing reads %x later):
 * at the while 404 + 400 + 4 + 4004 = 4812. Alone, @body returns buffers
 * of its own: at %y 408 + %n 4 + %t 4000 + %y 400 = 4812 too. */
static const char loop[] =
	"func @body(%i: i32[], %x: f32[100]) {\n"
	"  %one = hlo.constant {hlo_constant = \"1\"} : i32[]\n"
	"  %n = hlo.add %i, %one : i32[]\n"
	"  %t = acme.op %x : f32[1000]\n"
	"  %y = acme.op %t : f32[100]\n"
	"  return %n, %y\n}\n"
	"func @cond(%i: i32[], %x: f32[100]) {\n"
	"  %c = hlo.constant {hlo_constant = \"3\"} : i32[]\n"
	"  %p = hlo.compare %i, %c {hlo_direction = \"LT\"} : bool[]\n"
	"  return %p\n}\n"
	"func @main(%a: f32[100]) attributes {entry = true} {\n"
	"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
	"  %x = acme.op %a : f32[100]\n"
	"  %w$0, %w$1 = hlo.while %z, %x {hlo_body = \"body\", hlo_condition = \"cond\"} "
	": (i32[], f32[100])\n"
	"  %r = acme.op %w$1 : f32[100]\n"
	"  return %r\n}\n";

START_TEST(loop_body_in_carried_buffers)
{
	ck_assert_uint_eq(step_peak_of(loop), 4812);
	pl_diags *d;
	pl_module *m = tu_parse(loop, &d);
	pl_diags_free(d);
	uint64_t peak = 0;
	ck_assert_int_eq(pl_func_peak_bytes(pl_module_find_func(m, "body"), &peak), PL_OK);
	ck_assert_uint_eq(peak, 4812);
	/* the report: the peak at %t in @body; the largest buffers %t 4000,
	 * then %a (a parameter) and %x, 400 each, in the order they were made */
	pl_callgraph *cg = NULL;
	char err[256];
	const pl_inst *at;
	ck_assert_int_eq(pl_callgraph_new(&cg, m, NULL, &at, err, sizeof err), PL_OK);
	pl_memory_report *r;
	ck_assert_int_eq(pl_callgraph_memory_report_new(&r, cg, pl_module_find_func(m, "main")),
	                 PL_OK);
	ck_assert_uint_eq(pl_memory_report_peak_bytes(r), 4812);
	const pl_inst *pk = pl_memory_report_peak_inst(r);
	ck_assert_ptr_nonnull(pk);
	ck_assert_str_eq(pl_value_name(pl_inst_result(pk, 0)), "t");
	ck_assert_str_eq(pl_func_name(pl_inst_func(pk)), "body");
	ck_assert_uint_eq(pl_memory_report_num_buffers(r), 6); /* %t %a %x %z %w$0 %one */
	uint64_t sum = 0;
	for (size_t k = 0; k < pl_memory_report_num_buffers(r); k++)
		sum += pl_memory_report_buffer_bytes(r, k);
	ck_assert_uint_eq(sum, 4812);
	ck_assert_str_eq(pl_value_name(pl_memory_report_buffer_value(r, 0)), "t");
	ck_assert_int_eq(pl_memory_report_buffer_kind(r, 0), PL_BUFFER_TEMPORARY);
	ck_assert_str_eq(pl_value_name(pl_memory_report_buffer_value(r, 1)), "a");
	ck_assert_int_eq(pl_memory_report_buffer_kind(r, 1), PL_BUFFER_PARAMETER);
	ck_assert_str_eq(pl_value_name(pl_memory_report_buffer_value(r, 2)), "x");
	ck_assert_str_eq(pl_buffer_kind_name(PL_BUFFER_IN_FLIGHT), "in-flight collective");
	pl_memory_report_free(r);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* A call whose callee returns its argument: the result is the operand's
 * buffer: %a 400 + %r 400 = 800 (a buffer of its own would make 1200). */
START_TEST(call_result_is_operand)
{
	ck_assert_uint_eq(step_peak_of("func @id(%x: f32[100]) {\n  return %x\n}\n"
	                               "func @main(%a: f32[100]) attributes {entry = true} {\n"
	                               "  %c = hlo.call %a {hlo_to_apply = \"id\"} : f32[100]\n"
	                               "  %r = acme.op %c : f32[100]\n"
	                               "  return %r\n}\n"),
	                  800);
}
END_TEST

/* A done's results are its start's buffers, even read after it: %s
 * (400, in flight) becomes %d; at %e: %a 400, %s/%d 400, %e 400 = 1200
 * (not 1600). */
START_TEST(done_is_start_buffer)
{
	ck_assert_uint_eq(peak_of("func @f(%a: f32[100]) {\n"
	                          "  %s = all_reduce_start %a {group_id = \"dp\", factor = 2, "
	                          "reduce = \"add\"} : f32[100]\n"
	                          "  %d = all_reduce_done %s : f32[100]\n"
	                          "  %e = acme.op %d, %s : f32[100]\n"
	                          "  return %e\n}\n"),
	                  1200);
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
	tcase_add_test(tc, detached_user_does_not_hold);
	tcase_add_test(tc, inserted_chain_matches_text);
	tcase_add_test(tc, many_freed_at_one);
	tcase_add_test(tc, views_allocate_nothing);
	tcase_add_test(tc, dynamic_update_slice_in_place);
	tcase_add_test(tc, scatter_in_place);
	tcase_add_test(tc, fusion_in_place);
	tcase_add_test(tc, entry_parameters_and_donation);
	tcase_add_test(tc, output_bound_to_parameter);
	tcase_add_test(tc, constant_for_the_whole_function);
	tcase_add_test(tc, loop_body_in_carried_buffers);
	tcase_add_test(tc, call_result_is_operand);
	tcase_add_test(tc, done_is_start_buffer);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(memory_suite)
