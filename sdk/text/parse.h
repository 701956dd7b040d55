/* SPDX-License-Identifier: MIT */
/* sdk/text/parse.h — the .pir reader's entry point inside the library, for the
 * file reader (read.c), which may read a large file on two threads: one
 * reader from the start, and a second from a line in the middle of the
 * text. The second reads "the rest": it begins inside the body of a
 * function it cannot see the beginning of, so the values used there before
 * any definition are left as holes, to be found among the first reader's
 * values when the two meet (splice.c). */
#ifndef PL_PARSE_H
#define PL_PARSE_H

#include "ir/internal.h"
#include <passline/hash_table.h>

struct pl_parse_job {
	const char *text;
	size_t len;
	const char *source_name;
	pl_diags *diags;
	/* the region of the new module's instruction blocks (region.h), or
	 * NULL for one of its own: the two readers of a file share one, so
	 * that what the second reads can be put after the first's */
	struct pl_region *region;
	/* called with the text position of each instruction about to be
	 * read: the text before it may be given back (may be NULL) */
	void (*release)(void *ud, const char *upto);
	void *release_ud;

	/* The first reader: before reading the instruction that begins at
	 * stop_at (when one does, in a function body), it calls take_rest
	 * with that function, its values so far by name (a table of offsets
	 * in the region, see hash_table.h, whose items are pl_values, hashed
	 * as pl_hash_short_ hashes their names) and the instruction's line.
	 * take_rest returns 1 when it has put the rest of the module in place
	 * (the reader then stops there, and values may have been emptied), 0
	 * to read on (values as it was), or a negative PL_E* status to fail
	 * with. */
	const char *stop_at;
	int (*take_rest)(void *ud, pl_func *f, struct pl_ht *values, uint32_t line);
	void *take_ud;

	/* The second reader: rest says the text begins inside a function
	 * body. Lines count from the text's first line as line 1. It leaves
	 * the function of the instructions before the first '}' in cont
	 * (named ""), the values they use without a definition in holes, by
	 * name (named as written, no type, their uses linked), and the values
	 * they define in cont_values, by name (both tables of offsets, as
	 * values above); the caller owns both tables
	 * afterwards (their slots lie in region: it frees them while it holds
	 * the region). */
	bool rest;
	pl_func *cont;
	struct pl_ht holes;
	struct pl_ht cont_values;
};

/* Reads job's text into a new module (*out). Returns PL_OK, PL_EPARSE,
 * PL_ELIMIT or PL_ENOMEM, as pl_parse_buffer. */
PL_INTERNAL int pl_parse_job_(struct pl_parse_job *job, pl_module **out);

/* --- splice.c --- */
/* Puts the rest of a module, read by a second reader (rest, into b), after
 * the instructions of f, whose reader stopped at the rest's first line,
 * line, with values its values by name. 1 when done (b then holds nothing
 * but tables to free; values and rest's tables of names are emptied as
 * soon as they have served, before the rest's strings are merged), 0 when
 * the rest does not fit (nothing changed), PL_ENOMEM (f's module is then
 * to be freed). */
PL_INTERNAL int pl_splice_rest_(pl_func *f, struct pl_ht *values, uint32_t line,
                                pl_module *b, struct pl_parse_job *rest);

/* --- read.c --- */
/* Reads text, on two threads when split is less than len and a line
 * that begins with a value name follows it closely: the second reader
 * begins there. release: text is a private mapping whose pages may be
 * given back as they are read. *split_taken (may be NULL) says whether
 * the second reader's module was used. */
PL_INTERNAL int pl_parse_text_(const char *text, size_t len, size_t split, const char *name,
                               pl_diags *diags, bool release, bool *split_taken,
                               pl_module **out);

#endif
