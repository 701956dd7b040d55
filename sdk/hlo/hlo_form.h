/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_form.h — the spellings of HLO text the writer keeps.
 *
 * XLA prints the same module in a short form (names without '%', no
 * signatures, operands by name) and in longer ones: names with '%', each
 * computation's heading with its signature "(p: shape, ...) -> shape",
 * each operand after its shape, every array with its layout: the form
 * XLA prints a module in. The writer prints the short form with layouts
 * and rewrites each computation it printed into XLA's. The lines of the
 * input come back as they were written from the kept text (hlo_kept.h),
 * not from here: the IR records no spelling.
 */
#ifndef PL_HLO_FORM_H
#define PL_HLO_FORM_H

#include "hlo/hlo.h"

#include <stdbool.h>
#include <stddef.h>

/* Rewrites the computation the writer printed into sb from byte `at` on
 * (its heading "[ENTRY ]NAME {" and its lines "  [ROOT ]NAME = SHAPE
 * OPCODE(OPERANDS)ATTRIBUTES", each ending in a newline, nothing after)
 * into XLA's form. A signature lists the parameters by number, each shape and
 * the root's without layouts, as XLA prints them. PL_OK, or PL_ENOMEM
 * (sb is then of no use: the writer writes nothing). */
PL_INTERNAL int pl_hlo_put_form_(struct pl_strbuf *sb, size_t at);

#endif
