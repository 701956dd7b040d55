/* SPDX-License-Identifier: MIT */
/* passline/text.h — the .pir text form: reading and writing modules.
 *
 * The grammar is in passline-pir(5). Reading is all or
 * nothing: on the first error the diagnostic "file:line:col: error: ..." is
 * appended to diags, nothing is returned, and PL_EPARSE is the status.
 * Printing is canonical, and print(parse(text)) is a fixed point.
 */
#ifndef PASSLINE_TEXT_H
#define PASSLINE_TEXT_H

#include <stdio.h>

#include <passline/diag.h>
#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the reader (an input past one is rejected with an error). */
#define PL_MAX_NESTING 256          /* "[" nesting in attribute values */
#define PL_MAX_TOKEN_BYTES (1u << 24) /* one name or string: 16 MiB */

/* Parses len bytes of .pir text. source_name (copied) names the input in
 * diagnostics. On success *out is a new module the caller frees with
 * pl_module_free. Returns PL_OK, PL_EPARSE or PL_ENOMEM. The buffer is only
 * read during the call. */
PL_API int pl_parse_buffer(const char *text, size_t len, const char *source_name,
                           pl_diags *diags, pl_module **out);

/* Parses a file; path "-" reads standard input (named "<stdin>" in
 * diagnostics). Returns as pl_parse_buffer, or PL_EIO with a diagnostic
 * naming the file when it cannot be read. */
PL_API int pl_parse_file(const char *path, pl_diags *diags, pl_module **out);

/* The same as pl_parse_file, on up to threads threads: a text of a
 * megabyte or more is read by two readers at once, the second from a line
 * near the middle (also inside a function). The module (its text,
 * positions and use lists) and any diagnostic are pl_parse_file's. */
PL_API int pl_parse_file_threads(const char *path, unsigned threads, pl_diags *diags,
                                 pl_module **out);

/* XLA HLO text (what JAX, PyTorch/XLA and XLA's --xla_dump_to write), read
 * as passline-pir(5) describes under XLA HLO: a computation becomes a
 * function, every HLO attribute is kept. All or nothing, with diagnostics,
 * like pl_parse_buffer. Added in ABI 1.1. */
PL_API int pl_parse_hlo_buffer(const char *text, size_t len, const char *source_name,
                               pl_diags *diags, pl_module **out);
/* The same from a file ("-": standard input). Added in ABI 1.1. */
PL_API int pl_parse_hlo_file(const char *path, pl_diags *diags, pl_module **out);
/* True when text starts (after white space and comments) with the word
 * HloModule. Added in ABI 1.1. */
PL_API bool pl_text_is_hlo(const char *text, size_t len);

/* Writes bytes somewhere; returns 0 on success, non-zero to stop. */
typedef int (*pl_write_fn)(void *userdata, const char *bytes, size_t len);

/* Gives every value of m a name of its own, as printing does first:
 * unnamed values get the lowest free number, a duplicated name gets ".N".
 * Deterministic. After it, printing m does not change m. PL_OK or
 * PL_ENOMEM. */
PL_API int pl_module_name_values(pl_module *m);

/* Prints a module canonically through write. Unnamed values (built by a
 * pass) are named first, and duplicated names made unique, which is why m
 * is not const. Returns PL_OK, PL_EIO when write fails, PL_ENOMEM. */
PL_API int pl_print_module(pl_module *m, pl_write_fn write, void *userdata);
/* The same into a stdio stream (it does not close it). PL_EIO on a write
 * error. */
PL_API int pl_print_module_file(pl_module *m, FILE *fp);
/* Writes m as XLA HLO text that XLA's parser reads, rebuilding tuples,
 * get-tuple-element, start/done pairs and reducer computations from what
 * the HLO reader kept (passline-pir(5)). PL_EINVAL, with an error naming
 * the instruction in diags, for IR that HLO cannot express; PL_EIO when
 * write fails; PL_ENOMEM. Names values first, like pl_print_module.
 * Added in ABI 1.1. */
PL_API int pl_print_hlo_module(pl_module *m, pl_diags *diags, pl_write_fn write,
                               void *userdata);
/* The same into a stdio stream. Added in ABI 1.1. */
PL_API int pl_print_hlo_module_file(pl_module *m, pl_diags *diags, FILE *fp);
/* Prints one function. */
PL_API int pl_print_func(pl_func *f, pl_write_fn write, void *userdata);
/* Prints one instruction, without indent or newline, into a string the
 * caller frees with free(). NULL when out of memory. */
PL_API char *pl_print_inst_string(pl_inst *inst);

#ifdef __cplusplus
}
#endif

#endif
