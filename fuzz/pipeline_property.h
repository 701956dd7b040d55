/* SPDX-License-Identifier: MIT */
/* fuzz/pipeline_property.h — shared by the harnesses that run passes
 * in-process on every module that parses and verifies. Properties: no
 * crash; every pass that succeeds leaves a module that verifies; the result
 * prints to text that parses, verifies and prints the same. A pass may fail
 * cleanly only where it documents a refusal (DetailDynInst past its
 * counting bound). */
#ifndef PL_FUZZ_PIPELINE_PROPERTY_H
#define PL_FUZZ_PIPELINE_PROPERTY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/host.h>
#include <passline/passline.h>

#include "harness.h"

/* One step: a plugin's entry point and, optionally, one option to set. */
struct fuzz_step {
	const pl_plugin_desc *(*entry)(void);
	const char *option, *value; /* option NULL: every option at its default */
};

static inline void fuzz_fail(const char *what, pl_diags *d)
{
	fprintf(stderr, "%s\n", what);
	for (size_t k = 0; k < pl_diags_count(d); k++)
		fprintf(stderr, "  %s\n", pl_diags_format(d, k));
	abort();
}

/* Runs the steps in order on the module data holds, checking the
 * properties above; aborts when one fails. */
static inline void fuzz_pipeline_property(const unsigned char *data, size_t size,
                                          const struct fuzz_step *steps, size_t nsteps)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	if (pl_parse_buffer((const char *)data, size, "fuzz.pir", d, &m) != PL_OK ||
	    pl_verify_module(m, d) != PL_OK)
		goto out;
	for (size_t k = 0; k < nsteps; k++) {
		const pl_plugin_desc *desc = steps[k].entry();
		if (pl_plugin_desc_check(desc, NULL, 0) != PL_DESC_OK)
			abort();
		const pl_pass_desc *pass = pl_plugin_desc_pass(desc, 0);
		pl_diags_clear(d);
		pl_pass_ctx *ctx = pl_ctx_new(pass, d);
		if (!ctx)
			abort();
		if (steps[k].option &&
		    pl_ctx_set_option(ctx, steps[k].option, steps[k].value, NULL, 0) != PL_OK)
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
				fuzz_fail(pass->name, d);
			goto out;
		}
		pl_diags_clear(d);
		if (pl_verify_module(m, d) != PL_OK) {
			fprintf(stderr, "invalid IR after %s\n", pass->name);
			fuzz_fail("verifier:", d);
		}
	}
	struct text_buf first = {0}, second = {0};
	if (pl_print_module(m, text_buf_append, &first) != PL_OK)
		abort();
	pl_module *m2 = NULL;
	pl_diags_clear(d);
	if (pl_parse_buffer(first.p ? first.p : "", first.n, "printed.pir", d, &m2) != PL_OK ||
	    pl_verify_module(m2, d) != PL_OK)
		fuzz_fail("the pipeline's output does not read back", d);
	if (pl_print_module(m2, text_buf_append, &second) != PL_OK)
		abort();
	if (!text_buf_equal(&first, &second))
		fuzz_fail("the pipeline's output is not a fixed point", d);
	free(first.p);
	free(second.p);
	pl_module_free(m2);
out:
	pl_module_free(m);
	pl_diags_free(d);
}

#endif
