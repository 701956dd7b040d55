/* SPDX-License-Identifier: MIT */
/* plugins/timeline_util.c — what the Timeline's files share: the classes
 * that colour a box and the class of an instruction, the labels of the
 * process groups' lanes, and the text buffer the two writers fill. It
 * calls no other file of the pass: the pass (timeline.c), the whole
 * step's parts (timeline_step.c) and the writers (timeline_svg.c,
 * timeline_trace.c) call it. */
#include "timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tl_class_info tl_classes[TL_NUM_CLASSES] = {
	[TL_CONTRACT] = {"contract", "contract", "#4e79a7"},
	[TL_LOAD_STORE] = {"load_store", "load/store", "#59a14f"},
	[TL_OTHER] = {"compute", "other compute", "#bab0ac"},
	[TL_EXPOSED] = {"exposed", "exposed wait", "#e15759"},
	[TL_ALL_GATHER] = {"all_gather", "all-gather", "#f28e2b"},
	[TL_REDUCE_SCATTER] = {"reduce_scatter", "reduce-scatter", "#b07aa1"},
	[TL_ALL_REDUCE] = {"all_reduce", "all-reduce", "#76b7b2"},
	[TL_ALL_TO_ALL] = {"all_to_all", "all-to-all", "#edc948"},
	[TL_PERMUTE] = {"collective_permute", "permute", "#9c755f"},
	[TL_BROADCAST] = {"collective_broadcast", "broadcast", "#ff9da7"},
	[TL_OTHER_COMM] = {"collective", "other collective", "#79706e"},
	[TL_SPAN] = {"span", "loop / call", "#a0cbe8"},
};

/* The class of an XLA collective (the opcode table's COLL), its -start
 * or its -done (*done set); TL_NONE for any other op. */
static enum tl_class hlo_class(const pl_inst *inst, bool *done)
{
	static const enum tl_class classes[] = {
		[PL_HLO_COLL_NONE] = TL_NONE,
		[PL_HLO_COLL_ALL_GATHER] = TL_ALL_GATHER,
		[PL_HLO_COLL_REDUCE_SCATTER] = TL_REDUCE_SCATTER,
		[PL_HLO_COLL_ALL_REDUCE] = TL_ALL_REDUCE,
		[PL_HLO_COLL_ALL_TO_ALL] = TL_ALL_TO_ALL,
		[PL_HLO_COLL_PERMUTE] = TL_PERMUTE,
		[PL_HLO_COLL_BROADCAST] = TL_BROADCAST,
	};
	int phase = 0;
	enum pl_hlo_coll c = pl_inst_hlo_coll(inst, &phase);
	if ((unsigned)c >= sizeof classes / sizeof *classes || classes[c] == TL_NONE)
		return TL_NONE;
	if (phase == 2) {
		*done = true;
		return TL_NONE;
	}
	return classes[c];
}

static enum tl_class sdk_class(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER:
	case PL_OP_ALL_GATHER_START: return TL_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER:
	case PL_OP_REDUCE_SCATTER_START: return TL_REDUCE_SCATTER;
	case PL_OP_ALL_REDUCE:
	case PL_OP_ALL_REDUCE_START: return TL_ALL_REDUCE;
	default: return TL_NONE;
	}
}

/* The class of the collective an async-start calls: that of the root of
 * its computation (hlo_calls), else TL_NONE. */
static enum tl_class async_class(const pl_inst *inst)
{
	const pl_func *f = pl_inst_callee(inst, "hlo_calls", 0);
	const pl_inst *ret = f ? pl_func_last_inst(f) : NULL;
	const pl_inst *root = ret && pl_inst_num_operands(ret) ? pl_value_def(pl_inst_operand(ret, 0))
	                                                       : NULL;
	if (!root)
		return TL_NONE;
	enum tl_class cls = sdk_class(pl_inst_op(root));
	bool done = false;
	if (cls == TL_NONE)
		cls = hlo_class(root, &done);
	return done ? TL_NONE : cls;
}

/* Whether start is an async-start of a collective (its async-done is a
 * collective's done). */
static bool is_async_collective(const pl_inst *start)
{
	return start && pl_inst_hlo_op(start) == PL_HLO_ASYNC_START &&
	       async_class(start) != TL_NONE;
}

/* The class of inst by what it is, as tl_class_at says. */
static enum tl_class class_of(const pl_inst *inst, bool *done)
{
	enum tl_class cls = sdk_class(pl_inst_op(inst));
	unsigned traits = pl_inst_traits(inst);
	*done = false;
	if (cls != TL_NONE)
		return cls;
	if (traits & PL_TRAIT_COLLECTIVE_DONE) {
		*done = true;
		return TL_NONE;
	}
	if (traits & PL_TRAIT_TERMINATOR)
		return TL_NONE;
	if (pl_inst_is_hlo(inst)) {
		pl_hlo_op op = pl_inst_hlo_op(inst);
		if (op == PL_HLO_ASYNC_START)
			cls = async_class(inst);
		else if (op == PL_HLO_ASYNC_DONE)
			*done = is_async_collective(
			        pl_inst_num_operands(inst) ? pl_value_def(pl_inst_operand(inst, 0)) : NULL);
		else
			cls = hlo_class(inst, done);
		if (cls != TL_NONE || *done)
			return cls;
	}
	if (traits & PL_TRAIT_CONTRACT)
		return TL_CONTRACT;
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE))
		return TL_LOAD_STORE;
	return TL_OTHER;
}

enum tl_class tl_class_at(const pl_schedule *s, size_t i, bool *done)
{
	enum tl_class cls = class_of(pl_schedule_inst(s, i), done);
	if (pl_schedule_lane(s, i) != 0 && cls < TL_FIRST_COMM)
		cls = TL_OTHER_COMM;
	return cls;
}

/* ---- lane labels ---- */

/* How many groups a replica-group list "{{0,1},{2,3}}" (the text from its
 * first "{{") has, and their size when all have the same (else 0). */
static bool group_shape(const char *s, size_t *ngroups, size_t *size)
{
	size_t n = 0, cur = 0, same = 0;
	bool uniform = true;
	int depth = 0;
	for (s++; *s; s++) { /* past the outer brace */
		if (*s == '{') {
			depth++;
			cur = 1;
		} else if (*s == ',' && depth == 1) {
			cur++;
		} else if (*s == '}') {
			if (depth == 0)
				break;
			depth--;
			if (n++ == 0)
				same = cur;
			else if (cur != same)
				uniform = false;
		}
	}
	*ngroups = n;
	*size = uniform ? same : 0;
	return n > 0 && depth == 0;
}

void tl_group_label(struct tl_buf *b, size_t g, const char *name, size_t max)
{
	if (!*name) {
		TL_PUTS(b, "(no group)");
		return;
	}
	if (strlen(name) <= max) {
		tl_buf_put(b, name, strlen(name));
		return;
	}
	/* "@2 global 64×2": the lane's group index, what comes before the
	 * list, the list's shape (its count of groups by their size) */
	struct tl_buf shape = {0};
	const char *list = strstr(name, "{{");
	size_t n, size;
	if (list && group_shape(list, &n, &size)) {
		if (size)
			tl_buf_printf(&shape, " %zu×%zu", n, size);
		else
			tl_buf_printf(&shape, " %zu groups", n);
	}
	size_t at = b->len;
	tl_buf_printf(b, "@%zu", g + 1);
	size_t head = list ? (size_t)(list - name) : strlen(name);
	while (head && (name[head - 1] == ':' || name[head - 1] == '=' || name[head - 1] == ' '))
		head--;
	size_t used = b->len - at + shape.len; /* bytes; × counts as one letter */
	if (head && used + 1 < max) {
		size_t room = max - used - 1;
		size_t cut = head <= room ? head : room;
		while (cut && cut < head && ((unsigned char)name[cut] & 0xC0) == 0x80)
			cut--;
		TL_PUTS(b, " ");
		tl_buf_put(b, name, cut);
	}
	if (shape.len)
		tl_buf_put(b, shape.data, shape.len);
	tl_buf_free(&shape);
}

/* ---- the text buffer ---- */

static bool grow(struct tl_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *d = realloc(b->data, cap);
	if (!d) {
		b->failed = true;
		return false;
	}
	b->data = d;
	b->cap = cap;
	return true;
}

void tl_buf_put(struct tl_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void tl_buf_printf(struct tl_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n < sizeof small) {
		tl_buf_put(b, small, (size_t)n);
		return;
	}
	if (!grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The length of the well-formed UTF-8 sequence at s, else 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
	                   : (c & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 0 || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4))
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((s[k] & 0xC0) != 0x80)
			return 0;
	if (n == 3) {
		unsigned cp = (c & 0x0F) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
		if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
	}
	if (n == 4) {
		unsigned cp = (c & 0x07) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6;
		if (cp < 0x10000 || cp > 0x10FFFF)
			return 0;
	}
	return n;
}

/* Copies the character at *s (valid UTF-8, else "?": names are bytes, the
 * SVG and JSON files are UTF-8) and steps past it. */
static void put_char(struct tl_buf *b, const char **s)
{
	size_t n = utf8_len((const unsigned char *)*s);
	tl_buf_put(b, n ? *s : "?", n ? n : 1);
	*s += n ? n - 1 : 0;
}

void tl_buf_xml(struct tl_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': TL_PUTS(b, "&amp;"); break;
		case '<': TL_PUTS(b, "&lt;"); break;
		case '>': TL_PUTS(b, "&gt;"); break;
		case '"': TL_PUTS(b, "&quot;"); break;
		case '\'': TL_PUTS(b, "&apos;"); break;
		default:
			/* XML 1.0 has no place for other control characters */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				TL_PUTS(b, "?");
			else
				put_char(b, &s);
		}
	}
}

void tl_buf_json(struct tl_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			tl_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			tl_buf_printf(b, "\\u%04x", c);
		else
			put_char(b, &s);
	}
}

void tl_buf_u64(struct tl_buf *b, uint64_t v)
{
	char digits[20];
	size_t n = 0;
	do {
		digits[sizeof digits - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	tl_buf_put(b, digits + sizeof digits - n, n);
}

void tl_buf_us(struct tl_buf *b, uint64_t ns)
{
	unsigned frac = (unsigned)(ns % 1000);
	char tail[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
	                (char)('0' + frac % 10)};
	tl_buf_u64(b, ns / 1000);
	tl_buf_put(b, tail, sizeof tail);
}

void tl_buf_free(struct tl_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

bool tl_has_names(const pl_inst *inst)
{
	for (size_t k = 0; k < pl_inst_num_results(inst); k++)
		if (pl_value_name(pl_inst_result(inst, k)))
			return true;
	return false;
}

void tl_buf_results(struct tl_buf *b, const pl_inst *inst,
                    void (*escape)(struct tl_buf *, const char *))
{
	bool first = true;
	for (size_t k = 0; k < pl_inst_num_results(inst); k++) {
		const char *name = pl_value_name(pl_inst_result(inst, k));
		if (!name)
			continue;
		if (first)
			TL_PUTS(b, "%");
		else
			TL_PUTS(b, ", %");
		escape(b, name);
		first = false;
	}
}

