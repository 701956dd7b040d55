/* SPDX-License-Identifier: MIT */
/* tests/unit/check_cost.c — the cost model, the time of an instruction and
 * the simulation of a function (passline/cost.h).
 *
 * Every timeline below is computed by hand in its comment. Unless a test
 * says otherwise the model is M: peak_gflops 1000, memory_gbps 100,
 * link_gbps 10, latency_ns 50. Under M:
 *   tensor_contract (2 flops) with n instances: 2n / 1000 ns;
 *   all_gather_start %x (f32[100]) {factor = 4}: B = 400 x 4 = 1600 result
 *     bytes, W = 3 x 1600 / 4 = 1200, 50 + 1200 / 10 = 170 ns;
 *   all_reduce(_start) of f32[100] {factor = 2}: B = 400 operand bytes,
 *     W = 2 x 1 x 400 / 2 = 400, 50 + 400 / 10 = 90 ns.
 */
#include "testutil.h"

#include <passline/host.h>

#include <stdio.h>

/* ---- helpers ------------------------------------------------------------ */

static pl_cost_model *model_m(void)
{
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_ptr_nonnull(cm);
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1000), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "memory_gbps", 100), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 10), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "latency_ns", 50), PL_OK);
	return cm;
}

static pl_module *parse_ok(const char *text)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	return m;
}

/* One expected row: begin, end, exposed, lane. */
struct want {
	uint64_t begin, end, exposed;
	size_t lane;
};

/* Simulates the first function of text under cm and checks every row and
 * the four totals. */
static void expect_schedule(const char *text, const pl_cost_model *cm, const struct want *rows,
                            size_t nrows, uint64_t makespan, uint64_t compute, uint64_t comm,
                            uint64_t exposed)
{
	pl_module *m = parse_ok(text);
	const pl_func *f = pl_module_func_at(m, 0);
	pl_schedule *s = NULL;
	int rc = pl_schedule_new(&s, f, cm);
	ck_assert_msg(rc == PL_OK, "pl_schedule_new: %s", pl_status_string(rc));
	ck_assert_uint_eq(pl_schedule_num_insts(s), nrows);
	ck_assert_uint_eq(pl_func_num_insts(f), nrows);
	const pl_inst *inst = pl_func_first_inst(f);
	for (size_t i = 0; i < nrows; i++, inst = pl_inst_next(inst)) {
		ck_assert_ptr_eq(pl_schedule_inst(s, i), inst);
		ck_assert_msg(pl_schedule_begin_ns(s, i) == rows[i].begin &&
		                      pl_schedule_end_ns(s, i) == rows[i].end &&
		                      pl_schedule_inst_exposed_ns(s, i) == rows[i].exposed &&
		                      pl_schedule_lane(s, i) == rows[i].lane,
		              "instruction %zu (%s): [%llu, %llu) exposed %llu lane %zu, expected "
		              "[%llu, %llu) exposed %llu lane %zu",
		              i, pl_inst_opname(inst), (unsigned long long)pl_schedule_begin_ns(s, i),
		              (unsigned long long)pl_schedule_end_ns(s, i),
		              (unsigned long long)pl_schedule_inst_exposed_ns(s, i),
		              pl_schedule_lane(s, i), (unsigned long long)rows[i].begin,
		              (unsigned long long)rows[i].end, (unsigned long long)rows[i].exposed,
		              rows[i].lane);
	}
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), makespan);
	ck_assert_uint_eq(pl_schedule_compute_ns(s), compute);
	ck_assert_uint_eq(pl_schedule_comm_ns(s), comm);
	ck_assert_uint_eq(pl_schedule_exposed_ns(s), exposed);
	/* the same totals and groups without the rows */
	pl_schedule *t = NULL;
	rc = pl_schedule_new_totals(&t, f, cm);
	ck_assert_msg(rc == PL_OK, "pl_schedule_new_totals: %s", pl_status_string(rc));
	ck_assert_uint_eq(pl_schedule_num_insts(t), 0);
	ck_assert_ptr_null(pl_schedule_inst(t, 0));
	ck_assert_uint_eq(pl_schedule_end_ns(t, 0), 0);
	ck_assert_uint_eq(pl_schedule_makespan_ns(t), makespan);
	ck_assert_uint_eq(pl_schedule_compute_ns(t), compute);
	ck_assert_uint_eq(pl_schedule_comm_ns(t), comm);
	ck_assert_uint_eq(pl_schedule_exposed_ns(t), exposed);
	ck_assert_uint_eq(pl_schedule_num_groups(t), pl_schedule_num_groups(s));
	for (size_t g = 0; g < pl_schedule_num_groups(s); g++) {
		ck_assert_str_eq(pl_schedule_group_name(t, g), pl_schedule_group_name(s, g));
		ck_assert_uint_eq(pl_schedule_group_comm_ns(t, g), pl_schedule_group_comm_ns(s, g));
	}
	ck_assert_uint_eq(pl_schedule_exposed_floor_ns(t), pl_schedule_exposed_floor_ns(s));
	/* no order exposes less than the floor: this one neither */
	ck_assert_uint_le(pl_schedule_exposed_floor_ns(s), exposed);
	pl_schedule_free(t);
	pl_schedule_free(s);
	pl_module_free(m);
}

#define ROWS(...) (const struct want[]){__VA_ARGS__}, sizeof((const struct want[]){__VA_ARGS__}) / sizeof(struct want)

/* The time of instruction index (from 0) of the first function of text. */
static int time_of(const char *text, size_t index, const pl_cost_model *cm, uint64_t *out)
{
	pl_module *m = parse_ok(text);
	const pl_inst *inst = pl_func_first_inst(pl_module_func_at(m, 0));
	for (size_t k = 0; k < index; k++)
		inst = pl_inst_next(inst);
	int rc = pl_inst_time_ns(inst, cm, out);
	pl_module_free(m);
	return rc;
}

static uint64_t time_ok(const char *text, size_t index, const pl_cost_model *cm)
{
	uint64_t t = 0;
	int rc = time_of(text, index, cm, &t);
	ck_assert_msg(rc == PL_OK, "pl_inst_time_ns: %s", pl_status_string(rc));
	return t;
}

/* ---- the cost model ------------------------------------------------------ */

START_TEST(model_keys)
{
	static const char *const names[] = {"peak_gflops", "memory_gbps", "link_gbps",
	                                    "latency_ns"};
	static const char *const defs[] = {"400000", "2000", "100", "10000"};
	static const int64_t mins[] = {1, 1, 1, 0};
	ck_assert_uint_eq(pl_cost_model_num_keys(), 4);
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_ptr_nonnull(cm);
	for (size_t k = 0; k < 4; k++) {
		const pl_option_decl *d = pl_cost_model_key(k);
		ck_assert_ptr_nonnull(d);
		ck_assert_str_eq(d->name, names[k]);
		ck_assert_int_eq(d->type, PL_OPT_INT);
		ck_assert_str_eq(d->default_value, defs[k]);
		ck_assert_ptr_nonnull(d->help);
		ck_assert_int_eq(d->min, mins[k]);
		ck_assert_int_eq(d->max, INT64_MAX);
		/* the default validates, and is what a new model holds */
		char *canon = NULL;
		ck_assert_int_eq(pl_option_validate(d, d->default_value, &canon, NULL, 0), PL_OK);
		int64_t v = -1;
		ck_assert_int_eq(pl_cost_model_get(cm, names[k], &v), PL_OK);
		ck_assert_int_eq(v, strtoll(canon, NULL, 10));
		free(canon);
	}
	ck_assert_ptr_null(pl_cost_model_key(4));
	pl_cost_model_free(cm);
	pl_cost_model_free(NULL);
}
END_TEST

START_TEST(model_set_get)
{
	pl_cost_model *cm = pl_cost_model_new();
	int64_t v = 0;
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 25), PL_OK);
	ck_assert_int_eq(pl_cost_model_get(cm, "link_gbps", &v), PL_OK);
	ck_assert_int_eq(v, 25);
	/* out of range: unchanged */
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 0), PL_EINVAL);
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", -5), PL_EINVAL);
	ck_assert_int_eq(pl_cost_model_set(cm, "latency_ns", -1), PL_EINVAL);
	ck_assert_int_eq(pl_cost_model_get(cm, "link_gbps", &v), PL_OK);
	ck_assert_int_eq(v, 25);
	ck_assert_int_eq(pl_cost_model_get(cm, "peak_gflops", &v), PL_OK);
	ck_assert_int_eq(v, 400000);
	/* the ends of the ranges */
	ck_assert_int_eq(pl_cost_model_set(cm, "latency_ns", 0), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "memory_gbps", INT64_MAX), PL_OK);
	ck_assert_int_eq(pl_cost_model_get(cm, "memory_gbps", &v), PL_OK);
	ck_assert_int_eq(v, INT64_MAX);
	/* unknown keys */
	v = 7;
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbp", 1), PL_ENOTFOUND);
	ck_assert_int_eq(pl_cost_model_get(cm, "bogus", &v), PL_ENOTFOUND);
	ck_assert_int_eq(v, 7);
	pl_cost_model_free(cm);
}
END_TEST

static int noop_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)ctx;
	(void)state;
	(void)m;
	return PL_OK;
}

START_TEST(ctx_model)
{
	static const pl_pass_desc pass = {PL_PASS_DESC_INIT, .name = "P", .run = noop_run};
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *ctx = pl_ctx_new(&pass, d);
	ck_assert_ptr_nonnull(ctx);
	/* the defaults before the host sets one */
	const pl_cost_model *def = pl_ctx_cost_model(ctx);
	ck_assert_ptr_nonnull(def);
	int64_t v = 0;
	ck_assert_int_eq(pl_cost_model_get(def, "latency_ns", &v), PL_OK);
	ck_assert_int_eq(v, 10000);
	pl_cost_model *cm = model_m();
	pl_ctx_set_cost_model(ctx, cm);
	ck_assert_ptr_eq(pl_ctx_cost_model(ctx), cm);
	ck_assert_int_eq(pl_cost_model_get(pl_ctx_cost_model(ctx), "latency_ns", &v), PL_OK);
	ck_assert_int_eq(v, 50);
	pl_ctx_set_cost_model(ctx, NULL);
	ck_assert_ptr_eq(pl_ctx_cost_model(ctx), def);
	pl_ctx_free(ctx);
	pl_cost_model_free(cm);
	pl_diags_free(d);
}
END_TEST

/* ---- the time of one instruction ----------------------------------------- */

START_TEST(time_compute)
{
	pl_cost_model *cm = model_m();
	const char *text =
		"func @f(%x: f32[100], %w: f32[100], %buf: f32[100]) {\n"
		/* 2 x 10000 / 1000 = 20 */
		"  %a = tensor_contract %x, %w {num_dynamic_instances = 10000} : f32[100]\n"
		/* 2 x 10001 / 1000 = 20.002 -> 21 (a ceiling) */
		"  %b = tensor_contract %x, %w {num_dynamic_instances = 10001} : f32[100]\n"
		/* flops 7 x 100 elements of the result = 700 / 1000 -> 1 */
		"  %c = acme.op %x {flops = 7} : f32[100]\n"
		/* load: 1000 x 4 bytes / 100 = 40, no flops */
		"  %l = affine_load %buf {num_dynamic_instances = 1000, flops = 1000000} : f32[100]\n"
		/* store of an f32: 250 x 4 / 100 = 10 */
		"  affine_store %l, %buf {num_dynamic_instances = 250}\n"
		/* predicated: [10, 10] under i0 + i1 < 10 is 55 points, 55 x 2 bytes
		 * of bf16 = 110 / 100 -> 2 */
		"  %p = generic_load %buf {domain = [10, 10], predicate = [\"i0 + i1 < 10\"]} : bf16[4]\n"
		/* pack, unpack, return: 0 whatever their flops */
		"  %k = pack %x, %w {flops = 1000000} : f32[200]\n"
		"  %u, %v = unpack %k {flops = 1000000} : (f32[100], f32[100])\n"
		/* reduce: 1 flop x 1000000 / 1000 = 1000 */
		"  %r = reduce %x {num_dynamic_instances = 1000000} : f32[1]\n"
		/* 0 instances */
		"  %z = tensor_contract %x, %w {domain = [0, 5]} : f32[100]\n"
		"  return %a\n"
		"}\n";
	static const uint64_t want[] = {20, 21, 1, 40, 10, 2, 0, 0, 1000, 0, 0};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		ck_assert_msg(time_ok(text, k, cm) == want[k], "instruction %zu: %llu, expected %llu",
		              k, (unsigned long long)time_ok(text, k, cm),
		              (unsigned long long)want[k]);
	/* the defaults: 2 x 10000 / 400000 -> 1 */
	pl_cost_model *def = pl_cost_model_new();
	ck_assert_uint_eq(time_ok(text, 0, def), 1);
	/* 1000 x 4 / 2000 -> 2 */
	ck_assert_uint_eq(time_ok(text, 3, def), 2);
	pl_cost_model_free(def);
	pl_cost_model_free(cm);
}
END_TEST

START_TEST(time_collectives)
{
	pl_cost_model *cm = model_m();
	const char *text =
		"func @f(%x: f32[100], %y: bf16[100], %w: f32[400]) {\n"
		/* gather: result bytes 1600, 3 x 1600 / (4 x 10) = 120, + 50 */
		"  %g = all_gather %x {group_id = \"dp\", factor = 4} : f32[400]\n"
		/* the start costs the same */
		"  %s = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
		"  %sd = all_gather_done %s : f32[400]\n"
		/* two results: 1600 + 800 bytes, 3 x 2400 / 40 = 180, + 50 */
		"  %g2, %g3 = all_gather %x, %y {factor = 4} : (f32[400], bf16[400])\n"
		/* reduce-scatter: operand bytes 1600, 3 x 1600 / 40 = 120, + 50 */
		"  %rs = reduce_scatter %w {factor = 4, reduce = \"add\"} : f32[100]\n"
		/* all-reduce: 2 x 1 x 400 / (2 x 10) = 40, + 50 */
		"  %ar = all_reduce_start %x {factor = 2, reduce = \"add\"} : f32[100]\n"
		"  %ad = all_reduce_done %ar : f32[100]\n"
		/* factor 3 over 400 operand bytes: 2 x 2 x 400 / 30 = 53.3 -> 54 */
		"  %a3 = all_reduce %x {factor = 3, reduce = \"add\"} : f32[100]\n"
		/* a gather of bf16[100] to bf16[300], factor 3: 600 result bytes,
		 * 2 x 600 / 30 = 40, + 50 */
		"  %g4 = all_gather %y {factor = 3} : bf16[300]\n"
		/* no factor: W = 0, the latency alone */
		"  %nf = all_reduce %x {reduce = \"add\"} : f32[100]\n"
		"  return %g\n"
		"}\n";
	static const uint64_t want[] = {170, 170, 0, 230, 170, 90, 0, 104, 90, 50, 0};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		ck_assert_msg(time_ok(text, k, cm) == want[k], "instruction %zu: %llu, expected %llu",
		              k, (unsigned long long)time_ok(text, k, cm),
		              (unsigned long long)want[k]);
	/* one ceiling of the whole fraction: with link 41 the all-reduce of
	 * factor 3 takes ceil(1600 / 123) = ceil(13.008) = 14, + 50; rounding W
	 * down first (533, which is 13 x 41) or B / F down first (2 x 2 x 133 =
	 * 532) would give 13 */
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 41), PL_OK);
	ck_assert_uint_eq(time_ok(text, 7, cm), 64);
	pl_cost_model_free(cm);
}
END_TEST

/* B near 2^64: two f64[2^60 - 8] results, each 2^63 - 64 bytes, B = 2^64 -
 * 128, so (F-1) x B = 7 x B passes 2^64. Default model: link 100, latency
 * 10000: ceil(7 x 18446744073709551488 / 800) = ceil(129127208515966860416
 * / 800) = ceil(161409010644958575.52) = 161409010644958576, + 10000. */
START_TEST(time_wide_bytes)
{
	pl_cost_model *def = pl_cost_model_new();
	const char *text =
		"func @f(%x: f64[144115188075855871], %y: f64[144115188075855871]) {\n"
		"  %g, %h = all_gather %x, %y {group_id = \"dp\", factor = 8} : "
		"(f64[1152921504606846968], f64[1152921504606846968])\n"
		"  return\n"
		"}\n";
	ck_assert_uint_eq(time_ok(text, 0, def), 161409010644968576ull);
	pl_cost_model_free(def);
}
END_TEST

/* A product past 2^128: an all-reduce of eight f64[2^60 - 1] operands,
 * B = 8 x (2^63 - 8) = 73786976294838206400 (~2^66), with F = 2^62 - 1, so
 * 2 (F-1) B is about 2^129. With link 1000003:
 * 2 (F-1) B / F = 2B - 2B/F = 147573952589676412800 - 32.0000000000000139
 * = 147573952589676412767.99..., divided by 1000003 = 147573509869146.78,
 * so the ceiling is 147573509869147, + latency 10000 = 147573509879147. */
START_TEST(time_past_2_128)
{
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 1000003), PL_OK);
	pl_module *m = pl_module_new("t");
	pl_func *f = pl_func_new(m, "f");
	int64_t dim = 1152921504606846975;
	const pl_type *t = pl_type_get(m, PL_DTYPE_F64, &dim, 1);
	pl_value *ops[8];
	const pl_type *types[8];
	for (int k = 0; k < 8; k++) {
		char name[4] = {(char)('a' + k), 0};
		ops[k] = pl_func_add_arg(f, name, t);
		types[k] = t;
	}
	pl_inst *ar = pl_inst_new(f, "all_reduce", ops, 8, types, 8);
	pl_func_append(f, ar);
	ck_assert_int_eq(pl_attrs_set_int(pl_inst_attrs(ar), "factor", 4611686018427387903), PL_OK);
	uint64_t time = 0;
	ck_assert_int_eq(pl_inst_time_ns(ar, cm, &time), PL_OK);
	ck_assert_uint_eq(time, 147573509879147ull);
	/* with link 1 the same wire time passes UINT64_MAX */
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 1), PL_OK);
	time = 42;
	ck_assert_int_eq(pl_inst_time_ns(ar, cm, &time), PL_EOVERFLOW);
	ck_assert_uint_eq(time, 42);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

START_TEST(time_errors)
{
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1), PL_OK);
	ck_assert_int_eq(pl_cost_model_set(cm, "latency_ns", INT64_MAX), PL_OK);
	uint64_t t = 42;
	/* (2^63 - 1)^2 flops at 1 per ns */
	ck_assert_int_eq(time_of("func @f(%x: f32[4]) {\n"
	                         "  %a = acme.op %x {num_dynamic_instances = 9223372036854775807, "
	                         "flops = 9223372036854775807} : f32[4]\n"
	                         "  return\n}\n",
	                         0, cm, &t),
	                 PL_EOVERFLOW);
	ck_assert_uint_eq(t, 42);
	/* 2^64 - 2 fits */
	ck_assert_int_eq(time_of("func @f(%x: f32[4]) {\n"
	                         "  %a = tensor_contract %x, %x {num_dynamic_instances = "
	                         "9223372036854775807} : f32[4]\n  return\n}\n",
	                         0, cm, &t),
	                 PL_OK);
	ck_assert_uint_eq(t, UINT64_MAX - 1);
	/* latency INT64_MAX + a wire time of 2^63: 2^64 - 1 + ... passes */
	ck_assert_int_eq(pl_cost_model_set(cm, "link_gbps", 1), PL_OK);
	ck_assert_int_eq(time_of("func @f(%x: u8[4611686018427387904]) {\n"
	                         "  %a = all_reduce %x {factor = 2, reduce = \"add\"} : "
	                         "u8[4611686018427387904]\n  return\n}\n",
	                         0, cm, &t),
	                 PL_OK);
	/* 2 x 2^62 / 2 = 2^62, + 2^63 - 1 */
	ck_assert_uint_eq(t, (1ull << 62) + INT64_MAX);
	ck_assert_int_eq(time_of("func @f(%x: u8[4611686018427387904]) {\n"
	                         "  %a = all_reduce %x {factor = 4, reduce = \"add\"} : "
	                         "u8[4611686018427387904]\n  return\n}\n",
	                         0, cm, &t),
	                 PL_OK);
	/* two operands, B = 2^63: 2 x 3 x 2^63 / 4 = 3 x 2^62, + 2^63 - 1 =
	 * 2^64 + 2^62 - 1: too much */
	ck_assert_int_eq(time_of("func @f(%x: u8[4611686018427387904], %y: u8[4611686018427387904]) {\n"
	                         "  %a, %b = all_reduce %x, %y {factor = 4, reduce = \"add\"} : "
	                         "(u8[4611686018427387904], u8[4611686018427387904])\n  return\n}\n",
	                         0, cm, &t),
	                 PL_EOVERFLOW);
	/* malformed attributes */
	ck_assert_int_eq(time_of("func @f(%x: f32[4]) {\n"
	                         "  %a = all_reduce %x {factor = \"two\"} : f32[4]\n  return\n}\n",
	                         0, cm, &t),
	                 PL_ETYPE);
	ck_assert_int_eq(time_of("func @f(%x: f32[4]) {\n"
	                         "  %a = all_reduce %x {factor = 0} : f32[4]\n  return\n}\n", 0,
	                         cm, &t),
	                 PL_EINVAL);
	ck_assert_int_eq(time_of("func @f(%x: f32[4]) {\n"
	                         "  %a = acme.op %x {flops = -1} : f32[4]\n  return\n}\n", 0,
	                         cm, &t),
	                 PL_ETYPE);
	pl_cost_model_free(cm);
}
END_TEST

/* ---- the simulation ------------------------------------------------------ */

/* a [0,20); the gather waits for nothing, [20,190), all of it exposed;
 * b [190,200); return [200,200). */
START_TEST(sim_synchronous)
{
	pl_cost_model *cm = model_m();
	expect_schedule("func @f(%x: f32[100], %w: f32[100]) {\n"
	                "  %a = tensor_contract %x, %w {num_dynamic_instances = 10000} : f32[100]\n"
	                "  %g = all_gather %a {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]\n"
	                "  return %b\n"
	                "}\n",
	                cm, ROWS({0, 20, 0, 0}, {20, 190, 170, 1}, {190, 200, 0, 0}, {200, 200, 0, 0}),
	                200, 30, 170, 170);
	pl_cost_model_free(cm);
}
END_TEST

/* s [0,170) on dp; a [0,200) hides it; the done at 200 waits for nothing;
 * b [200,210). */
START_TEST(sim_hidden)
{
	pl_cost_model *cm = model_m();
	expect_schedule("func @f(%x: f32[100], %w: f32[100]) {\n"
	                "  %s = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]\n"
	                "  %g = all_gather_done %s : f32[400]\n"
	                "  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]\n"
	                "  return %b\n"
	                "}\n",
	                cm,
	                ROWS({0, 170, 0, 1}, {0, 200, 0, 0}, {200, 200, 0, 0}, {200, 210, 0, 0},
	                     {210, 210, 0, 0}),
	                210, 210, 170, 0);
	pl_cost_model_free(cm);
}
END_TEST

/* s [0,170); a [0,100); the done waits [100,170): 70 exposed; b [170,180). */
START_TEST(sim_partly_hidden)
{
	pl_cost_model *cm = model_m();
	expect_schedule("func @f(%x: f32[100], %w: f32[100]) {\n"
	                "  %s = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %a = tensor_contract %x, %w {num_dynamic_instances = 50000} : f32[100]\n"
	                "  %g = all_gather_done %s : f32[400]\n"
	                "  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]\n"
	                "  return %b\n"
	                "}\n",
	                cm,
	                ROWS({0, 170, 0, 1}, {0, 100, 0, 0}, {100, 170, 70, 0}, {170, 180, 0, 0},
	                     {180, 180, 0, 0}),
	                180, 110, 170, 70);
	pl_cost_model_free(cm);
}
END_TEST

/* dp: s1 [0,170); tp: s2 [0,90) in parallel; a [0,50); d2 waits [50,90):
 * 40; d1 waits [90,170): 80. */
START_TEST(sim_two_groups)
{
	pl_cost_model *cm = model_m();
	const char *text =
		"func @f(%x: f32[100], %y: f32[100], %w: f32[100]) {\n"
		"  %s1 = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
		"  %s2 = all_reduce_start %y {group_id = \"tp\", factor = 2, reduce = \"add\"} : f32[100]\n"
		"  %a = tensor_contract %x, %w {num_dynamic_instances = 25000} : f32[100]\n"
		"  %d2 = all_reduce_done %s2 : f32[100]\n"
		"  %d1 = all_gather_done %s1 : f32[400]\n"
		"  return %d1, %d2\n"
		"}\n";
	expect_schedule(text, cm,
	                ROWS({0, 170, 0, 1}, {0, 90, 0, 2}, {0, 50, 0, 0}, {50, 90, 40, 0},
	                     {90, 170, 80, 0}, {170, 170, 0, 0}),
	                170, 50, 260, 120);
	pl_module *m = parse_ok(text);
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_OK);
	ck_assert_uint_eq(pl_schedule_num_groups(s), 2);
	ck_assert_str_eq(pl_schedule_group_name(s, 0), "dp");
	ck_assert_str_eq(pl_schedule_group_name(s, 1), "tp");
	ck_assert_ptr_null(pl_schedule_group_name(s, 2));
	/* dp carries 170, tp 90; the floor is dp's 170 less 50 of compute */
	ck_assert_uint_eq(pl_schedule_group_comm_ns(s, 0), 170);
	ck_assert_uint_eq(pl_schedule_group_comm_ns(s, 1), 90);
	ck_assert_uint_eq(pl_schedule_group_comm_ns(s, 2), 0);
	ck_assert_uint_eq(pl_schedule_exposed_floor_ns(s), 120);
	pl_schedule_free(s);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* dp: s1 [0,170), s2 waits for the stream: [170,340); a [0,200); d1 at
 * 200 waits for nothing; d2 waits [200,340): 140. */
START_TEST(sim_group_busy)
{
	pl_cost_model *cm = model_m();
	expect_schedule("func @f(%x: f32[100], %y: f32[100], %w: f32[100]) {\n"
	                "  %s1 = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %s2 = all_gather_start %y {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]\n"
	                "  %d1 = all_gather_done %s1 : f32[400]\n"
	                "  %d2 = all_gather_done %s2 : f32[400]\n"
	                "  return %d1, %d2\n"
	                "}\n",
	                cm,
	                ROWS({0, 170, 0, 1}, {170, 340, 0, 1}, {0, 200, 0, 0}, {200, 200, 0, 0},
	                     {200, 340, 140, 0}, {340, 340, 0, 0}),
	                340, 200, 340, 140);
	/* a synchronous collective waits for its stream too: s1 [0,170); r
	 * [170,260), exposed from C = 0: 260; d1 at 260 waits for nothing */
	expect_schedule("func @f(%x: f32[100], %w: f32[100]) {\n"
	                "  %s1 = all_gather_start %x {group_id = \"dp\", factor = 4} : f32[400]\n"
	                "  %r = all_reduce %w {group_id = \"dp\", factor = 2, reduce = \"add\"} : f32[100]\n"
	                "  %d1 = all_gather_done %s1 : f32[400]\n"
	                "  return %d1, %r\n"
	                "}\n",
	                cm, ROWS({0, 170, 0, 1}, {170, 260, 260, 1}, {260, 260, 0, 0}, {260, 260, 0, 0}),
	                260, 0, 260, 260);
	pl_cost_model_free(cm);
}
END_TEST

/* s [0,170); the done right after it waits it all out: [0,170); then a
 * load [170,210) (1000 x 4 / 100) and a store [210,220) (250 x 4 / 100);
 * the group of a start with no group_id is "". */
START_TEST(sim_done_waits)
{
	pl_cost_model *cm = model_m();
	const char *text =
		"func @f(%x: f32[100], %buf: f32[100]) {\n"
		"  %s = all_gather_start %x {factor = 4} : f32[400]\n"
		"  %g = all_gather_done %s : f32[400]\n"
		"  %l = affine_load %buf {num_dynamic_instances = 1000} : f32[100]\n"
		"  affine_store %l, %buf {num_dynamic_instances = 250}\n"
		"  return %g\n"
		"}\n";
	expect_schedule(text, cm,
	                ROWS({0, 170, 0, 1}, {0, 170, 170, 0}, {170, 210, 0, 0}, {210, 220, 0, 0},
	                     {220, 220, 0, 0}),
	                220, 50, 170, 170);
	pl_module *m = parse_ok(text);
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_OK);
	ck_assert_uint_eq(pl_schedule_num_groups(s), 1);
	ck_assert_str_eq(pl_schedule_group_name(s, 0), "");
	pl_schedule_free(s);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* No factor: the latency alone, 50 each; group_id "" and no group_id are
 * one group, so r2 [50,100) after r1 [0,50); a start left without its
 * done still counts toward the makespan: s [100,150) on that stream,
 * C stays 100. */
START_TEST(sim_no_factor)
{
	pl_cost_model *cm = model_m();
	const char *text = "func @f(%x: f32[100]) {\n"
	                   "  %r1 = all_reduce %x {reduce = \"add\"} : f32[100]\n"
	                   "  %r2 = all_reduce %x {group_id = \"\", reduce = \"add\"} : f32[100]\n"
	                   "  %s = all_reduce_start %x {reduce = \"add\"} : f32[100]\n"
	                   "  return %r2\n"
	                   "}\n";
	expect_schedule(text, cm,
	                ROWS({0, 50, 50, 1}, {50, 100, 50, 1}, {100, 150, 0, 1}, {100, 100, 0, 0}),
	                150, 0, 150, 100);
	pl_module *m = parse_ok(text);
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_OK);
	ck_assert_uint_eq(pl_schedule_num_groups(s), 1);
	pl_schedule_free(s);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* The 128-bit gather of time_wide_bytes, started and waited for: the done
 * exposes all of it; T = 161409010644968576. */
START_TEST(sim_wide)
{
	pl_cost_model *def = pl_cost_model_new();
	const uint64_t t = 161409010644968576ull;
	expect_schedule("func @f(%x: f64[144115188075855871], %y: f64[144115188075855871]) {\n"
	                "  %g, %h = all_gather_start %x, %y {group_id = \"dp\", factor = 8} : "
	                "(f64[1152921504606846968], f64[1152921504606846968])\n"
	                "  %g2, %h2 = all_gather_done %g, %h : "
	                "(f64[1152921504606846968], f64[1152921504606846968])\n"
	                "  return\n"
	                "}\n",
	                def, ROWS({0, t, 0, 1}, {0, t, t, 0}, {t, t, 0, 0}), t, 0, t, t);
	pl_cost_model_free(def);
}
END_TEST

START_TEST(sim_errors)
{
	pl_cost_model *cm = model_m();
	ck_assert_int_eq(pl_cost_model_set(cm, "peak_gflops", 1), PL_OK);
	static const char *const bad[] = {
		/* a done of an argument */
		"func @f(%x: f32[4]) {\n  %d = all_gather_done %x : f32[4]\n  return\n}\n",
		/* a done of a compute result */
		"func @f(%x: f32[4]) {\n  %a = acme.op %x : f32[4]\n"
		"  %d = all_gather_done %a : f32[4]\n  return\n}\n",
		/* a done of a synchronous collective */
		"func @f(%x: f32[4]) {\n  %a = all_reduce %x : f32[4]\n"
		"  %d = all_reduce_done %a : f32[4]\n  return\n}\n",
		/* a done without operands */
		"func @f(%x: f32[4]) {\n  %d = all_reduce_done : f32[4]\n  return\n}\n",
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		pl_module *m = parse_ok(bad[k]);
		pl_schedule *s = (pl_schedule *)(uintptr_t)1;
		ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_EINVAL);
		ck_assert_ptr_eq(s, (pl_schedule *)(uintptr_t)1);
		ck_assert_int_eq(pl_schedule_new_totals(&s, pl_module_func_at(m, 0), cm), PL_EINVAL);
		ck_assert_ptr_eq(s, (pl_schedule *)(uintptr_t)1);
		pl_module_free(m);
	}
	/* each time fits (2^64 - 2), their sum does not */
	pl_module *m = parse_ok("func @f(%x: f32[4]) {\n"
	                        "  %a = tensor_contract %x, %x {num_dynamic_instances = "
	                        "9223372036854775807} : f32[4]\n"
	                        "  %b = tensor_contract %x, %x {num_dynamic_instances = 1} : f32[4]\n"
	                        "  %c = tensor_contract %x, %x {num_dynamic_instances = 1} : f32[4]\n"
	                        "  return\n}\n");
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_EOVERFLOW);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(pl_schedule_new_totals(&s, pl_module_func_at(m, 0), cm), PL_EOVERFLOW);
	ck_assert_ptr_null(s);
	pl_module_free(m);
	/* a time that does not fit */
	m = parse_ok("func @f(%x: f32[4]) {\n"
	             "  %a = acme.op %x {num_dynamic_instances = 9223372036854775807, "
	             "flops = 9223372036854775807} : f32[4]\n  return\n}\n");
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_func_at(m, 0), cm), PL_EOVERFLOW);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* An empty function, and a function of one return. */
START_TEST(sim_empty)
{
	pl_cost_model *cm = model_m();
	pl_module *m = pl_module_new("t");
	pl_func *f = pl_func_new(m, "f");
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, f, cm), PL_OK);
	ck_assert_uint_eq(pl_schedule_num_insts(s), 0);
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), 0);
	ck_assert_uint_eq(pl_schedule_num_groups(s), 0);
	ck_assert_ptr_null(pl_schedule_inst(s, 0));
	pl_schedule_free(s);
	pl_schedule_free(NULL);
	pl_module_free(m);
	pl_cost_model_free(cm);
}
END_TEST

/* The counts of insts[0..count) are want_n (with status want_rc), before
 * and after the module counts its pairs once. */
static void expect_counts(pl_module *m, pl_inst *const *insts, const int *want_rc,
                          const uint64_t *want_n, size_t count)
{
	for (int round = 0; round < 2; round++) {
		if (round)
			ck_assert_int_eq(pl_module_prepare_counts(m), PL_OK);
		for (size_t k = 0; k < count; k++) {
			uint64_t n = 0;
			ck_assert_int_eq(pl_inst_masked_dynamic_instances(insts[k], &n), want_rc[k]);
			if (want_rc[k] == PL_OK)
				ck_assert_uint_eq(n, want_n[k]);
		}
	}
}

/* The predicated count, before and after the module counts its pairs once
 * (pl_module_prepare_counts): the same counts, the same errors; a pair set
 * after reading (a new predicate, a new domain) counts as itself. */
START_TEST(masked_memo)
{
	pl_module *m = parse_ok(
		"func @f(%buf: f32[4]) {\n"
		"  %a = affine_load %buf {domain = [10, 10], predicate = [\"i0 + i1 < 10\"]} : f32[4]\n"
		"  %b = affine_load %buf {domain = [10, 10], predicate = [\"i0 + i1 < 10\"], flops = 3} : f32[4]\n"
		"  %c = affine_load %buf {domain = [10, 10], predicate = [\"i0 < 3\", \"i1 < 3\"]} : f32[4]\n"
		"  %d = affine_load %buf {predicate = [\"i0 < 3\"]} : f32[4]\n"
		"  %e = affine_load %buf {domain = [10, 10]} : f32[4]\n"
		"  return\n}\n");
	pl_inst *insts[5];
	insts[0] = pl_func_first_inst(pl_module_func_at(m, 0));
	for (int k = 1; k < 5; k++)
		insts[k] = pl_inst_next(insts[k - 1]);
	/* a predicate that does not parse (the verifier would refuse it) */
	const pl_attr *bad[] = {pl_attr_string(m, "i0 <", 4)};
	ck_assert_int_eq(pl_attrs_set(pl_inst_attrs(insts[4]), "predicate",
	                              pl_attr_list(m, bad, 1)), PL_OK);
	expect_counts(m, insts, (const int[]){PL_OK, PL_OK, PL_OK, PL_ETYPE, PL_EPARSE},
	              (const uint64_t[]){55, 55, 9, 0, 0}, 5);
	const pl_attr *lt5[] = {pl_attr_string(m, "i0 < 5", 6)};
	ck_assert_int_eq(pl_attrs_set(pl_inst_attrs(insts[1]), "predicate",
	                              pl_attr_list(m, lt5, 1)), PL_OK);
	const pl_attr *dims[] = {pl_attr_int(m, 2), pl_attr_int(m, 10)};
	ck_assert_int_eq(pl_attrs_set(pl_inst_attrs(insts[2]), "domain",
	                              pl_attr_list(m, dims, 2)), PL_OK);
	expect_counts(m, insts, (const int[]){PL_OK, PL_OK, PL_OK, PL_ETYPE, PL_EPARSE},
	              (const uint64_t[]){55, 50, 6, 0, 0}, 5);
	ck_assert_int_eq(pl_module_prepare_counts(m), PL_OK); /* nothing new */
	pl_module_free(m);
}
END_TEST

/* ---- keys by name, decimals, presets (ABI 1.1 additions) ----------------- */

static void set_text_ok(pl_cost_model *cm, const char *key, const char *value)
{
	char err[256] = "";
	int rc = pl_cost_model_set_text(cm, key, value, err, sizeof err);
	ck_assert_msg(rc == PL_OK, "%s = %s: %s", key, value, err);
}

static void set_text_fails(pl_cost_model *cm, const char *key, const char *value, int want,
                           const char *message)
{
	char err[256] = "";
	ck_assert_int_eq(pl_cost_model_set_text(cm, key, value, err, sizeof err), want);
	ck_assert_msg(strstr(err, message) != NULL, "%s = %s: '%s' lacks '%s'", key, value, err,
	              message);
}

static double get_double(const pl_cost_model *cm, const char *key)
{
	double v = -1;
	ck_assert_int_eq(pl_cost_model_get_double(cm, key, &v), PL_OK);
	return v;
}

START_TEST(model_params)
{
	size_t n = pl_cost_model_num_params();
	ck_assert_uint_ge(n, 20);
	ck_assert_str_eq(pl_cost_model_param_name(0), "preset");
	ck_assert_int_eq(pl_cost_model_param_kind(0), PL_COST_KEY_TEXT);
	ck_assert_ptr_null(pl_cost_model_param_name(n));
	ck_assert_int_eq(pl_cost_model_param_kind(n), 0);
	size_t aliases = 0, ints = 0;
	bool floor = false, bus = false;
	for (size_t i = 0; i < n; i++) {
		const char *name = pl_cost_model_param_name(i);
		ck_assert_ptr_nonnull(pl_cost_model_param_help(i));
		aliases += pl_cost_model_param_kind(i) == PL_COST_KEY_ALIAS;
		ints += pl_cost_model_param_kind(i) == PL_COST_KEY_INT;
		floor = floor || (strcmp(name, "kernel_floor_us") == 0 &&
		                  pl_cost_model_param_kind(i) == PL_COST_KEY_DOUBLE);
		bus = bus || strcmp(name, "all_to_all.bus_gb_per_s") == 0;
	}
	ck_assert_uint_eq(aliases, 4); /* the old integer keys */
	ck_assert_uint_eq(ints, 2);    /* devices_per_node, nvls */
	ck_assert(floor && bus);
	/* every preset loads and gives every key a value */
	ck_assert_uint_ge(pl_cost_model_num_presets(), 2);
	for (size_t p = 0; p < pl_cost_model_num_presets(); p++) {
		pl_cost_model *cm = pl_cost_model_new();
		set_text_ok(cm, "preset", pl_cost_model_preset_name(p));
		ck_assert_str_eq(pl_cost_model_preset(cm), pl_cost_model_preset_name(p));
		ck_assert_ptr_nonnull(strstr(pl_cost_model_preset_source(p), "fit_cost_model.py"));
		ck_assert(!pl_cost_model_is_exact(cm));
		for (size_t i = 1; i < n; i++) {
			double v = get_double(cm, pl_cost_model_param_name(i));
			ck_assert_msg(v >= 0 && v < 1e10, "%s %s = %g", pl_cost_model_preset_name(p),
			              pl_cost_model_param_name(i), v);
		}
		pl_cost_model_free(cm);
	}
	ck_assert_ptr_null(pl_cost_model_preset_name(pl_cost_model_num_presets()));
}
END_TEST

START_TEST(model_text)
{
	pl_cost_model *cm = pl_cost_model_new();
	ck_assert(pl_cost_model_is_exact(cm));
	ck_assert_ptr_null(pl_cost_model_preset(cm));
	/* an old key is an alias, and leaves the model exact */
	set_text_ok(cm, "peak_gflops", "500000");
	ck_assert(pl_cost_model_is_exact(cm));
	ck_assert(get_double(cm, "peak_tflops.bf16") == 500);
	ck_assert(get_double(cm, "peak_tflops.fp8") == 500);
	set_text_ok(cm, "latency_ns", "2500");
	ck_assert(get_double(cm, "collective.latency_us") == 2.5);
	ck_assert(get_double(cm, "all_gather.latency_us") == 2.5); /* a kind takes the general */
	set_text_ok(cm, "link_gbps", "40");
	ck_assert(get_double(cm, "inter.link_gb_per_s") == 40);
	ck_assert(get_double(cm, "all_reduce.bus_gb_per_s") == 40);
	/* a decimal key by its new name: no longer the exact model */
	set_text_ok(cm, "kernel_floor_us", "2.5");
	ck_assert(!pl_cost_model_is_exact(cm));
	ck_assert(get_double(cm, "kernel_floor_us") == 2.5);
	set_text_ok(cm, "memory_gb_per_s", "1e3");
	ck_assert(get_double(cm, "memory_gb_per_s") == 1000);
	int64_t i = 0;
	ck_assert_int_eq(pl_cost_model_get(cm, "memory_gbps", &i), PL_OK);
	ck_assert_int_eq(i, 1000);
	/* a key overrides the preset, set before it or after */
	set_text_ok(cm, "preset", "h100");
	ck_assert(get_double(cm, "kernel_floor_us") == 2.5);
	ck_assert(pl_cost_model_is_set(cm, "kernel_floor_us"));
	ck_assert(pl_cost_model_is_set(cm, "preset"));
	ck_assert(!pl_cost_model_is_set(cm, "peak_tflops.f64"));
	char buf[64];
	ck_assert_int_eq(pl_cost_model_format(cm, "kernel_floor_us", buf, sizeof buf), PL_OK);
	ck_assert_str_eq(buf, "2.5");
	ck_assert_int_eq(pl_cost_model_format(cm, "preset", buf, sizeof buf), PL_OK);
	ck_assert_str_eq(buf, "h100");
	ck_assert_int_eq(pl_cost_model_format(cm, "preset", buf, 2), PL_EINVAL);
	set_text_ok(cm, "preset", "b200");
	ck_assert_str_eq(pl_cost_model_preset(cm), "b200");
	ck_assert(get_double(cm, "kernel_floor_us") == 2.5);
	/* bad keys and values, with the reason; the model unchanged */
	set_text_fails(cm, "preset", "h1000", PL_EINVAL, "unknown preset 'h1000' (known: h100, b200");
	set_text_fails(cm, "kernel_floor", "1", PL_ENOTFOUND, "unknown key 'kernel_floor'");
	set_text_fails(cm, "kernel_floor_us", "fast", PL_EINVAL, "'fast' is not a decimal number");
	set_text_fails(cm, "kernel_floor_us", "1.5us", PL_EINVAL, "not a decimal number");
	set_text_fails(cm, "kernel_floor_us", "-1", PL_EINVAL, "-1 is below the minimum 0");
	set_text_fails(cm, "peak_tflops.bf16", "0", PL_EINVAL, "0 is below the minimum");
	set_text_fails(cm, "devices_per_node", "8.5", PL_EINVAL, "'8.5' is not a whole number");
	set_text_fails(cm, "peak_gflops", "1.5", PL_EINVAL, "'1.5' is not an integer");
	set_text_fails(cm, "latency_ns", "-1", PL_EINVAL, "-1 is below the minimum 0");
	set_text_fails(cm, "memory_gb_per_s", "nan", PL_EINVAL, "not a decimal number");
	ck_assert(get_double(cm, "kernel_floor_us") == 2.5);
	ck_assert_int_eq(pl_cost_model_set_double(cm, "intra.latency_us", 0.75), PL_OK);
	ck_assert(get_double(cm, "intra.latency_us") == 0.75);
	ck_assert_int_eq(pl_cost_model_set_double(cm, "preset", 1), PL_ENOTFOUND);
	ck_assert_int_eq(pl_cost_model_set_double(cm, "nope", 1), PL_ENOTFOUND);
	pl_cost_model_free(cm);
}
END_TEST

/* The time of the instruction of the entry computation of HLO text whose
 * result is named name. */
static uint64_t hlo_time(const char *text, const char *name, const pl_cost_model *cm)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	int rc = pl_parse_hlo_buffer(text, strlen(text), "t.hlo", d, &m);
	ck_assert_msg(rc == PL_OK, "HLO: %s", tu_first_diag(d));
	pl_diags_free(d);
	const pl_func *f = pl_module_find_func(m, "main");
	ck_assert_ptr_nonnull(f);
	uint64_t t = UINT64_MAX;
	bool found = false;
	for (const pl_inst *i = pl_func_first_inst(f); i && !found; i = pl_inst_next(i)) {
		if (!pl_inst_num_results(i) || !pl_value_name(pl_inst_result(i, 0)) ||
		    strcmp(pl_value_name(pl_inst_result(i, 0)), name) != 0)
			continue;
		found = true;
		rc = pl_inst_time_ns(i, cm, &t);
		ck_assert_msg(rc == PL_OK, "%s: %s", name, pl_status_string(rc));
	}
	ck_assert_msg(found, "no %s", name);
	pl_module_free(m);
	return t;
}

/* A model whose every number is round, so the times below are checked by
 * hand: peaks 200 (fp8), 100 (bf16), 50 (tf32), 10 (f32) TFLOP/s, i.e.
 * 200000 ... 10000 FLOP per ns; memory 1000 bytes per ns; floor 2 us. */
static pl_cost_model *model_round(void)
{
	pl_cost_model *cm = pl_cost_model_new();
	set_text_ok(cm, "peak_tflops.fp8", "200");
	set_text_ok(cm, "peak_tflops.bf16", "100");
	set_text_ok(cm, "peak_tflops.tf32", "50");
	set_text_ok(cm, "peak_tflops.f32", "10");
	set_text_ok(cm, "memory_gb_per_s", "1000");
	set_text_ok(cm, "kernel_floor_us", "2");
	set_text_ok(cm, "collective.latency_us", "10");
	set_text_ok(cm, "intra.link_gb_per_s", "100");
	set_text_ok(cm, "intra.latency_us", "1");
	set_text_ok(cm, "inter.link_gb_per_s", "10");
	set_text_ok(cm, "inter.latency_us", "5");
	set_text_ok(cm, "devices_per_node", "4");
	return cm;
}

static const char roofline_hlo[] =
	"HloModule m, replica_count=8\n"
	"\n"
	"ENTRY main {\n"
	"  x = f32[1024]{0} parameter(0)\n"
	"  l = bf16[1,256,256]{2,1,0} parameter(1)\n"
	"  q = f8e4m3fn[1,512,512]{2,1,0} parameter(2)\n"
	"  a = bf16[256,512]{1,0} parameter(3)\n"
	"  b = bf16[512,128]{1,0} parameter(4)\n"
	"  i = s32[] parameter(5)\n"
	"  d = bf16[1,256,256]{2,1,0} dot(l, l), lhs_batch_dims={0}, rhs_batch_dims={0}, "
	"lhs_contracting_dims={2}, rhs_contracting_dims={1}\n"
	"  f8 = bf16[1,512,512]{2,1,0} dot(q, q), lhs_batch_dims={0}, rhs_batch_dims={0}, "
	"lhs_contracting_dims={2}, rhs_contracting_dims={1}\n"
	"  e = f32[1024]{0} exponential(x)\n"
	"  bc = s32[1024]{0} bitcast(x)\n"
	"  k = f32[] constant(1)\n"
	"  ds = f32[16]{0} dynamic-slice(x, i), dynamic_slice_sizes={16}\n"
	"  g = (bf16[256,128]{1,0}, s8[1024]{0}) custom-call(a, b), "
	"custom_call_target=\"__cublas$gemm\"\n"
	"  u = f32[1024]{0} custom-call(x), custom_call_target=\"acme_kernel\"\n"
	"  ROOT t = (bf16[1,256,256]{2,1,0}, f32[1024]{0}) tuple(d, e)\n"
	"}\n";

START_TEST(time_roofline)
{
	pl_cost_model *cm = model_round();
	/* bf16 dot: 2 x 256^3 = 33554432 flops / 100000 = 335.5 ns; bytes 3 x
	 * 131072 = 393216 / 1000 = 393.2 ns (memory-bound); + 2000 -> 2394 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "d", cm), 2394);
	/* fp8 dot at the fp8 peak: 2 x 512^3 = 268435456 / 200000 = 1342.2 ns
	 * against 262144 + 262144 + 524288 bytes = 1048.6 ns; + 2000 -> 3343 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "f8", cm), 3343);
	/* elementwise at the f32 peak: 1024 / 10000 = 0.1 ns; 8192 bytes / 1000
	 * = 8.192 ns; + 2000 -> 2009 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "e", cm), 2009);
	/* naming ops take no time */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "bc", cm), 0);
	ck_assert_uint_eq(hlo_time(roofline_hlo, "k", cm), 0);
	/* a dynamic slice reads what it writes: 2 x 64 + 4 (the index) = 132
	 * bytes, 0.132 ns; + 2000 -> 2001 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "ds", cm), 2001);
	/* cuBLAS GEMM from its shapes: k^2 = 131072 x 65536 / 32768 = 512^2,
	 * 2 x 32768 x 512 = 33554432 flops / 100000 = 335.5 ns; bytes 262144 +
	 * 131072 + 65536 + 1024 = 459776 -> 459.8 ns; + 2000 -> 2460 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "g$0", cm), 2460);
	/* an unknown target: bytes only, 8192 / 1000 + 2000 -> 2009 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "u", cm), 2009);
	/* a bf16 ramp of 1000 us at 1e12 FLOP: sqrt(33554432 / 1e12) =
	 * 0.0057926 -> 5792.6 ns more for the bf16 dot (2393.2 + 5792.6 =
	 * 8185.8 -> 8186) and for the bf16 GEMM (2459.8 + 5792.6 = 8252.4 ->
	 * 8253); the fp8 dot and the exponential are other classes */
	set_text_ok(cm, "ramp_us.bf16", "1000");
	ck_assert_uint_eq(hlo_time(roofline_hlo, "d", cm), 8186);
	ck_assert_uint_eq(hlo_time(roofline_hlo, "g$0", cm), 8253);
	ck_assert_uint_eq(hlo_time(roofline_hlo, "f8", cm), 3343);
	ck_assert_uint_eq(hlo_time(roofline_hlo, "e", cm), 2009);
	/* the exact model (the defaults) on HLO: the exponential's bytes count
	 * too, max(ceil(1024 / 400000), ceil(8192 / 2000)) = 5 */
	pl_cost_model *def = pl_cost_model_new();
	ck_assert_uint_eq(hlo_time(roofline_hlo, "e", def), 5);
	/* the bf16 dot: max(ceil(33554432 / 400000), ceil(393216 / 2000)) = 197 */
	ck_assert_uint_eq(hlo_time(roofline_hlo, "d", def), 197);
	pl_cost_model_free(def);
	pl_cost_model_free(cm);
}
END_TEST

static const char collectives_hlo[] =
	"HloModule m, replica_count=8\n"
	"\n"
	"add {\n"
	"  x = f32[] parameter(0)\n"
	"  y = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(x, y)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p = f32[256]{0} parameter(0)\n"
	"  h = f32[512]{0} parameter(1)\n"
	"  w = f32[1024]{0} parameter(2)\n"
	"  ag = f32[1024]{0} all-gather(p), replica_groups=[2,4]<=[8], dimensions={0}\n"
	"  agx = f32[1024]{0} all-gather(h), replica_groups={{0,4},{1,5},{2,6},{3,7}}, "
	"dimensions={0}\n"
	"  agt = f32[1024]{0} all-gather(h), replica_groups=[4,2]<=[2,4]T(1,0), dimensions={0}\n"
	"  ar = f32[1024]{0} all-reduce(w), replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=add\n"
	"  a2a = f32[1024]{0} all-to-all(w), replica_groups=[2,4]<=[8], dimensions={0}\n"
	"  cp = f32[1024]{0} collective-permute(w), source_target_pairs={{0,1},{1,0}}\n"
	"  cpx = f32[1024]{0} collective-permute(w), source_target_pairs={{3,4}}\n"
	"  ROOT t = (f32[1024]{0}, f32[1024]{0}) tuple(ag, a2a)\n"
	"}\n";

START_TEST(time_collectives_two_tier)
{
	pl_cost_model *cm = model_round(); /* 4 devices per node */
	/* all-gather, groups {0..3},{4..7}: F = 4 in one node, B = 4096 result
	 * bytes; 3 steps of 1 us, share 3/4: (10 + 3) us + 3072 / 100 -> 13031 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ag", cm), 13031);
	/* groups {0,4},...: F = 2 across nodes: 1 step of 5 us, the NIC's 10
	 * GB/s: 15 us + 2048 / 10 = 15204.8 -> 15205 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "agx", cm), 15205);
	/* the same groups written as a transposed iota */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "agt", cm), 15205);
	/* all-reduce, F = 4: 6 steps, share 2 x 3/4: 16 us + 6144 / 100 -> 16062 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ar", cm), 16062);
	/* all-to-all is communication, like a gather: 13031 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "a2a", cm), 13031);
	/* collective-permute: one step, the whole message: 11 us + 40.96 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "cp", cm), 11041);
	/* a pair across nodes: 15 us + 4096 / 10 = 15409.6 */
	ck_assert_uint_eq(hlo_time(collectives_hlo, "cpx", cm), 15410);
	/* one-shot up to 4 KiB: the all-reduce in one step: 11 us + 61.44 */
	set_text_ok(cm, "one_shot_max_kib", "4");
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ar", cm), 11062);
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ag", cm), 11031); /* 11 us + 30.72 */
	set_text_ok(cm, "one_shot_max_kib", "0");
	/* a kind's own terms: (20 + 3) us + 3072 / 200 + 4096 / 1000 = 23019.5 */
	set_text_ok(cm, "all_to_all.latency_us", "20");
	set_text_ok(cm, "all_to_all.bus_gb_per_s", "200");
	set_text_ok(cm, "all_to_all.copy_gb_per_s", "1000");
	ck_assert_uint_eq(hlo_time(collectives_hlo, "a2a", cm), 23020);
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ag", cm), 13031);
	/* and its ramp: 50 us at 1 MB times sqrt(4096 / 1e6) = 0.064 -> 3.2 us
	 * more: 26219.5 */
	set_text_ok(cm, "all_to_all.ramp_us", "50");
	ck_assert_uint_eq(hlo_time(collectives_hlo, "a2a", cm), 26220);
	ck_assert_uint_eq(hlo_time(collectives_hlo, "ag", cm), 13031);
	/* an async-start wrapper is timed as the collective it calls: the
	 * all-to-all of groups {0..3},{4..7} of "a2a" above with its own terms
	 * set, 26220 (as a group of one it took 23205). The reader makes an
	 * SDK all-gather start of a wrapped all-gather; an all-to-all stays a
	 * wrapper. */
	static const char wrapped[] =
		"HloModule m, replica_count=8\n\nx {\n  p = f32[1024]{0} parameter(0)\n"
		"  ROOT a = f32[1024]{0} all-to-all(p), replica_groups=[2,4]<=[8], dimensions={0}\n}\n\n"
		"ENTRY main {\n  p = f32[1024]{0} parameter(0)\n"
		"  s = ((f32[1024]{0}), f32[1024]{0}) async-start(p), calls=x\n"
		"  ROOT d = f32[1024]{0} async-done(s)\n}\n";
	ck_assert_uint_eq(hlo_time(wrapped, "s$0", cm), 26220);
	ck_assert_uint_eq(hlo_time(wrapped, "d", cm), 0);
	/* empty replica groups: every device of the mode. With a channel and
	 * only num_partitions = 8 in the header (replica_count 1, as XLA
	 * defaults it; not use_global_device_ids, which needs listed groups):
	 * F = 8 over two nodes of 4 (G = 4 devices, so 4 NICs, a node). The
	 * ring: 2 of its 14 steps cross the NICs: (10 + 12 x 1 + 2 x 5) us,
	 * and 2 x 7/8 x 4096 bytes at the slower of 100 GB/s (NVLink) and 4 x
	 * 10 (the NICs): 32000 + 179.2. The hierarchical all-reduce (no
	 * nvls: a chain of G - 1 = 3 steps each way in the node, log2(2) = 1
	 * step each way across): (10 + 6 x 1 + 2 x 5) us, and the slower of
	 * 2 x 3/4 x 4096 / 100 = 61.44 and 2 x 1/2 x 4096 / 40 = 102.4:
	 * 26102.4, the faster, so 26103; without a channel only the one
	 * replica: no steps, nothing sent, 10 us */
	static const char empty_groups[] =
		"HloModule m, num_partitions=8\n\nadd {\n  x = f32[] parameter(0)\n"
		"  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\nENTRY main {\n"
		"  w = f32[1024]{0} parameter(0)\n"
		"  all = f32[1024]{0} all-reduce(w), replica_groups={}, channel_id=1, "
		"to_apply=add\n"
		"  ROOT one = f32[1024]{0} all-reduce(all), replica_groups={}, to_apply=add\n}\n";
	ck_assert_uint_eq(hlo_time(empty_groups, "all", cm), 26103);
	ck_assert_uint_eq(hlo_time(empty_groups, "one", cm), 10000);
	/* the exact model: a permute sends its whole message, 10000 + 4096 /
	 * 100 -> 10041; the all-to-all of groups of 4 keeps its factor (as the
	 * HLO reader gives it) and sends 3/4 of its message: 10000 + 3072 /
	 * 100 -> 10031 */
	pl_cost_model *def = pl_cost_model_new();
	ck_assert_uint_eq(hlo_time(collectives_hlo, "cp", def), 10041);
	ck_assert_uint_eq(hlo_time(collectives_hlo, "a2a", def), 10031);
	pl_cost_model_free(def);
	pl_cost_model_free(cm);
}
END_TEST

START_TEST(sim_all_to_all_is_communication)
{
	/* under the defaults: the exponential computes max(1, ceil(8192 / 2000))
	 * = 5 ns; the all-to-all is a collective on its own lane, groups of 4
	 * sending 3/4 of 4096 bytes: 10000 + ceil(3072 / 100) = 10031 */
	const char *text = "HloModule m, replica_count=8\n\nENTRY main {\n"
	                   "  w = f32[1024]{0} parameter(0)\n"
	                   "  e = f32[1024]{0} exponential(w)\n"
	                   "  ROOT a = f32[1024]{0} all-to-all(e), replica_groups=[2,4]<=[8], "
	                   "dimensions={0}\n}\n";
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_hlo_buffer(text, strlen(text), "t.hlo", d, &m), PL_OK);
	pl_diags_free(d);
	pl_cost_model *cm = pl_cost_model_new();
	pl_schedule *s = NULL;
	ck_assert_int_eq(pl_schedule_new(&s, pl_module_find_func(m, "main"), cm), PL_OK);
	ck_assert_uint_eq(pl_schedule_compute_ns(s), 5);
	ck_assert_uint_eq(pl_schedule_comm_ns(s), 10031);
	ck_assert_uint_eq(pl_schedule_exposed_ns(s), 10031);
	ck_assert_uint_eq(pl_schedule_makespan_ns(s), 10036);
	ck_assert_uint_eq(pl_schedule_lane(s, 1), 1);
	/* and its bytes: operand and result, 8192 */
	uint64_t b = 0;
	ck_assert_int_eq(pl_inst_kernel_bytes(pl_schedule_inst(s, 1), &b), PL_OK);
	ck_assert_uint_eq(b, 8192);
	pl_schedule_free(s);
	pl_cost_model_free(cm);
	pl_module_free(m);
}
END_TEST

static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *model = tcase_create("model");
	tcase_add_test(model, model_keys);
	tcase_add_test(model, model_set_get);
	tcase_add_test(model, ctx_model);
	tcase_add_test(model, model_params);
	tcase_add_test(model, model_text);
	suite_add_tcase(s, model);
	TCase *time = tcase_create("time");
	tcase_add_test(time, time_compute);
	tcase_add_test(time, time_collectives);
	tcase_add_test(time, time_wide_bytes);
	tcase_add_test(time, time_past_2_128);
	tcase_add_test(time, time_errors);
	tcase_add_test(time, masked_memo);
	tcase_add_test(time, time_roofline);
	tcase_add_test(time, time_collectives_two_tier);
	suite_add_tcase(s, time);
	TCase *sim = tcase_create("simulation");
	tcase_add_test(sim, sim_synchronous);
	tcase_add_test(sim, sim_hidden);
	tcase_add_test(sim, sim_partly_hidden);
	tcase_add_test(sim, sim_two_groups);
	tcase_add_test(sim, sim_group_busy);
	tcase_add_test(sim, sim_done_waits);
	tcase_add_test(sim, sim_no_factor);
	tcase_add_test(sim, sim_wide);
	tcase_add_test(sim, sim_errors);
	tcase_add_test(sim, sim_empty);
	tcase_add_test(sim, sim_all_to_all_is_communication);
	suite_add_tcase(s, sim);
	return s;
}

TU_MAIN(cost_suite)
