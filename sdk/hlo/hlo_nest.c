/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_nest.c — nested instructions and tuple paths folded back
 * into the operands that had them (hlo_nest.h).
 *
 * It works on the printed text of one computation, after its spelling is
 * set, so that what it folds in is spelled as its line was. Only modules
 * whose text had such operands (XLA's parser tests write them; XLA never
 * prints them) get here with anything to do.
 */
#include "hlo/hlo_nest.h"

#include <stdlib.h>

struct nline {
	size_t at, len;       /* the line, without its indent and newline */
	size_t indent;        /* 2, or 0 when it had none */
	size_t name, nlen;    /* its name, without '%' */
	size_t rhs;           /* after " = " */
	size_t args, alen;    /* between its operands' parentheses */
	bool parsed, drop;
	bool nested;          /* in the nested list */
	char *fold;           /* what its one user writes in its place */
	size_t flen;
};

struct nest {
	const char *src;
	struct nline *lines;
	size_t n;
	struct nline **folded; /* the lines with a fold, a few in a text */
	size_t nfolded;
	struct pl_strbuf tmp;
};

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* The end of the bracketed text opening at s[i], or e. */
static size_t close_of(const char *s, size_t i, size_t e)
{
	int depth = 0;
	for (; i < e; i++) {
		char c = s[i];
		if (c == '"') {
			for (i++; i < e && s[i] != '"'; i++)
				i += s[i] == '\\';
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
			return i + 1;
		}
	}
	return e;
}

/* Fills l's parts when it is "[ROOT ]NAME = [SHAPE ]OPCODE(ARGS)...". */
static void parse(const char *s, struct nline *l)
{
	size_t i = l->at, e = l->at + l->len;
	if (l->len > 5 && memcmp(s + i, "ROOT ", 5) == 0)
		i += 5;
	if (i < e && s[i] == '%')
		i++;
	l->name = i;
	while (i < e && name_char(s[i]))
		i++;
	l->nlen = i - l->name;
	if (!l->nlen || e - i < 3 || memcmp(s + i, " = ", 3) != 0)
		return;
	l->rhs = i += 3;
	/* a shape: "(...)", or a word and "[...]" with a layout "{...}" */
	if (i < e && s[i] == '(') {
		i = close_of(s, i, e);
	} else {
		size_t w = i;
		while (w < e && name_char(s[w]))
			w++;
		if (w < e && s[w] == '[') {
			i = close_of(s, w, e);
			if (i < e && s[i] == '{')
				i = close_of(s, i, e);
		}
	}
	while (i < e && s[i] == ' ')
		i++;
	while (i < e && name_char(s[i]))
		i++;
	if (i >= e || s[i] != '(')
		return;
	size_t c = close_of(s, i, e);
	if (c > e || s[c - 1] != ')')
		return;
	l->args = i + 1;
	l->alen = c - 1 - l->args;
	l->parsed = true;
}

/* The operand of l after byte *at (its args): [*b, *e) trimmed, its name
 * at [*nb, *e); false when there are no more. */
static bool next_operand(const char *s, const struct nline *l, size_t *at, size_t *b, size_t *e,
                         size_t *nb)
{
	size_t i = *at, end = l->args + l->alen;
	if (i >= end)
		return false;
	while (i < end && (s[i] == ' ' || s[i] == ','))
		i++;
	*b = i;
	while (i < end && s[i] != ',') {
		if (s[i] == '(' || s[i] == '[' || s[i] == '{' || s[i] == '"')
			i = close_of(s, i, end);
		else if (s[i] == '/' && i + 1 < end && s[i + 1] == '*') {
			const char *c = memmem(s + i + 2, end - i - 2, "*/", 2);
			i = c ? (size_t)(c - s) + 2 : end;
		} else
			i++;
	}
	*at = i;
	size_t q = i;
	while (q > *b && s[q - 1] == ' ')
		q--;
	*e = q;
	while (q > *b && name_char(s[q - 1]))
		q--;
	*nb = q;
	return *e > *b;
}

/* The line with a fold named s[b..e), or NULL: only those are looked
 * for, and they are few, so the search does not grow with the text. */
static const struct nline *folded_named(const struct nest *t, size_t b, size_t e)
{
	for (size_t k = 0; k < t->nfolded; k++) {
		const struct nline *l = t->folded[k];
		if (l->nlen == e - b && memcmp(t->src + l->name, t->src + b, e - b) == 0)
			return l;
	}
	return NULL;
}

/* l's operands into sb, the folded ones replaced: a nested line's whole
 * operand by its text, a path's name by the path. */
static void put_args(struct nest *t, struct pl_strbuf *sb, const struct nline *l)
{
	const char *s = t->src;
	size_t at = l->args, from = l->args, b, e, nb;
	while (next_operand(s, l, &at, &b, &e, &nb)) {
		const struct nline *d = folded_named(t, nb, e);
		if (!d)
			continue;
		if (d->nested) {
			pl_sb_put(sb, s + from, b - from);
		} else {
			size_t sig = nb > b && s[nb - 1] == '%' ? nb - 1 : nb;
			pl_sb_put(sb, s + from, sig - from);
			pl_sb_putc(sb, '%');
		}
		pl_sb_put(sb, d->fold, d->flen);
		from = e;
	}
	pl_sb_put(sb, s + from, l->args + l->alen - from);
}

/* l's text from `from` on with its operands folded, into sb. */
static void put_folded(struct nest *t, struct pl_strbuf *sb, const struct nline *l, size_t from)
{
	pl_sb_put(sb, t->src + from, l->args - from);
	put_args(t, sb, l);
	pl_sb_put(sb, t->src + l->args + l->alen, l->at + l->len - (l->args + l->alen));
}

static size_t list_size(const pl_attr *l)
{
	return l && pl_attr_get_kind(l) == PL_ATTR_LIST ? pl_attr_list_size(l) : 0;
}

/* Whether s[0..len) is one of the strings of list l, or (prefix) begins
 * one of them up to a '#'. */
static bool listed(const pl_attr *l, const char *s, size_t len, bool prefix)
{
	for (size_t k = 0; k < list_size(l); k++) {
		size_t pl;
		const char *p = pl_attr_get_string(pl_attr_list_at(l, k), &pl);
		if (p && (pl == len || (prefix && pl > len && p[len] == '#')) &&
		    memcmp(p, s, len) == 0)
			return true;
	}
	return false;
}

/* Keeps s as l's fold text. */
static bool set_fold(struct nest *t, struct nline *l, const char *s, size_t len)
{
	l->fold = malloc(len + 1);
	if (!l->fold)
		return false;
	t->folded[t->nfolded++] = l;
	memcpy(l->fold, s, len);
	l->fold[len] = 0;
	l->flen = len;
	return true;
}

/* A get-tuple-element line whose path is listed: its fold is the path. */
static bool fold_path(struct nest *t, struct nline *l, const pl_attr *paths)
{
	const char *s = t->src;
	size_t op = l->args - 1, on = 17;
	if (op < l->rhs + on || memcmp(s + op - on, "get-tuple-element", on) != 0)
		return true;
	size_t at = l->args, b, e, nb;
	if (!next_operand(s, l, &at, &b, &e, &nb) || at != l->args + l->alen)
		return true;
	const char *rest = s + l->args + l->alen + 1, *end = s + l->at + l->len;
	if (end - rest < 8 || memcmp(rest, ", index=", 8) != 0)
		return true;
	const char *d = rest + 8, *q = d;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == d || q != end)
		return true;
	const struct nline *x = folded_named(t, nb, e);
	t->tmp.len = 0;
	if (x && !x->nested)
		pl_sb_put(&t->tmp, x->fold, x->flen);
	else
		pl_sb_put(&t->tmp, s + nb, e - nb);
	pl_sb_putc(&t->tmp, '#');
	pl_sb_put(&t->tmp, d, (size_t)(q - d));
	if (t->tmp.failed)
		return false;
	if (!listed(paths, t->tmp.data, t->tmp.len, true))
		return true;
	l->drop = true;
	return set_fold(t, l, t->tmp.data, t->tmp.len);
}

/* The number of operands of the lines kept that name l. */
static size_t uses_of(struct nest *t, const struct nline *l)
{
	size_t n = 0;
	for (size_t k = 0; k < t->n; k++) {
		const struct nline *u = &t->lines[k];
		size_t at = u->args, b, e, nb;
		while (u->parsed && !u->drop && next_operand(t->src, u, &at, &b, &e, &nb))
			n += e - nb == l->nlen && memcmp(t->src + nb, t->src + l->name, l->nlen) == 0;
	}
	return n;
}

int pl_hlo_put_nested_(struct pl_strbuf *sb, size_t at, const pl_attr *nested,
                       const pl_attr *paths)
{
	bool any_path = list_size(paths) > 0;
	if ((!list_size(nested) && !any_path) || sb->failed || at >= sb->len)
		return sb->failed ? PL_ENOMEM : PL_OK;
	size_t len = sb->len - at;
	char *src = pl_sb_copy_from_(sb, at);
	if (!src)
		return PL_ENOMEM;
	struct nest t = {.src = src};
	int status = PL_ENOMEM;
	size_t nl = 0;
	for (size_t i = 0; i < len; i++)
		nl += src[i] == '\n';
	t.lines = calloc(nl + 1, sizeof *t.lines);
	t.folded = malloc((nl + 1) * sizeof *t.folded);
	if (!t.lines || !t.folded)
		goto done;
	const char *h = memchr(src, '\n', len);
	size_t body = h ? (size_t)(h - src) + 1 : len;
	for (size_t i = body; i < len;) {
		const char *e = memchr(src + i, '\n', len - i);
		size_t end = e ? (size_t)(e - src) : len;
		struct nline *l = &t.lines[t.n++];
		l->indent = end - i >= 2 && src[i] == ' ' && src[i + 1] == ' ' ? 2 : 0;
		size_t b = i + l->indent;
		l->at = b;
		l->len = end - b;
		parse(src, l);
		l->nested = l->parsed && listed(nested, src + l->name, l->nlen, false);
		i = end + 1;
	}
	/* paths first: a nested line may name one */
	for (size_t k = 0; any_path && k < t.n; k++)
		if (t.lines[k].parsed && !fold_path(&t, &t.lines[k], paths))
			goto done;
	for (size_t k = 0; k < t.n; k++) {
		struct nline *l = &t.lines[k];
		if (!l->nested || (l->len > 5 && memcmp(src + l->at, "ROOT ", 5) == 0) ||
		    uses_of(&t, l) != 1)
			continue;
		t.tmp.len = 0;
		put_folded(&t, &t.tmp, l, l->rhs);
		if (t.tmp.failed || !set_fold(&t, l, t.tmp.data, t.tmp.len))
			goto done;
		l->drop = true;
	}
	sb->len = at;
	pl_sb_put(sb, src, body);
	for (size_t k = 0; k < t.n; k++) {
		const struct nline *l = &t.lines[k];
		if (l->drop)
			continue;
		pl_sb_put(sb, src + l->at - l->indent, l->indent);
		if (l->parsed)
			put_folded(&t, sb, l, l->at);
		else
			pl_sb_put(sb, src + l->at, l->len);
		if (l->at + l->len < len)
			pl_sb_putc(sb, '\n');
	}
	status = sb->failed ? PL_ENOMEM : PL_OK;
done:
	for (size_t k = 0; k < t.n; k++)
		free(t.lines[k].fold);
	free(t.lines);
	free(t.folded);
	pl_sb_free(&t.tmp);
	free(src);
	return status;
}
