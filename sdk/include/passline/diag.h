/* SPDX-License-Identifier: MIT */
/* passline/diag.h — diagnostics: what went wrong in the user's input.
 *
 * A pl_diags is a list of messages, each with a severity and an optional
 * location (file, line, column; 0 where unknown). The library appends to a
 * list its caller owns; the host decides how to show them. The canonical
 * rendering is "file:line:col: severity: message".
 */
#ifndef PASSLINE_DIAG_H
#define PASSLINE_DIAG_H

#include <passline/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_diags pl_diags;

typedef enum pl_severity {
	PL_SEV_ERROR = 0,
	PL_SEV_WARNING = 1,
	PL_SEV_NOTE = 2,
	PL_SEV_REMARK = 3
} pl_severity;

/* A new, empty list; NULL when out of memory. Free with pl_diags_free. */
PL_API pl_diags *pl_diags_new(void);
PL_API void pl_diags_free(pl_diags *diags);
PL_API void pl_diags_clear(pl_diags *diags);

/* Appends a message. file may be NULL; line and col may be 0. The strings
 * are copied. Returns PL_OK or PL_ENOMEM. Once a list holds
 * PL_DIAGS_MAX_ENTRIES messages, further ones are counted but not kept. */
#define PL_DIAGS_MAX_ENTRIES 1000
PL_API int pl_diags_add(pl_diags *diags, pl_severity sev, const char *file,
                        unsigned line, unsigned col, const char *fmt, ...)
	PL_PRINTF(6, 7);

/* How many messages are kept, and how many errors were added in all. */
PL_API size_t pl_diags_count(const pl_diags *diags);
PL_API size_t pl_diags_error_count(const pl_diags *diags);
/* How many messages were added beyond PL_DIAGS_MAX_ENTRIES and dropped. */
PL_API size_t pl_diags_dropped(const pl_diags *diags);

/* The parts of message i (i < pl_diags_count). Strings stay valid until the
 * list is cleared or freed. file is NULL when the message has none. */
PL_API pl_severity pl_diags_severity(const pl_diags *diags, size_t i);
PL_API const char *pl_diags_file(const pl_diags *diags, size_t i);
PL_API unsigned pl_diags_line(const pl_diags *diags, size_t i);
PL_API unsigned pl_diags_col(const pl_diags *diags, size_t i);
PL_API const char *pl_diags_message(const pl_diags *diags, size_t i);

/* Message i rendered as "file:line:col: error: message" (parts that are
 * unknown are left out), without a trailing newline. Valid until the list is
 * cleared or freed; NULL when out of memory. */
PL_API const char *pl_diags_format(pl_diags *diags, size_t i);

/* Instead of keeping messages, hand each one to handler as it is added
 * (the counts still grow). NULL restores keeping them. The strings passed
 * are valid only during the call. */
typedef void (*pl_diag_handler)(void *userdata, pl_severity sev,
                                const char *file, unsigned line, unsigned col,
                                const char *message);
PL_API void pl_diags_set_handler(pl_diags *diags, pl_diag_handler handler,
                                 void *userdata);

/* "error", "warning", "note", "remark". */
PL_API const char *pl_severity_name(pl_severity sev);

#ifdef __cplusplus
}
#endif

#endif
