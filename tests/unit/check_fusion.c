/* SPDX-License-Identifier: MIT */
/* tests/unit/check_fusion.c — the fusion model (passline/fusion.h): the
 * kernels it makes of small HLO functions, the bytes each moves, their
 * times and the schedule over them.
 *
 * Every partition and byte count is worked out by hand in the test's
 * comment. The model is M: peak_gflops 1000, memory_gbps 100, and a floor
 * of 7 ns per kernel, so a kernel of F flops and B bytes takes
 * max(ceil(F / 1000), ceil(B / 100)) + 7 ns. f32 is 4 bytes. An HLO op
 * computes one flop per element of its result (a dot: 2 per point of its
 * domain); layout ops (broadcast, transpose, reshape, ...) count none.
 */
#include "testutil.h"

#include <stdio.h>

#define REDUCER "add { p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n" \
	"ROOT s = f32[] add(p0, p1) }\n"

static pl_cost_model *model_m(void)
{
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_ptr_nonnull(cm);
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1000), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "memory_gbps", 100), PL_OK);
	return cm;
}

static pl_module *parse_hlo(const char *text)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	int rc = pl_parse_hlo_buffer(text, strlen(text), "test.hlo", d, &m);
	ck_assert_msg(rc == PL_OK, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	return m;
}

static const pl_func *entry(const pl_module *m)
{
	for (size_t i = 0; i < pl_module_num_funcs(m); i++) {
		pl_func *f = pl_module_func_at(m, i);
		bool e = false;
		if (pl_attrs_get_bool(pl_func_attrs(f), "hlo_entry", &e) == PL_OK && e)
			return f;
	}
	ck_abort_msg("no entry");
	return NULL;
}

/* The kernel of the instruction whose first result is named name. */
static size_t kernel_of(const pl_fusion *fu, const pl_func *f, const char *name)
{
	size_t i = 0;
	for (const pl_inst *inst = pl_func_first_inst(f); inst; inst = pl_inst_next(inst), i++) {
		const char *n = pl_inst_num_results(inst) ? pl_value_name(pl_inst_result(inst, 0))
		                                          : NULL;
		if (n && strcmp(n, name) == 0)
			return pl_fusion_inst_kernel(fu, i);
	}
	ck_abort_msg("no instruction %%%s", name);
	return SIZE_MAX;
}

/* The names of kernel k's instructions, space-separated. */
static void members(const pl_fusion *fu, size_t k, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < pl_fusion_kernel_num_insts(fu, k); i++) {
		const pl_inst *inst = pl_fusion_kernel_inst(fu, k, i);
		int w = snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
		                 pl_value_name(pl_inst_result(inst, 0)));
		ck_assert(w > 0 && (size_t)w < cap - len);
		len += (size_t)w;
	}
}

static pl_fusion *fuse(const pl_func *f, const pl_cost_model *cm)
{
	pl_fusion *fu = NULL;
	int rc = pl_fusion_new(&fu, f, cm, 7);
	ck_assert_msg(rc == PL_OK, "pl_fusion_new: %s", pl_status_string(rc));
	return fu;
}

static void expect_kernel(const pl_fusion *fu, size_t k, pl_kernel_kind kind, const char *names,
                          uint64_t flops, uint64_t bytes, uint64_t time)
{
	char buf[256];
	members(fu, k, buf, sizeof buf);
	ck_assert_str_eq(buf, names);
	ck_assert_int_eq(pl_fusion_kernel_kind(fu, k), kind);
	ck_assert_uint_eq(pl_fusion_kernel_flops(fu, k), flops);
	ck_assert_uint_eq(pl_fusion_kernel_bytes(fu, k), bytes);
	ck_assert_uint_eq(pl_fusion_kernel_time_ns(fu, k), time);
}

/* A reduce of the last dimension alone with its producer and consumer is
 * one kernel (the normalization pattern): {m, r, n}. It reads x (32 f32,
 * 128 bytes) and writes n (4 f32, 16 bytes): 144 bytes; the scalar
 * constant costs nothing. Flops m 32 + r 4 + n 4 = 40. Time
 * max(1, ceil(144 / 100) = 2) + 7 = 9. */
START_TEST(row_reduce_one_kernel)
{
	pl_module *m = parse_hlo("HloModule t\n" REDUCER
	                         "ENTRY e {\n x = f32[4,8] parameter(0)\n c = f32[] constant(0)\n"
	                         " m = f32[4,8] multiply(x, x)\n"
	                         " r = f32[4] reduce(m, c), dimensions={1}, to_apply=add\n"
	                         " ROOT n = f32[4] negate(r)\n}\n");
	pl_cost_model *cm = model_m();
	const pl_func *f = entry(m);
	pl_fusion *fu = fuse(f, cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_REDUCE, "m r n", 40, 144, 9);
	ck_assert_uint_eq(kernel_of(fu, f, "c"), SIZE_MAX);
	ck_assert_uint_eq(pl_fusion_bytes(fu), 144);
	ck_assert_uint_eq(pl_fusion_time_ns(fu), 9);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* A reduce of dimension 0 does not take its consumer: {m, r} reads x 128
 * and writes r 32 (8 f32): 160 bytes, flops 32 + 8 = 40, time 2 + 7 = 9;
 * {n} reads r 32 and writes n 32: 64 bytes, flops 8, time 1 + 7 = 8. */
START_TEST(column_reduce_two_kernels)
{
	pl_module *m = parse_hlo("HloModule t\n" REDUCER
	                         "ENTRY e {\n x = f32[4,8] parameter(0)\n c = f32[] constant(0)\n"
	                         " m = f32[4,8] multiply(x, x)\n"
	                         " r = f32[8] reduce(m, c), dimensions={0}, to_apply=add\n"
	                         " ROOT n = f32[8] negate(r)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 2);
	expect_kernel(fu, 0, PL_KERNEL_REDUCE, "m r", 40, 160, 9);
	expect_kernel(fu, 1, PL_KERNEL_LOOP, "n", 8, 64, 8);
	ck_assert_uint_eq(pl_fusion_bytes(fu), 224);
	ck_assert_uint_eq(pl_fusion_time_ns(fu), 17);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* A dot takes its operand's transpose and its epilogue (the add, whose
 * addend b has no other user; the relu's maximum, with its broadcast of a
 * scalar): one kernel {t d s z r}. Reads a (6 f32, 24), w (12 f32, 48),
 * b (8 f32, 32), writes r 32: 136 bytes. Flops: the dot's domain 2 x 4 x 3
 * = 24 points x 2 = 48, s 8, r 8: 64. Time max(1, 2) + 7 = 9. */
START_TEST(matmul_epilogue)
{
	pl_module *m = parse_hlo(
		"HloModule t\n"
		"ENTRY e {\n a = f32[2,3] parameter(0)\n w = f32[4,3] parameter(1)\n"
		" b = f32[2,4] parameter(2)\n t = f32[3,4] transpose(w), dimensions={1,0}\n"
		" d = f32[2,4] dot(a, t), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		" s = f32[2,4] add(d, b)\n c = f32[] constant(0)\n"
		" z = f32[2,4] broadcast(c), dimensions={}\n"
		" ROOT r = f32[2,4] maximum(s, z)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_MATMUL, "t d s z r", 64, 136, 9);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* A reshape between the dot and its add keeps the epilogue going: one
 * kernel {d q s} reads a 24, w 48 and b 32, writes s 32: 136 bytes; flops
 * 48 + 8 = 56 (the reshape none); 2 + 7 = 9 ns. A second add after the
 * first is not an epilogue: {s2} reads s 32 and c 32, writes 32. */
START_TEST(matmul_epilogue_through_reshape)
{
	pl_module *m = parse_hlo(
		"HloModule t\n"
		"ENTRY e {\n a = f32[2,3] parameter(0)\n w = f32[3,4] parameter(1)\n"
		" b = f32[8] parameter(2)\n c = f32[8] parameter(3)\n"
		" d = f32[2,4] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		" q = f32[8] reshape(d)\n s = f32[8] add(q, b)\n"
		" ROOT s2 = f32[8] add(s, c)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 2);
	expect_kernel(fu, 0, PL_KERNEL_MATMUL, "d q s", 56, 136, 9);
	expect_kernel(fu, 1, PL_KERNEL_LOOP, "s2", 8, 96, 8);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* The addend b2 has another user (q): the add stays out of the matmul,
 * which ends at the dot: {d} reads a 24 and w 48 and writes d 32 (the add
 * reads it): 104 bytes, flops 48, time 2 + 7 = 9. {s q} reads d 32 and
 * b2 32, writes q 32: 96 bytes, flops 16, time 1 + 7 = 8. */
START_TEST(matmul_shared_addend)
{
	pl_module *m = parse_hlo(
		"HloModule t\n"
		"ENTRY e {\n a = f32[2,3] parameter(0)\n w = f32[3,4] parameter(1)\n"
		" b = f32[2,4] parameter(2)\n b2 = f32[2,4] negate(b)\n"
		" d = f32[2,4] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		" s = f32[2,4] add(d, b2)\n ROOT q = f32[2,4] multiply(s, b2)\n}\n");
	pl_cost_model *cm = model_m();
	const pl_func *f = entry(m);
	pl_fusion *fu = fuse(f, cm);
	/* b2 (negate of b) joins the one kernel that reads it: {b2 s q} reads
	 * b 32 and d 32, writes q 32: 96 bytes, flops 24 */
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 2);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "b2 s q", 24, 96, 8);
	expect_kernel(fu, 1, PL_KERNEL_MATMUL, "d", 48, 104, 9);
	ck_assert_uint_eq(kernel_of(fu, f, "d"), 1);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* A cheap producer read by two kernels is computed again in each: y (an
 * add) joins the first, {y r} (the reduce, whose result is an output);
 * {bb e} reads x in y's stead. {y r}: reads x 32, writes r 4: 36 bytes,
 * flops y 8 + r 1 = 9, time 1 + 7 = 8. {bb e}: reads x 32, writes e 64:
 * 96 bytes, flops e 16, time 1 + 7 = 8. y is never written. */
START_TEST(cheap_producer_computed_twice)
{
	pl_module *m = parse_hlo("HloModule t\n" REDUCER
	                         "ENTRY e {\n x = f32[8] parameter(0)\n y = f32[8] add(x, x)\n"
	                         " c = f32[] constant(0)\n"
	                         " r = f32[] reduce(y, c), dimensions={0}, to_apply=add\n"
	                         " bb = f32[2,8] broadcast(y), dimensions={1}\n"
	                         " e = f32[2,8] exponential(bb)\n"
	                         " ROOT t = (f32[], f32[2,8]) tuple(r, e)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 2);
	expect_kernel(fu, 0, PL_KERNEL_REDUCE, "y r", 9, 36, 8);
	expect_kernel(fu, 1, PL_KERNEL_LOOP, "bb e", 16, 96, 8);
	ck_assert_uint_eq(pl_fusion_bytes(fu), 132);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* An expensive producer read by two kernels is a kernel of its own: {y}
 * (exponential) reads x 32, writes y 32: 64 bytes, 8 flops, 1 + 7 = 8;
 * {r} reads y 32, writes r 4; {bb e2}: reads y 32, writes e2 64. The two
 * consumers read y at the same depth but do different work (8 and 16
 * elements): not siblings. */
START_TEST(costly_producer_own_kernel)
{
	pl_module *m = parse_hlo("HloModule t\n" REDUCER
	                         "ENTRY e {\n x = f32[8] parameter(0)\n y = f32[8] exponential(x)\n"
	                         " c = f32[] constant(0)\n"
	                         " r = f32[] reduce(y, c), dimensions={0}, to_apply=add\n"
	                         " bb = f32[2,8] broadcast(y), dimensions={1}\n"
	                         " e2 = f32[2,8] negate(bb)\n"
	                         " ROOT t = (f32[], f32[2,8]) tuple(r, e2)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 3);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "y", 8, 64, 8);
	expect_kernel(fu, 1, PL_KERNEL_REDUCE, "r", 1, 36, 8);
	expect_kernel(fu, 2, PL_KERNEL_LOOP, "bb e2", 16, 96, 8);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* Siblings: a and b read x, stand at depth 0 and do 16 elements each: one
 * kernel {a b}, reading x once (64) and writing a and b (64 each): 192
 * bytes, flops 32, time 2 + 7 = 9. */
START_TEST(siblings_share_a_kernel)
{
	pl_module *m = parse_hlo("HloModule t\n"
	                         "ENTRY e {\n x = f32[16] parameter(0)\n a = f32[16] exponential(x)\n"
	                         " b = f32[16] log(x)\n"
	                         " ROOT t = (f32[16], f32[16]) tuple(a, b)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "a b", 32, 192, 9);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* An entry output that is a view of a parameter is copied: {q} (the
 * reshape) reads and writes 24 bytes: 48, 0 flops, time 1 + 7 = 8; the
 * negate {n} reads x 24, writes 24: 48. With input_output_alias donating
 * parameter 0 there is no copy. */
START_TEST(copies_of_parameters)
{
	const char *body = "ENTRY e {\n x = f32[2,3] parameter(0)\n q = f32[6] reshape(x)\n"
	                   " n = f32[2,3] negate(x)\n"
	                   " ROOT t = (f32[6], f32[2,3]) tuple(q, n)\n}\n";
	char text[512];
	snprintf(text, sizeof text, "HloModule t\n%s", body);
	pl_module *m = parse_hlo(text);
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 2);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "n", 6, 48, 8);
	expect_kernel(fu, 1, PL_KERNEL_COPY, "q", 0, 48, 8);
	pl_fusion_free(fu);
	pl_module_free(m);
	snprintf(text, sizeof text,
	         "HloModule t, input_output_alias={ {0}: (0, {}, may-alias) }\n%s", body);
	m = parse_hlo(text);
	fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "n", 6, 48, 8);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* Boundaries: a custom call is a kernel of its own and takes no producer;
 * an all-reduce is in no kernel. {n} reads x 32 writes n 32: 64 bytes;
 * {cc} reads n 32, writes cc 32: 64, and its one flop per element: 8; the
 * all-reduce's operand cc is written once; {m2} reads ar 32, writes 32. */
START_TEST(boundaries)
{
	pl_module *m = parse_hlo(
		"HloModule t\n" REDUCER
		"ENTRY e {\n x = f32[8] parameter(0)\n n = f32[8] negate(x)\n"
		" cc = f32[8] custom-call(n), custom_call_target=\"foo\"\n"
		" ar = f32[8] all-reduce(cc), replica_groups={}, to_apply=add\n"
		" ROOT m2 = f32[8] multiply(ar, ar)\n}\n");
	pl_cost_model *cm = model_m();
	const pl_func *f = entry(m);
	pl_fusion *fu = fuse(f, cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 3);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "n", 8, 64, 8);
	expect_kernel(fu, 1, PL_KERNEL_LIBRARY, "cc", 8, 64, 8);
	expect_kernel(fu, 2, PL_KERNEL_LOOP, "m2", 8, 64, 8);
	ck_assert_uint_eq(kernel_of(fu, f, "ar"), SIZE_MAX);
	ck_assert(!pl_func_has_fusion(f));
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* An existing fusion is one kernel over its operands and results: {fu1}
 * reads x 32, writes 32: 64 bytes, 8 flops (one per element), 8 ns. */
START_TEST(existing_fusion)
{
	pl_module *m = parse_hlo("HloModule t\n"
	                         "body { p = f32[8] parameter(0)\n ROOT q = f32[8] negate(p) }\n"
	                         "ENTRY e {\n x = f32[8] parameter(0)\n"
	                         " ROOT fu1 = f32[8] fusion(x), kind=kLoop, calls=body\n}\n");
	pl_cost_model *cm = model_m();
	const pl_func *f = entry(m);
	ck_assert(pl_func_has_fusion(f));
	pl_fusion *fu = fuse(f, cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_LIBRARY, "fu1", 8, 64, 8);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* The schedule over the kernels: {n} 8 ns, {cc} 8 ns, then the all-reduce
 * (latency 50, W = 0 without a factor: 50 ns) exposed whole, then {m2}
 * 8 ns: makespan 8 + 8 + 50 + 8 = 74, compute 24 = the kernels' time. A
 * fusion model of another function is refused. */
START_TEST(schedule_over_kernels)
{
	pl_module *m = parse_hlo(
		"HloModule t\n" REDUCER
		"ENTRY e {\n x = f32[8] parameter(0)\n n = f32[8] negate(x)\n"
		" cc = f32[8] custom-call(n), custom_call_target=\"foo\"\n"
		" ar = f32[8] all-reduce(cc), replica_groups={}, to_apply=add\n"
		" ROOT m2 = f32[8] multiply(ar, ar)\n}\n");
	pl_cost_model *cm = model_m();
	ck_assert_int_eq(pl_cost_model_set(cm, "latency_ns", 50), PL_OK);
	const pl_func *f = entry(m);
	pl_fusion *fu = fuse(f, cm);
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new_fused(&s, f, cm, fu), PL_OK);
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), 74);
	ck_assert_uint_eq(pl_schedule_compute_ns(s), 24);
	ck_assert_uint_eq(pl_schedule_comm_ns(s), 50);
	ck_assert_uint_eq(pl_schedule_exposed_ns(s), 50);
	ck_assert_uint_eq(pl_schedule_num_insts(s), pl_func_num_insts(f));
	pl_schedule_free(s);
	ck_assert_int_eq(pl_schedule_new_fused_totals(&s, f, cm, fu), PL_OK);
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), 74);
	ck_assert_uint_eq(pl_schedule_num_insts(s), 0);
	pl_schedule_free(s);
	const pl_func *reducer = pl_module_find_func(m, "add");
	ck_assert_ptr_nonnull(reducer);
	s = NULL;
	ck_assert_int_eq(pl_schedule_new_fused(&s, reducer, cm, fu), PL_EINVAL);
	ck_assert_ptr_null(s);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* A dynamic-update-slice updates x in place: {d} reads u (4 f32, 16) and
 * i (4), the scalar constant costs nothing, and writes the update's 16
 * bytes: 36; flops one per element of the result, 32; 1 + 7 = 8 ns. */
START_TEST(in_place_update)
{
	pl_module *m = parse_hlo("HloModule t\n"
	                         "ENTRY e {\n x = f32[8,4] parameter(0)\n u = f32[1,4] parameter(1)\n"
	                         " i = s32[] parameter(2)\n z = s32[] constant(0)\n"
	                         " ROOT d = f32[8,4] dynamic-update-slice(x, u, i, z)\n}\n");
	pl_cost_model *cm = model_m();
	pl_fusion *fu = fuse(entry(m), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(fu), 1);
	expect_kernel(fu, 0, PL_KERNEL_LOOP, "d", 32, 36, 8);
	pl_fusion_free(fu);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

/* The same module twice gives the same kernels. */
START_TEST(deterministic)
{
	const char *text = "HloModule t\n" REDUCER
	                   "ENTRY e {\n x = f32[4,8] parameter(0)\n c = f32[] constant(0)\n"
	                   " m = f32[4,8] multiply(x, x)\n a = f32[4,8] exponential(x)\n"
	                   " r = f32[4] reduce(m, c), dimensions={1}, to_apply=add\n"
	                   " ROOT t = (f32[4], f32[4,8]) tuple(r, a)\n}\n";
	pl_cost_model *cm = model_m();
	pl_module *m1 = parse_hlo(text), *m2 = parse_hlo(text);
	pl_fusion *f1 = fuse(entry(m1), cm), *f2 = fuse(entry(m2), cm);
	ck_assert_uint_eq(pl_fusion_num_kernels(f1), pl_fusion_num_kernels(f2));
	for (size_t k = 0; k < pl_fusion_num_kernels(f1); k++) {
		char b1[256], b2[256];
		members(f1, k, b1, sizeof b1);
		members(f2, k, b2, sizeof b2);
		ck_assert_str_eq(b1, b2);
		ck_assert_uint_eq(pl_fusion_kernel_bytes(f1, k), pl_fusion_kernel_bytes(f2, k));
	}
	pl_fusion_free(f1);
	pl_fusion_free(f2);
	pl_module_free(m1);
	pl_module_free(m2);
	pl_cost_model_free(cm);
}
END_TEST

static Suite *fusion_suite(void)
{
	Suite *s = suite_create("fusion");
	TCase *rules = tcase_create("rules");
	tcase_add_test(rules, row_reduce_one_kernel);
	tcase_add_test(rules, column_reduce_two_kernels);
	tcase_add_test(rules, matmul_epilogue);
	tcase_add_test(rules, matmul_epilogue_through_reshape);
	tcase_add_test(rules, matmul_shared_addend);
	tcase_add_test(rules, cheap_producer_computed_twice);
	tcase_add_test(rules, costly_producer_own_kernel);
	tcase_add_test(rules, siblings_share_a_kernel);
	tcase_add_test(rules, copies_of_parameters);
	tcase_add_test(rules, boundaries);
	tcase_add_test(rules, existing_fusion);
	tcase_add_test(rules, in_place_update);
	tcase_add_test(rules, deterministic);
	suite_add_tcase(s, rules);
	TCase *sim = tcase_create("schedule");
	tcase_add_test(sim, schedule_over_kernels);
	suite_add_tcase(s, sim);
	return s;
}

TU_MAIN(fusion_suite)
