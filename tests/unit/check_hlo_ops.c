/* SPDX-License-Identifier: MIT */
/* tests/unit/check_hlo_ops.c — the table of HLO opcodes
 * (passline/hlo_ops.h) through the installed API: each row found by its
 * op name, the first release's rows in byte order, and what a module
 * says of its instructions' ops: read from HLO text, from .pir, and made
 * by a pass. */
#include "testutil.h"

/* the rows as the headers have them */
static const struct {
	pl_hlo_op op;
	const char *hlo, *name;
} rows[] = {
#define ROW(id, hlo, op, fuse, calls, coll, flags, req) {PL_HLO_##id, hlo, op},
	PL_HLO_OP_TABLE(ROW)
#undef ROW
};
#define NROWS (sizeof rows / sizeof *rows)

START_TEST(rows_by_name)
{
	ck_assert_uint_eq(pl_hlo_op_count(), PL_HLO__COUNT);
	ck_assert_uint_eq(NROWS + 1, PL_HLO__COUNT);
	for (size_t k = 0; k < NROWS; k++) {
		/* the op is "hlo." and the opcode with its dashes as underscores */
		char want[64];
		snprintf(want, sizeof want, "hlo.%s", rows[k].hlo);
		for (char *c = want; *c; c++)
			if (*c == '-')
				*c = '_';
		ck_assert_str_eq(rows[k].name, want);
		ck_assert_str_eq(pl_hlo_op_name(rows[k].op), want);
		ck_assert_int_eq(pl_hlo_op_from_name(want), rows[k].op);
		ck_assert_int_eq(rows[k].op, (int)k + 1);
		if (k && k < PL_HLO_SORTED_)
			ck_assert_msg(strcmp(rows[k - 1].hlo, rows[k].hlo) < 0, "%s after %s",
			              rows[k].hlo, rows[k - 1].hlo);
	}
	ck_assert_ptr_null(pl_hlo_op_name(PL_HLO_OTHER));
	ck_assert_ptr_null(pl_hlo_op_name(PL_HLO__COUNT));
	ck_assert_int_eq(pl_hlo_op_from_name("hlo.no_such_op"), PL_HLO_OTHER);
	ck_assert_int_eq(pl_hlo_op_from_name("all_gather"), PL_HLO_OTHER);
	/* the short form of a pair is no row */
	ck_assert_int_eq(pl_hlo_op_from_name("hlo.reduce_scatter_start"), PL_HLO_OTHER);
	ck_assert_uint_eq(pl_hlo_op_flags(PL_HLO_OTHER), 0);
	ck_assert_int_eq(pl_hlo_op_fuse(PL_HLO__COUNT + 7), PL_HLO_FUSE_LIBRARY);
}
END_TEST

/* The two rows whose spellings once went wrong where they were copied:
 * count-leading-zeros fuses as not does; an optimization barrier keeps
 * its order (the scheduler reads PL_HLO_F_ORDERED). */
START_TEST(columns)
{
	ck_assert_int_eq(pl_hlo_op_fuse(PL_HLO_COUNT_LEADING_ZEROS), PL_HLO_FUSE_ELEM);
	ck_assert_int_eq(pl_hlo_op_fuse(PL_HLO_NOT), PL_HLO_FUSE_ELEM);
	ck_assert(pl_hlo_op_flags(PL_HLO_COUNT_LEADING_ZEROS) & PL_HLO_F_ELEMENTWISE);
	ck_assert(pl_hlo_op_flags(PL_HLO_OPT_BARRIER) & PL_HLO_F_ORDERED);
	ck_assert(pl_hlo_op_flags(PL_HLO_OPT_BARRIER) & PL_HLO_F_VIEW);
	ck_assert(!(pl_hlo_op_flags(PL_HLO_ADD) & PL_HLO_F_ORDERED));
	ck_assert_int_eq(pl_hlo_op_calls(PL_HLO_WHILE), PL_HLO_CALLS_LOOP);
	ck_assert_int_eq(pl_hlo_op_calls(PL_HLO_CONDITIONAL), PL_HLO_CALLS_BRANCHES);
	ck_assert_int_eq(pl_hlo_op_coll(PL_HLO_RAGGED_ALL_TO_ALL), PL_HLO_COLL_ALL_TO_ALL);
	ck_assert(pl_hlo_op_flags(PL_HLO_COPY_START) & PL_HLO_F_ASYNC_START);
	ck_assert(pl_hlo_op_flags(PL_HLO_COPY_DONE) & PL_HLO_F_ASYNC_DONE);
}
END_TEST

static pl_inst *named(pl_func *f, const char *name)
{
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
		if (pl_inst_num_results(i) && !strcmp(pl_value_name(pl_inst_result(i, 0)), name))
			return i;
	ck_abort_msg("no %s", name);
	return NULL;
}

START_TEST(read_from_hlo)
{
	static const char text[] = "HloModule t\n\n"
	                           "ENTRY main {\n"
	                           "  p = s32[4] parameter(0)\n"
	                           "  c = s32[4] count-leading-zeros(p)\n"
	                           "  b = s32[4] opt-barrier(c)\n"
	                           "  ROOT n = s32[4] negate(b)\n"
	                           "}\n";
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_hlo_buffer(text, strlen(text), "t.hlo", d, &m), PL_OK);
	pl_func *f = pl_module_func_at(m, 0);
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "c")), PL_HLO_COUNT_LEADING_ZEROS);
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "b")), PL_HLO_OPT_BARRIER);
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "n")), PL_HLO_NEGATE);
	ck_assert(pl_inst_is_hlo(named(f, "b")));
	ck_assert_int_eq(pl_inst_hlo_op(NULL), PL_HLO_OTHER);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(read_from_pir)
{
	static const char text[] =
		"func @f(%p: f32[4], %q: f32[4]) {\n"
		"  %a = all_gather %p : f32[4]\n"
		"  %s = hlo.all_to_all_start %q : f32[4]\n"
		"  %t = hlo.all_to_all_done %s : f32[4]\n"
		"  %u = hlo.all_to_all_update %t : f32[4]\n"
		"  %g = hlo.collective_permute_start %u : f32[4]\n"
		"  %h = hlo.collective_permute_done %g : f32[4]\n"
		"  %x = hlo.acme_op %h : f32[4]\n"
		"  %y = acme.op %x : f32[4]\n"
		"  return %a, %y\n"
		"}\n";
	pl_diags *d;
	pl_module *m = tu_parse(text, &d);
	ck_assert_msg(m != NULL, "%s", tu_first_diag(d));
	pl_func *f = pl_module_func_at(m, 0);
	int phase = -1;
	/* the SDK's own op: no row, no HLO */
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "a")), PL_HLO_OTHER);
	ck_assert(!pl_inst_is_hlo(named(f, "a")));
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "a"), &phase), PL_HLO_COLL_NONE);
	/* XLA's short form of a pair: no row, but the collective and phase */
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "s")), PL_HLO_OTHER);
	ck_assert(pl_inst_is_hlo(named(f, "s")));
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "s"), &phase), PL_HLO_COLL_ALL_TO_ALL);
	ck_assert_int_eq(phase, 1);
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "t"), &phase), PL_HLO_COLL_ALL_TO_ALL);
	ck_assert_int_eq(phase, 2);
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "u"), NULL), PL_HLO_COLL_NONE);
	/* a row that is a start or done itself */
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "g")), PL_HLO_COLLECTIVE_PERMUTE_START);
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "g"), &phase), PL_HLO_COLL_PERMUTE);
	ck_assert_int_eq(phase, 1);
	ck_assert_int_eq(pl_inst_hlo_coll(named(f, "h"), &phase), PL_HLO_COLL_PERMUTE);
	ck_assert_int_eq(phase, 2);
	/* hlo.* of no row, and a third party's op */
	ck_assert_int_eq(pl_inst_hlo_op(named(f, "x")), PL_HLO_OTHER);
	ck_assert(pl_inst_is_hlo(named(f, "x")));
	ck_assert(!pl_inst_is_hlo(named(f, "y")));
	/* an op a pass makes is classified when the module numbers it */
	pl_inst *x = named(f, "x"), *made = NULL;
	pl_value *v = pl_inst_result(x, 0);
	const pl_type *t = pl_value_type(v);
	ck_assert_int_eq(pl_inst_create(&made, f, pl_hlo_op_name(PL_HLO_TRANSPOSE), &v, 1, &t, 1),
	                 PL_OK);
	ck_assert_int_eq(pl_inst_hlo_op(made), PL_HLO_TRANSPOSE);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

static Suite *hlo_ops_suite(void)
{
	Suite *s = suite_create("hlo_ops");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, rows_by_name);
	tcase_add_test(tc, columns);
	tcase_add_test(tc, read_from_hlo);
	tcase_add_test(tc, read_from_pir);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(hlo_ops_suite)
