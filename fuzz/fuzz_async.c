/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_async.c — the passes on asynchronous IR, on every module that
 * parses and verifies: HoistFSDPCollectives, BucketizeCCOp, SplitAsyncCCOp
 * (max_window the input's size modulo 3, so 0 = no limit, 1 and 2 all
 * occur), CoalesceCCOp (which then meets tuple starts), DynamicInstEstimator
 * and DetailDynInst, run in-process, otherwise with their defaults. Properties: no crash;
 * every pass that succeeds leaves a module that verifies; the result prints
 * to text that parses, verifies and prints the same. A pass may fail
 * cleanly (DetailDynInst past its counting bound), never otherwise. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/host.h>
#include <passline/passline.h>

#include "harness.h"

const pl_plugin_desc *pl_plugin_entry_hoist(void);
const pl_plugin_desc *pl_plugin_entry_bucketize(void);
const pl_plugin_desc *pl_plugin_entry_split(void);
const pl_plugin_desc *pl_plugin_entry_coalesce(void);
const pl_plugin_desc *pl_plugin_entry_estimator(void);
const pl_plugin_desc *pl_plugin_entry_detail(void);

static void fail(const char *what, pl_diags *d)
{
	fprintf(stderr, "%s\n", what);
	for (size_t k = 0; k < pl_diags_count(d); k++)
		fprintf(stderr, "  %s\n", pl_diags_format(d, k));
	abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const pl_plugin_desc *(*const entries[])(void) = {
		pl_plugin_entry_hoist, pl_plugin_entry_bucketize, pl_plugin_entry_split,
		pl_plugin_entry_coalesce, pl_plugin_entry_estimator, pl_plugin_entry_detail};
	char window[2] = {(char)('0' + size % 3), '\0'};
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	if (pl_parse_buffer((const char *)data, size, "fuzz.pir", d, &m) != PL_OK ||
	    pl_verify_module(m, d) != PL_OK)
		goto out;
	for (size_t k = 0; k < sizeof entries / sizeof *entries; k++) {
		const pl_plugin_desc *desc = entries[k]();
		if (pl_plugin_desc_check(desc, NULL, 0) != PL_DESC_OK)
			abort();
		const pl_pass_desc *pass = pl_plugin_desc_pass(desc, 0);
		pl_diags_clear(d);
		pl_pass_ctx *ctx = pl_ctx_new(pass, d);
		if (!ctx)
			abort();
		if (strcmp(pass->name, "SplitAsyncCCOp") == 0 &&
		    pl_ctx_set_option(ctx, "max_window", window, NULL, 0) != PL_OK)
			abort();
		pl_ctx_set_remarks_enabled(ctx, true); /* so remark code runs too */
		void *state = NULL;
		int rc = pass->create ? pass->create(ctx, &state) : PL_OK;
		if (rc == PL_OK)
			rc = pass->run(ctx, state, m);
		if (pass->destroy)
			pass->destroy(ctx, state);
		pl_ctx_free(ctx);
		if (rc != PL_OK) {
			/* only a documented refusal is a clean failure */
			if (strcmp(pass->name, "DetailDynInst") != 0)
				fail(pass->name, d);
			goto out;
		}
		pl_diags_clear(d);
		if (pl_verify_module(m, d) != PL_OK) {
			fprintf(stderr, "invalid IR after %s\n", pass->name);
			fail("verifier:", d);
		}
	}
	struct text_buf first = {NULL, 0}, second = {NULL, 0};
	if (pl_print_module(m, text_buf_append, &first) != PL_OK)
		abort();
	pl_module *m2 = NULL;
	pl_diags_clear(d);
	if (pl_parse_buffer(first.p ? first.p : "", first.n, "printed.pir", d, &m2) != PL_OK ||
	    pl_verify_module(m2, d) != PL_OK)
		fail("the pipeline's output does not read back", d);
	if (pl_print_module(m2, text_buf_append, &second) != PL_OK)
		abort();
	if (!text_buf_equal(&first, &second))
		fail("the pipeline's output is not a fixed point", d);
	free(first.p);
	free(second.p);
	pl_module_free(m2);
out:
	pl_module_free(m);
	pl_diags_free(d);
	return 0;
}
