/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_eof.h — what an HLO text cut short ends inside of. The
 * reader asks only once it has an error to report, so that a file that
 * stops early says so instead of blaming what the cut left behind (a name
 * cut in two, an opcode cut in two). Nothing here is installed. */
#ifndef PL_HLO_EOF_H
#define PL_HLO_EOF_H

#include <stdbool.h>
#include <stddef.h>

/* The part of a module a scan starts at. */
enum pl_hlo_part {
	PL_HLO_PART_HEADER, /* "HloModule name, attributes": one line */
	PL_HLO_PART_FRAMES, /* the stack frame tables after the header */
	PL_HLO_PART_TOP,    /* between computations */
	PL_HLO_PART_COMP    /* a computation, from its name to its body's '}' */
};

struct pl_hlo_eof {
	char what[160];     /* "the value of replica_groups=", "a string in ...";
	                     * "" between computations, nothing open */
	const char *opened; /* where that opens, or NULL */
};

/* Scans from `from`, the start of a part, to `end` (strings and comments
 * skipped, brackets matched): true when the text ends before the part is
 * complete (a bracket, string or comment still open, or a computation
 * whose body never closes), filling *out with the innermost thing left
 * open. Linear in the text scanned. */
bool pl_hlo_ends_inside_(const char *from, const char *end, enum pl_hlo_part part,
                         struct pl_hlo_eof *out);

#endif
