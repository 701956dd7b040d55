/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_kept.h — the text an HLO module was read from, kept line by
 * line beside the module (never as an attribute), so that the writer
 * prints every line the IR still says the same of as it was read. */
#ifndef PL_HLO_KEPT_H
#define PL_HLO_KEPT_H

#include "ir/internal.h"

/* A statement of the text, as the reader found it: the module line, a
 * computation's heading (up to its '{'), an instruction line, a
 * computation's closing '}' (with its execution_thread), or an
 * instruction inside another's line (a nested one, "add(x, multiply(y,
 * z))", or the get-tuple-element a path into a tuple value stands for,
 * "p0#1"), which has no text of its own: its line's covers it. Offsets
 * into the text; name: what the line names (the computation, the
 * instruction; none for the others), without '%'; parent: for a nested
 * one, the index of the statement of the line it is in. */
enum pl_hlo_stmt_kind {
	PL_HLO_STMT_MODULE,
	PL_HLO_STMT_HEADING,
	PL_HLO_STMT_INST,
	PL_HLO_STMT_CLOSE,
	PL_HLO_STMT_NESTED
};
struct pl_hlo_stmt {
	uint32_t start, end;
	const char *name;
	uint32_t name_len, parent;
	uint8_t kind; /* enum pl_hlo_stmt_kind */
};

/* Keeps text[0..len), which m was just read from, on m (freed with it):
 * each line the writer prints for m now, its fingerprint, with the text
 * of the statement it stands for (stmts, in the order read). Keeps
 * nothing when the writer's lines are not those statements in order.
 * PL_OK, or PL_ENOMEM. */
PL_INTERNAL int pl_hlo_keep_(pl_module *m, const char *text, size_t len,
                             const struct pl_hlo_stmt *stmts, size_t nstmts);

/* out[0..len), the writer's text for the module k was kept on: each line
 * that is one of k's fingerprints, as a line the module was read from,
 * into res; the others (lines new or changed since) as they are. */
PL_INTERNAL void pl_hlo_kept_apply_(const struct pl_hlo_kept *k, const char *out, size_t len,
                                    struct pl_strbuf *res);

/* The writer's whole text for m into res (hlo_write.c); warnings into
 * diags. */
PL_INTERNAL int pl_hlo_render_(pl_module *m, pl_diags *diags, struct pl_strbuf *res);

#endif
