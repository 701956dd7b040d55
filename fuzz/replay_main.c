/* SPDX-License-Identifier: MIT */
/* fuzz/replay_main.c — runs a fuzz harness over files, without libFuzzer:
 * `make check` replays every seed and every input that once crashed, with
 * the ordinary compiler (and the sanitizers when configured with them). */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder is replayed file by file, in name order. */
static int replay(const char *path, size_t *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	DIR *d = opendir(path);
	if (!d)
		return 1;
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = realloc(names, (n + 1) * sizeof *names);
			names[n++] = strdup(e->d_name);
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp);
	int rc = 0;
	for (size_t k = 0; k < n; k++) {
		char *p = malloc(strlen(path) + strlen(names[k]) + 2);
		sprintf(p, "%s/%s", path, names[k]);
		rc |= replay(p, count);
		free(p);
		free(names[k]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int rc = 0;
	for (int k = 1; k < argc; k++)
		rc |= replay(argv[k], &count);
	printf("replayed %zu inputs\n", count);
	return rc;
}
