/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_nest.h — the short forms of operands XLA's parser reads
 * but never prints, written back where the input had them.
 *
 * An operand may be an instruction without a name, written inside the
 * operand list ("add(x, multiply(y, z))", "f32[] parameter(0)"), and an
 * element of a tuple value may be named by its path ("%p0#1#0"). The
 * reader makes the lines XLA's parser makes for them (named "NAME.anon",
 * and get-tuple-element lines) and records which were written so: the
 * names of the nested lines (hlo_nested) and the paths
 * (hlo_compact_paths). Once a computation is printed, its lines for them
 * are folded back into the operands that named them there.
 */
#ifndef PL_HLO_NEST_H
#define PL_HLO_NEST_H

#include "hlo/hlo.h"

#include <stdbool.h>
#include <stddef.h>

/* Rewrites the computation printed into sb from byte `at` on (its
 * heading line, then its lines "  [ROOT ]NAME = ..."): each line named in
 * the list of strings `nested` that exactly one later operand names is
 * removed and its text after "NAME = " takes that operand's place (shape
 * and name); each get-tuple-element line whose element, spelled "X#I" (X
 * itself such a path when its line is one), is one of the strings of the
 * list `paths` or begins one, is removed and its operands become that
 * path. Either list may be NULL. PL_OK, or PL_ENOMEM (sb is then of no
 * use). */
PL_INTERNAL int pl_hlo_put_nested_(struct pl_strbuf *sb, size_t at, const pl_attr *nested,
                                   const pl_attr *paths);

#endif
