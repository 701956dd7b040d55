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

#include <stdlib.h>

struct kept_line {
	uint32_t fp, fp_len;     /* the fingerprint, in ren */
	uint32_t gap, gap_len;   /* the white space before the piece, in src */
	uint32_t piece, piece_len;
	uint32_t next;           /* the next line of the same fingerprint; UINT32_MAX: none */
	/* a line inside another's text (a nested instruction, a path's
	 * get-tuple-element): that line; UINT32_MAX: none */
	uint32_t parent;
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
			                                    .next = NONE, .parent = NONE};
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

/* Whether statement s names name[0..nlen) (both nothing: a line of no
 * name). */
static bool names_it(const struct pl_hlo_stmt *s, const char *name, size_t nlen)
{
	return s->name_len == nlen && (!nlen || memcmp(s->name, name, nlen) == 0);
}

/* The nested statement named name[0..nlen) of the computation whose
 * heading is statement comp that no line stands for yet (stmt_line),
 * or NONE. Looked for back from statement at first: a nested line is
 * mostly written right before the line that held it, the one at. */
static uint32_t find_nested(const struct pl_hlo_stmt *st, size_t nst, size_t comp, size_t at,
                            const char *name, size_t nlen, const uint32_t *stmt_line)
{
	for (size_t c = at; c-- > comp && st[c].kind != PL_HLO_STMT_HEADING;)
		if (st[c].kind == PL_HLO_STMT_NESTED && stmt_line[c] == NONE &&
		    names_it(&st[c], name, nlen))
			return (uint32_t)c;
	for (size_t c = at; c < nst && st[c].kind != PL_HLO_STMT_CLOSE; c++)
		if (st[c].kind == PL_HLO_STMT_NESTED && stmt_line[c] == NONE &&
		    names_it(&st[c], name, nlen))
			return (uint32_t)c;
	return NONE;
}

/* Where each line's first and last non-blank bytes lie in src (written
 * over first and last, which hold them in ren): a line that stands for
 * a statement lies over that statement, the next in the order read (of
 * its kind, and its name); another (a line of the stack frame tables)
 * over the same text, found by walking src and ren together, white
 * space skipped, and a comment where only one has it. Between two
 * lines, src has nothing but white space and comments. false when the
 * lines and the statements do not agree. */
static bool align(struct pl_hlo_kept *k, size_t slen, size_t rlen, uint32_t *first,
                  uint32_t *last, const struct pl_hlo_stmt *st, size_t nst, uint32_t *stmt_line)
{
	size_t i = 0, j = 0, si = 0, comp = 0;
	if (slen >= 3 && memcmp(k->src, "\xEF\xBB\xBF", 3) == 0)
		i = 3; /* a byte order mark, which the writer does not print */
	for (uint32_t x = 0; x < k->n; x++) {
		const char *name;
		size_t nlen;
		int kind = line_kind(k->ren, first[x], last[x], &name, &nlen);
		if (kind == PL_HLO_STMT_MODULE && (si == nst || st[si].kind != kind)) {
			/* the module line the writer makes for a text without one:
			 * a line of no text */
			j = last[x];
			first[x] = last[x] = NONE;
			continue;
		}
		while (si < nst && st[si].kind == PL_HLO_STMT_NESTED)
			si++;
		uint32_t c = NONE;
		if (kind == PL_HLO_STMT_INST &&
		    !(si < nst && names_it(&st[si], name, nlen)))
			c = find_nested(st, nst, comp, si, name, nlen, stmt_line);
		if (c != NONE) {
			/* a line the text wrote inside another's: no text of its own */
			j = last[x];
			first[x] = last[x] = NONE;
			stmt_line[c] = x;
			k->lines[x].parent = st[c].parent; /* a statement, for now */
			k->ncovered++;
			continue;
		}
		if (kind >= 0) {
			if (si == nst || st[si].kind != kind || !names_it(&st[si], name, nlen) ||
			    skip_blank(k->src, i, slen) != st[si].start)
				return false;
			j = last[x];
			first[x] = st[si].start;
			last[x] = st[si].end;
			if (kind == PL_HLO_STMT_HEADING)
				comp = si;
			stmt_line[si] = x;
			i = st[si++].end;
			continue;
		}
		bool started = false;
		for (;;) {
			while (j < rlen && is_ws(k->ren[j]))
				j++;
			while (i < slen && is_ws(k->src[i]))
				i++;
			if (j < rlen && i < slen && k->src[i] != k->ren[j]) {
				/* a comment only one of them has */
				size_t si2 = skip_comment(k->src, i, slen), rj = skip_comment(k->ren, j, rlen);
				if (rj >= last[x])
					return false; /* the rest of the line: no text to keep */
				if (si2 > i || rj > j) {
					i = si2, j = rj;
					continue;
				}
			}
			if (j >= rlen || i >= slen || k->src[i] != k->ren[j])
				return false;
			if (!started)
				first[x] = (uint32_t)i;
			started = true;
			bool end = j + 1 == last[x];
			i++, j++;
			if (end) {
				last[x] = (uint32_t)i;
				break;
			}
		}
	}
	while (si < nst && st[si].kind == PL_HLO_STMT_NESTED)
		si++;
	if (si != nst || skip_blank(k->src, i, slen) != slen)
		return false;
	/* a nested line's parent: the line of its statement */
	for (uint32_t x = 0; x < k->n; x++) {
		uint32_t p = k->lines[x].parent;
		if (p != NONE && (stmt_line[p] == NONE || first[stmt_line[p]] == NONE))
			return false;
		if (p != NONE)
			k->lines[x].parent = stmt_line[p];
	}
	return true;
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
	if (!align(k, len, ren.len, first, last, stmts, nstmts, stmt_line))
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

/* Where the line of out that starts at a ends (its newline or len), and
 * where its text starts (f == b: a blank line). */
static size_t line_at(const char *out, size_t len, size_t a, size_t *f)
{
	size_t b = line_end(out, len, a);
	size_t t = a;
	while (t < b && is_ws(out[t]))
		t++;
	*f = t;
	return b;
}

/* The kept line each line of out that is not blank is, in order (NONE:
 * a new line) into xs, used marking them; false when out of memory. */
static bool match_all(const struct pl_hlo_kept *k, const char *out, size_t len, uint32_t *xs,
                      bool *used, size_t *nxs)
{
	uint32_t *cursor = calloc(k->n ? k->n : 1, sizeof *cursor);
	if (!cursor)
		return false;
	uint32_t after = NONE; /* the kept line matched last */
	size_t nx = 0, f;
	for (size_t a = 0; a < len; a++) {
		size_t b = line_at(out, len, a, &f);
		if (f < b) {
			uint32_t x = match(k, out + a, b - a, used, cursor, after);
			if (x != NONE)
				used[x] = true, after = x;
			xs[nx++] = x;
		}
		a = b;
	}
	free(cursor);
	*nxs = nx;
	return true;
}

/* The covered out lines by the names they define: an open-addressed
 * table of out line indices (NONE: empty), cap a power of two. A name
 * may be in it more than once (lines of two computations). */
struct covered_names {
	uint32_t *slot;
	size_t cap;
};

/* Puts out line q, named nm[0..nl), into t. */
static void covered_put(struct covered_names *t, const char *nm, size_t nl, uint32_t q)
{
	size_t h = (size_t)pl_hash_bytes_(nm, nl) & (t->cap - 1);
	while (t->slot[h] != NONE)
		h = (h + 1) & (t->cap - 1);
	t->slot[h] = q;
}

/* Marks each out line of t named nm[0..nl) (the name line_kind finds in
 * out[at[q]..end[q])) but q itself, and not yet new, as new (xs NONE),
 * and adds it to work. */
static void covered_take(const struct covered_names *t, const char *out, const size_t *at,
                         const size_t *end, const char *nm, size_t nl, uint32_t q, uint32_t *xs,
                         uint32_t *work, size_t *nw)
{
	for (size_t h = (size_t)pl_hash_bytes_(nm, nl) & (t->cap - 1); t->slot[h] != NONE;
	     h = (h + 1) & (t->cap - 1)) {
		uint32_t r = t->slot[h];
		const char *rn;
		size_t rl;
		line_kind(out, at[r], end[r], &rn, &rl);
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
static bool settle_covered(const struct pl_hlo_kept *k, const char *out, size_t len,
                           uint32_t *xs, size_t nx, const bool *used, bool *silent)
{
	struct covered_names t = {NULL, 16};
	while (t.cap < 2 * (size_t)k->ncovered)
		t.cap *= 2;
	bool *broken = calloc(k->n, sizeof *broken);
	size_t *at = malloc(nx * sizeof *at), *end = malloc(nx * sizeof *end);
	uint32_t *work = malloc(nx * sizeof *work);
	t.slot = malloc(t.cap * sizeof *t.slot);
	bool ok = broken && at && end && work && t.slot;
	if (!ok)
		goto out;
	memset(t.slot, 0xff, t.cap * sizeof *t.slot);
	for (uint32_t x = 0; x < k->n; x++)
		if (k->lines[x].parent != NONE && !used[x])
			broken[k->lines[x].parent] = true;
	size_t o = 0, f, nw = 0;
	for (size_t a = 0; a < len && o < nx; a++) {
		size_t b = line_at(out, len, a, &f);
		if (f < b)
			at[o] = f, end[o++] = b;
		a = b;
	}
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
			line_kind(out, at[q], end[q], &nm, &nl);
			if (nm)
				covered_put(&t, nm, nl, (uint32_t)q);
		}
	}
	/* a covered line a line put new names is put new too */
	while (nw) {
		uint32_t q = work[--nw];
		const char *e = out + end[q];
		for (const char *p = out + at[q]; (p = memchr(p, '%', (size_t)(e - p))) != NULL;) {
			const char *nm = ++p;
			while (p < e && is_name_char(*p))
				p++;
			if (p > nm)
				covered_take(&t, out, at, end, nm, (size_t)(p - nm), q, xs, work, &nw);
		}
	}
	for (size_t q = 0; q < nx; q++)
		silent[q] = xs[q] != NONE && k->lines[xs[q]].parent != NONE;
out:
	free(broken), free(at), free(end), free(work), free(t.slot);
	return ok;
}

void pl_hlo_kept_apply_(const struct pl_hlo_kept *k, const char *out, size_t len,
                        struct pl_strbuf *res)
{
	size_t nlines = 1;
	for (const char *p = out; (p = memchr(p, '\n', (size_t)(out + len - p))) != NULL; p++)
		nlines++;
	bool *used = calloc(k->n ? k->n : 1, sizeof *used);
	uint32_t *xs = malloc(nlines * sizeof *xs);
	bool *silent = calloc(nlines, sizeof *silent);
	size_t nxs;
	if (!used || !xs || !silent || !match_all(k, out, len, xs, used, &nxs) ||
	    (k->ncovered && !settle_covered(k, out, len, xs, nxs, used, silent))) {
		res->failed = true;
		goto out;
	}
	uint32_t last = NONE; /* the kept line put last; NONE: a new line */
	struct indents ind = {0};
	size_t blank_from = 0; /* the blank lines of out not yet put */
	bool blanks = false;
	size_t nx = 0, f;
	for (size_t a = 0; a < len; a++) {
		size_t b = line_at(out, len, a, &f);
		if (f == b) {
			if (!blanks)
				blank_from = a;
			blanks = true;
			a = b;
			continue;
		}
		bool quiet = silent[nx];
		uint32_t x = xs[nx++];
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
			else if (blanks)
				pl_sb_put(res, out + blank_from, a - blank_from);
			put_indent(&ind, res, out + a, f - a);
			pl_sb_put(res, out + f, (b < len ? b + 1 : b) - f);
		}
		last = x;
		blanks = false;
		a = b;
	}
	/* the last kept line's piece ends with the input's last bytes */
	if (blanks && !(last != NONE && last + 1 == k->n))
		pl_sb_put(res, out + blank_from, len - blank_from);
out:
	free(used);
	free(xs);
	free(silent);
}
