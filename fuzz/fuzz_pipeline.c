/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_pipeline.c — the pipeline file reader and option validation.
 * Every step is given one in-process pass with an option of every type.
 * Properties: no input crashes; a pipeline that reads and validates prints
 * (--print-pipeline) to text that reads and validates again and prints the
 * same. */
#include "../host/host.h"

#include <stdlib.h>
#include <string.h>

static int noop(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)ctx;
	(void)state;
	(void)m;
	return PL_OK;
}

static const char *const choices[] = {"fast", "exact", NULL};
static const pl_option_decl options[] = {
	PL_OPTION_BOOL("flag", "false", "A boolean."),
	PL_OPTION_INT("count", "3", -5, 100, "An integer."),
	PL_OPTION_BYTES("size", "1KiB", "A byte count."),
	PL_OPTION_STRING("label", "none", "Text."),
	PL_OPTION_ENUM("mode", "fast", choices, "An enum."),
	PL_OPTION_END
};
static const pl_pass_desc pass = {
	PL_PASS_DESC_INIT, .name = "Any", .options = options, .run = noop};

/* Reads, validates and prints; NULL when the text is refused. */
static char *round_trip(const char *name, const char *text, size_t len, size_t *out_len)
{
	struct pipeline pl;
	char *buf = NULL;
	*out_len = 0;
	if (pipeline_read_text(name, "/fuzz", text, len, &pl)) {
		for (size_t k = 0; k < pl.nsteps; k++)
			pl.steps[k].desc = &pass;
		pl_diags *d = pl_diags_new();
		if (runner_configure(&pl, d, false, 1) == EXIT_OK) {
			FILE *f = open_memstream(&buf, out_len);
			bool ok = pipeline_print(&pl, f);
			fclose(f);
			if (!ok) {
				free(buf);
				buf = NULL;
			}
		}
		runner_finish(&pl);
		pl_diags_free(d);
	}
	pipeline_free(&pl);
	return buf;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	size_t n1, n2;
	char *first = round_trip("fuzz.ini", (const char *)data, size, &n1);
	if (!first)
		return 0;
	/* the same name: the printed text says which file it came from */
	char *second = round_trip("fuzz.ini", first, n1, &n2);
	if (!second) {
		fprintf(stderr, "printed pipeline is refused:\n%s\n", first);
		abort();
	}
	if (n1 != n2 || memcmp(first, second, n1) != 0) {
		fprintf(stderr, "printed pipeline differs when read back:\n%s\n---\n%s\n", first,
		        second);
		abort();
	}
	free(first);
	free(second);
	return 0;
}
