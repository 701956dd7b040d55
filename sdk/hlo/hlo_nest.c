/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_nest.c — nested instructions and tuple paths folded back
 * into the operands that had them (hlo_nest.h).
 *
 * It works on the printed text of one computation, after its spelling is
 * set, so that what it folds in is spelled as its line was. Only modules
 * whose text had such operands (XLA's parser tests write them; XLA never
 * prints them) get here with anything to do. Lines, and the strings of
 * both lists, are looked up by name in sorted arrays: linear but for a
 * sort, however many lines are nested.
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

/* A name, or a string of a list, and (for a line's) the line. */
struct name_ref {
	const char *s;
	size_t len;
	struct nline *line;
};

struct names {
	struct name_ref *v; /* sorted by bytes */
	size_t n;
};

struct nest {
	const char *src;
	struct nline *lines;
	size_t n;
	struct names by_name; /* the parsed lines */
	/* for the first entry of each name in by_name: the operands of the
	 * lines kept that name it, and the first line of that name given a
	 * fold */
	size_t *uses;
	const struct nline **fold_of;
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

static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}

static int cmp_ref(const void *x, const void *y)
{
	const struct name_ref *a = x, *b = y;
	int c = cmp_bytes(a->s, a->len, b->s, b->len);
	/* one order for equal names too, whatever qsort does: the text's */
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

static void names_sort(struct names *ns)
{
	if (ns->n > 1)
		qsort(ns->v, ns->n, sizeof *ns->v, cmp_ref);
}

/* The first entry of ns not before s[0..len) in order. */
static size_t lower_bound(const struct names *ns, const char *s, size_t len)
{
	size_t lo = 0, hi = ns->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_bytes(ns->v[mid].s, ns->v[mid].len, s, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first entry of ns that is s[0..len), or ns->n. */
static size_t find_name(const struct names *ns, const char *s, size_t len)
{
	size_t k = lower_bound(ns, s, len);
	return k < ns->n && ns->v[k].len == len && memcmp(ns->v[k].s, s, len) == 0 ? k : ns->n;
}

/* The first line named s[b..e) given a fold, or NULL. */
static const struct nline *folded_named(const struct nest *t, size_t b, size_t e)
{
	size_t k = find_name(&t->by_name, t->src + b, e - b);
	return k < t->by_name.n ? t->fold_of[k] : NULL;
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
		/* a nested line replaces the whole operand; a path only its
		 * name, spelled with the '%' the operand had or not */
		pl_sb_put(sb, s + from, (d->nested ? b : nb) - from);
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

/* The strings of list l, sorted; false when out of memory. */
static bool list_names(const pl_attr *l, struct names *ns)
{
	size_t n = list_size(l);
	ns->v = malloc((n ? n : 1) * sizeof *ns->v);
	ns->n = 0;
	if (!ns->v)
		return false;
	for (size_t k = 0; k < n; k++) {
		size_t len;
		const char *p = pl_attr_get_string(pl_attr_list_at(l, k), &len);
		if (p)
			ns->v[ns->n++] = (struct name_ref){p, len, NULL};
	}
	names_sort(ns);
	return true;
}

/* Whether s[0..len) is one of the strings ns, or (prefix) begins one of
 * them up to a '#'. What begins with s sorts after it, and among that,
 * s followed by '#' first: the other bytes of a path (name characters
 * and digits) all come after '#'. */
static bool listed(const struct names *ns, const char *s, size_t len, bool prefix)
{
	size_t k = lower_bound(ns, s, len);
	if (k >= ns->n || ns->v[k].len < len || memcmp(ns->v[k].s, s, len) != 0)
		return false;
	return ns->v[k].len == len || (prefix && ns->v[k].s[len] == '#');
}

/* The entry of l's name in t->by_name (the first of that name). */
static size_t line_entry(const struct nest *t, const struct nline *l)
{
	return find_name(&t->by_name, t->src + l->name, l->nlen);
}

/* Keeps s as l's fold text. */
static bool set_fold(struct nest *t, struct nline *l, const char *s, size_t len)
{
	l->fold = malloc(len + 1);
	if (!l->fold)
		return false;
	size_t k = line_entry(t, l);
	if (k < t->by_name.n && !t->fold_of[k])
		t->fold_of[k] = l;
	memcpy(l->fold, s, len);
	l->fold[len] = 0;
	l->flen = len;
	return true;
}

/* A get-tuple-element line whose path is listed: its fold is the path. */
static bool fold_path(struct nest *t, struct nline *l, const struct names *paths)
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

/* Adds d to the count of uses of each line u's operands name. */
static void count_uses(struct nest *t, const struct nline *u, size_t d)
{
	size_t at = u->args, b, e, nb;
	while (next_operand(t->src, u, &at, &b, &e, &nb)) {
		size_t k = find_name(&t->by_name, t->src + nb, e - nb);
		if (k < t->by_name.n)
			t->uses[k] += d;
	}
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
	struct names nested_names = {0}, path_names = {0};
	int status = PL_ENOMEM;
	size_t nl = 0;
	for (size_t i = 0; i < len; i++)
		nl += src[i] == '\n';
	t.lines = calloc(nl + 1, sizeof *t.lines);
	t.by_name.v = malloc((nl + 1) * sizeof *t.by_name.v);
	t.uses = calloc(nl + 1, sizeof *t.uses);
	t.fold_of = calloc(nl + 1, sizeof *t.fold_of);
	if (!t.lines || !t.by_name.v || !t.uses || !t.fold_of ||
	    !list_names(nested, &nested_names) || !list_names(paths, &path_names))
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
		l->nested = l->parsed && listed(&nested_names, src + l->name, l->nlen, false);
		if (l->parsed)
			t.by_name.v[t.by_name.n++] = (struct name_ref){src + l->name, l->nlen, l};
		i = end + 1;
	}
	names_sort(&t.by_name);
	/* paths first: a nested line may name one */
	for (size_t k = 0; any_path && k < t.n; k++)
		if (t.lines[k].parsed && !fold_path(&t, &t.lines[k], &path_names))
			goto done;
	for (size_t k = 0; k < t.n; k++)
		if (t.lines[k].parsed && !t.lines[k].drop)
			count_uses(&t, &t.lines[k], 1);
	for (size_t k = 0; k < t.n; k++) {
		struct nline *l = &t.lines[k];
		if (!l->nested || (l->len > 5 && memcmp(src + l->at, "ROOT ", 5) == 0) ||
		    t.uses[line_entry(&t, l)] != 1)
			continue;
		t.tmp.len = 0;
		put_folded(&t, &t.tmp, l, l->rhs);
		if (t.tmp.failed || !set_fold(&t, l, t.tmp.data, t.tmp.len))
			goto done;
		l->drop = true;
		count_uses(&t, l, (size_t)-1); /* its operands are no longer lines' */
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
	free(t.by_name.v);
	free(t.uses);
	free(t.fold_of);
	free(nested_names.v);
	free(path_names.v);
	pl_sb_free(&t.tmp);
	free(src);
	return status;
}
