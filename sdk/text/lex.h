/* SPDX-License-Identifier: MIT */
/* sdk/text/lex.h — the tokens of the .pir text form (passline-pir(5)), for the
 * reader. The first error stops reading: it is added to the diagnostics and
 * control returns by longjmp to the reader's entry point (lx->fail).
 */
#ifndef PL_LEX_H
#define PL_LEX_H

#include "ir/internal.h"

#include <setjmp.h>

enum pl_tok {
	PL_T_EOF,
	PL_T_GLOBAL, /* @name (s, len: the name, without the sigil) */
	PL_T_LOCAL,  /* %name */
	PL_T_IDENT,  /* bare word: op names, keys, dtypes, keywords */
	PL_T_INT,
	PL_T_FLOAT,
	PL_T_STRING, /* s, len: the decoded bytes (in the text, or in the
	              * lexer's buffer when there were escapes) */
	PL_T_LPAREN,
	PL_T_RPAREN,
	PL_T_LBRACE,
	PL_T_RBRACE,
	PL_T_LBRACKET,
	PL_T_RBRACKET,
	PL_T_COMMA,
	PL_T_EQUAL,
	PL_T_COLON
};

struct pl_token {
	enum pl_tok kind;
	const char *s;
	size_t len;
	uint32_t line, col;
	int64_t i;
	double f;
};

#define PL_LEX_OPEN_MAX 16

struct pl_lexer {
	const char *p, *end;    /* what is left of the text */
	const char *line_start; /* for columns */
	uint32_t line;
	const char *file;
	pl_diags *diags;
	jmp_buf fail;
	int status;             /* why it failed: PL_EPARSE or PL_ENOMEM */
	struct pl_token tok;    /* the current token */
	struct pl_strbuf str;   /* a string literal, decoded */
	/* the constructs open where the text is, innermost last, for "file
	 * ends inside ..." (deeper ones are counted, not kept) */
	struct pl_lex_open {
		const char *what;
		uint32_t line, col;
	} open[PL_LEX_OPEN_MAX];
	unsigned nopen;
};

/* The parser opens a construct (what: "attribute list") at line:col, and
 * closes the innermost one; an error at the end of the text names it. */
static inline void pl_lex_open_(struct pl_lexer *lx, const char *what, uint32_t line,
                                uint32_t col)
{
	if (lx->nopen < PL_LEX_OPEN_MAX)
		lx->open[lx->nopen] = (struct pl_lex_open){what, line, col};
	lx->nopen++;
}
static inline void pl_lex_close_(struct pl_lexer *lx)
{
	lx->nopen--;
}

/* Starts at text (a UTF-8 byte order mark there is skipped); the first
 * token is read by the first pl_lex_next_. */
PL_INTERNAL void pl_lex_init_(struct pl_lexer *lx, const char *text, size_t len,
                              const char *file, pl_diags *diags);
PL_INTERNAL void pl_lex_free_(struct pl_lexer *lx);
/* The token of each one-byte punctuator; PL_T_EOF (0) for other bytes. */
PL_INTERNAL extern const unsigned char pl_lex_punct_[256];
/* The token at s, which is not a punctuator after one blank. */
PL_INTERNAL void pl_lex_token_(struct pl_lexer *lx, const char *s);

/* The next token into lx->tok. Half the tokens are punctuators after at
 * most one space: read inline, the rest by pl_lex_token_. */
static inline void pl_lex_next_(struct pl_lexer *lx)
{
	const char *s = lx->p, *end = lx->end;
	if (s < end && *s == ' ')
		s++;
	unsigned char kind;
	if (s == end || !(kind = pl_lex_punct_[(unsigned char)*s])) {
		pl_lex_token_(lx, s);
		return;
	}
	lx->tok.kind = (enum pl_tok)kind;
	lx->tok.s = s;
	lx->tok.len = 1;
	lx->tok.line = lx->line;
	lx->tok.col = (uint32_t)(s - lx->line_start) + 1;
	lx->p = s + 1;
}

/* When the next token is the punctuator c after at most one blank (as
 * pl_lex_next_ reads it inline), passes over it and returns true: the
 * token after it is read by the next pl_lex_next_. Else changes nothing. */
static inline bool pl_lex_skip_(struct pl_lexer *lx, char c)
{
	const char *s = lx->p;
	s += s < lx->end && *s == ' ';
	if (s < lx->end && *s == c) {
		lx->p = s + 1;
		return true;
	}
	return false;
}

PL_INTERNAL _Noreturn void pl_lex_fail_(struct pl_lexer *lx, int status);
PL_INTERNAL _Noreturn void pl_lex_error_(struct pl_lexer *lx, uint32_t line, uint32_t col,
                                         const char *fmt, ...) PL_PRINTF(4, 5);
/* "expected WHAT, found TOKEN" at the current token. */
PL_INTERNAL _Noreturn void pl_lex_expected_(struct pl_lexer *lx, const char *what);
/* The token as a message quotes it. */
PL_INTERNAL const char *pl_lex_describe_(const struct pl_token *t, char *buf, size_t n);

static inline bool pl_lex_is_word_(const struct pl_lexer *lx, const char *word, size_t n)
{
	return lx->tok.kind == PL_T_IDENT && lx->tok.len == n && memcmp(lx->tok.s, word, n) == 0;
}

#endif
