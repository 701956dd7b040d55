/* SPDX-License-Identifier: MIT */
/* host/atomic.c — outputs that appear whole or not at all: written to a
 * temporary file in the target's folder, renamed over the target on
 * commit. A symbolic link is followed to its final target (the link stays
 * a link). A target that exists and is not a regular file (a device, a
 * FIFO, a socket) is written in place: there the promise cannot hold.
 * A temporary file left by a signal is removed by the handler. */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The module, --stats-json and the files passes hand over are open at
 * once; a run that would hold more temporary files than this is refused
 * rather than leave some behind on a signal. */
enum { MAX_OPEN = 256 };
/* Read by signal handlers: plain pointers to strings that outlive them. */
static const char *volatile open_tmps[MAX_OPEN];

static bool track(const char *tmp)
{
	for (int k = 0; k < MAX_OPEN; k++)
		if (!open_tmps[k]) {
			open_tmps[k] = tmp;
			return true;
		}
	return false;
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

/* The file a write to path lands in: path itself, or, through any chain
 * of symbolic links, their final target (which need not exist yet: a
 * dangling link creates its target). NULL, with errno set, for a loop or
 * an unreadable link. */
static char *final_target(const char *path)
{
	char *cur = xstrdup(path);
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		char *link = xmalloc((size_t)st.st_size + 1);
		ssize_t n = readlink(cur, link, (size_t)st.st_size + 1);
		if (n < 0 || n > st.st_size) { /* changed under us: give up */
			if (n >= 0)
				errno = EAGAIN;
			free(link);
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		char *dir = dir_of(cur);
		char *next = path_join(dir, link);
		free(dir);
		free(link);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

static bool fail(struct atomic_file *af, const char *what, int err)
{
	host_error("%s %s: %s", what, af->path, strerror(err));
	free(af->target);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof *af);
	return false;
}

/* A device, FIFO or socket cannot be replaced by a rename (that would turn
 * /dev/null into a regular file): it is opened and written in place. */
static bool open_direct(struct atomic_file *af)
{
	int fd = open(af->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return fail(af, "cannot write", errno);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int err = errno;
		close(fd);
		return fail(af, "cannot write", err);
	}
	af->direct = true;
	return true;
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
	af->target = final_target(path);
	if (!af->target)
		return fail(af, "cannot write", errno);
	struct stat st;
	bool exists = stat(af->target, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return fail(af, "cannot write", EISDIR);
	if (exists && !S_ISREG(st.st_mode))
		return open_direct(af);
	/* A regular file, or none yet: a temporary file in the final target's
	 * folder (so that the rename stays within one file system), renamed
	 * over the target on commit. */
	char *dir = dir_of(af->target);
	const char *slash = strrchr(af->target, '/');
	const char *base = slash ? slash + 1 : af->target;
	af->tmp = xasprintf("%s/.%s.XXXXXX", dir, base);
	free(dir);
	if (!track(af->tmp))
		return fail(af, "cannot write", EMFILE);
	int fd = mkstemp(af->tmp);
	if (fd < 0) {
		int err = errno;
		untrack(af->tmp);
		return fail(af, "cannot write", err);
	}
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
		int err = errno;
		close(fd);
		unlink(af->tmp);
		untrack(af->tmp);
		return fail(af, "cannot write", err);
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
		if (!af->direct) {
			if (ok && rename(af->tmp, af->target) != 0) {
				host_error("cannot replace %s: %s", af->path, strerror(errno));
				ok = false;
			}
			if (!ok)
				unlink(af->tmp);
			untrack(af->tmp);
			free(af->tmp);
		}
	}
	free(af->target);
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
		if (!af->direct) {
			unlink(af->tmp);
			untrack(af->tmp);
			free(af->tmp);
		}
	}
	free(af->target);
	free(af->path);
	memset(af, 0, sizeof *af);
}
