/* SPDX-License-Identifier: MIT */
/* passline/u128.h — unsigned 128-bit numbers as (hi, lo) pairs of
 * uint64_t, the form statistics take (pl_ctx_stat_add_wide): adding with
 * the carry, and printing in decimal. For plugins and hosts alike;
 * passline/plugin.h includes it. */
#ifndef PASSLINE_U128_H
#define PASSLINE_U128_H

#include <passline/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adds two unsigned 128-bit numbers (hi, lo pairs) into *hi, *lo.
 * PL_EOVERFLOW (nothing changed) when the sum passes 2^128 - 1. Declared
 * for plugins since ABI 1.1 (the function is the 1.0 one). */
PL_API int pl_u128_add(uint64_t *hi, uint64_t *lo, uint64_t add_hi,
                       uint64_t add_lo);

/* Formats an unsigned 128-bit hi * 2^64 + lo in decimal into buf, which
 * must hold PL_U128_DEC_BUFSIZE bytes; returns buf. */
#define PL_U128_DEC_BUFSIZE 40
PL_API char *pl_u128_format(uint64_t hi, uint64_t lo, char *buf);

#ifdef __cplusplus
}
#endif

#endif
