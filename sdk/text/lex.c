/* SPDX-License-Identifier: MIT */
/* sdk/text/lex.c — the tokens of the .pir text form (see lex.h).
 *
 * White space, newlines and "//" comments separate tokens. Every byte is
 * classified by one table lookup; names and words are scanned four bytes
 * per bound check. Any byte the grammar has no place for is an error that
 * names its line and column.
 */
#include "text/lex.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Character classes, one table lookup per byte. C_SEP: a byte that may
 * begin what separates tokens (a blank, a newline, the "/" of a comment). */
enum { C_NAME = 1, C_IDENT = 2, C_IDENT_START = 4, C_DIGIT = 8, C_BLANK = 16, C_SEP = 32 };
static const unsigned char cclass[256] = {
	 0,  0,  0,  0,  0,  0,  0,  0,  0, 48, 32,  0,  0, 48,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	48,  0,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,  1,  3, 32,
	11, 11, 11, 11, 11, 11, 11, 11, 11, 11,  0,  0,  0,  0,  0,  0,
	 0,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
	 7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  7,
	 0,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
	 7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  0,
};

const unsigned char pl_lex_punct_[256] = {
	['('] = PL_T_LPAREN, [')'] = PL_T_RPAREN, ['{'] = PL_T_LBRACE, ['}'] = PL_T_RBRACE,
	['['] = PL_T_LBRACKET, [']'] = PL_T_RBRACKET, [','] = PL_T_COMMA, ['='] = PL_T_EQUAL,
	[':'] = PL_T_COLON,
};

static inline bool is_digit(unsigned char c) { return cclass[c] & C_DIGIT; }

/* The end of the run of bytes of class cls that starts at q. */
static inline const char *scan_class(const char *q, const char *end, unsigned cls)
{
	while (end - q >= 4) {
		if (!(cclass[(unsigned char)q[0]] & cls))
			return q;
		if (!(cclass[(unsigned char)q[1]] & cls))
			return q + 1;
		if (!(cclass[(unsigned char)q[2]] & cls))
			return q + 2;
		if (!(cclass[(unsigned char)q[3]] & cls))
			return q + 3;
		q += 4;
	}
	while (q < end && (cclass[(unsigned char)*q] & cls))
		q++;
	return q;
}

void pl_lex_init_(struct pl_lexer *lx, const char *text, size_t len, const char *file,
                  pl_diags *diags)
{
	memset(lx, 0, sizeof *lx);
	lx->p = lx->line_start = text;
	lx->end = text + len;
	lx->line = 1;
	lx->file = file;
	lx->diags = diags;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		lx->p = lx->line_start = text + 3;
}

void pl_lex_free_(struct pl_lexer *lx)
{
	pl_sb_free(&lx->str);
}

_Noreturn void pl_lex_fail_(struct pl_lexer *lx, int status)
{
	lx->status = status;
	longjmp(lx->fail, 1);
}

/* An error where the text ends: "file ends inside the WHAT (opened at
 * L:C): expected ...", naming the innermost open construct. */
static void add_at_end(struct pl_lexer *lx, uint32_t line, uint32_t col, const char *fmt,
                       va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	static const char found[] = ", found end of input";
	size_t n = strlen(msg), fl = sizeof found - 1;
	if (n >= fl && !strcmp(msg + n - fl, found))
		msg[n - fl] = 0;
	if (!lx->nopen) {
		pl_diags_add(lx->diags, PL_SEV_ERROR, lx->file, line, col, "file ends: %s", msg);
		return;
	}
	const struct pl_lex_open *o =
	        &lx->open[(lx->nopen < PL_LEX_OPEN_MAX ? lx->nopen : PL_LEX_OPEN_MAX) - 1];
	pl_diags_add(lx->diags, PL_SEV_ERROR, lx->file, line, col,
	             "file ends inside the %s (opened at %u:%u): %s", o->what, o->line, o->col, msg);
}

_Noreturn void pl_lex_error_(struct pl_lexer *lx, uint32_t line, uint32_t col,
                             const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* the token at the error is the end of the text: say so */
	if (lx->tok.kind == PL_T_EOF && lx->tok.line == line && lx->tok.col == col)
		add_at_end(lx, line, col, fmt, ap);
	else
		pl_diags_vadd_(lx->diags, PL_SEV_ERROR, lx->file, line, col, fmt, ap);
	va_end(ap);
	pl_lex_fail_(lx, PL_EPARSE);
}


static uint32_t col_of(const struct pl_lexer *lx, const char *at)
{
	size_t c = (size_t)(at - lx->line_start) + 1;
	return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

#define ERROR_AT(lx, at, ...) pl_lex_error_((lx), (lx)->line, col_of((lx), (at)), __VA_ARGS__)

/* The text ends inside the string that opened at s. */
static _Noreturn void string_ends(struct pl_lexer *lx, const char *s)
{
	pl_lex_open_(lx, "string", lx->line, col_of(lx, s));
	lx->tok.kind = PL_T_EOF;
	lx->tok.line = lx->line;
	lx->tok.col = col_of(lx, lx->end);
	pl_lex_error_(lx, lx->tok.line, lx->tok.col, "expected the closing '\"'");
}

const char *pl_lex_describe_(const struct pl_token *t, char *buf, size_t n)
{
	switch (t->kind) {
	case PL_T_EOF: return "end of input";
	case PL_T_STRING: return "a string";
	case PL_T_GLOBAL:
	case PL_T_LOCAL: {
		char sigil = t->kind == PL_T_GLOBAL ? '@' : '%';
		if (t->len > 40)
			snprintf(buf, n, "'%c%.40s...'", sigil, t->s);
		else
			snprintf(buf, n, "'%c%.*s'", sigil, (int)t->len, t->s);
		return buf;
	}
	case PL_T_INT:
	case PL_T_FLOAT:
	case PL_T_IDENT:
		if (t->len > 40)
			snprintf(buf, n, "'%.40s...'", t->s);
		else
			snprintf(buf, n, "'%.*s'", (int)t->len, t->s);
		return buf;
	default:
		snprintf(buf, n, "'%c'", t->s[0]);
		return buf;
	}
}

_Noreturn void pl_lex_expected_(struct pl_lexer *lx, const char *what)
{
	char buf[64];
	pl_lex_error_(lx, lx->tok.line, lx->tok.col, "expected %s, found %s", what,
	              pl_lex_describe_(&lx->tok, buf, sizeof buf));
}

/* The length of the UTF-8 sequence at s, or an error. */
static size_t check_utf8(struct pl_lexer *lx, const char *s)
{
	size_t len = 0;
	switch (pl_utf8_check_((const unsigned char *)s, (size_t)(lx->end - s), &len)) {
	case PL_UTF8_OK:
		return len;
	case PL_UTF8_BAD_LEAD:
		ERROR_AT(lx, s, "invalid UTF-8 byte 0x%02x", (unsigned char)*s);
	case PL_UTF8_TRUNCATED: /* the text ends inside the sequence */
		lx->tok.kind = PL_T_EOF;
		lx->tok.line = lx->line;
		lx->tok.col = col_of(lx, s);
		ERROR_AT(lx, s, "truncated UTF-8 sequence");
	default:
		ERROR_AT(lx, s, "invalid UTF-8 sequence");
	}
}

static void check_len(struct pl_lexer *lx, const char *start, size_t len)
{
	if (len > PL_MAX_TOKEN_BYTES)
		ERROR_AT(lx, start, "token longer than %u bytes", PL_MAX_TOKEN_BYTES);
}

/* The end of the comment whose "//" is at s: its newline, or the end. */
static __attribute__((noinline)) const char *skip_comment(struct pl_lexer *lx, const char *s)
{
	for (s += 2; s < lx->end && *s != '\n';) {
		unsigned char u = (unsigned char)*s;
		if (u == 0)
			ERROR_AT(lx, s, "NUL byte in input");
		s += u >= 0x80 ? check_utf8(lx, s) : 1;
	}
	return s;
}

/* The double that s..end means, when a fast path gives it exactly: at
 * most 15 significant digits and a power of ten up to 22 are both exact
 * doubles, so one division or multiplication rounds as strtod does
 * (Clinger's fast path). false: ask strtod. */
static bool exact_double(const char *s, const char *end, double *out)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	bool neg = *s == '-';
	uint64_t mant = 0;
	int digits = 0, exp10 = 0;
	const char *q = s + neg;
	for (bool frac = false; q < end; q++) {
		if (*q == '.') {
			frac = true;
			continue;
		}
		if (!is_digit((unsigned char)*q))
			break;
		if (mant || *q != '0')
			digits++;
		if (digits > 15)
			return false;
		mant = mant * 10 + (uint64_t)(*q - '0');
		exp10 -= frac;
	}
	if (q < end) { /* an exponent: 'e', a sign, digits */
		bool eneg = q[1] == '-';
		int e = 0;
		for (q += 1 + (q[1] == '-' || q[1] == '+'); q < end; q++)
			if ((e = e * 10 + (*q - '0')) > 400)
				return false;
		exp10 += eneg ? -e : e;
	}
	if (exp10 < -22 || exp10 > 22)
		return false;
	double v = (double)mant;
	v = exp10 < 0 ? v / pow10[-exp10] : v * pow10[exp10];
	*out = neg ? -v : v;
	return true;
}

/* The double the FLOAT at s..q means. */
static __attribute__((noinline)) double float_value(struct pl_lexer *lx, const char *s,
                                                    const char *q)
{
	double f;
	if (exact_double(s, q, &f))
		return f;
	char buf[512];
	size_t len = (size_t)(q - s);
	if (len >= sizeof buf)
		ERROR_AT(lx, s, "float literal longer than %zu characters", sizeof buf - 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	f = strtod(buf, NULL);
	if (errno == ERANGE && (f == HUGE_VAL || f == -HUGE_VAL))
		ERROR_AT(lx, s, "float literal out of range");
	return f;
}

/* INT := -?[0-9]+   FLOAT := C-style, with '.' or an exponent */
static __attribute__((noinline)) void lex_number(struct pl_lexer *lx, const char *s)
{
	struct pl_token *t = &lx->tok;
	const char *q = s, *end = lx->end;
	bool neg = *q == '-';
	q += neg;
	/* the integer part, converted as it is scanned */
	uint64_t v = 0;
	const char *digits = q;
	for (; q < end && is_digit((unsigned char)*q); q++)
		v = v * 10 + (uint64_t)(*q - '0'); /* wraps past 19 digits: checked below */
	size_t ndigits = (size_t)(q - digits);
	bool is_float = false;
	if (q < end && *q == '.') {
		is_float = true;
		const char *frac = ++q;
		while (q < end && is_digit((unsigned char)*q))
			q++;
		ndigits += (size_t)(q - frac);
	}
	/* "-e5" and "-." have no digit (strtod would read them as 0.0) */
	if (ndigits == 0) {
		t->kind = q == end ? PL_T_EOF : t->kind; /* the end cut it short */
		ERROR_AT(lx, s, "expected a digit after '-'");
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e < end && is_digit((unsigned char)*e)) {
			is_float = true;
			for (q = e; q < end && is_digit((unsigned char)*q);)
				q++;
		}
	}
	if (q < end && ((cclass[(unsigned char)*q] & C_IDENT) || *q == '-')) {
		/* an exponent the end cut short: "1e", "1e-" */
		const char *e = q + (*q == 'e' || *q == 'E');
		e += e > q && e < end && (*e == '+' || *e == '-');
		t->kind = e > q && e == end ? PL_T_EOF : t->kind;
		ERROR_AT(lx, t->kind == PL_T_EOF ? s : q, "unexpected character '%c' in number", *q);
	}
	t->s = s;
	t->len = (size_t)(q - s);
	check_len(lx, s, t->len);
	if (is_float) {
		t->kind = PL_T_FLOAT;
		t->f = float_value(lx, s, q);
	} else {
		if (ndigits > 18) { /* 19 digits and more may not fit: again, checked */
			v = 0;
			for (const char *d = digits; d < q; d++) {
				unsigned digit = (unsigned)(*d - '0');
				if (v > (UINT64_MAX - digit) / 10)
					ERROR_AT(lx, s, "integer literal out of range of int64");
				v = v * 10 + digit;
			}
		}
		if (v > (uint64_t)INT64_MAX + neg)
			ERROR_AT(lx, s, "integer literal out of range of int64");
		t->kind = PL_T_INT;
		t->i = neg ? (int64_t)(0 - v) : (int64_t)v;
	}
	lx->p = q;
}

static unsigned hexval(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A' + 10);
	return 16;
}

/* STRING := "..." with \" \\ \n \t \xHH escapes; decoded into lx->str. */
static __attribute__((noinline)) void lex_string(struct pl_lexer *lx, const char *s)
{
	struct pl_strbuf *sb = &lx->str;
	const char *q = s + 1, *end = lx->end;
	/* most strings hold no escape: the token is then their text, in place */
	const char *plain = pl_str_plain_end_(q, end);
	if (plain < end && *plain == '"') {
		if ((size_t)(plain - q) > PL_MAX_TOKEN_BYTES)
			ERROR_AT(lx, s, "string longer than %u bytes", PL_MAX_TOKEN_BYTES);
		lx->tok.kind = PL_T_STRING;
		lx->tok.s = q;
		lx->tok.len = (size_t)(plain - q);
		lx->p = plain + 1;
		return;
	}
	sb->len = 0;
	for (;;) {
		/* a run of plain bytes in one copy */
		const char *run = q;
		q = pl_str_plain_end_(q, end);
		pl_sb_put(sb, run, (size_t)(q - run));
		if (q == end)
			string_ends(lx, s);
		unsigned char c = (unsigned char)*q;
		if (c == '"')
			break;
		if (c == '\\') {
			char e = q + 1 < end ? q[1] : '\0';
			if (q + 1 == end)
				string_ends(lx, s);
			if (e == '"' || e == '\\' || e == 'n' || e == 't') {
				pl_sb_putc(sb, e == 'n' ? '\n' : e == 't' ? '\t' : e);
				q += 2;
			} else if (e == 'x') {
				unsigned hi = q + 2 < end ? hexval(q[2]) : 16;
				unsigned lo = q + 3 < end ? hexval(q[3]) : 16;
				if ((q + 2 < end && hi > 15) || (q + 3 < end && lo > 15))
					ERROR_AT(lx, q, "expected two hex digits after '\\x'");
				if (q + 3 >= end)
					string_ends(lx, s);
				pl_sb_putc(sb, (char)(hi * 16 + lo));
				q += 4;
			} else {
				ERROR_AT(lx, q, "unknown escape sequence '\\%c'",
				         (unsigned char)e >= 0x20 && (unsigned char)e < 0x7f ? e : '?');
			}
		} else if (c == 0) {
			ERROR_AT(lx, q, "NUL byte in input");
		} else if (c == '\n') {
			ERROR_AT(lx, s, "unterminated string (newline in string)");
		} else if (c == '\t' || c == 0x7f) {
			pl_sb_putc(sb, (char)c);
			q++;
		} else if (c < 0x20) {
			ERROR_AT(lx, q, "control character 0x%02x in string; use an escape", c);
		} else { /* c >= 0x80 */
			size_t n = check_utf8(lx, q);
			pl_sb_put(sb, q, n);
			q += n;
		}
		if (sb->len > PL_MAX_TOKEN_BYTES)
			ERROR_AT(lx, s, "string longer than %u bytes", PL_MAX_TOKEN_BYTES);
	}
	if (sb->len > PL_MAX_TOKEN_BYTES)
		ERROR_AT(lx, s, "string longer than %u bytes", PL_MAX_TOKEN_BYTES);
	if (sb->failed)
		pl_lex_fail_(lx, PL_ENOMEM);
	lx->tok.kind = PL_T_STRING;
	lx->tok.s = sb->data ? sb->data : "";
	lx->tok.len = sb->len;
	lx->p = q + 1;
}

/* The end of the blanks, newlines and comments at s. */
static __attribute__((noinline)) const char *skip_space(struct pl_lexer *lx, const char *s)
{
	const char *end = lx->end;
	while (s < end && (cclass[(unsigned char)*s] & C_SEP)) {
		if (cclass[(unsigned char)*s] & C_BLANK) {
			s++;
		} else if (*s == '\n') {
			if (lx->line == UINT32_MAX)
				ERROR_AT(lx, s + 1, "input has more than %u lines", UINT32_MAX);
			lx->line++;
			lx->line_start = ++s;
		} else if (*s == '/' && s + 1 < end && s[1] == '/') {
			s = skip_comment(lx, s);
		} else {
			break;
		}
	}
	return s;
}

/* Any token but a punctuator, at s, after blanks, newlines and comments. */
void pl_lex_token_(struct pl_lexer *lx, const char *s)
{
	const char *end = lx->end;
	/* one test when there are none */
	if (s < end && (cclass[(unsigned char)*s] & C_SEP))
		s = skip_space(lx, s);
	struct pl_token *t = &lx->tok;
	t->line = lx->line;
	t->col = col_of(lx, s);
	t->s = s;
	if (s == end) {
		t->kind = PL_T_EOF;
		t->len = 0;
		lx->p = s;
		return;
	}
	t->kind = PL_T_INT; /* until read: any kind but the end's */
	unsigned char c = (unsigned char)*s;
	/* most common first: punctuators rarely get here (see pl_lex_next_) */
	if (c == '%' || c == '@') {
		const char *q = scan_class(s + 1, end, C_NAME);
		if (q == s + 1) {
			t->kind = q == end ? PL_T_EOF : t->kind; /* the text ends there */
			ERROR_AT(lx, s, "expected a name after '%c'", c);
		}
		t->kind = c == '@' ? PL_T_GLOBAL : PL_T_LOCAL;
		t->s = s + 1;
		t->len = (size_t)(q - s - 1);
		check_len(lx, s, t->len);
		lx->p = q;
	} else if (cclass[c] & C_IDENT_START) {
		const char *q = scan_class(s + 1, end, C_IDENT);
		t->kind = PL_T_IDENT;
		t->len = (size_t)(q - s);
		check_len(lx, s, t->len);
		lx->p = q;
	} else if (is_digit(c)) {
		/* the common case inline: a plain INT of at most 18 digits (it
		 * fits); anything else is lex_number's */
		uint64_t v = (uint64_t)(c - '0');
		const char *q = s + 1;
		for (; q < end && is_digit((unsigned char)*q); q++)
			v = v * 10 + (uint64_t)(*q - '0');
		if (q - s > 18 || (q < end && ((cclass[(unsigned char)*q] & C_IDENT) || *q == '-'))) {
			lex_number(lx, s);
			return;
		}
		t->kind = PL_T_INT;
		t->len = (size_t)(q - s);
		t->i = (int64_t)v;
		lx->p = q;
	} else if (pl_lex_punct_[c]) {
		t->kind = (enum pl_tok)pl_lex_punct_[c];
		t->len = 1;
		lx->p = s + 1;
	} else if (c == '-' ||
	           (c == '.' && s + 1 < end && is_digit((unsigned char)s[1]))) {
		lex_number(lx, s);
	} else if (c == '"') {
		lex_string(lx, s);
	} else if (c == 0) {
		ERROR_AT(lx, s, "NUL byte in input");
	} else if (c >= 0x80) {
		check_utf8(lx, s);
		ERROR_AT(lx, s, "unexpected non-ASCII character");
	} else if (c < 0x20 || c == 0x7f) {
		ERROR_AT(lx, s, "unexpected control character 0x%02x", c);
	} else {
		if ((c == '/' || c == '.') && s + 1 == end) /* a comment or ".5" cut short */
			t->kind = PL_T_EOF;
		ERROR_AT(lx, s, "unexpected character '%c'", c);
	}
}
