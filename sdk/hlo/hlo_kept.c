/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_kept.c — the text an HLO module was read from, line by line.
 *
 * Right after reading, the writer renders the module; each line of that
 * rendering that is not blank is a fingerprint of what the IR says of the
 * line, and lies over a piece of the input: the statement the reader
 * found for it (the module line, a heading, an instruction, a closing
 * brace: the k-th line of the rendering stands for the k-th statement
 * read, whatever its spelling), or for the stack frame tables, which the
 * writer prints verbatim, the same text up to white space. A piece is
 * the line's indentation, its text and the rest of its last input line;
 * the blank lines and comments before it are its gap. When the module is
 * written, each line of the new rendering that equals a
 * fingerprint (compared whole, so no false match) is replaced by its
 * gap and piece: a no-pass round trip gives the input byte for byte, and
 * a pass's output differs from its input only in the lines whose IR it
 * changed. Equal fingerprints (closing braces, lines of the same text in
 * two computations) go in the order they were read. A line the text wrote
 * inside another's (a nested instruction, a path's get-tuple-element) is
 * covered by that line's piece: it is put as nothing while that line is
 * put as read and no new line names it (settle_covered).
 */
#include "hlo/hlo_kept.h"
#include "ir/hlo_opcodes.h"

#include <stdlib.h>

struct kept_line {
	uint32_t fp, fp_len;     /* the fingerprint, in ren */
	uint32_t gap, gap_len;   /* the white space before the piece, in src */
	uint32_t piece, piece_len;
	uint32_t next;           /* the next line of the same fingerprint; UINT32_MAX: none */
	/* a line inside another's text (a nested instruction, a path's
	 * get-tuple-element): that line; UINT32_MAX: none */
	uint32_t parent;
	uint8_t kind; /* of its statement (enum pl_hlo_stmt_kind); 0xff: none */
};

struct pl_hlo_kept {
	char *src, *ren;
	struct kept_line *lines;
	uint32_t n;
	/* the first line of each fingerprint, by its hash; UINT32_MAX: empty */
	uint32_t *slots;
	size_t cap;
	uint32_t ncovered; /* the lines with a parent */
};

enum { NONE = UINT32_MAX };

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

void pl_hlo_kept_free_(struct pl_hlo_kept *k)
{
	if (!k)
		return;
	free(k->src);
	free(k->ren);
	free(k->lines);
	free(k->slots);
	free(k);
}

/* Where the writer's line that starts at s[a] ends (its newline, or n):
 * a line whose brackets are still open, or that ends in ',', goes on
 * (an attribute written over several lines), but for a heading (no '='
 * outside brackets), whose '{' at the end of its first line opens its
 * computation. */
static size_t line_end(const char *s, size_t n, size_t a)
{
	int depth = 0;
	bool str = false;
	char lastc = 0;
	bool first = true, eq = false;
	for (size_t p = a; p < n; p++) {
		char c = s[p];
		if (str) {
			if (c == '\\' && p + 1 < n)
				p++;
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '\n') {
			if ((depth <= 0 && lastc != ',') || (first && !eq && depth == 1 && lastc == '{'))
				return p;
			first = false;
			continue;
		}
		if (c == '"')
			str = true;
		else if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}')
			depth--;
		else if (c == '=' && depth == 0)
			eq = true;
		if (!is_ws(c))
			lastc = c;
	}
	return n;
}

static uint32_t find_slot(const struct pl_hlo_kept *k, const char *s, size_t len, bool *found)
{
	size_t mask = k->cap - 1;
	for (size_t h = (size_t)pl_hash_bytes_(s, len) & mask;; h = (h + 1) & mask) {
		uint32_t l = k->slots[h];
		if (l == NONE) {
			*found = false;
			return (uint32_t)h;
		}
		const struct kept_line *kl = &k->lines[l];
		if (kl->fp_len == len && memcmp(k->ren + kl->fp, s, len) == 0) {
			*found = true;
			return (uint32_t)h;
		}
	}
}

/* The lines of ren that are not blank, each with its first and its last
 * non-blank byte; false when out of memory. */
static bool split_lines(struct pl_hlo_kept *k, size_t rlen, uint32_t **first, uint32_t **last)
{
	size_t cap = 16;
	k->lines = malloc(cap * sizeof *k->lines);
	*first = malloc(cap * sizeof **first);
	*last = malloc(cap * sizeof **last);
	if (!k->lines || !*first || !*last)
		return false;
	for (size_t a = 0; a < rlen;) {
		size_t b = line_end(k->ren, rlen, a);
		size_t f = a, l = b;
		while (f < b && is_ws(k->ren[f]))
			f++;
		while (l > f && is_ws(k->ren[l - 1]))
			l--;
		if (f < b) {
			if (k->n == cap) {
				cap *= 2;
				void *x = realloc(k->lines, cap * sizeof *k->lines);
				if (x)
					k->lines = x;
				void *y = realloc(*first, cap * sizeof **first);
				if (y)
					*first = y;
				void *z = realloc(*last, cap * sizeof **last);
				if (z)
					*last = z;
				if (!x || !y || !z)
					return false;
			}
			k->lines[k->n] = (struct kept_line){.fp = (uint32_t)a, .fp_len = (uint32_t)(b - a),
			                                    .next = NONE, .parent = NONE,
			                                    .kind = 0xff};
			(*first)[k->n] = (uint32_t)f;
			(*last)[k->n] = (uint32_t)l;
			k->n++;
		}
		a = b + 1;
	}
	return true;
}

/* Where the comment at s[i] ends (before the newline that ends a // one);
 * i when none starts there. */
static size_t skip_comment(const char *s, size_t i, size_t n)
{
	if (i + 1 >= n || s[i] != '/' || (s[i + 1] != '/' && s[i + 1] != '*'))
		return i;
	if (s[i + 1] == '/') {
		const char *nl = memchr(s + i, '\n', n - i);
		return nl ? (size_t)(nl - s) : n;
	}
	for (size_t e = i + 2; e + 1 < n; e++)
		if (s[e] == '*' && s[e + 1] == '/')
			return e + 2;
	return i;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The characters of HLO names: letters, digits, '_', '.' and '-'. */
static bool is_name_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
}

/* What the writer's line ren[f..l) stands for: a statement's kind, and
 * in *name, *nlen the name it writes (without '%'); -1 for a line of no
 * statement (a line of the stack frame tables, verbatim). */
static int line_kind(const char *ren, size_t f, size_t l, const char **name, size_t *nlen)
{
	const char *p = ren + f, *e = ren + l;
	*name = NULL;
	*nlen = 0;
	if ((size_t)(e - p) >= 9 && memcmp(p, "HloModule", 9) == 0)
		return PL_HLO_STMT_MODULE;
	if (*p == '}')
		return PL_HLO_STMT_CLOSE;
	if (e - p > 6 && memcmp(p, "ENTRY ", 6) == 0)
		p += 6;
	else if (e - p > 5 && memcmp(p, "ROOT ", 5) == 0)
		p += 5;
	while (p < e && *p == ' ')
		p++;
	if (p < e && *p == '%')
		p++;
	const char *b = p;
	while (p < e && is_name_char(*p))
		p++;
	if (p == b || is_digit(*b))
		return -1;
	*name = b;
	*nlen = (size_t)(p - b);
	while (p < e && *p == ' ')
		p++;
	if (p < e && *p == '=')
		return PL_HLO_STMT_INST;
	return e[-1] == '{' ? PL_HLO_STMT_HEADING : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Where src's white space and comments from i end. */
static size_t skip_blank(const char *src, size_t i, size_t n)
{
	for (;;) {
		while (i < n && is_ws(src[i]))
			i++;
		size_t c = skip_comment(src, i, n);
		if (c == i)
			return i;
		i = c;
	}
}

/* Entries (statement or line numbers) by the hash of a name: an
 * open-addressed table, cap a power of two, NONE in an empty slot; a name
 * may be in it more than once (in two computations). A lookup walks
 * from named_first(t, name) while the slot is not NONE (named_next),
 * the caller checking each entry's name. */
struct named {
	uint32_t *slot;
	size_t cap;
};

static bool named_init(struct named *t, size_t n)
{
	for (t->cap = 16; t->cap < 2 * n;)
		t->cap *= 2;
	t->slot = malloc(t->cap * sizeof *t->slot);
	if (t->slot)
		memset(t->slot, 0xff, t->cap * sizeof *t->slot);
	return t->slot != NULL;
}

static size_t named_first(const struct named *t, const char *nm, size_t nl)
{
	return (size_t)pl_hash_bytes_(nm, nl) & (t->cap - 1);
}

static size_t named_next(const struct named *t, size_t h)
{
	return (h + 1) & (t->cap - 1);
}

static void named_put(struct named *t, const char *nm, size_t nl, uint32_t v)
{
	size_t h = named_first(t, nm, nl);
	while (t->slot[h] != NONE)
		h = named_next(t, h);
	t->slot[h] = v;
}

/* Whether statement s names name[0..nlen) (both nothing: a line of no
 * name). */
static bool names_it(const struct pl_hlo_stmt *s, const char *name, size_t nlen)
{
	return s->name_len == nlen && (!nlen || memcmp(s->name, name, nlen) == 0);
}

/* The statement named name[0..nlen) between statements lo and hi (a
 * computation's heading and closing brace) that no line stands for yet
 * (stmt_line), or NONE. */
static uint32_t find_named(const struct named *t, const struct pl_hlo_stmt *st, size_t lo,
                           size_t hi, const char *name, size_t nlen, const uint32_t *stmt_line)
{
	for (size_t h = named_first(t, name, nlen); t->slot[h] != NONE; h = named_next(t, h)) {
		uint32_t c = t->slot[h];
		if (c > lo && c < hi && stmt_line[c] == NONE && names_it(&st[c], name, nlen))
			return c;
	}
	return NONE;
}

/* The line of the stack frame tables at ren[j..) (first[x], last[x]: its
 * text there), found in src from *i on by walking the two together,
 * white space skipped, and a comment where only one has it; first[x],
 * last[x] set to where it lies in src. false when src has not that text. */
static bool walk_text(struct pl_hlo_kept *k, size_t slen, size_t rlen, size_t *i, size_t j,
                      uint32_t *first, uint32_t *last, uint32_t x)
{
	bool started = false;
	for (;;) {
		while (j < rlen && is_ws(k->ren[j]))
			j++;
		while (*i < slen && is_ws(k->src[*i]))
			(*i)++;
		if (j < rlen && *i < slen && k->src[*i] != k->ren[j]) {
			/* a comment only one of them has */
			size_t si2 = skip_comment(k->src, *i, slen), rj = skip_comment(k->ren, j, rlen);
			if (rj >= last[x])
				return false; /* the rest of the line: no text to keep */
			if (si2 > *i || rj > j) {
				*i = si2, j = rj;
				continue;
			}
		}
		if (j >= rlen || *i >= slen || k->src[*i] != k->ren[j])
			return false;
		if (!started)
			first[x] = (uint32_t)*i;
		started = true;
		bool end = j + 1 == last[x];
		(*i)++, j++;
		if (end) {
			last[x] = (uint32_t)*i;
			return true;
		}
	}
}

/* Where each line's first and last non-blank bytes lie in src (written
 * over first and last, which hold them in ren). A line that stands for
 * a statement lies over that statement: the module line, a heading and
 * a closing brace the next of their kind in the order read; an
 * instruction line the statement of its name in its computation,
 * wherever it stands there (the writer puts a parameter, a
 * get-tuple-element or a tuple line where its users need it, not where
 * the text had it); one that names a nested statement has no text of
 * its own (its parent's holds it). Another line (of the stack frame
 * tables) lies over the same text (walk_text). false when the lines and
 * the statements do not agree. */
static bool align(struct pl_hlo_kept *k, size_t slen, size_t rlen, uint32_t *first,
                  uint32_t *last, const struct pl_hlo_stmt *st, size_t nst, uint32_t *stmt_line)
{
	/* the INST and NESTED statements by name */
	struct named names;
	if (!named_init(&names, nst))
		return false;
	for (size_t c = 0; c < nst; c++)
		if (st[c].kind == PL_HLO_STMT_INST || st[c].kind == PL_HLO_STMT_NESTED)
			named_put(&names, st[c].name, st[c].name_len, (uint32_t)c);
	size_t i = 0, si = 0, comp = 0, comp_end = 0, jnext = 0;
	if (slen >= 3 && memcmp(k->src, "\xEF\xBB\xBF", 3) == 0)
		i = 3; /* a byte order mark, which the writer does not print */
	bool ok = true;
	for (uint32_t x = 0; x < k->n && ok; x++) {
		const char *name;
		size_t nlen;
		int kind = line_kind(k->ren, first[x], last[x], &name, &nlen);
		size_t j = jnext; /* where the text walk goes on in ren */
		jnext = last[x];
		while (si < nst && (st[si].kind == PL_HLO_STMT_NESTED || stmt_line[si] != NONE))
			si++;
		if (kind == PL_HLO_STMT_MODULE && (si == nst || st[si].kind != kind)) {
			/* the module line the writer makes for a text without one:
			 * a line of no text */
			first[x] = last[x] = NONE;
			continue;
		}
		if (kind < 0) {
			ok = walk_text(k, slen, rlen, &i, j, first, last, x);
			continue;
		}
		uint32_t c = (uint32_t)si;
		if (kind == PL_HLO_STMT_INST && !(si < nst && st[si].kind == PL_HLO_STMT_INST &&
		                                   names_it(&st[si], name, nlen)))
			c = find_named(&names, st, comp, comp_end, name, nlen, stmt_line);
		if (c == NONE || c >= nst ||
		    (st[c].kind != kind && !(kind == PL_HLO_STMT_INST && st[c].kind == PL_HLO_STMT_NESTED)) ||
		    !names_it(&st[c], name, nlen)) {
			ok = false;
			break;
		}
		k->lines[x].kind = st[c].kind;
		stmt_line[c] = x;
		if (st[c].kind == PL_HLO_STMT_NESTED) {
			/* a line the text wrote inside another's: no text of its own */
			first[x] = last[x] = NONE;
			k->lines[x].parent = st[c].parent; /* a statement, for now */
			k->ncovered++;
			continue;
		}
		if (kind == PL_HLO_STMT_HEADING) {
			comp = c;
			for (comp_end = c + 1; comp_end < nst && st[comp_end].kind != PL_HLO_STMT_CLOSE;)
				comp_end++;
		}
		first[x] = st[c].start;
		last[x] = st[c].end;
		if (kind != PL_HLO_STMT_INST)
			i = st[c].end;
	}
	free(names.slot);
	return ok;
}

/* Whether the lines, in the order of src, cover it: every statement
 * but a nested one has a line, and between two lines src has nothing but
 * white space and comments. */
static bool covers(const struct pl_hlo_kept *k, size_t slen, const uint32_t *first,
                   const uint32_t *last, const struct pl_hlo_stmt *st, size_t nst,
                   const uint32_t *stmt_line)
{
	for (size_t c = 0; c < nst; c++)
		if (st[c].kind != PL_HLO_STMT_NESTED && stmt_line[c] == NONE)
			return false;
	size_t i = slen >= 3 && memcmp(k->src, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a byte order mark */
	for (uint32_t x = 0; x < k->n; x++) {
		if (first[x] == NONE)
			continue;
		if (skip_blank(k->src, i, slen) != first[x])
			return false;
		i = last[x];
	}
	return skip_blank(k->src, i, slen) == slen;
}

/* Puts the lines in the order of src (a line of no text right before
 * the line that holds it, or first), their parents made lines; *same
 * false when a parent is not a line with text. false when out of
 * memory. */
static bool sort_lines(struct pl_hlo_kept *k, uint32_t *first, uint32_t *last,
                       const uint32_t *stmt_line, bool *same)
{
	uint64_t *key = malloc((k->n ? k->n : 1) * sizeof *key);
	uint32_t *to = malloc((k->n ? k->n : 1) * sizeof *to);
	struct kept_line *lines = malloc((k->n ? k->n : 1) * sizeof *lines);
	uint32_t *f2 = malloc((k->n ? k->n : 1) * 2 * sizeof *f2);
	bool ok = key && to && lines && f2;
	*same = true;
	for (uint32_t x = 0; ok && x < k->n; x++) {
		uint32_t p = k->lines[x].parent, at = first[x];
		if (p != NONE) {
			p = stmt_line[p];
			*same = *same && p != NONE && first[p] != NONE;
			k->lines[x].parent = p;
			at = *same ? first[p] : 0;
		}
		/* by place, a covered line before its parent, then as written */
		key[x] = ((uint64_t)(at == NONE ? 0 : at) << 33) | ((uint64_t)(p == NONE) << 32) | x;
	}
	if (ok && *same) {
		qsort(key, k->n, sizeof *key, cmp_u64);
		for (uint32_t y = 0; y < k->n; y++)
			to[(uint32_t)key[y]] = y;
		for (uint32_t x = 0; x < k->n; x++) {
			uint32_t y = to[x];
			lines[y] = k->lines[x];
			if (lines[y].parent != NONE)
				lines[y].parent = to[lines[y].parent];
			f2[2 * y] = first[x];
			f2[2 * y + 1] = last[x];
		}
		memcpy(k->lines, lines, k->n * sizeof *lines);
		for (uint32_t y = 0; y < k->n; y++)
			first[y] = f2[2 * y], last[y] = f2[2 * y + 1];
	}
	free(key), free(to), free(lines), free(f2);
	return ok;
}

/* The gaps and pieces from where each line lies in src. The white space
 * between two lines: up to its first newline the end of the first
 * line's piece, after its last newline the start of the second's, the
 * blank lines between its gap. */
static void cut_pieces(struct pl_hlo_kept *k, size_t slen, const uint32_t *first,
                       const uint32_t *last)
{
	uint32_t prev_end = 0; /* where the last piece's text ends */
	uint32_t prev = NONE;  /* the line of that piece */
	for (uint32_t x = 0; x <= k->n; x++) {
		if (x < k->n && first[x] == NONE)
			continue; /* a line of no text: its piece is empty */
		uint32_t to = x < k->n ? first[x] : (uint32_t)slen;
		uint32_t nl1 = NONE, nl2 = NONE;
		for (uint32_t p = prev_end; p < to; p++)
			if (k->src[p] == '\n') {
				if (nl1 == NONE)
					nl1 = p;
				nl2 = p;
			}
		/* the end of the previous piece, the start of this one's gap */
		uint32_t tail = x == k->n ? to : prev == NONE ? 0 : nl1 == NONE ? to : nl1 + 1;
		if (prev != NONE)
			k->lines[prev].piece_len = tail - k->lines[prev].piece;
		if (x == k->n)
			break;
		uint32_t indent = nl2 == NONE ? tail : nl2 + 1;
		if (indent < tail)
			indent = tail;
		k->lines[x].gap = tail;
		k->lines[x].gap_len = indent - tail;
		k->lines[x].piece = indent;
		prev_end = last[x];
		prev = x;
	}
}

/* The fingerprints by their hash, each list of equal ones in order. */
static bool index_lines(struct pl_hlo_kept *k)
{
	k->cap = 16;
	while (k->cap < 2 * (size_t)k->n)
		k->cap *= 2;
	k->slots = malloc(k->cap * sizeof *k->slots);
	uint32_t *tail = malloc(k->cap * sizeof *tail);
	if (!k->slots || !tail) {
		free(tail);
		return false;
	}
	memset(k->slots, 0xff, k->cap * sizeof *k->slots);
	for (uint32_t x = 0; x < k->n; x++) {
		bool found;
		uint32_t h = find_slot(k, k->ren + k->lines[x].fp, k->lines[x].fp_len, &found);
		if (found)
			k->lines[tail[h]].next = x;
		else
			k->slots[h] = x;
		tail[h] = x;
	}
	free(tail);
	return true;
}

int pl_hlo_keep_(pl_module *m, const char *text, size_t len, const struct pl_hlo_stmt *stmts,
                 size_t nstmts)
{
	if (len >= UINT32_MAX / 2)
		return PL_OK; /* offsets are 32-bit: such a text is written from the IR */
	struct pl_strbuf ren = {0};
	pl_diags *quiet = pl_diags_new();
	int rc = quiet ? pl_hlo_render_(m, quiet, &ren) : PL_ENOMEM;
	pl_diags_free(quiet);
	if (rc != PL_OK || ren.failed || ren.len >= UINT32_MAX / 2) {
		pl_sb_free(&ren);
		/* a module the writer cannot write keeps nothing: writing it
		 * fails again, with the writer's message */
		return rc == PL_ENOMEM || ren.failed ? PL_ENOMEM : PL_OK;
	}
	struct pl_hlo_kept *k = calloc(1, sizeof *k);
	uint32_t *first = NULL, *last = NULL, *stmt_line = NULL;
	rc = PL_ENOMEM;
	if (!k)
		goto out;
	k->ren = ren.data;
	ren.data = NULL;
	k->src = malloc(len + 1);
	stmt_line = malloc((nstmts ? nstmts : 1) * sizeof *stmt_line);
	if (!k->src || !stmt_line || !split_lines(k, ren.len, &first, &last))
		goto out;
	memset(stmt_line, 0xff, (nstmts ? nstmts : 1) * sizeof *stmt_line);
	memcpy(k->src, text, len);
	rc = PL_OK;
	bool same = align(k, len, ren.len, first, last, stmts, nstmts, stmt_line);
	if (same && !sort_lines(k, first, last, stmt_line, &same)) {
		rc = PL_ENOMEM;
		goto out;
	}
	if (!same || !covers(k, len, first, last, stmts, nstmts, stmt_line))
		goto out; /* not the same text: nothing kept */
	cut_pieces(k, len, first, last);
	if (!index_lines(k)) {
		rc = PL_ENOMEM;
		goto out;
	}
	pl_hlo_kept_free_(m->hlo_kept);
	m->hlo_kept = k;
	k = NULL;
out:
	pl_hlo_kept_free_(k);
	pl_sb_free(&ren);
	free(first);
	free(last);
	free(stmt_line);
	return rc;
}

/* The kept line whose fingerprint is s[0..len): of equal ones the first
 * not used after the one used last (after; NONE: none yet), else the
 * first not used; NONE when none. cursor: per list (by its first line),
 * 0 to start at its head, EXHAUSTED when all are used, else one more
 * than the first maybe not used. */
enum { EXHAUSTED = UINT32_MAX };
static uint32_t match(const struct pl_hlo_kept *k, const char *s, size_t len, const bool *used,
                      uint32_t *cursor, uint32_t after)
{
	bool found;
	uint32_t h = find_slot(k, s, len, &found);
	if (!found)
		return NONE;
	uint32_t head = k->slots[h];
	if (cursor[head] == EXHAUSTED)
		return NONE;
	uint32_t x = cursor[head] == 0 ? head : cursor[head] - 1;
	while (x != NONE && used[x])
		x = k->lines[x].next;
	cursor[head] = x == NONE ? EXHAUSTED : x + 1;
	if (x == NONE)
		return NONE;
	uint32_t first_free = x;
	while (x != NONE && (used[x] || (after != NONE && x <= after)))
		x = k->lines[x].next;
	return x != NONE ? x : first_free;
}

/* The input's indentation for each of the writer's (by its length, up
 * to MAX_INDENT), as the kept line put last that had it shows: a new
 * line is indented as the kept lines around it. */
enum { MAX_INDENT = 8 };
struct indents {
	const char *src[MAX_INDENT + 1];
	size_t len[MAX_INDENT + 1];
};

static void learn_indent(struct indents *ind, const char *fp, const char *piece)
{
	size_t w = 0, n = 0;
	while (fp[w] == ' ' || fp[w] == '\t')
		w++;
	while (piece[n] == ' ' || piece[n] == '\t')
		n++;
	if (w <= MAX_INDENT) {
		ind->src[w] = piece;
		ind->len[w] = n;
	}
}

static void put_indent(const struct indents *ind, struct pl_strbuf *res, const char *own,
                       size_t len)
{
	if (len <= MAX_INDENT && ind->src[len])
		pl_sb_put(res, ind->src[len], ind->len[len]);
	else
		pl_sb_put(res, own, len);
}

/* A line of out that is not blank: where it starts (a), its text f..b
 * (b: its newline, or the end), and where the blank lines before it
 * start (NO_BLANK: none). */
struct out_line {
	size_t a, f, b, blank;
};
#define NO_BLANK SIZE_MAX

/* The lines of out that are not blank into ol (the number of them);
 * *trail: where the blank lines after the last start (NO_BLANK: none). */
static size_t split_out(const char *out, size_t len, struct out_line *ol, size_t *trail)
{
	size_t n = 0, blank = NO_BLANK;
	for (size_t a = 0; a < len; a++) {
		size_t b = line_end(out, len, a), f = a;
		while (f < b && is_ws(out[f]))
			f++;
		if (f == b && blank == NO_BLANK)
			blank = a;
		else if (f < b)
			ol[n++] = (struct out_line){a, f, b, blank}, blank = NO_BLANK;
		a = b;
	}
	*trail = blank;
	return n;
}

/* The kept line each line of out is, in order (NONE: a new line) into
 * xs, used marking them. Of equal fingerprints, a line takes the first
 * after the heading of its computation matched last: the lines of a
 * computation are not in the order read, but its lines are one
 * computation's. false when out of memory. */
static bool match_all(const struct pl_hlo_kept *k, const char *out, const struct out_line *ol,
                      size_t n, uint32_t *xs, bool *used)
{
	uint32_t *cursor = calloc(k->n ? k->n : 1, sizeof *cursor);
	if (!cursor)
		return false;
	uint32_t after = NONE; /* the heading matched last */
	for (size_t q = 0; q < n; q++) {
		uint32_t x = match(k, out + ol[q].a, ol[q].b - ol[q].a, used, cursor, after);
		if (x != NONE) {
			used[x] = true;
			if (k->lines[x].kind == PL_HLO_STMT_HEADING)
				after = x;
		}
		xs[q] = x;
	}
	free(cursor);
	return true;
}

/* Marks each out line of t named nm[0..nl) but q itself, and not yet
 * new, as new (xs NONE), and adds it to work. */
static void covered_take(const struct named *t, const char *out, const struct out_line *ol,
                         const char *nm, size_t nl, uint32_t q, uint32_t *xs, uint32_t *work,
                         size_t *nw)
{
	for (size_t h = named_first(t, nm, nl); t->slot[h] != NONE; h = named_next(t, h)) {
		uint32_t r = t->slot[h];
		const char *rn;
		size_t rl;
		line_kind(out, ol[r].f, ol[r].b, &rn, &rl);
		if (r != q && xs[r] != NONE && rl == nl && memcmp(rn, nm, nl) == 0) {
			xs[r] = NONE;
			work[(*nw)++] = r;
		}
	}
}

/* Settles the covered lines xs (the kept line of each out line, nx of
 * them) match: a parent one of whose covered lines is new or changed is
 * put as a new line (its text holds the old ones); a covered line is put
 * as nothing (silent) while its parent is put from the kept text and no
 * line put new names it ("%NAME" as an operand), else as a new line
 * itself, whose operands are looked at in turn. Each line put new is
 * read once. false when out of memory. */
static bool settle_covered(const struct pl_hlo_kept *k, const char *out, const struct out_line *ol,
                           uint32_t *xs, size_t nx, const bool *used, bool *silent)
{
	struct named t = {NULL, 0}; /* the covered out lines by the names they define */
	bool *broken = calloc(k->n, sizeof *broken);
	uint32_t *work = malloc(nx * sizeof *work);
	bool ok = named_init(&t, k->ncovered) && broken && work;
	if (!ok)
		goto out;
	for (uint32_t x = 0; x < k->n; x++)
		if (k->lines[x].parent != NONE && !used[x])
			broken[k->lines[x].parent] = true;
	size_t nw = 0;
	for (size_t q = 0; q < nx; q++) {
		uint32_t x = xs[q];
		if (x == NONE) {
			work[nw++] = (uint32_t)q;
			continue;
		}
		uint32_t p = k->lines[x].parent;
		if (broken[x] || (p != NONE && (!used[p] || broken[p]))) {
			xs[q] = NONE;
			work[nw++] = (uint32_t)q;
		} else if (p != NONE) {
			const char *nm;
			size_t nl;
			line_kind(out, ol[q].f, ol[q].b, &nm, &nl);
			if (nm)
				named_put(&t, nm, nl, (uint32_t)q);
		}
	}
	/* a covered line a line put new names is put new too */
	while (nw) {
		uint32_t q = work[--nw];
		const char *e = out + ol[q].b;
		for (const char *p = out + ol[q].f; (p = memchr(p, '%', (size_t)(e - p))) != NULL;) {
			const char *nm = ++p;
			while (p < e && is_name_char(*p))
				p++;
			if (p > nm)
				covered_take(&t, out, ol, nm, (size_t)(p - nm), q, xs, work, &nw);
		}
	}
	for (size_t q = 0; q < nx; q++)
		silent[q] = xs[q] != NONE && k->lines[xs[q]].parent != NONE;
out:
	free(broken), free(work), free(t.slot);
	return ok;
}

/* Whether the writer's line out[f..b) is a parameter, get-tuple-element
 * or tuple line: one the writer puts where its users need it, so that
 * the order of the lines does not say where the text had it. */
static bool movable(const char *out, size_t f, size_t b)
{
	const char *p = memchr(out + f, '=', b - f), *e = out + b;
	if (!p)
		return false;
	for (p++; p < e && *p == ' ';)
		p++;
	if (p < e && *p == '(') { /* a tuple shape */
		for (int depth = 0; p < e; p++)
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0)
				break;
	}
	while (p < e && *p != ' ')
		p++;
	while (p < e && *p == ' ')
		p++;
	const char *o = p;
	while (p < e && *p != '(' && *p != ' ')
		p++;
	enum hlo_phase ph;
	enum hlo_op op = pl_hlo_opcode_of_(o, (size_t)(p - o), &ph);
	return ph == HLO_PHASE_NONE &&
	       (op == HLO_OP_PARAMETER || op == HLO_OP_GET_TUPLE_ELEMENT || op == HLO_OP_TUPLE);
}

/* order_block's scratch, per line of the block (local numbers): the
 * edges from each line to the lines that name it, by their tail (out:
 * first, to) and by their head (in: ifirst, from); the lines it waits
 * for; its anchor, the line it is put after when it is movable (START:
 * first), with the next line of the same anchor; whether it is movable,
 * put, on the stack. */
struct block_order {
	uint32_t *first, *to, *ifirst, *from, *wait, *anchor, *anchored, *next, *stack, *perm;
	uint8_t *flag;
	struct {
		uint32_t from, to;
	} *edge;
	size_t nedge, cap, sp, nperm;
	struct named names; /* the lines by the names they define */
};
enum { F_MOVABLE = 1, F_PUT = 2, F_STACKED = 4 };
#define START UINT32_MAX

static bool add_edge(struct block_order *o, uint32_t from, uint32_t to)
{
	if (o->nedge == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		void *x = realloc(o->edge, cap * sizeof *o->edge);
		if (!x)
			return false;
		o->edge = x;
		o->cap = cap;
	}
	o->edge[o->nedge].from = from;
	o->edge[o->nedge++].to = to;
	return true;
}

/* The local line named nm[0..nl) of the block, or NONE. */
static uint32_t block_find(const struct block_order *o, const char *out, const struct out_line *ol,
                           size_t lo, const char *nm, size_t nl)
{
	for (size_t h = named_first(&o->names, nm, nl); o->names.slot[h] != NONE;
	     h = named_next(&o->names, h)) {
		uint32_t q = o->names.slot[h];
		const char *rn;
		size_t rl;
		line_kind(out, ol[lo + q].f, ol[lo + q].b, &rn, &rl);
		if (rl == nl && memcmp(rn, nm, nl) == 0)
			return q;
	}
	return NONE;
}

/* The edges of the block's lines lo..lo+n, from each line to those that
 * name it ("%NAME" after the '='), and which lines are movable. false
 * when out of memory. */
static bool block_edges(struct block_order *o, const char *out, const struct out_line *ol,
                        size_t lo, size_t n)
{
	if (!named_init(&o->names, n))
		return false;
	for (uint32_t q = 0; q < n; q++) {
		const char *nm;
		size_t nl;
		if (line_kind(out, ol[lo + q].f, ol[lo + q].b, &nm, &nl) == PL_HLO_STMT_INST &&
		    block_find(o, out, ol, lo, nm, nl) == NONE)
			named_put(&o->names, nm, nl, q);
	}
	for (uint32_t q = 0; q < n; q++) {
		const char *e = out + ol[lo + q].b;
		const char *p = memchr(out + ol[lo + q].f, '=', (size_t)(e - out - ol[lo + q].f));
		while (p && (p = memchr(p, '%', (size_t)(e - p))) != NULL) {
			const char *nm = ++p;
			while (p < e && is_name_char(*p))
				p++;
			uint32_t d = block_find(o, out, ol, lo, nm, (size_t)(p - nm));
			if (d != NONE && d != q && !add_edge(o, d, q))
				return false;
		}
		if (movable(out, ol[lo + q].f, ol[lo + q].b))
			o->flag[q] |= F_MOVABLE;
	}
	return true;
}

/* The edges by tail into first/to and by head into ifirst/from (first
 * and ifirst: n+1 offsets, zero), and wait: the number of edges into
 * each line. fill: 2n zeros. */
static void index_edges(struct block_order *o, size_t n, uint32_t *fill)
{
	for (size_t e = 0; e < o->nedge; e++)
		o->first[o->edge[e].from + 1]++, o->ifirst[o->edge[e].to + 1]++;
	for (size_t q = 0; q < n; q++)
		o->first[q + 1] += o->first[q], o->ifirst[q + 1] += o->ifirst[q];
	for (size_t e = 0; e < o->nedge; e++) {
		uint32_t f = o->edge[e].from, t = o->edge[e].to;
		o->to[o->first[f] + fill[f]++] = t;
		o->from[o->ifirst[t] + fill[n + t]++] = f;
	}
	for (size_t q = 0; q < n; q++)
		o->wait[q] = o->ifirst[q + 1] - o->ifirst[q];
}

/* Files movable line q under anchor a (START: first), after the lines
 * there (tail: the last of each anchor, n+1 of them). */
static void anchor_at(struct block_order *o, uint32_t q, uint32_t a, uint32_t n, uint32_t *tail)
{
	uint32_t slot = a == START ? n : a;
	o->anchor[q] = a;
	o->next[q] = NONE;
	if (tail[slot] == NONE)
		o->anchored[slot] = q;
	else
		o->next[tail[slot]] = q;
	tail[slot] = q;
}

/* Each movable line's anchor: a kept one's the kept line of the block
 * read last before it, a new one's the line the writer put before it.
 * by_place, tail: n+1 each, scratch. */
static void set_anchors(struct block_order *o, const uint32_t *xs, size_t lo, uint32_t n,
                        uint64_t *by_place, uint32_t *tail)
{
	size_t nk = 0;
	for (uint32_t q = 0; q < n; q++)
		if (xs[lo + q] != NONE)
			by_place[nk++] = ((uint64_t)xs[lo + q] << 32) | q;
	qsort(by_place, nk, sizeof *by_place, cmp_u64);
	for (uint32_t q = 0; q <= n; q++)
		o->anchored[q] = tail[q] = NONE;
	for (size_t r = 0; r < nk; r++) {
		uint32_t q = (uint32_t)by_place[r];
		if (o->flag[q] & F_MOVABLE)
			anchor_at(o, q, r ? (uint32_t)by_place[r - 1] : START, n, tail);
	}
	for (uint32_t q = 0; q < n; q++)
		if (xs[lo + q] == NONE && (o->flag[q] & F_MOVABLE))
			anchor_at(o, q, q ? q - 1 : START, n, tail);
}

static void push(struct block_order *o, uint32_t q)
{
	o->stack[o->sp++] = q;
}

/* Pushes the lines anchored at slot that may be put now (in order: the
 * first on top). */
static void push_anchored(struct block_order *o, uint32_t slot)
{
	size_t from = o->sp;
	for (uint32_t m = o->anchored[slot]; m != NONE; m = o->next[m])
		if (!(o->flag[m] & F_PUT) && !o->wait[m])
			push(o, m);
	for (size_t a = from, b = o->sp; b > a + 1; a++, b--) {
		uint32_t t = o->stack[a];
		o->stack[a] = o->stack[b - 1];
		o->stack[b - 1] = t;
	}
}

/* Puts the lines on the stack, each after the lines it names; a line
 * put brings the movable lines anchored at it, and those whose anchor
 * is put that it was the last to wait for. */
static void drain(struct block_order *o)
{
	while (o->sp) {
		uint32_t q = o->stack[o->sp - 1];
		if (o->flag[q] & F_PUT) {
			o->sp--;
			continue;
		}
		uint32_t d = NONE;
		for (uint32_t e = o->ifirst[q]; e < o->ifirst[q + 1] && o->wait[q]; e++)
			if (!(o->flag[o->from[e]] & (F_PUT | F_STACKED))) {
				d = o->from[e];
				break;
			}
		if (d != NONE) {
			/* what it names first; a line on the stack already: a
			 * cycle, put as it comes */
			o->flag[q] |= F_STACKED;
			push(o, d);
			continue;
		}
		o->sp--;
		o->flag[q] |= F_PUT;
		o->perm[o->nperm++] = q;
		for (uint32_t e = o->first[q]; e < o->first[q + 1]; e++) {
			uint32_t u = o->to[e];
			if (--o->wait[u] == 0 && (o->flag[u] & F_MOVABLE) && !(o->flag[u] & F_PUT) &&
			    o->anchor[u] != START && (o->flag[o->anchor[u]] & F_PUT))
				push(o, u);
		}
		push_anchored(o, q);
	}
}

/* The order to put the lines lo..lo+n of a computation in, into perm:
 * the lines that are not movable in the writer's order, each after the
 * lines it names, and a movable one (a parameter, get-tuple-element or
 * tuple line) right after its anchor once it may be: the lines of a
 * computation no pass changed come out in the order read, and a pass's
 * new lines where the writer put them. false when out of memory. */
static bool order_block(const char *out, const struct out_line *ol, const uint32_t *xs, size_t lo,
                        size_t n, uint32_t *perm)
{
	struct block_order o = {0};
	size_t m = n + 1;
	o.first = calloc(m, sizeof *o.first);
	o.ifirst = calloc(m, sizeof *o.ifirst);
	o.wait = calloc(m, sizeof *o.wait);
	o.anchor = calloc(m, sizeof *o.anchor);
	o.anchored = malloc(m * sizeof *o.anchored);
	o.next = malloc(m * sizeof *o.next);
	o.flag = calloc(m, 1);
	uint64_t *by_place = malloc(m * sizeof *by_place);
	bool ok = o.first && o.ifirst && o.wait && o.anchor && o.anchored && o.next && o.flag &&
	          by_place && block_edges(&o, out, ol, lo, n);
	if (ok) {
		o.to = malloc((o.nedge + 1) * sizeof *o.to);
		o.from = malloc((o.nedge + 1) * sizeof *o.from);
		o.stack = malloc(2 * (m + o.nedge) * sizeof *o.stack);
		ok = o.to && o.from && o.stack;
	}
	if (ok) {
		memset(o.stack, 0, 2 * m * sizeof *o.stack);
		index_edges(&o, n, o.stack);
		set_anchors(&o, xs, lo, (uint32_t)n, by_place, o.stack);
		o.perm = perm;
		push_anchored(&o, (uint32_t)n);
		drain(&o);
		for (uint32_t q = 0; q < n; q++)
			if (!(o.flag[q] & (F_MOVABLE | F_PUT))) {
				push(&o, q);
				drain(&o);
			}
		for (uint32_t q = 0; q < n; q++)
			if (!(o.flag[q] & F_PUT)) {
				push(&o, q);
				drain(&o);
			}
		for (size_t t = 0; t < n; t++)
			perm[t] += (uint32_t)lo;
	}
	free(o.first), free(o.to), free(o.ifirst), free(o.from), free(o.wait), free(o.anchor),
		free(o.anchored), free(o.next), free(o.stack), free(o.flag), free(o.edge),
		free(o.names.slot), free(by_place);
	return ok;
}

/* The order to put the n lines of out in (perm): each computation's
 * lines by order_block, the other lines where they are. */
static bool order_lines(const char *out, const struct out_line *ol, const uint32_t *xs, size_t n,
                        uint32_t *perm)
{
	for (size_t q = 0; q < n;) {
		const char *nm;
		size_t nl;
		perm[q] = (uint32_t)q;
		if (line_kind(out, ol[q].f, ol[q].b, &nm, &nl) != PL_HLO_STMT_HEADING) {
			q++;
			continue;
		}
		size_t lo = ++q;
		while (q < n && line_kind(out, ol[q].f, ol[q].b, &nm, &nl) != PL_HLO_STMT_CLOSE)
			q++;
		if (!order_block(out, ol, xs, lo, q - lo, perm + lo))
			return false;
	}
	return true;
}

void pl_hlo_kept_apply_(const struct pl_hlo_kept *k, const char *out, size_t len,
                        struct pl_strbuf *res)
{
	size_t nlines = 1, nx, trail;
	for (const char *p = out; (p = memchr(p, '\n', (size_t)(out + len - p))) != NULL; p++)
		nlines++;
	bool *used = calloc(k->n ? k->n : 1, sizeof *used);
	uint32_t *xs = malloc(nlines * sizeof *xs), *perm = malloc(nlines * sizeof *perm);
	bool *silent = calloc(nlines, sizeof *silent);
	struct out_line *ol = malloc(nlines * sizeof *ol);
	if (!used || !xs || !perm || !silent || !ol ||
	    (nx = split_out(out, len, ol, &trail), !match_all(k, out, ol, nx, xs, used)) ||
	    (k->ncovered && !settle_covered(k, out, ol, xs, nx, used, silent)) ||
	    !order_lines(out, ol, xs, nx, perm)) {
		res->failed = true;
		goto out;
	}
	uint32_t last = NONE; /* the kept line put last; NONE: a new line */
	struct indents ind = {0};
	for (size_t t = 0; t < nx; t++) {
		const struct out_line *l = &ol[perm[t]];
		bool quiet = silent[perm[t]];
		uint32_t x = xs[perm[t]];
		bool open = res->len && res->data[res->len - 1] != '\n';
		if (quiet || (x != NONE && k->lines[x].piece_len == 0)) {
			/* a line of no text (a module line the input had not, one
			 * its parent's text holds) */
		} else if (x != NONE) {
			const struct kept_line *kl = &k->lines[x];
			/* a piece that shared its input line with the next */
			if (open && (last == NONE || x != last + 1))
				pl_sb_putc(res, '\n');
			pl_sb_put(res, k->src + kl->gap, kl->gap_len);
			pl_sb_put(res, k->src + kl->piece, kl->piece_len);
			learn_indent(&ind, k->ren + kl->fp, k->src + kl->piece);
		} else {
			if (open)
				pl_sb_putc(res, '\n');
			/* a line in place of the kept line after the last one put
			 * takes its blank lines */
			const struct kept_line *gone =
				last != NONE && last + 1 < k->n && !used[last + 1] ? &k->lines[last + 1] : NULL;
			if (gone && gone->gap_len)
				pl_sb_put(res, k->src + gone->gap, gone->gap_len);
			else if (l->blank != NO_BLANK)
				pl_sb_put(res, out + l->blank, l->a - l->blank);
			put_indent(&ind, res, out + l->a, l->f - l->a);
			pl_sb_put(res, out + l->f, (l->b < len ? l->b + 1 : l->b) - l->f);
		}
		last = x;
	}
	/* the last kept line's piece ends with the input's last bytes */
	if (trail != NO_BLANK && !(last != NONE && last + 1 == k->n))
		pl_sb_put(res, out + trail, len - trail);
out:
	free(used), free(xs), free(perm), free(silent), free(ol);
}
