/* SPDX-License-Identifier: MIT */
/* bench/pl-hlo-bench.c — how fast XLA HLO text is read and written.
 *
 *   pl-hlo-bench [--runs N] FILE...
 *
 * For each FILE (held in memory) it reads the HLO N times (default 10)
 * and writes the module back N times into memory, and prints MB/s of HLO
 * text for both, over the median run, in processor time (the machine may
 * be shared) and in wall time.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <passline/passline.h>

static double clock_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct sink {
	size_t len;
};

static int count_bytes(void *ud, const char *bytes, size_t len)
{
	(void)bytes;
	((struct sink *)ud)->len += len;
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(fp);
	*len = n;
	return b;
}

int main(int argc, char **argv)
{
	int runs = 10, first = 1;
	if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
		runs = atoi(argv[2]);
		first = 3;
	}
	if (runs < 1 || first >= argc) {
		fputs("usage: pl-hlo-bench [--runs N] FILE...\n", stderr);
		return 2;
	}
	printf("%-60s %9s %9s %9s %9s %9s\n", "file", "MB", "read", "write", "read", "write");
	printf("%-60s %9s %9s %9s %9s %9s\n", "", "", "cpu MB/s", "cpu MB/s", "wall MB/s",
	       "wall MB/s");
	double *t = malloc(4 * (size_t)runs * sizeof *t);
	if (!t)
		return 1;
	for (int a = first; a < argc; a++) {
		size_t len;
		char *text = slurp(argv[a], &len);
		if (!text) {
			fprintf(stderr, "pl-hlo-bench: cannot read %s\n", argv[a]);
			return 1;
		}
		size_t written = 0;
		for (int r = 0; r < runs; r++) {
			pl_diags *d = pl_diags_new();
			pl_module *m = NULL;
			double c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_of(CLOCK_MONOTONIC);
			int rc = pl_parse_hlo_buffer(text, len, argv[a], d, &m);
			double c1 = clock_of(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_of(CLOCK_MONOTONIC);
			if (rc != PL_OK) {
				fprintf(stderr, "pl-hlo-bench: %s does not read\n", argv[a]);
				return 1;
			}
			struct sink s = {0};
			pl_module_name_values(m); /* as the host does before printing */
			double c2 = clock_of(CLOCK_PROCESS_CPUTIME_ID), w2 = clock_of(CLOCK_MONOTONIC);
			rc = pl_print_hlo_module(m, d, count_bytes, &s);
			double c3 = clock_of(CLOCK_PROCESS_CPUTIME_ID), w3 = clock_of(CLOCK_MONOTONIC);
			if (rc != PL_OK) {
				fprintf(stderr, "pl-hlo-bench: %s does not write back\n", argv[a]);
				return 1;
			}
			written = s.len;
			t[r] = c1 - c0;
			t[runs + r] = c3 - c2;
			t[2 * runs + r] = w1 - w0;
			t[3 * runs + r] = w3 - w2;
			pl_module_free(m);
			pl_diags_free(d);
		}
		for (int k = 0; k < 4; k++)
			qsort(t + k * runs, (size_t)runs, sizeof *t, cmp_double);
		double mb = (double)len / 1e6, wmb = (double)written / 1e6;
		const char *base = strrchr(argv[a], '/');
		printf("%-60.60s %9.2f %9.0f %9.0f %9.0f %9.0f\n", base ? base + 1 : argv[a], mb,
		       mb / t[runs / 2], wmb / t[runs + runs / 2], mb / t[2 * runs + runs / 2],
		       wmb / t[3 * runs + runs / 2]);
		free(text);
	}
	free(t);
	return 0;
}
