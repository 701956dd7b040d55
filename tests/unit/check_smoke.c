/* tests/unit/check_smoke.c — the example module from DESIGN 2.1 parses,
 * verifies and prints back to the same canonical text. */
#include "testutil.h"

static const char *example =
	"func @layer0(%x: bf16[128,4096], %wq: bf16[512,4096]) {\n"
	"  %q_w = all_gather %wq {group_id = \"dp\", factor = 8, fsdp = true} : bf16[4096,4096]\n"
	"  %q = tensor_contract %x, %q_w {domain = [128, 4096, 4096]} : f32[128,4096]\n"
	"  return %q\n"
	"}\n";

START_TEST(test_example_round_trip)
{
	pl_diags *d;
	pl_module *m = tu_parse(example, &d);
	ck_assert_msg(m != NULL, "parse failed: %s", tu_first_diag(d));
	ck_assert_int_eq(pl_verify_module(m, d), PL_OK);
	char *out = tu_print(m);
	ck_assert_str_eq(out, example);
	free(out);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

static Suite *smoke_suite(void)
{
	Suite *s = suite_create("smoke");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_example_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(smoke_suite)
