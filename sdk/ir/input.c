/* SPDX-License-Identifier: MIT */
/* sdk/ir/input.c — a whole input file (input.h). */
#include "ir/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end; cap is the first buffer's size. */
static int read_all(int fd, size_t cap, char **buf, size_t *len)
{
	size_t n = 0;
	char *b = malloc(cap);
	if (!b)
		return PL_ENOMEM;
	for (;;) {
		if (n == cap) {
			char *nb = cap <= SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
			if (!nb) {
				free(b);
				return PL_ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(b);
			errno = e;
			return PL_EIO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*buf = b;
	*len = n;
	return PL_OK;
}

int pl_input_read_(const char *path, pl_diags *diags, struct pl_input *in)
{
	bool is_stdin = strcmp(path, "-") == 0;
	*in = (struct pl_input){.text = "", .name = is_stdin ? "<stdin>" : path};
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		pl_diags_add(diags, PL_SEV_ERROR, in->name, 0, 0, "cannot open: %s", strerror(e));
		errno = e;
		return PL_EIO;
	}
	struct stat st;
	int rc = PL_OK, e = 0;
	if (fstat(fd, &st) != 0) {
		rc = PL_EIO;
		e = errno;
	} else if (S_ISDIR(st.st_mode)) {
		rc = PL_EIO;
		e = EISDIR;
	} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
		size_t len = (size_t)st.st_size;
		void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			madvise(map, len, MADV_SEQUENTIAL);
			in->text = map;
			in->len = len;
			in->mapped = true;
		}
	}
	if (rc == PL_OK && !in->mapped) {
		size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
		rc = read_all(fd, cap, &in->owned, &in->len);
		e = errno;
		if (rc == PL_OK)
			in->text = in->owned;
	}
	if (!is_stdin)
		close(fd);
	if (rc != PL_OK) {
		pl_diags_add(diags, PL_SEV_ERROR, in->name, 0, 0, "cannot read: %s",
		             rc == PL_ENOMEM ? "out of memory" : strerror(e));
		errno = e;
	}
	return rc;
}

void pl_input_free_(struct pl_input *in)
{
	if (in->mapped)
		munmap((void *)in->text, in->len);
	free(in->owned);
	*in = (struct pl_input){.text = ""};
}
