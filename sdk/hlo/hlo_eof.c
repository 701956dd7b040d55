/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_eof.c — what an HLO text cut short ends inside of.
 *
 * The reader reads a computation token by token and stops at its first
 * error; when the text was cut, that error is often about what the cut
 * left behind ("'g' is not defined" for a name cut in two). Once it has
 * an error, the reader scans the part it was in to the end of the text
 * with brackets matched, strings and comments skipped: a part still open
 * at the end means the file stops early, and the innermost open thing is
 * what the message names.
 */
#include "hlo/hlo_eof.h"

#include <stdio.h>
#include <string.h>

/* open brackets remembered; deeper ones are only counted */
#define EOF_STACK 64

enum { OPEN_BRACKET, OPEN_BODY, OPEN_LAYOUT, OPEN_STRING, OPEN_COMMENT };

struct open_item {
	const char *at;
	unsigned char kind;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* The last non-blank char before p, not before lo, or NULL. */
static const char *before(const char *lo, const char *p)
{
	while (p > lo && blank(p[-1]))
		p--;
	return p > lo ? p - 1 : NULL;
}

/* The identifier that ends just before e (exclusive), not before lo. */
static const char *word_start(const char *lo, const char *e)
{
	const char *b = e;
	while (b > lo && ident(b[-1]))
		b--;
	return b;
}

/* A '{' right after a shape's ']' opens its layout when a dimension
 * number, ':' or '}' follows, as the reader decides. */
static bool layout_brace(const char *lo, const char *q, const char *end)
{
	const char *p = before(lo, q);
	if (!p || *p != ']')
		return false;
	const char *n = q + 1;
	while (n < end && blank(*n))
		n++;
	if (n >= end)
		return p == q - 1;
	return (*n >= '0' && *n <= '9') || *n == ':' || (*n == '}' && n == q + 1);
}

/* The char after the quoted string at q, or NULL when it never closes. */
static const char *skip_quoted(const char *q, const char *end)
{
	char quote = *q;
	for (const char *c = q + 1; c < end; c++) {
		if (*c == '\\')
			c++;
		else if (*c == quote)
			return c + 1;
	}
	return NULL;
}

/* "computation 'NAME'" from the start of a computation. */
static void comp_name(const char *from, const char *end, char *buf, size_t n)
{
	const char *q = from;
	if (end - q >= 5 && memcmp(q, "ENTRY", 5) == 0)
		q += 5;
	while (q < end && blank(*q))
		q++;
	if (q < end && *q == '%')
		q++;
	const char *b = q;
	while (q < end && ident(*q) && q - b < 64)
		q++;
	if (q == b)
		snprintf(buf, n, "a computation");
	else
		snprintf(buf, n, "computation '%.*s'", (int)(q - b), b);
}

/* Puts it innermost on the stack of depth open items, in the last slot
 * when the deeper ones were only counted; the depth st now holds. */
static size_t push_innermost(struct open_item *st, size_t depth, struct open_item it)
{
	if (depth >= EOF_STACK)
		depth = EOF_STACK - 1;
	st[depth] = it;
	return depth + 1;
}

/* depth: the items st holds (at most EOF_STACK). */
static void describe(const struct open_item *st, size_t depth, const char *from,
                     const char *comp, const char *part, struct pl_hlo_eof *out)
{
	const struct open_item *top = &st[depth - 1];
	out->opened = top->at;
	/* everything inside an attribute's value ("..., key={") is that
	 * value, everything inside a layout that layout */
	for (size_t k = 0; k < depth; k++) {
		if (st[k].kind == OPEN_LAYOUT) {
			snprintf(out->what, sizeof out->what, "a layout");
			out->opened = st[k].at;
			return;
		}
		const char *eq = before(from, st[k].at);
		if ((st[k].kind != OPEN_BRACKET && st[k].kind != OPEN_STRING) || !eq || *eq != '=')
			continue;
		const char *kb = word_start(from, eq);
		const char *comma = before(from, kb);
		if (kb == eq || !comma || *comma != ',')
			continue;
		const char *in = top->kind == OPEN_STRING    ? "a string in "
		                 : top->kind == OPEN_COMMENT ? "a comment in "
		                                             : "";
		snprintf(out->what, sizeof out->what, "%sthe value of %.*s=", in, (int)(eq - kb), kb);
		if (!*in)
			out->opened = st[k].at;
		return;
	}
	if (*comp && st[0].kind != OPEN_BODY) {
		/* before a computation's body: its signature */
		snprintf(out->what, sizeof out->what, "the %s of %s",
		         *st[0].at == '(' ? "parameters" : "result shape", comp);
		out->opened = st[0].at;
		return;
	}
	if (*part && top->kind != OPEN_STRING && top->kind != OPEN_COMMENT) {
		snprintf(out->what, sizeof out->what, "%s", part);
		out->opened = st[0].at;
		return;
	}
	const char *q = top->at;
	const char *p = q > from ? q - 1 : NULL;
	switch (top->kind) {
	case OPEN_BODY:
		snprintf(out->what, sizeof out->what, "the body of %s", comp);
		return;
	case OPEN_LAYOUT:
		snprintf(out->what, sizeof out->what, "a layout");
		return;
	case OPEN_STRING:
	case OPEN_COMMENT:
		/* in the header or the frame tables, that part too */
		snprintf(out->what, sizeof out->what, "%s%s%s",
		         top->kind == OPEN_STRING ? "a string" : "a comment", *part ? " in " : "",
		         part);
		return;
	default:
		break;
	}
	if (*q == '[') {
		snprintf(out->what, sizeof out->what, p && ident(*p) ? "a shape" : "a list");
	} else if (*q == '{') {
		snprintf(out->what, sizeof out->what, "a '{' group");
	} else if (p && ident(*p)) {
		const char *wb = word_start(from, q);
		if (q - wb == 1 && *wb == 'b')
			snprintf(out->what, sizeof out->what, "a buffer shape");
		else if (q - wb == 9 && memcmp(wb, "parameter", 9) == 0)
			snprintf(out->what, sizeof out->what, "the number of a parameter");
		else if (q - wb == 8 && memcmp(wb, "constant", 8) == 0)
			snprintf(out->what, sizeof out->what, "the literal of a constant");
		else
			snprintf(out->what, sizeof out->what, "the operands of %.*s", (int)(q - wb), wb);
	} else {
		snprintf(out->what, sizeof out->what, "a tuple shape");
	}
}

bool pl_hlo_ends_inside_(const char *from, const char *end, enum pl_hlo_part part,
                         struct pl_hlo_eof *out)
{
	char comp[96] = "";
	if (part == PL_HLO_PART_COMP)
		comp_name(from, end, comp, sizeof comp);
	static const char *const names[] = {"the module header", "the stack frame tables",
	                                    ""};
	const char *part_name = part == PL_HLO_PART_COMP ? "" : names[part];
	snprintf(out->what, sizeof out->what, "%s", part == PL_HLO_PART_COMP ? comp : part_name);
	out->opened = NULL;

	struct open_item st[EOF_STACK];
	size_t depth = 0; /* open brackets, st holding the outermost ones */
	const char *q = from;
	while (q < end) {
		char c = *q;
		if (c == '"' || c == '\'') {
			const char *e = skip_quoted(q, end);
			if (!e) {
				depth = push_innermost(st, depth, (struct open_item){q, OPEN_STRING});
				describe(st, depth, from, comp, part_name, out);
				return true;
			}
			q = e;
			continue;
		}
		if (c == '/' && q + 1 < end && q[1] == '/') {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			q = nl ? nl : end;
			continue;
		}
		if (c == '/' && q + 1 < end && q[1] == '*') {
			const char *e = q + 2;
			while (e + 1 < end && !(e[0] == '*' && e[1] == '/'))
				e++;
			if (e + 1 >= end) {
				depth = push_innermost(st, depth, (struct open_item){q, OPEN_COMMENT});
				describe(st, depth, from, comp, part_name, out);
				return true;
			}
			q = e + 2;
			continue;
		}
		if (c == '\n' && depth == 0 && part == PL_HLO_PART_HEADER) {
			/* the header ends at the end of a line, unless after a ',' */
			const char *p = before(from, q);
			if (!p || *p != ',')
				return false;
		}
		if (c == '{' || c == '[' || c == '(') {
			unsigned char kind = OPEN_BRACKET;
			if (c == '{' && layout_brace(from, q, end))
				kind = OPEN_LAYOUT;
			else if (c == '{' && depth == 0 && part == PL_HLO_PART_COMP)
				kind = OPEN_BODY;
			if (depth < EOF_STACK)
				st[depth] = (struct open_item){q, kind};
			depth++;
		} else if (c == '}' || c == ']' || c == ')') {
			if (depth == 0)
				return false; /* unmatched: an error of its own */
			depth--;
			/* closed by another kind ("T(128}"): an error of its own
			 * too, not a text cut short */
			if (depth < EOF_STACK && *st[depth].at != (c == '}' ? '{' : c == ']' ? '[' : '('))
				return false;
			if (depth == 0 && st[0].kind == OPEN_BODY)
				return false; /* the computation is complete */
		}
		q++;
	}
	if (depth > EOF_STACK)
		depth = EOF_STACK;
	if (depth) {
		describe(st, depth, from, comp, part_name, out);
		return true;
	}
	if (part == PL_HLO_PART_COMP) {
		/* not a bracket open, no body yet: the header was cut */
		snprintf(out->what, sizeof out->what, "the header of %s", comp);
		return true;
	}
	return false;
}
