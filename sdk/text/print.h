/* SPDX-License-Identifier: MIT */
/* sdk/text/print.h — the .pir writer's pieces, for printing a module on several
 * threads (print_threads.c): each thread writes parts of the text into a
 * buffer of its own, and the parts are written in order. */
#ifndef PL_PRINT_H
#define PL_PRINT_H

#include "ir/internal.h"

struct out;

/* The buffer of a module's or a function's text: fewer, larger writes
 * cost the kernel less. */
enum { PL_OUT_BUF = 1 << 20 };

/* A writer to write, flushed every size bytes; big: for a module's or a
 * function's text, with a cache of the texts of types and lists (else a
 * message's short text). NULL when out of memory. */
PL_INTERNAL struct out *pl_out_new_(pl_write_fn write, void *userdata, size_t size,
                                    bool big);
/* Where a part of the text begins: instruction i of funcs[k] (NULL: its
 * header); k == nfuncs past the end. */
struct pl_out_at {
	size_t k;
	const pl_inst *i;
};

/* n instructions of the text of funcs[0..nfuncs) (an empty function counts
 * as one), from *at, with the headers and ends of the functions they
 * reach; *at is left where the next part begins. Values must be named. */
PL_INTERNAL void pl_out_part_(struct out *o, const pl_func *const *funcs, size_t nfuncs,
                              struct pl_out_at *at, size_t n);
/* Writes what is buffered; PL_OK or PL_EIO (a write failed, now or before). */
PL_INTERNAL int pl_out_flush_(struct out *o);
/* Flushes and frees o: PL_OK or PL_EIO. */
PL_INTERNAL int pl_out_finish_(struct out *o);

#endif
