/* SPDX-License-Identifier: MIT */
/* sdk/parse.c — the .pir reader (grammar: passline-pir(5)).
 *
 * One pass over the text, no backtracking except one: a comma-separated
 * list of values followed by "=" always begins the next instruction, so
 * such a list, once read, is handed to the next instruction as its results.
 * The first error stops the parse (longjmp back to the entry point), and the
 * half-built module is freed: the input is accepted whole or not at all.
 * Uses must follow definitions, so operands are resolved as they are read.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum tok {
	T_EOF,
	T_GLOBAL,  /* @name */
	T_LOCAL,   /* %name */
	T_IDENT,   /* bare word: op names, keys, dtypes, keywords */
	T_INT,
	T_FLOAT,
	T_STRING,
	T_LPAREN,
	T_RPAREN,
	T_LBRACE,
	T_RBRACE,
	T_LBRACKET,
	T_RBRACKET,
	T_COMMA,
	T_EQUAL,
	T_COLON
};

struct token {
	enum tok kind;
	const char *s; /* text (for T_STRING: the decoded bytes in p->str) */
	size_t len;
	uint32_t line, col;
	int64_t i;
	double f;
};

/* A name read from a list, before we know what the list is. */
struct local_ref {
	const char *s;
	size_t len;
	uint32_t line, col;
};

/* A memo of spans of text already read: the same text always gives the same
 * type or dictionary, so a repeat is looked up, not read again. Modules
 * repeat these heavily (every all_gather of a layer has the same
 * attributes). Bounded, so a module of distinct texts costs little. */
struct memo_entry {
	uint64_t hash;
	char *text; /* a copy: the input's pages may be released */
	uint32_t len;
	uint16_t n;
	const void *val;
};

struct memo {
	struct memo_entry *slots;
	size_t cap, count, bytes;
};

enum { MEMO_MAX_ENTRIES = 1 << 16, MEMO_MAX_BYTES = 16 << 20, MEMO_MAX_SPAN = 4096 };
enum { OPS_SEEN_SLOTS = 128 }; /* even */
enum { RELEASE_STRIDE = 64 << 10 };
enum { NAMES_SEEN_SLOTS = 4096 };

struct sym_slot {
	uint32_t gen;
	uint32_t tag; /* the name's hash; also where the slot probing starts */
	pl_value *v;
};

struct parser {
	const char *src, *p, *end;
	const char *prev_end; /* where the token before tok ended */
	const char *line_start;
	uint32_t line;
	const char *file;
	pl_diags *diags;
	pl_module *m;
	/* where names, strings, types and lists are interned: m, or a module
	 * both halves of a file share (see parse_halves), under its lock */
	pl_module *im;
	pthread_mutex_t *im_lock;
	jmp_buf fail;
	int status;
	struct token tok;
	struct pl_strbuf str; /* decoded string literal */

	/* Releases text already parsed (see parse_file); asked again once the
	 * parse is past release_next. */
	void (*release)(void *ud, const char *upto);
	void *release_ud;
	const char *release_next;

	/* scratch, reused across instructions */
	struct local_ref *refs;
	size_t nrefs, refs_cap;
	struct local_ref *pending; /* results read ahead for the next inst */
	size_t npending, pending_cap;
	bool have_pending;
	pl_value **opvals;
	size_t opvals_cap;
	const pl_type **types;
	size_t ntypes, types_cap;
	struct pl_attr_entry *entries;
	size_t nentries, entries_cap;
	struct local_ref *entry_keys; /* where each entry's key was written */
	size_t entry_keys_cap;
	pl_attr *elems;
	size_t nelems, elems_cap;
	unsigned depth;

	/* the current function's values by name; a slot is in use when its
	 * generation is the current function's, so a new function needs no
	 * clearing */
	struct sym_slot *sym;
	size_t sym_cap, sym_count;
	uint32_t sym_gen;
	/* types, attribute dictionaries and instruction tails (see parse_tail)
	 * by the text they were read from */
	struct memo types_memo, dicts_memo, tails_memo;
	const char *dict_close; /* the '}' that closed the last dictionary read */
	/* op names by their text (see parse_inst) */
	struct op_seen {
		const char *name; /* interned */
		size_t len;
		pl_op op;
	} ops_seen[OPS_SEEN_SLOTS];
	/* Value names copied lately, by hash: the functions of a module mostly
	 * reuse their names, and values may share a copy (a name is never
	 * written in place). A slot keeps the last name of its hash. */
	struct name_seen {
		const char *name;
		size_t len;
	} names_seen[NAMES_SEEN_SLOTS];
	/* function names of the module */
	const char **fnames;
	size_t fn_cap, fn_count;
};

static _Noreturn void fail_status(struct parser *p, int status)
{
	p->status = status;
	longjmp(p->fail, 1);
}

static _Noreturn PL_PRINTF(4, 5) void error_at(struct parser *p, uint32_t line,
                                               uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pl_diags_vadd_(p->diags, PL_SEV_ERROR, p->file, line, col, fmt, ap);
	va_end(ap);
	fail_status(p, PL_EPARSE);
}

static uint32_t cur_col(const struct parser *p, const char *at)
{
	size_t c = (size_t)(at - p->line_start) + 1;
	return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

#define ERROR_HERE(p, at, ...) error_at((p), (p)->line, cur_col((p), (at)), __VA_ARGS__)

static void *xgrow_slow(struct parser *p, void *ptr, size_t *cap, size_t need, size_t elem)
{
	size_t cap2 = *cap ? *cap : 16;
	while (cap2 < need) {
		if (cap2 > SIZE_MAX / 2 / elem)
			fail_status(p, PL_ENOMEM);
		cap2 *= 2;
	}
	void *q = realloc(ptr, cap2 * elem);
	if (!q)
		fail_status(p, PL_ENOMEM);
	*cap = cap2;
	return q;
}

/* ptr, or a copy with room for need elements of elem bytes */
static inline void *xgrow(struct parser *p, void *ptr, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? ptr : xgrow_slow(p, ptr, cap, need, elem);
}

static void *nn(struct parser *p, const void *ptr)
{
	if (!ptr)
		fail_status(p, PL_ENOMEM);
	return (void *)(uintptr_t)ptr;
}

/* ---- interning, in p->im ---- */

static void im_lock(struct parser *p)
{
	if (p->im_lock)
		pthread_mutex_lock(p->im_lock);
}

static void im_unlock(struct parser *p)
{
	if (p->im_lock)
		pthread_mutex_unlock(p->im_lock);
}

static const char *intern_str(struct parser *p, const char *s, size_t len)
{
	im_lock(p);
	const char *r = pl_intern_str_(p->im, s, len);
	im_unlock(p);
	return nn(p, r);
}

static const pl_type *intern_type(struct parser *p, pl_dtype dtype, const int64_t *dims,
                                  size_t rank)
{
	im_lock(p);
	const pl_type *t = pl_type_get(p->im, dtype, dims, rank);
	im_unlock(p);
	return nn(p, t);
}

static const pl_attr *intern_list(struct parser *p, const pl_attr *elems, size_t n)
{
	im_lock(p);
	const pl_attr *a = pl_attr_intern_list_(p->im, elems, n);
	im_unlock(p);
	return nn(p, a);
}

/* ---- lexer ---- */

/* Character classes of the lexer, one table lookup per byte. */
enum { C_NAME = 1, C_IDENT = 2, C_IDENT_START = 4, C_DIGIT = 8, C_BLANK = 16 };
static const unsigned char cclass[256] = {
	 0,  0,  0,  0,  0,  0,  0,  0,  0, 16,  0,  0,  0, 16,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	16,  0,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,  1,  3,  0,
	11, 11, 11, 11, 11, 11, 11, 11, 11, 11,  0,  0,  0,  0,  0,  0,
	 0,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
	 7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  7,
	 0,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
	 7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  0,
};

/* The token of each one-byte punctuator; T_EOF (0) for every other byte. */
static const unsigned char punct_kind[256] = {
	['('] = T_LPAREN, [')'] = T_RPAREN, ['{'] = T_LBRACE, ['}'] = T_RBRACE,
	['['] = T_LBRACKET, [']'] = T_RBRACKET, [','] = T_COMMA, ['='] = T_EQUAL,
	[':'] = T_COLON,
};

/* The end of the run of bytes of class cls that starts at q. Four bytes
 * are tried per bound check while four remain. */
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

static inline bool is_name_char(unsigned char c) { return cclass[c] & C_NAME; }
static inline bool is_ident_char(unsigned char c) { return cclass[c] & C_IDENT; }
static inline bool is_digit(unsigned char c) { return cclass[c] & C_DIGIT; }

/* Checks the UTF-8 sequence at s; returns its length or reports an error. */
static size_t check_utf8(struct parser *p, const char *s)
{
	size_t len = 0;
	switch (pl_utf8_check_((const unsigned char *)s, (size_t)(p->end - s), &len)) {
	case PL_UTF8_OK:
		return len;
	case PL_UTF8_BAD_LEAD:
		ERROR_HERE(p, s, "invalid UTF-8 byte 0x%02x", (unsigned char)*s);
	case PL_UTF8_TRUNCATED:
		ERROR_HERE(p, s, "truncated UTF-8 sequence");
	default:
		ERROR_HERE(p, s, "invalid UTF-8 sequence");
	}
}

static void skip_space(struct parser *p)
{
	const char *s = p->p;
	for (;;) {
		while (s < p->end && (cclass[(unsigned char)*s] & C_BLANK))
			s++;
		if (s == p->end)
			break;
		char c = *s;
		if (c == '\n') {
			s++;
			if (p->line == UINT32_MAX) {
				p->p = s;
				ERROR_HERE(p, s, "input has more than %u lines", UINT32_MAX);
			}
			p->line++;
			p->line_start = s;
		} else if (c == '/' && s + 1 < p->end && s[1] == '/') {
			s += 2;
			while (s < p->end && *s != '\n') {
				unsigned char u = (unsigned char)*s;
				if (u == 0)
					ERROR_HERE(p, s, "NUL byte in input");
				if (u >= 0x80)
					s += check_utf8(p, s);
				else
					s++;
			}
		} else {
			break;
		}
	}
	p->p = s;
}

static const char *describe(const struct token *t, char *buf, size_t n)
{
	switch (t->kind) {
	case T_EOF: return "end of input";
	case T_STRING: return "a string";
	case T_GLOBAL:
	case T_LOCAL: {
		/* t->s starts after the sigil; show it, as the user wrote it */
		char sigil = t->kind == T_GLOBAL ? '@' : '%';
		if (t->len > 40)
			snprintf(buf, n, "'%c%.40s...'", sigil, t->s);
		else
			snprintf(buf, n, "'%c%.*s'", sigil, (int)t->len, t->s);
		return buf;
	}
	case T_INT:
	case T_FLOAT:
	case T_IDENT:
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

static void check_token_len(struct parser *p, const char *start, size_t len)
{
	if (len > PL_MAX_TOKEN_BYTES)
		ERROR_HERE(p, start, "token longer than %u bytes", PL_MAX_TOKEN_BYTES);
}

static void lex_number(struct parser *p, const char *s)
{
	struct token *t = &p->tok;
	const char *q = s;
	if (*q == '-')
		q++;
	const char *digits = q;
	while (q < p->end && is_digit((unsigned char)*q))
		q++;
	bool is_float = false;
	size_t ndigits = (size_t)(q - digits);
	if (q < p->end && *q == '.') {
		is_float = true;
		q++;
		const char *frac = q;
		while (q < p->end && is_digit((unsigned char)*q))
			q++;
		ndigits += (size_t)(q - frac);
	}
	/* A mantissa needs a digit: without this check "-e5" and "-." were
	 * read as the float 0.0 (strtod converts nothing and returns 0). */
	if (ndigits == 0)
		ERROR_HERE(p, s, "expected a digit after '-'");
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < p->end && (*e == '+' || *e == '-'))
			e++;
		if (e < p->end && is_digit((unsigned char)*e)) {
			is_float = true;
			q = e;
			while (q < p->end && is_digit((unsigned char)*q))
				q++;
		}
	}
	if (q < p->end && (is_ident_char((unsigned char)*q) || *q == '-'))
		ERROR_HERE(p, q, "unexpected character '%c' in number", *q);
	t->s = s;
	t->len = (size_t)(q - s);
	check_token_len(p, s, t->len);
	if (is_float) {
		char buf[512];
		if (t->len >= sizeof buf)
			ERROR_HERE(p, s, "float literal longer than %zu characters", sizeof buf - 1);
		memcpy(buf, s, t->len);
		buf[t->len] = '\0';
		errno = 0;
		double v = strtod(buf, NULL);
		if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
			ERROR_HERE(p, s, "float literal out of range");
		t->kind = T_FLOAT;
		t->f = v;
	} else {
		const char *d = s;
		bool neg = *d == '-';
		if (neg)
			d++;
		uint64_t v = 0;
		for (; d < q; d++) {
			unsigned digit = (unsigned)(*d - '0');
			if (v > (UINT64_MAX - digit) / 10)
				ERROR_HERE(p, s, "integer literal out of range of int64");
			v = v * 10 + digit;
		}
		if ((!neg && v > (uint64_t)INT64_MAX) || (neg && v > (uint64_t)INT64_MAX + 1))
			ERROR_HERE(p, s, "integer literal out of range of int64");
		t->kind = T_INT;
		t->i = neg ? (int64_t)(0 - v) : (int64_t)v;
	}
	p->p = q;
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

static void lex_string(struct parser *p, const char *s)
{
	struct token *t = &p->tok;
	const char *q = s + 1;
	p->str.len = 0;
	for (;;) {
		if (q == p->end)
			ERROR_HERE(p, s, "unterminated string");
		unsigned char c = (unsigned char)*q;
		if (c == '"')
			break;
		if (c == '\\') {
			if (q + 1 == p->end)
				ERROR_HERE(p, s, "unterminated string");
			char e = q[1];
			if (e == '"' || e == '\\') {
				pl_sb_putc(&p->str, e);
				q += 2;
			} else if (e == 'n') {
				pl_sb_putc(&p->str, '\n');
				q += 2;
			} else if (e == 't') {
				pl_sb_putc(&p->str, '\t');
				q += 2;
			} else if (e == 'x') {
				unsigned hi = q + 2 < p->end ? hexval(q[2]) : 16;
				unsigned lo = q + 3 < p->end ? hexval(q[3]) : 16;
				if (hi > 15 || lo > 15)
					ERROR_HERE(p, q, "expected two hex digits after '\\x'");
				pl_sb_putc(&p->str, (char)(hi * 16 + lo));
				q += 4;
			} else {
				ERROR_HERE(p, q, "unknown escape sequence '\\%c'",
				           (unsigned char)e >= 0x20 && (unsigned char)e < 0x7f ? e : '?');
			}
		} else if (c == 0) {
			ERROR_HERE(p, q, "NUL byte in input");
		} else if (c == '\n') {
			ERROR_HERE(p, s, "unterminated string (newline in string)");
		} else if (c < 0x20 && c != '\t') {
			ERROR_HERE(p, q, "control character 0x%02x in string; use an escape", c);
		} else if (c >= 0x80) {
			size_t n = check_utf8(p, q);
			pl_sb_put(&p->str, q, n);
			q += n;
		} else {
			pl_sb_putc(&p->str, (char)c);
			q++;
		}
		if (p->str.len > PL_MAX_TOKEN_BYTES)
			ERROR_HERE(p, s, "string longer than %u bytes", PL_MAX_TOKEN_BYTES);
	}
	if (p->str.failed)
		fail_status(p, PL_ENOMEM);
	t->kind = T_STRING;
	t->s = p->str.data ? p->str.data : "";
	t->len = p->str.len;
	p->p = q + 1;
}

/* Any token, after any blanks, newlines and comments at p->p. Kept out of
 * next, whose fast path would otherwise pay for this one's stack frame. */
static __attribute__((noinline)) void lex_general(struct parser *p)
{
	skip_space(p);
	struct token *t = &p->tok;
	const char *s = p->p;
	t->line = p->line;
	t->col = cur_col(p, s);
	if (s == p->end) {
		t->kind = T_EOF;
		t->s = s;
		t->len = 0;
		return;
	}
	unsigned char c = (unsigned char)*s;
	if (punct_kind[c]) {
		t->kind = (enum tok)punct_kind[c];
		t->s = s;
		t->len = 1;
		p->p = s + 1;
		return;
	}
	if (c == '%' || c == '@') {
		const char *q = scan_class(s + 1, p->end, C_NAME);
		if (q == s + 1)
			ERROR_HERE(p, s, "expected a name after '%c'", c);
		t->kind = c == '@' ? T_GLOBAL : T_LOCAL;
		t->s = s + 1;
		t->len = (size_t)(q - s - 1);
		check_token_len(p, s, t->len);
		p->p = q;
		return;
	}
	if (cclass[c] & C_IDENT_START) {
		const char *q = scan_class(s + 1, p->end, C_IDENT);
		t->kind = T_IDENT;
		t->s = s;
		t->len = (size_t)(q - s);
		check_token_len(p, s, t->len);
		p->p = q;
		return;
	}
	if (is_digit(c) || c == '-' || (c == '.' && s + 1 < p->end && is_digit((unsigned char)s[1]))) {
		lex_number(p, s);
		return;
	}
	if (c == '"') {
		lex_string(p, s);
		return;
	}
	if (c == 0)
		ERROR_HERE(p, s, "NUL byte in input");
	if (c >= 0x80) {
		check_utf8(p, s);
		ERROR_HERE(p, s, "unexpected non-ASCII character");
	}
	if (c < 0x20 || c == 0x7f)
		ERROR_HERE(p, s, "unexpected control character 0x%02x", c);
	ERROR_HERE(p, s, "unexpected character '%c'", c);
}

/* The next token. The common ones, a punctuator or a name or word, are
 * read here, where nothing is called and no stack frame is
 * needed; everything else is lex_general's, which reads it from the start. */
static void next(struct parser *p)
{
	const char *s = p->p, *end = p->end;
	p->prev_end = s;
	for (;;) {
		while (s < end && (cclass[(unsigned char)*s] & C_BLANK))
			s++;
		/* newlines too; comments, and a line count at its limit, are
		 * lex_general's */
		if (s == end || *s != '\n' || p->line == UINT32_MAX)
			break;
		s++;
		p->line++;
		p->line_start = s;
	}
	if (s < end) {
		struct token *t = &p->tok;
		unsigned char c = (unsigned char)*s;
		/* before the end, a column fits: the input is at most 4 GiB */
		uint32_t col = (uint32_t)(s - p->line_start) + 1;
		if (punct_kind[c]) {
			t->kind = (enum tok)punct_kind[c];
			t->s = s;
			t->len = 1;
			t->line = p->line;
			t->col = col;
			p->p = s + 1;
			return;
		}
		if (c == '%' || c == '@') {
			const char *q = scan_class(s + 1, end, C_NAME);
			size_t len = (size_t)(q - s - 1);
			if (len - 1 < PL_MAX_TOKEN_BYTES) { /* 1 to PL_MAX_TOKEN_BYTES */
				t->kind = c == '@' ? T_GLOBAL : T_LOCAL;
				t->s = s + 1;
				t->len = len;
				t->line = p->line;
				t->col = col;
				p->p = q;
				return;
			}
		} else if (cclass[c] & C_IDENT_START) {
			const char *q = scan_class(s + 1, end, C_IDENT);
			size_t len = (size_t)(q - s);
			if (len <= PL_MAX_TOKEN_BYTES) {
				t->kind = T_IDENT;
				t->s = s;
				t->len = len;
				t->line = p->line;
				t->col = col;
				p->p = q;
				return;
			}
		}
	}
	p->p = s;
	lex_general(p);
}

static bool tok_is(const struct parser *p, const char *word)
{
	size_t n = strlen(word);
	return p->tok.kind == T_IDENT && p->tok.len == n && memcmp(p->tok.s, word, n) == 0;
}

static _Noreturn void expected(struct parser *p, const char *what)
{
	char buf[64];
	error_at(p, p->tok.line, p->tok.col, "expected %s, found %s", what,
	         describe(&p->tok, buf, sizeof buf));
}

static void expect(struct parser *p, enum tok kind, const char *what)
{
	if (p->tok.kind != kind)
		expected(p, what);
	next(p);
}

/* ---- symbol table: the current function's values by name ---- */

/* Whether n (NUL-terminated) is s[0..len), a name without NUL bytes. Names
 * are mostly short, and for those a loop is cheaper than calling memcmp. */
static inline bool name_is(const char *n, const char *s, size_t len)
{
	if (len > 16)
		return memcmp(n, s, len) == 0 && n[len] == '\0';
	/* a shorter n stops the loop at its NUL */
	for (size_t i = 0; i < len; i++)
		if (n[i] != s[i])
			return false;
	return n[len] == '\0';
}

static inline size_t sym_find(const struct parser *p, const char *s, size_t len, uint32_t tag,
                              bool *found)
{
	size_t mask = p->sym_cap - 1;
	size_t j = tag & mask;
	while (p->sym[j].gen == p->sym_gen) {
		if (p->sym[j].tag == tag) {
			if (name_is(p->sym[j].v->name, s, len)) {
				*found = true;
				return j;
			}
		}
		j = (j + 1) & mask;
	}
	*found = false;
	return j;
}

static void sym_grow(struct parser *p)
{
	size_t cap = p->sym_cap ? p->sym_cap * 2 : 256;
	struct sym_slot *old = p->sym;
	size_t old_cap = p->sym_cap;
	p->sym = nn(p, calloc(cap, sizeof *p->sym));
	p->sym_cap = cap;
	uint32_t gen = p->sym_gen;
	p->sym_gen = 1; /* a fresh table: generation 0 marks free slots */
	for (size_t i = 0; i < old_cap; i++) {
		if (old[i].gen != gen)
			continue;
		size_t j = old[i].tag & (cap - 1);
		while (p->sym[j].gen == p->sym_gen)
			j = (j + 1) & (cap - 1);
		p->sym[j] = old[i];
		p->sym[j].gen = p->sym_gen;
	}
	free(old);
}

static void sym_clear(struct parser *p)
{
	p->sym_count = 0;
	if (++p->sym_gen == 0) { /* wrapped: start over */
		free(p->sym);
		p->sym = NULL;
		p->sym_cap = 0;
	}
}

static uint32_t name_tag(const char *s, size_t len)
{
	return (uint32_t)pl_hash_bytes_(s, len);
}

/* Names v after ref and enters it; a second definition is an error. */
static void sym_define(struct parser *p, pl_value *v, const struct local_ref *ref)
{
	if ((p->sym_count + 1) * 10 > p->sym_cap * 7)
		sym_grow(p);
	uint64_t hash = pl_hash_bytes_(ref->s, ref->len);
	uint32_t tag = (uint32_t)hash; /* as name_tag */
	bool found;
	size_t j = sym_find(p, ref->s, ref->len, tag, &found);
	if (found)
		error_at(p, ref->line, ref->col, "redefinition of value '%%%.*s'",
		         (int)(ref->len > 64 ? 64 : ref->len), ref->s);
	struct name_seen *seen = &p->names_seen[(hash >> 32) & (NAMES_SEEN_SLOTS - 1)];
	if (!seen->name || seen->len != ref->len || !name_is(seen->name, ref->s, ref->len)) {
		seen->name = nn(p, pl_arena_strndup(&p->m->arena, ref->s, ref->len));
		seen->len = ref->len;
	}
	v->name = seen->name;
	p->sym[j].gen = p->sym_gen;
	p->sym[j].tag = tag;
	p->sym[j].v = v;
	p->sym_count++;
}

static pl_value *sym_lookup(struct parser *p, const struct local_ref *ref)
{
	bool found = false;
	size_t j = 0;
	if (p->sym_cap)
		j = sym_find(p, ref->s, ref->len, name_tag(ref->s, ref->len), &found);
	if (!found)
		error_at(p, ref->line, ref->col, "use of undefined value '%%%.*s'",
		         (int)(ref->len > 64 ? 64 : ref->len), ref->s);
	return p->sym[j].v;
}

/* ---- memos of text already read ---- */

static struct memo_entry *memo_find(const struct memo *mo, const char *s, size_t len,
                                    uint64_t hash)
{
	if (!mo->cap)
		return NULL;
	size_t mask = mo->cap - 1;
	for (size_t j = hash & mask; mo->slots[j].text; j = (j + 1) & mask)
		if (mo->slots[j].hash == hash && mo->slots[j].len == len &&
		    memcmp(mo->slots[j].text, s, len) == 0)
			return &mo->slots[j];
	return NULL;
}

/* Remembers that text s gave val; false (nothing done) past the bounds. */
static bool memo_insert(struct parser *p, struct memo *mo, const char *s, size_t len,
                        uint64_t hash, const void *val, uint16_t n)
{
	if (mo->count >= MEMO_MAX_ENTRIES || mo->bytes + len > MEMO_MAX_BYTES)
		return false;
	if ((mo->count + 1) * 2 > mo->cap) {
		size_t cap = mo->cap ? mo->cap * 2 : 256;
		struct memo_entry *slots = nn(p, calloc(cap, sizeof *slots));
		for (size_t i = 0; i < mo->cap; i++) {
			if (!mo->slots[i].text)
				continue;
			size_t j = mo->slots[i].hash & (cap - 1);
			while (slots[j].text)
				j = (j + 1) & (cap - 1);
			slots[j] = mo->slots[i];
		}
		free(mo->slots);
		mo->slots = slots;
		mo->cap = cap;
	}
	char *copy = nn(p, malloc(len));
	memcpy(copy, s, len);
	size_t j = hash & (mo->cap - 1);
	while (mo->slots[j].text)
		j = (j + 1) & (mo->cap - 1);
	struct memo_entry e = {hash, copy, (uint32_t)len, n, val};
	mo->slots[j] = e;
	mo->count++;
	mo->bytes += len;
	return true;
}

/* owns_vals: each value is a malloc'd block of the memo's */
static void memo_free(struct memo *mo, bool owns_vals)
{
	for (size_t i = 0; i < mo->cap; i++) {
		free(mo->slots[i].text);
		if (owns_vals)
			free((void *)(uintptr_t)mo->slots[i].val);
	}
	free(mo->slots);
	memset(mo, 0, sizeof *mo);
}

static struct local_ref tok_ref(const struct parser *p)
{
	struct local_ref r = {p->tok.s, p->tok.len, p->tok.line, p->tok.col};
	return r;
}

/* ---- types and attributes ---- */

static const pl_type *parse_type_text(struct parser *p);

/* A type written the canonical way, "dtype[1,2,3]", is looked up by its
 * text; anything else is read token by token. */
static const pl_type *parse_type(struct parser *p)
{
	if (p->tok.kind != T_IDENT)
		expected(p, "a type");
	const char *s = p->tok.s, *q = p->p;
	if (q == p->end || *q != '[')
		return parse_type_text(p);
	for (q++; q < p->end && ((*q >= '0' && *q <= '9') || *q == ','); q++)
		;
	if (q == p->end || *q != ']' || (size_t)(q - s) >= MEMO_MAX_SPAN)
		return parse_type_text(p);
	q++;
	size_t len = (size_t)(q - s);
	uint64_t hash = pl_hash_bytes_(s, len);
	const struct memo_entry *e = memo_find(&p->types_memo, s, len, hash);
	if (e) {
		p->p = q;
		next(p);
		return e->val;
	}
	const pl_type *t = parse_type_text(p);
	memo_insert(p, &p->types_memo, s, len, hash, t, 0);
	return t;
}

static const pl_type *parse_type_text(struct parser *p)
{
	struct token dt = p->tok;
	pl_dtype dtype = pl_dtype_from_name(dt.s, dt.len);
	if (dtype == PL_DTYPE_INVALID) {
		char buf[64];
		error_at(p, dt.line, dt.col, "unknown dtype %s", describe(&dt, buf, sizeof buf));
	}
	next(p);
	expect(p, T_LBRACKET, "'[' after the dtype");
	int64_t dims[PL_MAX_RANK];
	size_t rank = 0;
	if (p->tok.kind != T_RBRACKET) {
		for (;;) {
			if (p->tok.kind != T_INT)
				expected(p, "an integer extent");
			if (p->tok.i < 0)
				error_at(p, p->tok.line, p->tok.col, "negative extent %" PRId64 " in type",
				         p->tok.i);
			if (rank == PL_MAX_RANK)
				error_at(p, p->tok.line, p->tok.col, "type has more than %d dimensions",
				         PL_MAX_RANK);
			dims[rank++] = p->tok.i;
			next(p);
			if (p->tok.kind != T_COMMA)
				break;
			next(p);
		}
	}
	expect(p, T_RBRACKET, "',' or ']' in type");
	return intern_type(p, dtype, dims, rank);
}

static void parse_attr_value(struct parser *p, pl_attr *out);

static void parse_list(struct parser *p, pl_attr *out, uint32_t line, uint32_t col)
{
	if (++p->depth > PL_MAX_NESTING)
		error_at(p, line, col, "attribute values nested deeper than %d", PL_MAX_NESTING);
	next(p); /* '[' */
	size_t base = p->nelems;
	if (p->tok.kind != T_RBRACKET) {
		for (;;) {
			pl_attr v;
			parse_attr_value(p, &v);
			p->elems = xgrow(p, p->elems, &p->elems_cap, p->nelems + 1, sizeof *p->elems);
			p->elems[p->nelems++] = v;
			if (p->tok.kind != T_COMMA)
				break;
			next(p);
		}
	}
	expect(p, T_RBRACKET, "',' or ']' in list");
	/* no element may have been read yet: elems can still be NULL */
	const pl_attr *first = p->nelems > base ? p->elems + base : NULL;
	const pl_attr *list = intern_list(p, first, p->nelems - base);
	*out = *list;
	p->nelems = base;
	p->depth--;
}

static void parse_attr_value(struct parser *p, pl_attr *out)
{
	memset(out, 0, sizeof *out);
	struct token *t = &p->tok;
	switch (t->kind) {
	case T_INT:
		out->kind = PL_ATTR_INT;
		out->u.i = t->i;
		break;
	case T_FLOAT:
		out->kind = PL_ATTR_FLOAT;
		out->u.f = t->f;
		break;
	case T_STRING:
		out->kind = PL_ATTR_STRING;
		out->len = (uint32_t)t->len;
		out->u.s = intern_str(p, t->s, t->len);
		break;
	case T_LBRACKET:
		parse_list(p, out, t->line, t->col);
		return;
	case T_IDENT:
		if (tok_is(p, "true") || tok_is(p, "false")) {
			out->kind = PL_ATTR_BOOL;
			out->u.b = t->s[0] == 't';
			break;
		}
		/* fall through */
	default:
		expected(p, "an attribute value");
	}
	next(p);
}

struct key_at {
	const char *key; /* interned */
	size_t index;    /* in the dictionary */
};

static int cmp_key_at(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	uintptr_t kx = (uintptr_t)x->key, ky = (uintptr_t)y->key;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The end of the dictionary starting at the '{' at s, when it is on one
 * line, without comments: the span a memo can key on. NULL otherwise. */
static const char *dict_span_end(const struct parser *p, const char *s)
{
	/* the bytes that matter to the scan; everything else is skipped */
	static const unsigned char special[256] = {
		['"'] = 1, ['['] = 1, [']'] = 1, ['}'] = 1, ['{'] = 1, ['\n'] = 1,
		['/'] = 1, ['\0'] = 1, ['\\'] = 1,
	};
	int depth = 0;
	bool in_string = false;
	const char *limit = p->end - s > MEMO_MAX_SPAN ? s + MEMO_MAX_SPAN : p->end;
	for (const char *q = s + 1; q < limit; q++) {
		if (!special[(unsigned char)*q])
			continue;
		char c = *q;
		if (in_string) {
			if (c == '\\')
				q++;
			else if (c == '"')
				in_string = false;
			else if (c == '\n' || c == '\0')
				return NULL;
			continue;
		}
		switch (c) {
		case '"': in_string = true; break;
		case '[': depth++; break;
		case ']': depth--; break;
		case '}':
			if (depth == 0)
				return q + 1;
			break;
		default: /* '{', newline, a comment, NUL, a stray backslash */
			return NULL;
		}
	}
	return NULL;
}

static void parse_attr_dict_text(struct parser *p, pl_attrs *d);

/* "{" [KEY "=" attr {"," KEY "=" attr}] "}" into d. The same text always
 * gives the same entries, so a repeat shares the first one's array (copy
 * on write, see attrs_own in attr.c) instead of being read again. */
static void parse_attr_dict(struct parser *p, pl_attrs *d)
{
	const char *s = p->tok.s;
	const char *end = dict_span_end(p, s);
	if (!end) {
		parse_attr_dict_text(p, d);
		return;
	}
	size_t len = (size_t)(end - s);
	uint64_t hash = pl_hash_bytes_(s, len);
	const struct memo_entry *e = memo_find(&p->dicts_memo, s, len, hash);
	if (e) {
		d->v = (struct pl_attr_entry *)(uintptr_t)e->val;
		d->n = e->n;
		d->cap = 0;
		p->p = end;
		next(p);
		return;
	}
	parse_attr_dict_text(p, d);
	if (d->n && p->dict_close + 1 == end) {
		d->cap = 0;
		memo_insert(p, &p->dicts_memo, s, len, hash, d->v, d->n);
	}
}

static void parse_attr_dict_text(struct parser *p, pl_attrs *d)
{
	next(p); /* '{' */
	p->nentries = 0;
	if (p->tok.kind != T_RBRACE) {
		for (;;) {
			if (p->tok.kind != T_IDENT || !pl_is_key_(p->tok.s, p->tok.len))
				expected(p, "an attribute name");
			const char *key = intern_str(p, p->tok.s, p->tok.len);
			uint32_t kline = p->tok.line, kcol = p->tok.col;
			/* keys are interned, so a repeat is a repeated pointer */
			if (p->nentries < 64) {
				for (size_t k = 0; k < p->nentries; k++)
					if (p->entries[k].key == key)
						error_at(p, kline, kcol, "duplicate attribute '%s'", key);
			}
			next(p);
			expect(p, T_EQUAL, "'=' after the attribute name");
			p->entries = xgrow(p, p->entries, &p->entries_cap, p->nentries + 1,
			                   sizeof *p->entries);
			p->entry_keys = xgrow(p, p->entry_keys, &p->entry_keys_cap, p->nentries + 1,
			                      sizeof *p->entry_keys);
			if (p->nentries == UINT16_MAX)
				error_at(p, kline, kcol, "more than %u attributes", UINT16_MAX);
			struct local_ref kref = {key, 0, kline, kcol};
			p->entry_keys[p->nentries] = kref;
			struct pl_attr_entry *e = &p->entries[p->nentries++];
			e->key = key;
			parse_attr_value(p, &e->val);
			if (p->tok.kind != T_COMMA)
				break;
			next(p);
		}
	}
	p->dict_close = p->tok.s;
	expect(p, T_RBRACE, "',' or '}' in attributes");
	if (p->nentries > 64) {
		/* Many keys: find repeats by sorting (key, index) pairs. Report
		 * the first key, in text order, that repeats an earlier one,
		 * where it was written, as for a small dictionary. (This used to
		 * name the 64th key of the dictionary, whatever it was.) */
		struct key_at *keys = nn(p, malloc(p->nentries * sizeof *keys));
		for (size_t k = 0; k < p->nentries; k++) {
			keys[k].key = p->entries[k].key;
			keys[k].index = k;
		}
		qsort(keys, p->nentries, sizeof *keys, cmp_key_at);
		size_t first = SIZE_MAX;
		for (size_t k = 1; k < p->nentries; k++)
			if (keys[k].key == keys[k - 1].key && keys[k].index < first &&
			    (k < 2 || keys[k - 2].key != keys[k].key))
				first = keys[k].index; /* the second occurrence of its key */
		free(keys);
		if (first != SIZE_MAX)
			error_at(p, p->entry_keys[first].line, p->entry_keys[first].col,
			         "duplicate attribute '%s'", p->entries[first].key);
	}
	if (p->nentries) {
		d->v = nn(p, pl_arena_alloc(&p->m->arena, p->nentries * sizeof *d->v));
		memcpy(d->v, p->entries, p->nentries * sizeof *d->v);
		d->n = d->cap = (uint16_t)p->nentries;
	}
}

/* ---- instructions and functions ---- */

/* Reads LOCAL {"," LOCAL} into p->refs. */
static void parse_local_list(struct parser *p)
{
	p->nrefs = 0;
	for (;;) {
		p->refs = xgrow(p, p->refs, &p->refs_cap, p->nrefs + 1, sizeof *p->refs);
		p->refs[p->nrefs++] = tok_ref(p);
		next(p);
		if (p->tok.kind != T_COMMA)
			return;
		next(p);
		if (p->tok.kind != T_LOCAL)
			expected(p, "a value after ','");
	}
}

/* The list just read becomes the pending results: the two buffers trade
 * places rather than being copied. */
static void take_refs_as_pending(struct parser *p)
{
	struct local_ref *buf = p->pending;
	size_t cap = p->pending_cap;
	p->pending = p->refs;
	p->pending_cap = p->refs_cap;
	p->npending = p->nrefs;
	p->refs = buf;
	p->refs_cap = cap;
	p->nrefs = 0;
	p->have_pending = true;
}

static void maybe_release(struct parser *p, const char *inst_start)
{
	/* Only a position in the text may be handed on. A string token's s
	 * points at the decoded copy (p->str), elsewhere in memory: with a
	 * string where an instruction should start, release_pages used to
	 * madvise(MADV_DONTNEED) everything from the mapping up to that
	 * buffer, zeroing whatever else was mapped in between. */
	if (p->release && inst_start >= p->release_next && inst_start <= p->end) {
		p->release(p->release_ud, inst_start);
		/* pages go a megabyte at a time: no need to ask at every line */
		p->release_next = inst_start + RELEASE_STRIDE;
	}
}

/* The rest of an instruction after its operands: the attributes into inst,
 * the result types (nres of them, checked) returned. */
static const pl_type *const *parse_result_types(struct parser *p, size_t nres);

static const pl_type *const *parse_tail_text(struct parser *p, pl_inst *inst, size_t nres)
{
	if (p->tok.kind == T_LBRACE)
		parse_attr_dict(p, &inst->attrs);
	return parse_result_types(p, nres);
}

/* [":" TYPE | ":" "(" [TYPE {"," TYPE}] ")"], nres of them. */
static const pl_type *const *parse_result_types(struct parser *p, size_t nres)
{
	p->ntypes = 0;
	uint32_t tline = p->tok.line, tcol = p->tok.col;
	bool has_colon = p->tok.kind == T_COLON;
	if (has_colon) {
		next(p);
		if (p->tok.kind == T_LPAREN) {
			next(p);
			if (p->tok.kind != T_RPAREN) {
				for (;;) {
					const pl_type *t = parse_type(p);
					p->types = xgrow(p, p->types, &p->types_cap, p->ntypes + 1,
					                 sizeof *p->types);
					p->types[p->ntypes++] = t;
					if (p->tok.kind != T_COMMA)
						break;
					next(p);
				}
			}
			expect(p, T_RPAREN, "',' or ')' in the result types");
		} else {
			const pl_type *t = parse_type(p);
			p->types = xgrow(p, p->types, &p->types_cap, 1, sizeof *p->types);
			p->types[p->ntypes++] = t;
		}
	}
	if (nres == 0 && has_colon)
		error_at(p, tline, tcol, "instruction without results has result types");
	if (nres && !has_colon)
		error_at(p, p->tok.line, p->tok.col,
		         "expected ':' and %zu result type%s", nres, nres == 1 ? "" : "s");
	if (nres != p->ntypes)
		error_at(p, tline, tcol, "%zu result%s but %zu type%s", nres, nres == 1 ? "" : "s",
		         p->ntypes, p->ntypes == 1 ? "" : "s");
	return p->types;
}

/* An instruction's tail, from its '{' or ':' to the end of its line, is
 * looked up by its text as a whole: modules repeat the combination of
 * attributes and result types even more than each part. Only a tail read
 * cleanly, with as many results, that took its line to the end and no
 * further, is remembered, so a repeat is what reading it again would give:
 * what follows the line matters only to a tail without result types (see
 * parse_tail). */
struct tail_rec {
	struct pl_attr_entry *attrs; /* shared, as a dictionary memo's */
	uint16_t nattrs;
	const pl_type *types[];
};

static const pl_type *const *parse_tail(struct parser *p, pl_inst *inst, size_t nres)
{
	if (p->tok.kind != T_LBRACE && p->tok.kind != T_COLON)
		return parse_tail_text(p, inst, nres);
	const char *s = p->tok.s;
	size_t avail = (size_t)(p->end - s);
	const char *eol = memchr(s, '\n', avail < MEMO_MAX_SPAN ? avail : MEMO_MAX_SPAN);
	if (!eol || nres > UINT16_MAX)
		return parse_tail_text(p, inst, nres);
	size_t len = (size_t)(eol - s);
	uint64_t hash = pl_hash_bytes_(s, len);
	const struct memo_entry *e = memo_find(&p->tails_memo, s, len, hash);
	if (e && e->n == nres) {
		const struct tail_rec *t = e->val;
		inst->attrs.v = t->attrs;
		inst->attrs.n = t->nattrs;
		inst->attrs.cap = 0;
		p->p = eol;
		next(p);
		/* Attributes alone: types on the next line would belong to them,
		 * as an error (the tail has no results), so they are read as one
		 * reader would read them. */
		if (nres == 0 && p->tok.kind == T_COLON)
			return parse_result_types(p, nres);
		return t->types;
	}
	uint32_t line = p->tok.line;
	const pl_type *const *types = parse_tail_text(p, inst, nres);
	/* the tail's last token ended on the line, and the next one is on a
	 * later line */
	if (!e && p->prev_end <= eol && p->tok.line > line) {
		struct tail_rec *t = nn(p, malloc(sizeof *t + nres * sizeof *t->types));
		inst->attrs.cap = 0;
		t->attrs = inst->attrs.v;
		t->nattrs = inst->attrs.n;
		if (nres) /* types may be NULL then */
			memcpy(t->types, types, nres * sizeof *types);
		if (!memo_insert(p, &p->tails_memo, s, len, hash, t, (uint16_t)nres))
			free(t);
	}
	return types;
}

static bool op_seen_is(const struct op_seen *seen, const char *name, size_t len)
{
	return seen->name && seen->len == len && memcmp(seen->name, name, len) == 0;
}

static void parse_inst(struct parser *p, pl_func *f)
{
	uint32_t line, col;
	if (p->have_pending) {
		line = p->pending[0].line;
		col = p->pending[0].col;
	} else {
		line = p->tok.line;
		col = p->tok.col;
		maybe_release(p, p->tok.s);
		if (p->tok.kind == T_LOCAL) {
			parse_local_list(p);
			if (p->tok.kind != T_EQUAL)
				expected(p, "'=' after the results");
			next(p);
			take_refs_as_pending(p);
		}
	}
	size_t nres = p->have_pending ? p->npending : 0;
	p->have_pending = false;

	if (p->tok.kind != T_IDENT)
		expected(p, "an op name");
	/* An op name is checked, interned and looked up once per distinct
	 * name: a module has few, remembered here by their text, in pairs of
	 * slots so that two names of one hash slot do not evict each other. */
	const char *name = p->tok.s;
	size_t len = p->tok.len;
	struct op_seen *seen =
		&p->ops_seen[pl_hash_bytes_(name, len) & (OPS_SEEN_SLOTS - 2)];
	if (!op_seen_is(&seen[0], name, len)) {
		struct op_seen first = seen[0];
		if (op_seen_is(&seen[1], name, len)) {
			seen[0] = seen[1];
		} else {
			if (!pl_is_opname_(name, len))
				expected(p, "an op name");
			seen[0].name = intern_str(p, name, len);
			seen[0].len = len;
			seen[0].op = pl_op_from_name(seen[0].name);
		}
		seen[1] = first;
	}
	const char *opname = seen->name;
	pl_op op = seen->op;
	next(p);

	/* operands, unless the list turns out to be the next results */
	size_t nops = 0;
	if (p->tok.kind == T_LOCAL) {
		parse_local_list(p);
		if (p->tok.kind == T_EQUAL) {
			if (nres)
				error_at(p, p->refs[0].line, p->refs[0].col,
				         "expected ':' and %zu result type%s before the next "
				         "instruction", nres, nres == 1 ? "" : "s");
			next(p);
			pl_inst *inst = nn(p, pl_inst_alloc_(f, opname, op, 0, 0));
			inst->line = line;
			inst->col = col;
			pl_func_append(f, inst);
			take_refs_as_pending(p);
			return;
		}
		nops = p->nrefs;
		p->opvals = xgrow(p, p->opvals, &p->opvals_cap, nops, sizeof *p->opvals);
		for (size_t k = 0; k < nops; k++)
			p->opvals[k] = sym_lookup(p, &p->refs[k]);
	}

	pl_inst *inst = pl_inst_alloc_(f, opname, op, nops, nres);
	if (!inst)
		fail_status(p, PL_ENOMEM);
	inst->line = line;
	inst->col = col;
	pl_use *ops = pl_inst_ops_(inst);
	for (size_t k = 0; k < nops; k++)
		pl_use_set_(&ops[k], p->opvals[k]);

	const pl_type *const *types = parse_tail(p, inst, nres);

	/* Results are defined after the operands were resolved, so
	 * "%a = op %a" is a use before definition. */
	pl_value *res = pl_inst_res_(inst);
	for (size_t k = 0; k < nres; k++) {
		res[k].type = types[k];
		sym_define(p, &res[k], &p->pending[k]);
	}
	pl_func_append(f, inst);
}

static void define_func_name(struct parser *p, const struct token *name)
{
	if ((p->fn_count + 1) * 2 > p->fn_cap) {
		size_t cap = p->fn_cap ? p->fn_cap * 2 : 64;
		const char **t = nn(p, calloc(cap, sizeof *t));
		for (size_t i = 0; i < p->fn_cap; i++) {
			if (!p->fnames[i])
				continue;
			size_t j = pl_hash_bytes_(p->fnames[i], strlen(p->fnames[i])) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = p->fnames[i];
		}
		free(p->fnames);
		p->fnames = t;
		p->fn_cap = cap;
	}
	size_t j = pl_hash_bytes_(name->s, name->len) & (p->fn_cap - 1);
	while (p->fnames[j]) {
		const char *n = p->fnames[j];
		if (memcmp(n, name->s, name->len) == 0 && n[name->len] == '\0')
			error_at(p, name->line, name->col, "redefinition of function '@%.*s'",
			         (int)(name->len > 64 ? 64 : name->len), name->s);
		j = (j + 1) & (p->fn_cap - 1);
	}
	pl_func *f = nn(p, pl_func_new_unchecked_(p->m, name->s, name->len));
	p->fnames[j] = f->name;
	p->fn_count++;
}

static void parse_func(struct parser *p)
{
	if (!tok_is(p, "func"))
		expected(p, "'func'");
	uint32_t line = p->tok.line, col = p->tok.col;
	next(p);
	if (p->tok.kind != T_GLOBAL)
		expected(p, "a function name '@...'");
	struct token name = p->tok;
	define_func_name(p, &name);
	pl_func *f = p->m->funcs[p->m->nfuncs - 1];
	f->line = line;
	f->col = col;
	next(p);
	sym_clear(p);
	expect(p, T_LPAREN, "'(' after the function name");
	if (p->tok.kind != T_RPAREN) {
		for (;;) {
			if (p->tok.kind != T_LOCAL)
				expected(p, "an argument '%...'");
			struct local_ref ref = tok_ref(p);
			next(p);
			expect(p, T_COLON, "':' after the argument");
			const pl_type *t = parse_type(p);
			pl_value *v = nn(p, pl_func_add_arg(f, NULL, t));
			sym_define(p, v, &ref);
			if (p->tok.kind != T_COMMA)
				break;
			next(p);
		}
	}
	expect(p, T_RPAREN, "',' or ')' after the arguments");
	f->names_dirty = false;
	if (tok_is(p, "attributes")) {
		next(p);
		if (p->tok.kind != T_LBRACE)
			expected(p, "'{' after 'attributes'");
		parse_attr_dict(p, &f->attrs);
	}
	expect(p, T_LBRACE, "'{' to open the function body");
	while (p->have_pending || p->tok.kind != T_RBRACE) {
		if (p->tok.kind == T_EOF && !p->have_pending)
			expected(p, "an instruction or '}'");
		parse_inst(p, f);
	}
	next(p); /* '}' */
}

static void parser_free(struct parser *p)
{
	pl_sb_free(&p->str);
	free(p->refs);
	free(p->pending);
	free(p->opvals);
	free(p->types);
	free(p->entries);
	free(p->entry_keys);
	free(p->elems);
	free(p->sym);
	free(p->fnames);
	memo_free(&p->types_memo, false);
	memo_free(&p->dicts_memo, false);
	memo_free(&p->tails_memo, true);
}

/* What the two halves of a file intern, shared: a module without functions
 * whose tables and memory the first half's module takes in the end, so the
 * halves' types and keys are equal handles with no second interning. */
struct shared_interns {
	pl_module *m;
	pthread_mutex_t lock;
};

/* Parses text as a module. first_line is the line the text starts on (a
 * second half of a file starts further down); a byte order mark is allowed
 * only at the start of a file (first_line 1). shared, when not NULL, is
 * where the values are interned. */
static int parse_impl(const char *text, size_t len, const char *source_name,
                      pl_diags *diags, pl_module **out,
                      void (*release)(void *, const char *), void *release_ud,
                      uint32_t first_line, struct shared_interns *shared)
{
	*out = NULL;
	if (len > UINT32_MAX) {
		pl_diags_add(diags, PL_SEV_ERROR, source_name, 0, 0,
		             "input larger than 4 GiB is not supported");
		return PL_ELIMIT;
	}
	struct parser *p = calloc(1, sizeof *p);
	if (!p)
		return PL_ENOMEM;
	p->src = p->p = p->line_start = text;
	p->end = text + len;
	p->line = first_line;
	p->file = source_name;
	p->diags = diags;
	p->release = release;
	p->release_ud = release_ud;
	p->release_next = text;
	p->m = pl_module_new(source_name);
	p->im = shared ? shared->m : p->m;
	p->im_lock = shared ? &shared->lock : NULL;
	int rc = PL_OK;
	if (!p->m) {
		rc = PL_ENOMEM;
	} else if (setjmp(p->fail)) {
		rc = p->status;
		if (rc == PL_ENOMEM)
			pl_diags_add(diags, PL_SEV_ERROR, source_name, 0, 0, "out of memory");
		pl_module_free(p->m);
		p->m = NULL;
	} else {
		/* a UTF-8 byte order mark is allowed and ignored */
		if (first_line == 1 && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
			p->p = p->line_start = text + 3;
		next(p);
		while (p->tok.kind != T_EOF)
			parse_func(p);
		*out = p->m;
	}
	parser_free(p);
	free(p);
	return rc;
}

int pl_parse_buffer(const char *text, size_t len, const char *source_name,
                    pl_diags *diags, pl_module **out)
{
	if (!text && len)
		return PL_EINVAL;
	return parse_impl(text ? text : "", len, source_name, diags, out, NULL, NULL, 1, NULL);
}

/* Reading a file: a regular file is mapped, and the pages behind the
 * instruction being parsed are given back as the parse goes, so the text
 * of a large module does not stay resident next to its IR. */
struct mapping {
	const char *base;
	size_t released;
	size_t page;
};

static void release_pages(void *ud, const char *upto)
{
	struct mapping *mp = ud;
	if (upto < mp->base)
		return; /* a second half's first page, shared with the first half */
	size_t off = (size_t)(upto - mp->base);
	const size_t step = 1u << 20;
	if (off < mp->released + 2 * step)
		return;
	size_t to = (off - step) & ~(mp->page - 1);
	if (to > mp->released) {
		madvise((void *)(uintptr_t)(mp->base + mp->released), to - mp->released,
		        MADV_DONTNEED);
		mp->released = to;
	}
}

/* ---- a large file read on two threads ----
 * The text is cut at a line that starts a function ("func @", as printed
 * text has it) near its middle; each half is read into a module of its own
 * on its own thread, both interning into one set (struct shared_interns);
 * the second module's functions then join the first. When both halves read
 * cleanly, the result is the module one reader would
 * have made: each half is a sequence of whole functions. On any error the
 * caller reads the file again on one thread, so messages are always the
 * sequential reader's. */

enum { HALVES_MIN_BYTES = 8u << 20 };

struct half {
	const char *text;
	size_t len;
	const char *file_start; /* to count the lines before text */
	const char *name;
	pl_module *m;
	pl_diags *diags;
	int rc;
	struct mapping mp;
	struct shared_interns *shared;
};

static void *parse_half(void *arg)
{
	struct half *h = arg;
	uint64_t line = 1;
	for (const char *q = h->file_start; q < h->text;) {
		q = memchr(q, '\n', (size_t)(h->text - q));
		if (!q)
			break;
		line++;
		q++;
	}
	h->rc = PL_ERROR;
	if (line <= UINT32_MAX && (h->diags = pl_diags_new()))
		h->rc = parse_impl(h->text, h->len, h->name, h->diags, &h->m, release_pages, &h->mp,
		                   (uint32_t)line, h->shared);
	return NULL;
}

/* Where the second half starts: a line "func @..." at or after the middle;
 * NULL when there is none. */
static const char *split_point(const char *text, size_t len)
{
	static const char mark[] = "\nfunc @";
	const char *mid = text + len / 2, *end = text + len;
	for (const char *q = mid; q < end;) {
		q = memchr(q, '\n', (size_t)(end - q));
		if (!q || (size_t)(end - q) < sizeof mark - 1)
			return NULL;
		if (memcmp(q, mark, sizeof mark - 1) == 0)
			return q + 1;
		q++;
	}
	return NULL;
}

static int parse_halves(const char *text, size_t len, const char *name, pl_module **out)
{
	if (len < HALVES_MIN_BYTES)
		return PL_ERROR;
	const char *cut = split_point(text, len);
	if (!cut)
		return PL_ERROR;
	struct shared_interns shared;
	if (pthread_mutex_init(&shared.lock, NULL) != 0)
		return PL_ERROR;
	if (!(shared.m = pl_module_new(name))) {
		pthread_mutex_destroy(&shared.lock);
		return PL_ENOMEM;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct half a = {text, (size_t)(cut - text), text, name, NULL, NULL, PL_ERROR,
	                 {text, 0, page}, &shared};
	/* the second half's pages are released from the first page wholly its */
	const char *b_base = (const char *)(((uintptr_t)cut + page - 1) & ~(uintptr_t)(page - 1));
	struct half b = {cut, len - (size_t)(cut - text), text, name, NULL, NULL, PL_ERROR,
	                 {b_base, 0, page}, &shared};
	pthread_t thread;
	bool threaded = pthread_create(&thread, NULL, parse_half, &b) == 0;
	parse_half(&a);
	if (threaded)
		pthread_join(thread, NULL);
	else
		parse_half(&b);
	pthread_mutex_destroy(&shared.lock);
	int rc = a.rc != PL_OK ? a.rc : b.rc;
	if (rc == PL_OK) {
		pl_module_adopt_interns_(a.m, shared.m);
		shared.m = NULL;
		rc = pl_module_append_interned_(a.m, b.m);
	}
	pl_module_free(shared.m);
	pl_diags_free(a.diags);
	pl_diags_free(b.diags);
	if (rc != PL_OK) {
		pl_module_free(a.m);
		pl_module_free(b.m);
		return rc;
	}
	*out = a.m;
	return PL_OK;
}

static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	if (!b)
		return PL_ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap > SIZE_MAX / 2) {
				free(b);
				return PL_ENOMEM;
			}
			char *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return PL_ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(b);
			errno = e;
			return PL_EIO;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return PL_OK;
}

int pl_parse_file(const char *path, pl_diags *diags, pl_module **out)
{
	return pl_parse_file_threads(path, 1, diags, out);
}

int pl_parse_file_threads(const char *path, unsigned threads, pl_diags *diags,
                          pl_module **out)
{
	*out = NULL;
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		pl_diags_add(diags, PL_SEV_ERROR, name, 0, 0, "cannot open: %s", strerror(e));
		errno = e;
		return PL_EIO;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		pl_diags_add(diags, PL_SEV_ERROR, name, 0, 0, "cannot read: %s", strerror(e));
		if (!is_stdin)
			close(fd);
		return PL_EIO;
	}
	if (S_ISDIR(st.st_mode)) {
		pl_diags_add(diags, PL_SEV_ERROR, name, 0, 0, "cannot read: %s", strerror(EISDIR));
		if (!is_stdin)
			close(fd);
		return PL_EIO;
	}
	int rc;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		size_t len = (size_t)st.st_size;
		void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			madvise(map, len, MADV_SEQUENTIAL);
			rc = PL_ERROR;
			if (threads > 1 && len <= UINT32_MAX)
				rc = parse_halves(map, len, name, out);
			if (rc != PL_OK) {
				struct mapping mp = {map, 0, (size_t)sysconf(_SC_PAGESIZE)};
				rc = parse_impl(map, len, name, diags, out, release_pages, &mp, 1, NULL);
			}
			munmap(map, len);
			if (!is_stdin)
				close(fd);
			return rc;
		}
	}
	char *buf = NULL;
	size_t len = 0;
	rc = read_all(fd, &buf, &len);
	if (rc != PL_OK) {
		int e = errno;
		pl_diags_add(diags, PL_SEV_ERROR, name, 0, 0, "cannot read: %s",
		             rc == PL_ENOMEM ? "out of memory" : strerror(e));
		if (!is_stdin)
			close(fd);
		return rc;
	}
	if (!is_stdin)
		close(fd);
	rc = parse_impl(buf, len, name, diags, out, NULL, NULL, 1, NULL);
	free(buf);
	return rc;
}
