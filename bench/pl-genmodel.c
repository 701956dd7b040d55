/* SPDX-License-Identifier: MIT */
/* bench/pl-genmodel.c — writes a transformer-shaped FSDP training step as
 * .pir text, for benchmarks.
 *
 * Standalone on purpose (no libpassline): it must be much faster than the
 * reader it feeds, so it formats text itself through its own buffer. The
 * text is canonical (what pl_print_module writes), so print(parse(x)) == x.
 *
 * Per layer, the shapes an FSDP step has: each parameter is all-gathered
 * just before its first use (so HoistFSDPCollectives has work), each weight
 * gradient is reduce-scattered just after it is produced and first used by
 * the optimizer step at the end of the layer's backward (so the sinking has
 * work too). Output depends only on --seed and the layer count: layer l's
 * shapes come from a PRNG seeded with (seed, l), never from the layer count.
 */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DP 8 /* FSDP data-parallel factor */
#define TP 4 /* tensor-parallel factor */

/* ---- PRNG: splitmix64, so output is the same on every libc ---- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int64_t rnd_below(uint64_t *s, int64_t n)
{
	return (int64_t)(splitmix64(s) % (uint64_t)n);
}

static int64_t pick(uint64_t *s, const int64_t *set, size_t n)
{
	return set[rnd_below(s, (int64_t)n)];
}

/* ---- buffered writer ---- */

struct gen {
	FILE *fp;
	char buf[1 << 20];
	size_t len;
	bool discard;      /* dry run: count instructions, write nothing */
	bool failed;
	uint64_t ninsts;
	const char *vpre;  /* prefix of the current section's values */
	const char *ppre;  /* prefix of the current layer's arguments */
	/* --unique-attrs: every instruction ends its attributes with an
	 * op_name under scope and a source line of its own */
	bool unique_attrs;
	/* --unique-attr-kinds: beside those, a unique int, float, string and
	 * list on every instruction */
	bool unique_kinds;
	/* --unique-opnames: every op but return renamed acme.OP_N, N the
	 * instruction's index, as a third party's generator names its ops */
	bool unique_opnames;
	uint64_t line_base; /* --line-base: the first source line (default 100) */
	const char *scope; /* "layer_17/fwd", as a tracing compiler names it */
};

static void flush(struct gen *g)
{
	if (g->len && !g->failed && fwrite(g->buf, 1, g->len, g->fp) != g->len)
		g->failed = true;
	g->len = 0;
}

static void put(struct gen *g, const char *s, size_t n)
{
	if (n > sizeof g->buf - g->len)
		flush(g);
	memcpy(g->buf + g->len, s, n); /* every piece is far below the buffer size */
	g->len += n;
}

static void put_s(struct gen *g, const char *s) { put(g, s, strlen(s)); }

static void put_i64(struct gen *g, int64_t v)
{
	char tmp[24];
	size_t n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[sizeof tmp - 1 - n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[sizeof tmp - 1 - n++] = '-';
	put(g, tmp + sizeof tmp - n, n);
}

/* The printer's float form: the shortest %g that reads back the same.
 * Only a handful of constants are written, so the text is memoized. */
static void put_double(struct gen *g, double v)
{
	static struct {
		double v;
		char text[40];
	} memo[8];
	static unsigned nmemo;
	for (unsigned k = 0; k < nmemo; k++)
		if (memcmp(&memo[k].v, &v, sizeof v) == 0) {
			put_s(g, memo[k].text);
			return;
		}
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strpbrk(buf, ".e"))
		strcat(buf, ".0");
	if (nmemo < 8) {
		memo[nmemo].v = v;
		memcpy(memo[nmemo++].text, buf, sizeof buf);
	}
	put_s(g, buf);
}

/* A tensor type, printed "dt[d0,d1]". */
struct ty {
	const char *dt;
	int rank;
	int64_t d[4];
};
#define T0(dt) (&(struct ty){(dt), 0, {0}})
#define T1(dt, a) (&(struct ty){(dt), 1, {(a)}})
#define T2(dt, a, b) (&(struct ty){(dt), 2, {(a), (b)}})
#define T3(dt, a, b, c) (&(struct ty){(dt), 3, {(a), (b), (c)}})

static void put_type(struct gen *g, const struct ty *t)
{
	put_s(g, t->dt);
	put(g, "[", 1);
	for (int k = 0; k < t->rank; k++) {
		if (k)
			put(g, ",", 1);
		put_i64(g, t->d[k]);
	}
	put(g, "]", 1);
}

/* A tiny printf. Directives: %v a value of the current section (prefixed
 * with g->vpre), %p an argument of the current layer (g->ppre), %g a global
 * name as is, %s raw text, %d an int64_t, %t a struct ty *, %f a double. */
static void emitv(struct gen *g, const char *fmt, va_list ap)
{
	const char *f = fmt;
	for (;;) {
		const char *pc = strchr(f, '%');
		if (!pc) {
			put_s(g, f);
			return;
		}
		put(g, f, (size_t)(pc - f));
		switch (pc[1]) {
		case 'v': put(g, "%", 1); put_s(g, g->vpre); put_s(g, va_arg(ap, const char *)); break;
		case 'p': put(g, "%", 1); put_s(g, g->ppre); put_s(g, va_arg(ap, const char *)); break;
		case 'g': put(g, "%", 1); put_s(g, va_arg(ap, const char *)); break;
		case 's': put_s(g, va_arg(ap, const char *)); break;
		case 'd': put_i64(g, va_arg(ap, int64_t)); break;
		case 't': put_type(g, va_arg(ap, const struct ty *)); break;
		case 'f': put_double(g, va_arg(ap, double)); break;
		default: abort(); /* a bug in a format string below */
		}
		f = pc + 2;
	}
}

static void emit(struct gen *g, const char *fmt, ...)
{
	if (g->discard)
		return;
	va_list ap;
	va_start(ap, fmt);
	emitv(g, fmt, ap);
	va_end(ap);
}

enum { LINE_ROOM = 4096 }; /* more than any line written here */

/* Appends the metadata a tracing compiler leaves on every instruction to
 * the line at g->buf + start: an op_name (the scope and the op) and a
 * source line that no other instruction has. Canonical text: they end the
 * dictionary, or make one before the result types. */
static void add_metadata(struct gen *g, size_t start)
{
	char *line = g->buf + start, *end = line + g->len - start;
	char *op = line + 2; /* after the indent, or after "%r, %s = " */
	if (*op == '%')
		op = (char *)memmem(line, (size_t)(end - line), " = ", 3) + 3;
	char *op_end = op;
	while (op_end < end && *op_end != ' ')
		op_end++;
	char ins[600], *at;
	const char *open = "", *close = "";
	if ((at = memrchr(line, '}', (size_t)(end - line)))) {
		open = ", ";
	} else {
		at = memmem(line, (size_t)(end - line), " : ", 3);
		at = at ? at : end;
		open = " {";
		close = "}";
	}
	uint64_t u = g->ninsts;
	int k = snprintf(ins, sizeof ins,
	                 "%sop_name = \"jit(train_step)/%s/%.*s\", source_line = %" PRIu64,
	                 open, g->scope, (int)(op_end - op), op, u + g->line_base);
	if (g->unique_kinds)
		k += snprintf(ins + k, sizeof ins - (size_t)k,
		              ", uid = %" PRIu64 ", scale = %" PRIu64 ".5, tag = \"t%" PRIu64
		              "\", dims = [%" PRIu64 ", %" PRIu64 ", \"d%" PRIu64 "\"]",
		              u * 7919 + 13, u, u * 31, u, u + 1, u);
	k += snprintf(ins + k, sizeof ins - (size_t)k, "%s", close);
	size_t n = (size_t)(end - line);
	memmove(at + k, at, (size_t)(line + n - at));
	memcpy(at, ins, (size_t)k);
	g->len += (size_t)k;
}

/* --unique-opnames: the op of the line at g->buf + start (not return)
 * becomes acme.OP_N, its dialect prefix dropped, N the instruction's index:
 * no two instructions share an op name. */
static void rename_op(struct gen *g, size_t start)
{
	char *line = g->buf + start, *end = g->buf + g->len;
	char *op = line + 2;
	if (*op == '%')
		op = (char *)memmem(line, (size_t)(end - line), " = ", 3) + 3;
	char *op_end = op;
	while (op_end < end && *op_end != ' ')
		op_end++;
	if (op_end - op == 6 && memcmp(op, "return", 6) == 0)
		return;
	char *base = memrchr(op, '.', (size_t)(op_end - op));
	base = base ? base + 1 : op;
	char ins[160];
	int k = snprintf(ins, sizeof ins, "acme.%.*s_%" PRIu64, (int)(op_end - base), base,
	                 g->ninsts);
	size_t tail = (size_t)(end - op_end);
	memmove(op + k, op_end, tail);
	memcpy(op, ins, (size_t)k);
	g->len = (size_t)(op + k + tail - g->buf);
}

/* One instruction line: indent, text, newline. */
static void inst(struct gen *g, const char *fmt, ...)
{
	g->ninsts++;
	if (g->discard)
		return;
	if (sizeof g->buf - g->len < LINE_ROOM)
		flush(g); /* the line stays in one piece in buf */
	size_t start = g->len;
	put(g, "  ", 2);
	va_list ap;
	va_start(ap, fmt);
	emitv(g, fmt, ap);
	va_end(ap);
	if (g->unique_opnames)
		rename_op(g, start);
	if (g->unique_attrs)
		add_metadata(g, start);
	put(g, "\n", 1);
}

/* ---- the model ---- */

struct model {
	int64_t B, S, T;  /* batch, sequence, tokens = B*S */
	int64_t H, HD, BH; /* hidden, head dim, batch*heads */
	int64_t V, VS;    /* valid tokens and valid keys (tail masks) */
	char tok_mask[64], key_mask[64];
};

enum { P_NORM1, P_WQ, P_WK, P_WV, P_WO, P_NORM2, P_W1, P_W3, P_W2, P_COUNT };

struct param {
	const char *name;
	const char *dt;
	int rank;
	int64_t d0, d1; /* the gathered (full) shape; the argument is d0 / DP */
	bool fp8;       /* cast to f8e4m3 before gathering */
	bool present;
};

struct layer {
	int index;
	int64_t F, KV;   /* MLP width; k/v projection width (grouped-query attention) */
	bool gated;      /* SwiGLU MLP (w3) rather than GELU */
	bool tp;         /* tensor-parallel all_reduces after the row-parallel contracts */
	bool fp8;        /* fp8 MLP weights: cast before the gather, amax tracking */
	bool save_mask;  /* saves the loaded mask for backward (a load-store copy) */
	struct param p[P_COUNT];
};

static const char ACT[] = "bf16"; /* activations */
static const char ACC[] = "f32";  /* accumulators, gradients */

static void model_init(struct model *m, uint64_t seed)
{
	static const int64_t batches[] = {1, 2, 4, 8};
	static const int64_t seqs[] = {1024, 2048, 4096};
	static const int64_t hiddens[] = {1024, 2048, 4096, 8192};
	static const int64_t head_dims[] = {64, 128};
	uint64_t s = seed;
	m->B = pick(&s, batches, 4);
	m->S = pick(&s, seqs, 3);
	m->H = pick(&s, hiddens, 4);
	m->HD = pick(&s, head_dims, 2);
	m->T = m->B * m->S;
	m->BH = m->B * (m->H / m->HD);
	m->V = m->T - 1 - rnd_below(&s, 127);
	m->VS = m->S - 1 - rnd_below(&s, m->S / 4);
	snprintf(m->tok_mask, sizeof m->tok_mask, "128*i0 + i1 < %" PRId64, m->V);
	snprintf(m->key_mask, sizeof m->key_mask, "128*i0 + i1 < %" PRId64, m->VS);
}

static void set_param(struct param *p, const char *name, const char *dt, int rank,
                      int64_t d0, int64_t d1)
{
	*p = (struct param){name, dt, rank, d0, d1, false, true};
}

/* Layer l's shapes depend on (seed, l) only. */
static void layer_init(struct layer *L, const struct model *m, uint64_t seed, int l)
{
	uint64_t s = seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(l + 1));
	splitmix64(&s);
	int64_t H = m->H;
	const int64_t widths[] = {2 * H, (8 * H / 3 + 255) / 256 * 256, 4 * H};
	const int64_t kvs[] = {H, H / 2, H / 4};
	L->index = l;
	L->F = pick(&s, widths, 3);
	L->KV = pick(&s, kvs, 3);
	L->gated = rnd_below(&s, 2) == 0;
	L->tp = rnd_below(&s, 4) == 0;
	L->fp8 = rnd_below(&s, 5) == 0;
	L->save_mask = rnd_below(&s, 3) == 0;
	const char *pdt = rnd_below(&s, 5) == 0 ? "f32" : "bf16"; /* bf16, some fp32 layers */
	set_param(&L->p[P_NORM1], "norm1", "f32", 1, H, 0);
	set_param(&L->p[P_WQ], "wq", pdt, 2, H, H);
	set_param(&L->p[P_WK], "wk", pdt, 2, L->KV, H);
	set_param(&L->p[P_WV], "wv", pdt, 2, L->KV, H);
	set_param(&L->p[P_WO], "wo", pdt, 2, H, H);
	set_param(&L->p[P_NORM2], "norm2", "f32", 1, H, 0);
	set_param(&L->p[P_W1], "w1", pdt, 2, L->F, H);
	set_param(&L->p[P_W3], "w3", pdt, 2, L->F, H);
	set_param(&L->p[P_W2], "w2", pdt, 2, H, L->F);
	L->p[P_W3].present = L->gated;
	L->p[P_W1].fp8 = L->p[P_W3].fp8 = L->p[P_W2].fp8 = L->fp8;
}

/* Type of the sharded argument (scale = DP) or the gathered value (1). */
static const struct ty *param_type(const struct param *p, const char *dt, int64_t div,
                                   struct ty *out)
{
	*out = (struct ty){dt, p->rank, {p->d0 / div, p->d1}};
	return out;
}

static void layer_args(struct gen *g, const struct model *m, const struct layer *L)
{
	struct ty t;
	for (int k = 0; k < P_COUNT; k++) {
		const struct param *p = &L->p[k];
		if (p->present)
			emit(g, ", %p: %t", p->name, param_type(p, p->dt, DP, &t));
	}
	emit(g, ", %p: %t, %p: %t", "ckpt_x", T2(ACT, m->T, m->H), "ckpt_h1", T2(ACT, m->T, m->H));
	if (L->save_mask)
		emit(g, ", %p: %t", "mask_save", T2("bool", m->S, m->S));
	if (L->fp8)
		emit(g, ", %p: %t", "amax", T0(ACC));
}

/* ---- one layer ---- */

/* "<name>_f" = all_gather of the parameter (after a cast to fp8 if asked). */
static void gather(struct gen *g, const struct param *p)
{
	char src[32], res[32];
	struct ty t;
	snprintf(res, sizeof res, "%s_f", p->name);
	const char *dt = p->fp8 ? "f8e4m3" : p->dt;
	if (p->fp8) {
		snprintf(src, sizeof src, "%s_8", p->name);
		inst(g, "%v = acme.cast %p {dtype = \"f8e4m3\"} : %t", src, p->name,
		     param_type(p, dt, DP, &t));
		inst(g, "%v = all_gather %v {group_id = \"dp\", factor = %d, fsdp = true} : %t", res,
		     src, (int64_t)DP, param_type(p, dt, 1, &t));
	} else {
		inst(g, "%v = all_gather %p {group_id = \"dp\", factor = %d, fsdp = true} : %t", res,
		     p->name, (int64_t)DP, param_type(p, dt, 1, &t));
	}
}

/* "<grad>_rs" = reduce_scatter of the gradient of p (full shape, f32). */
static void scatter(struct gen *g, const char *grad, const struct param *p)
{
	char res[32];
	struct ty t;
	snprintf(res, sizeof res, "%s_rs", grad);
	inst(g, "%v = reduce_scatter %v {group_id = \"dp\", factor = %d, fsdp = true, "
	        "reduce = \"add\"} : %t",
	     res, grad, (int64_t)DP, param_type(p, ACC, DP, &t));
}

static void tp_all_reduce(struct gen *g, const char *res, const char *v, const struct ty *t)
{
	inst(g, "%v = all_reduce %v {group_id = \"tp\", factor = %d, reduce = \"add\"} : %t", res,
	     v, (int64_t)TP, t);
}

/* The loads of the tail-masked checkpoints, domain [T/128, 128, H]. */
static void tok_load(struct gen *g, const struct model *m, const char *res, const char *buf)
{
	inst(g, "%v = affine_load %p {domain = [%d, 128, %d], predicate = [\"%s\"]} : %t", res,
	     buf, m->T / 128, m->H, m->tok_mask, T2(ACT, m->T, m->H));
}

static void tok_store(struct gen *g, const struct model *m, const char *v, bool global,
                      const char *buf)
{
	inst(g, global ? "affine_store %g, %p {domain = [%d, 128, %d], predicate = [\"%s\"]}"
	               : "affine_store %v, %p {domain = [%d, 128, %d], predicate = [\"%s\"]}",
	     v, buf, m->T / 128, m->H, m->tok_mask);
}

/* Recomputes (backward) or computes (forward) q, k, v and the attention
 * probabilities from xn; leaves qr, kr, vc, pr and ctxr. */
static void attention_core(struct gen *g, const struct model *m, const struct layer *L,
                           bool forward)
{
	int64_t T = m->T, H = m->H, KV = L->KV, S = m->S, BH = m->BH, HD = m->HD;
	inst(g, "%v = generic_load %g : %t", "pos", "pos_ids", T1("i32", T));
	gather(g, &L->p[P_WQ]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "q", "xn", "wq_f", T, H,
	     H, T2(ACC, T, H));
	inst(g, "%v = acme.rope %v, %v : %t", "qr", "q", "pos", T2(ACT, T, H));
	gather(g, &L->p[P_WK]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "k", "xn", "wk_f", T, KV,
	     H, T2(ACC, T, KV));
	inst(g, "%v = acme.rope %v, %v : %t", "kr", "k", "pos", T2(ACT, T, KV));
	gather(g, &L->p[P_WV]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "v", "xn", "wv_f", T, KV,
	     H, T2(ACC, T, KV));
	inst(g, "%v = acme.convert %v : %t", "vc", "v", T2(ACT, T, KV));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "s", "qr", "kr", BH,
	     S, S, HD, T3(ACC, BH, S, S));
	if (forward || !L->save_mask) {
		inst(g, "%v = affine_load %g {domain = [%d, 128, %d], predicate = [\"%s\"]} : %t",
		     "mask", "attn_mask", S / 128, S, m->key_mask, T2("bool", S, S));
	} else {
		inst(g, "%v = affine_load %p {domain = [%d, 128, %d], predicate = [\"%s\"]} : %t",
		     "mask", "mask_save", S / 128, S, m->key_mask, T2("bool", S, S));
	}
	if (forward && L->save_mask)
		inst(g, "affine_store %v, %p {domain = [%d, 128, %d], predicate = [\"%s\"]}", "mask",
		     "mask_save", S / 128, S, m->key_mask);
	inst(g, "%v = acme.softmax %v, %v {axis = 2} : %t", "pr", "s", "mask", T3(ACT, BH, S, S));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "ctx", "pr", "vc",
	     BH, S, HD, S, T3(ACC, BH, S, HD));
	inst(g, "%v = acme.reshape %v : %t", "ctxr", "ctx", T2(ACT, T, H));
}

/* The MLP input hn -> au (the activation fed to w2); u and, gated, g and a
 * stay for the backward. */
static void mlp_up(struct gen *g, const struct model *m, const struct layer *L)
{
	int64_t T = m->T, H = m->H, F = L->F;
	gather(g, &L->p[P_W1]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "u", "hn", "w1_f", T, F,
	     H, T2(ACC, T, F));
	if (L->gated) {
		gather(g, &L->p[P_W3]);
		inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "gt", "hn", "w3_f",
		     T, F, H, T2(ACC, T, F));
		inst(g, "%v = acme.silu %v : %t", "a", "gt", T2(ACT, T, F));
		inst(g, "%v = acme.mul %v, %v : %t", "au", "a", "u", T2(ACT, T, F));
	} else {
		inst(g, "%v = acme.gelu %v : %t", "au", "u", T2(ACT, T, F));
	}
}

static void layer_forward(struct gen *g, const struct model *m, const struct layer *L,
                          const char *x)
{
	int64_t T = m->T, H = m->H, F = L->F;
	gather(g, &L->p[P_NORM1]);
	inst(g, "%v = rms_norm %g, %v {domain = [%d, %d]} : %t", "xn", x, "norm1_f", T, H,
	     T2(ACT, T, H));
	tok_store(g, m, x, true, "ckpt_x");
	attention_core(g, m, L, true);
	gather(g, &L->p[P_WO]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "o", "ctxr", "wo_f", T, H,
	     H, T2(ACC, T, H));
	if (L->tp)
		tp_all_reduce(g, "o_ar", "o", T2(ACC, T, H));
	inst(g, "%v = acme.add %g, %v : %t", "h1", x, L->tp ? "o_ar" : "o", T2(ACT, T, H));
	tok_store(g, m, "h1", false, "ckpt_h1");
	gather(g, &L->p[P_NORM2]);
	inst(g, "%v = rms_norm %v, %v {domain = [%d, %d]} : %t", "hn", "h1", "norm2_f", T, H,
	     T2(ACT, T, H));
	if (L->fp8) {
		inst(g, "%v = reduce %v {domain = [%d, %d], reduce = \"max\"} : %t", "amax_v", "hn", T,
		     H, T0(ACC));
		inst(g, "generic_store %v, %p", "amax_v", "amax");
	}
	mlp_up(g, m, L);
	gather(g, &L->p[P_W2]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "d", "au", "w2_f", T, H,
	     F, T2(ACC, T, H));
	if (L->tp)
		tp_all_reduce(g, "d_ar", "d", T2(ACC, T, H));
	inst(g, "%v = acme.add %v, %v : %t", "h", "h1", L->tp ? "d_ar" : "d", T2(ACT, T, H));
}

/* Weight gradient "<name>" = contract(dout, in) over the tokens, then its
 * reduce_scatter right away. */
static void weight_grad(struct gen *g, const struct model *m, const char *name,
                        const char *dout, const char *in, const struct param *p)
{
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", name, dout, in, p->d0,
	     p->d1, m->T, T2(ACC, p->d0, p->d1));
	scatter(g, name, p);
}

static void layer_backward(struct gen *g, const struct model *m, const struct layer *L,
                           const char *dy)
{
	int64_t T = m->T, H = m->H, F = L->F, KV = L->KV, S = m->S, BH = m->BH, HD = m->HD;
	const struct param *P = L->p;
	tok_load(g, m, "x", "ckpt_x");
	tok_load(g, m, "h1", "ckpt_h1");

	/* MLP backward, recomputing its forward from the checkpoint */
	gather(g, &P[P_NORM2]);
	inst(g, "%v = rms_norm %v, %v {domain = [%d, %d]} : %t", "hn", "h1", "norm2_f", T, H,
	     T2(ACT, T, H));
	mlp_up(g, m, L);
	inst(g, "%v = acme.convert %g : %t", "dyc", dy, T2(ACT, T, H));
	weight_grad(g, m, "dw2", "dyc", "au", &P[P_W2]);
	gather(g, &P[P_W2]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dau", "dyc", "w2_f", T,
	     F, H, T2(ACC, T, F));
	if (L->gated) {
		inst(g, "%v = acme.mul %v, %v : %t", "du", "dau", "a", T2(ACC, T, F));
		inst(g, "%v = acme.mul %v, %v : %t", "da", "dau", "u", T2(ACC, T, F));
		inst(g, "%v = acme.silu_grad %v, %v : %t", "dg", "da", "gt", T2(ACC, T, F));
		weight_grad(g, m, "dw3", "dg", "hn", &P[P_W3]);
	} else {
		inst(g, "%v = acme.gelu_grad %v, %v : %t", "du", "dau", "u", T2(ACC, T, F));
	}
	weight_grad(g, m, "dw1", "du", "hn", &P[P_W1]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dhn", "du", "w1_f", T, H,
	     F, T2(ACC, T, H));
	const char *dhn = "dhn";
	if (L->gated) {
		inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dhn3", "dg",
		     "w3_f", T, H, F, T2(ACC, T, H));
		inst(g, "%v = acme.add %v, %v : %t", "dhn_s", "dhn", "dhn3", T2(ACC, T, H));
		dhn = "dhn_s";
	}
	if (L->tp) {
		tp_all_reduce(g, "dhn_ar", dhn, T2(ACC, T, H));
		dhn = "dhn_ar";
	}
	inst(g, "%v, %v = acme.rms_norm_grad %v, %v, %v : (%t, %t)", "dh1n", "dnorm2", dhn, "h1",
	     "norm2_f", T2(ACC, T, H), T1(ACC, H));
	scatter(g, "dnorm2", &P[P_NORM2]);
	inst(g, "%v = acme.add %g, %v : %t", "dh1", dy, "dh1n", T2(ACC, T, H));

	/* attention backward, recomputing q, k, v and the probabilities */
	gather(g, &P[P_NORM1]);
	inst(g, "%v = rms_norm %v, %v {domain = [%d, %d]} : %t", "xn", "x", "norm1_f", T, H,
	     T2(ACT, T, H));
	attention_core(g, m, L, false);
	inst(g, "%v = acme.convert %v : %t", "dh1c", "dh1", T2(ACT, T, H));
	weight_grad(g, m, "dwo", "dh1c", "ctxr", &P[P_WO]);
	gather(g, &P[P_WO]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dctx", "dh1c", "wo_f", T,
	     H, H, T2(ACC, T, H));
	inst(g, "%v = acme.reshape %v : %t", "dctxr", "dctx", T3(ACT, BH, S, HD));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "dpr", "dctxr", "vc",
	     BH, S, S, HD, T3(ACC, BH, S, S));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "dv", "pr", "dctxr",
	     BH, S, HD, S, T3(ACC, BH, S, HD));
	inst(g, "%v = acme.softmax_grad %v, %v : %t", "ds", "dpr", "pr", T3(ACC, BH, S, S));
	inst(g, "%v = acme.convert %v : %t", "dsc", "ds", T3(ACT, BH, S, S));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "dq", "dsc", "kr", BH,
	     S, HD, S, T3(ACC, BH, S, HD));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d, %d]} : %t", "dk", "dsc", "qr", BH,
	     S, HD, S, T3(ACC, BH, S, HD));
	inst(g, "%v = acme.rope_grad %v, %v : %t", "dqr", "dq", "pos", T2(ACT, T, H));
	inst(g, "%v = acme.rope_grad %v, %v : %t", "dkr", "dk", "pos", T2(ACT, T, KV));
	inst(g, "%v = acme.head_sum %v : %t", "dvr", "dv", T2(ACT, T, KV));
	weight_grad(g, m, "dwq", "dqr", "xn", &P[P_WQ]);
	weight_grad(g, m, "dwk", "dkr", "xn", &P[P_WK]);
	weight_grad(g, m, "dwv", "dvr", "xn", &P[P_WV]);
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dxq", "dqr", "wq_f", T,
	     H, H, T2(ACC, T, H));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dxk", "dkr", "wk_f", T,
	     H, KV, T2(ACC, T, H));
	inst(g, "%v = tensor_contract %v, %v {domain = [%d, %d, %d]} : %t", "dxv", "dvr", "wv_f", T,
	     H, KV, T2(ACC, T, H));
	inst(g, "%v = acme.add %v, %v : %t", "dxn1", "dxq", "dxk", T2(ACC, T, H));
	inst(g, "%v = acme.add %v, %v : %t", "dxn", "dxn1", "dxv", T2(ACC, T, H));
	const char *dxn = "dxn";
	if (L->tp) {
		tp_all_reduce(g, "dxn_ar", dxn, T2(ACC, T, H));
		dxn = "dxn_ar";
	}
	inst(g, "%v, %v = acme.rms_norm_grad %v, %v, %v : (%t, %t)", "dx1", "dnorm1", dxn, "x",
	     "norm1_f", T2(ACC, T, H), T1(ACC, H));
	scatter(g, "dnorm1", &P[P_NORM1]);
	inst(g, "%v = acme.add %v, %v : %t", "dx", "dh1", "dx1", T2(ACC, T, H));

	/* the optimizer step on the local shards: the first use of every
	 * reduce_scatter result */
	static const char *const grads[P_COUNT] = {"dnorm1", "dwq", "dwk", "dwv", "dwo",
	                                           "dnorm2", "dw1", "dw3", "dw2"};
	for (int k = 0; k < P_COUNT; k++) {
		const struct param *p = &P[k];
		if (!p->present)
			continue;
		char grad[32], upd[32];
		struct ty t;
		snprintf(grad, sizeof grad, "%s_rs", grads[k]);
		snprintf(upd, sizeof upd, "%s_new", p->name);
		inst(g, "%v = acme.adamw %p, %v {lr = %f, beta1 = %f, beta2 = %f, eps = %f, "
		        "weight_decay = %f} : %t",
		     upd, p->name, grad, 3e-4, 0.9, 0.95, 1e-8, 0.1, param_type(p, p->dt, DP, &t));
		if (p->rank == 1)
			inst(g, "affine_store %v, %p {domain = [%d]}", upd, p->name, p->d0 / DP);
		else
			inst(g, "affine_store %v, %p {domain = [%d, %d]}", upd, p->name, p->d0 / DP,
			     p->d1);
	}
}

/* ---- the module ---- */

struct opts {
	int64_t layers;
	uint64_t seed;
	bool single;
	bool long_names; /* values named as a framework's module path names them */
	uint64_t huge_sig; /* --huge-signature: extra arguments of the first function */
};

/* --huge-signature N: N more arguments in the first function's signature,
 * as a generator that passes every weight shard separately writes them */
static void huge_signature(struct gen *g, const struct opts *o)
{
	char name[32];
	for (uint64_t k = 0; k < o->huge_sig; k++) {
		snprintf(name, sizeof name, "sig_arg%" PRIu64, k);
		emit(g, ", %g: f32[%d]", name, (int64_t)(k % 97 + 1));
	}
}

/* The prefix of layer l's values (section "fwd", "bwd") or of its
 * parameters ("params"), and the scope of its op names. */
static const char *prefix(char *buf, size_t n, const struct opts *o, int64_t l,
                          const char *section)
{
	if (o->long_names)
		snprintf(buf, n, "model.transformer.layers.%d.%s.", (int)l, section);
	else if (!o->single)
		snprintf(buf, n, "%s", ""); /* a function per layer: short names */
	else if (strcmp(section, "params") == 0 || strcmp(section, "fwd") == 0)
		snprintf(buf, n, "l%d_", (int)l);
	else
		snprintf(buf, n, "l%db_", (int)l);
	return buf;
}

static void loss(struct gen *g, const struct model *m, const char *h)
{
	inst(g, "%v = acme.cross_entropy %g, %g : %t", "loss", h, "labels", T0(ACC));
	inst(g, "generic_store %v, %g", "loss", "loss_buf");
	inst(g, "%v = acme.cross_entropy_grad %g, %g : %t", "dy", h, "labels", T2(ACC, m->T, m->H));
}

/* In the single function, the value layer l hands to the next ("x" before
 * the first layer). */
static const char *layer_output(char *buf, size_t n, const struct opts *o, int64_t l)
{
	if (l < 0)
		return "x";
	char pre[64];
	snprintf(buf, n, "%sh", prefix(pre, sizeof pre, o, l, "fwd"));
	return buf;
}

/* Sets the value and parameter prefixes and the op-name scope of layer l's
 * section ("fwd" or "bwd"), in the buffers of *b. */
struct names {
	char vpre[64], ppre[64], scope[64];
};

static void enter(struct gen *g, struct names *b, const struct opts *o, int64_t l,
                  const char *section)
{
	g->vpre = prefix(b->vpre, sizeof b->vpre, o, l, section);
	g->ppre = prefix(b->ppre, sizeof b->ppre, o, l, "params");
	snprintf(b->scope, sizeof b->scope, "layer_%d/%s", (int)l, section);
	g->scope = b->scope;
}

/* The whole step in one function: all forwards, the loss, all backwards
 * in reverse, then the optimizer updates that end each layer's backward. */
static void module_single(struct gen *g, const struct model *m, const struct opts *o)
{
	char in[128], dy[128], pre[64];
	struct names b;
	struct layer L;
	emit(g, "func @train_step(%g: %t, %g: %t, %g: %t, %g: %t, %g: %t", "x", T2(ACT, m->T, m->H),
	     "pos_ids", T1("i32", m->T), "attn_mask", T2("bool", m->S, m->S), "labels",
	     T1("i32", m->T), "loss_buf", T0(ACC));
	for (int64_t l = 0; l < o->layers; l++) {
		layer_init(&L, m, o->seed, (int)l);
		enter(g, &b, o, l, "fwd");
		layer_args(g, m, &L);
	}
	huge_signature(g, o);
	emit(g, ") attributes {num_layers = %d} {\n", o->layers);
	for (int64_t l = 0; l < o->layers; l++) {
		layer_init(&L, m, o->seed, (int)l);
		enter(g, &b, o, l, "fwd");
		layer_forward(g, m, &L, layer_output(in, sizeof in, o, l - 1));
	}
	g->vpre = "";
	g->scope = "loss";
	loss(g, m, layer_output(in, sizeof in, o, o->layers - 1));
	for (int64_t l = o->layers - 1; l >= 0; l--) {
		layer_init(&L, m, o->seed, (int)l);
		enter(g, &b, o, l, "bwd");
		if (l + 1 < o->layers)
			snprintf(dy, sizeof dy, "%sdx", prefix(pre, sizeof pre, o, l + 1, "bwd"));
		else
			strcpy(dy, "dy");
		layer_backward(g, m, &L, dy);
	}
	g->vpre = "";
	g->scope = "loss";
	inst(g, "return %v", "loss");
	emit(g, "}\n");
}

static void layer_func(struct gen *g, const struct model *m, const struct layer *L,
                       const struct opts *o, bool fwd)
{
	struct names b;
	g->vpre = g->ppre = "";
	if (fwd)
		emit(g, "\nfunc @layer%d_fwd(%g: %t", (int64_t)L->index, "x", T2(ACT, m->T, m->H));
	else
		emit(g, "\nfunc @layer%d_bwd(%g: %t", (int64_t)L->index, "dy", T2(ACC, m->T, m->H));
	emit(g, ", %g: %t, %g: %t", "pos_ids", T1("i32", m->T), "attn_mask", T2("bool", m->S, m->S));
	enter(g, &b, o, L->index, fwd ? "fwd" : "bwd");
	layer_args(g, m, L);
	emit(g, ") attributes {layer = %d, phase = \"%s\"} {\n", (int64_t)L->index,
	     fwd ? "forward" : "backward");
	if (fwd) {
		layer_forward(g, m, L, "x");
		inst(g, "return %v", "h");
	} else {
		layer_backward(g, m, L, "dy");
		inst(g, "return %v", "dx");
	}
	emit(g, "}\n");
}

/* One function per layer and direction, in step order, around @loss. */
static void module_per_layer(struct gen *g, const struct model *m, const struct opts *o)
{
	struct layer L;
	g->vpre = g->ppre = "";
	g->scope = "loss";
	emit(g, "func @loss(%g: %t, %g: %t, %g: %t", "h", T2(ACT, m->T, m->H), "labels",
	     T1("i32", m->T), "loss_buf", T0(ACC));
	huge_signature(g, o);
	emit(g, ") {\n");
	loss(g, m, "h");
	inst(g, "return %v, %v", "loss", "dy");
	emit(g, "}\n");
	for (int64_t l = 0; l < o->layers; l++) {
		layer_init(&L, m, o->seed, (int)l);
		layer_func(g, m, &L, o, true);
	}
	for (int64_t l = o->layers - 1; l >= 0; l--) {
		layer_init(&L, m, o->seed, (int)l);
		layer_func(g, m, &L, o, false);
	}
}

static void module(struct gen *g, const struct model *m, const struct opts *o)
{
	if (o->single)
		module_single(g, m, o);
	else
		module_per_layer(g, m, o);
}

/* The layer count whose module is closest to target instructions. The
 * count is additive: a fixed part plus each layer's own, and layer l's
 * count does not depend on the layer count; so dry-run layer by layer. */
static int64_t layers_for_target(struct gen *g, const struct model *m, struct opts o,
                                 uint64_t target)
{
	g->discard = true;
	o.layers = 0;
	g->ninsts = 0;
	module(g, m, &o);
	uint64_t total = g->ninsts, prev = total;
	int64_t l = 0;
	while (total < target) {
		struct layer L;
		layer_init(&L, m, o.seed, (int)l);
		g->vpre = g->ppre = "";
		g->ninsts = 0;
		layer_forward(g, m, &L, "x");
		layer_backward(g, m, &L, "dy");
		if (!o.single)
			g->ninsts += 2; /* the returns of both functions */
		prev = total;
		total += g->ninsts;
		l++;
	}
	g->discard = false;
	g->ninsts = 0;
	if (l > 1 && target - prev < total - target)
		l--;
	return l > 0 ? l : 1;
}

/* ---- command line ---- */

static void usage(FILE *fp)
{
	fputs("Usage: pl-genmodel [OPTIONS]\n"
	      "Writes a transformer-shaped FSDP training step as .pir text.\n"
	      "\n"
	      "  --layers L          number of layers (default 4)\n"
	      "  --seed S            shapes and variants come from S (default 1)\n"
	      "  --target-insts N    pick the layer count for about N instructions\n"
	      "  --single-function   one @train_step function instead of one function\n"
	      "                      per layer and direction\n"
	      "  --unique-attrs      every instruction gets an op_name and a source line\n"
	      "                      of its own, as a tracing compiler's dump has\n"
	      "  --long-names        values named by module path\n"
	      "                      (model.transformer.layers.17.fwd.q)\n"
	      "  --unique-attr-kinds with --unique-attrs, also a unique int, float,\n"
	      "                      string and list on every instruction\n"
	      "  --unique-opnames    every op but return named acme.OP_N: no two alike\n"
	      "  --line-base N       source lines start at N (default 100)\n"
	      "  --huge-signature N  N more arguments in the first function\n"
	      "  -o FILE             write to FILE (default: standard output)\n"
	      "  -v, --verbose       report the layer and instruction counts on stderr\n"
	      "  -h, --help          show this help\n",
	      fp);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* "--name VALUE" or "--name=VALUE"; advances *i past what it used. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "pl-genmodel: %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

static _Noreturn void bad_value(const char *name, const char *v)
{
	fprintf(stderr, "pl-genmodel: invalid value '%s' for %s\n", v, name);
	exit(2);
}

int main(int argc, char **argv)
{
	static struct gen g; /* 1 MiB buffer: not on the stack */
	g.line_base = 100;
	struct opts o = {4, 1, false, false, 0};
	uint64_t target = 0, v;
	bool have_layers = false, verbose = false, unique = false;
	const char *out = NULL, *val;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--single-function") == 0) {
			o.single = true;
		} else if (strcmp(a, "--long-names") == 0) {
			o.long_names = true;
		} else if (strcmp(a, "--unique-attrs") == 0) {
			unique = true;
		} else if (strcmp(a, "--unique-attr-kinds") == 0) {
			g.unique_kinds = true;
		} else if (strcmp(a, "--unique-opnames") == 0) {
			g.unique_opnames = true;
		} else if ((val = opt_value(argc, argv, &i, "--line-base"))) {
			if (!parse_u64(val, &g.line_base) || g.line_base > 1000000000000)
				bad_value("--line-base", val);
		} else if ((val = opt_value(argc, argv, &i, "--huge-signature"))) {
			if (!parse_u64(val, &o.huge_sig) || o.huge_sig > 10000000)
				bad_value("--huge-signature", val);
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			verbose = true;
		} else if ((val = opt_value(argc, argv, &i, "--layers"))) {
			if (!parse_u64(val, &v) || v < 1 || v > 1000000)
				bad_value("--layers", val);
			o.layers = (int64_t)v;
			have_layers = true;
		} else if ((val = opt_value(argc, argv, &i, "--seed"))) {
			if (!parse_u64(val, &o.seed))
				bad_value("--seed", val);
		} else if ((val = opt_value(argc, argv, &i, "--target-insts"))) {
			if (!parse_u64(val, &target) || target < 1 || target > 200000000)
				bad_value("--target-insts", val);
		} else if ((val = opt_value(argc, argv, &i, "-o"))) {
			out = val;
		} else {
			fprintf(stderr, "pl-genmodel: unknown argument '%s' (see --help)\n", a);
			return 2;
		}
	}
	if (have_layers && target) {
		fputs("pl-genmodel: --layers and --target-insts exclude each other\n", stderr);
		return 2;
	}

	if (g.unique_kinds && !unique) {
		fputs("pl-genmodel: --unique-attr-kinds needs --unique-attrs\n", stderr);
		return 2;
	}
	g.unique_attrs = unique;
	struct model m;
	model_init(&m, o.seed);
	if (target)
		o.layers = layers_for_target(&g, &m, o, target);

	g.fp = out && strcmp(out, "-") != 0 ? fopen(out, "wb") : stdout;
	if (!g.fp) {
		fprintf(stderr, "pl-genmodel: cannot open %s: %s\n", out, strerror(errno));
		return 1;
	}
	module(&g, &m, &o);
	flush(&g);
	bool failed = g.failed || fflush(g.fp) != 0 || ferror(g.fp);
	if (g.fp != stdout && fclose(g.fp) != 0)
		failed = true;
	if (failed) {
		fprintf(stderr, "pl-genmodel: write error on %s: %s\n", out ? out : "standard output",
		        strerror(errno));
		return 1;
	}
	if (verbose)
		fprintf(stderr, "pl-genmodel: %" PRId64 " layers, %" PRIu64 " instructions\n",
		        o.layers, g.ninsts);
	return 0;
}
