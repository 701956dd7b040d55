/* SPDX-License-Identifier: MIT */
/* AnnotateCollectiveBytes — an example pass plugin, built against the
 * installed passline SDK only.
 * Reads: collectives' result types. Changes: adds one attribute to each
 * collective of at least min_bytes bytes.
 *
 * Each collective (all_gather, all_reduce, reduce_scatter) gets an integer
 * attribute (named by the option "attr", default "bytes") holding the sum
 * of its results' sizes in bytes; the statistics count the collectives
 * annotated and their total size. */
#include <passline/passline.h>

static const pl_option_decl options[] = {
	PL_OPTION_STRING("attr", "bytes", "Name of the attribute to set."),
	PL_OPTION_BYTES("min_bytes", "0", "Leave collectives smaller than this alone."),
	PL_OPTION_END
};

static const pl_stat_decl stats[] = {
	PL_STAT("num_annotated", "Number of collectives annotated."),
	PL_STAT("total_bytes", "Bytes moved by the annotated collectives."),
	PL_STAT_END
};

/* The sum of inst's result sizes; -1 if one overflows int64. */
static int64_t result_bytes(const pl_inst *inst)
{
	uint64_t total = 0;
	for (size_t k = 0; k < pl_inst_num_results(inst); k++) {
		uint64_t b;
		if (pl_type_num_bytes(pl_value_type(pl_inst_result(inst, k)), &b) != PL_OK ||
		    b > (uint64_t)INT64_MAX - total)
			return -1;
		total += b;
	}
	return (int64_t)total;
}

static int run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	const char *attr = "bytes";
	int64_t min_bytes = 0;
	pl_ctx_get_string(ctx, "attr", &attr);
	pl_ctx_get_int(ctx, "min_bytes", &min_bytes);
	uint64_t annotated = 0, total = 0;
	for (size_t f = 0; f < pl_module_num_funcs(m); f++) {
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(m, f)); i;
		     i = pl_inst_next(i)) {
			if (!(pl_inst_traits(i) & PL_TRAIT_COLLECTIVE))
				continue;
			int64_t bytes = result_bytes(i);
			if (bytes < 0) {
				pl_ctx_error(ctx, i, "result size overflows int64");
				return PL_EOVERFLOW;
			}
			if (bytes < min_bytes)
				continue;
			int rc = pl_attrs_set_int(pl_inst_attrs(i), attr, bytes);
			if (rc != PL_OK) {
				pl_ctx_error(ctx, i, "cannot set attribute '%s': %s", attr,
				             pl_status_string(rc));
				return rc;
			}
			if (pl_ctx_remarks_enabled(ctx))
				pl_ctx_remark(ctx, i, "%s moves %lld bytes", pl_inst_opname(i),
				              (long long)bytes);
			annotated++;
			total += (uint64_t)bytes;
		}
	}
	int rc = pl_ctx_stat_add(ctx, "num_annotated", annotated);
	return rc ? rc : pl_ctx_stat_add(ctx, "total_bytes", total);
}

static const pl_pass_desc pass = {
	PL_PASS_DESC_INIT,
	.name = "AnnotateCollectiveBytes",
	.summary = "Records each collective's size in bytes as an attribute.",
	.options = options,
	.stats = stats,
	.run = run,
};

PL_PLUGIN_DEFINE("annotate-collective-bytes", "1.0", "MIT",
                 "An example plugin built against the installed SDK.", &pass)
