/* sdk/print.c — the canonical .pir writer.
 *
 * Contract: one instruction per line, two-space indent, attributes in stored
 * order, a single result type without parentheses, a blank line between
 * functions. Output depends only on the module, so print(parse(x)) is a
 * fixed point. Output goes through a 64 KiB buffer to the caller's writer.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Text already printed, by the address of what was printed: types are
 * interned and identical attribute dictionaries share one entry array, so
 * a module's repeats are printed once and copied after. Direct-mapped and
 * bounded; a miss just prints. */
enum { CACHE_SLOTS = 1 << 15, CACHE_MAX_TEXT = 8 << 20, CACHE_MAX_ITEM = 1024 };

struct cache_slot {
	const void *key;
	uint32_t n;   /* entry count, for dictionaries */
	uint32_t off; /* the text in cache_text */
	uint32_t len;
};

struct out {
	pl_write_fn write;
	void *userdata;
	int status;
	size_t len;
	char buf[64 * 1024];
	struct cache_slot cache[CACHE_SLOTS];
	char *cache_text;
	size_t cache_used, cache_cap;
	unsigned long flushes;
};

static void out_flush(struct out *o)
{
	o->flushes++;
	if (o->len && o->status == PL_OK && o->write(o->userdata, o->buf, o->len) != 0)
		o->status = PL_EIO;
	o->len = 0;
}

static void out_put(struct out *o, const char *s, size_t n)
{
	if (n > sizeof o->buf - o->len) {
		out_flush(o);
		if (n > sizeof o->buf) {
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
	if (o->len == sizeof o->buf)
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

static struct cache_slot *cache_lookup(struct out *o, const void *key, uint32_t n)
{
	uintptr_t k = (uintptr_t)key;
	struct cache_slot *c = &o->cache[((k >> 4) ^ (k >> 16) ^ n) & (CACHE_SLOTS - 1)];
	return c->key == key && c->n == n ? c : NULL;
}

/* Prints through fn, and remembers the text under (key, n). */
static void print_cached(struct out *o, const void *key, uint32_t n,
                         void (*fn)(struct out *, const void *), const void *arg)
{
	struct cache_slot *hit = cache_lookup(o, key, n);
	if (hit) {
		out_put(o, o->cache_text + hit->off, hit->len);
		return;
	}
	/* room for an item we keep, so its text stays in one piece in buf */
	if (sizeof o->buf - o->len < CACHE_MAX_ITEM)
		out_flush(o);
	size_t start = o->len;
	unsigned long flushes = o->flushes;
	fn(o, arg);
	size_t len = o->len - start;
	if (o->flushes != flushes || len > CACHE_MAX_ITEM ||
	    o->cache_used + len > CACHE_MAX_TEXT)
		return; /* it did not stay in buf, or it is too big to keep */
	if (o->cache_used + len > o->cache_cap) {
		size_t cap = o->cache_cap ? o->cache_cap * 2 : 64 * 1024;
		char *t = realloc(o->cache_text, cap);
		if (!t)
			return;
		o->cache_text = t;
		o->cache_cap = cap;
	}
	memcpy(o->cache_text + o->cache_used, o->buf + start, len);
	uintptr_t k = (uintptr_t)key;
	struct cache_slot *c = &o->cache[((k >> 4) ^ (k >> 16) ^ n) & (CACHE_SLOTS - 1)];
	c->key = key;
	c->n = n;
	c->off = (uint32_t)o->cache_used;
	c->len = (uint32_t)len;
	o->cache_used += len;
}

static void out_attrs_text(struct out *o, const void *arg);
static void out_type_text(struct out *o, const void *arg);

static void out_attrs(struct out *o, const pl_attrs *d)
{
	print_cached(o, d->v, d->n, out_attrs_text, d);
}

static void out_type(struct out *o, const pl_type *t)
{
	print_cached(o, t, 0, out_type_text, t);
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

static void out_value(struct out *o, const pl_value *v)
{
	out_c(o, '%');
	out_s(o, v->name ? v->name : "<unnamed>");
}

static void out_inst(struct out *o, const pl_inst *i)
{
	const pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nres; k++) {
		if (k)
			out_put(o, ", ", 2);
		out_value(o, &res[k]);
	}
	if (i->nres)
		out_put(o, " = ", 3);
	out_s(o, i->opname);
	const pl_use *ops = pl_inst_ops_(i);
	for (uint32_t k = 0; k < i->nops; k++) {
		out_put(o, k ? ", " : " ", k ? 2 : 1);
		if (ops[k].val)
			out_value(o, ops[k].val);
		else
			out_s(o, "%<null>");
	}
	if (i->attrs.n) {
		out_c(o, ' ');
		out_attrs(o, &i->attrs);
	}
	if (i->nres == 1) {
		out_put(o, " : ", 3);
		out_type(o, res[0].type);
	} else if (i->nres > 1) {
		out_put(o, " : (", 4);
		for (uint32_t k = 0; k < i->nres; k++) {
			if (k)
				out_put(o, ", ", 2);
			out_type(o, res[k].type);
		}
		out_c(o, ')');
	}
}

static void out_func(struct out *o, const pl_func *f)
{
	out_put(o, "func @", 6);
	out_s(o, f->name);
	out_c(o, '(');
	for (size_t k = 0; k < f->nargs; k++) {
		if (k)
			out_put(o, ", ", 2);
		out_value(o, &f->args[k]->v);
		out_put(o, ": ", 2);
		out_type(o, f->args[k]->v.type);
	}
	out_c(o, ')');
	if (f->attrs.n) {
		out_put(o, " attributes ", 12);
		out_attrs(o, &f->attrs);
	}
	out_put(o, " {\n", 3);
	for (const pl_inst *i = f->first; i; i = i->next) {
		out_put(o, "  ", 2);
		out_inst(o, i);
		out_c(o, '\n');
		if (o->status)
			return;
	}
	out_put(o, "}\n", 2);
}

static struct out *out_new(pl_write_fn write, void *userdata)
{
	struct out *o = calloc(1, sizeof *o);
	if (o) {
		o->write = write;
		o->userdata = userdata;
		o->status = PL_OK;
	}
	return o;
}

static int out_finish(struct out *o)
{
	out_flush(o);
	int rc = o->status;
	free(o->cache_text);
	free(o);
	return rc;
}

int pl_print_func(pl_func *f, pl_write_fn write, void *userdata)
{
	int rc = pl_assign_names_(f);
	if (rc)
		return rc;
	struct out *o = out_new(write, userdata);
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
	struct out *o = out_new(write, userdata);
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
	struct out *o = out_new(write_strbuf, sb);
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
