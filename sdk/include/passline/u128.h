/* SPDX-License-Identifier: MIT */
/* passline/u128.h — unsigned 128-bit numbers as (hi, lo) pairs of
 * uint64_t, the form statistics take (pl_ctx_stat_add_wide): adding with
 * the carry, and printing in decimal; and 64-bit sums and products that
 * saturate. For plugins and hosts alike;
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

/* a + b and a * b, or UINT64_MAX where they would pass it (header-only,
 * no part of the ABI). */
static inline uint64_t pl_u64_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
static inline uint64_t pl_u64_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t x;
	return __builtin_mul_overflow(a, b, &x) ? UINT64_MAX : x;
}

#ifdef __cplusplus
}
#endif

#endif
