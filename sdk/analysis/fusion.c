/* SPDX-License-Identifier: MIT */
/* sdk/analysis/fusion.c — the kernels a GPU compiler would make of a function
 * not fused yet (passline/fusion.h; the rules are in passline-plugin(7)).
 *
 * In the spirit of XLA's GPU fusion passes (priority fusion, instruction
 * fusion, multi-output fusion, the GEMM rewriter's epilogues):
 *  1. a dot starts a matmul kernel and takes its epilogue, the chain of
 *     sole users the GEMM rewriter folds into the library call, in this
 *     order, each at most once: an add whose other operand nothing else
 *     reads, a maximum (relu), a convert of the output (with bitcasts and
 *     reshapes anywhere);
 *  2. walking backwards (every user before its producer), a fusible
 *     producer (element-wise, broadcast, convert, reshape, bitcast,
 *     transpose, slice, ...) joins the kernel of its users when they all
 *     are in one kernel that takes it (a matmul takes only layout ops and
 *     broadcasts); a cheap one whose users are in several such kernels is
 *     computed again in each (it joins the first, and the others read its
 *     operands instead of it); otherwise it is a kernel of its own. A
 *     reduce takes its producers the same way, and joins its users' kernel
 *     only when it reduces the last dimension alone (the normalization
 *     pattern, as a softmax or an RMS norm, that XLA emits as one kernel);
 *  3. collectives, control flow (while, call, conditional), tuples,
 *     constants and parameters are in no kernel; custom calls, existing
 *     fusions, sorts, scatters and ops the model does not know are one
 *     kernel each; a reshape or bitcast left alone is a view (no kernel);
 *  4. siblings: kernels that read the same non-scalar value, do the same
 *     amount of work (elements of their largest result or reduced input)
 *     and stand at the same depth of the kernel graph become one (XLA's
 *     sibling multi-output fusion; equal depth keeps the graph acyclic);
 *  5. in the entry computation, an output that is a parameter (or a view of
 *     one) or a constant is copied by a kernel of its own, as XLA's copy
 *     insertion does, unless the module's input_output_alias donates that
 *     parameter.
 * A kernel moves the bytes of every value it reads from outside (once) and
 * of every value it makes that something outside reads (once); scalar
 * constants cost nothing; a dynamic-update-slice or scatter updates its
 * first operand in place (it neither reads it nor writes more than the
 * update). Layout ops count no flops.
 */
#include "analysis/fusion.h"
#include "analysis/cost_model.h"
#include "ir/hlo_keys.h"
#include "ir/hlo_opcodes.h"
#include <passline/grow.h>
#include <passline/hash_table.h>

#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#define NONE UINT32_MAX

/* An instruction's class: its opcode's fusion class (passline/hlo_ops.h,
 * the FUSE column), and one the table cannot say. */
enum cls {
	C_LIBRARY = PL_HLO_FUSE_LIBRARY, /* one kernel of its own */
	C_FREE = PL_HLO_FUSE_FREE,       /* in no kernel */
	C_VIEW = PL_HLO_FUSE_VIEW,       /* reshape, bitcast: joins a consumer or is no kernel */
	C_LAYOUT = PL_HLO_FUSE_LAYOUT,   /* cheap data movement: fusible, counts no flops */
	C_ELEM = PL_HLO_FUSE_ELEM,       /* cheap element-wise: fusible, computed again where needed */
	C_COSTLY = PL_HLO_FUSE_COSTLY,   /* expensive element-wise: fusible, never computed twice */
	C_REDUCE = PL_HLO_FUSE_REDUCE,   /* a reduction: takes producers */
	C_ROOT = PL_HLO_FUSE_ROOT,       /* a loop kernel that takes producers, never joins a consumer */
	C_MATMUL = PL_HLO_FUSE_MATMUL,   /* dot */
	C_NAME                           /* a get-tuple-element without results: a line kept for its
	                                  * name, which reads nothing (not a user of its operand) */
};

static enum cls classify(const pl_inst *inst)
{
	pl_op op = pl_inst_op_(inst);
	unsigned traits = pl_op_traits(op);
	if (traits & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START | PL_TRAIT_COLLECTIVE_DONE |
	              PL_TRAIT_TERMINATOR | PL_TRAIT_DATA_MOVEMENT))
		return C_FREE;
	if (traits & PL_TRAIT_CONTRACT)
		return C_MATMUL;
	if (traits & PL_TRAIT_REDUCE_LIKE)
		return C_REDUCE;
	if (op != PL_OP_OTHER)
		return C_LIBRARY; /* loads and stores */
	pl_hlo_op h = pl_inst_hlo_op_(inst);
	if (!inst->nres && h == PL_HLO_GET_TUPLE_ELEMENT)
		return C_NAME;
	/* a row's class; any other op (not hlo.*, fusion, custom-call, sort,
	 * ...) is a kernel of its own */
	return (enum cls)pl_hlo_rows_[h].fuse;
}

static bool opname_is(const pl_inst *inst, pl_hlo_op op)
{
	return pl_inst_hlo_op_(inst) == op;
}

/* ---- the model ---- */

struct kernel {
	uint32_t kind;
	uint32_t first, n;    /* members: m->members[first .. first + n) */
	uint64_t flops, bytes, time;
	uint64_t iter;        /* elements of its largest result or reduced input */
	uint32_t level;       /* depth in the kernel graph (NONE: not levelled) */
	uint32_t anchor;      /* the instruction its time is charged at */
	uint32_t copied;      /* a copy kernel: the return operand it copies */
};

struct pl_fusion {
	const pl_func *f;
	size_t n;              /* instructions */
	const pl_inst **insts; /* in function order */
	uint32_t *kern;        /* per instruction, NONE when in none */
	unsigned char *dup;    /* per instruction: computed again where read */
	struct kernel *k;
	size_t nk;
	uint32_t *members;     /* instruction indices, grouped by kernel */
	uint64_t *inst_time;
	uint64_t bytes, time;
};

/* Scratch of one run of the model. */
struct build {
	pl_fusion *fu;
	const pl_cost_model *cm;
	struct pl_ht index;  /* instruction -> index + 1 */
	unsigned char *cls;  /* per instruction */
	unsigned char *dup;  /* per instruction: computed again by other kernels */
	uint32_t *parent;    /* union-find over kernels */
	size_t kcap;
	struct pl_ht seen;   /* value -> kernel + 1 that last read it */
	struct pl_ht written;/* values counted as written */
};

static size_t index_of(const struct build *b, const pl_inst *inst)
{
	void *v = pl_ht_ptr_get(&b->index, inst);
	return v ? (size_t)(uintptr_t)v - 1 : SIZE_MAX;
}

/* The one user of v that reads it (C_NAME lines do not), its index in
 * *j; NULL when there are none or several. */
static const pl_inst *sole_user(const struct build *b, const pl_value *v, size_t *j)
{
	const pl_inst *one = NULL;
	*j = SIZE_MAX;
	for (const pl_use *u = v->uses ? pl_value_uses_(v) : NULL; u;
	     u = u->next ? pl_use_next_(u) : NULL) {
		size_t k = index_of(b, pl_use_user_(u));
		if (k != SIZE_MAX && b->cls[k] == C_NAME)
			continue;
		if (one)
			return NULL;
		one = pl_use_user_(u);
		*j = k;
	}
	return one;
}

static uint32_t find(struct build *b, uint32_t k)
{
	while (b->parent[k] != k) {
		b->parent[k] = b->parent[b->parent[k]];
		k = b->parent[k];
	}
	return k;
}

static int new_kernel(struct build *b, uint32_t kind, uint32_t *out)
{
	pl_fusion *fu = b->fu;
	size_t cap = b->kcap;
	if (!PL_GROW(fu->k, b->kcap, fu->nk + 1))
		return PL_ENOMEM;
	if (!PL_GROW(b->parent, cap, fu->nk + 1))
		return PL_ENOMEM;
	fu->k[fu->nk] = (struct kernel){.kind = kind, .level = NONE, .copied = NONE};
	b->parent[fu->nk] = (uint32_t)fu->nk;
	*out = (uint32_t)fu->nk++;
	return PL_OK;
}

static uint64_t type_bytes(const pl_type *t)
{
	uint64_t n = 0;
	return pl_type_num_bytes(t, &n) == PL_OK ? n : UINT64_MAX;
}

/* Whether a kernel of kind takes a producer of class c. */
static bool takes(uint32_t kind, enum cls c)
{
	if (kind == PL_KERNEL_LOOP || kind == PL_KERNEL_REDUCE)
		return true;
	return kind == PL_KERNEL_MATMUL && (c == C_VIEW || c == C_LAYOUT);
}

/* What a matmul's epilogue op u (the one user of the value cur) is, in
 * the order XLA's GEMM rewriter folds them into the library call: 1 an
 * add whose other operand nothing else reads (cuBLAS writes the result
 * over that addend), 2 a maximum (relu), 3 a convert of the output; 4 a
 * bitcast or reshape (anywhere); 0 any other op. */
enum { EPI_NONE, EPI_ADD, EPI_RELU, EPI_CONVERT, EPI_VIEW };

static int epilogue_kind(const struct build *b, const pl_inst *u, const pl_value *cur)
{
	if (opname_is(u, PL_HLO_BITCAST) || opname_is(u, PL_HLO_RESHAPE))
		return EPI_VIEW;
	if (opname_is(u, PL_HLO_MAXIMUM))
		return EPI_RELU;
	if (opname_is(u, PL_HLO_CONVERT))
		return EPI_CONVERT;
	if (!opname_is(u, PL_HLO_ADD) || u->nops != 2)
		return EPI_NONE;
	for (uint32_t o = 0; o < 2; o++) {
		const pl_value *v = pl_use_val_(&pl_inst_ops_(u)[o]);
		size_t j;
		if (v != cur && sole_user(b, v, &j) != u)
			return EPI_NONE;
	}
	return EPI_ADD;
}

/* Rule 1: each dot a matmul kernel with its epilogue. */
static int matmuls(struct build *b)
{
	pl_fusion *fu = b->fu;
	for (size_t i = 0; i < fu->n; i++) {
		if (b->cls[i] != C_MATMUL)
			continue;
		uint32_t k;
		int rc = new_kernel(b, PL_KERNEL_MATMUL, &k);
		if (rc)
			return rc;
		fu->kern[i] = k;
		const pl_inst *cur = fu->insts[i];
		int stage = EPI_NONE;
		for (int len = 0; len < 8 && cur->nres == 1; len++) {
			size_t j;
			const pl_value *v = &pl_inst_res_(cur)[0];
			const pl_inst *u = sole_user(b, v, &j);
			if (!u)
				break;
			int kind = j == SIZE_MAX || fu->kern[j] != NONE ? EPI_NONE : epilogue_kind(b, u, v);
			if (kind == EPI_NONE)
				break;
			if (kind != EPI_VIEW) { /* each stage once, in order */
				if (kind <= stage)
					break;
				stage = kind;
			}
			fu->kern[j] = k;
			cur = u;
		}
	}
	return PL_OK;
}

/* Whether a reduce reduces its operand's last dimension alone. */
static bool row_reduce(const pl_inst *inst)
{
	if (!inst->nops)
		return false;
	const pl_type *t = pl_use_val_(&pl_inst_ops_(inst)[0])->type;
	const char *s = NULL;
	size_t len = 0;
	if (pl_attrs_get_string(&inst->attrs, HK(DIMENSIONS), &s, &len) != PL_OK || !t->rank)
		return false;
	/* "{R}" with R = rank - 1 */
	char want[32];
	int w = snprintf(want, sizeof want, "{%u}", t->rank - 1);
	return w > 0 && (size_t)w == len && memcmp(s, want, len) == 0;
}

/* Rule 2 for instruction i, whose users all come later (and were placed). */
static int place(struct build *b, size_t i)
{
	pl_fusion *fu = b->fu;
	enum cls c = (enum cls)b->cls[i];
	const pl_inst *inst = fu->insts[i];
	uint32_t kind = PL_KERNEL_LOOP;
	switch (c) {
	case C_FREE:
	case C_NAME:
		return PL_OK;
	case C_MATMUL:
		return PL_OK; /* placed by matmuls() */
	case C_LIBRARY:
		return new_kernel(b, PL_KERNEL_LIBRARY, &fu->kern[i]);
	case C_ROOT:
		return new_kernel(b, PL_KERNEL_LOOP, &fu->kern[i]);
	default:
		break;
	}
	if (c == C_REDUCE)
		kind = PL_KERNEL_REDUCE;
	/* the users' kernels: one (common), several that all take it, or not */
	uint32_t common = NONE;
	size_t first_user = SIZE_MAX;
	bool several = false, blocked = false, any = false;
	for (uint32_t r = 0; r < inst->nres && !blocked; r++) {
		const pl_value *v = &pl_inst_res_(inst)[r];
		for (const pl_use *u = v->uses ? pl_value_uses_(v) : NULL; u;
		     u = u->next ? pl_use_next_(u) : NULL) {
			size_t j = index_of(b, pl_use_user_(u));
			if (j != SIZE_MAX && b->cls[j] == C_NAME)
				continue;
			uint32_t k = j == SIZE_MAX ? NONE : fu->kern[j];
			any = true;
			if (k == NONE || !takes(fu->k[find(b, k)].kind, c)) {
				blocked = true;
				break;
			}
			k = find(b, k);
			if (common == NONE)
				common = k;
			else if (common != k)
				several = true;
			if (j < first_user)
				first_user = j;
		}
	}
	bool joins = any && !blocked && !several;
	if (joins && c == C_REDUCE) {
		uint32_t ck = fu->k[common].kind;
		joins = ck != PL_KERNEL_MATMUL && row_reduce(inst);
		if (joins)
			fu->k[common].kind = PL_KERNEL_REDUCE;
	}
	if (joins) {
		fu->kern[i] = common;
		return PL_OK;
	}
	if (c == C_VIEW)
		return PL_OK; /* a view of its operand: no kernel */
	if (any && !blocked && several && (c == C_ELEM || c == C_LAYOUT)) {
		b->dup[i] = 1;
		fu->kern[i] = find(b, fu->kern[first_user]);
		return PL_OK;
	}
	return new_kernel(b, kind, &fu->kern[i]);
}

/* ---- rule 5: copies of entry outputs that are parameters ---- */

/* Marks in aliased[] the parameters the module's input_output_alias
 * donates (the first number of each "(N, ...)" inside it). */
static void donated(const char *h, size_t len, unsigned char *aliased, size_t nargs)
{
	static const char key[] = "input_output_alias={";
	const char *end = h + len;
	const char *p = NULL;
	for (const char *s = h; s + sizeof key - 1 <= end; s++)
		if (memcmp(s, key, sizeof key - 1) == 0) {
			p = s + sizeof key - 1;
			break;
		}
	if (!p)
		return;
	for (int depth = 1; p < end && depth > 0; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}')
			depth--;
		else if (*p == '(' && p + 1 < end && p[1] >= '0' && p[1] <= '9') {
			size_t n = 0;
			for (const char *q = p + 1; q < end && *q >= '0' && *q <= '9'; q++)
				n = n * 10 + (size_t)(*q - '0');
			if (n < nargs)
				aliased[n] = 1;
		}
	}
}

static int copies(struct build *b)
{
	pl_fusion *fu = b->fu;
	bool entry = false;
	if (pl_attrs_get_bool(&fu->f->attrs, HK(ENTRY), &entry) != PL_OK || !entry || !fu->n)
		return PL_OK;
	size_t last = fu->n - 1;
	const pl_inst *ret = fu->insts[last];
	if (!(pl_op_traits(pl_inst_op_(ret)) & PL_TRAIT_TERMINATOR))
		return PL_OK;
	size_t nargs = fu->f->nargs;
	unsigned char *aliased = calloc(nargs ? nargs : 1, 1);
	if (!aliased)
		return PL_ENOMEM;
	const char *h = NULL;
	size_t hlen = 0;
	if (pl_attrs_get_string(&fu->f->attrs, HK(MODULE), &h, &hlen) == PL_OK)
		donated(h, hlen, aliased, nargs);
	int rc = PL_OK;
	for (uint32_t r = 0; r < ret->nops && rc == PL_OK; r++) {
		const pl_value *v = pl_use_val_(&pl_inst_ops_(ret)[r]);
		/* back through views in no kernel */
		size_t chain[64], nchain = 0;
		const pl_inst *d;
		while ((d = v->def ? pl_value_def_(v) : NULL)) {
			size_t j = index_of(b, d);
			if (j == SIZE_MAX || b->cls[j] != C_VIEW || fu->kern[j] != NONE || !d->nops ||
			    nchain == 64)
				break;
			chain[nchain++] = j;
			v = pl_use_val_(&pl_inst_ops_(d)[0]);
		}
		bool param = !v->def && !aliased[pl_value_index(v)];
		bool constant = d && opname_is(d, PL_HLO_CONSTANT);
		if (!param && !constant)
			continue;
		uint32_t k;
		if ((rc = new_kernel(b, PL_KERNEL_COPY, &k)))
			break;
		fu->k[k].copied = r;
		uint64_t bytes = type_bytes(v->type);
		fu->k[k].bytes = bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * bytes;
		for (size_t c = 0; c < nchain; c++)
			fu->kern[chain[c]] = k;
	}
	free(aliased);
	return rc;
}

/* ---- rule 4: siblings ---- */

/* Levels by Kahn's walk over the graph whose nodes are the kernels and the
 * instructions in none (node nk + i); a node left on a cycle (a view of
 * the graph the rules above cannot make, but cheap to allow) keeps NONE. */
static int levels(struct build *b)
{
	pl_fusion *fu = b->fu;
	size_t nk = fu->nk, nn = nk + fu->n;
	int rc = PL_ENOMEM;
	uint32_t *indeg = calloc(nn ? nn : 1, sizeof *indeg);
	uint32_t *start = calloc(nn + 1, sizeof *start);
	uint32_t *adj = NULL, *queue = NULL, *lvl = NULL;
	size_t nedges = 0;
	if (!indeg || !start)
		goto out;
#define NODE(i) (fu->kern[i] != NONE ? (size_t)find(b, fu->kern[i]) : nk + (i))
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < fu->n; i++) {
			const pl_inst *inst = fu->insts[i];
			size_t to = NODE(i);
			for (uint32_t o = 0; o < inst->nops; o++) {
				const pl_value *v = pl_use_val_(&pl_inst_ops_(inst)[o]);
				if (!v->def)
					continue;
				size_t j = index_of(b, pl_value_def_(v));
				if (j == SIZE_MAX)
					continue;
				size_t from = NODE(j);
				if (from == to)
					continue;
				if (pass == 0) {
					start[from + 1]++;
					nedges++;
				} else {
					adj[start[from]++] = (uint32_t)to;
					indeg[to]++;
				}
			}
		}
		if (pass == 0) {
			for (size_t x = 0; x < nn; x++)
				start[x + 1] += start[x];
			adj = malloc((nedges ? nedges : 1) * sizeof *adj);
			if (!adj)
				goto out;
		} else {
			/* start[x] now ends node x's edges: shift back */
			for (size_t x = nn; x > 0; x--)
				start[x] = start[x - 1];
			start[0] = 0;
		}
	}
#undef NODE
	queue = malloc((nn ? nn : 1) * sizeof *queue);
	lvl = calloc(nn ? nn : 1, sizeof *lvl);
	if (!queue || !lvl)
		goto out;
	size_t head = 0, tail = 0;
	for (size_t x = 0; x < nn; x++)
		if (!indeg[x])
			queue[tail++] = (uint32_t)x;
	while (head < tail) {
		uint32_t x = queue[head++];
		if (x < nk)
			fu->k[x].level = lvl[x];
		for (uint32_t e = start[x]; e < start[x + 1]; e++) {
			uint32_t y = adj[e];
			if (lvl[y] < lvl[x] + 1)
				lvl[y] = lvl[x] + 1;
			if (--indeg[y] == 0)
				queue[tail++] = y;
		}
	}
	rc = PL_OK;
out:
	free(indeg);
	free(start);
	free(adj);
	free(queue);
	free(lvl);
	return rc;
}

static void work_of(struct build *b)
{
	pl_fusion *fu = b->fu;
	for (size_t i = 0; i < fu->n; i++) {
		if (fu->kern[i] == NONE)
			continue;
		const pl_inst *inst = fu->insts[i];
		uint64_t e = 0;
		for (uint32_t r = 0; r < inst->nres; r++)
			if (pl_inst_res_(inst)[r].type->elements > e)
				e = pl_inst_res_(inst)[r].type->elements;
		if (b->cls[i] == C_REDUCE && inst->nops &&
		    pl_use_val_(&pl_inst_ops_(inst)[0])->type->elements > e)
			e = pl_use_val_(&pl_inst_ops_(inst)[0])->type->elements;
		struct kernel *k = &fu->k[find(b, fu->kern[i])];
		if (e > k->iter)
			k->iter = e;
	}
}

struct sib {
	uint32_t level, k;
	uint64_t iter;
};

static int sib_cmp(const void *a, const void *b)
{
	const struct sib *x = a, *y = b;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* Unites the kernels that read v at the same level with the same work. */
static int siblings_of(struct build *b, const pl_value *v, struct sib **buf, size_t *cap)
{
	pl_fusion *fu = b->fu;
	if (v->type->elements <= 1 || !v->uses)
		return PL_OK;
	size_t n = 0;
	for (const pl_use *u = pl_value_uses_(v); u; u = u->next ? pl_use_next_(u) : NULL) {
		size_t j = index_of(b, pl_use_user_(u));
		if (j == SIZE_MAX || fu->kern[j] == NONE || b->dup[j])
			continue;
		uint32_t k = find(b, fu->kern[j]);
		uint32_t kind = fu->k[k].kind;
		if ((kind != PL_KERNEL_LOOP && kind != PL_KERNEL_REDUCE) || fu->k[k].level == NONE)
			continue;
		if (!PL_GROW(*buf, *cap, n + 1))
			return PL_ENOMEM;
		(*buf)[n++] = (struct sib){fu->k[k].level, k, fu->k[k].iter};
	}
	if (n < 2)
		return PL_OK;
	qsort(*buf, n, sizeof **buf, sib_cmp);
	for (size_t x = 1; x < n; x++) {
		const struct sib *p = &(*buf)[x - 1], *q = &(*buf)[x];
		if (p->level != q->level || p->iter != q->iter)
			continue;
		uint32_t a = find(b, p->k), c = find(b, q->k);
		if (a == c)
			continue;
		/* the smaller index stays the representative (deterministic) */
		uint32_t lo = a < c ? a : c, hi = a < c ? c : a;
		b->parent[hi] = lo;
		if (fu->k[hi].kind == PL_KERNEL_REDUCE)
			fu->k[lo].kind = PL_KERNEL_REDUCE;
	}
	return PL_OK;
}

static int siblings(struct build *b)
{
	pl_fusion *fu = b->fu;
	struct sib *buf = NULL;
	size_t cap = 0;
	int rc = PL_OK;
	for (size_t a = 0; a < fu->f->nargs && rc == PL_OK; a++)
		rc = siblings_of(b, &fu->f->args[a]->v, &buf, &cap);
	for (size_t i = 0; i < fu->n && rc == PL_OK; i++)
		for (uint32_t r = 0; r < fu->insts[i]->nres && rc == PL_OK; r++)
			rc = siblings_of(b, &pl_inst_res_(fu->insts[i])[r], &buf, &cap);
	free(buf);
	return rc;
}

/* ---- bytes, flops, times ---- */

static void add_sat(uint64_t *acc, uint64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		*acc = UINT64_MAX;
}

/* The operand a dynamic-update-slice or a scatter writes into its first
 * operand's buffer in place (XLA aliases them): the update; -1 for any
 * other op. */
static int in_place_update(const pl_inst *inst)
{
	if (opname_is(inst, PL_HLO_DYNAMIC_UPDATE_SLICE) && inst->nops >= 2)
		return 1;
	if (opname_is(inst, PL_HLO_SCATTER) && inst->nops == 3)
		return 2;
	return -1;
}

static int written(struct build *b, const pl_value *v)
{
	pl_fusion *fu = b->fu;
	if (!v->def)
		return PL_OK;
	size_t j = index_of(b, pl_value_def_(v));
	if (j == SIZE_MAX || fu->kern[j] == NONE || b->dup[j] ||
	    fu->k[fu->kern[j]].kind == PL_KERNEL_COPY) /* a copy's bytes are counted whole */
		return PL_OK;
	if (pl_ht_ptr_get(&b->written, v))
		return PL_OK;
	if (!pl_ht_ptr_put(&b->written, v, (void *)1))
		return PL_ENOMEM;
	const pl_inst *d = fu->insts[j];
	int upd = in_place_update(d);
	const pl_type *t = upd < 0 ? v->type : pl_use_val_(&pl_inst_ops_(d)[upd])->type;
	add_sat(&fu->k[fu->kern[j]].bytes, type_bytes(t));
	return PL_OK;
}

static int input(struct build *b, uint32_t k, const pl_value *v)
{
	void *last = pl_ht_ptr_get(&b->seen, v);
	if (last == (void *)(uintptr_t)(k + 1u))
		return PL_OK;
	if (!pl_ht_ptr_put(&b->seen, v, (void *)(uintptr_t)(k + 1u)))
		return PL_ENOMEM;
	const pl_inst *d = v->def ? pl_value_def_(v) : NULL;
	if (d && v->type->elements <= 1 && opname_is(d, PL_HLO_CONSTANT))
		return PL_OK; /* a scalar constant is part of the code */
	add_sat(&b->fu->k[k].bytes, type_bytes(v->type));
	return written(b, v);
}

/* Kernel k reads what the computed-again producer d reads. */
static int frontier(struct build *b, uint32_t k, const pl_inst *d, int depth)
{
	pl_fusion *fu = b->fu;
	int rc = PL_OK;
	for (uint32_t o = 0; o < d->nops && rc == PL_OK; o++) {
		const pl_value *v = pl_use_val_(&pl_inst_ops_(d)[o]);
		size_t j = v->def ? index_of(b, pl_value_def_(v)) : SIZE_MAX;
		if (j != SIZE_MAX && fu->kern[j] == k)
			continue;
		if (j != SIZE_MAX && b->dup[j] && depth < 4)
			rc = frontier(b, k, fu->insts[j], depth + 1);
		else
			rc = input(b, k, v);
	}
	return rc;
}

static bool layout_only(enum cls c) { return c == C_VIEW || c == C_LAYOUT; }

/* The time of a kernel: under the exact integer model (no preset, none
 * but the four old keys), max(ceil(flops / peak_gflops), ceil(bytes /
 * memory_gbps)) + floor_ns; else the cost model's own roofline for a
 * kernel (pl_roofline_ns_: its kernel floor, the peak of the dtype class
 * of the kernel's dot, f32 for one without), rounded up, floor_ns then
 * unused. */
static int kernel_time(const pl_cost_model *cm, const pl_fusion *fu, const struct kernel *k,
                       uint64_t floor_ns, uint64_t *out)
{
	uint64_t flops = k->flops, bytes = k->bytes;
	if (!pl_cost_model_is_exact(cm)) {
		enum pl_dclass dc = PL_DC_F32;
		double cf, timed = (double)flops;
		for (uint32_t x = 0; x < k->n; x++) {
			const pl_inst *inst = fu->insts[fu->members[k->first + x]];
			if (pl_op_traits(pl_inst_op_(inst)) & PL_TRAIT_CONTRACT) {
				dc = pl_contraction_class_(inst);
				break;
			}
			if (pl_custom_call_flops_(inst, &cf, &dc)) { /* a GEMM, fused attention */
				if (pl_attention_call_(inst)) /* as op by op: below the peak */
					timed /= cm->v[CK_ATTENTION];
				break;
			}
		}
		double t = ceil(pl_roofline_ns_(cm, timed, dc, (double)bytes));
		if (!(t < 18446744073709551616.0))
			return PL_EOVERFLOW;
		*out = (uint64_t)t;
		return PL_OK;
	}
	int64_t peak = 1, mem = 1;
	pl_cost_model_get(cm, "peak_gflops", &peak);
	pl_cost_model_get(cm, "memory_gbps", &mem);
	uint64_t tc = flops / (uint64_t)peak + (flops % (uint64_t)peak != 0);
	uint64_t tm = bytes / (uint64_t)mem + (bytes % (uint64_t)mem != 0);
	uint64_t t = tc > tm ? tc : tm;
	if (__builtin_add_overflow(t, floor_ns, out))
		return PL_EOVERFLOW;
	return PL_OK;
}

static int finish(struct build *b, uint64_t floor_ns)
{
	pl_fusion *fu = b->fu;
	int rc = PL_OK;
	/* renumber: kernels in order of first member, copies last */
	uint32_t *renum = malloc((fu->nk ? fu->nk : 1) * sizeof *renum);
	struct kernel *nk = calloc(fu->nk ? fu->nk : 1, sizeof *nk);
	fu->members = malloc((fu->n ? fu->n : 1) * sizeof *fu->members);
	fu->inst_time = calloc(fu->n ? fu->n : 1, sizeof *fu->inst_time);
	if (!renum || !nk || !fu->members || !fu->inst_time) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < fu->nk; k++)
		renum[k] = NONE;
	uint32_t count = 0;
	for (size_t i = 0; i < fu->n; i++) {
		if (fu->kern[i] == NONE)
			continue;
		uint32_t r = find(b, fu->kern[i]);
		if (fu->k[r].kind == PL_KERNEL_COPY)
			continue;
		if (renum[r] == NONE) {
			renum[r] = count;
			nk[count] = fu->k[r];
			nk[count].n = 0;
			count++;
		}
	}
	for (size_t k = 0; k < fu->nk; k++)
		if (fu->k[k].kind == PL_KERNEL_COPY && b->parent[k] == k) {
			renum[k] = count;
			nk[count] = fu->k[k];
			nk[count].n = 0;
			count++;
		}
	for (size_t i = 0; i < fu->n; i++)
		if (fu->kern[i] != NONE) {
			fu->kern[i] = renum[find(b, fu->kern[i])];
			nk[fu->kern[i]].n++;
		}
	free(fu->k);
	fu->k = nk;
	nk = NULL;
	fu->nk = count;
	/* members, grouped */
	uint32_t at = 0;
	for (size_t k = 0; k < fu->nk; k++) {
		fu->k[k].first = at;
		at += fu->k[k].n;
		fu->k[k].n = 0;
	}
	for (size_t i = 0; i < fu->n; i++)
		if (fu->kern[i] != NONE) {
			struct kernel *k = &fu->k[fu->kern[i]];
			fu->members[k->first + k->n++] = (uint32_t)i;
			k->anchor = (uint32_t)i;
		}
	/* bytes: reads from outside, and what outside reads */
	for (size_t kk = 0; kk < fu->nk && rc == PL_OK; kk++) {
		struct kernel *k = &fu->k[kk];
		if (k->kind == PL_KERNEL_COPY) {
			k->anchor = (uint32_t)(fu->n - 1);
			continue;
		}
		for (uint32_t x = 0; x < k->n && rc == PL_OK; x++) {
			const pl_inst *inst = fu->insts[fu->members[k->first + x]];
			/* an in-place update does not read the buffer it updates */
			uint32_t o0 = in_place_update(inst) < 0 ? 0 : 1;
			for (uint32_t o = o0; o < inst->nops && rc == PL_OK; o++) {
				const pl_value *v = pl_use_val_(&pl_inst_ops_(inst)[o]);
				size_t j = v->def ? index_of(b, pl_value_def_(v)) : SIZE_MAX;
				if (j != SIZE_MAX && fu->kern[j] == kk)
					continue;
				if (j != SIZE_MAX && b->dup[j])
					rc = frontier(b, (uint32_t)kk, fu->insts[j], 1);
				else
					rc = input(b, (uint32_t)kk, v);
			}
		}
	}
	for (size_t i = 0; i < fu->n && rc == PL_OK; i++) {
		if ((fu->kern[i] != NONE && fu->k[fu->kern[i]].kind != PL_KERNEL_COPY) ||
		    b->cls[i] == C_NAME)
			continue;
		const pl_inst *inst = fu->insts[i];
		for (uint32_t o = 0; o < inst->nops && rc == PL_OK; o++)
			rc = written(b, pl_use_val_(&pl_inst_ops_(inst)[o]));
	}
	/* flops and times */
	for (size_t i = 0; i < fu->n && rc == PL_OK; i++) {
		if (fu->kern[i] == NONE || layout_only((enum cls)b->cls[i]))
			continue;
		const pl_inst *inst = fu->insts[i];
		struct pl_count_attrs attrs;
		pl_count_attrs_(&inst->attrs, &attrs);
		uint64_t n;
		int64_t fl;
		if ((rc = pl_masked_dynamic_instances_(inst, &attrs, &n)) ||
		    (rc = pl_flops_(inst, &attrs, &fl)))
			break;
		pl_u128 w = (pl_u128)n * (uint64_t)fl;
		double cf; /* a custom call's FLOPs from its shapes, as op by op */
		enum pl_dclass cdc;
		if (!pl_cost_model_is_exact(b->cm) && pl_custom_call_flops_(inst, &cf, &cdc))
			w = cf < 1.8e19 ? (pl_u128)cf : UINT64_MAX;
		add_sat(&fu->k[fu->kern[i]].flops, w > UINT64_MAX ? UINT64_MAX : (uint64_t)w);
	}
	for (size_t kk = 0; kk < fu->nk && rc == PL_OK; kk++) {
		struct kernel *k = &fu->k[kk];
		if ((rc = kernel_time(b->cm, fu, k, floor_ns, &k->time)))
			break;
		if (__builtin_add_overflow(fu->inst_time[k->anchor], k->time,
		                           &fu->inst_time[k->anchor]) ||
		    __builtin_add_overflow(fu->time, k->time, &fu->time)) {
			rc = PL_EOVERFLOW;
			break;
		}
		add_sat(&fu->bytes, k->bytes);
	}
out:
	free(renum);
	free(nk);
	return rc;
}

static int build(struct build *b, uint64_t floor_ns)
{
	pl_fusion *fu = b->fu;
	const pl_func *f = fu->f;
	fu->n = f->ninsts;
	size_t n = fu->n ? fu->n : 1;
	fu->insts = malloc(n * sizeof *fu->insts);
	fu->kern = malloc(n * sizeof *fu->kern);
	b->cls = malloc(n);
	b->dup = calloc(n, 1);
	if (!fu->insts || !fu->kern || !b->cls || !b->dup)
		return PL_ENOMEM;
	size_t i = 0;
	for (const pl_inst *inst = f->first; inst && i < fu->n; inst = pl_inst_next_(inst), i++) {
		fu->insts[i] = inst;
		fu->kern[i] = NONE;
		b->cls[i] = (unsigned char)classify(inst);
		if (!pl_ht_ptr_put(&b->index, inst, (void *)(uintptr_t)(i + 1)))
			return PL_ENOMEM;
	}
	fu->n = i;
	int rc = matmuls(b);
	for (size_t j = fu->n; j-- > 0 && rc == PL_OK;)
		if (fu->kern[j] == NONE)
			rc = place(b, j);
	if (rc == PL_OK)
		rc = copies(b);
	if (rc == PL_OK)
		rc = levels(b);
	if (rc == PL_OK) {
		work_of(b);
		rc = siblings(b);
	}
	if (rc == PL_OK)
		rc = finish(b, floor_ns);
	return rc;
}

int pl_fusion_new(pl_fusion **out, const pl_func *f, const pl_cost_model *cm, uint64_t floor_ns)
{
	pl_fusion *fu = calloc(1, sizeof *fu);
	if (!fu)
		return PL_ENOMEM;
	fu->f = f;
	struct build b = {.fu = fu, .cm = cm};
	int rc = build(&b, floor_ns);
	pl_ht_free(&b.index);
	pl_ht_free(&b.seen);
	pl_ht_free(&b.written);
	free(b.cls);
	fu->dup = b.dup; /* kept for the memory of a function (memory.c) */
	free(b.parent);
	if (rc) {
		pl_fusion_free(fu);
		return rc;
	}
	*out = fu;
	return PL_OK;
}

void pl_fusion_free(pl_fusion *fu)
{
	if (!fu)
		return;
	free(fu->insts);
	free(fu->kern);
	free(fu->dup);
	free(fu->k);
	free(fu->members);
	free(fu->inst_time);
	free(fu);
}

size_t pl_fusion_num_kernels(const pl_fusion *fu) { return fu->nk; }
uint64_t pl_fusion_bytes(const pl_fusion *fu) { return fu->bytes; }
uint64_t pl_fusion_time_ns(const pl_fusion *fu) { return fu->time; }

pl_kernel_kind pl_fusion_kernel_kind(const pl_fusion *fu, size_t k)
{
	return k < fu->nk ? (pl_kernel_kind)fu->k[k].kind : PL_KERNEL_LIBRARY;
}

uint64_t pl_fusion_kernel_flops(const pl_fusion *fu, size_t k)
{
	return k < fu->nk ? fu->k[k].flops : 0;
}

uint64_t pl_fusion_kernel_bytes(const pl_fusion *fu, size_t k)
{
	return k < fu->nk ? fu->k[k].bytes : 0;
}

uint64_t pl_fusion_kernel_time_ns(const pl_fusion *fu, size_t k)
{
	return k < fu->nk ? fu->k[k].time : 0;
}

size_t pl_fusion_kernel_num_insts(const pl_fusion *fu, size_t k)
{
	return k < fu->nk ? fu->k[k].n : 0;
}

const pl_inst *pl_fusion_kernel_inst(const pl_fusion *fu, size_t k, size_t i)
{
	if (k >= fu->nk || i >= fu->k[k].n)
		return NULL;
	return fu->insts[fu->members[fu->k[k].first + i]];
}

size_t pl_fusion_inst_kernel(const pl_fusion *fu, size_t i)
{
	return i < fu->n && fu->kern[i] != NONE ? fu->kern[i] : SIZE_MAX;
}

bool pl_func_has_fusion(const pl_func *f)
{
	for (const pl_inst *inst = f->first; inst; inst = pl_inst_next_(inst))
		if (pl_inst_op_(inst) == PL_OP_OTHER && opname_is(inst, PL_HLO_FUSION))
			return true;
	return false;
}

const pl_func *pl_fusion_func_(const pl_fusion *fu) { return fu->f; }

uint64_t pl_fusion_inst_time_(const pl_fusion *fu, size_t i)
{
	return i < fu->n ? fu->inst_time[i] : 0;
}

bool pl_fusion_inst_recomputed_(const pl_fusion *fu, size_t i)
{
	return i < fu->n && fu->dup && fu->dup[i];
}
