/* SPDX-License-Identifier: MIT */
/* tests/unit/check_verify.c — one test per verifier rule (passline/verify.h,
 * passline-pir(5)): each asserts PL_EVERIFY with the exact messages,
 * and that a nearby valid case gives PL_OK.
 *
 * Most cases are text: the reader accepts them (they are well formed) and
 * the verifier rejects them. What the reader itself refuses (uses before
 * definitions, values of other functions) is built or mutated through the
 * API.
 */
#include "testutil.h"

/* The arguments every single-instruction case can use. */
#define HEADER "func @f(%x: f32[4], %y: f32[4], %i: i32[4], %s: f32[], %m: f32[4,6]) {\n  "

/* Parses text (which must parse) and verifies it; the diagnostics must be
 * exactly msgs (NULL-terminated; none means the module is valid). */
static void expect_verify(const char *text, const char *const *msgs)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	size_t n = 0;
	while (msgs[n])
		n++;
	int rc = pl_verify_module(m, d);
	for (size_t k = 0; k < n && k < pl_diags_count(d); k++)
		ck_assert_str_eq(pl_diags_format(d, k), msgs[k]);
	ck_assert_msg(pl_diags_count(d) == n, "%zu messages, expected %zu; first: %s",
	              pl_diags_count(d), n, tu_first_diag(d));
	ck_assert_int_eq(pl_diags_error_count(d), n);
	ck_assert_int_eq(rc, n ? PL_EVERIFY : PL_OK);
	pl_module_free(m);
	pl_diags_free(d);
}

#define EXPECT_INVALID(text, ...) expect_verify((text), (const char *const[]){__VA_ARGS__, NULL})
#define EXPECT_VALID(text) expect_verify((text), (const char *const[]){NULL})

/* One instruction after HEADER: line 2, column 3. */
static void one(const char *inst, const char *msg)
{
	char text[4096];
	snprintf(text, sizeof text, "%s%s\n}\n", HEADER, inst);
	if (msg)
		EXPECT_INVALID(text, msg);
	else
		EXPECT_VALID(text);
}

/* Verifies m (built or mutated through the API) expecting exactly msgs. */
static void expect_module(pl_module *m, const char *const *msgs)
{
	pl_diags *d = pl_diags_new();
	size_t n = 0;
	while (msgs[n])
		n++;
	int rc = pl_verify_module(m, d);
	for (size_t k = 0; k < n && k < pl_diags_count(d); k++)
		ck_assert_str_eq(pl_diags_format(d, k), msgs[k]);
	ck_assert_msg(pl_diags_count(d) == n, "%zu messages, expected %zu; first: %s",
	              pl_diags_count(d), n, tu_first_diag(d));
	ck_assert_int_eq(rc, n ? PL_EVERIFY : PL_OK);
	pl_diags_free(d);
}

#define EXPECT_MODULE_INVALID(m, ...) \
	expect_module((m), (const char *const[]){__VA_ARGS__, NULL})
#define EXPECT_MODULE_VALID(m) expect_module((m), (const char *const[]){NULL})

static pl_module *parse_ok(const char *text)
{
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	pl_diags_free(d);
	return m;
}

/* ---- reserved attributes --------------------------------- */

START_TEST(test_group_id_is_string)
{
	one("%g = all_gather %x {group_id = 1, factor = 2} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': attribute 'group_id' must be a string, not an integer");
	one("%g = all_gather %x {group_id = [\"dp\"], factor = 2} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': attribute 'group_id' must be a string, not a list");
	one("%g = all_gather %x {group_id = \"dp\", factor = 2} : f32[8]", NULL);
	one("%g = all_gather %x {group_id = \"\", factor = 2} : f32[8]", NULL);
}
END_TEST

START_TEST(test_factor_is_int_at_least_1)
{
	one("%g = all_gather %x {factor = \"8\"} : f32[32]",
	    "test.pir:2:3: error: 'all_gather': attribute 'factor' must be an integer, not a string");
	one("%g = all_gather %x {factor = 0} : f32[4]",
	    "test.pir:2:3: error: 'all_gather': attribute 'factor' must be at least 1, not 0");
	one("%g = all_gather %x {factor = -3} : f32[4]",
	    "test.pir:2:3: error: 'all_gather': attribute 'factor' must be at least 1, not -3");
	one("%g = all_gather %x {factor = 2.0} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': attribute 'factor' must be an integer, not a float");
	one("%g = all_gather %x {factor = 1} : f32[4]", NULL);
	/* on any op: a reserved attribute has its type everywhere */
	one("acme.x {factor = 0}",
	    "test.pir:2:3: error: 'acme.x': attribute 'factor' must be at least 1, not 0");
}
END_TEST

START_TEST(test_reduce_is_string)
{
	one("%r = all_reduce %x {reduce = 1} : f32[4]",
	    "test.pir:2:3: error: 'all_reduce': attribute 'reduce' must be a string, not an integer");
	one("%r = all_reduce %x {reduce = true} : f32[4]",
	    "test.pir:2:3: error: 'all_reduce': attribute 'reduce' must be a string, not a boolean");
	one("%r = all_reduce %x {reduce = \"max\"} : f32[4]", NULL);
}
END_TEST

START_TEST(test_dimension_is_int_not_negative)
{
	one("%g = all_gather %m {factor = 2, dimension = 1.0} : f32[4,12]",
	    "test.pir:2:3: error: 'all_gather': attribute 'dimension' must be an integer, not a float");
	one("%g = all_gather %m {factor = 2, dimension = -1} : f32[4,12]",
	    "test.pir:2:3: error: 'all_gather': attribute 'dimension' must not be negative");
	one("%g = all_gather %m {factor = 2, dimension = 1} : f32[4,12]", NULL);
	one("%g = all_gather %m {factor = 2, dimension = 0} : f32[8,6]", NULL);
}
END_TEST

START_TEST(test_id_is_int)
{
	one("acme.x {id = \"7\"}", "test.pir:2:3: error: 'acme.x': attribute 'id' must be an integer, not a string");
	one("acme.x {id = -7}", NULL);
}
END_TEST

START_TEST(test_fsdp_is_bool)
{
	one("%g = all_gather %x {factor = 2, fsdp = 1} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': attribute 'fsdp' must be a boolean, not an integer");
	one("%g = all_gather %x {factor = 2, fsdp = \"true\"} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': attribute 'fsdp' must be a boolean, not a string");
	one("%g = all_gather %x {factor = 2, fsdp = false} : f32[8]", NULL);
}
END_TEST

START_TEST(test_num_dynamic_instances)
{
	one("acme.x {num_dynamic_instances = -1}",
	    "test.pir:2:3: error: 'acme.x': attribute 'num_dynamic_instances' must not be negative");
	one("acme.x {num_dynamic_instances = true}",
	    "test.pir:2:3: error: 'acme.x': attribute 'num_dynamic_instances' must be an integer, not a boolean");
	one("acme.x {num_dynamic_instances = 0}", NULL);
	one("acme.x {num_dynamic_instances = 9223372036854775807}", NULL);
}
END_TEST

START_TEST(test_flops)
{
	one("acme.x {flops = -1}", "test.pir:2:3: error: 'acme.x': attribute 'flops' must not be negative");
	one("acme.x {flops = [2]}", "test.pir:2:3: error: 'acme.x': attribute 'flops' must be an integer, not a list");
	one("acme.x {flops = 0}", NULL);
}
END_TEST

START_TEST(test_domain_list_of_ints)
{
	one("acme.x {domain = 5}",
	    "test.pir:2:3: error: 'acme.x': attribute 'domain' must be a list, not an integer");
	one("acme.x {domain = [1, -1]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'domain' must list integers >= 0 (element 1 is not)");
	one("acme.x {domain = [1, \"a\", -1]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'domain' must list integers >= 0 (element 1 is not)");
	one("acme.x {domain = [[1]]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'domain' must list integers >= 0 (element 0 is not)");
	one("acme.x {domain = [0, 7]}", NULL);
	one("acme.x {domain = []}", NULL);
	/* at most 64 dimensions */
	char inst[512] = "acme.x {domain = [";
	for (int k = 0; k < 65; k++)
		strcat(inst, k ? ", 1" : "1");
	strcat(inst, "]}");
	one(inst, "test.pir:2:3: error: 'acme.x': attribute 'domain' has more than 64 dimensions");
	strcpy(inst, "acme.x {domain = [");
	for (int k = 0; k < 64; k++)
		strcat(inst, k ? ", 1" : "1");
	strcat(inst, "], predicate = [\"i63 < 1\"]}");
	one(inst, NULL);
}
END_TEST

START_TEST(test_predicate_list_of_strings)
{
	one("acme.x {domain = [4], predicate = \"i0 < 2\"}",
	    "test.pir:2:3: error: 'acme.x': attribute 'predicate' must be a list, not a string");
	one("acme.x {domain = [4], predicate = [\"i0 < 2\", 3]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'predicate' must list strings (element 1 is not)");
	one("acme.x {domain = [4], predicate = [\"i0 < 2\", \"i0 >= 1\"]}", NULL);
	one("acme.x {domain = [4], predicate = []}", NULL);
}
END_TEST

START_TEST(test_predicate_needs_domain)
{
	one("acme.x {predicate = [\"i0 < 2\"]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'predicate' needs a 'domain'");
	one("acme.x {predicate = []}",
	    "test.pir:2:3: error: 'acme.x': attribute 'predicate' needs a 'domain'");
	/* a domain of the wrong kind is one error, not also "needs a domain" */
	one("acme.x {domain = 4, predicate = [\"i0 < 2\"]}",
	    "test.pir:2:3: error: 'acme.x': attribute 'domain' must be a list, not an integer");
	one("acme.x {predicate = [\"i0 < 2\"], domain = [3]}", NULL);
}
END_TEST

START_TEST(test_predicate_must_parse)
{
	one("acme.x {domain = [4, 4], predicate = [\"i0 < 2\", \"i0 <\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 1 \"i0 <\", column 5: expected an integer or an index variable");
	one("acme.x {domain = [4], predicate = [\"i0 = 2\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"i0 = 2\", column 4: expected one of < <= > >= == !=");
	one("acme.x {domain = [4], predicate = [\"2*i0 + j < 3\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"2*i0 + j < 3\", column 8: expected an integer or an index variable");
	/* an index the domain lacks: the message names constraint and column */
	one("acme.x {domain = [4, 4], predicate = [\"i0 < 2\", \"i0 + 3*i2 < 3\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 1 \"i0 + 3*i2 < 3\", column 8: index variable not in the domain");
	one("acme.x {domain = [], predicate = [\"i0 < 1\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"i0 < 1\", column 1: index variable not in the domain");
	/* quoted as the text form writes it: a newline and a quote stay
	 * escaped, in one message on one line */
	one("acme.x {domain = [4], predicate = [\"i0 <\\n 2\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"i0 <\\n 2\", column 5: expected an integer or an index variable");
	one("acme.x {domain = [4], predicate = [\"i0 < \\\"2\"]}",
	    "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"i0 < \\\"2\", column 6: expected an integer or an index variable");
	/* every bad constraint is reported */
	EXPECT_INVALID(HEADER "acme.x {domain = [4], predicate = [\"i1 < 2\", \"< 2\", \"i0 < 2\"]}\n}\n",
	               "test.pir:2:3: error: 'acme.x': predicate constraint 0 \"i1 < 2\", column 1: index variable not in the domain",
	               "test.pir:2:3: error: 'acme.x': predicate constraint 1 \"< 2\", column 1: expected an integer or an index variable");
	one("acme.x {domain = [4, 4], predicate = [\"i1 < 2\", \"128*i0 + i1 != -3\"]}", NULL);
}
END_TEST

START_TEST(test_domain_product_overflow)
{
	one("acme.x {domain = [4611686018427387904, 2]}",
	    "test.pir:2:3: error: 'acme.x': the product of 'domain' overflows int64");
	/* also next to an explicit count (it used to hide the overflow) */
	one("acme.x {domain = [4611686018427387904, 2], num_dynamic_instances = 5}",
	    "test.pir:2:3: error: 'acme.x': the product of 'domain' overflows int64");
	one("acme.x {num_dynamic_instances = 5, domain = [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]}",
	    "test.pir:2:3: error: 'acme.x': the product of 'domain' overflows int64");
	/* a predicate on such a domain is not looked at */
	one("acme.x {domain = [4611686018427387904, 2], predicate = [\"i5 < 1\"]}",
	    "test.pir:2:3: error: 'acme.x': the product of 'domain' overflows int64");
	/* INT64_MAX itself fits; a zero extent makes any product 0 */
	one("acme.x {domain = [9223372036854775807]}", NULL);
	one("acme.x {domain = [3, 3074457345618258602]}", NULL);
	one("acme.x {domain = [9223372036854775807, 0, 9223372036854775807]}", NULL);
	one("acme.x {domain = [4611686018427387904, 2, 0], num_dynamic_instances = 5}", NULL);
}
END_TEST

START_TEST(test_type_size_overflow)
{
	one("%r = acme.x : f32[4611686018427387904]",
	    "test.pir:2:3: error: 'acme.x': result 0 has type f32[4611686018427387904] whose size overflows int64");
	one("%a, %b = acme.x : (f32[], i8[4294967296,4294967296])",
	    "test.pir:2:3: error: 'acme.x': result 1 has type i8[4294967296,4294967296] whose size overflows int64");
	one("%r = acme.x : i8[9223372036854775807]", NULL);
	one("%r = acme.x : f64[1152921504606846975]", NULL);
	one("%r = acme.x : f64[9223372036854775807,0]", NULL);
	EXPECT_INVALID("func @f(%ok: f32[], %a: f64[2305843009213693952]) {\n}\n",
	               "test.pir:1:1: error: function @f: argument 1 has a type whose size overflows int64");
}
END_TEST

/* ---- collectives -------------------------------------------- */

START_TEST(test_collective_counts)
{
	one("%g = all_gather %x, %y {factor = 2} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': a collective has one result per operand (2 operands, 1 result)");
	one("%a, %b = all_reduce %x : (f32[4], f32[4])",
	    "test.pir:2:3: error: 'all_reduce': a collective has one result per operand (1 operand, 2 results)");
	one("reduce_scatter %x",
	    "test.pir:2:3: error: 'reduce_scatter': a collective has one result per operand (1 operand, 0 results)");
	one("all_gather", "test.pir:2:3: error: 'all_gather': a collective needs at least one operand");
	one("%a, %b = all_gather %x, %y {factor = 2} : (f32[8], f32[8])", NULL);
}
END_TEST

START_TEST(test_collective_dtypes)
{
	one("%g = all_gather %x {factor = 2} : i32[8]",
	    "test.pir:2:3: error: 'all_gather': result 0 has dtype i32 but operand 0 has f32");
	/* without factor the dtype is still checked */
	one("%a, %b = all_reduce %x, %i : (f32[4], f32[4])",
	    "test.pir:2:3: error: 'all_reduce': result 1 has dtype f32 but operand 1 has i32");
	one("%a, %b = all_reduce %x, %i : (f32[4], i32[4])", NULL);
}
END_TEST

START_TEST(test_all_gather_shape)
{
	one("%g = all_gather %x {factor = 2} : f32[4]",
	    "test.pir:2:3: error: 'all_gather': result 0 has type f32[4], expected f32[8]");
	one("%g = all_gather %m {factor = 3, dimension = 1} : f32[12,6]",
	    "test.pir:2:3: error: 'all_gather': result 0 has type f32[12,6], expected f32[4,18]");
	one("%g = all_gather %m {factor = 3} : f32[12]",
	    "test.pir:2:3: error: 'all_gather': result 0 has type f32[12], expected f32[12,6]");
	one("%g = all_gather %m {factor = 3} : f32[12,6]", NULL);
	one("%g = all_gather %m {factor = 3, dimension = 1} : f32[4,18]", NULL);
	/* a scalar gathers to [F] */
	one("%g = all_gather %s {factor = 4} : f32[4]", NULL);
	one("%g = all_gather %s {factor = 4} : f32[]",
	    "test.pir:2:3: error: 'all_gather': result 0 has type f32[], expected f32[4]");
	one("%g = all_gather %s {factor = 4} : f32[1,4]",
	    "test.pir:2:3: error: 'all_gather': result 0 has type f32[1,4], expected f32[4]");
	one("%g = all_gather %s {factor = 4, dimension = 1} : f32[4]",
	    "test.pir:2:3: error: 'all_gather': 'dimension' 1 is out of range for a scalar operand");
	/* extent times factor must fit */
	EXPECT_INVALID("func @f(%b: i8[4611686018427387904]) {\n"
	               "  %g = all_gather %b {factor = 2} : i8[1]\n}\n",
	               "test.pir:2:3: error: 'all_gather': operand 0 extent times factor overflows int64");
	/* the second operand of a tuple */
	one("%a, %b = all_gather %x, %m {factor = 2} : (f32[8], f32[4,6])",
	    "test.pir:2:3: error: 'all_gather': result 1 has type f32[4,6], expected f32[8,6]");
	/* without factor, shapes are not checked */
	one("%g = all_gather %x : f32[99]", NULL);
}
END_TEST

START_TEST(test_reduce_scatter_shape)
{
	one("%r = reduce_scatter %x {factor = 3} : f32[1]",
	    "test.pir:2:3: error: 'reduce_scatter': operand 0 extent 4 in dimension 0 is not divisible by factor 3");
	one("%r = reduce_scatter %m {factor = 4, dimension = 1} : f32[4,1]",
	    "test.pir:2:3: error: 'reduce_scatter': operand 0 extent 6 in dimension 1 is not divisible by factor 4");
	one("%r = reduce_scatter %x {factor = 2} : f32[4]",
	    "test.pir:2:3: error: 'reduce_scatter': result 0 has type f32[4], expected f32[2]");
	one("%r = reduce_scatter %m {factor = 2, dimension = 1} : f32[2,6]",
	    "test.pir:2:3: error: 'reduce_scatter': result 0 has type f32[2,6], expected f32[4,3]");
	one("%r = reduce_scatter %x {factor = 2} : f32[2]", NULL);
	one("%r = reduce_scatter %m {factor = 2, dimension = 1} : f32[4,3]", NULL);
	one("%r = reduce_scatter %x {factor = 4} : f32[1]", NULL);
	/* a scalar has no dimension 0 to split */
	one("%r = reduce_scatter %s {factor = 1} : f32[]",
	    "test.pir:2:3: error: 'reduce_scatter': 'dimension' 0 is out of range for operand 0 of rank 0");
}
END_TEST

START_TEST(test_all_reduce_shape)
{
	one("%r = all_reduce %x {factor = 2} : f32[8]",
	    "test.pir:2:3: error: 'all_reduce': result 0 has type f32[8], expected f32[4]");
	one("%r = all_reduce %m {factor = 2} : f32[6,4]",
	    "test.pir:2:3: error: 'all_reduce': result 0 has type f32[6,4], expected f32[4,6]");
	one("%r = all_reduce %m {factor = 2} : f32[4,6]", NULL);
	one("%r = all_reduce %s {factor = 8} : f32[]", NULL);
}
END_TEST

START_TEST(test_collective_dimension_range)
{
	one("%g = all_gather %x {factor = 2, dimension = 1} : f32[8]",
	    "test.pir:2:3: error: 'all_gather': 'dimension' 1 is out of range for operand 0 of rank 1");
	one("%r = reduce_scatter %m {factor = 2, dimension = 2} : f32[4,6]",
	    "test.pir:2:3: error: 'reduce_scatter': 'dimension' 2 is out of range for operand 0 of rank 2");
	one("%g = all_gather %x {factor = 2, dimension = 0} : f32[8]", NULL);
}
END_TEST

START_TEST(test_dimension_on_all_reduce)
{
	one("%r = all_reduce %x {factor = 2, dimension = 0} : f32[4]",
	    "test.pir:2:3: error: 'all_reduce': attribute 'dimension' does not apply to all_reduce");
	one("%r = all_reduce %x {dimension = 0} : f32[4]",
	    "test.pir:2:3: error: 'all_reduce': attribute 'dimension' does not apply to all_reduce");
	one("%r = all_reduce %x {factor = 2} : f32[4]", NULL);
}
END_TEST

/* ---- arity of the other ops the SDK knows ------------------------------ */

START_TEST(test_store_arity)
{
	one("affine_store %x",
	    "test.pir:2:3: error: 'affine_store': a store needs the stored value and the buffer (1 operand)");
	one("generic_store",
	    "test.pir:2:3: error: 'generic_store': a store needs the stored value and the buffer (0 operands)");
	one("%r = generic_store %x, %y : f32[4]",
	    "test.pir:2:3: error: 'generic_store': a store has no results");
	EXPECT_INVALID(HEADER "%r = affine_store %x : f32[4]\n}\n",
	               "test.pir:2:3: error: 'affine_store': a store needs the stored value and the buffer (1 operand)",
	               "test.pir:2:3: error: 'affine_store': a store has no results");
	one("affine_store %x, %y", NULL);
	one("generic_store %x, %y", NULL);
}
END_TEST

START_TEST(test_load_arity)
{
	one("affine_load %x", "test.pir:2:3: error: 'affine_load': a load has exactly one result (0)");
	one("%a, %b = generic_load %x : (f32[4], f32[4])",
	    "test.pir:2:3: error: 'generic_load': a load has exactly one result (2)");
	one("%a = affine_load %x : f32[4]", NULL);
	one("%a = generic_load : f32[4]", NULL);
}
END_TEST

START_TEST(test_pack_unpack_arity)
{
	one("pack %x", "test.pir:2:3: error: 'pack': pack takes at least one operand and has one result");
	one("%p = pack : f32[4]",
	    "test.pir:2:3: error: 'pack': pack takes at least one operand and has one result");
	one("%p, %q = pack %x : (f32[4], f32[4])",
	    "test.pir:2:3: error: 'pack': pack takes at least one operand and has one result");
	one("%p = pack %x, %s : f32[5]", NULL);
	one("%a = unpack %x, %y : f32[4]",
	    "test.pir:2:3: error: 'unpack': unpack takes one operand and has at least one result");
	one("unpack %x",
	    "test.pir:2:3: error: 'unpack': unpack takes one operand and has at least one result");
	one("%a, %b = unpack %x : (f32[2], f32[2])", NULL);
}
END_TEST

START_TEST(test_return_rules)
{
	one("%r = return : f32[]", "test.pir:2:3: error: 'return': return has no results");
	EXPECT_INVALID(HEADER "return %x\n  acme.after\n}\n",
	               "test.pir:2:3: error: 'return': return must be the last instruction of its function");
	EXPECT_INVALID(HEADER "return\n  return\n}\n",
	               "test.pir:2:3: error: 'return': return must be the last instruction of its function");
	one("return %x, %y", NULL);
	one("return", NULL);
	/* a function need not end in a return */
	EXPECT_VALID("func @f() {\n  acme.x\n}\n");
}
END_TEST

/* ---- function attributes --------------------------------------------------- */

START_TEST(test_function_attrs_bool)
{
	EXPECT_INVALID("func @f() attributes {has_copy = 1} {\n}\n",
	               "test.pir:1:1: error: function @f: attribute 'has_copy' must be a boolean");
	EXPECT_INVALID("\n  func @g() attributes {has_reduce = \"yes\", has_copy = []} {\n}\n",
	               "test.pir:2:3: error: function @g: attribute 'has_copy' must be a boolean",
	               "test.pir:2:3: error: function @g: attribute 'has_reduce' must be a boolean");
	EXPECT_VALID("func @f() attributes {has_copy = true, has_reduce = false} {\n}\n");
	/* on an instruction they are not reserved */
	one("acme.x {has_copy = 1}", NULL);
}
END_TEST

/* ---- SSA rules, through the API ---------------------------------------------- */

START_TEST(test_use_before_definition_moved)
{
	pl_module *m = parse_ok("func @f(%p: f32[]) {\n"
	                        "  %a = acme.def %p : f32[]\n"
	                        "  %b = acme.use %a : f32[]\n"
	                        "}\n");
	EXPECT_MODULE_VALID(m);
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *def = pl_func_first_inst(f), *use = pl_inst_next(def);
	pl_inst_move_before(use, def);
	EXPECT_MODULE_INVALID(m, "test.pir:3:3: error: 'acme.use': operand 0 (%a) is used before its definition");
	pl_inst_move_after(use, def);
	EXPECT_MODULE_VALID(m);
	/* moving the definition after the use is the same mistake */
	pl_inst_move_after(def, use);
	EXPECT_MODULE_INVALID(m, "test.pir:3:3: error: 'acme.use': operand 0 (%a) is used before its definition");
	pl_module_free(m);
}
END_TEST

START_TEST(test_use_before_definition_built)
{
	pl_module *m = pl_module_new("test.pir");
	pl_func *f = pl_func_new(m, "f");
	const pl_type *t = pl_type_get(m, PL_DTYPE_F32, NULL, 0);
	pl_inst *def = pl_inst_new(f, "acme.def", NULL, 0, &t, 1);
	pl_value *a = pl_inst_result(def, 0);
	ck_assert_int_eq(pl_value_set_name(a, "a"), PL_OK);
	pl_inst *use = pl_inst_new(f, "acme.use", &a, 1, NULL, 0);
	pl_func_append(f, use);
	pl_inst_insert_after(def, use);
	EXPECT_MODULE_INVALID(m, "test.pir: error: in @f: 'acme.use' (built by a pass): operand 0 (%a) is used before its definition");
	pl_inst_move_before(def, use);
	EXPECT_MODULE_VALID(m);
	/* an instruction that uses its own result */
	pl_inst *self = pl_inst_new(f, "acme.self", &a, 1, &t, 1);
	pl_func_append(f, self);
	pl_inst_set_operand(self, 0, pl_inst_result(self, 0));
	EXPECT_MODULE_INVALID(m, "test.pir: error: in @f: 'acme.self' (built by a pass): operand 0 (%<unnamed>) is used before its definition");
	/* at a location set by the pass */
	pl_inst_set_loc(self, 9, 4);
	EXPECT_MODULE_INVALID(m, "test.pir:9:4: error: 'acme.self': operand 0 (%<unnamed>) is used before its definition");
	pl_module_free(m);
}
END_TEST

START_TEST(test_use_before_definition_many)
{
	/* positions after many edits at one place: every use is checked */
	pl_module *m = parse_ok("func @f(%p: f32[]) {\n"
	                        "  %a = acme.def %p : f32[]\n"
	                        "  acme.end\n"
	                        "}\n");
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *def = pl_func_first_inst(f);
	pl_value *a = pl_inst_result(def, 0);
	for (int k = 0; k < 200; k++) {
		pl_inst *u = pl_inst_new(f, "acme.use", &a, 1, NULL, 0);
		pl_inst_insert_after(u, def);
	}
	EXPECT_MODULE_VALID(m);
	/* the definition moved to the end: all 200 uses are now early */
	pl_inst_move_before(def, pl_func_last_inst(f));
	pl_diags *d = pl_diags_new();
	ck_assert_int_eq(pl_verify_module(m, d), PL_EVERIFY);
	ck_assert_uint_eq(pl_diags_count(d), 200);
	ck_assert_str_eq(pl_diags_format(d, 199), "test.pir: error: in @f: 'acme.use' (built by a pass): operand 0 (%a) is used before its definition");
	pl_diags_free(d);
	pl_module_free(m);
}
END_TEST

START_TEST(test_operand_from_another_function)
{
	pl_module *m = parse_ok("func @f(%a: f32[]) {\n}\n\n"
	                        "func @g(%b: f32[]) {\n"
	                        "  %c = acme.use %b : f32[]\n"
	                        "}\n");
	EXPECT_MODULE_VALID(m);
	pl_value *a = pl_func_arg(pl_module_func_at(m, 0), 0);
	pl_inst *use = pl_func_first_inst(pl_module_func_at(m, 1));
	pl_inst_set_operand(use, 0, a);
	EXPECT_MODULE_INVALID(m, "test.pir:5:3: error: 'acme.use': operand 0 (%a) belongs to another function");
	pl_inst_set_operand(use, 0, pl_func_arg(pl_module_func_at(m, 1), 0));
	EXPECT_MODULE_VALID(m);
	/* pl_inst_new refuses such an operand outright */
	ck_assert_ptr_null(pl_inst_new(pl_module_func_at(m, 1), "acme.x", &a, 1, NULL, 0));
	/* a result of another function's instruction as well */
	pl_module *m2 = parse_ok("func @f() {\n  %r = acme.def : f32[]\n}\n\n"
	                         "func @g(%b: f32[]) {\n  acme.use %b\n}\n");
	pl_value *r = pl_inst_result(pl_func_first_inst(pl_module_func_at(m2, 0)), 0);
	pl_inst_set_operand(pl_func_first_inst(pl_module_func_at(m2, 1)), 0, r);
	EXPECT_MODULE_INVALID(m2, "test.pir:6:3: error: 'acme.use': operand 0 (%r) belongs to another function");
	pl_module_free(m2);
	pl_module_free(m);
}
END_TEST

START_TEST(test_operand_of_erased_or_detached)
{
	pl_module *m = parse_ok("func @f(%p: f32[]) {\n"
	                        "  %a = acme.def %p : f32[]\n"
	                        "  %b = acme.use %p : f32[]\n"
	                        "}\n");
	pl_func *f = pl_module_func_at(m, 0);
	pl_inst *def = pl_func_first_inst(f), *use = pl_inst_next(def);
	pl_value *a = pl_inst_result(def, 0);
	/* the definition erased (it has no uses), then used anyway */
	ck_assert_int_eq(pl_inst_erase(def), PL_OK);
	pl_inst_set_operand(use, 0, a);
	EXPECT_MODULE_INVALID(m, "test.pir:3:3: error: 'acme.use': operand 0 (%a) was defined by an erased instruction");
	pl_inst_set_operand(use, 0, pl_func_arg(f, 0));
	EXPECT_MODULE_VALID(m);

	/* the definition created but never linked */
	const pl_type *t = pl_type_get(m, PL_DTYPE_F32, NULL, 0);
	pl_inst *loose = pl_inst_new(f, "acme.loose", NULL, 0, &t, 1);
	pl_value *l = pl_inst_result(loose, 0);
	pl_value_set_name(l, "l");
	pl_inst *u2 = pl_inst_new(f, "acme.use2", &l, 1, NULL, 0);
	pl_func_append(f, u2);
	EXPECT_MODULE_INVALID(m, "test.pir: error: in @f: 'acme.use2' (built by a pass): operand 0 (%l) is defined by an instruction that is not in the function");
	pl_inst_insert_before(loose, u2);
	EXPECT_MODULE_VALID(m);
	pl_module_free(m);
}
END_TEST

/* ---- how violations are reported ------------------------------------------ */

START_TEST(test_reports_every_violation)
{
	/* every violation, in order; a bad operand stops the op-specific checks
	 * of that instruction only */
	EXPECT_INVALID("func @f(%x: f32[4]) attributes {has_copy = 0} {\n"
	               "  %a = all_gather %x {factor = 0, fsdp = 1} : f32[4]\n"
	               "  affine_store %x\n"
	               "  %r = return : f32[]\n"
	               "  acme.end\n"
	               "}\n",
	               "test.pir:1:1: error: function @f: attribute 'has_copy' must be a boolean",
	               "test.pir:2:3: error: 'all_gather': attribute 'factor' must be at least 1, not 0",
	               "test.pir:2:3: error: 'all_gather': attribute 'fsdp' must be a boolean, not an integer",
	               "test.pir:3:3: error: 'affine_store': a store needs the stored value and the buffer (1 operand)",
	               "test.pir:4:3: error: 'return': return has no results",
	               "test.pir:4:3: error: 'return': return must be the last instruction of its function");
	/* several functions */
	EXPECT_INVALID("func @f() {\n  acme.x {flops = -1}\n}\n\nfunc @g() {\n  acme.y {id = 1.5}\n}\n",
	               "test.pir:2:3: error: 'acme.x': attribute 'flops' must not be negative",
	               "test.pir:6:3: error: 'acme.y': attribute 'id' must be an integer, not a float");
}
END_TEST

START_TEST(test_valid_modules)
{
	pl_module *m = pl_module_new(NULL);
	EXPECT_MODULE_VALID(m); /* empty */
	pl_func *f = pl_func_new(m, "f");
	EXPECT_MODULE_VALID(m); /* an empty function */
	/* a message without a source name */
	pl_inst *i = pl_inst_new(f, "acme.x", NULL, 0, NULL, 0);
	pl_func_append(f, i);
	ck_assert_int_eq(pl_attrs_set_int(pl_inst_attrs(i), "flops", -2), PL_OK);
	EXPECT_MODULE_INVALID(m, "error: in @f: 'acme.x' (built by a pass): attribute 'flops' must not be negative");
	pl_module_free(m);

	/* the corpus' richest file is valid */
	EXPECT_VALID("func @layer0(%x: bf16[128,4096], %wq: bf16[512,4096]) {\n"
	             "  %q_w = all_gather %wq {group_id = \"dp\", factor = 8, fsdp = true} : bf16[4096,4096]\n"
	             "  %q = tensor_contract %x, %q_w {domain = [128, 4096, 4096]} : f32[128,4096]\n"
	             "  %t = affine_load %q {domain = [128, 4096], predicate = [\"i0 < 100\"]} : f32[128,4096]\n"
	             "  %a, %b = all_reduce %q, %t {group_id = \"tp\", factor = 4, reduce = \"add\"} : (f32[128,4096], f32[128,4096])\n"
	             "  return %a, %b\n"
	             "}\n");
}
END_TEST


/* ---- asynchronous collectives ------------------------------------------- */

/* A start (line 2) and the done that takes its results (line 3). */
#define PAIR(start, done) HEADER start "\n  " done "\n}\n"

START_TEST(test_async_valid)
{
	EXPECT_VALID(HEADER
	             "affine_store %y, %x\n"
	             "  %g_s = all_gather_start %x {group_id = \"dp\", factor = 2, fsdp = true} : f32[8]\n"
	             "  %r_s, %r2_s = reduce_scatter_start %x, %m {factor = 2, reduce = \"add\"} : (f32[2], f32[2,6])\n"
	             "  %h = acme.work %y : f32[4]\n"
	             "  generic_store %x, %y\n"
	             "  %r, %r2 = reduce_scatter_done %r_s, %r2_s : (f32[2], f32[2,6])\n"
	             "  %g = all_gather_done %g_s : f32[8]\n"
	             "  affine_store %y, %x\n"
	             "  %a_s, %a2_s = all_reduce_start %s, %i {factor = 4, reduce = \"max\"} : (f32[], i32[4])\n"
	             "  %a, %a2 = all_reduce_done %a_s, %a2_s : (f32[], i32[4])\n"
	             "  return %g, %r, %r2, %a, %a2\n"
	             "}\n");
	/* a done straight after its start: a synchronous collective */
	EXPECT_VALID(PAIR("%g_s = all_gather_start %s {factor = 4} : f32[4]",
	                  "%g = all_gather_done %g_s : f32[4]"));
}
END_TEST

START_TEST(test_done_of_non_start)
{
	one("%d = all_gather_done %x : f32[4]",
	    "test.pir:2:3: error: 'all_gather_done': operand 0 (%x) is not a result of a collective start");
	EXPECT_INVALID(PAIR("%g = all_gather %x {factor = 2} : f32[8]",
	                    "%d = all_gather_done %g : f32[8]"),
	               "test.pir:3:3: error: 'all_gather_done': operand 0 (%g) is not a result of a collective start");
	one("all_reduce_done",
	    "test.pir:2:3: error: 'all_reduce_done': a done takes all results of one start (no operands)");
}
END_TEST

START_TEST(test_done_subset)
{
	EXPECT_INVALID(PAIR("%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])",
	                    "%a = all_gather_done %a_s : f32[8]"),
	               "test.pir:3:3: error: 'all_gather_done': has 1 operand but its start has 2 results; a done takes all of them, in order");
	EXPECT_INVALID(PAIR("%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])",
	                    "%b = all_gather_done %b_s : f32[8]"),
	               "test.pir:3:3: error: 'all_gather_done': has 1 operand but its start has 2 results; a done takes all of them, in order");
	/* one more than all of them */
	EXPECT_INVALID(PAIR("%a_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "%a, %b = all_gather_done %a_s, %a_s : (f32[8], f32[8])"),
	               "test.pir:3:3: error: 'all_gather_done': has 2 operands but its start has 1 result; a done takes all of them, in order");
	/* each half by its own done */
	EXPECT_INVALID(HEADER "%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])\n"
	               "  %a = all_gather_done %a_s : f32[8]\n"
	               "  %b = all_gather_done %b_s : f32[8]\n}\n",
	               "test.pir:2:3: error: 'all_gather_start': its results are taken by more than one done",
	               "test.pir:3:3: error: 'all_gather_done': has 1 operand but its start has 2 results; a done takes all of them, in order",
	               "test.pir:4:3: error: 'all_gather_done': has 1 operand but its start has 2 results; a done takes all of them, in order");
}
END_TEST

START_TEST(test_done_permutation)
{
	EXPECT_INVALID(PAIR("%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])",
	                    "%b, %a = all_gather_done %b_s, %a_s : (f32[8], f32[8])"),
	               "test.pir:3:3: error: 'all_gather_done': operand 0 (%b_s) is result 1 of its start; a done takes all of them, in order");
	EXPECT_INVALID(PAIR("%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])",
	                    "%a, %b = all_gather_done %a_s, %a_s : (f32[8], f32[8])"),
	               "test.pir:3:3: error: 'all_gather_done': operand 1 (%a_s) is result 0 of its start; a done takes all of them, in order");
	EXPECT_VALID(PAIR("%a_s, %b_s = all_gather_start %x, %y {factor = 2} : (f32[8], f32[8])",
	                  "%a, %b = all_gather_done %a_s, %b_s : (f32[8], f32[8])"));
}
END_TEST

START_TEST(test_done_two_starts)
{
	EXPECT_INVALID(HEADER "%a_s = all_gather_start %x {factor = 2} : f32[8]\n"
	               "  %b_s = all_gather_start %y {factor = 2} : f32[8]\n"
	               "  %a, %b = all_gather_done %a_s, %b_s : (f32[8], f32[8])\n}\n",
	               "test.pir:4:3: error: 'all_gather_done': operand 1 (%b_s) is not a result of the start of operand 0 (%a_s)");
	EXPECT_INVALID(PAIR("%a_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "%a, %b = all_gather_done %a_s, %x : (f32[8], f32[4])"),
	               "test.pir:3:3: error: 'all_gather_done': operand 1 (%x) is not a result of the start of operand 0 (%a_s)");
}
END_TEST

START_TEST(test_done_results)
{
	EXPECT_INVALID(PAIR("%a_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "%a, %b = all_gather_done %a_s : (f32[8], f32[8])"),
	               "test.pir:3:3: error: 'all_gather_done': a done has one result per operand (1 operand, 2 results)");
	EXPECT_INVALID(PAIR("%a_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "all_gather_done %a_s"),
	               "test.pir:3:3: error: 'all_gather_done': a done has one result per operand (1 operand, 0 results)");
	EXPECT_INVALID(PAIR("%a_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "%a = all_gather_done %a_s : f32[4]"),
	               "test.pir:3:3: error: 'all_gather_done': result 0 has type f32[4], expected f32[8]");
	EXPECT_INVALID(PAIR("%a_s, %b_s = all_reduce_start %x, %i : (f32[4], i32[4])",
	                    "%a, %b = all_reduce_done %a_s, %b_s : (f32[4], f32[4])"),
	               "test.pir:3:3: error: 'all_reduce_done': result 1 has type f32[4], expected i32[4]");
}
END_TEST

START_TEST(test_done_kind)
{
	EXPECT_INVALID(PAIR("%r_s = reduce_scatter_start %x {factor = 2} : f32[2]",
	                    "%r = all_reduce_done %r_s : f32[2]"),
	               "test.pir:3:3: error: 'all_reduce_done': takes the results of 'reduce_scatter_start', not of 'all_reduce_start'");
	EXPECT_INVALID(PAIR("%a_s = all_reduce_start %x : f32[4]",
	                    "%a = all_gather_done %a_s : f32[4]"),
	               "test.pir:3:3: error: 'all_gather_done': takes the results of 'all_reduce_start', not of 'all_gather_start'");
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x {factor = 2} : f32[8]",
	                    "%g = reduce_scatter_done %g_s : f32[8]"),
	               "test.pir:3:3: error: 'reduce_scatter_done': takes the results of 'all_gather_start', not of 'reduce_scatter_start'");
}
END_TEST

START_TEST(test_start_result_used_elsewhere)
{
	EXPECT_INVALID(HEADER "%g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	               "  %h = tensor_contract %y, %g_s : f32[8]\n"
	               "  %g = all_gather_done %g_s : f32[8]\n"
	               "  acme.use %g_s\n}\n",
	               "test.pir:3:3: error: 'tensor_contract': operand 1 (%g_s) is in flight: only the done of its start may use it",
	               "test.pir:5:3: error: 'acme.use': operand 0 (%g_s) is in flight: only the done of its start may use it");
	/* written by a store, read by another start, returned */
	EXPECT_INVALID(HEADER "%g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	               "  affine_store %y, %g_s\n"
	               "  %r_s = all_reduce_start %g_s : f32[8]\n"
	               "  %r = all_reduce_done %r_s : f32[8]\n"
	               "  %g = all_gather_done %g_s : f32[8]\n"
	               "  return %g_s\n}\n",
	               "test.pir:3:3: error: 'affine_store': operand 1 (%g_s) is in flight: only the done of its start may use it",
	               "test.pir:4:3: error: 'all_reduce_start': operand 0 (%g_s) is in flight: only the done of its start may use it",
	               "test.pir:7:3: error: 'return': operand 0 (%g_s) is in flight: only the done of its start may use it");
}
END_TEST

START_TEST(test_start_two_dones)
{
	EXPECT_INVALID(HEADER "%g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	               "  %g = all_gather_done %g_s : f32[8]\n"
	               "  %g2 = all_gather_done %g_s : f32[8]\n}\n",
	               "test.pir:2:3: error: 'all_gather_start': its results are taken by more than one done");
}
END_TEST

START_TEST(test_start_without_done)
{
	one("%g_s = all_gather_start %x {factor = 2} : f32[8]",
	    "test.pir:2:3: error: 'all_gather_start': no done in its function takes its results");
	EXPECT_INVALID(HEADER "%a_s, %b_s = reduce_scatter_start %x, %y {factor = 2} : (f32[2], f32[2])\n"
	               "  return %a_s, %b_s\n}\n",
	               "test.pir:2:3: error: 'reduce_scatter_start': no done in its function takes its results",
	               "test.pir:3:3: error: 'return': operand 0 (%a_s) is in flight: only the done of its start may use it",
	               "test.pir:3:3: error: 'return': operand 1 (%b_s) is in flight: only the done of its start may use it");
	/* its done moved to another function (through the API) */
	pl_module *m = parse_ok("func @f(%x: f32[4]) {\n"
	                        "  %a_s = all_gather_start %x {factor = 2} : f32[8]\n"
	                        "  %a = all_gather_done %a_s : f32[8]\n"
	                        "}\n\n"
	                        "func @g(%y: f32[4]) {\n"
	                        "  %b_s = all_gather_start %y {factor = 2} : f32[8]\n"
	                        "  %b = all_gather_done %b_s : f32[8]\n"
	                        "}\n");
	EXPECT_MODULE_VALID(m);
	pl_inst *fstart = pl_func_first_inst(pl_module_func_at(m, 0));
	ck_assert_int_eq(pl_inst_erase(pl_inst_next(fstart)), PL_OK);
	pl_inst *gdone = pl_func_last_inst(pl_module_func_at(m, 1));
	pl_inst_set_operand(gdone, 0, pl_inst_result(fstart, 0));
	EXPECT_MODULE_INVALID(m,
	                      "test.pir:2:3: error: 'all_gather_start': no done in its function takes its results",
	                      "test.pir:7:3: error: 'all_gather_start': no done in its function takes its results",
	                      "test.pir:8:3: error: 'all_gather_done': operand 0 (%a_s) belongs to another function");
	pl_module_free(m);
}
END_TEST

START_TEST(test_store_in_flight)
{
	EXPECT_INVALID(HEADER "%g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	               "  affine_store %y, %x\n"
	               "  %g = all_gather_done %g_s : f32[8]\n}\n",
	               "test.pir:3:3: error: 'affine_store': writes %x, an operand of 'all_gather_start' (line 2), while it is in flight");
	/* any operand of a tuple start; any store */
	EXPECT_INVALID(HEADER "%a_s, %b_s = all_reduce_start %x, %m : (f32[4], f32[4,6])\n"
	               "  %t = acme.work %y : f32[4,6]\n"
	               "  generic_store %t, %m\n"
	               "  %a, %b = all_reduce_done %a_s, %b_s : (f32[4], f32[4,6])\n}\n",
	               "test.pir:4:3: error: 'generic_store': writes %m, an operand of 'all_reduce_start' (line 2), while it is in flight");
	/* two starts read %x: in flight until the later done, whichever
	 * start came first */
	EXPECT_INVALID(HEADER "%a_s = all_reduce_start %x : f32[4]\n"
	               "  %b_s = all_reduce_start %x : f32[4]\n"
	               "  %a = all_reduce_done %a_s : f32[4]\n"
	               "  generic_store %y, %x\n"
	               "  %b = all_reduce_done %b_s : f32[4]\n"
	               "  generic_store %y, %x\n}\n",
	               "test.pir:5:3: error: 'generic_store': writes %x, an operand of 'all_reduce_start' (line 3), while it is in flight");
	EXPECT_INVALID(HEADER "%a_s = all_reduce_start %x : f32[4]\n"
	               "  %b_s = all_reduce_start %x : f32[4]\n"
	               "  %b = all_reduce_done %b_s : f32[4]\n"
	               "  generic_store %y, %x\n"
	               "  %a = all_reduce_done %a_s : f32[4]\n}\n",
	               "test.pir:5:3: error: 'generic_store': writes %x, an operand of 'all_reduce_start' (line 2), while it is in flight");
	/* before the start, after the done, reading it in flight: allowed */
	EXPECT_VALID(HEADER "affine_store %y, %x\n"
	             "  %g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	             "  affine_store %x, %y\n"
	             "  %g = all_gather_done %g_s : f32[8]\n"
	             "  affine_store %y, %x\n}\n");
	/* a start built by a pass has no line to name */
	pl_module *m = parse_ok(HEADER "%g_s = all_gather_start %x {factor = 2} : f32[8]\n"
	                        "  affine_store %y, %x\n"
	                        "  %g = all_gather_done %g_s : f32[8]\n}\n");
	pl_inst_set_loc(pl_func_first_inst(pl_module_func_at(m, 0)), 0, 0);
	EXPECT_MODULE_INVALID(m, "test.pir:3:3: error: 'affine_store': writes %x, an operand of 'all_gather_start', while it is in flight");
	pl_module_free(m);
}
END_TEST

START_TEST(test_start_shapes)
{
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x {factor = 2} : f32[4]",
	                    "%g = all_gather_done %g_s : f32[4]"),
	               "test.pir:2:3: error: 'all_gather_start': result 0 has type f32[4], expected f32[8]");
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %m {factor = 3, dimension = 1} : f32[12,6]",
	                    "%g = all_gather_done %g_s : f32[12,6]"),
	               "test.pir:2:3: error: 'all_gather_start': result 0 has type f32[12,6], expected f32[4,18]");
	EXPECT_INVALID(PAIR("%r_s = reduce_scatter_start %x {factor = 3} : f32[1]",
	                    "%r = reduce_scatter_done %r_s : f32[1]"),
	               "test.pir:2:3: error: 'reduce_scatter_start': operand 0 extent 4 in dimension 0 is not divisible by factor 3");
	EXPECT_INVALID(PAIR("%r_s = all_reduce_start %m {factor = 2} : f32[6,4]",
	                    "%r = all_reduce_done %r_s : f32[6,4]"),
	               "test.pir:2:3: error: 'all_reduce_start': result 0 has type f32[6,4], expected f32[4,6]");
	EXPECT_INVALID(PAIR("%r_s = all_reduce_start %x {factor = 2, dimension = 0} : f32[4]",
	                    "%r = all_reduce_done %r_s : f32[4]"),
	               "test.pir:2:3: error: 'all_reduce_start': attribute 'dimension' does not apply to all_reduce_start");
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x {factor = 2, dimension = 1} : f32[8]",
	                    "%g = all_gather_done %g_s : f32[8]"),
	               "test.pir:2:3: error: 'all_gather_start': 'dimension' 1 is out of range for operand 0 of rank 1");
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x {factor = 2} : i32[8]",
	                    "%g = all_gather_done %g_s : i32[8]"),
	               "test.pir:2:3: error: 'all_gather_start': result 0 has dtype i32 but operand 0 has f32");
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x, %y {factor = 2} : f32[8]",
	                    "%g = all_gather_done %g_s : f32[8]"),
	               "test.pir:2:3: error: 'all_gather_start': a collective has one result per operand (2 operands, 1 result)");
	/* no results: no done could take them, one error */
	one("all_gather_start",
	    "test.pir:2:3: error: 'all_gather_start': a collective needs at least one operand");
	/* without factor only dtypes and counts */
	EXPECT_VALID(PAIR("%g_s = all_gather_start %x : f32[99]", "%g = all_gather_done %g_s : f32[99]"));
	EXPECT_VALID(PAIR("%r_s = reduce_scatter_start %m {factor = 2, dimension = 1} : f32[4,3]",
	                  "%r = reduce_scatter_done %r_s : f32[4,3]"));
}
END_TEST

START_TEST(test_start_reserved_attrs)
{
	EXPECT_INVALID(PAIR("%g_s = all_gather_start %x {group_id = 1, factor = 0} : f32[8]",
	                    "%g = all_gather_done %g_s : f32[8]"),
	               "test.pir:2:3: error: 'all_gather_start': attribute 'group_id' must be a string, not an integer",
	               "test.pir:2:3: error: 'all_gather_start': attribute 'factor' must be at least 1, not 0");
	EXPECT_INVALID(PAIR("%r_s = reduce_scatter_start %x {factor = 2, reduce = 1, fsdp = \"yes\"} : f32[2]",
	                    "%r = reduce_scatter_done %r_s : f32[2]"),
	               "test.pir:2:3: error: 'reduce_scatter_start': attribute 'reduce' must be a string, not an integer",
	               "test.pir:2:3: error: 'reduce_scatter_start': attribute 'fsdp' must be a boolean, not a string");
	EXPECT_INVALID(PAIR("%r_s = reduce_scatter_start %m {factor = 2, dimension = -1} : f32[2,6]",
	                    "%r = reduce_scatter_done %r_s : f32[2,6]"),
	               "test.pir:2:3: error: 'reduce_scatter_start': attribute 'dimension' must not be negative");
}
END_TEST

/* Linear: every start reads %x and a store writes %x after every done, so
 * a check that scanned the buffer's uses at each start or store would take
 * n^2 steps (and the test would time out). */
START_TEST(test_async_linear)
{
	enum { N = 100000 };
	size_t cap = (size_t)N * 160, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text, cap, "func @f(%%x: f32[4], %%y: f32[4]) {\n");
	for (int k = 0; k < N; k++)
		len += (size_t)snprintf(text + len, cap - len,
		                        "  %%s%d = all_reduce_start %%x : f32[4]\n"
		                        "  %%d%d = all_reduce_done %%s%d : f32[4]\n"
		                        "  affine_store %%y, %%x\n", k, k, k);
	len += (size_t)snprintf(text + len, cap - len, "}\n");
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_buffer(text, len, "big.pir", d, &m), PL_OK);
	ck_assert_int_eq(pl_verify_module(m, d), PL_OK);
	pl_module_free(m);
	pl_diags_free(d);
	free(text);
}
END_TEST

/* The messages of m on one thread (the caller frees them), after
 * checking that on 2 to 4 threads they are the same, in the same order. */
static pl_diags *same_messages_on_threads(pl_module *m)
{
	pl_diags *one = pl_diags_new();
	ck_assert_int_eq(pl_verify_module_threads(m, one, 1), PL_EVERIFY);
	for (unsigned t = 2; t <= 4; t++) {
		pl_diags *d = pl_diags_new();
		ck_assert_int_eq(pl_verify_module_threads(m, d, t), PL_EVERIFY);
		ck_assert_uint_eq(pl_diags_count(d), pl_diags_count(one));
		ck_assert_uint_eq(pl_diags_error_count(d), pl_diags_error_count(one));
		for (size_t k = 0; k < pl_diags_count(one); k++)
			ck_assert_str_eq(pl_diags_format(d, k), pl_diags_format(one, k));
		pl_diags_free(d);
	}
	return one;
}

/* The same for the module of text (len bytes, freed here), read as
 * big.pir. */
static pl_diags *same_messages_of_text(char *text, size_t len)
{
	pl_diags *pd = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_buffer(text, len, "big.pir", pd, &m), PL_OK);
	pl_diags *d = same_messages_on_threads(m);
	pl_module_free(m);
	pl_diags_free(pd);
	free(text);
	return d;
}

/* Checking on several threads gives the same messages, in the same order,
 * as on one: a module large enough to be split, with errors in functions
 * spread over it. */
START_TEST(test_threads_same_messages)
{
	size_t cap = 16 << 20, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (int f = 0; f < 240; f++) {
		len += (size_t)snprintf(text + len, cap - len, "func @f%d(%%x: f32[4]) {\n", f);
		for (int i = 0; i < 1000; i++)
			len += (size_t)snprintf(text + len, cap - len,
			                        "  %%v%d = acme.op %%x {flops = %d} : f32[4]\n", i,
			                        (f % 37 == 0 && i == 500) ? -1 : 1);
		len += (size_t)snprintf(text + len, cap - len, "}\n");
	}
	pl_diags *d = same_messages_of_text(text, len);
	ck_assert_uint_eq(pl_diags_count(d), 7); /* f0, f37, ..., f222 */
	ck_assert_str_eq(pl_diags_format(d, 6),
	                 "big.pir:222946:3: error: 'acme.op': attribute 'flops' must not be negative");
	pl_diags_free(d);
}
END_TEST

/* One function of 200,000 instructions is checked in parts that begin
 * inside it (at 100,000 on two threads, every 66,666 on three, every
 * 50,000 on four), with errors on both sides of each boundary. A start
 * before every boundary keeps %b in flight until a done after all of
 * them, so each later part must know of it to report the stores to %b
 * in between; a start taken by two dones keeps nothing in flight. */
START_TEST(test_threads_inside_one_function)
{
	enum { N = 200000 };
	size_t cap = 16 << 20, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text + len, cap - len,
	                        "func @big(%%x: f32[4], %%y: f32[4], %%b: f32[4]) {\n");
	for (int i = 0; i < N; i++) {
		const char *line;
		char buf[128];
		switch (i) {
		case 1000: line = "%s0 = all_gather_start %b {factor = 2} : f32[8]"; break;
		case 190000: line = "%d0 = all_gather_done %s0 : f32[8]"; break;
		case 2000: line = "%s1 = all_gather_start %y {factor = 2} : f32[8]"; break;
		case 3000: line = "%d1 = all_gather_done %s1 : f32[8]"; break;
		case 180000: line = "%d2 = all_gather_done %s1 : f32[8]"; break;
		case 60000: case 99999: case 100000: case 120000: case 170000:
			line = "affine_store %x, %b";
			break;
		case 130000: line = "affine_store %x, %y"; break;
		case 49999: case 50000: case 66665: case 66666: case 133332: case 150000: case 199999:
			snprintf(buf, sizeof buf, "%%v%d = acme.op %%x {flops = -1} : f32[4]", i);
			line = buf;
			break;
		default:
			snprintf(buf, sizeof buf, "%%v%d = acme.op %%x {flops = 1} : f32[4]", i);
			line = buf;
		}
		len += (size_t)snprintf(text + len, cap - len, "  %s\n", line);
	}
	len += (size_t)snprintf(text + len, cap - len, "}\n");
	ck_assert_uint_lt(len, cap);
	/* 7 negative flops, 5 stores in flight, 1 start with two dones */
	pl_diags *d = same_messages_of_text(text, len);
	ck_assert_uint_eq(pl_diags_count(d), 13);
	size_t in_flight = 0;
	for (size_t k = 0; k < pl_diags_count(d); k++)
		in_flight += strstr(pl_diags_message(d, k), "while it is in flight") != NULL;
	ck_assert_uint_eq(in_flight, 5);
	ck_assert_str_eq(pl_diags_format(d, 12), "big.pir:200001:3: error: 'acme.op': "
	                                         "attribute 'flops' must not be negative");
	pl_diags_free(d);
}
END_TEST

/* Functions that begin where a part does, an empty one among them, have
 * their own checks made once, by that part. */
START_TEST(test_threads_function_at_boundary)
{
	size_t cap = 16 << 20, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (int f = 0; f < 2; f++) {
		len += (size_t)snprintf(text + len, cap - len,
		                        "func @f%d(%%x: f32[4]) attributes {has_copy = %d} {\n", f, f);
		for (int i = 0; i < 100000; i++)
			len += (size_t)snprintf(text + len, cap - len,
			                        "  %%v%d = acme.op %%x {flops = 1} : f32[4]\n", i);
		len += (size_t)snprintf(text + len, cap - len, "}\n");
		if (f == 0)
			len += (size_t)snprintf(text + len, cap - len,
			                        "func @empty() attributes {has_reduce = 1} {\n}\n");
	}
	ck_assert_uint_lt(len, cap);
	/* @f0, @empty and @f1: each reported once, in order */
	pl_diags *d = same_messages_of_text(text, len);
	ck_assert_uint_eq(pl_diags_count(d), 3);
	ck_assert(strstr(pl_diags_message(d, 1), "@empty") != NULL);
	pl_diags_free(d);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("attributes");
	tcase_add_test(tc, test_group_id_is_string);
	tcase_add_test(tc, test_factor_is_int_at_least_1);
	tcase_add_test(tc, test_reduce_is_string);
	tcase_add_test(tc, test_dimension_is_int_not_negative);
	tcase_add_test(tc, test_id_is_int);
	tcase_add_test(tc, test_fsdp_is_bool);
	tcase_add_test(tc, test_num_dynamic_instances);
	tcase_add_test(tc, test_flops);
	tcase_add_test(tc, test_domain_list_of_ints);
	tcase_add_test(tc, test_predicate_list_of_strings);
	tcase_add_test(tc, test_predicate_needs_domain);
	tcase_add_test(tc, test_predicate_must_parse);
	tcase_add_test(tc, test_domain_product_overflow);
	tcase_add_test(tc, test_type_size_overflow);
	tcase_add_test(tc, test_function_attrs_bool);
	suite_add_tcase(s, tc);

	tc = tcase_create("ops");
	tcase_add_test(tc, test_collective_counts);
	tcase_add_test(tc, test_collective_dtypes);
	tcase_add_test(tc, test_all_gather_shape);
	tcase_add_test(tc, test_reduce_scatter_shape);
	tcase_add_test(tc, test_all_reduce_shape);
	tcase_add_test(tc, test_collective_dimension_range);
	tcase_add_test(tc, test_dimension_on_all_reduce);
	tcase_add_test(tc, test_store_arity);
	tcase_add_test(tc, test_load_arity);
	tcase_add_test(tc, test_pack_unpack_arity);
	tcase_add_test(tc, test_return_rules);
	suite_add_tcase(s, tc);

	tc = tcase_create("ssa");
	tcase_set_timeout(tc, 60); /* a module of 240,000 instructions, under sanitizers */
	tcase_add_test(tc, test_use_before_definition_moved);
	tcase_add_test(tc, test_use_before_definition_built);
	tcase_add_test(tc, test_use_before_definition_many);
	tcase_add_test(tc, test_operand_from_another_function);
	tcase_add_test(tc, test_operand_of_erased_or_detached);
	tcase_add_test(tc, test_reports_every_violation);
	tcase_add_test(tc, test_valid_modules);
	tcase_add_test(tc, test_threads_same_messages);
	tcase_add_test(tc, test_threads_inside_one_function);
	tcase_add_test(tc, test_threads_function_at_boundary);
	suite_add_tcase(s, tc);

	tc = tcase_create("async");
	/* test_async_linear reads and verifies 300,000 instructions: some
	 * seconds under ThreadSanitizer, past Check's default of 4 */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_async_valid);
	tcase_add_test(tc, test_done_of_non_start);
	tcase_add_test(tc, test_done_subset);
	tcase_add_test(tc, test_done_permutation);
	tcase_add_test(tc, test_done_two_starts);
	tcase_add_test(tc, test_done_results);
	tcase_add_test(tc, test_done_kind);
	tcase_add_test(tc, test_start_result_used_elsewhere);
	tcase_add_test(tc, test_start_two_dones);
	tcase_add_test(tc, test_start_without_done);
	tcase_add_test(tc, test_store_in_flight);
	tcase_add_test(tc, test_start_shapes);
	tcase_add_test(tc, test_start_reserved_attrs);
	tcase_add_test(tc, test_async_linear);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(verify_suite)
