/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_pir.c — the .pir reader, verifier and printer.
 * Property: whatever parses and verifies prints to text that parses and
 * verifies again and prints to the same text (the fixed point). Nothing
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
	if (pl_parse_buffer((const char *)data, size, "fuzz.pir", d, &m) != PL_OK ||
	    pl_verify_module(m, d) != PL_OK) {
		pl_module_free(m);
		pl_diags_free(d);
		return 0;
	}
	struct text_buf first = {0}, second = {0};
	if (pl_print_module(m, text_buf_append, &first) != PL_OK)
		abort();
	pl_module *m2 = NULL;
	pl_diags_clear(d);
	if (pl_parse_buffer(first.p ? first.p : "", first.n, "printed.pir", d, &m2) != PL_OK) {
		fprintf(stderr, "printed text does not parse: %s\n%.*s\n", pl_diags_format(d, 0),
		        (int)first.n, first.p);
		abort();
	}
	if (pl_verify_module(m2, d) != PL_OK) {
		fprintf(stderr, "printed text does not verify: %s\n", pl_diags_format(d, 0));
		abort();
	}
	if (pl_print_module(m2, text_buf_append, &second) != PL_OK)
		abort();
	if (!text_buf_equal(&first, &second)) {
		fprintf(stderr, "not a fixed point:\n%.*s\n----\n%.*s\n", (int)first.n, first.p,
		        (int)second.n, second.p);
		abort();
	}
	free(first.p);
	free(second.p);
	pl_module_free(m2);
	pl_module_free(m);
	pl_diags_free(d);
	return 0;
}
