/* SPDX-License-Identifier: MIT */
/* passline/host.h — the part of the SDK a host uses to drive plugins:
 * descriptor checks, option validation, pass contexts, stats and reports.
 * A plugin does not need anything here.
 */
#ifndef PASSLINE_HOST_H
#define PASSLINE_HOST_H

#include <passline/cost.h>
#include <passline/diag.h>
#include <passline/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a plugin descriptor is refused. */
typedef enum pl_desc_problem {
	PL_DESC_OK = 0,
	PL_DESC_NULL = 1,          /* the entry returned NULL */
	PL_DESC_ABI_MAJOR = 2,     /* abi_major differs from the host's */
	PL_DESC_ABI_NEWER = 3,     /* abi_minor is newer than the host's */
	PL_DESC_TOO_SMALL = 4,     /* a struct_size below the 1.0 fields */
	PL_DESC_MALFORMED = 5      /* a missing name, run, a bad default, ... */
} pl_desc_problem;

/* Checks a plugin descriptor, its passes, options and stats against this
 * library's ABI. On a problem writes a one-line explanation (no file name)
 * into err (errlen bytes, NUL-terminated) and returns it. */
PL_API pl_desc_problem pl_plugin_desc_check(const pl_plugin_desc *d, char *err,
                                            size_t errlen);

/* Walk descriptors honouring each array's struct_size. Only valid on a
 * descriptor pl_plugin_desc_check accepted. */
PL_API size_t pl_plugin_desc_num_passes(const pl_plugin_desc *d);
PL_API const pl_pass_desc *pl_plugin_desc_pass(const pl_plugin_desc *d, size_t i);
PL_API size_t pl_pass_desc_num_options(const pl_pass_desc *p);
PL_API const pl_option_decl *pl_pass_desc_option(const pl_pass_desc *p, size_t i);
PL_API const pl_option_decl *pl_pass_desc_find_option(const pl_pass_desc *p,
                                                      const char *name);
PL_API size_t pl_pass_desc_num_stats(const pl_pass_desc *p);
PL_API const pl_stat_decl *pl_pass_desc_stat(const pl_pass_desc *p, size_t i);

/* "bool", "int", "bytes", "string", "enum". */
PL_API const char *pl_option_type_name(pl_option_type t);

/* Validates text as a value of option d. On success, if canonical is not
 * NULL, *canonical is the value's canonical text (malloc'd; the caller
 * frees it) that validates to the same value. On failure returns PL_EINVAL
 * and writes the reason into err ("expected true or false", "256 is above
 * the maximum 100", ...). */
PL_API int pl_option_validate(const pl_option_decl *d, const char *text,
                              char **canonical, char *err, size_t errlen);

/* Parses a byte count: a decimal integer with an optional suffix B, KiB,
 * MiB or GiB. PL_OK, PL_EINVAL or PL_EOVERFLOW. */
PL_API int pl_parse_bytes(const char *text, int64_t *out);

/* A context for one step running pass p. Messages (errors, warnings,
 * remarks) go to diags, which must outlive the context. Every option starts
 * at its default. NULL when out of memory. */
PL_API pl_pass_ctx *pl_ctx_new(const pl_pass_desc *p, pl_diags *diags);
PL_API void pl_ctx_free(pl_pass_ctx *ctx);
/* Sets an option from text, validated as pl_option_validate does.
 * PL_ENOTFOUND for a name the schema lacks, PL_EINVAL for a bad value. */
PL_API int pl_ctx_set_option(pl_pass_ctx *ctx, const char *name,
                             const char *text, char *err, size_t errlen);
PL_API void pl_ctx_set_remarks_enabled(pl_pass_ctx *ctx, bool on);
/* How many errors the pass has reported through ctx (pl_ctx_error, an
 * undeclared statistic) since ctx was made. A host compares the count
 * before and after create and run: a pass that reported an error has
 * failed, whatever it returned. Added in ABI 1.1. */
PL_API size_t pl_ctx_num_errors(const pl_pass_ctx *ctx);
/* The cost model pl_ctx_cost_model gives the pass: cm (NULL: the defaults)
 * is the caller's and must outlive the context. Added in ABI 1.1. */
PL_API void pl_ctx_set_cost_model(pl_pass_ctx *ctx, const pl_cost_model *cm);

PL_API size_t pl_ctx_num_stats(const pl_pass_ctx *ctx);
PL_API const char *pl_ctx_stat_name(const pl_pass_ctx *ctx, size_t i);
PL_API const char *pl_ctx_stat_description(const pl_pass_ctx *ctx, size_t i);
PL_API void pl_ctx_stat_value(const pl_pass_ctx *ctx, size_t i, uint64_t *hi,
                              uint64_t *lo);

/* Report lines written since the last clear; valid until then. */
PL_API size_t pl_ctx_num_reports(const pl_pass_ctx *ctx);
PL_API const char *pl_ctx_report_at(const pl_pass_ctx *ctx, size_t i);
PL_API void pl_ctx_clear_reports(pl_pass_ctx *ctx);

/* pl_u128_add is in passline/u128.h (which passline/plugin.h includes). */

/* The files the pass handed over with pl_ctx_write_file, in the order of
 * their first write (names in normal form), each with the bytes of its
 * last write; valid until the next write or clear. The host writes them
 * when the run succeeded. Added in ABI 1.1. */
PL_API size_t pl_ctx_num_files(const pl_pass_ctx *ctx);
PL_API const char *pl_ctx_file_name(const pl_pass_ctx *ctx, size_t i);
PL_API const void *pl_ctx_file_data(const pl_pass_ctx *ctx, size_t i, size_t *len);
PL_API void pl_ctx_clear_files(pl_pass_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
