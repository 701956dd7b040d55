/* SPDX-License-Identifier: MIT */
/* sdk/print.c — the canonical .pir writer.
 *
 * Contract: one instruction per line, two-space indent, attributes in stored
 * order, a single result type without parentheses, a blank line between
 * functions. Output depends only on the module, so print(parse(x)) is a
 * fixed point. Output goes through a buffer to the caller's writer: 1 MiB
 * for a module or a function (fewer, larger writes cost the kernel less),
 * a small one for the short texts of messages.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Text already printed, by the address of what was printed: types are
 * interned and identical attribute dictionaries share one entry array, so
 * a module's repeats are printed once and copied after. Direct-mapped and
 * bounded; a miss just prints. Dictionaries that passes built one by one
 * (equal, but each with its own entries) are found again by their contents
 * in a second table, dicts. */
enum {
	BUF_SIZE = 1 << 20,
	CACHE_SLOTS = 1 << 15,
	DICT_SLOTS = 1 << 13,
	/* for messages */
	SMALL_BUF_SIZE = 4096,
	SMALL_CACHE_SLOTS = 64,
	SMALL_DICT_SLOTS = 16,
	CACHE_MAX_TEXT = 8 << 20,
	CACHE_MAX_ITEM = 1024 /* at most SMALL_BUF_SIZE */
};

struct cache_slot {
	const void *key;
	uint32_t n;    /* entry count, for dictionaries */
	uint32_t hash; /* of the entries' contents, in dicts */
	uint32_t off;  /* the text in cache_text */
	uint32_t len;
};

struct out {
	pl_write_fn write;
	void *userdata;
	int status;
	char *buf, *end; /* end: buf's size past buf */
	size_t len;
	struct cache_slot *cache, *dicts; /* after this struct, in its block */
	uint32_t cache_mask, dict_mask;
	char *cache_text;
	size_t cache_used, cache_cap;
	unsigned long flushes;
};

/* Rare (once per buffer): kept out of line so the hot paths stay lean. */
static __attribute__((noinline)) void out_flush(struct out *o)
{
	o->flushes++;
	if (o->len && o->status == PL_OK && o->write(o->userdata, o->buf, o->len) != 0)
		o->status = PL_EIO;
	o->len = 0;
}

static void out_put(struct out *o, const char *s, size_t n)
{
	size_t size = (size_t)(o->end - o->buf);
	if (n > size - o->len) {
		out_flush(o);
		if (n > size) {
			if (o->status == PL_OK && o->write(o->userdata, s, n) != 0)
				o->status = PL_EIO;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void out_c(struct out *o, char c)
{
	if (o->buf + o->len == o->end)
		out_flush(o);
	o->buf[o->len++] = c;
}

static void out_s(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

static void out_i64(struct out *o, int64_t v)
{
	char buf[24];
	out_put(o, buf, pl_fmt_i64(buf, v));
}

/* Text that reads back as the same double, always with a '.' or an
 * exponent so that it reads back as a FLOAT: 15 significant digits when
 * they suffice (most values: 0.001, 100.0, 1e+20), else 16, else 17, which
 * always do. Deterministic, so print(parse(x)) stays a fixed point. */
static void out_double(struct out *o, double v)
{
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	if (!strpbrk(buf, ".e"))
		strcat(buf, ".0");
	out_s(o, buf);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len = 0;
	return pl_utf8_check_(s, n, &len) == PL_UTF8_OK ? len : 0;
}

static void out_string(struct out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	out_c(o, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		if (c == '"' || c == '\\') {
			out_c(o, '\\');
			out_c(o, (char)c);
		} else if (c == '\n') {
			out_put(o, "\\n", 2);
		} else if (c == '\t') {
			out_put(o, "\\t", 2);
		} else if (c >= 0x20 && c < 0x7f) {
			out_c(o, (char)c);
		} else {
			size_t len = c >= 0x80 ? utf8_seq_len(u + i, n - i) : 0;
			if (len) {
				out_put(o, s + i, len);
				i += len;
				continue;
			}
			char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			out_put(o, esc, 4);
		}
		i++;
	}
	out_c(o, '"');
}

static void out_attr(struct out *o, const pl_attr *a)
{
	switch (a->kind) {
	case PL_ATTR_INT: out_i64(o, a->u.i); break;
	case PL_ATTR_FLOAT: out_double(o, a->u.f); break;
	case PL_ATTR_BOOL: out_s(o, a->u.b ? "true" : "false"); break;
	case PL_ATTR_STRING: out_string(o, a->u.s, a->len); break;
	case PL_ATTR_LIST:
		out_c(o, '[');
		for (uint32_t k = 0; k < a->len; k++) {
			if (k)
				out_put(o, ", ", 2);
			out_attr(o, &a->u.list[k]);
		}
		out_c(o, ']');
		break;
	}
}

/* The high bits of a multiplicative hash: a type and a dictionary's entries
 * that lie side by side in memory must not share a slot, or they evict each
 * other at every use. */
static inline struct cache_slot *cache_slot_of(struct out *o, const void *key, uint32_t n)
{
	uint64_t h = ((uint64_t)(uintptr_t)key + n) * 0x9e3779b97f4a7c15u;
	return &o->cache[(h >> 40) & o->cache_mask];
}

/* Keeps a copy of s[0..n) in cache_text, into *c under (key, n_key); false
 * when it is too big to keep. */
static bool cache_keep(struct out *o, struct cache_slot *c, const void *key, uint32_t n_key,
                       const char *s, size_t n)
{
	if (n > CACHE_MAX_ITEM || o->cache_used + n > CACHE_MAX_TEXT)
		return false;
	if (o->cache_used + n > o->cache_cap) {
		size_t cap = o->cache_cap ? o->cache_cap * 2 : 64 * 1024;
		char *t = realloc(o->cache_text, cap);
		if (!t)
			return false;
		o->cache_text = t;
		o->cache_cap = cap;
	}
	memcpy(o->cache_text + o->cache_used, s, n);
	*c = (struct cache_slot){.key = key, .n = n_key, .off = (uint32_t)o->cache_used,
	                         .len = (uint32_t)n};
	o->cache_used += n;
	return true;
}

/* Prints through fn, and keeps the text in *c under (key, n_key) when it
 * stayed in one piece in buf; false when it was not kept. */
static bool print_keep(struct out *o, void (*fn)(struct out *, const void *), const void *arg,
                       struct cache_slot *c, const void *key, uint32_t n_key)
{
	/* room for an item we keep, so its text stays in one piece in buf */
	if ((size_t)(o->end - o->buf) - o->len < CACHE_MAX_ITEM)
		out_flush(o);
	size_t start = o->len;
	unsigned long flushes = o->flushes;
	fn(o, arg);
	if (o->flushes != flushes)
		return false; /* it did not stay in buf */
	return cache_keep(o, c, key, n_key, o->buf + start, o->len - start);
}

/* --- The hot path writes through a cursor p into buf; o->len catches up
 * before anything else writes (a flush, or a printer of a cache miss). --- */

/* p, or the start of an emptied buf, with room for n (<= SMALL_BUF_SIZE) bytes. */
static inline char *out_room(struct out *o, char *p, size_t n)
{
	if (__builtin_expect((size_t)(o->end - p) >= n, 1))
		return p;
	o->len = (size_t)(p - o->buf);
	out_flush(o);
	return o->buf;
}

/* n bytes that fit at p. Most texts here are short: fixed-size copies that
 * overlap cost a few moves where a call to memcpy costs dozens. */
static inline char *copy_known(char *p, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n > 16 && n <= 32) {
		memcpy(p, s, 16);
		memcpy(p + n - 16, s + n - 16, 16);
	} else if (n > 32 && n <= 64) {
		memcpy(p, s, 32);
		memcpy(p + n - 32, s + n - 32, 32);
	} else if (n >= 4 && n < 8) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t k = 0; k < n; k++)
			p[k] = s[k];
	} else {
		memcpy(p, s, n);
	}
	return p + n;
}

static inline char *put_lit(struct out *o, char *p, const char *s, size_t n)
{
	p = out_room(o, p, n);
	memcpy(p, s, n);
	return p + n;
}

/* A NUL-terminated string. Names are short (a few bytes), so copying up to
 * the NUL in one pass beats strlen and memcpy. */
/* Copies s to p up to its NUL or 8 bytes, whichever comes first, and
 * returns how many bytes of text that was (8: no NUL among them). The NUL
 * may be copied too: callers keep 8 bytes of room, and it lies past the
 * text. */
static inline size_t copy8(char *p, const char *s)
{
	if (!(p[0] = s[0])) return 0;
	if (!(p[1] = s[1])) return 1;
	if (!(p[2] = s[2])) return 2;
	if (!(p[3] = s[3])) return 3;
	if (!(p[4] = s[4])) return 4;
	if (!(p[5] = s[5])) return 5;
	if (!(p[6] = s[6])) return 6;
	if (!(p[7] = s[7])) return 7;
	return 8;
}

static __attribute__((noinline)) char *put_cstr(struct out *o, char *p, const char *s)
{
	for (;;) {
		while (o->end - p >= 8) {
			size_t n = copy8(p, s);
			if (n < 8)
				return p + n;
			p += 8;
			s += 8;
		}
		while (p != o->end) {
			if (!*s)
				return p;
			*p++ = *s++;
		}
		o->len = (size_t)(o->end - o->buf);
		out_flush(o);
		p = o->buf;
	}
}

static inline char *put_text(struct out *o, char *p, const struct cache_slot *c)
{
	p = out_room(o, p, c->len);
	return copy_known(p, o->cache_text + c->off, c->len);
}

static void out_attrs_text(struct out *o, const void *arg);
static void out_type_text(struct out *o, const void *arg);

static __attribute__((noinline)) char *put_type_miss(struct out *o, char *p,
                                                       const pl_type *t, struct cache_slot *c)
{
	o->len = (size_t)(p - o->buf);
	print_keep(o, out_type_text, t, c, t, 0);
	return o->buf + o->len;
}

static inline char *put_type(struct out *o, char *p, const pl_type *t)
{
	struct cache_slot *c = cache_slot_of(o, t, 0);
	if (__builtin_expect(c->key == t && c->n == 0, 1))
		return put_text(o, p, c);
	return put_type_miss(o, p, t, c);
}

/* An interned string (an op name), by its address like a type. */
static __attribute__((noinline)) char *put_interned_miss(struct out *o, char *p,
                                                         const char *s, struct cache_slot *c)
{
	size_t n = strlen(s);
	if (!cache_keep(o, c, s, 0, s, n))
		return put_cstr(o, p, s);
	return put_text(o, p, c);
}

static inline char *put_interned(struct out *o, char *p, const char *s)
{
	struct cache_slot *c = cache_slot_of(o, s, 0);
	if (__builtin_expect(c->key == s && c->n == 0, 1))
		return put_text(o, p, c);
	return put_interned_miss(o, p, s, c);
}

/* What decides an attribute's text, kind and length aside: strings and
 * lists are interned, so equal addresses mean equal text. */
static inline uint64_t attr_bits(const pl_attr *a)
{
	switch (a->kind) {
	case PL_ATTR_INT: return (uint64_t)a->u.i;
	case PL_ATTR_FLOAT: {
		uint64_t bits;
		memcpy(&bits, &a->u.f, sizeof bits);
		return bits;
	}
	case PL_ATTR_BOOL: return a->u.b;
	case PL_ATTR_STRING: return (uintptr_t)a->u.s;
	case PL_ATTR_LIST: return (uintptr_t)a->u.list;
	}
	return 0;
}

static uint32_t dict_hash(const struct pl_attr_entry *v, uint16_t n)
{
	uint64_t h = n;
	for (uint16_t k = 0; k < n; k++) {
		h = (h ^ (uintptr_t)v[k].key) * 0x9e3779b97f4a7c15u;
		h = (h ^ attr_bits(&v[k].val) ^ ((uint64_t)v[k].val.kind << 56)) *
		    0x9e3779b97f4a7c15u;
	}
	return (uint32_t)(h >> 32);
}

static bool dict_same(const struct pl_attr_entry *a, const struct pl_attr_entry *b,
                      uint16_t n)
{
	for (uint16_t k = 0; k < n; k++)
		if (a[k].key != b[k].key || a[k].val.kind != b[k].val.kind ||
		    a[k].val.len != b[k].val.len || attr_bits(&a[k].val) != attr_bits(&b[k].val))
			return false;
	return true;
}

/* Not found by address: by contents, else printed. */
static __attribute__((noinline)) char *put_attrs_miss(struct out *o, char *p,
                                                        const pl_attrs *d, struct cache_slot *c)
{
	uint32_t h = dict_hash(d->v, d->n);
	struct cache_slot *e = &o->dicts[h & o->dict_mask];
	if (e->key && e->n == d->n && e->hash == h && dict_same(e->key, d->v, d->n)) {
		*c = (struct cache_slot){.key = d->v, .n = d->n, .off = e->off, .len = e->len};
		return put_text(o, p, c);
	}
	o->len = (size_t)(p - o->buf);
	if (print_keep(o, out_attrs_text, d, c, d->v, d->n)) {
		*e = *c;
		e->hash = h;
	}
	return o->buf + o->len;
}

static inline char *put_attrs(struct out *o, char *p, const pl_attrs *d)
{
	struct cache_slot *c = cache_slot_of(o, d->v, d->n);
	if (__builtin_expect(c->key == d->v && c->n == d->n, 1))
		return put_text(o, p, c);
	return put_attrs_miss(o, p, d, c);
}

static void out_type(struct out *o, const pl_type *t)
{
	o->len = (size_t)(put_type(o, o->buf + o->len, t) - o->buf);
}

static void out_attrs_text(struct out *o, const void *arg)
{
	const pl_attrs *d = arg;
	out_c(o, '{');
	for (uint16_t k = 0; k < d->n; k++) {
		if (k)
			out_put(o, ", ", 2);
		out_s(o, d->v[k].key);
		out_put(o, " = ", 3);
		out_attr(o, &d->v[k].val);
	}
	out_c(o, '}');
}

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

/* sep (a literal of n <= 4 bytes), then the NUL-terminated s: with one
 * check of the room, and inline, when s is a short name. */
static inline char *put_sep_cstr(struct out *o, char *p, const char *sep, size_t n,
                                 const char *s)
{
	if (__builtin_expect(o->end - p < 16, 0))
		return put_cstr(o, put_lit(o, p, sep, n), s);
	memcpy(p, sep, n);
	p += n;
	size_t k = copy8(p, s);
	return k < 8 ? p + k : put_cstr(o, p + 8, s + 8);
}

/* sep, then "%name" */
static inline char *put_value(struct out *o, char *p, const char *sep, size_t n,
                              const pl_value *v)
{
	return put_sep_cstr(o, p, sep, n, v->name ? v->name : "<unnamed>");
}

static char *put_inst(struct out *o, char *p, const pl_inst *i)
{
	const pl_value *res = pl_inst_res_(i);
	uint32_t nres = i->nres;
	for (uint32_t k = 0; k < nres; k++)
		p = k ? put_value(o, p, ", %", 3, &res[k]) : put_value(o, p, "%", 1, &res[k]);
	if (nres)
		p = put_lit(o, p, " = ", 3);
	p = put_interned(o, p, i->opname);
	const pl_use *ops = pl_inst_ops_(i);
	for (uint32_t k = 0; k < i->nops; k++) {
		const pl_value *v = ops[k].val;
		const char *name = !v ? "<null>" : v->name ? v->name : "<unnamed>";
		p = k ? put_sep_cstr(o, p, ", %", 3, name) : put_sep_cstr(o, p, " %", 2, name);
	}
	if (i->attrs.n)
		p = put_attrs(o, put_lit(o, p, " ", 1), &i->attrs);
	if (nres == 1) {
		p = put_type(o, put_lit(o, p, " : ", 3), res[0].type);
	} else if (nres > 1) {
		p = put_lit(o, p, " : (", 4);
		for (uint32_t k = 0; k < nres; k++) {
			if (k)
				p = put_lit(o, p, ", ", 2);
			p = put_type(o, p, res[k].type);
		}
		p = put_lit(o, p, ")", 1);
	}
	return p;
}

static void out_inst(struct out *o, const pl_inst *i)
{
	o->len = (size_t)(put_inst(o, o->buf + o->len, i) - o->buf);
}

static void out_func(struct out *o, const pl_func *f)
{
	out_put(o, "func @", 6);
	out_s(o, f->name);
	out_c(o, '(');
	for (size_t k = 0; k < f->nargs; k++) {
		char *p = o->buf + o->len;
		p = k ? put_value(o, p, ", %", 3, &f->args[k]->v)
		      : put_value(o, p, "%", 1, &f->args[k]->v);
		p = put_lit(o, p, ": ", 2);
		p = put_type(o, p, f->args[k]->v.type);
		o->len = (size_t)(p - o->buf);
	}
	out_c(o, ')');
	if (f->attrs.n) {
		out_put(o, " attributes ", 12);
		o->len = (size_t)(put_attrs(o, o->buf + o->len, &f->attrs) - o->buf);
	}
	out_put(o, " {\n", 3);
	char *p = o->buf + o->len;
	for (const pl_inst *i = f->first; i; i = i->next) {
		p = put_inst(o, put_lit(o, p, "  ", 2), i);
		p = put_lit(o, p, "\n", 1);
		if (o->status)
			break;
	}
	o->len = (size_t)(p - o->buf);
	if (o->status)
		return;
	out_put(o, "}\n", 2);
}

/* big: for a module or a function, else for a message's short text */
static struct out *out_new(pl_write_fn write, void *userdata, bool big)
{
	size_t nc = big ? CACHE_SLOTS : SMALL_CACHE_SLOTS;
	size_t nd = big ? DICT_SLOTS : SMALL_DICT_SLOTS;
	size_t size = big ? BUF_SIZE : SMALL_BUF_SIZE;
	struct out *o = calloc(1, sizeof *o + (nc + nd) * sizeof(struct cache_slot));
	if (!o)
		return NULL;
	o->buf = malloc(size);
	if (!o->buf) {
		free(o);
		return NULL;
	}
	o->end = o->buf + size;
	o->write = write;
	o->userdata = userdata;
	o->status = PL_OK;
	o->cache = (struct cache_slot *)(void *)(o + 1);
	o->dicts = o->cache + nc;
	o->cache_mask = (uint32_t)nc - 1;
	o->dict_mask = (uint32_t)nd - 1;
	return o;
}

static int out_finish(struct out *o)
{
	out_flush(o);
	int rc = o->status;
	free(o->cache_text);
	free(o->buf);
	free(o);
	return rc;
}

int pl_print_func(pl_func *f, pl_write_fn write, void *userdata)
{
	int rc = pl_assign_names_(f);
	if (rc)
		return rc;
	struct out *o = out_new(write, userdata, true);
	if (!o)
		return PL_ENOMEM;
	out_func(o, f);
	return out_finish(o);
}

int pl_module_name_values(pl_module *m)
{
	for (size_t k = 0; k < m->nfuncs; k++) {
		int rc = pl_assign_names_(m->funcs[k]);
		if (rc)
			return rc;
	}
	return PL_OK;
}

int pl_print_module(pl_module *m, pl_write_fn write, void *userdata)
{
	int rc = pl_module_name_values(m);
	if (rc)
		return rc;
	struct out *o = out_new(write, userdata, true);
	if (!o)
		return PL_ENOMEM;
	for (size_t k = 0; k < m->nfuncs && o->status == PL_OK; k++) {
		if (k)
			out_c(o, '\n');
		out_func(o, m->funcs[k]);
	}
	return out_finish(o);
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
	struct out *o = out_new(write_strbuf, sb, false);
	if (!o) {
		sb->failed = true;
		return;
	}
	fn(o, arg);
	if (out_finish(o))
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
	if (pl_assign_names_(inst->func))
		return NULL;
	struct pl_strbuf sb = {0};
	print_to_strbuf(&sb, inst_thunk, inst);
	if (sb.failed) {
		pl_sb_free(&sb);
		return NULL;
	}
	return sb.data ? sb.data : strdup("");
}
