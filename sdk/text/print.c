/* SPDX-License-Identifier: MIT */
/* sdk/text/print.c — the canonical .pir writer, one function per rule of the
 * grammar (passline-pir(5)).
 *
 * Contract: one instruction per line, two-space indent, attributes in stored
 * order, a single result type without parentheses, a blank line between
 * functions. Output depends only on the module, so print(parse(x)) is a
 * fixed point. Text goes through a buffer to the caller's writer: 1 MiB
 * for a module or a function (fewer, larger writes cost the kernel less),
 * a small one for the short texts of messages.
 */
#include "text/print.h"

#include <stdio.h>
#include <stdlib.h>

enum {
	SMALL_BUF_SIZE = 4096,
	FLOAT_SLOTS = 64,
	KEY_SLOTS = 64,
	TEXT_SLOTS = 4096,
	TEXT_MAX = 256 /* at most SMALL_BUF_SIZE */
};

struct out {
	pl_write_fn write;
	void *userdata;
	int status;
	char *buf;
	size_t len, size;
	unsigned long flushes;
	/* the text of doubles printed lately, by their bits: finding the
	 * shortest text that reads back takes several conversions */
	struct float_text {
		uint64_t bits;
		uint8_t len; /* 0: empty slot */
		char text[31];
	} floats[FLOAT_SLOTS];
	/* ", KEY = " of attribute keys printed lately, by their address
	 * (keys are interned): copied in one fixed-size move */
	struct key_text {
		const char *key;
		uint32_t len; /* 0: empty slot */
		char text[32]; /* len <= 30 */
	} keys[KEY_SLOTS];
	/* the text of types and lists printed lately, by their address: both
	 * are interned, immutable while the module lives (passline/ir.h) */
	struct text {
		const void *key;
		uint32_t len; /* 0: empty slot */
		char text[TEXT_MAX];
	} *texts;
};

static __attribute__((noinline)) void out_flush(struct out *o)
{
	o->flushes++;
	if (o->len && o->status == PL_OK && o->write(o->userdata, o->buf, o->len) != 0)
		o->status = PL_EIO;
	o->len = 0;
}

/* memcpy without a call for the short pieces most of the text is made of
 * (names, keys, numbers): two overlapping moves */
static inline void copy_short(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16)
		memcpy(d, s, 8), memcpy(d + n - 8, s + n - 8, 8);
	else if (n >= 4 && n < 8)
		memcpy(d, s, 4), memcpy(d + n - 4, s + n - 4, 4);
	else if (n && n < 4)
		d[0] = s[0], d[n / 2] = s[n / 2], d[n - 1] = s[n - 1];
	else
		memcpy(d, s, n);
}

static inline void out_put(struct out *o, const char *s, size_t n)
{
	if (__builtin_expect(n > o->size - o->len, 0)) {
		out_flush(o);
		if (n > o->size) {
			if (o->status == PL_OK && o->write(o->userdata, s, n) != 0)
				o->status = PL_EIO;
			return;
		}
	}
	copy_short(o->buf + o->len, s, n);
	o->len += n;
}

#define out_lit(o, s) out_put((o), (s), sizeof(s) - 1)

static inline void out_c(struct out *o, char c)
{
	if (__builtin_expect(o->len == o->size, 0))
		out_flush(o);
	o->buf[o->len++] = c;
}

static inline void out_s(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

/* Digits written backwards by pl_fmt_i64_back_, put with one fixed-size
 * move of 24 bytes. */
static void out_i64(struct out *o, int64_t v)
{
	char buf[48], *end = buf + 24, *p = pl_fmt_i64_back_(end, v);
	if (__builtin_expect(o->size - o->len < 24, 0)) {
		out_put(o, p, (size_t)(end - p));
		return;
	}
	memcpy(o->buf + o->len, p, 24);
	o->len += (size_t)(end - p);
}

/* Text that reads back as the same double, always with a '.' or an
 * exponent so that it reads back as a FLOAT: 15 significant digits when
 * they suffice (most values: 0.001, 100.0, 1e+20), else 16, else 17, which
 * always do. Deterministic, so print(parse(x)) stays a fixed point. */
static __attribute__((noinline)) void out_double(struct out *o, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	struct float_text *f = &o->floats[(bits * 0x9e3779b97f4a7c15u) >> 58];
	if (f->len == 0 || f->bits != bits) {
		char buf[40];
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, sizeof buf, "%.*g", prec, v);
			if (prec == 17 || strtod(buf, NULL) == v)
				break;
		}
		if (!strpbrk(buf, ".e"))
			strcat(buf, ".0");
		f->bits = bits;
		f->len = (uint8_t)strlen(buf);
		memcpy(f->text, buf, f->len);
	}
	out_put(o, f->text, f->len);
}

/* STRING, with the escapes the reader knows */
static void out_string(struct out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	out_c(o, '"');
	for (size_t i = 0; i < n;) {
		size_t run = (size_t)(pl_str_plain_end_(s + i, s + n) - s); /* copied at once */
		out_put(o, s + i, run - i);
		if ((i = run) == n)
			break;
		unsigned char c = u[i];
		size_t len = 0; /* of a valid UTF-8 sequence there */
		if (c >= 0x80 && pl_utf8_check_(u + i, n - i, &len) != PL_UTF8_OK)
			len = 0;
		if (c == '"' || c == '\\') {
			char esc[2] = {'\\', (char)c};
			out_put(o, esc, 2);
		} else if (c == '\n') {
			out_lit(o, "\\n");
		} else if (c == '\t') {
			out_lit(o, "\\t");
		} else if (len) {
			out_put(o, s + i, len);
			i += len;
			continue;
		} else {
			char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			out_put(o, esc, 4);
		}
		i++;
	}
	out_c(o, '"');
}

/* Prints fn(o, arg), whose text depends only on the interned key: the
 * text kept from the last time, or printed now and kept when it is short
 * and stayed in one piece in the buffer. */
static void out_kept_new(struct out *o, struct text *t, const void *key,
                         void (*fn)(struct out *, const void *), const void *arg);

static inline void out_kept(struct out *o, const void *key,
                            void (*fn)(struct out *, const void *), const void *arg)
{
	struct text *t = o->texts ? &o->texts[pl_ht_hash_ptr(key) % TEXT_SLOTS] : NULL;
	if (t && t->key == key && t->len)
		out_put(o, t->text, t->len);
	else
		out_kept_new(o, t, key, fn, arg);
}

static __attribute__((noinline)) void out_kept_new(struct out *o, struct text *t, const void *key,
                                                   void (*fn)(struct out *, const void *),
                                                   const void *arg)
{
	if (t && o->size - o->len < TEXT_MAX)
		out_flush(o);
	size_t start = o->len;
	unsigned long flushes = o->flushes;
	fn(o, arg);
	size_t n = o->len - start;
	if (t && o->flushes == flushes && n && n <= TEXT_MAX) {
		t->key = key;
		t->len = (uint32_t)n;
		memcpy(t->text, o->buf + start, n);
	}
}

static inline void out_attr(struct out *o, const pl_attr *a);

static void out_string_text(struct out *o, const void *arg)
{
	const pl_attr *a = arg;
	out_string(o, pl_attr_s_(a), pl_attr_len_(a));
}

static void out_list(struct out *o, const void *arg)
{
	const pl_attr *a = arg;
	out_c(o, '[');
	for (uint32_t k = 0, n = pl_attr_len_(a); k < n; k++) {
		if (k)
			out_lit(o, ", ");
		out_attr(o, &pl_attr_elems_(a)[k]);
	}
	out_c(o, ']');
}

/* attr := INT | FLOAT | STRING | "true" | "false" | "[" [ attr { ", " attr } ] "]" */
static inline __attribute__((always_inline)) void out_attr(struct out *o, const pl_attr *a)
{
	switch (a->kind) {
	case PL_ATTR_INT: out_i64(o, pl_attr_i_(a)); break;
	case PL_ATTR_FLOAT: out_double(o, pl_attr_f_(a)); break;
	case PL_ATTR_BOOL: out_s(o, a->v ? "true" : "false"); break;
	case PL_ATTR_STRING: /* interned too */
		out_kept(o, pl_attr_s_(a), out_string_text, a);
		break;
	case PL_ATTR_LIST:
		if (pl_attr_len_(a))
			out_kept(o, pl_attr_elems_(a), out_list, a);
		else
			out_lit(o, "[]");
		break;
	}
}

/* attrs := "{" KEY " = " attr { ", " KEY " = " attr } "}"; m's keys */
static void out_attrs(struct out *o, const pl_attrs *d, const pl_module *m)
{
	out_c(o, '{');
	const struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t k = 0; k < d->n; k++) {
		const pl_attr *a = &v[k].val;
		const char *key = pl_key_name_(m, a->key);
		struct key_text *kt = &o->keys[pl_ht_hash_ptr(key) % KEY_SLOTS];
		size_t skip = k ? 0 : 2, klen; /* no ", " before the first */
		if (kt->key != key && (klen = strlen(key)) + 5 <= 30) {
			kt->key = key;
			kt->len = (uint32_t)klen + 5;
			memcpy(kt->text, ", ", 2);
			memcpy(kt->text + 2, key, klen);
			memcpy(kt->text + 2 + klen, " = ", 3);
		}
		if (kt->key != key) { /* a long key */
			out_put(o, ", ", 2 - skip);
			out_s(o, key);
			out_lit(o, " = ");
		} else if (__builtin_expect(o->size - o->len >= 30, 1)) {
			memcpy(o->buf + o->len, kt->text + skip, 30); /* len - skip of them */
			o->len += kt->len - skip;
		} else {
			out_put(o, kt->text + skip, kt->len - skip);
		}
		out_attr(o, a);
	}
	out_c(o, '}');
}

/* type := DTYPE "[" [ INT { "," INT } ] "]" */
static void out_type_text(struct out *o, const void *arg)
{
	const pl_type *t = arg;
	out_s(o, pl_dtype_name((pl_dtype)t->dtype));
	out_c(o, '[');
	for (uint32_t k = 0; k < t->rank; k++) {
		if (k)
			out_c(o, ',');
		out_i64(o, t->dims[k]);
	}
	out_c(o, ']');
}

static void out_type(struct out *o, const pl_type *t)
{
	out_kept(o, t, out_type_text, t);
}

/* sep (a literal), then "%name" */
#define out_value(o, sep, v) (out_lit((o), sep), out_name((o), (v)))

static void out_name(struct out *o, const pl_value *v)
{
	out_s(o, !v ? "<null>" : v->name ? v->name : "<unnamed>");
}

/* inst := [ LOCAL { ", " LOCAL } " = " ] OPNAME [ " " LOCAL { ", " LOCAL } ]
 *         [ " " attrs ] [ " : " types ] */
static void out_inst(struct out *o, const pl_inst *i)
{
	const pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nres; k++) {
		if (k)
			out_lit(o, ", ");
		out_value(o, "%", &res[k]);
	}
	if (i->nres)
		out_lit(o, " = ");
	out_s(o, pl_inst_opname_(i));
	const pl_use *ops = pl_inst_ops_(i);
	for (uint32_t k = 0; k < i->nops; k++) {
		if (k)
			out_c(o, ',');
		out_value(o, " %", pl_use_val_(&ops[k]));
	}
	if (i->attrs.n) {
		out_c(o, ' ');
		out_attrs(o, &i->attrs, pl_inst_func_(i)->m);
	}
	if (i->nres)
		out_lit(o, " : ");
	if (i->nres > 1)
		out_c(o, '(');
	for (uint32_t k = 0; k < i->nres; k++) {
		if (k)
			out_lit(o, ", ");
		out_type(o, res[k].type);
	}
	if (i->nres > 1)
		out_c(o, ')');
}

/* func := "func @" NAME "(" [ arg { ", " arg } ] ")" [ " attributes " attrs ]
 *         " {\n" { "  " inst "\n" } "}\n"
 * with a blank line before every function but the first. */
static void out_header(struct out *o, const pl_func *f, size_t k)
{
	if (k)
		out_c(o, '\n');
	out_lit(o, "func @");
	out_s(o, f->name);
	out_c(o, '(');
	for (size_t a = 0; a < f->nargs; a++) {
		if (a)
			out_lit(o, ", ");
		out_value(o, "%", &f->args[a]->v);
		out_lit(o, ": ");
		out_type(o, f->args[a]->v.type);
	}
	out_c(o, ')');
	if (f->attrs.n) {
		out_lit(o, " attributes ");
		out_attrs(o, &f->attrs, f->m);
	}
	out_lit(o, " {\n");
}

void pl_out_part_(struct out *o, const pl_func *const *funcs, size_t nfuncs,
                  struct pl_out_at *at, size_t n)
{
	for (; at->k < nfuncs && n && o->status == PL_OK; at->k++, at->i = NULL) {
		if (!at->i) {
			out_header(o, funcs[at->k], at->k);
			if (!(at->i = funcs[at->k]->first))
				n--; /* an empty function counts as an instruction */
		}
		for (; at->i && n && o->status == PL_OK; at->i = pl_inst_next_(at->i), n--) {
			out_lit(o, "  ");
			out_inst(o, at->i);
			out_c(o, '\n');
		}
		if (at->i)
			return;
		out_lit(o, "}\n");
	}
}

struct out *pl_out_new_(pl_write_fn write, void *userdata, size_t size, bool big)
{
	struct out *o = calloc(1, sizeof *o);
	if (!o)
		return NULL;
	o->size = size;
	o->buf = malloc(o->size);
	o->texts = big ? calloc(TEXT_SLOTS, sizeof *o->texts) : NULL;
	if (!o->buf || (big && !o->texts)) {
		free(o->buf);
		free(o->texts);
		free(o);
		return NULL;
	}
	o->write = write;
	o->userdata = userdata;
	o->status = PL_OK;
	return o;
}

int pl_out_flush_(struct out *o)
{
	out_flush(o);
	return o->status;
}

int pl_out_finish_(struct out *o)
{
	out_flush(o);
	int rc = o->status;
	free(o->texts);
	free(o->buf);
	free(o);
	return rc;
}

int pl_print_func(pl_func *f, pl_write_fn write, void *userdata)
{
	int rc = pl_assign_names_(f);
	if (rc)
		return rc;
	struct out *o = pl_out_new_(write, userdata, PL_OUT_BUF, true);
	if (!o)
		return PL_ENOMEM;
	pl_out_part_(o, (const pl_func *const *)&f, 1, &(struct pl_out_at){0, NULL}, SIZE_MAX);
	return pl_out_finish_(o);
}

int pl_print_module(pl_module *m, pl_write_fn write, void *userdata)
{
	int rc = pl_module_name_values(m);
	if (rc)
		return rc;
	struct out *o = pl_out_new_(write, userdata, PL_OUT_BUF, true);
	if (!o)
		return PL_ENOMEM;
	pl_out_part_(o, (const pl_func *const *)m->funcs, m->nfuncs, &(struct pl_out_at){0, NULL},
	             SIZE_MAX);
	return pl_out_finish_(o);
}

static int write_file(void *userdata, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, userdata) == len ? 0 : -1;
}

int pl_print_module_file(pl_module *m, FILE *fp)
{
	int rc = pl_print_module(m, write_file, fp);
	if (rc == PL_OK && fflush(fp) != 0)
		rc = PL_EIO;
	return rc;
}

static int write_strbuf(void *userdata, const char *bytes, size_t len)
{
	struct pl_strbuf *sb = userdata;
	pl_sb_put(sb, bytes, len);
	return sb->failed ? -1 : 0;
}

/* The small printers below serve messages; they go through the same code
 * as module printing so a message shows exactly what the text form shows. */
static void print_to_strbuf(struct pl_strbuf *sb, void (*fn)(struct out *, const void *),
                            const void *arg)
{
	struct out *o = pl_out_new_(write_strbuf, sb, SMALL_BUF_SIZE, false);
	if (!o) {
		sb->failed = true;
		return;
	}
	fn(o, arg);
	if (pl_out_finish_(o))
		sb->failed = true;
}

static void attr_thunk(struct out *o, const void *a) { out_attr(o, a); }
static void type_thunk(struct out *o, const void *t) { out_type(o, t); }
static void inst_thunk(struct out *o, const void *i) { out_inst(o, i); }

void pl_print_attr_(struct pl_strbuf *sb, const pl_attr *a)
{
	print_to_strbuf(sb, attr_thunk, a);
}

void pl_print_type_(struct pl_strbuf *sb, const pl_type *t)
{
	print_to_strbuf(sb, type_thunk, t);
}

char *pl_print_inst_string(pl_inst *inst)
{
	if (pl_assign_names_(pl_inst_func_(inst)))
		return NULL;
	struct pl_strbuf sb = {0};
	print_to_strbuf(&sb, inst_thunk, inst);
	if (sb.failed) {
		pl_sb_free(&sb);
		return NULL;
	}
	return sb.data ? sb.data : strdup("");
}
