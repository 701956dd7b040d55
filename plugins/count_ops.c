/* SPDX-License-Identifier: MIT */
/* Contract: reads every instruction's op; changes nothing; adds one count per op; needs verified IR. */
/* plugins/count_ops.c — CountOps: counts instructions per op.
 * Reads: every instruction. Changes: nothing. */
#include <passline/passline.h>

#define STAT_OF(e, name, traits, flops) PL_STAT("num_" name, "Number of " name " instructions."),
static const pl_stat_decl count_ops_stats[] = {
	PL_STAT("num_insts", "Number of instructions."),
	PL_STAT("num_funcs", "Number of functions."),
	PL_OP_TABLE(STAT_OF)
	PL_STAT("num_other", "Number of instructions of ops the SDK does not know."),
	PL_STAT_END
};
#undef STAT_OF

static const char *const stat_of_op[PL_OP__COUNT] = {
	[PL_OP_OTHER] = "num_other",
#define NAME_OF(e, name, traits, flops) [PL_OP_##e] = "num_" name,
	PL_OP_TABLE(NAME_OF)
#undef NAME_OF
};

static int count_ops_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	uint64_t counts[PL_OP__COUNT] = {0};
	size_t nfuncs = pl_module_num_funcs(m);
	/* a newer library may know ops these headers do not (PL_OP__COUNT is
	 * what they know): those are other ops to this pass */
	for (size_t f = 0; f < nfuncs; f++)
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(m, f)); i; i = pl_inst_next(i)) {
			pl_op op = pl_inst_op(i);
			counts[(unsigned)op < PL_OP__COUNT ? op : PL_OP_OTHER]++;
		}
	int rc = pl_ctx_stat_add(ctx, "num_insts", pl_module_num_insts(m));
	if (rc == PL_OK)
		rc = pl_ctx_stat_add(ctx, "num_funcs", nfuncs);
	for (int op = 0; op < PL_OP__COUNT && rc == PL_OK; op++)
		rc = pl_ctx_stat_add(ctx, stat_of_op[op], counts[op]);
	return rc;
}

static const pl_pass_desc count_ops_pass = {
	PL_PASS_DESC_INIT,
	.name = "CountOps",
	.summary = "Counts the instructions of each op (changes nothing).",
	.stats = count_ops_stats,
	.run = count_ops_run,
	.flags = PL_PASS_READ_ONLY, /* reports only */
};

PL_PLUGIN_DEFINE("CountOps", PACKAGE_VERSION, "MIT", "Instruction counts per op.",
                 &count_ops_pass)
