/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo.h — what the XLA HLO reader and writer share: element type
 * names, the hlo_* keys (hlo_keys.h), and the default text of a shape. Nothing
 * here is installed. */
#ifndef PL_HLO_H
#define PL_HLO_H

#include "ir/hlo_keys.h"
#include "ir/internal.h"

/* HLO spells a few element types differently from the IR. */
static inline const char *pl_hlo_dtype_name_(pl_dtype dt)
{
	switch (dt) {
	case PL_DTYPE_BOOL: return "pred";
	case PL_DTYPE_I8: return "s8";
	case PL_DTYPE_I16: return "s16";
	case PL_DTYPE_I32: return "s32";
	case PL_DTYPE_I64: return "s64";
	default: return pl_dtype_name(dt);
	}
}

static inline pl_dtype pl_hlo_dtype_from_name_(const char *s, size_t len)
{
	if (len == 4 && memcmp(s, "pred", 4) == 0)
		return PL_DTYPE_BOOL;
	if (len >= 2 && s[0] == 's' && s[1] >= '0' && s[1] <= '9') {
		if (len == 2 && s[1] == '8') return PL_DTYPE_I8;
		if (len == 3 && memcmp(s, "s16", 3) == 0) return PL_DTYPE_I16;
		if (len == 3 && memcmp(s, "s32", 3) == 0) return PL_DTYPE_I32;
		if (len == 3 && memcmp(s, "s64", 3) == 0) return PL_DTYPE_I64;
	}
	/* the common floating and unsigned types at once */
	if (len == 3 && (s[0] == 'f' || s[0] == 'u')) {
		bool f = s[0] == 'f';
		if (s[1] == '3' && s[2] == '2') return f ? PL_DTYPE_F32 : PL_DTYPE_U32;
		if (s[1] == '1' && s[2] == '6') return f ? PL_DTYPE_F16 : PL_DTYPE_U16;
		if (s[1] == '6' && s[2] == '4') return f ? PL_DTYPE_F64 : PL_DTYPE_U64;
	}
	if (len == 4 && memcmp(s, "bf16", 4) == 0)
		return PL_DTYPE_BF16;
	/* the IR's own spellings of these are not HLO's */
	if (len == 4 && memcmp(s, "bool", 4) == 0)
		return PL_DTYPE_INVALID;
	if (len >= 2 && s[0] == 'i' && s[1] >= '0' && s[1] <= '9')
		return PL_DTYPE_INVALID;
	return pl_dtype_from_name(s, len);
}

/* The default layout of an array of rank dimensions, as XLA prints it:
 * {2,1,0}, minor to major; nothing for a scalar. */
static inline void pl_hlo_put_default_layout_(struct pl_strbuf *sb, uint32_t rank)
{
	if (!rank)
		return;
	char num[24];
	pl_sb_putc(sb, '{');
	for (uint32_t i = rank; i-- > 0;) {
		pl_sb_put(sb, num, pl_fmt_i64(num, (int64_t)i));
		if (i)
			pl_sb_putc(sb, ',');
	}
	pl_sb_putc(sb, '}');
}

/* The text XLA prints for an array of type t with the default layout:
 * f32[4,8]{1,0}; a scalar has no layout. */
static inline void pl_hlo_put_type_(struct pl_strbuf *sb, const pl_type *t)
{
	pl_sb_puts(sb, pl_hlo_dtype_name_((pl_dtype)t->dtype));
	pl_sb_putc(sb, '[');
	char num[24];
	for (uint32_t i = 0; i < t->rank; i++) {
		if (i)
			pl_sb_putc(sb, ',');
		pl_sb_put(sb, num, pl_fmt_i64(num, t->dims[i]));
	}
	pl_sb_putc(sb, ']');
	pl_hlo_put_default_layout_(sb, t->rank);
}

/* A number in decimal. */
static inline void pl_hlo_put_u64_(struct pl_strbuf *sb, uint64_t v)
{
	char num[24];
	pl_sb_put(sb, num, pl_fmt_u64(num, v));
}

/* The "index=N" comment XLA puts before every fifth tuple element. */
static inline void pl_hlo_put_sep_(struct pl_strbuf *sb, size_t i)
{
	if (i == 0)
		return;
	pl_sb_puts(sb, ", ");
	if (i % 5 == 0) {
		pl_sb_puts(sb, "/*index=");
		pl_hlo_put_u64_(sb, i);
		pl_sb_puts(sb, "*/");
	}
}

/* A flat tuple of n arrays, as the writer prints it. */
static inline void pl_hlo_put_tuple_(struct pl_strbuf *sb, const pl_type *const *t, size_t n)
{
	pl_sb_putc(sb, '(');
	for (size_t i = 0; i < n; i++) {
		pl_hlo_put_sep_(sb, i);
		pl_hlo_put_type_(sb, t[i]);
	}
	pl_sb_putc(sb, ')');
}

/* The shape of n values, as the writer prints it when nothing else is
 * recorded: one array, or a flat tuple of them. */
static inline void pl_hlo_put_types_(struct pl_strbuf *sb, const pl_type *const *t, size_t n)
{
	if (n == 1)
		pl_hlo_put_type_(sb, t[0]);
	else
		pl_hlo_put_tuple_(sb, t, n);
}

#endif
