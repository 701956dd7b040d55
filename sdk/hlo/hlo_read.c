/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_read.c — the XLA HLO text reader.
 *
 * Each computation is read whole into a small syntax tree (instructions
 * with their shapes, operands and raw attribute texts), then mapped onto
 * the IR: a computation becomes a function, its parameters the arguments,
 * a tuple-shaped value one IR value per leaf (tuple and get-tuple-element
 * only alias leaves; a tuple nothing uses is an hlo.tuple without
 * results, a get-tuple-element nothing uses or whose element is another
 * value whole an hlo.get_tuple_element without results, and hlo_operands
 * records the name and place of every tuple line an operand is made of,
 * and of the named get-tuple-elements in it), the collectives and dot the
 * SDK's own ops, and every
 * other instruction "hlo.<opcode>" with each attribute kept verbatim as the
 * string "hlo_<name>". passline-pir(5) lists the attributes the writer
 * reads back. Errors stop the reader at once (longjmp): the input is
 * rejected whole.
 */
#include "hlo/hlo.h"
#include "hlo/hlo_eof.h"
#include "hlo/hlo_kept.h"
#include "ir/hlo_opcodes.h"
#include "hlo/hlo_read.h"
#include "hlo/verify/hlo_verify.h"
#include "ir/input.h"
#include <passline/grow.h>
#include <passline/hash_table.h>

#include <passline/text.h>

#include <setjmp.h>
#include <stdlib.h>

/* ---- errors and locations ---- */

static void locate(struct hr *r, const char *at, uint32_t *line, uint32_t *col)
{
	if (at < r->lstart) {
		/* back (a nested instruction is made before the line it is in):
		 * the lines between, not the text from its start again */
		for (const char *q = at; (q = memchr(q, '\n', (size_t)(r->lstart - q))); q++)
			r->lline--;
		const char *s = at;
		while (s > r->src && s[-1] != '\n')
			s--;
		r->lstart = s;
	}
	if (at < r->lpos)
		r->lpos = at; /* on the line that starts at lstart */
	const char *q = r->lpos;
	while (q < at) {
		const char *nl = memchr(q, '\n', (size_t)(at - q));
		if (!nl)
			break;
		r->lline++;
		q = nl + 1;
		r->lstart = q;
	}
	r->lpos = at;
	*line = r->lline;
	*col = (uint32_t)(at - r->lstart) + 1;
}

/* Whether nothing but blanks, comments and at most one name follows p,
 * or a string that never closes: an error there is one the end of the
 * text caused. */
static bool near_end(const struct hr *r, const char *p)
{
	const char *q = p > r->end ? r->end : p;
	if (q < r->end && (*q == '"' || *q == '\'')) {
		for (const char *c = q + 1; c < r->end; c++) {
			if (*c == '\\')
				c++;
			else if (*c == *q)
				return false;
		}
		return true;
	}
	while (q < r->end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
	                      (*q >= '0' && *q <= '9') || *q == '_' || *q == '.' || *q == '-' ||
	                      *q == '%'))
		q++;
	for (;;) {
		while (q < r->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q + 1 < r->end && q[0] == '/' && q[1] == '/') {
			const char *nl = memchr(q, '\n', (size_t)(r->end - q));
			q = nl ? nl : r->end;
		} else {
			return q >= r->end || (q + 1 == r->end && *q == '/');
		}
	}
}

static const char no_comp_msg[] = "file ends before the module's first computation";

/* Reports "file ends inside ..." at the end of the text when the part
 * being read stops early there; false when it does not. */
static bool fail_at_end(struct hr *r, const char *at)
{
	if (!r->part_at)
		return false;
	struct pl_hlo_eof e;
	if (!pl_hlo_ends_inside_(r->part_at, r->end, r->part, &e) &&
	    !near_end(r, at))
		return false;
	uint32_t line, col, oline = 0, ocol = 0;
	if (e.opened)
		locate(r, e.opened, &oline, &ocol);
	locate(r, r->end, &line, &col);
	if (e.opened)
		pl_diags_add(r->diags, PL_SEV_ERROR, r->file, line, col,
		             "file ends inside %s (opened at %u:%u)", e.what, oline, ocol);
	else if (e.what[0])
		pl_diags_add(r->diags, PL_SEV_ERROR, r->file, line, col, "file ends inside %s",
		             e.what);
	else
		pl_diags_add(r->diags, PL_SEV_ERROR, r->file, line, col, "%s", no_comp_msg);
	return true;
}

static _Noreturn PL_PRINTF(3, 4) void fail(struct hr *r, const char *at, const char *fmt, ...)
{
	uint32_t line, col;
	if (at > r->end)
		at = r->end;
	if (!fail_at_end(r, at)) {
		locate(r, at, &line, &col);
		va_list ap;
		va_start(ap, fmt);
		pl_diags_vadd_(r->diags, PL_SEV_ERROR, r->file, line, col, fmt, ap);
		va_end(ap);
	}
	r->status = PL_EPARSE;
	longjmp(r->jb, 1);
}

static _Noreturn void nomem(struct hr *r)
{
	r->status = PL_ENOMEM;
	longjmp(r->jb, 1);
}

static __attribute__((noinline)) void *grow_slow(struct hr *r, void *ptr, size_t *cap,
                                                 size_t need, size_t elem)
{
	if (!pl_grow_(&ptr, cap, need, elem))
		nomem(r);
	return ptr;
}

static inline void *grow(struct hr *r, void *ptr, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? ptr : grow_slow(r, ptr, cap, need, elem);
}

/* Appends one element to r's growable array arr (an HR_ARRAY) and
 * returns it. */
#define PUSH(r, arr) \
	(*(void **)&(r)->arr.v = grow((r), (r)->arr.v, &(r)->arr.cap, (r)->arr.n + 1, \
	                             sizeof *(r)->arr.v), \
	 &(r)->arr.v[(r)->arr.n++])

/* Scratch buffer `use` of r with room for n items of elem bytes (at least
 * one); owned by r, valid until the next call for the same use. */
static void *scratch(struct hr *r, enum scratch_use use, size_t n, size_t elem)
{
	r->scratch[use] = grow(r, r->scratch[use], &r->scratch_cap[use], n ? n : 1, elem);
	return r->scratch[use];
}

static void *ok(struct hr *r, void *p)
{
	if (!p)
		nomem(r);
	return p;
}

static const pl_attr *ok_attr(struct hr *r, const pl_attr *a)
{
	if (!a)
		nomem(r);
	return a;
}

/* A NUL-terminated copy of s, in a scratch buffer. */
static const char *cstr(struct hr *r, const char *s, size_t len)
{
	r->namebuf.v = grow(r, r->namebuf.v, &r->namebuf.cap, len + 1, 1);
	memcpy(r->namebuf.v, s, len);
	r->namebuf.v[len] = 0;
	return r->namebuf.v;
}

/* ---- lexing ---- */

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The characters of names: letters, digits, '_', '.' and '-'. */
static const bool ident_char[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['_'] = 1, ['.'] = 1, ['-'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
};

static inline bool is_ident(char c)
{
	return ident_char[(unsigned char)c];
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skips white space and comments from q; returns where the next token is. */
static const char *skip_spaces(struct hr *r, const char *q)
{
	for (;;) {
		while (q < r->end && is_space(*q))
			q++;
		if (q + 1 < r->end && q[0] == '/' && q[1] == '/') {
			const char *nl = memchr(q, '\n', (size_t)(r->end - q));
			q = nl ? nl + 1 : r->end;
		} else if (q + 1 < r->end && q[0] == '/' && q[1] == '*') {
			const char *e = q + 2;
			while (e + 1 < r->end && !(e[0] == '*' && e[1] == '/'))
				e++;
			if (e + 1 >= r->end)
				fail(r, q, "unterminated comment");
			q = e + 2;
		} else {
			return q;
		}
	}
}

/* skip_spaces, at once where there is nothing to skip (most tokens) */
static inline const char *skip_from(struct hr *r, const char *q)
{
	if (q < r->end && !is_space(*q) && *q != '/')
		return q;
	return skip_spaces(r, q);
}

static inline char peek(struct hr *r)
{
	const char *q = skip_from(r, r->p);
	if (q != r->p) {
		r->skip_from_at = r->p;
		r->skip_to = q;
	}
	r->p = q;
	return r->p < r->end ? *r->p : 0;
}

static void describe_here(struct hr *r, char *buf, size_t n)
{
	if (r->p >= r->end) {
		snprintf(buf, n, "end of input");
		return;
	}
	size_t k = 0;
	while (r->p + k < r->end && k < 24 && is_ident(r->p[k]))
		k++;
	if (k == 0)
		k = 1;
	snprintf(buf, n, "'%.*s'", (int)k, r->p);
}

static _Noreturn void expected(struct hr *r, const char *what)
{
	char buf[64];
	describe_here(r, buf, sizeof buf);
	fail(r, r->p, "expected %s, found %s", what, buf);
}

static inline void expect(struct hr *r, char c, const char *what)
{
	if (peek(r) != c)
		expected(r, what);
	r->p++;
}

/* An identifier (optionally after '%'); *pct tells whether there was one. */
static bool read_name(struct hr *r, const char **s, uint32_t *len, bool *pct)
{
	peek(r);
	const char *q = r->p;
	bool had = q < r->end && *q == '%';
	if (had)
		q++;
	const char *b = q;
	while (q < r->end && is_ident(*q))
		q++;
	if (q == b)
		return false;
	/* a name starts with a letter or '_', with '%' or without: the short
	 * form the writer prints has no '%' to tell "0p" from a number */
	if (!((*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') || *b == '_')) {
		if (had)
			fail(r, b, "a name starts with a letter or '_'");
		return false;
	}
	if (q - b > (ptrdiff_t)PL_MAX_TOKEN_BYTES)
		fail(r, b, "name longer than %u bytes", PL_MAX_TOKEN_BYTES);
	*s = b;
	*len = (uint32_t)(q - b);
	if (pct)
		*pct = had;
	r->p = q;
	return true;
}

static void need_name(struct hr *r, const char **s, uint32_t *len, const char *what)
{
	if (!read_name(r, s, len, NULL))
		expected(r, what);
}

static bool word_is(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

/* True when the keyword w is next (followed by a non-identifier char). */
static bool at_word(struct hr *r, const char *w)
{
	peek(r);
	size_t n = strlen(w);
	return (size_t)(r->end - r->p) >= n && memcmp(r->p, w, n) == 0 &&
	       (r->p + n == r->end || !is_ident(r->p[n]));
}

/* The words that open the sections of a module's stack frame tables. */
static const char *const frames_words[] = {"FileNames", "FunctionNames", "FileLocations",
                                           "StackFrames"};

static bool at_frames_word(struct hr *r)
{
	for (size_t k = 0; k < sizeof frames_words / sizeof *frames_words; k++)
		if (at_word(r, frames_words[k]))
			return true;
	return false;
}

static int64_t read_int_slow(struct hr *r)
{
	peek(r);
	const char *q = r->p;
	bool neg = q < r->end && *q == '-';
	if (neg)
		q++;
	if (q >= r->end || !is_digit(*q))
		expected(r, "an integer");
	const char *digits = q;
	uint64_t v = 0;
	while (q < r->end && is_digit(*q))
		v = v * 10 + (uint64_t)(*q++ - '0'); /* wraps past 19 digits: checked below */
	if (q - digits > 18) { /* 19 digits and more may not fit */
		v = 0;
		for (const char *d = digits; d < q; d++) {
			unsigned dv = (unsigned)(*d - '0');
			if (v > ((uint64_t)INT64_MAX + (neg ? 1 : 0) - dv) / 10)
				fail(r, r->p, "integer out of range");
			v = v * 10 + dv;
		}
	}
	r->p = q;
	return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* An integer; a short one without blanks before it (most) read inline. */
static inline int64_t read_int(struct hr *r)
{
	const char *q = r->p;
	int64_t v = 0;
	for (int k = 0; k < 18 && q < r->end && is_digit(*q); k++)
		v = v * 10 + (*q++ - '0');
	if (q == r->p || (q < r->end && is_digit(*q)))
		return read_int_slow(r);
	r->p = q;
	return v;
}

/* Skips a quoted string at q (its quote char); returns the char after. */
static const char *skip_string(struct hr *r, const char *q)
{
	char quote = *q;
	const char *s = q++;
	for (;;) {
		const char *c = q < r->end ? memchr(q, quote, (size_t)(r->end - q)) : NULL;
		if (!c)
			fail(r, s, "unterminated string");
		/* escaped when an odd number of backslashes precede it */
		size_t bs = 0;
		while (c - bs > s + 1 && c[-1 - (ptrdiff_t)bs] == '\\')
			bs++;
		if (bs % 2 == 0)
			return c + 1;
		q = c + 1;
	}
}

/* The raw text of an attribute value: up to a ',' or a closing bracket
 * outside brackets and strings, or white space not followed by '{' (the
 * mesh and literal forms have a space before a brace). */
static void capture_value_at(struct hr *r, const char **v, uint32_t *vlen, bool two_parts);

static void capture_value(struct hr *r, const char **v, uint32_t *vlen)
{
	capture_value_at(r, v, vlen, false);
}

/* The bytes capture_value looks at; the rest it skips in a tight loop. */
static const unsigned char value_special[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['"'] = 1, ['\''] = 1, ['/'] = 1,
	['{'] = 1, ['['] = 1, ['('] = 1, ['}'] = 1, [']'] = 1, [')'] = 1, [','] = 1,
};

/* two_parts: custom-call's literal=SHAPE VALUE, with a space inside */
static void capture_value_at(struct hr *r, const char **v, uint32_t *vlen, bool two_parts)
{
	const char *start = skip_from(r, r->p), *q = start;
	int depth = 0;
	const char *last = start; /* end of the last non-space char */
	while (q < r->end) {
		if (!value_special[(unsigned char)*q]) {
			q++;
			while (q < r->end && !value_special[(unsigned char)*q])
				q++;
			last = q;
			continue;
		}
		char c = *q;
		if (c == '"' || c == '\'') {
			q = skip_string(r, q);
			last = q;
			continue;
		}
		if (c == '/' && q + 1 < r->end && (q[1] == '*' || q[1] == '/')) {
			if (depth == 0)
				break;
			q = skip_from(r, q);
			continue;
		}
		if (c == '{' || c == '[' || c == '(') {
			if (++depth > PL_MAX_NESTING)
				fail(r, q, "attribute value nested deeper than %d", PL_MAX_NESTING);
		} else if (c == '}' || c == ']' || c == ')') {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && c == ',') {
			break;
		} else if (is_space(c)) {
			if (depth == 0) {
				/* the space inside a literal stays on its line: a
				 * value at the end of one is not joined to the next */
				const char *n = skip_from(r, q);
				if (n < r->end &&
				    (*n == '{' || (two_parts && !memchr(q, '\n', (size_t)(n - q))))) {
					two_parts = false;
					q = n;
					continue;
				}
				break;
			}
			q++;
			continue;
		}
		q++;
		last = q;
	}
	if (depth != 0)
		fail(r, start, "unbalanced brackets in attribute value");
	if (last == start)
		fail(r, start, "expected an attribute value");
	if (last - start > (ptrdiff_t)UINT32_MAX)
		fail(r, start, "attribute value too long");
	*v = start;
	*vlen = (uint32_t)(last - start);
	r->p = last;
}

/* ---- shapes ---- */

/* True when a shape starts at the next token. */
static bool at_shape(struct hr *r)
{
	char c = peek(r);
	if (c == '(')
		return true;
	const char *q = r->p;
	while (q < r->end && ((*q >= 'a' && *q <= 'z') || is_digit(*q)))
		q++;
	if (q == r->p || q >= r->end)
		return false;
	if (*q == '(' && q - r->p == 1 && *r->p == 'b')
		return true; /* b(shape): a buffer */
	if (*q != '[')
		return false;
	if (pl_hlo_dtype_from_name_(r->p, (size_t)(q - r->p)) == PL_DTYPE_INVALID)
		fail(r, r->p, "unknown element type '%.*s'", (int)(q - r->p), r->p);
	return true;
}

/* The shape at the next token, appended to r->shapes: its root node. */
static uint32_t parse_shape(struct hr *r)
{
	struct pl_hlo_shape_err err;
	uint32_t idx;
	int st = pl_hlo_shape_parse_(&r->shapes, &r->p, r->end, 0, &idx, &err);
	if (st == PL_ENOMEM)
		nomem(r);
	if (st != PL_OK)
		fail(r, err.at, "%s", err.msg);
	return idx;
}

/* XLA's text of a shape: layouts kept, a missing layout printed as the
 * default one, as XLA's printer does. */
static void put_shape(struct hr *r, struct pl_strbuf *sb, uint32_t idx)
{
	pl_hlo_shape_put_(sb, &r->shapes, idx);
}

/* The IR types of a shape's leaves, appended to r->types.v from index at. */
static size_t leaf_types(struct hr *r, uint32_t idx, size_t at)
{
	const struct pl_hlo_snode *n = &r->shapes.v[idx];
	if (n->tuple) {
		uint32_t c = idx + 1;
		while (c < idx + n->size) {
			at = leaf_types(r, c, at);
			c += r->shapes.v[c].size;
		}
		return at;
	}
	r->types.v = grow(r, r->types.v, &r->types.cap, at + 1, sizeof *r->types.v);
	const int64_t *dims = n->rank ? &r->shapes.dims[n->dims] : NULL;
	r->types.v[at] = ok(r, (void *)(uintptr_t)pl_type_get(r->m, (pl_dtype)n->dtype, dims,
	                                                    n->rank));
	return at + 1;
}

/* The child i of tuple node idx; UINT32_MAX when there is none. *leaf is
 * advanced by the leaves before it. */
static uint32_t child_at(const struct hr *r, uint32_t idx, int64_t i, uint32_t *leaf)
{
	return pl_hlo_shape_child_(&r->shapes, idx, i, leaf);
}

/* A copy of subtree src at the end of the node pool. */
static uint32_t copy_shape(struct hr *r, uint32_t src)
{
	uint32_t at;
	if (pl_hlo_shape_copy_(&r->shapes, src, &at) != PL_OK)
		nomem(r);
	return at;
}

/* ---- names in a computation ---- */

static uint32_t name_hash(const char *s, size_t len)
{
	return (uint32_t)pl_hash_bytes_(s, len);
}

struct name_ref {
	const char *s;
	size_t len;
};

/* item: instruction index + 1; probe: a name_ref; ctx: the reader */
static bool same_name(const void *item, const void *probe, const void *ctx)
{
	const struct hr *r = ctx;
	const struct name_ref *n = probe;
	const struct pinst *pi = &r->insts.v[(uintptr_t)item - 1];
	return pi->nlen == n->len && memcmp(pi->name, n->s, n->len) == 0;
}

/* Brings the map from instruction to line up to line upto (excluded): it
 * is made as far as it is asked about, most computations never need it. */
static void owners_sync(struct hr *r, uint32_t upto)
{
	for (; r->owners_upto < upto; r->owners_upto++) {
		const struct pinst *pi = &r->insts.v[r->owners_upto];
		if (!pi->inst || !pi->nleaves)
			continue;
		if (!pl_ht_reserve(&r->owners))
			nomem(r);
		uint32_t h = pl_ht_hash_ptr(pi->inst);
		size_t j = pl_ht_find(&r->owners, h, pl_ht_same_ptr, pi->inst, NULL);
		pl_ht_put(&r->owners, j, h, pi->inst);
		r->owners.vals[j] = (void *)(uintptr_t)r->owners_upto;
	}
}

static void name_define(struct hr *r, uint32_t idx)
{
	if (!pl_ht_reserve(&r->names))
		nomem(r);
	const struct pinst *pi = &r->insts.v[idx];
	struct name_ref n = {pi->name, pi->nlen};
	uint32_t h = name_hash(n.s, n.len);
	size_t j = pl_ht_find(&r->names, h, same_name, &n, r);
	if (pl_ht_used(&r->names, j))
		fail(r, pi->at, "'%.*s' is defined twice in this computation", (int)pi->nlen,
		     pi->name);
	pl_ht_put(&r->names, j, h, (const void *)(uintptr_t)(idx + 1));
}

/* The index + 1 of the instruction named s, or 0. */
static uint32_t name_lookup(struct hr *r, const char *s, size_t len)
{
	struct name_ref n = {s, len};
	return (uint32_t)(uintptr_t)pl_ht_get(&r->names, name_hash(s, len), same_name, &n, r);
}

/* ---- instructions ---- */

static uint32_t parse_inst(struct hr *r, bool nested, unsigned depth);

/* A statement from start to where the text read so far ends (before the
 * white space and comments peek skipped last, when r->p is after them). */
static void add_stmt(struct hr *r, enum pl_hlo_stmt_kind kind, const char *start,
                     const char *name, uint32_t nlen)
{
	const char *end = r->skip_to == r->p && r->skip_from_at >= start ? r->skip_from_at : r->p;
	*PUSH(r, stmts) = (struct pl_hlo_stmt){(uint32_t)(start - r->src), (uint32_t)(end - r->src),
	                                      name, nlen, UINT32_MAX, (uint8_t)kind};
}

/* The get-tuple-element line XLA's parser makes for "#I" (the index,
 * digits[0..dlen)) after the value of line ref: named "NAME_I" (".N"
 * after it where that is taken), made once a computation for each value
 * and index. Its index is the digits in the text; it has no shape (its
 * element's) and no operands of its own but ref. */
static uint32_t compact_gte(struct hr *r, uint32_t ref, const char *digits, uint32_t dlen,
                            const char *at)
{
	const struct pinst *base = &r->insts.v[ref];
	for (unsigned k = 0;; k++) {
		r->sb2.len = 0;
		pl_sb_put(&r->sb2, base->name, base->nlen);
		pl_sb_putc(&r->sb2, '_');
		pl_sb_put(&r->sb2, digits, dlen);
		if (k)
			pl_sb_printf(&r->sb2, ".%u", k);
		if (r->sb2.failed)
			nomem(r);
		uint32_t v = name_lookup(r, r->sb2.data, r->sb2.len);
		if (v) {
			/* a line of the text may hold the name: only a path's
			 * own line has the index attribute to compare */
			const struct pinst *g = &r->insts.v[v - 1];
			if (!g->compact)
				continue;
			const struct pattr *ia = &r->attrs.v[g->at0];
			if (r->opnds.v[g->op0].ref == ref && ia->vlen == dlen &&
			    memcmp(ia->val, digits, dlen) == 0)
				return v - 1;
			continue;
		}
		struct pinst g;
		memset(&g, 0, sizeof g);
		char *nm = ok(r, pl_arena_alloc(&r->m->arena, r->sb2.len));
		memcpy(nm, r->sb2.data, r->sb2.len);
		g.name = nm;
		g.nlen = (uint32_t)r->sb2.len;
		g.at = at;
		g.opc = "get-tuple-element";
		g.olen = 17;
		enum hlo_phase phase;
		g.opcode = (uint8_t)pl_hlo_opcode_of_(g.opc, g.olen, &phase);
		g.phase = (uint8_t)phase;
		g.param = -1;
		g.compact = true;
		g.pct = true; /* "%t#0": spelled as the operand is */
		g.op0 = (uint32_t)r->opnds.n;
		g.nops = 1;
		struct popnd *o = PUSH(r, opnds);
		memset(o, 0, sizeof *o);
		o->ref = ref;
		o->at = at;
		o->path = (uint32_t)r->paths.n;
		o->pct = base->pct;
		g.at0 = (uint32_t)r->attrs.n;
		g.nat = 1;
		struct pattr *a = PUSH(r, attrs);
		*a = (struct pattr){"index", digits, 5, dlen, at};
		*PUSH(r, insts) = g;
		uint32_t idx = (uint32_t)(r->insts.n - 1);
		name_define(r, idx);
		add_stmt(r, PL_HLO_STMT_NESTED, at, nm, g.nlen);
		return idx;
	}
}

static void parse_operand(struct hr *r, unsigned depth)
{
	const char *at = skip_from(r, r->p);
	size_t nn0 = r->shapes.n, nd0 = r->shapes.ndims;
	const char *ty = NULL;
	if (at_shape(r)) {
		parse_shape(r); /* a typed operand: the type is the definition's */
		ty = r->p;
	}
	const char *s;
	uint32_t len;
	bool pct;
	const char *name_at = skip_from(r, r->p);
	if (!read_name(r, &s, &len, &pct))
		expected(r, "an operand");
	uint32_t ref;
	if (!pct && peek(r) == '(') {
		/* a nested instruction without a name */
		r->shapes.n = nn0;
		r->shapes.ndims = nd0;
		r->p = at;
		ref = parse_inst(r, true, depth + 1);
	} else {
		r->shapes.n = nn0;
		r->shapes.ndims = nd0;
		uint32_t v = name_lookup(r, s, len);
		if (!v)
			fail(r, name_at, "'%.*s' is not defined before this use", (int)len, s);
		ref = v - 1;
	}
	struct popnd *o = PUSH(r, opnds);
	o->ref = ref;
	o->at = at;
	o->path = (uint32_t)r->paths.n;
	o->npath = 0;
	/* the shape a named operand is written with (a nested instruction's
	 * is its own) */
	o->ty = ty && !r->insts.v[ref].named_anon ? at : NULL;
	o->tylen = o->ty ? (uint32_t)(ty - at) : 0;
	o->pct = pct;
	/* "%t#1#0": the get-tuple-element lines XLA's parser makes for it */
	while (r->p < r->end && *r->p == '#') {
		r->p++;
		const char *digits = r->p;
		if (r->p >= r->end || !is_digit(*r->p))
			expected(r, "a tuple index after '#'");
		int64_t i = read_int(r);
		if (i > UINT32_MAX)
			fail(r, at, "tuple index out of range");
		struct popnd made = r->opnds.v[--r->opnds.n];
		made.ref = compact_gte(r, made.ref, digits, (uint32_t)(r->p - digits), at);
		*PUSH(r, opnds) = made;
	}
}

/* Reads balanced text up to the ')' that closes an already opened '('. */
static void capture_parens(struct hr *r, const char **s, uint32_t *len)
{
	const char *b = r->p, *q = r->p;
	int depth = 0;
	while (q < r->end) {
		char c = *q;
		if (c == '"' || c == '\'') {
			q = skip_string(r, q);
			continue;
		}
		if (c == '(' || c == '{' || c == '[')
			depth++;
		else if (c == ')' || c == '}' || c == ']') {
			if (depth == 0)
				break;
			depth--;
		}
		q++;
	}
	if (q >= r->end || *q != ')')
		fail(r, b, "unterminated literal");
	while (q > b && is_space(q[-1]))
		q--;
	const char *bb = skip_from(r, b);
	*s = bb;
	*len = (uint32_t)(q > bb ? q - bb : 0);
	r->p = q;
}

/* The opcode of an instruction, classified once. */
static void parse_opcode(struct hr *r, struct pinst *pi)
{
	peek(r);
	const char *ob = r->p, *q = r->p;
	while (q < r->end && ((*q >= 'a' && *q <= 'z') || is_digit(*q) || *q == '-' || *q == '_'))
		q++;
	if (q == ob || !(*ob >= 'a' && *ob <= 'z'))
		expected(r, "an opcode");
	pi->opc = ob;
	pi->olen = (uint32_t)(q - ob);
	/* XLA's opcodes have dashes, never underscores: hlo.all_gather
	 * spells all-gather */
	if (memchr(ob, '_', pi->olen))
		fail(r, ob, "'%.*s' is not an HLO opcode (they have no '_')", (int)pi->olen, ob);
	enum hlo_phase phase;
	enum hlo_op op = pl_hlo_opcode_of_(ob, pi->olen, &phase);
	pi->opcode = (uint8_t)op;
	pi->phase = (uint8_t)phase;
	if (op == HLO_OP_OTHER) {
		const char *near = pl_hlo_opcode_nearest_(ob, pi->olen);
		fail(r, ob, "unknown HLO opcode '%.*s'%s%s%s", (int)pi->olen, ob,
		     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	}
	r->p = q;
}

/* What is between the parentheses after the opcode: a parameter's
 * number, a constant's literal, or the operands. */
static void parse_args(struct hr *r, struct pinst *pi, unsigned depth)
{
	expect(r, '(', "'(' after the opcode");
	pi->op0 = (uint32_t)r->opnds.n;
	pi->param = -1;
	if (pi->opcode == HLO_OP_PARAMETER) {
		const char *at = skip_from(r, r->p);
		pi->param = read_int(r);
		if (pi->param < 0)
			fail(r, at, "negative parameter number");
		expect(r, ')', "')' after the parameter number");
		return;
	}
	if (pi->opcode == HLO_OP_CONSTANT) {
		capture_parens(r, &pi->lit, &pi->litlen);
		r->p++;
		return;
	}
	/* a nested instruction appends its own operands while this one's
	 * are read: keep this one's aside on a stack, append them after */
	size_t count = 0, base = r->side.n;
	if (peek(r) != ')') {
		for (;;) {
			parse_operand(r, depth);
			struct popnd o = r->opnds.v[--r->opnds.n];
			*PUSH(r, side) = o;
			count++;
			if (peek(r) == ',') {
				r->p++;
				continue;
			}
			break;
		}
	}
	if (peek(r) != ')')
		expected(r, "',' or ')' after an operand");
	r->p++;
	pi->op0 = (uint32_t)r->opnds.n;
	for (size_t k = base; k < r->side.n; k++)
		*PUSH(r, opnds) = r->side.v[k];
	r->side.n = base;
	pi->nops = (uint32_t)count;
}

/* The attributes after the operands, ", name=value" each. */
static void parse_attrs(struct hr *r, struct pinst *pi)
{
	pi->at0 = (uint32_t)r->attrs.n;
	for (;;) {
		const char *c = skip_from(r, r->p);
		if (c >= r->end || *c != ',')
			break;
		/* an attribute is "name=": otherwise the comma is the caller's */
		const char *k = skip_from(r, c + 1), *ke = k;
		while (ke < r->end && is_ident(*ke))
			ke++;
		if (ke == k || ke >= r->end || *ke != '=')
			break;
		if (r->attrs.n - pi->at0 >= 1024)
			fail(r, k, "more than 1024 attributes");
		for (uint32_t a = pi->at0; a < r->attrs.n; a++)
			if (r->attrs.v[a].klen == ke - k && memcmp(r->attrs.v[a].key, k, (size_t)(ke - k)) == 0)
				fail(r, k, "attribute '%.*s' is given twice", (int)(ke - k), k);
		r->p = ke + 1;
		struct pattr *a = PUSH(r, attrs);
		a->key = k;
		a->klen = (uint32_t)(ke - k);
		a->at = k;
		capture_value_at(r, &r->attrs.v[r->attrs.n - 1].val, &r->attrs.v[r->attrs.n - 1].vlen,
		                 word_is(k, (size_t)(ke - k), "literal"));
	}
	pi->nat = (uint32_t)(r->attrs.n - pi->at0);
}

/* A nested instruction's name: XLA names it "<opcode>.anon", made
 * unique: the first of "<opcode>.anon", "<opcode>.anon.1", ... not taken.
 * Names are never given back, so the search for an opcode goes on where
 * its last one ended. */
static void name_anon(struct hr *r, struct pinst *me)
{
	me->named_anon = true;
	struct anon_next *from = NULL;
	for (size_t a = 0; a < r->anon.n && !from; a++)
		if (r->anon.v[a].olen == me->olen && memcmp(r->anon.v[a].opc, me->opc, me->olen) == 0)
			from = &r->anon.v[a];
	if (!from)
		*(from = PUSH(r, anon)) = (struct anon_next){me->opc, me->olen, 0};
	for (unsigned k = from->next;; k++) {
		r->sb2.len = 0;
		pl_sb_put(&r->sb2, me->opc, me->olen);
		pl_sb_puts(&r->sb2, ".anon");
		if (k)
			pl_sb_printf(&r->sb2, ".%u", k);
		if (r->sb2.failed)
			nomem(r);
		if (!name_lookup(r, r->sb2.data, r->sb2.len)) {
			char *nm = ok(r, pl_arena_alloc(&r->m->arena, r->sb2.len));
			memcpy(nm, r->sb2.data, r->sb2.len);
			me->name = nm;
			me->nlen = (uint32_t)r->sb2.len;
			from->next = k + 1;
			break;
		}
	}
}

static uint32_t parse_inst(struct hr *r, bool nested, unsigned depth)
{
	if (depth > PL_MAX_NESTING)
		fail(r, r->p, "instructions nested deeper than %d", PL_MAX_NESTING);
	struct pinst pi;
	memset(&pi, 0, sizeof pi);
	pi.at = skip_from(r, r->p);
	if (!nested) {
		if (at_word(r, "ROOT")) {
			r->p += 4;
			pi.root = true;
		}
		bool pct;
		if (!read_name(r, &pi.name, &pi.nlen, &pct))
			expected(r, "an instruction name");
		pi.pct = pct;
		expect(r, '=', "'=' after an instruction name");
	}
	if (at_shape(r)) {
		pi.shape_at = r->p;
		pi.shape = parse_shape(r);
		pi.shape_len = (uint32_t)(r->p - pi.shape_at);
		pi.has_shape = true;
	}
	parse_opcode(r, &pi);
	parse_args(r, &pi, depth);
	parse_attrs(r, &pi);
	struct pinst *slot = PUSH(r, insts);
	*slot = pi;
	uint32_t idx = (uint32_t)(r->insts.n - 1);
	if (nested) {
		name_anon(r, &r->insts.v[idx]);
		add_stmt(r, PL_HLO_STMT_NESTED, pi.at, r->insts.v[idx].name, r->insts.v[idx].nlen);
	}
	name_define(r, idx);
	return idx;
}

/* ---- mapping onto the IR ---- */

static const struct pattr *find_attr(struct hr *r, const struct pinst *pi, const char *key)
{
	for (uint32_t a = pi->at0; a < pi->at0 + pi->nat; a++)
		if (word_is(r->attrs.v[a].key, r->attrs.v[a].klen, key))
			return &r->attrs.v[a];
	return NULL;
}

static void set_attr(struct hr *r, pl_inst *inst, const char *key, const pl_attr *v)
{
	if (!v || pl_attrs_set(pl_inst_attrs(inst), key, v) != PL_OK)
		nomem(r);
}

static void set_str(struct hr *r, pl_attrs *d, const char *key, const char *s, size_t len)
{
	const pl_attr *v = pl_attr_string(r->m, s, len);
	if (!v || pl_attrs_set(d, key, v) != PL_OK)
		nomem(r);
}

/* PL_HLO_KEY_PREFIX + the HLO attribute name, a dash spelled as an underscore. */
static const char *hlo_key(struct hr *r, const struct pattr *a)
{
	/* control-predecessors is the one name with a dash; its underscore
	 * spelling would come back as it */
	bool cp = word_is(a->key, a->klen, "control-predecessors");
	if (word_is(a->key, a->klen, "control_predecessors") ||
	    (!cp && memchr(a->key, '-', a->klen)))
		fail(r, a->at, "attribute name '%.*s' is not supported", (int)a->klen, a->key);
	r->sb2.len = 0;
	pl_sb_puts(&r->sb2, PL_HLO_KEY_PREFIX);
	for (uint32_t i = 0; i < a->klen; i++) {
		char c = a->key[i];
		if (c == '-')
			c = '_';
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_'))
			fail(r, a->at, "attribute name '%.*s' is not supported", (int)a->klen, a->key);
		pl_sb_putc(&r->sb2, c);
	}
	pl_sb_putc(&r->sb2, 0);
	if (r->sb2.failed)
		nomem(r);
	if (pl_hlo_internal_key_(r->sb2.data))
		fail(r, a->at, "attribute name '%.*s' is not supported (the reader uses '%s' itself)",
		     (int)a->klen, a->key, r->sb2.data);
	return r->sb2.data;
}

/* The number of the key of an HLO attribute in the module's keys; the few
 * names there are are remembered. */
static uint32_t key_id(struct hr *r, const struct pattr *a)
{
	for (unsigned k = 0; k < r->nkeys; k++)
		if (r->keys[k].len == a->klen && memcmp(r->keys[k].name, a->key, a->klen) == 0)
			return r->keys[k].key;
	const char *k = hlo_key(r, a);
	k = ok(r, (void *)(uintptr_t)pl_intern_str_(r->m, k, strlen(k)));
	uint32_t id = pl_key_id_(r->m, k);
	if (!id && r->m->keys.n == PL_KEY_MAX)
		fail(r, a->at, "more than %u distinct attribute names", PL_KEY_MAX);
	if (!id)
		nomem(r);
	if (r->nkeys < sizeof r->keys / sizeof *r->keys)
		r->keys[r->nkeys++] = (struct keymemo){a->key, a->klen, id};
	return id;
}

/* Keeps every HLO attribute of pi on d, verbatim. Keys are unique (the
 * parser checked) and none is one of the reader's own (hlo_key refuses
 * those). */
static void keep_attrs_but(struct hr *r, const struct pinst *pi, pl_attrs *d, const char *skip)
{
	for (uint32_t a = pi->at0; a < pi->at0 + pi->nat; a++) {
		const struct pattr *at = &r->attrs.v[a];
		if (skip && word_is(at->key, at->klen, skip))
			continue;
		uint32_t key = key_id(r, at);
		const pl_attr *v = pl_attr_string(r->m, at->val, at->vlen);
		if (!v)
			nomem(r);
		if (pl_attrs_find_id_(d, key))
			fail(r, at->at, "attribute '%.*s' is also the reader's own", (int)at->klen, at->key);
		if (pl_attrs_append_(r->m, d, key, v) != PL_OK)
			nomem(r);
	}
}

static void keep_attrs(struct hr *r, const struct pinst *pi, pl_attrs *d)
{
	keep_attrs_but(r, pi, d, NULL);
}

static bool rest_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

/* A list of integers written "{1,2}", and nothing after it. false when it
 * is not one. */
static bool int_list(const char *s, size_t len, int64_t *out, size_t cap, size_t *n)
{
	*n = 0;
	size_t i = 0;
	while (i < len && is_space(s[i]))
		i++;
	if (i >= len || s[i] != '{')
		return false;
	i++;
	for (;;) {
		while (i < len && is_space(s[i]))
			i++;
		if (i < len && s[i] == '}' && *n == 0)
			return rest_blank(s + i + 1, len - i - 1);
		bool neg = i < len && s[i] == '-';
		if (neg)
			i++;
		if (i >= len || !is_digit(s[i]))
			return false;
		int64_t v = 0;
		while (i < len && is_digit(s[i])) {
			if (v > (INT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (s[i++] - '0');
		}
		if (*n == cap)
			return false;
		out[(*n)++] = neg ? -v : v;
		while (i < len && is_space(s[i]))
			i++;
		if (i < len && s[i] == ',') {
			i++;
			continue;
		}
		return i < len && s[i] == '}' && rest_blank(s + i + 1, len - i - 1);
	}
}

/* item: computation index + 1; probe: a name_ref; ctx: the reader */
static bool same_comp(const void *item, const void *probe, const void *ctx)
{
	const struct hr *r = ctx;
	const struct name_ref *n = probe;
	const struct comp *c = &r->comps.v[(uintptr_t)item - 1];
	return c->len == n->len && memcmp(c->name, n->s, n->len) == 0;
}

static struct comp *find_comp(struct hr *r, const char *s, size_t len)
{
	while (len && is_space(s[len - 1]))
		len--;
	if (len && *s == '%') {
		s++;
		len--;
	}
	if (!r->comp_index.count)
		return NULL;
	struct name_ref n = {s, len};
	uintptr_t k = (uintptr_t)pl_ht_get(&r->comp_index, name_hash(s, len), same_comp, &n, r);
	return k ? &r->comps.v[k - 1] : NULL;
}

/* The integers of the text b[0..tl) read as the list "{b}"; false when
 * it is not one (or too long to copy). */
enum { BRACED_TMP = 512 };

static bool braced_ints(const char *b, size_t tl, int64_t *out, size_t max, size_t *n)
{
	char tmp[BRACED_TMP];
	if (tl > sizeof tmp - 3)
		return false;
	tmp[0] = '{';
	memcpy(tmp + 1, b, tl);
	tmp[tl + 1] = '}';
	return int_list(tmp, tl + 2, out, max, n);
}

/* Explicit groups {{0,1},{2,3}}: the numbers, spaces dropped; *size the
 * first group's. */
static void explicit_groups(struct hr *r, const struct pattr *rg, struct pl_strbuf *sb,
                            int64_t *size)
{
	const char *s = rg->val;
	size_t len = rg->vlen;
	int64_t cur = 0;
	bool first_done = false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (is_space(c))
			continue;
		if (!is_digit(c) && c != ',' && c != '{' && c != '}')
			fail(r, rg->at, "malformed replica_groups");
		pl_sb_putc(sb, c);
		if (is_digit(c) && (i + 1 >= len || !is_digit(s[i + 1])) && !first_done)
			cur++;
		if (c == '}' && i > 0 && !first_done && cur) {
			*size = cur;
			first_done = true;
		}
	}
}

/* The walk of the iota list [G,S]<=[d0,d1,...]T(p0,p1,...): the
 * transposed array in row-major order, G groups of S. */
static void expand_iota(struct pl_strbuf *sb, const int64_t *gs, const int64_t *d,
                        const int64_t *perm, size_t ndim, int64_t total)
{
	int64_t idx[PL_MAX_RANK] = {0}, stride[PL_MAX_RANK];
	stride[ndim - 1] = 1;
	for (size_t k = ndim - 1; k-- > 0;)
		stride[k] = stride[k + 1] * d[k + 1];
	pl_sb_putc(sb, '{');
	char num[24];
	for (int64_t n = 0; n < total; n++) {
		int64_t lin = 0;
		for (size_t k = 0; k < ndim; k++)
			lin += idx[k] * stride[perm[k]];
		if (n % gs[1] == 0)
			pl_sb_puts(sb, n ? "},{" : "{");
		else
			pl_sb_putc(sb, ',');
		pl_sb_put(sb, num, pl_fmt_i64(num, lin));
		for (size_t k = ndim; k-- > 0;) {
			if (++idx[k] < d[perm[k]])
				break;
			idx[k] = 0;
		}
	}
	pl_sb_puts(sb, "}}");
}

/* An iota list [G,S]<=[d0,d1,...]T(p0,p1,...) expanded into sb, *size
 * S; false (sb untouched) when s is not one or is too large to expand. */
static bool iota_groups(const char *s, size_t len, struct pl_strbuf *sb, int64_t *size)
{
	int64_t gs[2], d[PL_MAX_RANK], perm[PL_MAX_RANK];
	size_t ng = 0, ndim = 0, nperm = 0, i = 1;
	const char *e = memchr(s, ']', len);
	if (!e || (size_t)(e - s) > BRACED_TMP - 3 ||
	    !braced_ints(s + 1, (size_t)(e - s) - 1, gs, 2, &ng) || ng != 2)
		return false;
	i = (size_t)(e - s) + 1;
	if (i + 3 > len || s[i] != '<' || s[i + 1] != '=' || s[i + 2] != '[')
		return false;
	i += 3;
	const char *e2 = memchr(s + i, ']', len - i);
	if (!e2 || !braced_ints(s + i, (size_t)(e2 - (s + i)), d, PL_MAX_RANK, &ndim) || ndim == 0)
		return false;
	i = (size_t)(e2 - s) + 1;
	if (i < len && s[i] == 'T') {
		if (i + 1 >= len || s[i + 1] != '(')
			return false;
		const char *e3 = memchr(s + i, ')', len - i);
		if (!e3 || !braced_ints(s + i + 2, (size_t)(e3 - (s + i + 2)), perm, PL_MAX_RANK, &nperm) ||
		    nperm != ndim)
			return false;
		i = (size_t)(e3 - s) + 1;
	} else {
		nperm = ndim;
		for (size_t k = 0; k < ndim; k++)
			perm[k] = (int64_t)k;
	}
	if (i != len)
		return false;
	int64_t total = 1;
	for (size_t k = 0; k < ndim; k++) {
		if (d[k] <= 0 || total > (1 << 20) / d[k])
			return false;
		total *= d[k];
	}
	bool seen[PL_MAX_RANK] = {false};
	for (size_t k = 0; k < ndim; k++) {
		if (perm[k] < 0 || (size_t)perm[k] >= ndim || seen[perm[k]])
			return false;
		seen[perm[k]] = true;
	}
	if (gs[0] <= 0 || gs[1] <= 0 || gs[0] * gs[1] != total)
		return false;
	expand_iota(sb, gs, d, perm, ndim, total);
	*size = gs[1];
	return true;
}

/* An iota list too large to expand, or the mesh form: kept as text,
 * spaces dropped. */
static void raw_groups(struct hr *r, const struct pattr *rg, struct pl_strbuf *sb)
{
	const char *s = rg->val;
	size_t len = rg->vlen;
	if (s[0] != '[' && !(len > 4 && memcmp(s, "mesh", 4) == 0))
		fail(r, rg->at, "malformed replica_groups");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 && !is_space(s[i]))
			fail(r, rg->at, "malformed replica_groups");
		if (c >= 0x7f)
			fail(r, rg->at, "malformed replica_groups");
		if (!is_space(s[i]))
			pl_sb_putc(sb, s[i]);
	}
}

/* The canonical text of the groups of a collective: expanded, ordered
 * groups after the group mode, so that an iota list and the explicit list
 * it stands for give the same text. *size is the first group's size (0 for
 * "all", -1 when unknown). */
static void group_text(struct hr *r, const struct pinst *pi, struct pl_strbuf *sb,
                       int64_t *size)
{
	const struct pattr *rg = find_attr(r, pi, "replica_groups");
	const struct pattr *ch = find_attr(r, pi, "channel_id");
	const struct pattr *ug = find_attr(r, pi, "use_global_device_ids");
	bool global = ug && word_is(ug->val, ug->vlen, "true");
	pl_sb_puts(sb, !ch ? "replica:" : global ? "global:" : "replica_partition:");
	*size = -1;
	if (!rg || (rg->vlen == 2 && rg->val[0] == '{' && rg->val[1] == '}')) {
		pl_sb_puts(sb, "all");
		*size = 0;
	} else if (rg->val[0] == '{') {
		explicit_groups(r, rg, sb, size);
	} else if (rg->val[0] != '[' || !iota_groups(rg->val, rg->vlen, sb, size)) {
		raw_groups(r, rg, sb);
	}
}

/* The devices in each group of a collective whose first group has size
 * devices (group_text): size itself, or for "all" every device of the
 * mode: the replicas without a channel, else replicas x partitions, each
 * 1 when the header names only the other (XLA's defaults); 0 unknown. */
static int64_t group_size(struct hr *r, const struct pinst *pi, int64_t size)
{
	if (size != 0)
		return size > 0 ? size : 0;
	bool ch = find_attr(r, pi, "channel_id") != NULL;
	int64_t rc = r->replica_count ? r->replica_count : 1;
	int64_t np = r->num_partitions ? r->num_partitions : 1;
	int64_t factor = 0;
	if (!ch)
		factor = r->replica_count;
	else if ((r->replica_count || r->num_partitions) &&
	         __builtin_mul_overflow(rc, np, &factor))
		factor = 0; /* past any real machine: unknown */
	return factor;
}

/* all-to-all and ragged-all-to-all stay HLO ops, but carry their groups
 * and group size as the SDK's collectives do (group_id, factor): the
 * cost model, the schedule and the Timeline read them. */
static void exchange_attrs(struct hr *r, const struct pinst *pi, pl_inst *inst)
{
	int64_t size;
	r->sb2.len = 0;
	group_text(r, pi, &r->sb2, &size);
	if (r->sb2.failed)
		nomem(r);
	set_attr(r, inst, "group_id", pl_attr_string(r->m, r->sb2.data, r->sb2.len));
	int64_t factor = group_size(r, pi, size);
	if (factor > 0)
		set_attr(r, inst, "factor", pl_attr_int(r->m, factor));
}

/* Derives group_id, factor, dimension and reduce for a collective. */
static void collective_attrs(struct hr *r, const struct pinst *pi, pl_inst *inst, pl_op op,
                             pl_value *const *ops, size_t nops, const pl_type *const *res)
{
	pl_op base = op == PL_OP_ALL_GATHER_START ? PL_OP_ALL_GATHER
	             : op == PL_OP_REDUCE_SCATTER_START ? PL_OP_REDUCE_SCATTER
	             : op == PL_OP_ALL_REDUCE_START ? PL_OP_ALL_REDUCE : op;
	const pl_attr *group = NULL, *reduce = NULL;
	int64_t factor = 0, dim = -1;
	bool bare = true;
	/* dimensions= and to_apply= are there (check_required) */
	if (base != PL_OP_ALL_GATHER) {
		const struct pattr *ta = find_attr(r, pi, "to_apply");
		const struct comp *c = ta ? find_comp(r, ta->val, ta->vlen) : NULL;
		bare = c && c->bare;
		if (c && c->reduce)
			reduce = ok(r, (void *)(uintptr_t)pl_attr_string(r->m, c->reduce, strlen(c->reduce)));
	}
	if (base != PL_OP_ALL_REDUCE) {
		const struct pattr *da = find_attr(r, pi, "dimensions");
		int64_t dv[2];
		size_t n;
		if (!int_list(da->val, da->vlen, dv, 2, &n) || n != 1 || dv[0] < 0)
			fail(r, da->at, "dimensions of '%.*s' must be one dimension {d}", (int)pi->nlen,
			     pi->name);
		dim = dv[0];
	}
	int64_t size;
	r->sb2.len = 0;
	group_text(r, pi, &r->sb2, &size);
	if (r->sb2.failed)
		nomem(r);
	if (bare && !find_attr(r, pi, "control-predecessors"))
		group = ok(r, (void *)(uintptr_t)pl_attr_string(r->m, r->sb2.data, r->sb2.len));
	if (base == PL_OP_ALL_REDUCE) {
		factor = group_size(r, pi, size);
	} else if (dim >= 0 && nops) {
		/* from the shapes: every operand must agree */
		for (size_t k = 0; k < nops; k++) {
			const pl_type *a = pl_value_type(ops[k]), *b = res[k];
			if ((size_t)dim >= a->rank || a->rank != b->rank) {
				factor = -1;
				break;
			}
			int64_t big = base == PL_OP_ALL_GATHER ? b->dims[dim] : a->dims[dim];
			int64_t small = base == PL_OP_ALL_GATHER ? a->dims[dim] : b->dims[dim];
			int64_t f = small > 0 && big % small == 0 ? big / small : -1;
			bool same = true;
			for (uint32_t j = 0; j < a->rank; j++)
				if (j != (uint32_t)dim && a->dims[j] != b->dims[j])
					same = false;
			if (f < 1 || !same || (factor && f != factor)) {
				factor = -1;
				break;
			}
			factor = f;
		}
		if (factor < 0)
			factor = 0;
	}
	if (group)
		set_attr(r, inst, "group_id", group);
	if (factor > 0)
		set_attr(r, inst, "factor", pl_attr_int(r->m, factor));
	if (dim >= 0 && (factor > 0 || base != PL_OP_ALL_REDUCE))
		set_attr(r, inst, "dimension", pl_attr_int(r->m, dim));
	if (reduce)
		set_attr(r, inst, "reduce", reduce);
}

/* The leaves an operand stands for. */
static void operand_view(struct hr *r, const struct popnd *o, uint32_t *node, uint32_t *leaf0,
                         uint32_t *nleaves)
{
	struct pinst *d = &r->insts.v[o->ref];
	uint32_t n = d->shape, l = d->leaf0;
	for (uint32_t k = 0; k < o->npath; k++) {
		uint32_t c = child_at(r, n, r->paths.v[o->path + k], &l);
		if (c == UINT32_MAX)
			fail(r, o->at, "tuple index %u is out of range for '%.*s'", r->paths.v[o->path + k],
			     (int)d->nlen, d->name);
		n = c;
	}
	*node = n;
	*leaf0 = l;
	*nleaves = r->shapes.v[n].nleaves;
	/* whether d holds such a context at all is asked once (each of the
	 * get-tuple-elements of a tuple of thousands would walk it all) */
	if (!d->ctx_known) {
		for (uint32_t k = 0; k < d->nleaves && !d->has_ctx; k++)
			d->has_ctx = !r->leaves.v[d->leaf0 + k];
		d->ctx_known = true;
	}
	for (uint32_t k = 0; d->has_ctx && k < *nleaves; k++)
		if (!r->leaves.v[l + k])
			fail(r, o->at, "the context of an asynchronous collective cannot be used");
}

/* Whether shapes a and b are alike but for layouts, as XLA's parser
 * compares a typed operand with its definition (ShapeUtil::Compatible):
 * tuples of alike elements; arrays of one element type and rank whose
 * extents are equal where neither is unbounded ("?"). */
static bool compatible_shapes(const struct pl_hlo_shapes *s, uint32_t a, uint32_t b)
{
	const struct pl_hlo_snode *x = &s->v[a], *y = &s->v[b];
	if (x->tuple != y->tuple)
		return false;
	if (!x->tuple) {
		if (x->dtype != y->dtype || x->rank != y->rank)
			return false;
		for (uint32_t k = 0; k < x->rank; k++)
			if (!((x->unbounded | y->unbounded) >> k & 1) &&
			    s->dims[x->dims + k] != s->dims[y->dims + k])
				return false;
		return true;
	}
	uint32_t ca = a + 1, cb = b + 1;
	for (; ca < a + x->size && cb < b + y->size; ca += s->v[ca].size, cb += s->v[cb].size)
		if (!compatible_shapes(s, ca, cb))
			return false;
	return ca == a + x->size && cb == b + y->size;
}

/* A typed operand ("negate(s32[4] p)") is written with its definition's
 * shape, up to layouts: XLA's parser refuses another. */
static void check_typed_operands(struct hr *r, const struct pinst *pi)
{
	for (uint32_t k = 0; k < pi->nops; k++) {
		const struct popnd *o = &r->opnds.v[pi->op0 + k];
		if (!o->ty)
			continue;
		const struct pinst *d = &r->insts.v[o->ref];
		uint32_t node = d->shape, leaf = 0;
		for (uint32_t j = 0; j < o->npath && node != UINT32_MAX; j++)
			node = child_at(r, node, r->paths.v[o->path + j], &leaf);
		if (node == UINT32_MAX)
			continue; /* operand_view names the bad index */
		size_t n0 = r->shapes.n, d0 = r->shapes.ndims;
		const char *save = r->p;
		r->p = o->ty;
		uint32_t decl = parse_shape(r);
		r->p = save;
		if (!compatible_shapes(&r->shapes, decl, node)) {
			r->sb2.len = 0;
			r->shapes.print_bare = true; /* as written */
			put_shape(r, &r->sb2, decl);
			size_t dl = r->sb2.len;
			put_shape(r, &r->sb2, node);
			if (r->sb2.failed)
				nomem(r);
			fail(r, o->at, "operand '%.*s' is declared %.*s, but its shape is %.*s",
			     (int)d->nlen, d->name, (int)dl, r->sb2.data, (int)(r->sb2.len - dl),
			     r->sb2.data + dl);
		}
		r->shapes.n = n0;
		r->shapes.ndims = d0;
	}
}

/* The attribute key[0..len) of line pi is there, as XLA's parser
 * requires. */
static void need_attr(struct hr *r, const struct pinst *pi, const char *key, size_t len)
{
	for (uint32_t a = pi->at0; a < pi->at0 + pi->nat; a++)
		if (r->attrs.v[a].klen == len && memcmp(r->attrs.v[a].key, key, len) == 0)
			return;
	fail(r, pi->at, "'%.*s' (%.*s) has no %.*s=, which XLA's parser requires", (int)pi->nlen,
	     pi->name, (int)pi->olen, pi->opc, (int)len, key);
}

/* The attributes XLA's parser requires of line pi (hlo_opcodes.h): an
 * async pair's short form "op-start" those of op, its -update and -done
 * none (they are the start's). */
static void check_required(struct hr *r, const struct pinst *pi)
{
	if (pi->phase == HLO_PHASE_UPDATE || pi->phase == HLO_PHASE_DONE)
		return;
	enum hlo_op op = (enum hlo_op)pi->opcode;
	for (const char *w = pl_hlo_opcode_required_(op); *w;) {
		size_t n = strcspn(w, " ");
		need_attr(r, pi, w, n);
		w += n + (w[n] == ' ');
	}
	if ((op != HLO_OP_BROADCAST && op != HLO_OP_CONDITIONAL) || !pi->nops)
		return;
	const struct popnd *o = &r->opnds.v[pi->op0];
	const struct pl_hlo_snode *first = &r->shapes.v[r->insts.v[o->ref].shape];
	if (o->npath) { /* "t#0": the element's shape */
		uint32_t leaf = 0, node = r->insts.v[o->ref].shape;
		for (uint32_t j = 0; j < o->npath && node != UINT32_MAX; j++)
			node = child_at(r, node, r->paths.v[o->path + j], &leaf);
		if (node == UINT32_MAX)
			return;
		first = &r->shapes.v[node];
	}
	bool scalar = !first->tuple && first->rank == 0;
	if (op == HLO_OP_BROADCAST && !scalar) {
		need_attr(r, pi, "dimensions", 10);
	} else if (op == HLO_OP_CONDITIONAL && scalar && first->dtype == PL_DTYPE_BOOL) {
		need_attr(r, pi, "true_computation", 16);
		need_attr(r, pi, "false_computation", 17);
	} else if (op == HLO_OP_CONDITIONAL) {
		need_attr(r, pi, "branch_computations", 19);
	}
}

/* The structure of an operand list: "_" per array, "(...)" per tuple;
 * with texts, an array whose shape is not the default gives its text. */
static void put_structure_of(struct hr *r, struct pl_strbuf *sb, uint32_t node, bool texts)
{
	const struct pl_hlo_snode *n = &r->shapes.v[node];
	if (!n->tuple) {
		if (!texts || pl_hlo_shape_default_array_(&r->shapes, node))
			pl_sb_putc(sb, '_');
		else
			put_shape(r, sb, node);
		return;
	}
	pl_sb_putc(sb, '(');
	uint32_t c = node + 1;
	for (bool first = true; c < node + n->size; first = false) {
		if (!first)
			pl_sb_putc(sb, ',');
		put_structure_of(r, sb, c, texts);
		c += r->shapes.v[c].size;
	}
	pl_sb_putc(sb, ')');
}

static void put_structure(struct hr *r, struct pl_strbuf *sb, uint32_t node)
{
	put_structure_of(r, sb, node, false);
}

/* Whether shapes a and b have the same tuple structure. */
static bool same_structure(struct hr *r, uint32_t a, uint32_t b)
{
	r->sb.len = 0;
	put_structure(r, &r->sb, a);
	size_t l1 = r->sb.len;
	put_structure(r, &r->sb, b);
	if (r->sb.failed)
		nomem(r);
	return r->sb.len == 2 * l1 && memcmp(r->sb.data, r->sb.data + l1, l1) == 0;
}

/* Names result k of a value with nleaves leaves: the name itself for an
 * array, "name$k" for the leaves of a tuple ('$' is not in HLO names). */
static const char *leaf_name(struct hr *r, const struct pinst *pi, bool tuple, uint32_t k)
{
	r->sb2.len = 0;
	pl_sb_put(&r->sb2, pi->name, pi->nlen);
	if (tuple)
		pl_sb_printf(&r->sb2, "$%u", k);
	pl_sb_putc(&r->sb2, 0);
	if (r->sb2.failed)
		nomem(r);
	return r->sb2.data;
}

static uint32_t push_leaf(struct hr *r, pl_value *v)
{
	*PUSH(r, leaves) = v;
	return (uint32_t)(r->leaves.n - 1);
}


/* Stores the shape's XLA text under hlo_shape when the writer could not
 * rebuild it from the result types alone. */
static void keep_shape(struct hr *r, pl_attrs *d, uint32_t node, const pl_type *const *types,
                       size_t n)
{
	r->sb.len = 0;
	put_shape(r, &r->sb, node);
	size_t len = r->sb.len;
	pl_hlo_put_types_(&r->sb, types, n);
	if (r->sb.failed)
		nomem(r);
	bool same = r->shapes.v[node].tuple == (n != 1) && r->sb.len == 2 * len &&
	            memcmp(r->sb.data, r->sb.data + len, len) == 0;
	if (!same)
		set_str(r, d, HK(SHAPE), r->sb.data, len);
}

/* The SDK's collective of an HLO opcode, or PL_OP_OTHER. */
static pl_op collective_of(enum hlo_op op)
{
	switch (op) {
	case HLO_OP_ALL_GATHER: return PL_OP_ALL_GATHER;
	case HLO_OP_ALL_REDUCE: return PL_OP_ALL_REDUCE;
	case HLO_OP_REDUCE_SCATTER: return PL_OP_REDUCE_SCATTER;
	default: return PL_OP_OTHER;
	}
}

static pl_op start_of(pl_op op)
{
	return op == PL_OP_ALL_GATHER ? PL_OP_ALL_GATHER_START
	       : op == PL_OP_ALL_REDUCE ? PL_OP_ALL_REDUCE_START
	       : op == PL_OP_REDUCE_SCATTER ? PL_OP_REDUCE_SCATTER_START : PL_OP_OTHER;
}

static pl_op done_of(pl_op start)
{
	return start == PL_OP_ALL_GATHER_START ? PL_OP_ALL_GATHER_DONE
	       : start == PL_OP_ALL_REDUCE_START ? PL_OP_ALL_REDUCE_DONE
	                                         : PL_OP_REDUCE_SCATTER_DONE;
}

/* Shape inference for the opcodes whose shape the text may leave out. */
static uint32_t infer_shape(struct hr *r, const struct pinst *pi)
{
	bool ok_op = pl_hlo_opcode_flags_((enum hlo_op)pi->opcode, (enum hlo_phase)pi->phase) &
	             HLO_F_SHAPE_OF_OPERAND;
	if (pi->opcode == HLO_OP_SELECT && pi->nops == 3) {
		uint32_t node, l0, nl;
		operand_view(r, &r->opnds.v[pi->op0 + 1], &node, &l0, &nl);
		return node;
	}
	if (ok_op && pi->nops >= 1) {
		uint32_t node, l0, nl;
		operand_view(r, &r->opnds.v[pi->op0], &node, &l0, &nl);
		return node;
	}
	if (pi->opcode == HLO_OP_COMPARE && pi->nops == 2) {
		uint32_t node, l0, nl;
		operand_view(r, &r->opnds.v[pi->op0], &node, &l0, &nl);
		if (!r->shapes.v[node].tuple) {
			/* pred of the operand's extents, in the default layout */
			uint32_t c = copy_shape(r, node);
			struct pl_hlo_snode *n = &r->shapes.v[c];
			n->dtype = PL_DTYPE_BOOL;
			n->has_layout = 0;
			n->bare = 0;
			n->layout = NULL;
			n->layout_len = 0;
			return c;
		}
	}
	fail(r, pi->at, "the shape of '%.*s' (%.*s) cannot be inferred; write it", (int)pi->nlen,
	     pi->name, (int)pi->olen, pi->opc);
}

/* tensor_contract's domain: batch, lhs-free, rhs-free, contracting
 * extents. false when the dot is not a plain two-array one. */
static bool dot_domain(struct hr *r, const struct pinst *pi, pl_value *const *ops, size_t nops,
                       int64_t *dom, size_t *n)
{
	if (nops != 2)
		return false;
	const pl_type *a = pl_value_type(ops[0]), *b = pl_value_type(ops[1]);
	int64_t lb[PL_MAX_RANK], lc[PL_MAX_RANK], rb[PL_MAX_RANK], rc[PL_MAX_RANK];
	size_t nlb = 0, nlc = 0, nrb = 0, nrc = 0;
	const struct pattr *x;
	if ((x = find_attr(r, pi, "lhs_batch_dims")) && !int_list(x->val, x->vlen, lb, PL_MAX_RANK, &nlb))
		return false;
	if ((x = find_attr(r, pi, "lhs_contracting_dims")) &&
	    !int_list(x->val, x->vlen, lc, PL_MAX_RANK, &nlc))
		return false;
	if ((x = find_attr(r, pi, "rhs_batch_dims")) && !int_list(x->val, x->vlen, rb, PL_MAX_RANK, &nrb))
		return false;
	if ((x = find_attr(r, pi, "rhs_contracting_dims")) &&
	    !int_list(x->val, x->vlen, rc, PL_MAX_RANK, &nrc))
		return false;
	bool la[PL_MAX_RANK] = {false}, ra[PL_MAX_RANK] = {false};
	for (size_t k = 0; k < nlb; k++) {
		if (lb[k] < 0 || lb[k] >= a->rank || la[lb[k]])
			return false;
		la[lb[k]] = true;
	}
	for (size_t k = 0; k < nlc; k++) {
		if (lc[k] < 0 || lc[k] >= a->rank || la[lc[k]])
			return false;
		la[lc[k]] = true;
	}
	for (size_t k = 0; k < nrb; k++) {
		if (rb[k] < 0 || rb[k] >= b->rank || ra[rb[k]])
			return false;
		ra[rb[k]] = true;
	}
	for (size_t k = 0; k < nrc; k++) {
		if (rc[k] < 0 || rc[k] >= b->rank || ra[rc[k]])
			return false;
		ra[rc[k]] = true;
	}
	size_t m = 0;
	for (size_t k = 0; k < nlb; k++)
		dom[m++] = a->dims[lb[k]];
	for (uint32_t k = 0; k < a->rank; k++)
		if (!la[k])
			dom[m++] = a->dims[k];
	for (uint32_t k = 0; k < b->rank; k++)
		if (!ra[k])
			dom[m++] = b->dims[k];
	/* the result is batch x lhs-free x rhs-free, as XLA's dot: else the
	 * dot stays hlo.dot */
	const pl_type *res = r->types.v[0];
	if (nlb != nrb || nlc != nrc || res->rank != m)
		return false;
	for (size_t k = 0; k < m; k++)
		if (res->dims[k] != dom[k])
			return false;
	for (size_t k = 0; k < nlc; k++)
		dom[m++] = a->dims[lc[k]];
	*n = m;
	return true;
}

static pl_inst *new_inst(struct hr *r, pl_func *f, const char *opname, size_t nops, size_t nres,
                         const struct pinst *pi)
{
	pl_inst *inst = ok(r, pl_inst_new(f, opname, r->vals.v, nops, r->types.v, nres));
	pl_func_append(f, inst);
	uint32_t line, col;
	locate(r, pi->at, &line, &col);
	pl_inst_set_loc(inst, line, col);
	return inst;
}

static void name_results(struct hr *r, const struct pinst *pi, pl_inst *inst, bool tuple)
{
	size_t n = pl_inst_num_results(inst);
	for (size_t k = 0; k < n; k++)
		if (pl_value_set_name(pl_inst_result(inst, k), leaf_name(r, pi, tuple, (uint32_t)k)))
			nomem(r);
	if (n == 0)
		set_str(r, pl_inst_attrs(inst), HK(NAME), pi->name, pi->nlen);
}

/* The operands' leaves into r->vals.v; returns their count. hlo_operands
 * records the structure when an operand is a tuple. */
static size_t gather_operands(struct hr *r, const struct pinst *pi, bool *tuple_operand)
{
	size_t n = 0;
	*tuple_operand = false;
	for (uint32_t k = 0; k < pi->nops; k++) {
		uint32_t node, l0, nl;
		operand_view(r, &r->opnds.v[pi->op0 + k], &node, &l0, &nl);
		if (r->shapes.v[node].tuple)
			*tuple_operand = true;
		r->vals.v = grow(r, r->vals.v, &r->vals.cap, n + nl, sizeof *r->vals.v);
		for (uint32_t j = 0; j < nl; j++)
			r->vals.v[n++] = r->leaves.v[l0 + j];
	}
	return n;
}

/* Whether alias a is a get-tuple-element named as the writer names one
 * it makes (as XLA's parser names a "%t#1" it expands): its tuple's name,
 * '_', its index, and ".N" where that name was taken ("t_1", "t_1.2"):
 * its name is not kept then (the writer's own lines, read back, give the
 * same IR). Every other name is kept. */
static bool made_as_writer_would(struct hr *r, struct pinst *a)
{
	if (a->opcode != HLO_OP_GET_TUPLE_ELEMENT || a->nops != 1)
		return false;
	const struct popnd *o = &r->opnds.v[a->op0];
	const struct pinst *t = &r->insts.v[o->ref];
	const char *idx = NULL;
	uint32_t ilen = 0;
	for (uint32_t k = a->at0; k < a->at0 + a->nat; k++)
		if (word_is(r->attrs.v[k].key, r->attrs.v[k].klen, "index")) {
			idx = r->attrs.v[k].val;
			ilen = r->attrs.v[k].vlen;
		}
	const char *s = a->name, *e = a->name + a->nlen;
	if (o->npath || !idx || (size_t)(e - s) < (size_t)t->nlen + 1 + ilen ||
	    memcmp(s, t->name, t->nlen) != 0 || s[t->nlen] != '_' ||
	    memcmp(s + t->nlen + 1, idx, ilen) != 0)
		return false;
	s += t->nlen + 1 + ilen;
	while (s < e) {
		if (*s++ != '.' || s >= e || !is_digit(*s))
			return false;
		while (s < e && is_digit(*s))
			s++;
	}
	return true;
}

/* The attributes of an alias, but a get-tuple-element's index. */
static bool alias_has_attrs(struct hr *r, const struct pinst *a)
{
	for (uint32_t k = a->at0; k < a->at0 + a->nat; k++)
		if (!word_is(r->attrs.v[k].key, r->attrs.v[k].klen, "index"))
			return true;
	return false;
}

/* The instruction or parameter before line upto whose value holds v, as
 * the writer sees it, and the leaf of that value v is (*leaf); NULL when
 * there is none. */
static const struct pinst *owner_of(struct hr *r, const pl_value *v, uint32_t upto,
                                    uint32_t *leaf)
{
	if (pl_value_is_arg(v)) {
		size_t arg = pl_value_index(v);
		if (arg >= r->arg_owner.n)
			return NULL;
		const struct pinst *c = &r->insts.v[r->arg_owner.v[arg]];
		*leaf = (uint32_t)(arg - pl_value_index(r->leaves.v[c->leaf0]));
		return c;
	}
	const pl_inst *def = pl_value_def(v);
	owners_sync(r, upto);
	if (!r->owners.count)
		return NULL;
	size_t j = pl_ht_find(&r->owners, pl_ht_hash_ptr(def), pl_ht_same_ptr, def, NULL);
	if (!pl_ht_used(&r->owners, j))
		return NULL;
	*leaf = (uint32_t)pl_value_index(v);
	return &r->insts.v[(uintptr_t)r->owners.vals[j]];
}

enum { VNODE_UNKNOWN, VNODE_WHOLE, VNODE_PART, VNODE_NONE };

/* Whether the alias a stands for the whole value of an instruction or
 * parameter (VNODE_WHOLE), or for one node of it (VNODE_PART), in the same
 * structure: the writer names that value or node then, as it finds it (by
 * the owner of the first leaf, the leaves in the order of its results or
 * arguments, the node by walking down to the first leaf). */
static int value_node(struct hr *r, struct pinst *a)
{
	if (a->vnode != VNODE_UNKNOWN)
		return a->vnode;
	a->vnode = VNODE_NONE;
	if (!a->nleaves)
		return a->vnode;
	pl_value *v0 = r->leaves.v[a->leaf0];
	uint32_t j = 0;
	uint32_t upto = (uint32_t)(a - r->insts.v);
	const struct pinst *c = owner_of(r, v0, upto, &j);
	if (!c)
		return a->vnode;
	for (uint32_t k = 1; k < a->nleaves; k++) {
		uint32_t jk = 0;
		if (owner_of(r, r->leaves.v[a->leaf0 + k], upto, &jk) != c || jk != j + k)
			return a->vnode;
	}
	r->sb2.len = 0;
	put_structure(r, &r->sb2, a->shape);
	if (r->sb2.failed)
		nomem(r);
	size_t la = r->sb2.len;
	uint32_t node = c->shape, first = 0;
	for (unsigned depth = 0;; depth++) {
		const struct pl_hlo_snode *n = &r->shapes.v[node];
		if (first == j && n->nleaves == a->nleaves) {
			r->sb2.len = la;
			put_structure(r, &r->sb2, node);
			if (r->sb2.failed)
				nomem(r);
			if (r->sb2.len == 2 * la && memcmp(r->sb2.data, r->sb2.data + la, la) == 0) {
				a->vnode = depth ? VNODE_PART : VNODE_WHOLE;
				return a->vnode;
			}
		}
		if (!n->tuple || depth == PL_MAX_NESTING)
			return a->vnode;
		uint32_t ch = pl_hlo_shape_child_holding_(&r->shapes, node, j, &first, NULL);
		if (ch == UINT32_MAX)
			return a->vnode;
		node = ch;
	}
}

/* A tuple operand the writer rebuilds as a line of its own: a tuple line
 * of the input that is no node of a value. Its name and place are in
 * hlo_operands. */
static bool labeled_tuple(struct hr *r, const struct popnd *o)
{
	struct pinst *a = &r->insts.v[o->ref];
	if (o->npath || a->kind != KIND_ALIAS || a->opcode != HLO_OP_TUPLE)
		return false;
	/* an empty tuple is no value of the IR: the writer makes one where it
	 * is used, as for any other empty operand, so its name is not kept */
	if (!r->shapes.v[a->shape].nleaves)
		return false;
	if (!a->labeled)
		a->labeled = value_node(r, a) != VNODE_NONE ? 2 : 1;
	return a->labeled == 1;
}

/* An alias operand whose name (and attributes) the writer gets back on
 * the get-tuple-element it makes: a get-tuple-element, or a tuple that is
 * a node of a value; none the writer would make as it was, unless it has
 * attributes; none that is another value whole (but a get-tuple-element
 * line written as such, map_used_gte), and none that is empty (no value
 * of the IR). */
static bool kept_alias(struct hr *r, const struct popnd *o)
{
	struct pinst *a = &r->insts.v[o->ref];
	if (!o->npath && a->kind == KIND_ALIAS && a->inst)
		return true; /* a get-tuple-element line written as such */
	return !o->npath && a->kind == KIND_ALIAS &&
	       !labeled_tuple(r, o) && (!made_as_writer_would(r, a) || alias_has_attrs(r, a)) &&
	       value_node(r, a) != VNODE_WHOLE;
}

/* ", key=value" for each attribute of alias a but a get-tuple-element's
 * index, into r->sb2 (nothing unless any). */
static void put_alias_attrs(struct hr *r, const struct pinst *a, bool any)
{
	r->sb2.len = 0;
	for (uint32_t j = a->at0; any && j < a->at0 + a->nat; j++) {
		const struct pattr *x = &r->attrs.v[j];
		if (word_is(x->key, x->klen, "index"))
			continue;
		pl_sb_puts(&r->sb2, ", ");
		pl_sb_put(&r->sb2, x->key, x->klen);
		pl_sb_putc(&r->sb2, '=');
		pl_sb_put(&r->sb2, x->val, x->vlen);
	}
}

/* hlo_operand_names: the names of the kept alias operands ("" for the
 * others); hlo_operand_attrs: the attributes of those and of the tuple
 * operands rebuilt by name; hlo_operand_shapes: the shapes of those
 * get-tuple-element lines whose layout is not their element's. */
static void keep_alias_names(struct hr *r, struct pinst *pi, pl_attrs *d)
{
	bool any = false;
	for (uint32_t k = 0; k < pi->nops && !any; k++) {
		const struct popnd *o = &r->opnds.v[pi->op0 + k];
		any = kept_alias(r, o) ||
		      (labeled_tuple(r, o) && alias_has_attrs(r, &r->insts.v[o->ref]));
	}
	if (!any)
		return;
	const pl_attr **v = scratch(r, SCRATCH_ALIAS, 3 * (size_t)pi->nops, sizeof *v);
	const pl_attr **av = v + pi->nops, **sh = av + pi->nops;
	bool bad = false, attrs = false, names = false, shapes = false;
	for (uint32_t k = 0; k < pi->nops; k++) {
		const struct popnd *o = &r->opnds.v[pi->op0 + k];
		const struct pinst *a = &r->insts.v[o->ref];
		bool alias = kept_alias(r, o);
		/* a line of its own keeps its attributes itself */
		bool with_attrs = (alias && !a->inst) || labeled_tuple(r, o);
		names = names || alias;
		v[k] = pl_attr_string(r->m, alias ? a->name : "", alias ? a->nlen : 0);
		/* the shape of a get-tuple-element line the writer makes, where
		 * its layout is not its element's */
		r->sb2.len = 0;
		if (alias && !a->inst && a->opcode == HLO_OP_GET_TUPLE_ELEMENT && a->own_layout)
			put_shape(r, &r->sb2, a->shape);
		if (r->sb2.failed)
			nomem(r);
		shapes = shapes || r->sb2.len;
		sh[k] = pl_attr_string(r->m, r->sb2.data ? r->sb2.data : "", r->sb2.len);
		bad = bad || !sh[k];
		put_alias_attrs(r, a, with_attrs);
		attrs = attrs || r->sb2.len;
		av[k] = r->sb2.failed ? NULL : pl_attr_string(r->m, r->sb2.data ? r->sb2.data : "",
		                                              r->sb2.len);
		bad = bad || !v[k] || !av[k];
	}
	const pl_attr *l = bad || !names ? NULL : pl_attr_list(r->m, v, pi->nops);
	const pl_attr *la = bad || !attrs ? NULL : pl_attr_list(r->m, av, pi->nops);
	const pl_attr *ls = bad || !shapes ? NULL : pl_attr_list(r->m, sh, pi->nops);
	if (bad || (names && !l) || (attrs && !la) ||
	    (l && pl_attrs_set(d, HK(OPERAND_NAMES), l) != PL_OK) ||
	    (shapes && (!ls || pl_attrs_set(d, HK(OPERAND_SHAPES), ls) != PL_OK)) ||
	    (la && pl_attrs_set(d, HK(OPERAND_ATTRS), la) != PL_OK))
		nomem(r);
}

/* NAME@ of alias a; ':' after it for an array. Its
 * attributes (nested: it is no operand itself) go to hlo_label_attrs. */
static void put_label(struct hr *r, struct pl_strbuf *sb, struct pinst *a, bool array,
                      bool nested)
{
	/* its attributes in hlo_label_attrs; those of a tuple that is an
	 * operand itself are in hlo_operand_attrs */
	put_alias_attrs(r, a, nested);
	if (r->sb2.failed)
		nomem(r);
	r->label_attrs_any = r->label_attrs_any || r->sb2.len;
	*PUSH(r, label_attrs) =
		ok_attr(r, pl_attr_string(r->m, r->sb2.data ? r->sb2.data : "", r->sb2.len));
	pl_sb_put(sb, a->name, a->nlen);
	pl_sb_putc(sb, '@');
	if (array)
		pl_sb_putc(sb, ':');
}

/* A part of a tuple rebuilt by name that is an array taken by a
 * get-tuple-element the writer names as the input did (in the tuple's
 * structure, NAME@ANCHOR:), but one that is another value whole, unless
 * it is a line of its own (map_used_gte): the writer names that value. */
static bool named_part(struct hr *r, const struct popnd *o)
{
	struct pinst *a = &r->insts.v[o->ref];
	return !o->npath && a->kind == KIND_ALIAS && a->opcode == HLO_OP_GET_TUPLE_ELEMENT &&
	       !r->shapes.v[a->shape].tuple && (a->inst || value_node(r, a) != VNODE_WHOLE);
}

/* The structure of operand o (whose shape is node): a tuple line rebuilt
 * by name is "NAME@ANCHOR(...)", ANCHOR the instruction or parameter after
 * which it stood (empty when it came first), its arrays with their texts
 * where its shape does not have the default ones. */
static void put_operand(struct hr *r, struct pl_strbuf *sb, const struct popnd *o, uint32_t node,
                        bool texts)
{
	if (!labeled_tuple(r, o)) {
		put_structure_of(r, sb, node, texts);
		return;
	}
	struct pinst *a = &r->insts.v[o->ref];
	put_label(r, sb, a, false, texts);
	pl_sb_putc(sb, '(');
	uint32_t leaf = 0;
	for (uint32_t k = 0; k < a->nops; k++) {
		const struct popnd *ok_ = &r->opnds.v[a->op0 + k];
		uint32_t on, ol, onl;
		operand_view(r, ok_, &on, &ol, &onl);
		/* the tuple's own shape gives the texts, where it has this part */
		uint32_t c = child_at(r, a->shape, k, &leaf);
		if (c == UINT32_MAX || r->shapes.v[c].nleaves != onl || r->shapes.v[c].tuple != r->shapes.v[on].tuple)
			c = on;
		if (k)
			pl_sb_putc(sb, ',');
		if (named_part(r, ok_))
			put_label(r, sb, &r->insts.v[ok_->ref], true, true);
		put_operand(r, sb, ok_, c, true);
	}
	pl_sb_putc(sb, ')');
}

/* hlo_operands, when an operand is a tuple. */
static void keep_structure(struct hr *r, struct pinst *pi, pl_attrs *d)
{
	r->sb.len = 0;
	r->label_attrs.n = 0;
	r->label_attrs_any = false;
	for (uint32_t k = 0; k < pi->nops; k++) {
		uint32_t node, l0, nl;
		operand_view(r, &r->opnds.v[pi->op0 + k], &node, &l0, &nl);
		if (k)
			pl_sb_putc(&r->sb, ',');
		put_operand(r, &r->sb, &r->opnds.v[pi->op0 + k], node, false);
	}
	if (r->sb.failed)
		nomem(r);
	set_str(r, d, HK(OPERANDS), r->sb.data, r->sb.len);
	if (r->label_attrs_any &&
	    pl_attrs_set(d, HK(LABEL_ATTRS),
	                 ok_attr(r, pl_attr_list(r->m, r->label_attrs.v, r->label_attrs.n))) != PL_OK)
		nomem(r);
}

/* The IR op an instruction maps to: hlo.<opcode>, '-' spelled '_'. */
static const char *generic_opname(struct hr *r, const struct pinst *pi)
{
	r->sb2.len = 0;
	pl_sb_puts(&r->sb2, "hlo.");
	pl_sb_put(&r->sb2, pi->opc, pi->olen);
	pl_sb_putc(&r->sb2, 0);
	if (r->sb2.failed)
		nomem(r);
	for (char *c = r->sb2.data + 4; *c; c++)
		if (*c == '-')
			*c = '_';
	/* interned: one address per op name, which instruction creation
	 * remembers */
	const char *name = pl_intern_str_(r->m, r->sb2.data, r->sb2.len - 1);
	if (!name)
		nomem(r);
	return name;
}

static void pin(struct hr *r, pl_inst *inst)
{
	pl_attrs *d = pl_inst_attrs(inst);
	if (pl_attrs_get(d, "group_id"))
		pl_attrs_remove(d, "group_id");
	set_attr(r, inst, "pinned", pl_attr_bool(r->m, true));
}

/* control-predecessors={a, b}: both ends are pinned. */
static void pin_control(struct hr *r, const struct pinst *pi, pl_inst *inst)
{
	const struct pattr *cp = find_attr(r, pi, "control-predecessors");
	if (!cp)
		return;
	if (inst)
		pin(r, inst);
	const char *s = cp->val, *e = cp->val + cp->vlen;
	while (s < e) {
		while (s < e && (*s == '{' || *s == '}' || *s == ',' || *s == '%' || is_space(*s)))
			s++;
		const char *b = s;
		while (s < e && is_ident(*s))
			s++;
		if (s == b) {
			if (s < e)
				fail(r, cp->at, "malformed control-predecessors");
			break;
		}
		uint32_t v = name_lookup(r, b, (size_t)(s - b));
		if (!v || v - 1 >= (uint32_t)(pi - r->insts.v))
			fail(r, cp->at, "control predecessor '%.*s' is not defined before this use",
			     (int)(s - b), b);
		if (r->insts.v[v - 1].inst)
			pin(r, r->insts.v[v - 1].inst);
	}
}

/* Whether shape node's leaves are the n values at v[first...] (v may be
 * NULL when n is 0; leaf_types does not move it). */
static bool leaves_fit(struct hr *r, uint32_t node, pl_value *const *v, size_t first, size_t n)
{
	if (r->shapes.v[node].nleaves != n)
		return false;
	leaf_types(r, node, 0);
	for (size_t k = 0; k < n; k++)
		if (r->types.v[k] != pl_value_type(v[first + k]))
			return false;
	return true;
}

/* A tuple nothing uses: an instruction without results, so that it is
 * written back. */
static void map_unused_tuple(struct hr *r, pl_func *f, struct pinst *pi)
{
	bool tuple_operand;
	size_t nops = gather_operands(r, pi, &tuple_operand);
	if (pi->has_shape && !leaves_fit(r, pi->shape, r->vals.v, 0, nops))
		fail(r, pi->at, "the shape of tuple '%.*s' does not match its operands",
		     (int)pi->nlen, pi->name);
	pl_inst *inst = new_inst(r, f, "hlo.tuple", nops, 0, pi);
	pl_attrs *d = pl_inst_attrs(inst);
	name_results(r, pi, inst, false);
	if (pi->has_shape) {
		/* kept unless it is what the writer prints without it: the
		 * flat tuple of the operands' types (r->types.v, which fit) */
		r->sb.len = 0;
		put_shape(r, &r->sb, pi->shape);
		size_t len = r->sb.len;
		if (!tuple_operand)
			pl_hlo_put_tuple_(&r->sb, r->types.v, nops);
		if (r->sb.failed)
			nomem(r);
		if (tuple_operand || r->sb.len != 2 * len ||
		    memcmp(r->sb.data, r->sb.data + len, len) != 0)
			set_str(r, d, HK(SHAPE), r->sb.data, len);
	}
	if (tuple_operand)
		keep_structure(r, pi, d);
	keep_alias_names(r, pi, d);
	keep_attrs(r, pi, d);
	pin_control(r, pi, inst);
	pi->inst = inst;
	pi->leaf0 = (uint32_t)r->leaves.n;
	pi->nleaves = 0;
}

/* A tuple that is used: an alias of its operands' leaves, no instruction. */
static void map_tuple_alias(struct hr *r, struct pinst *pi)
{
	uint32_t node;
	uint32_t l0 = (uint32_t)r->leaves.n;
	if (pi->has_shape) {
		node = pi->shape;
	} else {
		node = (uint32_t)r->shapes.n;
		r->shapes.v = grow(r, r->shapes.v, &r->shapes.cap, node + 1, sizeof *r->shapes.v);
		r->shapes.v[r->shapes.n++] = (struct pl_hlo_snode){.tuple = 1};
	}
	uint32_t total = 0;
	for (uint32_t k = 0; k < pi->nops; k++) {
		uint32_t on, ol, onl;
		operand_view(r, &r->opnds.v[pi->op0 + k], &on, &ol, &onl);
		if (!pi->has_shape)
			copy_shape(r, on);
		for (uint32_t j = 0; j < onl; j++)
			push_leaf(r, r->leaves.v[ol + j]);
		total += onl;
	}
	if (!pi->has_shape) {
		r->shapes.v[node].size = (uint32_t)(r->shapes.n - node);
		r->shapes.v[node].nleaves = total;
	} else if (!leaves_fit(r, node, r->leaves.v, l0, total)) {
		fail(r, pi->at, "the shape of tuple '%.*s' does not match its operands",
		     (int)pi->nlen, pi->name);
	}
	pi->shape = node;
	pi->leaf0 = l0;
	pi->nleaves = total;
	pi->kind = KIND_ALIAS;
}

/* get-tuple-element: an alias of one element's leaves, no instruction. */
static void map_get_tuple_element(struct hr *r, struct pinst *pi)
{
	const struct pattr *ia = find_attr(r, pi, "index");
	if (pi->nops != 1 || !ia)
		fail(r, pi->at, "get-tuple-element takes one operand and an index");
	uint32_t on, ol, onl;
	operand_view(r, &r->opnds.v[pi->op0], &on, &ol, &onl);
	int64_t idx = 0;
	for (uint32_t i = 0; i < ia->vlen; i++) {
		if (!is_digit(ia->val[i]) || idx > INT32_MAX / 10)
			fail(r, ia->at, "the index must be a number");
		idx = idx * 10 + (ia->val[i] - '0');
	}
	uint32_t c = child_at(r, on, idx, &ol);
	if (c == UINT32_MAX)
		fail(r, ia->at, "tuple index %" PRId64 " is out of range", idx);
	if (pi->has_shape && !leaves_fit(r, pi->shape, r->leaves.v, ol, r->shapes.v[c].nleaves))
		fail(r, pi->at, "the shape of '%.*s' does not match the element", (int)pi->nlen,
		     pi->name);
	if (pi->has_shape) {
		/* its own layout where it is not the element's (an array
		 * written without one has the default layout) */
		bool bare = r->shapes.print_bare;
		r->shapes.print_bare = false;
		r->sb2.len = 0;
		put_shape(r, &r->sb2, pi->shape);
		size_t len = r->sb2.len;
		put_shape(r, &r->sb2, c);
		r->shapes.print_bare = bare;
		if (r->sb2.failed)
			nomem(r);
		pi->own_layout = r->sb2.len != 2 * len ||
		                 memcmp(r->sb2.data, r->sb2.data + len, len) != 0;
	}
	pi->shape = pi->has_shape ? pi->shape : c;
	pi->leaf0 = ol;
	pi->nleaves = r->shapes.v[c].nleaves;
	pi->kind = KIND_ALIAS;
}

/* A get-tuple-element line written back as such: an instruction without
 * results over its operand's leaves (as a tuple nothing uses); hlo_shape
 * is the element's shape, index kept as any attribute, and flops = 0, as
 * it computes nothing. */
static pl_inst *gte_line(struct hr *r, pl_func *f, struct pinst *pi)
{
	bool tuple_operand;
	size_t nops = gather_operands(r, pi, &tuple_operand);
	pl_inst *inst = new_inst(r, f, "hlo.get_tuple_element", nops, 0, pi);
	pl_attrs *d = pl_inst_attrs(inst);
	name_results(r, pi, inst, false);
	r->sb.len = 0;
	put_shape(r, &r->sb, pi->shape);
	if (r->sb.failed)
		nomem(r);
	set_str(r, d, HK(SHAPE), r->sb.data, r->sb.len);
	keep_structure(r, pi, d);
	keep_alias_names(r, pi, d);
	keep_attrs(r, pi, d);
	/* it only names a part of a value: no work for the counting passes */
	if (pl_attrs_set_int(d, "flops", 0) != PL_OK)
		nomem(r);
	pin_control(r, pi, inst);
	return inst;
}

/* A get-tuple-element nothing uses: a line of its own (gte_line), so that
 * it is written back; it has no value. */
static void map_unused_gte(struct hr *r, pl_func *f, struct pinst *pi)
{
	map_get_tuple_element(r, pi);
	pl_inst *inst = gte_line(r, f, pi);
	pi->inst = inst;
	pi->kind = KIND_PLAIN;
	pi->leaf0 = (uint32_t)r->leaves.n;
	pi->nleaves = 0;
}

/* A get-tuple-element that is used: an alias of its element's leaves; but
 * when those are another value whole (an element of a tuple line made of
 * values, which the writer would name by that value), also a line of its
 * own (gte_line) where it stood, whose name its users keep
 * (hlo_operand_names). */
static void map_used_gte(struct hr *r, pl_func *f, struct pinst *pi)
{
	map_get_tuple_element(r, pi);
	if (value_node(r, pi) == VNODE_WHOLE)
		pi->inst = gte_line(r, f, pi);
}

/* The leaves of the value of pi, mapped to inst: its results, and for a
 * collective start of shape (operands, results[, contexts]) the operands
 * it aliases and no value for the contexts. */
static void push_op_leaves(struct hr *r, struct pinst *pi, pl_inst *inst, pl_op start,
                           uint32_t res_node, size_t nres)
{
	if (start != PL_OP_OTHER) {
		pi->kind = KIND_START;
		pi->start_op = start;
		pi->leaf0 = (uint32_t)r->leaves.n;
		uint32_t total = r->shapes.v[pi->shape].nleaves;
		uint32_t before = 0;
		if (res_node != pi->shape)
			child_at(r, pi->shape, 1, &before);
		/* the operands' part aliases the operands; contexts have no value */
		uint32_t k = 0;
		for (; k < before; k++)
			push_leaf(r, r->vals.v[k]);
		pi->res0 = (uint32_t)r->leaves.n;
		pi->nres = (uint32_t)nres;
		for (uint32_t j = 0; j < nres; j++, k++)
			push_leaf(r, pl_inst_result(inst, j));
		for (; k < total; k++)
			push_leaf(r, NULL);
		pi->nleaves = total;
	} else {
		pi->leaf0 = (uint32_t)r->leaves.n;
		pi->nleaves = (uint32_t)nres;
		for (uint32_t j = 0; j < nres; j++)
			push_leaf(r, pl_inst_result(inst, j));
	}
}

/* What an instruction becomes: the op's name, its operands and results
 * (operands in r->vals, result types in r->types), and for a collective
 * start or done which. */
struct op_plan {
	const char *opname;           /* NULL: not decided yet */
	size_t nops, nres;
	bool tuple_operand;
	pl_op start, done;            /* PL_OP_OTHER when it is neither */
	const struct comp *wrapped;   /* what an async-start calls */
	uint32_t res_node;            /* the results' part of the shape */
};

static bool is_start(const struct pinst *pi)
{
	return pi->opcode == HLO_OP_ALL_GATHER_START || pi->opcode == HLO_OP_ALL_REDUCE_START ||
	       (pi->opcode == HLO_OP_REDUCE_SCATTER && pi->phase == HLO_PHASE_START) ||
	       pi->opcode == HLO_OP_ASYNC_START;
}

static bool is_done(const struct pinst *pi)
{
	return pi->opcode == HLO_OP_ALL_GATHER_DONE || pi->opcode == HLO_OP_ALL_REDUCE_DONE ||
	       (pi->opcode == HLO_OP_REDUCE_SCATTER && pi->phase == HLO_PHASE_DONE) ||
	       pi->opcode == HLO_OP_ASYNC_DONE;
}

/* A collective start (native, or an async-start calling a computation
 * whose root is the collective) becomes the SDK's start when its shape is
 * (operands, results[, contexts]) with the operands type for type. */
static void plan_start(struct hr *r, const struct pinst *pi, struct op_plan *p)
{
	pl_op base = collective_of(pl_hlo_opcode_sync_((enum hlo_op)pi->opcode));
	if (pi->opcode == HLO_OP_ASYNC_START) {
		const struct pattr *ca = find_attr(r, pi, "calls");
		p->wrapped = ca ? find_comp(r, ca->val, ca->vlen) : NULL;
		base = p->wrapped && p->wrapped->root && p->wrapped->root_on_params
		               ? pl_inst_op(p->wrapped->root) : PL_OP_OTHER;
		if (base != PL_OP_ALL_GATHER && base != PL_OP_ALL_REDUCE &&
		    base != PL_OP_REDUCE_SCATTER)
			base = PL_OP_OTHER;
		r->async_wrapped = r->async_wrapped || base != PL_OP_OTHER;
	} else if (find_attr(r, pi, "calls")) {
		/* not XLA's: kept as it is written, since a collective
		 * start that calls a computation is written async-start */
		base = PL_OP_OTHER;
	} else {
		r->async_native = true;
	}
	const struct pl_hlo_snode *s = &r->shapes.v[pi->shape];
	bool split = base != PL_OP_ALL_REDUCE || p->wrapped;
	bool op_results = false;
	if (base != PL_OP_OTHER && !p->tuple_operand) {
		if (split && s->tuple && s->size > 1) {
			uint32_t l = 0;
			uint32_t e0 = child_at(r, pi->shape, 0, &l);
			uint32_t lr = 0;
			uint32_t e1 = child_at(r, pi->shape, 1, &lr);
			if (e1 != UINT32_MAX && r->shapes.v[e0].nleaves == p->nops &&
			    r->shapes.v[e1].nleaves == p->nops) {
				/* element 0 is the operands, type for type */
				leaf_types(r, e0, 0);
				bool same = true;
				for (size_t k = 0; k < p->nops; k++)
					same = same && r->types.v[k] == pl_value_type(r->vals.v[k]);
				p->res_node = e1;
				op_results = same;
			}
		} else if (!p->wrapped && p->nres == p->nops) {
			op_results = true;
		}
	}
	if (op_results) {
		p->start = start_of(base);
		p->opname = pl_op_name(p->start);
		p->nres = leaf_types(r, p->res_node, 0);
	}
}

/* A done of a start the SDK made takes the start's results. */
static void plan_done(struct hr *r, const struct pinst *pi, struct op_plan *p)
{
	const struct pinst *st = &r->insts.v[r->opnds.v[pi->op0].ref];
	if (st->nres != p->nres)
		fail(r, pi->at, "'%.*s' does not match its start", (int)pi->nlen, pi->name);
	p->done = done_of(st->start_op);
	p->opname = pl_op_name(p->done);
	p->nops = st->nres;
	r->vals.v = grow(r, r->vals.v, &r->vals.cap, p->nops, sizeof *r->vals.v);
	for (uint32_t k = 0; k < p->nops; k++)
		r->vals.v[k] = r->leaves.v[st->res0 + k];
}

/* The collective attributes of a collective or a start: derived from the
 * HLO, or those of the collective an async-start wraps. */
static void op_collective_attrs(struct hr *r, const struct pinst *pi, pl_inst *inst,
                                const struct op_plan *p, pl_op cop)
{
	if (cop != PL_OP_OTHER && p->start == PL_OP_OTHER && pl_inst_op(inst) == cop)
		collective_attrs(r, pi, inst, cop, r->vals.v, p->nops, r->types.v);
	if (p->start == PL_OP_OTHER)
		return;
	if (p->wrapped) {
		static const char *const keys[] = {"group_id", "factor", "dimension", "reduce"};
		for (size_t k = 0; k < 4; k++) {
			const pl_attr *v = pl_attrs_get(pl_inst_attrs(p->wrapped->root), keys[k]);
			if (v)
				set_attr(r, inst, keys[k], v);
		}
	} else {
		collective_attrs(r, pi, inst, p->start, r->vals.v, p->nops, r->types.v);
	}
}

/* Whether pi is an async-update of a start the SDK made (or of such an
 * update): it passes the start's value on to the done. */
static bool is_mapped_update(struct hr *r, const struct pinst *pi)
{
	return pi->opcode == HLO_OP_ASYNC_UPDATE && pi->nops == 1 &&
	       r->opnds.v[pi->op0].npath == 0 && r->insts.v[r->opnds.v[pi->op0].ref].kind == KIND_START;
}

/* Such an update makes no instruction: it stands for its operand's value
 * (of the same shape, as XLA requires), and the done records it
 * (add_updates). */
static void map_update_alias(struct hr *r, struct pinst *pi)
{
	const struct pinst *st = &r->insts.v[r->opnds.v[pi->op0].ref];
	if (pi->has_shape) {
		size_t n1 = leaf_types(r, st->shape, 0), n2 = leaf_types(r, pi->shape, n1);
		bool same = same_structure(r, st->shape, pi->shape) && n2 == 2 * n1;
		for (size_t k = 0; same && k < n1; k++)
			same = r->types.v[k] == r->types.v[n1 + k];
		if (!same) {
			r->sb.len = 0;
			put_shape(r, &r->sb, st->shape);
			if (r->sb.failed)
				nomem(r);
			fail(r, pi->at, "the shape of async-update '%.*s' is not its operand's: expected "
			     "%.*s, the value of '%.*s' passed on",
			     (int)pi->nlen, pi->name, (int)r->sb.len, r->sb.data, (int)st->nlen, st->name);
		}
	}
	const struct pattr *ca = find_attr(r, pi, "calls"), *cs = find_attr(r, st, "calls");
	if (ca && cs && (find_comp(r, ca->val, ca->vlen) != find_comp(r, cs->val, cs->vlen)))
		fail(r, ca->at, "async-update '%.*s' calls another computation than '%.*s'",
		     (int)pi->nlen, pi->name, (int)st->nlen, st->name);
	pi->shape = st->shape;
	pi->kind = KIND_START;
	pi->start_op = st->start_op;
	pi->leaf0 = st->leaf0;
	pi->nleaves = st->nleaves;
	pi->res0 = st->res0;
	pi->nres = st->nres;
}

/* The async-update lines between done pi's start and pi, in order, on
 * the done: their names and attributes, for the writer. */
static void add_updates(struct hr *r, const struct pinst *pi, pl_inst *inst)
{
	size_t n = 0;
	for (const struct pinst *u = &r->insts.v[r->opnds.v[pi->op0].ref];
	     u->opcode == HLO_OP_ASYNC_UPDATE; u = &r->insts.v[r->opnds.v[u->op0].ref])
		n++;
	if (!n)
		return;
	const pl_attr **v = scratch(r, SCRATCH_ALIAS, 2 * n, sizeof *v), **av = v + n;
	size_t k = n;
	for (const struct pinst *u = &r->insts.v[r->opnds.v[pi->op0].ref];
	     u->opcode == HLO_OP_ASYNC_UPDATE; u = &r->insts.v[r->opnds.v[u->op0].ref]) {
		k--;
		r->sb2.len = 0;
		for (uint32_t j = u->at0; j < u->at0 + u->nat; j++) {
			const struct pattr *x = &r->attrs.v[j];
			pl_sb_puts(&r->sb2, ", ");
			pl_sb_put(&r->sb2, x->key, x->klen);
			pl_sb_putc(&r->sb2, '=');
			pl_sb_put(&r->sb2, x->val, x->vlen);
		}
		if (r->sb2.failed)
			nomem(r);
		v[k] = ok(r, (void *)(uintptr_t)pl_attr_string(r->m, u->name, u->nlen));
		av[k] = ok(r, (void *)(uintptr_t)pl_attr_string(r->m, r->sb2.data ? r->sb2.data : "",
		                                                 r->sb2.len));
	}
	set_attr(r, inst, HK(ASYNC_UPDATES), pl_attr_list(r->m, v, n));
	set_attr(r, inst, HK(ASYNC_UPDATE_ATTRS), pl_attr_list(r->m, av, n));
}

/* Any other instruction: the SDK's own op (collectives, dot) or
 * "hlo.<opcode>", with the attributes the writer needs back. */
static void map_op(struct hr *r, pl_func *f, struct pinst *pi)
{
	if (!pi->has_shape)
		pi->shape = infer_shape(r, pi);
	struct op_plan p = {NULL, 0, 0, false, PL_OP_OTHER, PL_OP_OTHER, NULL, pi->shape};
	/* a done takes its start's results, not the start's whole value */
	bool done_of_start = pi->nops == 1 && r->opnds.v[pi->op0].npath == 0 &&
	                     r->insts.v[r->opnds.v[pi->op0].ref].kind == KIND_START;
	p.nops = done_of_start ? 0 : gather_operands(r, pi, &p.tuple_operand);
	p.nres = leaf_types(r, pi->shape, 0);
	bool tuple = r->shapes.v[pi->shape].tuple;
	pl_op cop = pi->phase == HLO_PHASE_NONE ? collective_of((enum hlo_op)pi->opcode)
	                                        : PL_OP_OTHER;
	if (cop != PL_OP_OTHER && !p.tuple_operand && p.nops == p.nres)
		p.opname = pl_op_name(cop);
	else if (is_start(pi))
		plan_start(r, pi, &p);
	else if (is_done(pi) && done_of_start)
		plan_done(r, pi, &p);
	int64_t dom[PL_MAX_RANK * 2];
	size_t ndom = 0;
	bool is_dot = !p.opname && pi->opcode == HLO_OP_DOT && !p.tuple_operand && p.nres == 1 &&
	              dot_domain(r, pi, r->vals.v, p.nops, dom, &ndom);
	if (is_dot)
		p.opname = "tensor_contract";
	if (!p.opname)
		p.opname = generic_opname(r, pi);
	pl_inst *inst = new_inst(r, f, p.opname, p.nops, p.nres, pi);
	pl_attrs *d = pl_inst_attrs(inst);
	op_collective_attrs(r, pi, inst, &p, cop);
	if (pi->phase == HLO_PHASE_NONE &&
	    (pi->opcode == HLO_OP_ALL_TO_ALL || pi->opcode == HLO_OP_RAGGED_ALL_TO_ALL))
		exchange_attrs(r, pi, inst);
	if (is_dot) {
		const pl_attr *v = pl_attr_int_list(r->m, dom, ndom);
		set_attr(r, inst, "domain", v);
	}
	name_results(r, pi, inst, p.start != PL_OP_OTHER ? p.nres != 1 : tuple);
	if (p.start != PL_OP_OTHER) {
		/* always: the form of the start is in its shape */
		r->sb.len = 0;
		put_shape(r, &r->sb, pi->shape);
		if (r->sb.failed)
			nomem(r);
		set_str(r, d, HK(SHAPE), r->sb.data, r->sb.len);
		/* a start of the module's own keeps its form: the one a
		 * pass makes takes the form -O hlo.async_form picks */
		if (!p.wrapped && pl_attrs_set(d, HK(START_DONE), pl_attr_bool(r->m, true)) != PL_OK)
			nomem(r);
	} else if (p.done != PL_OP_OTHER || tuple || p.nres != 1 ||
	           !pl_hlo_shape_default_array_(&r->shapes, pi->shape)) {
		keep_shape(r, d, pi->shape, r->types.v, p.nres);
	}
	if (p.tuple_operand && p.done == PL_OP_OTHER)
		keep_structure(r, pi, d);
	if (p.done == PL_OP_OTHER)
		keep_alias_names(r, pi, d);
	else
		add_updates(r, pi, inst);
	if (pi->lit)
		set_str(r, d, HK(CONSTANT), pi->lit, pi->litlen);
	keep_attrs(r, pi, d);
	pin_control(r, pi, inst);
	pi->inst = inst;
	push_op_leaves(r, pi, inst, p.start, p.res_node, p.nres);
}

/* Maps one instruction of the computation onto f, by its opcode. */
static void map_inst(struct hr *r, pl_func *f, struct pinst *pi)
{
	switch (pi->opcode) {
	case HLO_OP_TUPLE:
		if (pi->used)
			map_tuple_alias(r, pi);
		else
			map_unused_tuple(r, f, pi);
		break;
	case HLO_OP_GET_TUPLE_ELEMENT:
		if (pi->used)
			map_used_gte(r, f, pi);
		else
			map_unused_gte(r, f, pi);
		break;
	default:
		if (is_mapped_update(r, pi))
			map_update_alias(r, pi);
		else
			map_op(r, f, pi);
		break;
	}
}

/* Whether the computation is exactly p0, p1, ROOT op(p0, p1) on scalars,
 * and which reduction its root computes. */
static void reducer_kind(struct hr *r, struct comp *c, const struct pinst *root)
{
	c->reduce = NULL;
	switch (root->phase == HLO_PHASE_NONE ? root->opcode : HLO_OP_OTHER) {
	case HLO_OP_ADD: c->reduce = "add"; break;
	case HLO_OP_MULTIPLY: c->reduce = "mul"; break;
	case HLO_OP_MAXIMUM: c->reduce = "max"; break;
	case HLO_OP_MINIMUM: c->reduce = "min"; break;
	case HLO_OP_AND: c->reduce = "and"; break;
	case HLO_OP_OR: c->reduce = "or"; break;
	default: break;
	}
	c->bare = false;
	if (!c->reduce || r->insts.n != 3 || root->nops != 2)
		return;
	bool seen[2] = {false, false};
	for (uint32_t k = 0; k < 2; k++) {
		const struct popnd *o = &r->opnds.v[root->op0 + k];
		const struct pinst *d = &r->insts.v[o->ref];
		if (o->npath || d->param < 0 || d->param > 1 || seen[d->param] ||
		    r->shapes.v[d->shape].tuple || r->shapes.v[d->shape].rank)
			return;
		seen[d->param] = true;
	}
	c->bare = true;
}

static int cmp_param(const void *a, const void *b)
{
	const struct pinst *x = *(const struct pinst *const *)a, *y = *(const struct pinst *const *)b;
	return (x->param > y->param) - (x->param < y->param);
}

/* The root of the computation read: the one marked ROOT, else the last
 * instruction (not counting the named anonymous ones). */
static struct pinst *find_root(struct hr *r)
{
	struct pinst *root = NULL;
	for (size_t k = 0; k < r->insts.n; k++)
		if (r->insts.v[k].root) {
			if (root)
				fail(r, r->insts.v[k].at, "a computation has one ROOT");
			root = &r->insts.v[k];
		}
	if (!root) {
		for (size_t k = r->insts.n; k-- > 0;)
			if (!r->insts.v[k].named_anon) {
				root = &r->insts.v[k];
				break;
			}
		if (!root)
			root = &r->insts.v[r->insts.n - 1];
	}
	return root;
}

/* The parameters of the computation read, in number order (a scratch
 * array of *np), each checked: numbered 0.. without gaps, with a shape. */
static struct pinst **sorted_params(struct hr *r, size_t *np_out)
{
	size_t np = 0;
	for (size_t k = 0; k < r->insts.n; k++)
		np += r->insts.v[k].param >= 0;
	struct pinst **ps = scratch(r, SCRATCH_PARAMS, np, sizeof *ps);
	np = 0;
	for (size_t k = 0; k < r->insts.n; k++)
		if (r->insts.v[k].param >= 0)
			ps[np++] = &r->insts.v[k];
	qsort(ps, np, sizeof *ps, cmp_param);
	for (size_t k = 0; k < np; k++)
		if (ps[k]->param != (int64_t)k || !ps[k]->has_shape) {
			const char *pat = ps[k]->at;
			int64_t pn = ps[k]->param;
			bool shaped = ps[k]->has_shape;
			if (!shaped)
				fail(r, pat, "a parameter needs a shape");
			fail(r, pat, "parameter %" PRId64 " %s", pn,
			     pn < (int64_t)k ? "is declared twice" : "leaves a gap in the numbering");
		}
	*np_out = np;
	return ps;
}

/* The parameters' shapes and attributes, when the types alone do not
 * give them back. */
static void keep_param_shapes(struct hr *r, pl_func *f, struct pinst **ps, size_t np,
                              bool have_attrs)
{
	const pl_attr **sv = scratch(r, SCRATCH_PARAM_SHAPES, np, sizeof *sv);
	const pl_attr **av = scratch(r, SCRATCH_PARAM_ATTRS, np, sizeof *av);
	bool bad = false;
	for (size_t k = 0; k < np; k++) {
		r->sb.len = 0;
		put_shape(r, &r->sb, ps[k]->shape);
		sv[k] = r->sb.failed ? NULL : pl_attr_string(r->m, r->sb.data, r->sb.len);
		r->sb.len = 0;
		for (uint32_t a = ps[k]->at0; a < ps[k]->at0 + ps[k]->nat; a++) {
			pl_sb_puts(&r->sb, ", ");
			pl_sb_put(&r->sb, r->attrs.v[a].key, r->attrs.v[a].klen);
			pl_sb_putc(&r->sb, '=');
			pl_sb_put(&r->sb, r->attrs.v[a].val, r->attrs.v[a].vlen);
		}
		av[k] = r->sb.failed ? NULL : pl_attr_string(r->m, r->sb.data ? r->sb.data : "", r->sb.len);
		bad = bad || !sv[k] || !av[k];
	}
	const pl_attr *l1 = bad ? NULL : pl_attr_list(r->m, sv, np);
	const pl_attr *l2 = bad || !have_attrs ? NULL : pl_attr_list(r->m, av, np);
	if (bad || !l1 || (have_attrs && !l2) ||
	    pl_attrs_set(pl_func_attrs(f), HK(PARAM_SHAPES), l1) != PL_OK ||
	    (l2 && pl_attrs_set(pl_func_attrs(f), HK(PARAM_ATTRS), l2) != PL_OK))
		nomem(r);
}

/* The names of the parameters that are empty tuples: no argument carries
 * them. */
static void keep_param_names(struct hr *r, pl_func *f, struct pinst **ps, size_t np)
{
	bool unnamed = false;
	for (size_t k = 0; k < np && !unnamed; k++)
		unnamed = !r->shapes.v[ps[k]->shape].nleaves;
	if (!unnamed)
		return;
	const pl_attr **nv = scratch(r, SCRATCH_PARAM_NAMES, np, sizeof *nv);
	bool bad = false;
	for (size_t k = 0; k < np; k++) {
		bool empty = !r->shapes.v[ps[k]->shape].nleaves;
		nv[k] = pl_attr_string(r->m, empty ? ps[k]->name : "", empty ? ps[k]->nlen : 0);
		bad = bad || !nv[k];
	}
	const pl_attr *l = bad ? NULL : pl_attr_list(r->m, nv, np);
	if (!l || pl_attrs_set(pl_func_attrs(f), HK(PARAM_NAMES), l) != PL_OK)
		nomem(r);
}

/* The parameters become f's arguments, one per leaf, in number order;
 * what the writer needs to print them back is kept on f. Returns their
 * count. */
static size_t map_params(struct hr *r, pl_func *f)
{
	size_t np;
	struct pinst **ps = sorted_params(r, &np);
	bool shapes_differ = false, have_attrs = false;
	for (size_t k = 0; k < np; k++) {
		struct pinst *pi = ps[k];
		size_t n = leaf_types(r, pi->shape, 0);
		bool tuple = r->shapes.v[pi->shape].tuple;
		pi->leaf0 = (uint32_t)r->leaves.n;
		pi->nleaves = (uint32_t)n;
		pi->kind = KIND_PARAM;
		r->arg_owner.v = grow(r, r->arg_owner.v, &r->arg_owner.cap, r->arg_owner.n + n, sizeof *r->arg_owner.v);
		for (size_t j = 0; j < n; j++) {
			pl_value *a = pl_func_add_arg(f, leaf_name(r, pi, tuple, (uint32_t)j), r->types.v[j]);
			if (!a)
				nomem(r);
			push_leaf(r, a);
			r->arg_owner.v[r->arg_owner.n++] = (uint32_t)(pi - r->insts.v);
		}
		r->sb.len = 0;
		put_shape(r, &r->sb, pi->shape);
		size_t len = r->sb.len;
		pl_hlo_put_types_(&r->sb, r->types.v, n);
		if (r->sb.failed)
			nomem(r);
		if (tuple || n != 1 || r->sb.len != 2 * len || memcmp(r->sb.data, r->sb.data + len, len))
			shapes_differ = true;
		have_attrs = have_attrs || pi->nat;
	}
	if (shapes_differ || have_attrs)
		keep_param_shapes(r, f, ps, np, have_attrs);
	keep_param_names(r, f, ps, np);
	return np;
}

/* The instruction or parameter whose whole value the root is: its leaves
 * are all of that one's, in order, in the same structure; NULL if none. */
static const struct pinst *root_owner(struct hr *r, const struct pinst *root)
{
	const struct pinst *owner = NULL;
	/* a tuple line is one of its own, whatever its parts are */
	if (!root->nleaves || root->opcode == HLO_OP_TUPLE)
		return NULL;
	pl_value *v0 = r->leaves.v[root->leaf0];
	for (size_t k = 0; k < r->insts.n && !owner; k++) {
		const struct pinst *c = &r->insts.v[k];
		if (c->kind == KIND_ALIAS || c->kind == KIND_START ||
		    c->nleaves != root->nleaves || r->leaves.v[c->leaf0] != v0 ||
		    (c->kind == KIND_PLAIN && !c->inst))
			continue;
		bool same = true;
		for (uint32_t j = 1; same && j < c->nleaves; j++)
			same = r->leaves.v[c->leaf0 + j] == r->leaves.v[root->leaf0 + j];
		if (!same)
			continue;
		if (same_structure(r, c->shape, root->shape))
			owner = c;
	}
	return owner;
}

/* What the return needs to print a root line that is no one's whole
 * value back: its name, shape, opcode, attributes and structure. */
static void keep_root(struct hr *r, pl_inst *ret, struct pinst *root)
{
	pl_attrs *d = pl_inst_attrs(ret);
	set_str(r, d, HK(NAME), root->name, root->nlen);
	r->sb.len = 0;
	put_shape(r, &r->sb, root->shape);
	if (r->sb.failed)
		nomem(r);
	set_str(r, d, HK(SHAPE), r->sb.data, r->sb.len);
	/* a get-tuple-element's index is where its value is, which the
	 * writer works out; an empty root is no value: the writer makes it
	 * a tuple() */
	if (root->kind == KIND_ALIAS)
		keep_attrs_but(r, root, d, "index");
	/* a root tuple of tuples that have names of their own */
	bool named = false;
	if (root->opcode == HLO_OP_TUPLE)
		for (uint32_t k = 0; k < root->nops && !named; k++)
			named = labeled_tuple(r, &r->opnds.v[root->op0 + k]);
	if (named)
		keep_structure(r, root, d);
	/* the names of its get-tuple-element parts */
	if (root->opcode == HLO_OP_TUPLE)
		keep_alias_names(r, root, d);
	if (root->nleaves)
		set_str(r, d, HK(OPCODE), root->opc, root->olen);
	else
		set_str(r, d, HK(OPCODE), "tuple", 5);
}

/* The return of the computation; its root's whole value's owner, or
 * NULL. */
static const struct pinst *map_root(struct hr *r, pl_func *f, struct pinst *root)
{
	r->vals.v = grow(r, r->vals.v, &r->vals.cap, root->nleaves + 1, sizeof *r->vals.v);
	for (uint32_t k = 0; k < root->nleaves; k++) {
		r->vals.v[k] = r->leaves.v[root->leaf0 + k];
		if (!r->vals.v[k])
			fail(r, root->at, "the context of an asynchronous collective cannot be returned");
	}
	struct pinst rp = *root;
	rp.at = root->at;
	pl_inst *ret = new_inst(r, f, "return", root->nleaves, 0, &rp);
	r->ret = ret;
	const struct pinst *owner = root_owner(r, root);
	if (!owner)
		keep_root(r, ret, root);
	else if (root->kind == KIND_ALIAS && root->inst) /* a kept get-tuple-element line */
		set_str(r, pl_inst_attrs(ret), HK(NAME), root->name, root->nlen);
	return owner;
}

/* Remembers f for the computations after it: its name, its root when
 * that is one instruction's whole value, its reducer kind, and whether it
 * is the entry. */
static void add_comp(struct hr *r, pl_func *f, struct pinst *root, bool root_is_inst, size_t np,
                     const char *at, bool entry)
{
	if (!pl_ht_reserve(&r->comp_index))
		nomem(r);
	struct comp *c = PUSH(r, comps);
	memset(c, 0, sizeof *c);
	c->name = pl_func_name(f);
	c->len = strlen(c->name);
	struct name_ref cn = {c->name, c->len};
	uint32_t ch = name_hash(cn.s, cn.len);
	pl_ht_put(&r->comp_index, pl_ht_find(&r->comp_index, ch, same_comp, &cn, r), ch,
	          (const void *)(uintptr_t)r->comps.n);
	c->f = f;
	c->root = root_is_inst ? root->inst : NULL;
	reducer_kind(r, c, root);
	if (c->root && root->nops == np) {
		bool in_order = true;
		for (uint32_t k = 0; k < root->nops; k++) {
			const struct popnd *o = &r->opnds.v[root->op0 + k];
			in_order = in_order && !o->npath && r->insts.v[o->ref].param == (int64_t)k;
		}
		c->root_on_params = in_order;
	}
	if (entry) {
		if (r->entry_marked)
			fail(r, at, "a module has one ENTRY computation");
		r->entry_marked = true;
	}
	if (entry || !r->entry_marked) {
		r->entry = f;
		r->entry_name = c->name;
		r->entry_len = c->len;
	}
}

static void map_comp(struct hr *r, const char *name, uint32_t nlen, const char *at, bool entry,
                     const char *thread, uint32_t thread_len)
{
	if (r->insts.n == 0)
		fail(r, at, "computation '%.*s' has no instructions", (int)nlen, name);
	struct pinst *root = find_root(r);
	pl_ht_clear(&r->owners);
	r->owners_upto = 0;
	r->arg_owner.n = 0;
	/* what is used: a tuple nothing uses is kept as an instruction */
	root->used = true;
	for (size_t k = 0; k < r->insts.n; k++)
		for (uint32_t j = 0; j < r->insts.v[k].nops; j++)
			r->insts.v[r->opnds.v[r->insts.v[k].op0 + j].ref].used = true;
	/* in a computation whose shapes have layouts, one without is kept so */
	r->shapes.print_bare = r->shapes.layouts;
	const char *nz = cstr(r, name, nlen);
	if (find_comp(r, nz, nlen))
		fail(r, at, "computation '%.*s' is defined twice", (int)nlen, name);
	pl_func *f = pl_func_new(r->m, nz);
	if (!f)
		fail(r, at, "computation name '%.*s' is not supported", (int)nlen, name);
	size_t np = map_params(r, f);
	r->ret = NULL;
	for (size_t k = 0; k < r->insts.n; k++) {
		struct pinst *pi = &r->insts.v[k];
		if (pi->param >= 0) {
			pin_control(r, pi, NULL);
		} else {
			check_typed_operands(r, pi);
			check_required(r, pi);
			map_inst(r, f, pi);
		}
	}
	const struct pinst *owner = map_root(r, f, root);
	if (thread)
		set_str(r, pl_func_attrs(f), HK(EXECUTION_THREAD), thread, thread_len);
	add_comp(r, f, root, owner == root, np, at, entry);
}

static void parse_comp(struct hr *r)
{
	const char *at = skip_from(r, r->p);
	r->part_at = at;
	r->part = PL_HLO_PART_COMP;
	r->shapes.layouts = false; /* whether this computation writes layouts */
	bool entry = false;
	if (at_word(r, "ENTRY")) {
		r->p += 5;
		entry = true;
	}
	const char *name;
	uint32_t nlen;
	if (!read_name(r, &name, &nlen, NULL))
		expected(r, "a computation");
	for (size_t k = 0; k < sizeof frames_words / sizeof *frames_words; k++)
		if (word_is(name, nlen, frames_words[k]))
			fail(r, name, "a computation may not be named '%s' (the word opens a table of "
			              "stack frames after the module's header)", frames_words[k]);
	if (peek(r) == '(') {
		/* the signature repeats the parameters: read and dropped (the
		 * writer makes it again from the parameters) */
		r->p++;
		if (peek(r) != ')') {
			for (;;) {
				const char *pn;
				uint32_t pl;
				need_name(r, &pn, &pl, "a parameter name");
				expect(r, ':', "':' after a parameter name");
				size_t nn0 = r->shapes.n, nd0 = r->shapes.ndims;
				parse_shape(r);
				r->shapes.n = nn0;
				r->shapes.ndims = nd0;
				if (peek(r) == ',') {
					r->p++;
					continue;
				}
				break;
			}
		}
		expect(r, ')', "')' after the parameters");
		peek(r);
		if (r->end - r->p < 2 || r->p[0] != '-' || r->p[1] != '>')
			expected(r, "'->' after the parameters");
		r->p += 2;
		size_t nn0 = r->shapes.n, nd0 = r->shapes.ndims;
		parse_shape(r);
		r->shapes.n = nn0;
		r->shapes.ndims = nd0;
	}
	expect(r, '{', "'{' to open the computation");
	add_stmt(r, PL_HLO_STMT_HEADING, at, name, nlen);
	pl_ht_clear(&r->names);
	r->anon.n = 0;
	r->insts.n = r->opnds.n = r->attrs.n = r->paths.n = r->leaves.n = 0;
	while (peek(r) != '}') {
		if (r->p >= r->end)
			fail(r, r->p, "expected '}' to close computation '%.*s'", (int)nlen, name);
		const char *start = r->p;
		size_t s0 = r->stmts.n;
		uint32_t k = parse_inst(r, false, 0);
		add_stmt(r, PL_HLO_STMT_INST, start, r->insts.v[k].name, r->insts.v[k].nlen);
		for (size_t j = s0; j + 1 < r->stmts.n; j++)
			r->stmts.v[j].parent = (uint32_t)(r->stmts.n - 1);
	}
	const char *close = r->p;
	r->p++;
	const char *thread = NULL;
	uint32_t tlen = 0;
	const char *c = skip_from(r, r->p);
	if (c < r->end && *c == ',') {
		r->p = c + 1;
		const char *k;
		uint32_t kl;
		need_name(r, &k, &kl, "execution_thread");
		if (!word_is(k, kl, "execution_thread"))
			fail(r, k, "expected execution_thread after a computation");
		expect(r, '=', "'='");
		capture_value(r, &thread, &tlen);
	}
	add_stmt(r, PL_HLO_STMT_CLOSE, close, NULL, 0);
	map_comp(r, name, nlen, at, entry, thread, tlen);
	r->any_layout = r->any_layout || r->shapes.layouts;
	r->shapes.n = r->shapes.ndims = 0;
}

/* The header's attributes are kept verbatim; the counts are read. */
static void parse_header(struct hr *r)
{
	const char *b = skip_from(r, r->p);
	r->part_at = b;
	r->part = PL_HLO_PART_HEADER;
	r->p = b + strlen("HloModule");
	const char *name;
	uint32_t nlen;
	need_name(r, &name, &nlen, "a module name");
	for (;;) {
		const char *c = skip_from(r, r->p);
		if (c >= r->end || *c != ',')
			break;
		r->p = c + 1;
		const char *k;
		uint32_t kl;
		need_name(r, &k, &kl, "a module attribute");
		expect(r, '=', "'=' after a module attribute");
		const char *v;
		uint32_t vl;
		capture_value(r, &v, &vl);
		if (word_is(k, kl, "replica_count") || word_is(k, kl, "num_partitions")) {
			int64_t n = 0;
			for (uint32_t i = 0; i < vl; i++) {
				if (!is_digit(v[i]) || n > INT32_MAX)
					fail(r, v, "expected a count");
				n = n * 10 + (v[i] - '0');
			}
			*(word_is(k, kl, "replica_count") ? &r->replica_count : &r->num_partitions) = n;
		}
	}
	r->header = b;
	r->header_len = (size_t)(r->p - b);
	add_stmt(r, PL_HLO_STMT_MODULE, b, NULL, 0);
	/* the stack frame tables of recent dumps: a section opens with one of
	 * frames_words */
	const char *fb = skip_from(r, r->p);
	if (at_word(r, "FileNames")) {
		r->part_at = fb;
		r->part = PL_HLO_PART_FRAMES;
		for (;;) {
			char c = peek(r);
			if (is_digit(c)) {
				read_int(r);
			} else if (c == '"') {
				r->p = skip_string(r, r->p);
			} else if (c == '{') {
				const char *v;
				uint32_t vl;
				capture_value(r, &v, &vl);
			} else if (at_frames_word(r)) {
				while (r->p < r->end && is_ident(*r->p))
					r->p++;
			} else {
				break;
			}
		}
		r->frames = fb;
		r->frames_len = (size_t)(r->p - fb);
		while (r->frames_len && is_space(fb[r->frames_len - 1]))
			r->frames_len--;
	}
}

static void parse_module(struct hr *r)
{
	if (r->end - r->src >= 3 && memcmp(r->src, "\xEF\xBB\xBF", 3) == 0)
		r->p += 3;
	r->part_at = r->p;
	r->part = PL_HLO_PART_TOP;
	skip_from(r, r->p);
	if (at_word(r, "HloModule"))
		parse_header(r);
	else if (!at_word(r, "ENTRY") && !at_shape(r)) {
		const char *s;
		uint32_t l;
		const char *save = r->p;
		if (!read_name(r, &s, &l, NULL) || (peek(r) != '{' && peek(r) != '('))
			fail(r, save, "expected 'HloModule' or a computation");
		r->p = save;
	}
	for (;;) {
		r->part_at = r->p;
		r->part = PL_HLO_PART_TOP;
		if (!peek(r))
			break;
		parse_comp(r);
	}
	r->part_at = NULL;
	if (!r->entry)
		fail(r, r->p, "%s", no_comp_msg);
	/* the header goes on the entry function, verbatim */
	pl_attrs *d = pl_func_attrs(r->entry);
	if (pl_attrs_set(d, HK(ENTRY), pl_attr_bool(r->m, true)) != PL_OK)
		nomem(r);
	if (r->header) {
		set_str(r, d, HK(MODULE), r->header, r->header_len);
	} else {
		r->sb.len = 0;
		pl_sb_puts(&r->sb, "HloModule module_");
		pl_sb_put(&r->sb, r->entry_name, r->entry_len);
		if (r->sb.failed)
			nomem(r);
		set_str(r, d, HK(MODULE), r->sb.data, r->sb.len);
	}
	if (r->frames)
		set_str(r, d, HK(STACK_FRAMES), r->frames, r->frames_len);
	/* new async collectives as the module's are, unless mixed */
	if (r->async_wrapped && !r->async_native &&
	    pl_attrs_set(d, HK(ASYNC_WRAPPED), pl_attr_bool(r->m, true)) != PL_OK)
		nomem(r);
}

static void hr_free(struct hr *r)
{
	pl_hlo_shapes_free_(&r->shapes);
	free(r->insts.v);
	free(r->opnds.v);
	free(r->side.v);
	free(r->attrs.v);
	free(r->paths.v);
	free(r->leaves.v);
	free(r->label_attrs.v);
	free(r->anon.v);
	pl_ht_free(&r->names);
	pl_ht_free(&r->owners);
	pl_ht_free(&r->comp_index);
	free(r->arg_owner.v);
	free(r->comps.v);
	free(r->stmts.v);
	free(r->vals.v);
	free(r->types.v);
	free(r->namebuf.v);
	pl_sb_free(&r->sb);
	pl_sb_free(&r->sb2);
	for (int k = 0; k < SCRATCH_COUNT; k++)
		free(r->scratch[k]);
}

int pl_parse_hlo_buffer(const char *text, size_t len, const char *source_name,
                        pl_diags *diags, pl_module **out)
{
	if (!out)
		return PL_EINVAL;
	*out = NULL;
	if (!text && len)
		return PL_EINVAL;
	struct hr *r = calloc(1, sizeof *r);
	if (!r)
		return PL_ENOMEM;
	r->src = r->p = r->lpos = r->lstart = text ? text : "";
	r->end = r->src + len;
	r->lline = 1;
	r->owners.map = true;
	r->file = source_name ? source_name : "<input>";
	r->diags = diags;
	r->m = pl_module_new(source_name);
	if (!r->m) {
		free(r);
		return PL_ENOMEM;
	}
	if (memchr(r->src, 0, len)) {
		const char *z = memchr(r->src, 0, len);
		r->status = PL_EPARSE;
		uint32_t line, col;
		locate(r, z, &line, &col);
		pl_diags_add(diags, PL_SEV_ERROR, r->file, line, col, "NUL byte in the text");
	} else if (setjmp(r->jb) == 0) {
		parse_module(r);
		r->status = pl_hlo_verify_(r->m, r->file, r->any_layout, diags);
	}
	int rc = r->status;
	/* the text itself, for the writer */
	if (rc == PL_OK)
		rc = pl_hlo_keep_(r->m, r->src, len, r->stmts.v, r->stmts.n);
	if (rc == PL_ENOMEM)
		pl_diags_add(diags, PL_SEV_ERROR, r->file, 0, 0, "out of memory");
	if (rc == PL_OK)
		*out = r->m;
	else
		pl_module_free(r->m);
	hr_free(r);
	free(r);
	return rc;
}

bool pl_text_is_hlo(const char *text, size_t len)
{
	struct hr r;
	memset(&r, 0, sizeof r);
	r.src = r.p = text;
	r.end = text + len;
	/* a comment left open is no HLO either; skip_from must not fail here */
	const char *q = text;
	if (len >= 3 && memcmp(q, "\xEF\xBB\xBF", 3) == 0)
		q += 3;
	for (;;) {
		while (q < r.end && is_space(*q))
			q++;
		if (q + 1 < r.end && q[0] == '/' && q[1] == '/') {
			const char *nl = memchr(q, '\n', (size_t)(r.end - q));
			if (!nl)
				return false;
			q = nl + 1;
		} else if (q + 1 < r.end && q[0] == '/' && q[1] == '*') {
			const char *e = q + 2;
			while (e + 1 < r.end && !(e[0] == '*' && e[1] == '/'))
				e++;
			if (e + 1 >= r.end)
				return false;
			q = e + 2;
		} else {
			break;
		}
	}
	return r.end - q >= 9 && memcmp(q, "HloModule", 9) == 0 &&
	       (r.end - q == 9 || !is_ident(q[9]));
}

int pl_parse_hlo_file(const char *path, pl_diags *diags, pl_module **out)
{
	if (!out || !path)
		return PL_EINVAL;
	*out = NULL;
	struct pl_input in;
	int rc = pl_input_read_(path, diags, &in);
	if (rc != PL_OK)
		return rc;
	rc = pl_parse_hlo_buffer(in.text, in.len, in.name, diags, out);
	pl_input_free_(&in);
	return rc;
}
