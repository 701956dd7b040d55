/* SPDX-License-Identifier: MIT */
/* bench/pl-roundtrip.c — parses a .pir module, verifies it and prints it
 * back: the round-trip check of tests/genmodel.sh, and the "parse + print
 * alone" benchmark.
 *
 *   pl-roundtrip [--time] IN OUT      (IN or OUT "-": standard streams)
 *
 * Exit status 0 on success, 1 with the diagnostics on standard error when
 * the input does not parse or verify or the output cannot be written, 2 on
 * a usage error. With --time, standard error gets the wall time of each
 * phase, the peak RSS and the peak RSS per instruction (and the RSS right
 * after the parse, which leaves out the parser's transient memory).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <passline/passline.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resident bytes now (Linux /proc/self/statm), 0 when unknown. */
static double rss_now(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	unsigned long size, resident;
	int n = fp ? fscanf(fp, "%lu %lu", &size, &resident) : 0;
	if (fp)
		fclose(fp);
	return n == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) : 0.0;
}

static void print_diags(pl_diags *d)
{
	for (size_t i = 0; i < pl_diags_count(d); i++) {
		const char *s = pl_diags_format(d, i);
		fprintf(stderr, "%s\n", s ? s : "(out of memory)");
	}
	if (pl_diags_dropped(d))
		fprintf(stderr, "(%zu more messages)\n", pl_diags_dropped(d));
}

static int usage(FILE *fp, int status)
{
	fputs("Usage: pl-roundtrip [--time] IN OUT\n"
	      "Parses IN, verifies it and prints it canonically to OUT (\"-\" for the\n"
	      "standard streams). --time reports the wall time of parse, verify and\n"
	      "print, and the peak RSS per instruction, on standard error.\n",
	      fp);
	return status;
}

int main(int argc, char **argv)
{
	bool timing = false;
	const char *files[2];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--time") == 0)
			timing = true;
		else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return usage(stdout, 0);
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return usage(stderr, 2);
		else if (nfiles < 2)
			files[nfiles++] = argv[i];
		else
			return usage(stderr, 2);
	}
	if (nfiles != 2)
		return usage(stderr, 2);

	pl_diags *d = pl_diags_new();
	if (!d) {
		fputs("pl-roundtrip: out of memory\n", stderr);
		return 1;
	}
	pl_module *m = NULL;
	double t0 = now();
	int rc = pl_parse_file(files[0], d, &m);
	double t1 = now();
	if (rc != PL_OK) {
		print_diags(d);
		fprintf(stderr, "pl-roundtrip: %s: %s\n", files[0], pl_status_string(rc));
		pl_diags_free(d);
		return 1;
	}
	/* after the parse: the module itself, without the parser's transient
	 * memory (input text window, symbol table) that the peak includes */
	double rss_parsed = timing ? rss_now() : 0.0;
	rc = pl_verify_module(m, d);
	double t2 = now();
	if (rc != PL_OK) {
		print_diags(d);
		fprintf(stderr, "pl-roundtrip: %s: %s\n", files[0], pl_status_string(rc));
		pl_module_free(m);
		pl_diags_free(d);
		return 1;
	}

	bool to_stdout = strcmp(files[1], "-") == 0;
	FILE *out = to_stdout ? stdout : fopen(files[1], "wb");
	if (!out) {
		perror(files[1]);
		pl_module_free(m);
		pl_diags_free(d);
		return 1;
	}
	double t3 = now();
	rc = pl_print_module_file(m, out); /* flushes: the write is in the time */
	double t4 = now();
	if (!to_stdout && fclose(out) != 0 && rc == PL_OK)
		rc = PL_EIO;
	if (rc != PL_OK) {
		fprintf(stderr, "pl-roundtrip: cannot write %s: %s\n", files[1], pl_status_string(rc));
		pl_module_free(m);
		pl_diags_free(d);
		return 1;
	}

	if (timing) {
		size_t n = pl_module_num_insts(m);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		double rss = (double)ru.ru_maxrss * 1024.0; /* ru_maxrss is in KiB on Linux */
		fprintf(stderr,
		        "instructions: %zu\n"
		        "parse: %.3f s\n"
		        "verify: %.3f s\n"
		        "print: %.3f s\n"
		        "peak RSS: %.1f MiB\n"
		        "bytes/inst: %.1f\n"
		        "RSS after parse: %.1f MiB (%.1f bytes/inst)\n",
		        n, t1 - t0, t2 - t1, t4 - t3, rss / (1024.0 * 1024.0),
		        n ? rss / (double)n : 0.0, rss_parsed / (1024.0 * 1024.0),
		        n ? rss_parsed / (double)n : 0.0);
	}
	pl_module_free(m);
	pl_diags_free(d);
	return 0;
}
