/* SPDX-License-Identifier: MIT */
/* plugins/rewritable.h — the functions a shipped pass that moves or
 * rewrites instructions works in: those that run as code of their own
 * (pl_module_rewritable_funcs), never the computation an async-start or
 * fusion wraps nor a reducer, which are part of one instruction. */
#ifndef PLUGINS_REWRITABLE_H
#define PLUGINS_REWRITABLE_H

#include <passline/passline.h>
#include <passline/callgraph.h>

#include <stdlib.h>

struct rewritable {
	bool *code; /* one per function the module had at the start */
	size_t n;
};

/* PL_OK, or PL_ENOMEM. */
static inline int rewritable_init(struct rewritable *rw, const pl_module *m)
{
	rw->n = pl_module_num_funcs(m);
	rw->code = malloc(rw->n ? rw->n : 1);
	if (!rw->code)
		return PL_ENOMEM;
	int rc = pl_module_rewritable_funcs(m, rw->code, rw->n);
	if (rc) {
		free(rw->code);
		rw->code = NULL;
	}
	return rc;
}

/* Whether function k may be rewritten (one the pass added itself may). */
static inline bool rewritable_at(const struct rewritable *rw, size_t k)
{
	return k >= rw->n || rw->code[k];
}

static inline void rewritable_free(struct rewritable *rw)
{
	free(rw->code);
	rw->code = NULL;
}

#endif
