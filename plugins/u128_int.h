/* SPDX-License-Identifier: MIT */
/* plugins/u128_int.h — the native unsigned 128-bit integer the counting
 * plugins sum in, and its bridge to the (hi, lo) pairs of passline/u128.h
 * that statistics and the call graph take and give. One typedef for every
 * plugin (GCC and Clang have the type; __extension__ keeps -Wpedantic
 * quiet). */
#ifndef PLUGINS_U128_INT_H
#define PLUGINS_U128_INT_H

#include <passline/u128.h>

#include <stdint.h>

__extension__ typedef unsigned __int128 u128;

/* hi * 2^64 + lo */
static inline u128 u128_of(uint64_t hi, uint64_t lo)
{
	return ((u128)hi << 64) | lo;
}

/* v in decimal into buf (PL_U128_DEC_BUFSIZE bytes); returns buf. */
static inline char *u128_format(u128 v, char *buf)
{
	return pl_u128_format((uint64_t)(v >> 64), (uint64_t)v, buf);
}

#endif
