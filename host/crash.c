/* SPDX-License-Identifier: MIT */
/* host/crash.c — a banner when a plugin crashes, and clean temporary files
 * on a fatal signal.
 *
 * The handlers use only async-signal-safe calls (write, unlink, signal,
 * raise): the banner names the running pass and its plugin file, then the
 * signal is raised again with its default action, so the exit status still
 * says which signal it was. */
#include "host.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* per thread: read-only passes may run side by side, and the banner names
 * the one that crashed (the handler runs on its thread) */
static _Thread_local const char *volatile current_pass;
static _Thread_local const char *volatile current_plugin;

void crash_set_current(const char *pass, const char *plugin_path)
{
	current_pass = pass;
	current_plugin = plugin_path;
}

static void put(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (segmentation fault)";
	case SIGBUS: return "SIGBUS (bus error)";
	case SIGFPE: return "SIGFPE (arithmetic exception)";
	case SIGABRT: return "SIGABRT (abort)";
	case SIGILL: return "SIGILL (illegal instruction)";
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	default: return "a fatal signal";
	}
}

static void on_signal(int sig)
{
	const char *pass = current_pass, *plugin = current_plugin;
	if (sig != SIGINT && sig != SIGTERM) {
		put("passline: fatal: ");
		put(signame(sig));
		if (pass) {
			put(" while running pass ");
			put(pass);
			if (plugin) {
				put(" (plugin ");
				put(plugin);
				put(")");
			}
		} else {
			put(" in passline itself");
		}
		put("\n");
	}
	atomic_abort_all_signal_safe();
	signal(sig, SIG_DFL);
	raise(sig);
}

void crash_install(void)
{
	static char altstack[64 * 1024];
	stack_t ss;
	memset(&ss, 0, sizeof ss);
	ss.ss_sp = altstack;
	ss.ss_size = sizeof altstack;
	sigaltstack(&ss, NULL); /* so a stack overflow still gets its banner */
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGINT, SIGTERM};
	for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[k], &sa, NULL);
	}
}
