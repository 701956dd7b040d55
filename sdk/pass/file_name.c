/* SPDX-License-Identifier: MIT */
/* sdk/pass/file_name.c — which names a pass may give the files it writes: a
 * path relative to the host's output folder that stays inside it, judged
 * on the text alone (the host resolves nothing before it checks). */
#include "ir/internal.h"

#include <stdio.h>
#include <stdlib.h>

static int refuse(char *err, size_t errlen, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return PL_EINVAL;
}

int pl_file_name_check(const char *name, char *err, size_t errlen)
{
	if (!name || !*name)
		return refuse(err, errlen, "the file name is empty");
	if (*name == '/')
		return refuse(err, errlen, "the file name is absolute (names are relative "
		                           "to the output folder)");
	/* depth below the output folder after each component; "." and empty
	 * components (a//b) stay where they are */
	long depth = 0;
	const char *p = name, *last = name;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		last = p;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return refuse(err, errlen, "the file name leaves the output folder");
		} else if (len && !(len == 1 && p[0] == '.')) {
			depth++;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	size_t tail = strlen(last);
	if (!tail || name[strlen(name) - 1] == '/' || (tail == 1 && last[0] == '.') ||
	    (tail == 2 && last[0] == '.' && last[1] == '.'))
		return refuse(err, errlen, "the file name names a folder, not a file");
	return PL_OK;
}

char *pl_file_name_normalize_(const char *name)
{
	size_t n = strlen(name);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	size_t len = 0;
	for (const char *p = name; *p;) {
		const char *end = strchr(p, '/');
		size_t clen = end ? (size_t)(end - p) : strlen(p);
		if (clen == 2 && p[0] == '.' && p[1] == '.') {
			/* drop the last component kept (the check keeps one there) */
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--;
		} else if (clen && !(clen == 1 && p[0] == '.')) {
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, clen);
			len += clen;
		}
		p += clen;
		if (*p == '/')
			p++;
	}
	out[len] = '\0';
	return out;
}
