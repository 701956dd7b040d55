/* SPDX-License-Identifier: MIT */
/* host/read_input.c — reading INPUT in its format, for every command that
 * reads a module (passline, --compare, passline tune). */
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

bool host_is_hlo_name(const char *path)
{
	return has_suffix(path, ".hlo") || has_suffix(path, ".hlo.txt");
}

bool host_is_pir_name(const char *path)
{
	return has_suffix(path, ".pir");
}

/* The format given, else by the name, else by the first words (standard
 * input is read whole to look at them). */
int host_read_module(const char *input, const char *fmt, unsigned threads, pl_diags *diags,
                     pl_module **m, bool *hlo)
{
	*hlo = false;
	if (!fmt && host_is_hlo_name(input))
		fmt = "hlo";
	if (!fmt && host_is_pir_name(input))
		fmt = "pir";
	if (fmt && strcmp(fmt, "hlo") == 0) {
		*hlo = true;
		return pl_parse_hlo_file(input, diags, m);
	}
	if (fmt || strcmp(input, "-") != 0) {
		if (!fmt) {
			char head[4096];
			size_t n = 0;
			FILE *fp = fopen(input, "rb");
			if (fp) {
				n = fread(head, 1, sizeof head, fp);
				fclose(fp);
			}
			if (pl_text_is_hlo(head, n)) {
				*hlo = true;
				return pl_parse_hlo_file(input, diags, m);
			}
		}
		return pl_parse_file_threads(input, threads, diags, m);
	}
	size_t len = 0, cap = 1 << 16;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += got;
		if (len == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(stdin)) {
		free(buf);
		pl_diags_add(diags, PL_SEV_ERROR, "<stdin>", 0, 0, "cannot read: %s", strerror(errno));
		return PL_EIO;
	}
	*hlo = pl_text_is_hlo(buf, len);
	int rc = *hlo ? pl_parse_hlo_buffer(buf, len, "<stdin>", diags, m)
	              : pl_parse_buffer(buf, len, "<stdin>", diags, m);
	free(buf);
	return rc;
}
