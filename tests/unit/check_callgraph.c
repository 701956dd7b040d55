/* SPDX-License-Identifier: MIT */
/* tests/unit/check_callgraph.c — the call graph (passline/callgraph.h):
 * call sites and their kinds, callers, the entry, execution counts, trip
 * counts from each source, the time of a step, and the errors. Every
 * number is worked out by hand in the comments. */
#include "testutil.h"

#include <passline/callgraph.h>
#include <passline/diag.h>

#include <stdio.h>

static pl_module *parse_pir(const char *text)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	return m;
}

static pl_module *parse_hlo(const char *text)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	int rc = pl_parse_hlo_buffer(text, strlen(text), "t.hlo", d, &m);
	ck_assert_msg(rc == PL_OK, "HLO parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	return m;
}

static pl_callgraph *graph(const pl_module *m, const char *trips)
{
	pl_callgraph *cg = NULL;
	char err[256];
	const pl_inst *at;
	int rc = pl_callgraph_new(&cg, m, trips, &at, err, sizeof err);
	ck_assert_msg(rc == PL_OK, "pl_callgraph_new: %s: %s", pl_status_string(rc), err);
	return cg;
}

static uint64_t runs(const pl_callgraph *cg, const pl_module *m, const char *fname)
{
	uint64_t hi = 7, lo = 7;
	const pl_func *f = pl_module_find_func(m, fname);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pl_callgraph_executions(cg, f, &hi, &lo), PL_OK);
	ck_assert_uint_eq(hi, 0);
	return lo;
}

/* XLA's shape of a scanned step: a counted while (s32 counter from 0, +1,
 * LT 80) whose body calls a fusion and a computation, a reduce whose
 * to_apply is a reducer, and a conditional. */
static const char scan_hlo[] =
	"HloModule scan\n"
	"\n"
	"add_f32 {\n"
	"  a = f32[] parameter(0)\n"
	"  b = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(a, b)\n"
	"}\n"
	"\n"
	"fused {\n"
	"  p = f32[8,8] parameter(0)\n"
	"  ROOT d = f32[8,8] dot(p, p), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
	"}\n"
	"\n"
	"helper {\n"
	"  q = f32[8,8] parameter(0)\n"
	"  ROOT n = f32[8,8] negate(q)\n"
	"}\n"
	"\n"
	"body {\n"
	"  t = (s32[], f32[8,8]) parameter(0)\n"
	"  i = s32[] get-tuple-element(t), index=0\n"
	"  x = f32[8,8] get-tuple-element(t), index=1\n"
	"  one = s32[] constant(1)\n"
	"  next = s32[] add(i, one)\n"
	"  f = f32[8,8] fusion(x), kind=kOutput, calls=fused\n"
	"  c = f32[8,8] call(f), to_apply=helper\n"
	"  ROOT r = (s32[], f32[8,8]) tuple(next, c)\n"
	"}\n"
	"\n"
	"cond {\n"
	"  t = (s32[], f32[8,8]) parameter(0)\n"
	"  i = s32[] get-tuple-element(t), index=0\n"
	"  n = s32[] constant(80)\n"
	"  ROOT lt = pred[] compare(i, n), direction=LT\n"
	"}\n"
	"\n"
	"yes {\n"
	"  y = f32[8,8] parameter(0)\n"
	"  ROOT e = f32[8,8] exponential(y)\n"
	"}\n"
	"\n"
	"no {\n"
	"  z = f32[8,8] parameter(0)\n"
	"  ROOT l = f32[8,8] log(z)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  x0 = f32[8,8] parameter(0)\n"
	"  zero = s32[] constant(0)\n"
	"  init = (s32[], f32[8,8]) tuple(zero, x0)\n"
	"  w = (s32[], f32[8,8]) while(init), condition=cond, body=body\n"
	"  out = f32[8,8] get-tuple-element(w), index=1\n"
	"  init0 = f32[] constant(0)\n"
	"  sum = f32[] reduce(out, init0), dimensions={0,1}, to_apply=add_f32\n"
	"  p = pred[] constant(true)\n"
	"  ROOT k = f32[8,8] conditional(p, out, out), true_computation=yes, "
	"false_computation=no\n"
	"}\n";

START_TEST(scanned_step)
{
	pl_module *m = parse_hlo(scan_hlo);
	pl_callgraph *cg = graph(m, NULL);
	ck_assert_ptr_eq(pl_callgraph_entry(cg), pl_module_find_func(m, "main"));
	/* the while: 80 trips, found from the counter */
	ck_assert_uint_eq(pl_callgraph_num_loops(cg), 1);
	ck_assert_str_eq(pl_callgraph_loop_name(cg, 0), "w");
	ck_assert_uint_eq(pl_callgraph_loop_trips(cg, 0), 80);
	ck_assert_int_eq(pl_callgraph_loop_source(cg, 0), PL_TRIP_COUNTED);
	/* runs: body 80, cond 81, the fusion and the call once per body */
	ck_assert_uint_eq(runs(cg, m, "main"), 1);
	ck_assert_uint_eq(runs(cg, m, "body"), 80);
	ck_assert_uint_eq(runs(cg, m, "cond"), 81);
	ck_assert_uint_eq(runs(cg, m, "fused"), 80);
	ck_assert_uint_eq(runs(cg, m, "helper"), 80);
	ck_assert_uint_eq(runs(cg, m, "yes"), 1);
	ck_assert_uint_eq(runs(cg, m, "no"), 1);
	/* a reducer is part of its reduce: it never runs as a function */
	ck_assert_uint_eq(runs(cg, m, "add_f32"), 0);
	ck_assert_uint_eq(pl_callgraph_num_callers(cg, pl_module_find_func(m, "add_f32")), 0);
	/* sites in module order: body's fusion, call; main's while (body,
	 * condition), conditional (true, false) */
	ck_assert_uint_eq(pl_callgraph_num_sites(cg), 6);
	static const pl_call_kind kinds[] = {PL_CALL_ONCE,      PL_CALL_ONCE,   PL_CALL_LOOP_BODY,
	                                     PL_CALL_LOOP_COND, PL_CALL_BRANCH, PL_CALL_BRANCH};
	static const char *const callees[] = {"fused", "helper", "body", "cond", "yes", "no"};
	for (size_t i = 0; i < 6; i++) {
		ck_assert_int_eq(pl_callgraph_site_kind(cg, i), kinds[i]);
		ck_assert_str_eq(pl_func_name(pl_callgraph_site_callee(cg, i)), callees[i]);
	}
	/* the callers of body: the while's site */
	const pl_func *body = pl_module_find_func(m, "body");
	ck_assert_uint_eq(pl_callgraph_num_callers(cg, body), 1);
	size_t s = pl_callgraph_caller(cg, body, 0);
	ck_assert_uint_eq(s, 2);
	ck_assert_str_eq(pl_inst_opname(pl_callgraph_site_inst(cg, s)), "hlo.while");
	ck_assert_ptr_eq(pl_inst_func(pl_callgraph_site_inst(cg, s)),
	                 pl_module_find_func(m, "main"));
	pl_callgraph_free(cg);

	/* a given count wins over the counted one */
	cg = graph(m, "w=3");
	ck_assert_uint_eq(pl_callgraph_loop_trips(cg, 0), 3);
	ck_assert_int_eq(pl_callgraph_loop_source(cg, 0), PL_TRIP_GIVEN);
	ck_assert_uint_eq(runs(cg, m, "cond"), 4);
	ck_assert_uint_eq(runs(cg, m, "fused"), 3);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* Counts from known_trip_count, and each comparison of the counted loop. */
static uint64_t trips_of(const char *cond_cmp, const char *init, const char *step_op,
                         const char *step, pl_trip_source *src)
{
	char text[2048];
	snprintf(text, sizeof text,
	         "func @b(%%i: i32[]) {\n"
	         "  %%s = hlo.constant {hlo_constant = \"%s\"} : i32[]\n"
	         "  %%n = %s %%i, %%s : i32[]\n"
	         "  return %%n\n"
	         "}\n"
	         "func @c(%%i: i32[]) {\n"
	         "  %%k = hlo.constant {hlo_constant = \"10\"} : i32[]\n"
	         "  %%p = hlo.compare %s {hlo_direction = \"%s\"} : bool[]\n"
	         "  return %%p\n"
	         "}\n"
	         "func @main() attributes {entry = true} {\n"
	         "  %%z = hlo.constant {hlo_constant = \"%s\"} : i32[]\n"
	         "  %%w = hlo.while %%z {hlo_body = \"b\", hlo_condition = \"c\"} : i32[]\n"
	         "  return %%w\n"
	         "}\n",
	         step, step_op, cond_cmp[0] == 'i' ? "%i, %k" : "%k, %i", cond_cmp + 2, init);
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, NULL);
	uint64_t n = pl_callgraph_loop_trips(cg, 0);
	*src = pl_callgraph_loop_source(cg, 0);
	pl_callgraph_free(cg);
	pl_module_free(m);
	return n;
}

START_TEST(counted_loops)
{
	pl_trip_source src;
	/* "i:LT" compares i LT 10; "k:LT" compares 10 LT i */
	ck_assert_uint_eq(trips_of("i:LT", "0", "hlo.add", "1", &src), 10);
	ck_assert_int_eq(src, PL_TRIP_COUNTED);
	ck_assert_uint_eq(trips_of("i:LT", "0", "hlo.add", "3", &src), 4);  /* 0 3 6 9 */
	ck_assert_uint_eq(trips_of("i:LE", "0", "hlo.add", "3", &src), 4);  /* 0 3 6 9 */
	ck_assert_uint_eq(trips_of("i:LE", "1", "hlo.add", "3", &src), 4);  /* 1 4 7 10 */
	ck_assert_uint_eq(trips_of("i:GT", "20", "hlo.subtract", "5", &src), 2); /* 20 15 */
	ck_assert_uint_eq(trips_of("i:GE", "20", "hlo.subtract", "5", &src), 3); /* 20 15 10 */
	ck_assert_uint_eq(trips_of("i:NE", "4", "hlo.add", "2", &src), 3);  /* 4 6 8 */
	ck_assert_uint_eq(trips_of("i:LT", "10", "hlo.add", "1", &src), 0); /* never */
	ck_assert_int_eq(src, PL_TRIP_COUNTED);
	/* 10 GT i is i LT 10 */
	ck_assert_uint_eq(trips_of("k:GT", "0", "hlo.add", "2", &src), 5);
	ck_assert_int_eq(src, PL_TRIP_COUNTED);
	/* not ending, or not known to: unknown, counted as 1 */
	ck_assert_uint_eq(trips_of("i:NE", "3", "hlo.add", "2", &src), 1);
	ck_assert_int_eq(src, PL_TRIP_UNKNOWN);
	ck_assert_uint_eq(trips_of("i:LT", "0", "hlo.subtract", "1", &src), 1);
	ck_assert_int_eq(src, PL_TRIP_UNKNOWN);
	ck_assert_uint_eq(trips_of("i:LT", "0", "hlo.multiply", "2", &src), 1);
	ck_assert_int_eq(src, PL_TRIP_UNKNOWN);
}
END_TEST

START_TEST(known_trip_count)
{
	static const char text[] =
		"func @b(%i: i32[]) {\n  return %i\n}\n"
		"func @c(%i: i32[]) {\n  %t = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  return %t\n}\n"
		"func @main() attributes {entry = true} {\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
		"  %w = hlo.while %z {hlo_body = \"b\", hlo_condition = \"c\", "
		"hlo_backend_config = \"{\\\"known_trip_count\\\":{\\\"n\\\":\\\"12\\\"}}\"} : i32[]\n"
		"  return %w\n}\n";
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, NULL);
	ck_assert_uint_eq(pl_callgraph_loop_trips(cg, 0), 12);
	ck_assert_int_eq(pl_callgraph_loop_source(cg, 0), PL_TRIP_KNOWN);
	ck_assert_uint_eq(runs(cg, m, "b"), 12);
	ck_assert_uint_eq(runs(cg, m, "c"), 13);
	pl_callgraph_free(cg);
	pl_module_free(m);

	/* the backend config written as a string, its quotes escaped */
	static const char hlo[] =
		"HloModule k\n"
		"b {\n  p = s32[] parameter(0)\n  ROOT q = s32[] negate(p)\n}\n"
		"c {\n  p = s32[] parameter(0)\n  ROOT t = pred[] constant(true)\n}\n"
		"ENTRY main {\n  z = s32[] constant(0)\n"
		"  ROOT w = s32[] while(z), condition=c, body=b, "
		"backend_config=\"{\\\"known_trip_count\\\":{\\\"n\\\":\\\"7\\\"}}\"\n}\n";
	m = parse_hlo(hlo);
	cg = graph(m, NULL);
	ck_assert_uint_eq(pl_callgraph_loop_trips(cg, 0), 7);
	ck_assert_int_eq(pl_callgraph_loop_source(cg, 0), PL_TRIP_KNOWN);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* Without an entry every function counts once, loops or not. */
START_TEST(no_entry)
{
	static const char text[] =
		"func @b(%i: i32[]) {\n  return %i\n}\n"
		"func @c(%i: i32[]) {\n  %t = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  return %t\n}\n"
		"func @main() {\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
		"  %w = hlo.while %z {hlo_body = \"b\", hlo_condition = \"c\", "
		"hlo_backend_config = \"{\\\"known_trip_count\\\":{\\\"n\\\":\\\"12\\\"}}\"} : i32[]\n"
		"  return %w\n}\n";
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, NULL);
	ck_assert_ptr_null(pl_callgraph_entry(cg));
	ck_assert_uint_eq(runs(cg, m, "b"), 1);
	ck_assert_uint_eq(runs(cg, m, "c"), 1);
	ck_assert_uint_eq(runs(cg, m, "main"), 1);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* pl_module_rewritable_funcs: what an async-start, fusion or reducer
 * calls, and what that calls in turn, is part of one instruction; the
 * entry, a call's callee, a loop's body and condition are code. */
START_TEST(rewritable)
{
	static const char text[] =
		"func @r(%a: f32[], %b: f32[]) {\n  %s = hlo.add %a, %b : f32[]\n  return %s\n}\n"
		"func @inner(%x: f32[4]) {\n  return %x\n}\n"
		"func @fz(%x: f32[4]) {\n"
		"  %c = hlo.call %x {hlo_to_apply = \"inner\"} : f32[4]\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : f32[]\n"
		"  %d = hlo.reduce %c, %z {hlo_to_apply = \"%r\"} : f32[]\n"
		"  return %c\n}\n"
		"func @w(%x: f32[4]) {\n  return %x\n}\n"
		"func @both(%x: f32[4]) {\n  return %x\n}\n"
		"func @callee(%x: f32[4]) {\n  return %x\n}\n"
		"func @body(%i: i32[]) {\n  return %i\n}\n"
		"func @cond(%i: i32[]) {\n  %t = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  return %t\n}\n"
		"func @main(%x: f32[4]) attributes {entry = true} {\n"
		"  %f = hlo.fusion %x {hlo_calls = \"{%fz}\"} : f32[4]\n"
		"  %a = hlo.async_start %x {hlo_calls = \"%w\"} : f32[4]\n"
		"  %k = hlo.call %x {hlo_to_apply = \"callee\"} : f32[4]\n"
		"  %b = hlo.call %x {hlo_to_apply = \"both\"} : f32[4]\n"
		"  %m = hlo.map %x {hlo_to_apply = \"both\"} : f32[4]\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
		"  %l = hlo.while %z {hlo_body = \"body\", hlo_condition = \"cond\"} : i32[]\n"
		"  return %f\n}\n";
	static const char *const names[] = {"r", "inner", "fz", "w", "both", "callee", "body",
	                                    "cond", "main"};
	static const bool want[] = {false, false, false, false, false, true, true, true, true};
	pl_module *m = parse_pir(text);
	size_t n = pl_module_num_funcs(m);
	ck_assert_uint_eq(n, 9);
	bool out[9];
	ck_assert_int_eq(pl_module_rewritable_funcs(m, out, n), PL_OK);
	for (size_t k = 0; k < n; k++) {
		ck_assert_str_eq(pl_func_name(pl_module_func_at(m, k)), names[k]);
		ck_assert_msg(out[k] == want[k], "@%s: %d", names[k], out[k]);
	}
	ck_assert_int_eq(pl_module_rewritable_funcs(m, out, n - 1), PL_EINVAL);
	/* applied inside a kernel, not transitively: @fz (a fusion's body),
	 * @r (a reduce's reducer) and @both (a map's function); not @inner
	 * (called by @fz), @w (an async-start's), @callee, the loop's */
	static const bool kernel[] = {true, false, true, false, true, false, false, false, false};
	ck_assert_int_eq(pl_module_kernel_funcs(m, out, n), PL_OK);
	for (size_t k = 0; k < n; k++)
		ck_assert_msg(out[k] == kernel[k], "kernel @%s: %d", names[k], out[k]);
	ck_assert_int_eq(pl_module_kernel_funcs(m, out, n + 1), PL_EINVAL);
	pl_module_free(m);
}
END_TEST

/* Nested loops of 1000 trips: five deep, 10^15 runs; seven deep, 10^21,
 * past 2^64 and exact in 128 bits. */
START_TEST(wide_counts)
{
	char text[8192];
	size_t n = 0;
	const int depth = 8;
	for (int d = 0; d < depth; d++) {
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "func @c%d(%%i: i32[]) {\n"
		                      "  %%t = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		                      "  return %%t\n}\n",
		                      d);
		n += (size_t)snprintf(text + n, sizeof text - n, "func @f%d(%%i: i32[])%s {\n", d,
		                      d == 0 ? " attributes {entry = true}" : "");
		if (d + 1 < depth)
			n += (size_t)snprintf(text + n, sizeof text - n,
			                      "  %%w = hlo.while %%i {hlo_body = \"f%d\", hlo_condition = "
			                      "\"c%d\"} : i32[]\n  return %%w\n}\n",
			                      d + 1, d + 1);
		else
			n += (size_t)snprintf(text + n, sizeof text - n, "  return %%i\n}\n");
	}
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, "w=1000");
	uint64_t hi, lo;
	ck_assert_int_eq(pl_callgraph_executions(cg, pl_module_find_func(m, "f5"), &hi, &lo),
	                 PL_OK);
	ck_assert_uint_eq(hi, 0);
	ck_assert_uint_eq(lo, 1000000000000000ULL);
	ck_assert_int_eq(pl_callgraph_executions(cg, pl_module_find_func(m, "f7"), &hi, &lo),
	                 PL_OK);
	char dec[PL_U128_DEC_BUFSIZE];
	ck_assert_str_eq(pl_u128_format(hi, lo, dec), "1000000000000000000000");
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* The time of a step under M (peak 1000 flop/ns): a while of 4 trips
 * whose body is one contract of 2 x 1000 flops (2 ns) and whose condition
 * is one constant (a constant only names a value: 0 ns); a conditional
 * whose branches take 3 ns and 5 ns; a call of 2 ns. Entry: 0 (constant)
 * + 4 x 2 + 5 x 0 = 8 for the while + 5 (the longer branch) + 2 (the call)
 * + 0 (the predicate, a constant) = 15. */
START_TEST(step_time)
{
	static const char text[] =
		"func @b(%i: i32[], %x: f32[10]) {\n"
		"  %y = tensor_contract %x, %x {domain = [1000], flops = 2} : f32[10]\n"
		"  return %i, %y\n}\n"
		"func @c(%i: i32[], %x: f32[10]) {\n"
		"  %t = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  return %t\n}\n"
		"func @three(%x: f32[10]) {\n"
		"  %y = hlo.negate %x {num_dynamic_instances = 3000} : f32[10]\n  return %y\n}\n"
		"func @five(%x: f32[10]) {\n"
		"  %y = hlo.negate %x {num_dynamic_instances = 5000} : f32[10]\n  return %y\n}\n"
		"func @two(%x: f32[10]) {\n"
		"  %y = hlo.negate %x {num_dynamic_instances = 2000} : f32[10]\n  return %y\n}\n"
		"func @main(%x: f32[10]) attributes {entry = true} {\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
		"  %w$0, %w$1 = hlo.while %z, %x {hlo_body = \"b\", hlo_condition = \"c\"} : "
		"(i32[], f32[10])\n"
		"  %p = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  %k = hlo.conditional %p, %w$1, %w$1 {hlo_branch_computations = \"{%three, %five}\"} "
		": f32[10]\n"
		"  %e = hlo.call %k {hlo_to_apply = \"%two\"} : f32[10]\n"
		"  return %e\n}\n";
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, "w=4");
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1000), PL_OK);
	uint64_t t = 0;
	ck_assert_int_eq(pl_callgraph_step_ns(cg, pl_module_find_func(m, "main"), cm, &t), PL_OK);
	ck_assert_uint_eq(t, 15);
	ck_assert_int_eq(pl_callgraph_step_ns(cg, pl_module_find_func(m, "b"), cm, &t), PL_OK);
	ck_assert_uint_eq(t, 2);
	/* the same step with rows: the while [0, 8), the conditional [8, 13),
	 * the call [13, 15) */
	pl_schedule *s = (pl_schedule *)1;
	ck_assert_int_eq(pl_callgraph_schedule_new(&s, cg, pl_module_find_func(m, "main"), cm, PL_FUSION_OFF, 0),
	                 PL_OK);
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), 15);
	ck_assert_uint_eq(pl_schedule_num_insts(s), 6); /* and the return */
	static const uint64_t begin[] = {0, 0, 8, 8, 13, 15}, end[] = {0, 8, 8, 13, 15, 15};
	for (size_t i = 0; i < 6; i++) {
		ck_assert_uint_eq(pl_schedule_begin_ns(s, i), begin[i]);
		ck_assert_uint_eq(pl_schedule_end_ns(s, i), end[i]);
	}
	pl_schedule_free(s);
	s = (pl_schedule *)1;
	pl_module *other = parse_pir(text);
	ck_assert_int_eq(pl_callgraph_schedule_new(&s, cg, pl_module_find_func(other, "main"), cm, PL_FUSION_OFF, 0),
	                 PL_ENOTFOUND);
	ck_assert_ptr_null(s);
	pl_module_free(other);
	ck_assert_uint_eq(runs(cg, m, "three"), 1);
	ck_assert_uint_eq(runs(cg, m, "two"), 1);
	pl_cost_model_free(cm);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

/* The step with the fusion model, exact model at 1 byte/ns and 1000
 * flop/ns, each kernel its roofline time plus a floor of 100 ns. The body
 * (3 trips) reads x (4000 B) and writes b = exp(-x) (4000 B) in one loop
 * kernel: 8000 + 100 ns; its counter j = i + 1 is a kernel of its own
 * (i read, j written, 4 B each; the constant inside it): 8 + 100 ns; a
 * get-tuple-element, a constant and the tuple cost nothing. So the body
 * takes 8208 ns; the condition's compare reads 4 B and writes 1 B:
 * 5 + 100 ns. The entry: the while 3 x 8208 + 4 x 105 = 25044, then
 * sqrt(y), 8000 + 100: 33144 ns. Op by op the body is negate 8000 +
 * exp 8000 + add 12 (two operands and a result) = 16012 ns, the
 * condition's compare 9 (4 + 4 + 1 B), the entry 3 x 16012 + 4 x 9 +
 * 8000 = 56072. An existing fusion instruction is one kernel: the entry
 * of the second module reads and writes 4000 B through one fusion
 * (8000 ns, no floor: the function is costed op by op) while its body op
 * by op would take 16000. */
START_TEST(step_time_fused)
{
	static const char text[] =
		"HloModule t\n"
		"body {\n"
		"  p = (s32[], f32[1000]) parameter(0)\n"
		"  i = s32[] get-tuple-element(p), index=0\n"
		"  x = f32[1000] get-tuple-element(p), index=1\n"
		"  one = s32[] constant(1)\n"
		"  j = s32[] add(i, one)\n"
		"  a = f32[1000] negate(x)\n"
		"  b = f32[1000] exponential(a)\n"
		"  ROOT r = (s32[], f32[1000]) tuple(j, b)\n}\n"
		"cond {\n"
		"  p = (s32[], f32[1000]) parameter(0)\n"
		"  i = s32[] get-tuple-element(p), index=0\n"
		"  n = s32[] constant(3)\n"
		"  ROOT c = pred[] compare(i, n), direction=LT\n}\n"
		"ENTRY main {\n"
		"  x = f32[1000] parameter(0)\n"
		"  z = s32[] constant(0)\n"
		"  t = (s32[], f32[1000]) tuple(z, x)\n"
		"  w = (s32[], f32[1000]) while(t), condition=cond, body=body\n"
		"  y = f32[1000] get-tuple-element(w), index=1\n"
		"  ROOT s = f32[1000] sqrt(y)\n}\n";
	static const char fused[] =
		"HloModule u\n"
		"f {\n"
		"  x = f32[1000] parameter(0)\n"
		"  a = f32[1000] negate(x)\n"
		"  ROOT b = f32[1000] exponential(a)\n}\n"
		"ENTRY main {\n"
		"  x = f32[1000] parameter(0)\n"
		"  ROOT k = f32[1000] fusion(x), kind=kLoop, calls=f\n}\n";
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1000), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "memory_gbps", 1), PL_OK);
	pl_module *m = parse_hlo(text);
	pl_callgraph *cg = graph(m, "");
	const pl_func *entry = pl_callgraph_entry(cg);
	uint64_t t = 0, off = 0;
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, PL_FUSION_AUTO, 100, &t), PL_OK);
	ck_assert_uint_eq(t, 33144);
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, PL_FUSION_ON, 100, &t), PL_OK);
	ck_assert_uint_eq(t, 33144);
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, PL_FUSION_OFF, 100, &off), PL_OK);
	ck_assert_uint_eq(off, 56072);
	ck_assert_int_eq(pl_callgraph_step_ns(cg, entry, cm, &t), PL_OK);
	ck_assert_uint_eq(t, off);
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, (pl_fusion_mode)7, 100, &t),
	                 PL_EINVAL);
	pl_callgraph_free(cg);
	pl_module_free(m);

	m = parse_hlo(fused);
	cg = graph(m, "");
	entry = pl_callgraph_entry(cg);
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, PL_FUSION_AUTO, 100, &t), PL_OK);
	ck_assert_uint_eq(t, 8000);
	ck_assert_int_eq(pl_callgraph_step_fused_ns(cg, entry, cm, PL_FUSION_OFF, 100, &t), PL_OK);
	ck_assert_uint_eq(t, 16000);
	pl_callgraph_free(cg);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* The peak of a step, worked by hand (f32[16] is 64 bytes, f32[1024]
 * 4096). @big holds its argument (64), then %a (4096), then %b beside %a
 * (64): 4224. @small: 64 + 64 = 128. @main holds %x (64) and the
 * constant %p (1) throughout; at %k its result (64): 129, and while a
 * branch runs the larger one's peak beyond its argument and what it
 * returns (the branch's %b is %k's buffer), 4224 - 64 - 64 = 4096: 4225;
 * at the fusion of @big 64 + 1 + 64 + 64 = 193 and nothing more (a
 * fusion's body is one kernel). So the step's peak is 4225, @main's own
 * 193 (at the fusion), and @big's step is its own peak. */
START_TEST(step_peak)
{
	static const char text[] =
		"func @big(%x: f32[16]) {\n"
		"  %a = hlo.negate %x : f32[1024]\n"
		"  %b = hlo.negate %a : f32[16]\n"
		"  return %b\n}\n"
		"func @small(%x: f32[16]) {\n"
		"  %a = hlo.negate %x : f32[16]\n  return %a\n}\n"
		"func @main(%x: f32[16]) attributes {entry = true} {\n"
		"  %p = hlo.constant {hlo_constant = \"true\"} : bool[]\n"
		"  %k = hlo.conditional %p, %x, %x {hlo_branch_computations = \"{%big, %small}\"} "
		": f32[16]\n"
		"  %f = hlo.fusion %k {hlo_calls = \"big\"} : f32[16]\n"
		"  return %f\n}\n";
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = graph(m, "");
	uint64_t b = 0;
	ck_assert_int_eq(pl_callgraph_step_peak_bytes(cg, pl_module_find_func(m, "main"), &b), PL_OK);
	ck_assert_uint_eq(b, 4225);
	ck_assert_int_eq(pl_func_peak_bytes(pl_module_find_func(m, "main"), &b), PL_OK);
	ck_assert_uint_eq(b, 193);
	ck_assert_int_eq(pl_callgraph_step_peak_bytes(cg, pl_module_find_func(m, "big"), &b), PL_OK);
	ck_assert_uint_eq(b, 4224);
	pl_module *other = parse_pir(text);
	ck_assert_int_eq(pl_callgraph_step_peak_bytes(cg, pl_module_find_func(other, "main"), &b),
	                 PL_ENOTFOUND);
	pl_module_free(other);
	pl_callgraph_free(cg);
	pl_module_free(m);
}
END_TEST

static void expect_error(const char *text, const char *trips, int want_rc, const char *want_msg,
                         bool want_at)
{
	pl_module *m = parse_pir(text);
	pl_callgraph *cg = (pl_callgraph *)1;
	const pl_inst *at = NULL;
	char err[256];
	ck_assert_int_eq(pl_callgraph_new(&cg, m, trips, &at, err, sizeof err), want_rc);
	ck_assert_ptr_null(cg);
	ck_assert_msg(strstr(err, want_msg) != NULL, "message '%s' lacks '%s'", err, want_msg);
	ck_assert_int_eq(at != NULL, want_at);
	pl_module_free(m);
}

START_TEST(errors)
{
	static const char loop[] =
		"func @b(%i: i32[]) {\n  return %i\n}\n"
		"func @main() attributes {entry = true} {\n"
		"  %z = hlo.constant {hlo_constant = \"0\"} : i32[]\n"
		"  %w = hlo.while %z {hlo_body = \"b\", hlo_condition = \"b\"} : i32[]\n"
		"  return %w\n}\n";
	expect_error(loop, "x=1", PL_ENOTFOUND, "no loop is named 'x'", false);
	expect_error(loop, "w", PL_EPARSE, "NAME=N", false);
	expect_error(loop, "w=-1", PL_EPARSE, "integer >= 0", false);
	expect_error(loop, "w=99999999999999999999", PL_EPARSE, "2^64 - 1", false);
	expect_error("func @a() attributes {entry = true} {\n  return\n}\n"
	             "func @b() attributes {hlo_entry = true} {\n  return\n}\n",
	             NULL, PL_EINVAL, "@a and @b are both marked entry", false);
	expect_error("func @main() attributes {entry = true} {\n"
	             "  %c = hlo.call {hlo_to_apply = \"nowhere\"} : f32[]\n  return\n}\n",
	             NULL, PL_ENOTFOUND, "@nowhere", true);
	/* without an entry nothing is counted from calls: a missing callee is
	 * left out */
	pl_module *m = parse_pir("func @main() {\n"
	                         "  %c = hlo.call {hlo_to_apply = \"nowhere\"} : f32[]\n"
	                         "  return\n}\n");
	pl_callgraph *cg = graph(m, NULL);
	ck_assert_uint_eq(pl_callgraph_num_sites(cg), 0);
	pl_callgraph_free(cg);
	pl_module_free(m);
	expect_error("func @main() attributes {entry = true} {\n"
	             "  %c = hlo.call {hlo_to_apply = \"f\"} : f32[]\n  return\n}\n"
	             "func @f() {\n  %d = hlo.call {hlo_to_apply = \"main\"} : f32[]\n  return\n}\n",
	             NULL, PL_EINVAL, "calls itself", true);
}
END_TEST

static Suite *callgraph_suite(void)
{
	Suite *s = suite_create("callgraph");
	TCase *tc = tcase_create("graph");
	tcase_add_test(tc, scanned_step);
	tcase_add_test(tc, counted_loops);
	tcase_add_test(tc, known_trip_count);
	tcase_add_test(tc, no_entry);
	tcase_add_test(tc, wide_counts);
	tcase_add_test(tc, step_time);
	tcase_add_test(tc, step_time_fused);
	tcase_add_test(tc, step_peak);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, rewritable);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(callgraph_suite)
