/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/hlo_verify.h — the checks XLA makes of a module's shapes and
 * attributes, run on a module the HLO reader has mapped onto the IR: the
 * entry into verify/, which holds them. Nothing here is installed. */
#ifndef PL_HLO_VERIFY_H
#define PL_HLO_VERIFY_H

#include "ir/internal.h"

/* Checks m, read from file; each finding goes to diags as
 * "file:line:col: error: ..." at the instruction. layouts: some shape of
 * the text has a layout, so the checks XLA makes only once layouts are
 * assigned apply. Returns PL_OK, or PL_EPARSE after the first error, or
 * PL_ENOMEM. */
int pl_hlo_verify_(const pl_module *m, const char *file, bool layouts, pl_diags *diags);

#endif
