/* SPDX-License-Identifier: MIT */
/* host/atomic.c — outputs that appear whole or not at all: written to a
 * temporary file in the target's folder, renamed over the target on
 * commit. A temporary file left by a signal is removed by the handler. */
#include "host.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_OPEN = 8 };
/* Read by signal handlers: plain pointers to strings that outlive them. */
static const char *volatile open_tmps[MAX_OPEN];

static void track(const char *tmp)
{
	for (int k = 0; k < MAX_OPEN; k++)
		if (!open_tmps[k]) {
			open_tmps[k] = tmp;
			return;
		}
}

static void untrack(const char *tmp)
{
	for (int k = 0; k < MAX_OPEN; k++)
		if (open_tmps[k] == tmp)
			open_tmps[k] = NULL;
}

void atomic_abort_all_signal_safe(void)
{
	for (int k = 0; k < MAX_OPEN; k++)
		if (open_tmps[k])
			unlink(open_tmps[k]);
}

bool atomic_open(struct atomic_file *af, const char *path)
{
	memset(af, 0, sizeof *af);
	af->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		af->is_stdout = true;
		af->fp = stdout;
		return true;
	}
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		host_error("cannot write %s: %s", path, strerror(EISDIR));
		free(af->path);
		return false;
	}
	char *dir = dir_of(path);
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	af->tmp = xasprintf("%s/.%s.XXXXXX", dir, base);
	free(dir);
	int fd = mkstemp(af->tmp);
	if (fd < 0) {
		host_error("cannot write %s: %s", path, strerror(errno));
		free(af->tmp);
		free(af->path);
		return false;
	}
	track(af->tmp);
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(fd, mode);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		host_error("cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(af->tmp);
		untrack(af->tmp);
		free(af->tmp);
		free(af->path);
		return false;
	}
	return true;
}

bool atomic_commit(struct atomic_file *af)
{
	bool ok = true;
	if (af->is_stdout) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			host_error("cannot write standard output: %s", strerror(errno));
			ok = false;
		}
	} else {
		if (fflush(af->fp) != 0 || ferror(af->fp)) {
			host_error("cannot write %s: %s", af->path, strerror(errno));
			ok = false;
		}
		if (fclose(af->fp) != 0 && ok) {
			host_error("cannot write %s: %s", af->path, strerror(errno));
			ok = false;
		}
		if (ok && rename(af->tmp, af->path) != 0) {
			host_error("cannot replace %s: %s", af->path, strerror(errno));
			ok = false;
		}
		if (!ok)
			unlink(af->tmp);
		untrack(af->tmp);
		free(af->tmp);
	}
	free(af->path);
	memset(af, 0, sizeof *af);
	return ok;
}

void atomic_abort(struct atomic_file *af)
{
	if (!af->path)
		return;
	if (!af->is_stdout) {
		fclose(af->fp);
		unlink(af->tmp);
		untrack(af->tmp);
		free(af->tmp);
	}
	free(af->path);
	memset(af, 0, sizeof *af);
}
