/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_form.c — a printed computation in the form XLA prints HLO
 * in: '%' before names, signatures, typed operands (hlo_form.h).
 *
 * The writer makes every line of a computation in one shape, "[ROOT ]NAME =
 * SHAPE OPCODE(OPERANDS)ATTRIBUTES" with OPERANDS names joined by ", ", so
 * a computation is rewritten here once it is whole, rather than at each of
 * the places that make a line: the parameters and the root are known then.
 * Attribute texts are never touched (kept ones are verbatim already).
 */
#include "hlo/hlo_form.h"
#include <passline/hash_table.h>
#include <passline/grow.h>

#include <stdlib.h>

/* One line of the computation, as offsets into the copied text. */
struct fline {
	size_t at, len;         /* the whole line, without "  " and newline */
	bool parsed, root;
	size_t name, nlen;      /* the parts of a parsed line */
	size_t shape, slen;
	size_t opc, olen;
	size_t args, alen;      /* between the parentheses */
	size_t rest;            /* after the ')', to the end of the line */
	int64_t param;          /* a parameter's number; -1 */
};

struct form_state {
	const char *src;
	struct fline *lines;
	size_t n, cap;
	struct pl_ht names; /* line index + 1, by name */
};

static bool same_name(const void *item, const void *probe, const void *ctx)
{
	const struct form_state *s = ctx;
	const struct fline *l = &s->lines[(uintptr_t)item - 1];
	const struct fline *p = probe;
	return l->nlen == p->nlen && memcmp(s->src + l->name, s->src + p->name, p->nlen) == 0;
}

static uint32_t name_hash(const char *s, size_t len)
{
	return (uint32_t)pl_hash_bytes_(s, len);
}

/* The end of the balanced text opening at s[i] ('(' or '{'), or e. */
static size_t balanced(const char *s, size_t i, size_t e)
{
	char open = s[i], close = open == '(' ? ')' : '}';
	int depth = 0;
	for (; i < e; i++) {
		if (s[i] == open)
			depth++;
		else if (s[i] == close && --depth == 0)
			return i + 1;
	}
	return e;
}

/* Fills l's parts when its text has the writer's shape. */
static void parse_line(const char *s, struct fline *l)
{
	size_t i = l->at, e = l->at + l->len;
	l->param = -1;
	if (l->len >= 2 && s[i] == '/' && s[i + 1] == '/')
		return; /* a comment line the reader kept: as it is */
	if (l->len >= 5 && memcmp(s + i, "ROOT ", 5) == 0) {
		l->root = true;
		i += 5;
	}
	const char *eq = memmem(s + i, e - i, " = ", 3);
	if (!eq)
		return;
	l->name = i;
	l->nlen = (size_t)(eq - (s + i));
	i = (size_t)(eq - s) + 3;
	l->shape = i;
	if (i < e && s[i] == '(')
		i = balanced(s, i, e);
	while (i < e && s[i] != ' ')
		i++;
	l->slen = i - l->shape;
	if (i >= e)
		return;
	l->opc = ++i;
	while (i < e && s[i] != '(')
		i++;
	if (i >= e)
		return;
	l->olen = i - l->opc;
	size_t close = balanced(s, i, e);
	if (close == e && s[e - 1] != ')')
		return;
	l->args = i + 1;
	l->alen = close - 1 - l->args;
	l->rest = close;
	l->parsed = true;
	if (l->olen == 9 && memcmp(s + l->opc, "parameter", 9) == 0) {
		int64_t k = 0;
		for (size_t q = l->args; q < l->args + l->alen && k >= 0; q++)
			k = s[q] >= '0' && s[q] <= '9' && k < INT32_MAX ? k * 10 + (s[q] - '0') : -1;
		l->param = l->alen ? k : -1;
	}
}

/* A shape without its layouts (each "{...}" right after an array's ']'),
 * as a signature has it. */
static void put_shape_bare(struct pl_strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '{' && i && s[i - 1] == ']') {
			i = balanced(s, i, len) - 1;
			continue;
		}
		pl_sb_putc(sb, s[i]);
	}
}

static void put_name(struct pl_strbuf *sb, const char *s, size_t len)
{
	pl_sb_putc(sb, '%');
	pl_sb_put(sb, s, len);
}

static int cmp_param(const void *a, const void *b)
{
	const struct fline *x = *(const struct fline *const *)a, *y = *(const struct fline *const *)b;
	return (x->param > y->param) - (x->param < y->param);
}

/* " (p: shape, ...) -> shape" */
static bool put_signature(struct pl_strbuf *sb, const struct form_state *st)
{
	const struct fline **params = malloc((st->n ? st->n : 1) * sizeof *params);
	if (!params)
		return false;
	size_t np = 0;
	const struct fline *root = NULL;
	for (size_t k = 0; k < st->n; k++) {
		if (st->lines[k].parsed && st->lines[k].param >= 0)
			params[np++] = &st->lines[k];
		/* the ROOT line, else the last (XLA's rule when none is marked) */
		if (st->lines[k].parsed && (st->lines[k].root || !root || !root->root))
			root = &st->lines[k];
	}
	qsort(params, np, sizeof *params, cmp_param);
	pl_sb_puts(sb, " (");
	for (size_t k = 0; k < np; k++) {
		if (k)
			pl_sb_puts(sb, ", ");
		pl_sb_put(sb, st->src + params[k]->name, params[k]->nlen);
		pl_sb_puts(sb, ": ");
		put_shape_bare(sb, st->src + params[k]->shape, params[k]->slen);
	}
	pl_sb_puts(sb, ") -> ");
	if (root)
		put_shape_bare(sb, st->src + root->shape, root->slen);
	free(params);
	return true;
}

/* One operand, "a" or " b" of "a, b": trimmed, after its definition's
 * shape. */
static void put_operand(struct pl_strbuf *sb, const struct form_state *st, size_t b, size_t e)
{
	const char *s = st->src;
	while (b < e && s[b] == ' ')
		b++;
	while (e > b && s[e - 1] == ' ')
		e--;
	struct fline probe = {.name = b, .nlen = e - b};
	uintptr_t k =
	        (uintptr_t)pl_ht_get(&st->names, name_hash(s + b, e - b), same_name, &probe, st);
	if (k) {
		const struct fline *d = &st->lines[k - 1];
		pl_sb_put(sb, s + d->shape, d->slen);
		pl_sb_putc(sb, ' ');
	}
	put_name(sb, s + b, e - b);
}

static void put_line(struct pl_strbuf *sb, const struct form_state *st, const struct fline *l)
{
	const char *s = st->src;
	pl_sb_puts(sb, "  ");
	if (!l->parsed) {
		pl_sb_put(sb, s + l->at, l->len);
		pl_sb_putc(sb, '\n');
		return;
	}
	if (l->root)
		pl_sb_puts(sb, "ROOT ");
	put_name(sb, s + l->name, l->nlen);
	pl_sb_puts(sb, " = ");
	pl_sb_put(sb, s + l->shape, l->slen);
	pl_sb_putc(sb, ' ');
	pl_sb_put(sb, s + l->opc, l->olen + 1);
	/* a constant's literal and a parameter's number are no operands */
	bool names = !(l->olen == 8 && memcmp(s + l->opc, "constant", 8) == 0) && l->param < 0;
	if (!names || !l->alen) {
		pl_sb_put(sb, s + l->args, l->alen);
	} else {
		size_t b = l->args, e = l->args + l->alen, k = 0;
		for (size_t q = b; q <= e; q++) {
			if (q < e && s[q] != ',')
				continue;
			if (b != l->args)
				pl_sb_puts(sb, ", ");
			/* XLA's long form marks every fifth operand with its index */
			if (k && k % 5 == 0)
				pl_sb_printf(sb, "/*index=%zu*/", k);
			k++;
			put_operand(sb, st, b, q);
			b = q + 1;
		}
	}
	pl_sb_putc(sb, ')');
	pl_sb_put(sb, s + l->rest, l->at + l->len - l->rest);
	pl_sb_putc(sb, '\n');
}

/* The end of the line from i: the first newline outside brackets,
 * strings and comments that the next line's indent follows (a kept
 * attribute's text may hold newlines, and brackets, quotes or comments it
 * does not close). Brackets, strings and comments are told apart as the
 * reader tells them apart in an attribute's value. */
static size_t line_end(const char *s, size_t i, size_t end)
{
	int depth = 0;
	for (; i < end; i++) {
		char c = s[i];
		if (c == '"' || c == '\'') {
			for (i++; i < end && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			if (i >= end)
				return end;
		} else if (c == '/' && i + 1 < end && s[i + 1] == '*') {
			const char *close = memmem(s + i + 2, end - i - 2, "*/", 2);
			if (!close)
				return end;
			i = (size_t)(close - s) + 1;
		} else if (c == '/' && i + 1 < end && s[i + 1] == '/') {
			const char *nl = memchr(s + i, '\n', end - i);
			if (!nl)
				return end;
			i = (size_t)(nl - s) - 1; /* the newline is looked at next */
		} else if (c == '(' || c == '{' || c == '[') {
			depth++;
		} else if (c == ')' || c == '}' || c == ']') {
			depth -= depth > 0;
		} else if (c == '\n' && !depth &&
		           (i + 1 == end || (i + 2 < end && s[i + 1] == ' ' && s[i + 2] == ' '))) {
			return i;
		}
	}
	return end;
}

/* Reads the lines of the computation text into st; false when out of
 * memory. */
static bool read_lines(struct form_state *st, size_t body, size_t end)
{
	const char *s = st->src;
	for (size_t i = body; i < end;) {
		size_t e = line_end(s, i, end);
		if (!PL_GROW(st->lines, st->cap, st->n + 1))
			return false;
		struct fline *l = &st->lines[st->n++];
		memset(l, 0, sizeof *l);
		size_t b = i + (e - i >= 2 && s[i] == ' ' && s[i + 1] == ' ' ? 2 : 0);
		l->at = b;
		l->len = e - b;
		parse_line(s, l);
		i = e + 1;
	}
	for (size_t k = 0; k < st->n; k++) {
		struct fline *l = &st->lines[k];
		if (!l->parsed)
			continue;
		if (!pl_ht_reserve(&st->names))
			return false;
		uint32_t h = name_hash(s + l->name, l->nlen);
		size_t j = pl_ht_find(&st->names, h, same_name, l, st);
		if (!pl_ht_used(&st->names, j))
			pl_ht_put(&st->names, j, h, (const void *)(uintptr_t)(k + 1));
	}
	return true;
}

int pl_hlo_put_form_(struct pl_strbuf *sb, size_t at)
{
	if (at >= sb->len || sb->failed)
		return sb->failed ? PL_ENOMEM : PL_OK;
	size_t len = sb->len - at;
	char *src = pl_sb_copy_from_(sb, at);
	if (!src)
		return PL_ENOMEM;
	struct form_state st = {.src = src};
	int status = PL_ENOMEM;
	const char *nl = memchr(src, '\n', len);
	size_t head = nl ? (size_t)(nl - src) : len; /* "[ENTRY ]NAME {" */
	size_t name = len >= 6 && memcmp(src, "ENTRY ", 6) == 0 ? 6 : 0;
	if (head < name + 2 || memcmp(src + head - 2, " {", 2) != 0) {
		status = PL_OK; /* not a heading the writer made: left alone */
		goto done;
	}
	if (!read_lines(&st, nl ? head + 1 : len, len))
		goto done;
	sb->len = at;
	pl_sb_put(sb, src, name);
	put_name(sb, src + name, head - 2 - name);
	if (!put_signature(sb, &st))
		goto done;
	pl_sb_puts(sb, " {\n");
	for (size_t k = 0; k < st.n; k++)
		put_line(sb, &st, &st.lines[k]);
	status = sb->failed ? PL_ENOMEM : PL_OK;
done:
	pl_ht_free(&st.names);
	free(st.lines);
	free(src);
	return status;
}
