/* SPDX-License-Identifier: MIT */
/* plugins/pass_end.h — how a shipped pass ends its run: the counts it
 * gathered go to its statistics in one call each (adding 0 changes
 * nothing, so none is made), and a failure is reported once, as out of
 * memory or with what the pass could not do. */
#ifndef PLUGINS_PASS_END_H
#define PLUGINS_PASS_END_H

#include <passline/passline.h>

/* Adds n to stat; the first failure, of the run or of this, stays in *rc. */
static inline void pass_end_stat(pl_pass_ctx *ctx, const char *stat, uint64_t n, int *rc)
{
	int src = n ? pl_ctx_stat_add(ctx, stat, n) : PL_OK;
	if (*rc == PL_OK)
		*rc = src;
}

/* Reports rc, unless PL_OK: "cannot <what>: <status>". Returns rc. */
static inline int pass_end_report(pl_pass_ctx *ctx, int rc, const char *what)
{
	if (rc == PL_ENOMEM)
		pl_ctx_error(ctx, NULL, "out of memory");
	else if (rc != PL_OK)
		pl_ctx_error(ctx, NULL, "cannot %s: %s", what, pl_status_string(rc));
	return rc;
}

#endif
