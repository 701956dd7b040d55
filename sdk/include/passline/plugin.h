/* SPDX-License-Identifier: MIT */
/* passline/plugin.h — the plugin ABI: what a pass plugin exports and the
 * context through which a running pass talks to the host.
 *
 * This header is the reference for writing a plugin. A plugin is a shared
 * object that exports exactly one symbol, pl_plugin_entry_v1, returning a
 * pointer to a constant pl_plugin_desc. PL_PLUGIN_DEFINE writes it:
 *
 *     #include <passline/passline.h>
 *
 *     static const pl_option_decl my_options[] = {
 *         PL_OPTION_BOOL("verbose", "false", "Say more."),
 *         PL_OPTION_INT("limit", "10", 0, 1000, "At most this many."),
 *         PL_OPTION_END
 *     };
 *     static const pl_stat_decl my_stats[] = {
 *         PL_STAT("num_things", "Things seen."),
 *         PL_STAT_END
 *     };
 *     static int my_run(pl_pass_ctx *ctx, void *state, pl_module *m)
 *     {
 *         (void)state;
 *         return pl_ctx_stat_add(ctx, "num_things", pl_module_num_insts(m));
 *     }
 *     static const pl_pass_desc my_pass = {
 *         PL_PASS_DESC_INIT,
 *         .name = "MyPass",
 *         .summary = "Counts things.",
 *         .options = my_options,
 *         .stats = my_stats,
 *         .run = my_run,
 *     };
 *     PL_PLUGIN_DEFINE("my-plugin", "1.0", "MIT", "An example.", &my_pass)
 *
 * ABI rules. Every descriptor begins with struct_size, the sizeof the
 * plugin was compiled with. Fields are only ever appended, each new one
 * tagged with the ABI minor that added it; the host reads no field at or
 * beyond struct_size. A host accepts a plugin when abi_major equals its own,
 * abi_minor is at most its own, and struct_size covers the 1.0 fields.
 *
 * Lifetime. The host dlopens the plugin, calls pl_plugin_entry_v1 once,
 * validates every option of the pipeline against the schemas, then for each
 * pipeline step calls create (once), run (once per module) and destroy. A
 * plugin is never unloaded. create/run return PL_OK or a negative status;
 * on failure they should explain with pl_ctx_error. They must not print or
 * exit: everything they have to say goes through the context.
 */
#ifndef PASSLINE_PLUGIN_H
#define PASSLINE_PLUGIN_H

#include <passline/common.h>
#include <passline/ir.h>
#include <passline/u128.h> /* pl_u128_add and pl_u128_format */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- option schemas ----------------------------------------------------- */

typedef enum pl_option_type {
	PL_OPT_BOOL = 1,   /* true/false, yes/no, on/off, 1/0 */
	PL_OPT_INT = 2,    /* a decimal int64 within [min, max] */
	PL_OPT_BYTES = 3,  /* an int64 of bytes, suffix KiB, MiB or GiB allowed;
	                    * see pl_type_num_bytes to compare with a type's */
	PL_OPT_STRING = 4, /* any text */
	PL_OPT_ENUM = 5    /* one of choices */
} pl_option_type;

/* One option of a pass. Arrays of these end with PL_OPTION_END; all
 * entries of one array have the same struct_size. Added in ABI 1.0. */
typedef struct pl_option_decl {
	size_t struct_size;
	const char *name;          /* [A-Za-z_][A-Za-z0-9_]* ; NULL ends an array */
	pl_option_type type;
	const char *default_value; /* as a user would write it; must validate */
	const char *help;          /* one line */
	int64_t min, max;          /* PL_OPT_INT and PL_OPT_BYTES, inclusive */
	const char *const *choices; /* PL_OPT_ENUM: NULL-terminated */
} pl_option_decl;

#define PL_OPTION_BOOL(name, def, help) \
	{ sizeof(pl_option_decl), (name), PL_OPT_BOOL, (def), (help), 0, 1, NULL }
#define PL_OPTION_INT(name, def, min, max, help) \
	{ sizeof(pl_option_decl), (name), PL_OPT_INT, (def), (help), (min), (max), NULL }
#define PL_OPTION_BYTES(name, def, help)                                   \
	{ sizeof(pl_option_decl), (name), PL_OPT_BYTES, (def), (help), 0,  \
	  INT64_MAX, NULL }
#define PL_OPTION_STRING(name, def, help) \
	{ sizeof(pl_option_decl), (name), PL_OPT_STRING, (def), (help), 0, 0, NULL }
#define PL_OPTION_ENUM(name, def, choices, help) \
	{ sizeof(pl_option_decl), (name), PL_OPT_ENUM, (def), (help), 0, 0, (choices) }
#define PL_OPTION_END { sizeof(pl_option_decl), NULL, 0, NULL, NULL, 0, 0, NULL }

/* ---- statistics ---------------------------------------------------------- */

/* One statistic: an unsigned counter, exact to 128 bits, that the host sums
 * over every run of the pass and reports. Arrays end with PL_STAT_END.
 * Added in ABI 1.0. */
typedef struct pl_stat_decl {
	size_t struct_size;
	const char *name;        /* [A-Za-z_][A-Za-z0-9_]* ; NULL ends an array */
	const char *description; /* one line, shown in --stats */
} pl_stat_decl;

#define PL_STAT(name, desc) { sizeof(pl_stat_decl), (name), (desc) }
#define PL_STAT_END { sizeof(pl_stat_decl), NULL, NULL }

/* ---- passes and plugins --------------------------------------------------- */

typedef struct pl_pass_ctx pl_pass_ctx;

/* Added in ABI 1.0. */
typedef struct pl_pass_desc {
	size_t struct_size;
	const char *name;    /* the name pipelines use: [A-Za-z_][A-Za-z0-9_]* */
	const char *summary; /* one line */
	const pl_option_decl *options; /* may be NULL: no options */
	const pl_stat_decl *stats;     /* may be NULL: no stats */
	/* Optional. Reads options, sets *state (handed to run and destroy).
	 * PL_EINVAL means an option has a value the schema allows but the
	 * pass does not take (say why with pl_ctx_error): the host treats it
	 * as an error in the pipeline (exit status 1), not a failed pass. */
	int (*create)(pl_pass_ctx *ctx, void **state);
	/* Required. Rewrites or inspects m. */
	int (*run)(pl_pass_ctx *ctx, void *state, pl_module *m);
	/* Optional. Frees what create made. */
	void (*destroy)(pl_pass_ctx *ctx, void *state);
	/* PL_PASS_* bits; 0 when the pass declares nothing. Added in ABI 1.2:
	 * the host reads 0 from a descriptor whose struct_size ends before. */
	uint32_t flags;
} pl_pass_desc;

/* The pass only reads the module: run never changes it (no instruction,
 * value, name, attribute or function is added, changed or removed, not
 * even to be put back), and keeps no state shared with another pass. It
 * reports through its context only. A host may then run it on another
 * thread, side by side with other read-only passes of the pipeline, while
 * nothing writes the module; the messages, reports and statistics come out
 * as if the passes had run one after the other. The host does not check
 * the promise: a pass that declares it and writes is a data race. create
 * and destroy still run on the host's thread, in pipeline order.
 * Added in ABI 1.2. */
#define PL_PASS_READ_ONLY 0x1u

/* The pass's flags: desc->flags when struct_size covers it, else 0. */
static inline uint32_t pl_pass_desc_flags(const pl_pass_desc *desc)
{
	return desc->struct_size >= offsetof(pl_pass_desc, flags) + sizeof desc->flags
	               ? desc->flags
	               : 0;
}

/* Sets struct_size in a designated initializer of a pl_pass_desc. */
#define PL_PASS_DESC_INIT .struct_size = sizeof(pl_pass_desc)

/* Added in ABI 1.0. */
typedef struct pl_plugin_desc {
	size_t struct_size;
	uint32_t abi_major;
	uint32_t abi_minor;
	const char *name;
	const char *version;
	const char *license;
	const char *summary;
	const pl_pass_desc *const *passes; /* NULL-terminated, at least one */
} pl_plugin_desc;

/* struct_size must be at least these for the host to accept a descriptor. */
#define PL_PLUGIN_DESC_SIZE_1_0 \
	(offsetof(pl_plugin_desc, passes) + sizeof(const pl_pass_desc *const *))
#define PL_PASS_DESC_SIZE_1_0 \
	(offsetof(pl_pass_desc, destroy) + sizeof(void (*)(void)))
#define PL_PASS_DESC_SIZE_1_2 \
	(offsetof(pl_pass_desc, flags) + sizeof(uint32_t))
#define PL_OPTION_DECL_SIZE_1_0 \
	(offsetof(pl_option_decl, choices) + sizeof(const char *const *))
#define PL_STAT_DECL_SIZE_1_0 \
	(offsetof(pl_stat_decl, description) + sizeof(const char *))

#define PL_PLUGIN_ENTRY_SYMBOL "pl_plugin_entry_v1"
typedef const pl_plugin_desc *(*pl_plugin_entry_fn)(void);

#if defined(__GNUC__)
#define PL_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PL_PLUGIN_EXPORT
#endif

/* The one symbol a plugin exports. */
PL_PLUGIN_EXPORT const pl_plugin_desc *pl_plugin_entry_v1(void);

/* Defines pl_plugin_entry_v1 for a plugin offering the listed passes
 * (pointers to pl_pass_desc). */
#define PL_PLUGIN_DEFINE(name_, version_, license_, summary_, ...)          \
	static const pl_pass_desc *const pl_plugin_passes_[] = {             \
		__VA_ARGS__, NULL};                                           \
	static const pl_plugin_desc pl_plugin_desc_ = {                      \
		sizeof(pl_plugin_desc), PL_ABI_MAJOR, PL_ABI_MINOR, (name_),  \
		(version_), (license_), (summary_), pl_plugin_passes_};       \
	PL_PLUGIN_EXPORT const pl_plugin_desc *pl_plugin_entry_v1(void)      \
	{                                                                     \
		return &pl_plugin_desc_;                                      \
	}

/* ---- the pass context ------------------------------------------------------
 * One context per pipeline step, valid from create to destroy. */

/* The pass's name as the pipeline spells it. */
PL_API const char *pl_ctx_pass_name(const pl_pass_ctx *ctx);

/* The value of an option of this pass (the pipeline's, or the default).
 * get_int serves PL_OPT_INT and PL_OPT_BYTES, get_string PL_OPT_STRING and
 * PL_OPT_ENUM (the string lives as long as the context). PL_OK, or
 * PL_ENOTFOUND for a name the schema lacks, PL_ETYPE for another type. */
PL_API int pl_ctx_get_bool(const pl_pass_ctx *ctx, const char *name, bool *out);
PL_API int pl_ctx_get_int(const pl_pass_ctx *ctx, const char *name, int64_t *out);
PL_API int pl_ctx_get_string(const pl_pass_ctx *ctx, const char *name,
                             const char **out);

/* Adds to a declared statistic. PL_EOVERFLOW when the total would pass
 * 2^128 - 1 (it is then unchanged). PL_ENOTFOUND for a name the pass did
 * not declare: that is a bug of the pass, so it is also reported as an
 * error naming the statistic ("undeclared statistic 'x'"), which fails the
 * pass (see pl_ctx_error). */
PL_API int pl_ctx_stat_add(pl_pass_ctx *ctx, const char *stat, uint64_t delta);
/* Adds hi * 2^64 + lo. */
PL_API int pl_ctx_stat_add_wide(pl_pass_ctx *ctx, const char *stat, uint64_t hi,
                                uint64_t lo);

/* Remarks explain what a pass did or declined to do; they are shown only
 * with --remarks, so test pl_ctx_remarks_enabled before composing costly
 * ones. at (may be NULL) gives the location: the remark, warning or error
 * is made at the call, with at's file, line and column copied then, so the
 * instruction may be changed or erased right after (a pass may report
 * what it removes). */
PL_API bool pl_ctx_remarks_enabled(const pl_pass_ctx *ctx);
PL_API void pl_ctx_remark(pl_pass_ctx *ctx, const pl_inst *at, const char *fmt,
                          ...) PL_PRINTF(3, 4);
PL_API void pl_ctx_warning(pl_pass_ctx *ctx, const pl_inst *at,
                           const char *fmt, ...) PL_PRINTF(3, 4);
/* An error: the pass has failed. It should then return a negative status
 * from run or create; but an error reported is a failed pass even when
 * run or create returns PL_OK: the host stops with exit status 4 (1 when
 * create returned PL_EINVAL: see create) and writes no output. */
PL_API void pl_ctx_error(pl_pass_ctx *ctx, const pl_inst *at, const char *fmt,
                         ...) PL_PRINTF(3, 4);

/* Writes one line of the pass's report (such as "Total flops: 42"); the
 * host shows report lines after the pass has run. PL_OK or PL_ENOMEM. */
PL_API int pl_ctx_report(pl_pass_ctx *ctx, const char *fmt, ...) PL_PRINTF(2, 3);

/* Hands a file to the host: len bytes of data (copied; data may be NULL
 * when len is 0) to be written under name, a path relative to the folder
 * of the host's output (passline(1): beside -o, or in the current folder).
 * The host writes every file atomically and only after the whole run
 * succeeded, so a pass never opens files itself. The name is kept in
 * normal form ("a/./b/../c" is "a/c"); a later write of the same name by
 * this pass replaces the earlier one, and so does a later pass's.
 * PL_OK; PL_EINVAL (with an error naming the file in the diagnostics) for
 * a name that is empty, absolute, names a folder or leaves the output
 * folder through ".."; PL_ENOMEM. Each write compares its name with the
 * files the context holds: meant for a few files per pass, not thousands.
 * Added in ABI 1.1. */
PL_API int pl_ctx_write_file(pl_pass_ctx *ctx, const char *name, const void *data,
                             size_t len);

/* Checks a file name as pl_ctx_write_file does, on its text alone. PL_OK,
 * or PL_EINVAL with the reason in err (errlen bytes, NUL-terminated; err
 * may be NULL). Added in ABI 1.1. */
PL_API int pl_file_name_check(const char *name, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
