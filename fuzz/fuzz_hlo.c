/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_hlo.c — the XLA HLO reader and writer.
 * Property: whatever reads and verifies is written as HLO that reads and
 * verifies again into the same IR (their .pir texts are equal). Nothing
 * crashes, leaks or reads out of bounds on any input. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/passline.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	if (pl_parse_hlo_buffer((const char *)data, size, "fuzz.hlo", d, &m) != PL_OK ||
	    pl_verify_module(m, d) != PL_OK) {
		pl_module_free(m);
		pl_diags_free(d);
		return 0;
	}
	struct text_buf hlo = {0}, first = {0}, second = {0};
	if (pl_print_module(m, text_buf_append, &first) != PL_OK)
		abort();
	int rc = pl_print_hlo_module(m, d, text_buf_append, &hlo);
	if (rc != PL_OK) {
		fprintf(stderr, "read HLO is not written back: %s\n",
		        pl_diags_count(d) ? pl_diags_format(d, 0) : pl_status_string(rc));
		abort();
	}
	pl_module *m2 = NULL;
	pl_diags_clear(d);
	if (pl_parse_hlo_buffer(hlo.p ? hlo.p : "", hlo.n, "written.hlo", d, &m2) != PL_OK ||
	    pl_verify_module(m2, d) != PL_OK) {
		fprintf(stderr, "written HLO does not read: %s\n%.*s\n", pl_diags_format(d, 0),
		        (int)hlo.n, hlo.p);
		abort();
	}
	if (pl_print_module(m2, text_buf_append, &second) != PL_OK)
		abort();
	if (!text_buf_equal(&first, &second)) {
		fprintf(stderr, "not the same IR:\n%.*s\n----\n%.*s\n", (int)first.n, first.p,
		        (int)second.n, second.p);
		abort();
	}
	free(hlo.p);
	free(first.p);
	free(second.p);
	pl_module_free(m2);
	pl_module_free(m);
	pl_diags_free(d);
	return 0;
}
