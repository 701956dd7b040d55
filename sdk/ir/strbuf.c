/* SPDX-License-Identifier: MIT */
/* sdk/ir/strbuf.c — a growable byte buffer and fast integer formatting. */
#include "ir/internal.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static bool sb_reserve(struct pl_strbuf *sb, size_t extra)
{
	if (sb->failed)
		return false;
	if (sb->cap - sb->len > extra)
		return true;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap - sb->len <= extra) {
		if (cap > SIZE_MAX / 2) {
			sb->failed = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(sb->data, cap);
	if (!p) {
		sb->failed = true;
		return false;
	}
	sb->data = p;
	sb->cap = cap;
	return true;
}

void pl_sb_put(struct pl_strbuf *sb, const char *s, size_t n)
{
	if (!sb_reserve(sb, n))
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void pl_sb_puts(struct pl_strbuf *sb, const char *s)
{
	pl_sb_put(sb, s, strlen(s));
}

void pl_sb_putc(struct pl_strbuf *sb, char c)
{
	if (!sb_reserve(sb, 1))
		return;
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

void pl_sb_vprintf(struct pl_strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if (!sb_reserve(sb, (size_t)n))
		return;
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void pl_sb_printf(struct pl_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pl_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *pl_sb_copy_from_(const struct pl_strbuf *sb, size_t at)
{
	char *c = malloc(sb->len - at);
	if (c)
		memcpy(c, sb->data + at, sb->len - at);
	return c;
}

void pl_sb_free(struct pl_strbuf *sb)
{
	free(sb->data);
	memset(sb, 0, sizeof *sb);
}

/* The digits of 0..99, two by two. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Counts the digits first, then writes them from the last, two at a time:
 * half the divisions, and no reversal. */
size_t pl_fmt_u64(char *buf, uint64_t v)
{
	size_t n = 1;
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	char *p = buf + n;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p - 2, digit_pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return n;
}

char *pl_fmt_i64_back_(char *end, int64_t v)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	char *p = end;
	for (; u >= 100; u /= 100)
		memcpy(p -= 2, digit_pairs + 2 * (u % 100), 2);
	if (u >= 10)
		memcpy(p -= 2, digit_pairs + 2 * u, 2);
	else
		*--p = (char)('0' + u);
	if (v < 0)
		*--p = '-';
	return p;
}

size_t pl_fmt_i64(char *buf, int64_t v)
{
	if (v < 0) {
		buf[0] = '-';
		return 1 + pl_fmt_u64(buf + 1, (uint64_t)0 - (uint64_t)v);
	}
	return pl_fmt_u64(buf, (uint64_t)v);
}

char *pl_u128_format(uint64_t hi, uint64_t lo, char *buf)
{
	pl_u128 v = pl_u128_make(hi, lo);
	char tmp[PL_U128_DEC_BUFSIZE];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return buf;
}

int pl_u128_add(uint64_t *hi, uint64_t *lo, uint64_t add_hi, uint64_t add_lo)
{
	pl_u128 a = pl_u128_make(*hi, *lo), b = pl_u128_make(add_hi, add_lo);
	pl_u128 s = a + b;
	if (s < a)
		return PL_EOVERFLOW;
	*hi = (uint64_t)(s >> 64);
	*lo = (uint64_t)s;
	return PL_OK;
}

int pl_utf8_check_(const unsigned char *s, size_t avail, size_t *len)
{
	unsigned c = s[0];
	unsigned min;
	size_t n;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return PL_UTF8_BAD_LEAD;
	}
	if (avail < n)
		return PL_UTF8_TRUNCATED;
	unsigned cp = c & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return PL_UTF8_BAD_SEQUENCE;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, beyond Unicode, surrogates */
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return PL_UTF8_BAD_SEQUENCE;
	*len = n;
	return PL_UTF8_OK;
}

/* 1 for the bytes a string literal holds as themselves: printable ASCII
 * but '"' and '\\' (others are escapes or UTF-8, checked one by one). */
const unsigned char pl_str_plain_[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
};

const char *pl_str_plain_end_(const char *s, const char *end)
{
#ifdef __SSE2__
	/* sixteen bytes a step: as signed bytes, those below ' ' (bytes from
	 * 0x80 up are negative), 0x7f, '"' and '\\' are not plain */
	const __m128i space = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7f),
	              quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	for (; end - s >= 16; s += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, del)),
		                           _mm_or_si128(_mm_cmpeq_epi8(x, quote),
		                                        _mm_cmpeq_epi8(x, backslash)));
		unsigned mask = (unsigned)_mm_movemask_epi8(bad);
		if (mask)
			return s + __builtin_ctz(mask);
	}
#endif
	/* eight bytes a step while none is below ' ' or above '~', a '"' or a
	 * '\\' (tests of a whole word at once), then byte by byte */
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
	for (uint64_t x, q, b; end - s >= 8; s += 8) {
		memcpy(&x, s, 8);
		q = x ^ ones * '"', b = x ^ ones * '\\';
		if ((((x - ones * 0x20) & ~x) | ((x + ones) | x) | ((q - ones) & ~q) |
		     ((b - ones) & ~b)) & high)
			break;
	}
	const unsigned char *u = (const unsigned char *)s;
	while ((const char *)u < end && pl_str_plain_[*u])
		u++;
	return (const char *)u;
}
