/* SPDX-License-Identifier: MIT */
/* sdk/ir/input.h — a whole input file, for the readers of both text forms.
 * A regular file is mapped; standard input ("-"), a pipe or a device is
 * read into memory. */
#ifndef PL_IR_INPUT_H
#define PL_IR_INPUT_H

#include "ir/internal.h"

struct pl_input {
	const char *text;
	size_t len;
	const char *name; /* the path, or "<stdin>" for "-" */
	bool mapped;      /* text is a read-only mapping of the file */
	char *owned;      /* else the buffer read, or NULL when empty */
};

/* Reads PATH ("-": standard input) whole into *in. On failure adds
 * "cannot open: WHY" or "cannot read: WHY" to diags under the input's
 * name, and returns PL_EIO (PL_ENOMEM when memory ran out), *in empty. */
PL_INTERNAL int pl_input_read_(const char *path, pl_diags *diags, struct pl_input *in);
PL_INTERNAL void pl_input_free_(struct pl_input *in);

#endif
