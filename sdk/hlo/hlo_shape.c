/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_shape.c — the HLO shape tree: parse, print, fit (see
 * hlo_shape.h). One grammar for the reader's input and the writer's kept
 * texts: type[extents]{layout}, tuples "(...)", b(shape) buffers, and in
 * operand structures "_" and NAME@ANCHOR(...). */
#include "hlo/hlo_shape.h"

#include <passline/grow.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parser's cursor. */
struct sp {
	struct pl_hlo_shapes *s;
	const char *p, *end;
	unsigned flags;
	struct pl_hlo_shape_err *err;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_lower_or_digit(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c);
}

/* The characters of HLO names: letters, digits, '_', '.' and '-'. */
static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
	       c == '.' || c == '-';
}

static PL_PRINTF(3, 4) int fail(struct sp *c, const char *at, const char *fmt, ...)
{
	c->err->at = at > c->end ? c->end : at;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
	va_end(ap);
	return PL_EINVAL;
}

/* Skips white space and comments from c->p; PL_EINVAL on an open comment. */
static int skip(struct sp *c)
{
	const char *q = c->p, *e = c->end;
	for (;;) {
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q + 1 < e && q[0] == '/' && q[1] == '/') {
			const char *nl = memchr(q, '\n', (size_t)(e - q));
			q = nl ? nl + 1 : e;
		} else if (q + 1 < e && q[0] == '/' && q[1] == '*') {
			const char *x = q + 2;
			while (x + 1 < e && !(x[0] == '*' && x[1] == '/'))
				x++;
			if (x + 1 >= e)
				return fail(c, q, "unterminated comment");
			q = x + 2;
		} else {
			c->p = q;
			return PL_OK;
		}
	}
}

/* The next character after white space and comments (0 at the end). */
static int peek(struct sp *c, char *ch)
{
	int st = skip(c);
	*ch = c->p < c->end ? *c->p : 0;
	return st;
}

static int expected(struct sp *c, const char *what)
{
	if (c->p >= c->end)
		return fail(c, c->p, "expected %s, found end of input", what);
	size_t k = 0;
	while (c->p + k < c->end && k < 24 && is_ident(c->p[k]))
		k++;
	return fail(c, c->p, "expected %s, found '%.*s'", what, (int)(k ? k : 1), c->p);
}

static int expect(struct sp *c, char want, const char *what)
{
	char ch;
	int st = peek(c, &ch);
	if (st != PL_OK)
		return st;
	if (ch != want)
		return expected(c, what);
	c->p++;
	return PL_OK;
}

/* A decimal integer, maybe negative, after white space. */
static int read_int(struct sp *c, int64_t *out)
{
	int st = skip(c);
	if (st != PL_OK)
		return st;
	const char *q = c->p;
	bool neg = q < c->end && *q == '-';
	if (neg)
		q++;
	if (q >= c->end || !is_digit(*q))
		return expected(c, "an integer");
	uint64_t v = 0;
	for (; q < c->end && is_digit(*q); q++) {
		unsigned dv = (unsigned)(*q - '0');
		if (v > ((uint64_t)INT64_MAX + (neg ? 1 : 0) - dv) / 10)
			return fail(c, c->p, "integer out of range");
		v = v * 10 + dv;
	}
	c->p = q;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return PL_OK;
}

static int push_node(struct sp *c, uint32_t *idx)
{
	struct pl_hlo_shapes *s = c->s;
	if (s->n >= UINT32_MAX || !PL_GROW(s->v, s->cap, s->n + 1))
		return PL_ENOMEM;
	*idx = (uint32_t)s->n++;
	memset(&s->v[*idx], 0, sizeof s->v[*idx]);
	return PL_OK;
}

static int push_dim(struct pl_hlo_shapes *s, int64_t v)
{
	if (s->ndims >= UINT32_MAX || !PL_GROW(s->dims, s->dcap, s->ndims + 1))
		return PL_ENOMEM;
	s->dims[s->ndims++] = v;
	return PL_OK;
}

/* The numbers of a layout, from in up to ':' or end: a permutation of the
 * shape's rank dimensions, minor to major, as XLA requires (tiles and
 * memory spaces after ':' are kept as written). */
static int check_minor_to_major(struct sp *c, const char *in, const char *end, unsigned rank)
{
	uint64_t seen = 0; /* PL_MAX_RANK (64) dimensions at most */
	unsigned count = 0;
	const char *s = in;
	while (s < end && *s != ':') {
		const char *at = s;
		unsigned v = 0;
		if (!is_digit(*s))
			return fail(c, at, "expected a dimension number in the layout");
		while (s < end && is_digit(*s) && v <= rank)
			v = v * 10 + (unsigned)(*s++ - '0');
		while (s < end && is_digit(*s)) /* past the rank already */
			s++;
		int len = (int)(s - at > 20 ? 20 : s - at);
		if (v >= rank)
			return fail(c, at, "the layout names dimension %.*s of a shape of rank %u", len,
			            at, rank);
		if (seen >> v & 1)
			return fail(c, at, "the layout names dimension %.*s twice", len, at);
		seen |= (uint64_t)1 << v;
		count++;
		while (s < end && *s == ' ')
			s++;
		if (s < end && *s == ',') {
			s++;
			while (s < end && *s == ' ')
				s++;
		} else if (s < end && *s != ':') {
			return fail(c, s, "unexpected '%c' in a layout", *s);
		}
	}
	if (count != rank && !(count == 0 && s < end))
		return fail(c, in, "the layout lists %u of the shape's %u dimension%s", count, rank,
		            rank == 1 ? "" : "s");
	return PL_OK;
}

/* The part of a layout after ':', as XLA's parser reads it, each part at
 * most once and in this order: D(...) dimension level types, T(...)...
 * tiles, L(n), #(u32) and *(u32) index and pointer types, E(n) element
 * size in bits, S(n) memory space, SC(d:i,...)... split configurations,
 * M(n); a physical shape P(...) only for sparse arrays, which the text
 * never has. Spaces may stand between the tokens. */
struct lt {
	struct sp *c;
	const char *p, *end;
};

static void lt_space(struct lt *t)
{
	while (t->p < t->end && *t->p == ' ')
		t->p++;
}

static bool lt_eat(struct lt *t, char ch)
{
	lt_space(t);
	if (t->p < t->end && *t->p == ch) {
		t->p++;
		return true;
	}
	return false;
}

/* The word w, not followed by another letter ("S" is not "SC"). */
static bool lt_word(struct lt *t, const char *w)
{
	lt_space(t);
	size_t n = strlen(w);
	if ((size_t)(t->end - t->p) < n || memcmp(t->p, w, n) != 0)
		return false;
	if (t->p + n < t->end && ((t->p[n] >= 'A' && t->p[n] <= 'Z') ||
	                          (t->p[n] >= 'a' && t->p[n] <= 'z')))
		return false;
	t->p += n;
	return true;
}

static bool lt_int(struct lt *t)
{
	lt_space(t);
	const char *q = t->p;
	while (q < t->end && is_digit(*q))
		q++;
	if (q == t->p)
		return false;
	t->p = q;
	return true;
}

static int lt_bad(struct lt *t, const char *what)
{
	lt_space(t);
	if (t->p >= t->end)
		return fail(t->c, t->p, "malformed layout: expected %s before '}'", what);
	return fail(t->c, t->p, "malformed layout: expected %s, found '%c'", what, *t->p);
}

/* '(' items ')' where each item is read by one() (none when empty). */
static int lt_list(struct lt *t, bool (*one)(struct lt *), const char *what)
{
	if (!lt_eat(t, '('))
		return lt_bad(t, "'('");
	if (lt_eat(t, ')'))
		return PL_OK;
	do {
		if (!one(t))
			return lt_bad(t, what);
	} while (lt_eat(t, ','));
	return lt_eat(t, ')') ? PL_OK : lt_bad(t, "',' or ')'");
}

static bool lt_level(struct lt *t)
{
	lt_space(t);
	if (t->p >= t->end || !*t->p || !strchr("DCSH", *t->p))
		return false;
	t->p++;
	lt_eat(t, '+');
	lt_eat(t, '~');
	return true;
}

static bool lt_tile_dim(struct lt *t)
{
	return lt_eat(t, '*') || lt_int(t);
}

/* "(n)" after a one-letter part */
static int lt_number(struct lt *t)
{
	if (!lt_eat(t, '('))
		return lt_bad(t, "'('");
	if (!lt_int(t))
		return lt_bad(t, "an integer");
	return lt_eat(t, ')') ? PL_OK : lt_bad(t, "')'");
}

/* "(u32)": an unsigned integer type */
static int lt_unsigned(struct lt *t)
{
	static const char *const types[] = {"u1", "u2", "u4", "u8", "u16", "u32", "u64"};
	if (!lt_eat(t, '('))
		return lt_bad(t, "'('");
	bool found = false;
	for (size_t k = 0; k < sizeof types / sizeof *types && !found; k++) {
		const char *save = t->p;
		found = lt_word(t, types[k]) && (t->p >= t->end || !is_digit(*t->p));
		if (!found)
			t->p = save;
	}
	if (!found)
		return lt_bad(t, "an unsigned integer type");
	return lt_eat(t, ')') ? PL_OK : lt_bad(t, "')'");
}

/* "(d:i,j)" */
static int lt_split(struct lt *t)
{
	if (!lt_eat(t, '('))
		return lt_bad(t, "'('");
	if (!lt_int(t))
		return lt_bad(t, "a dimension");
	if (!lt_eat(t, ':'))
		return lt_bad(t, "':'");
	if (lt_eat(t, ')'))
		return PL_OK;
	do {
		if (!lt_int(t))
			return lt_bad(t, "a split index");
	} while (lt_eat(t, ','));
	return lt_eat(t, ')') ? PL_OK : lt_bad(t, "',' or ')'");
}

static int check_layout_tail(struct sp *c, const char *in, const char *end)
{
	struct lt t = {c, in, end};
	int st = PL_OK;
	if (lt_word(&t, "D"))
		st = lt_list(&t, lt_level, "a dimension level type (D, C, S or H)");
	if (st == PL_OK && lt_word(&t, "T")) {
		do
			st = lt_list(&t, lt_tile_dim, "a tile extent or '*'");
		while (st == PL_OK && (lt_space(&t), t.p < t.end && *t.p == '('));
	}
	if (st == PL_OK && lt_word(&t, "L"))
		st = lt_number(&t);
	if (st == PL_OK && lt_eat(&t, '#'))
		st = lt_unsigned(&t);
	if (st == PL_OK && lt_eat(&t, '*'))
		st = lt_unsigned(&t);
	if (st == PL_OK && lt_word(&t, "E"))
		st = lt_number(&t);
	if (st == PL_OK && lt_word(&t, "S"))
		st = lt_number(&t);
	if (st == PL_OK && lt_word(&t, "SC")) {
		do
			st = lt_split(&t);
		while (st == PL_OK && (lt_space(&t), t.p < t.end && *t.p == '('));
	}
	if (st == PL_OK && lt_word(&t, "P"))
		return fail(c, t.p - 1, "a layout with a physical shape is only for sparse arrays");
	if (st == PL_OK && lt_word(&t, "M"))
		st = lt_number(&t);
	if (st != PL_OK)
		return st;
	lt_space(&t);
	if (t.p < t.end)
		return lt_bad(&t, "'}'");
	return PL_OK;
}

/* Where the next token from q is (in *at), c->p unmoved. */
static int token_after(struct sp *c, const char *q, const char **at)
{
	const char *save = c->p;
	c->p = q;
	int st = skip(c);
	*at = c->p;
	c->p = save;
	return st;
}

/* A brace right after an array is its layout when an integer, ':' or '}'
 * follows (otherwise it opens a computation's body): minor-to-major
 * numbers, then ':' and tiles, memory space and the like, T(8,128) S(1). */
static int parse_layout(struct sp *c, uint32_t idx)
{
	const char *q2, *in;
	int st = token_after(c, c->p, &q2);
	if (st != PL_OK || q2 >= c->end || *q2 != '{')
		return st;
	if ((st = token_after(c, q2 + 1, &in)) != PL_OK)
		return st;
	if (!(in < c->end && (is_digit(*in) || *in == ':' || (*in == '}' && in == q2 + 1))))
		return PL_OK;
	const char *e = in;
	for (; e < c->end && *e != '}'; e++) {
		char lc = *e;
		if (lc == '\n')
			return fail(c, q2, "unterminated layout");
		if (!(is_digit(lc) || (lc >= 'A' && lc <= 'Z') || (lc >= 'a' && lc <= 'z') ||
		      lc == ',' || lc == ':' || lc == '(' || lc == ')' || lc == '#' || lc == '*' ||
		      lc == '_' || lc == ' ' || lc == '+' || lc == '~'))
			return fail(c, e, "unexpected '%c' in a layout", lc);
	}
	if (e >= c->end)
		return fail(c, q2, "unterminated layout");
	st = check_minor_to_major(c, in, e, c->s->v[idx].rank);
	if (st != PL_OK)
		return st;
	const char *colon = memchr(in, ':', (size_t)(e - in));
	if (colon && (st = check_layout_tail(c, colon + 1, e)) != PL_OK)
		return st;
	struct pl_hlo_snode *n = &c->s->v[idx];
	n->has_layout = 1;
	n->bare = 0;
	n->layout = q2 + 1;
	n->layout_len = (uint32_t)(e - (q2 + 1));
	c->s->layouts = true;
	c->p = e + 1;
	return PL_OK;
}

/* Items separated by ',' up to close (a list may be empty): item reads
 * each; what names the list in the message when close is missing. */
static int parse_list(struct sp *c, char close, const char *what,
                      int (*item)(struct sp *, void *), void *arg)
{
	char ch;
	int st = peek(c, &ch);
	if (st == PL_OK && ch != close) {
		for (;;) {
			if ((st = item(c, arg)) != PL_OK)
				return st;
			if ((st = peek(c, &ch)) != PL_OK)
				return st;
			if (ch != ',')
				break;
			c->p++;
		}
	}
	return st == PL_OK ? expect(c, close, what) : st;
}

/* An array's extents as they are read. */
struct extents {
	unsigned rank;
	uint64_t bounded, unbounded; /* bit i: extent i is "<=N" / "?" */
};

/* One extent: N, <=N (a bound) or ? (unbounded). */
static int parse_extent(struct sp *c, void *arg)
{
	struct extents *x = arg;
	if (x->rank == PL_MAX_RANK)
		return fail(c, c->p, "more than %d dimensions", PL_MAX_RANK);
	unsigned rank = x->rank++;
	uint64_t *bounded = &x->bounded, *unbounded = &x->unbounded;
	int64_t v = 0;
	char d;
	int st = peek(c, &d);
	if (st != PL_OK)
		return st;
	if (d == '?') {
		c->p++;
		*unbounded |= 1ull << rank;
	} else {
		if (d == '<' && c->p + 1 < c->end && c->p[1] == '=') {
			c->p += 2;
			*bounded |= 1ull << rank;
		}
		if ((st = skip(c)) != PL_OK)
			return st;
		const char *at = c->p;
		if ((st = read_int(c, &v)) != PL_OK)
			return st;
		if (v < 0)
			return fail(c, at, "negative extent %" PRId64, v);
	}
	return push_dim(c->s, v) == PL_OK ? PL_OK : PL_ENOMEM;
}

/* type[extents]{layout} */
static int parse_array(struct sp *c, uint32_t idx)
{
	const char *b = c->p, *q = c->p;
	while (q < c->end && is_lower_or_digit(*q))
		q++;
	if (q == b)
		return expected(c, "a shape");
	pl_dtype dt = pl_hlo_dtype_from_name_(b, (size_t)(q - b));
	if (dt == PL_DTYPE_INVALID)
		return fail(c, b, "unknown element type '%.*s'", (int)(q - b), b);
	c->p = q;
	uint32_t d0 = (uint32_t)c->s->ndims;
	struct extents x = {0};
	int st = expect(c, '[', "'[' after an element type");
	if (st == PL_OK)
		st = parse_list(c, ']', "',' or ']' in a shape", parse_extent, &x);
	if (st != PL_OK)
		return st;
	struct pl_hlo_snode *n = &c->s->v[idx];
	n->dtype = (uint8_t)dt;
	n->rank = (uint16_t)x.rank;
	n->dims = d0;
	n->bounded = x.bounded;
	n->unbounded = x.unbounded;
	n->size = n->nleaves = 1;
	n->bare = 1; /* until a layout is read */
	return parse_layout(c, idx);
}

int pl_hlo_shape_set_label_(struct pl_hlo_shapes *s, uint32_t idx, const struct pl_hlo_label *l)
{
	if (s->nlabels >= UINT32_MAX - 1 || !PL_GROW(s->labels, s->lcap, s->nlabels + 1))
		return PL_ENOMEM;
	s->labels[s->nlabels] = *l;
	s->labels[s->nlabels++].node = idx;
	if (s->v[idx].tuple)
		s->v[idx].label = (uint32_t)s->nlabels;
	else
		s->v[idx].named = 1;
	return PL_OK;
}

const struct pl_hlo_label *pl_hlo_shape_leaf_label_(const struct pl_hlo_shapes *s, uint32_t idx)
{
	if (s->v[idx].tuple || !s->v[idx].named)
		return NULL;
	for (size_t k = s->nlabels; k-- > 0;)
		if (s->labels[k].node == idx)
			return &s->labels[k];
	return NULL;
}

/* NAME@ANCHOR right before a tuple of an operand structure, or NAME@ANCHOR:
 * before an array (*leaf set): read into *l, when there is one. */
static bool parse_label(struct sp *c, struct pl_hlo_label *l, bool *leaf)
{
	const char *q = c->p;
	while (q < c->end && is_ident(*q))
		q++;
	if (q == c->p || q >= c->end || *q != '@')
		return false;
	const char *a = q + 1, *ae = a;
	while (ae < c->end && is_ident(*ae))
		ae++;
	*l = (struct pl_hlo_label){c->p, a, (uint32_t)(q - c->p), (uint32_t)(ae - a), 0};
	*leaf = ae < c->end && *ae == ':';
	c->p = *leaf ? ae + 1 : ae;
	return true;
}

static int parse_node(struct sp *c, unsigned depth, uint32_t *out);

const char *pl_hlo_shape_skip_(const char *p, const char *end)
{
	struct pl_hlo_shape_err err;
	struct sp c = {NULL, p, end, 0, &err};
	skip(&c);
	return c.p;
}

/* A tuple's elements as they are read. */
struct elements {
	unsigned depth;
	uint32_t leaves;
};

static int parse_element(struct sp *c, void *arg)
{
	struct elements *x = arg;
	uint32_t kid;
	int st = parse_node(c, x->depth, &kid);
	if (st == PL_OK)
		x->leaves += c->s->v[kid].nleaves;
	return st;
}

static int parse_tuple(struct sp *c, unsigned depth, uint32_t idx)
{
	c->p++;
	c->s->v[idx].tuple = 1;
	struct elements x = {depth + 1, 0};
	int st = parse_list(c, ')', "',' or ')' in a tuple shape", parse_element, &x);
	c->s->v[idx].size = (uint32_t)(c->s->n - idx);
	c->s->v[idx].nleaves = x.leaves;
	return st;
}

static int parse_node(struct sp *c, unsigned depth, uint32_t *out)
{
	if (depth > PL_MAX_NESTING)
		return fail(c, c->p, "shape nested deeper than %d", PL_MAX_NESTING);
	char ch;
	int st = peek(c, &ch);
	if (st != PL_OK)
		return st;
	if (ch == 'b' && c->p + 1 < c->end && c->p[1] == '(') {
		c->p += 2;
		if ((st = parse_node(c, depth + 1, out)) != PL_OK)
			return st;
		return expect(c, ')', "')' after a buffer shape");
	}
	if ((st = push_node(c, out)) != PL_OK)
		return st;
	bool structure = c->flags & PL_HLO_SHAPE_STRUCTURE;
	struct pl_hlo_label l;
	bool leaf = false, labeled = structure && parse_label(c, &l, &leaf);
	if (leaf && (st = peek(c, &ch)) != PL_OK)
		return st;
	if (structure && (!labeled || leaf) && ch == '_' &&
	    !(c->p + 1 < c->end && is_ident(c->p[1]))) {
		c->p++;
		c->s->v[*out] = (struct pl_hlo_snode){.size = 1, .nleaves = 1, .any = 1};
	} else if (labeled && !leaf) {
		if (c->p >= c->end || *c->p != '(')
			return expected(c, "'(' after a tuple's name");
		c->s->v[*out].tuple = 1;
		if ((st = pl_hlo_shape_set_label_(c->s, *out, &l)) != PL_OK)
			return st;
		return parse_tuple(c, depth, *out);
	} else if (!leaf && c->p < c->end && *c->p == '(') {
		return parse_tuple(c, depth, *out);
	} else if ((st = parse_array(c, *out)) != PL_OK) {
		return st;
	}
	return leaf ? pl_hlo_shape_set_label_(c->s, *out, &l) : PL_OK;
}

int pl_hlo_shape_parse_(struct pl_hlo_shapes *s, const char **p, const char *end,
                        unsigned flags, uint32_t *idx, struct pl_hlo_shape_err *err)
{
	struct sp c = {s, *p, end, flags, err};
	int st = parse_node(&c, 0, idx);
	*p = c.p;
	return st;
}

void pl_hlo_shape_put_(struct pl_strbuf *sb, const struct pl_hlo_shapes *s, uint32_t idx)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (n->tuple) {
		pl_sb_putc(sb, '(');
		uint32_t c = idx + 1;
		for (size_t i = 0; c < idx + n->size; i++) {
			pl_hlo_put_sep_(sb, i);
			pl_hlo_shape_put_(sb, s, c);
			c += s->v[c].size;
		}
		pl_sb_putc(sb, ')');
		return;
	}
	if (n->any) {
		pl_sb_putc(sb, '_');
		return;
	}
	pl_sb_puts(sb, pl_hlo_dtype_name_((pl_dtype)n->dtype));
	pl_sb_putc(sb, '[');
	char num[24];
	for (unsigned i = 0; i < n->rank; i++) {
		if (i)
			pl_sb_putc(sb, ',');
		if (n->unbounded >> i & 1) {
			pl_sb_putc(sb, '?');
			continue;
		}
		if (n->bounded >> i & 1)
			pl_sb_puts(sb, "<=");
		pl_sb_put(sb, num, pl_fmt_i64(num, s->dims[n->dims + i]));
	}
	pl_sb_putc(sb, ']');
	if (n->has_layout) {
		pl_sb_putc(sb, '{');
		pl_sb_put(sb, n->layout, n->layout_len);
		pl_sb_putc(sb, '}');
	} else if (!(n->bare && s->print_bare)) {
		pl_hlo_put_default_layout_(sb, n->rank);
	}
}

int pl_hlo_shape_add_array_(struct pl_hlo_shapes *s, const pl_type *t)
{
	if (s->n >= UINT32_MAX || !PL_GROW(s->v, s->cap, s->n + 1))
		return PL_ENOMEM;
	uint32_t d0 = (uint32_t)s->ndims;
	for (uint32_t i = 0; i < t->rank; i++)
		if (push_dim(s, t->dims[i]) != PL_OK)
			return PL_ENOMEM;
	s->v[s->n++] = (struct pl_hlo_snode){.size = 1, .nleaves = 1, .dtype = (uint8_t)t->dtype,
	                                     .rank = (uint16_t)t->rank, .dims = d0};
	return PL_OK;
}

bool pl_hlo_array_fits_(const struct pl_hlo_shapes *s, uint32_t idx, const pl_type *t)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (n->tuple || n->any || n->dtype != (uint8_t)t->dtype || n->rank != t->rank)
		return false;
	return !n->rank || memcmp(&s->dims[n->dims], t->dims, n->rank * sizeof *t->dims) == 0;
}

bool pl_hlo_shape_fits_(const struct pl_hlo_shapes *s, uint32_t idx, const pl_type *const *t,
                        size_t n)
{
	if (s->v[idx].nleaves != n)
		return false;
	for (uint32_t k = idx, leaf = 0; k < idx + s->v[idx].size; k++)
		if (!s->v[k].tuple && !pl_hlo_array_fits_(s, k, t[leaf++]))
			return false;
	return true;
}

/* Whether every child of tuple node n is an array, one node and one leaf
 * each: a tuple's nodes below it are never fewer than its leaves, and are
 * as many only so. Child i is then node idx + 1 + i, and holds leaf i. */
static bool flat_tuple(const struct pl_hlo_snode *n)
{
	return n->tuple && n->size - 1 == n->nleaves;
}

uint32_t pl_hlo_shape_child_holding_(const struct pl_hlo_shapes *s, uint32_t idx, uint32_t j,
                                     uint32_t *first, uint32_t *k)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (!n->tuple || j < *first || j - *first >= n->nleaves)
		return UINT32_MAX;
	uint32_t c, i;
	if (flat_tuple(n)) {
		i = j - *first;
		c = idx + 1 + i;
		*first = j;
	} else {
		for (c = idx + 1, i = 0; *first + s->v[c].nleaves <= j; i++) {
			*first += s->v[c].nleaves;
			c += s->v[c].size;
		}
	}
	if (k)
		*k = i;
	return c;
}

uint32_t pl_hlo_shape_child_(const struct pl_hlo_shapes *s, uint32_t idx, int64_t i,
                             uint32_t *leaf)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (!n->tuple || i < 0)
		return UINT32_MAX;
	if (flat_tuple(n)) {
		if ((uint64_t)i >= n->nleaves)
			return UINT32_MAX;
		*leaf += (uint32_t)i;
		return idx + 1 + (uint32_t)i;
	}
	uint32_t c = idx + 1;
	for (int64_t k = 0; c < idx + n->size; k++) {
		if (k == i)
			return c;
		*leaf += s->v[c].nleaves;
		c += s->v[c].size;
	}
	return UINT32_MAX;
}

bool pl_hlo_shape_default_array_(const struct pl_hlo_shapes *s, uint32_t idx)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (n->tuple || n->any || n->bounded || n->unbounded)
		return false;
	if (!n->has_layout)
		return !(n->bare && s->print_bare && n->rank);
	const char *p = n->layout, *e = n->layout + n->layout_len;
	for (unsigned i = n->rank; i-- > 0;) {
		unsigned v = 0;
		if (p >= e || !is_digit(*p))
			return false;
		while (p < e && is_digit(*p) && v < 1000)
			v = v * 10 + (unsigned)(*p++ - '0');
		if (v != i)
			return false;
		if (i) {
			if (p >= e || *p != ',')
				return false;
			p++;
		}
	}
	return p == e;
}

int pl_hlo_shape_copy_(struct pl_hlo_shapes *s, uint32_t src, uint32_t *idx)
{
	uint32_t size = s->v[src].size;
	if (s->n + size > UINT32_MAX || !PL_GROW(s->v, s->cap, s->n + size))
		return PL_ENOMEM;
	*idx = (uint32_t)s->n;
	memcpy(&s->v[s->n], &s->v[src], size * sizeof *s->v);
	s->n += size;
	return PL_OK;
}

void pl_hlo_shapes_free_(struct pl_hlo_shapes *s)
{
	free(s->v);
	free(s->dims);
	free(s->text);
	free(s->labels);
	*s = (struct pl_hlo_shapes){0};
}
