/* SPDX-License-Identifier: MIT */
/* passline/common.h — export macro, status codes, library version.
 *
 * Every function of libpassline returns a status (0 on success, a negative
 * pl_status otherwise) or a value whose "none" case is documented next to
 * it. The library never prints and never exits: what went wrong in the
 * user's input is written to a pl_diags the caller passes in.
 */
#ifndef PASSLINE_COMMON_H
#define PASSLINE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <passline/version.h>

#if defined(PL_BUILDING_LIBRARY) && defined(__GNUC__)
#define PL_API __attribute__((visibility("default")))
#else
#define PL_API
#endif

#if defined(__GNUC__)
#define PL_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PL_PRINTF(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Zero is success; every error is negative. */
typedef enum pl_status {
	PL_OK = 0,
	PL_ERROR = -1,     /* generic failure; see the diagnostics */
	PL_ENOMEM = -2,    /* out of memory */
	PL_EINVAL = -3,    /* the caller broke an API precondition */
	PL_EPARSE = -4,    /* text rejected; diagnostics say where and why */
	PL_EVERIFY = -5,   /* the IR broke a verifier rule; see diagnostics */
	PL_EIO = -6,       /* a read or write failed; errno is kept */
	PL_EOVERFLOW = -7, /* an exact result does not fit its type */
	PL_ENOTFOUND = -8, /* the thing asked for does not exist */
	PL_ETYPE = -9,     /* it exists but has another kind */
	PL_ELIMIT = -10    /* a documented limit was exceeded */
} pl_status;

/* A short, static, English description of a status ("out of memory"). */
PL_API const char *pl_status_string(int status);

/* The version of the library actually loaded (may be newer than
 * PL_VERSION_STRING of the headers a plugin was built with). */
PL_API const char *pl_version(void);

#ifdef __cplusplus
}
#endif

#endif
