/* SPDX-License-Identifier: MIT */
/* sdk/verify/verify.c — the IR verifier (rules: passline/verify.h, passline-pir(5)).
 * Linear: one walk per function, positions for "used after its
 * definition"; a start finds its done through the uses of its results, and
 * a buffer's in-flight interval is kept per value in a hash table. Every
 * violation is reported; the walk does not stop at the first. */
#include "ir/internal.h"
#include <passline/grow.h>

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

enum { PRED_MEMO_SLOTS = 256, DICT_MEMO_SLOTS = 256, DOMAIN_MEMO_SLOTS = 256,
       KEY_SLOTS = 256 };

/* an interned list's address says its length too */
struct pred_memo {
	const pl_attr *list;
	size_t rank;
};

/* The reserved attributes of one instruction, found in one pass over its
 * dictionary (the verifier looks at every instruction of every module). */
struct reserved {
	const pl_attr *group_id, *factor, *reduce, *dimension, *id, *fsdp;
	const pl_attr *num_dynamic_instances, *flops, *domain, *predicate;
};

/* What an attribute key is to the verifier: the offset of its member in
 * struct reserved, or -1 for a key that is not reserved. Keys are
 * numbered per module, so the answer is remembered by the key's number (no
 * string compares for the keys of every instruction of a module whose
 * dictionaries are all different). */
struct key_class {
	uint32_t key; /* 0: nothing remembered */
	int off;
};

/* A dictionary whose reserved attributes were checked and found good.
 * Equal dictionaries often share one entry array (copy on write, see
 * passline/ir.h), and nothing changes a module while it is verified, so
 * within one verification the entry array's address stands for its
 * content. */
struct dict_memo {
	const struct pl_attr_entry *v;
	uint16_t n;
	struct reserved r;
};

/* A buffer read by asynchronous collectives: the start, among those seen so
 * far, whose done comes last. A store to the buffer before that done writes
 * it while it is in flight. */
struct flight_slot {
	const pl_inst *start, *done;
};

/* The in-flight buffers of the function being checked: records, and the
 * one hash table (hash_table.h) from a buffer to its record's index + 1,
 * emptied in O(1) per function. */
struct flight_table {
	struct flight_slot *v;
	size_t n, cap;
	struct pl_ht index;
};

struct verifier {
	pl_module *m;
	pl_diags *diags;
	int errors;
	bool oom;
	bool quiet; /* stepping over what another part reports */
	struct flight_table flight;
	struct pred_memo preds[PRED_MEMO_SLOTS];
	struct dict_memo dicts[DICT_MEMO_SLOTS];
	/* domain lists found good, by address (lists are interned) */
	const pl_attr *domains[DOMAIN_MEMO_SLOTS];
	struct key_class keys[KEY_SLOTS];
	unsigned traits[PL_OP__COUNT]; /* pl_op_traits of each op */
};

static PL_PRINTF(3, 4) void inst_error(struct verifier *v, const pl_inst *i,
                                       const char *fmt, ...)
{
	if (v->quiet)
		return;
	struct pl_strbuf sb = {0};
	va_list ap;
	va_start(ap, fmt);
	pl_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	const char *msg = sb.failed || !sb.data ? "out of memory" : sb.data;
	if (i->line)
		pl_diags_add(v->diags, PL_SEV_ERROR, v->m->source_name, i->line, i->col,
		             "'%s': %s", pl_inst_opname_(i), msg);
	else
		pl_diags_add(v->diags, PL_SEV_ERROR, v->m->source_name, 0, 0,
		             "in @%s: '%s' (built by a pass): %s", pl_inst_func_(i)->name, pl_inst_opname_(i),
		             msg);
	pl_sb_free(&sb);
	v->errors++;
}

static PL_PRINTF(3, 4) void func_error(struct verifier *v, const pl_func *f,
                                       const char *fmt, ...)
{
	struct pl_strbuf sb = {0};
	va_list ap;
	va_start(ap, fmt);
	pl_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	pl_diags_add(v->diags, PL_SEV_ERROR, v->m->source_name, f->line, f->col,
	             "function @%s: %s", f->name, sb.failed || !sb.data ? "out of memory" : sb.data);
	pl_sb_free(&sb);
	v->errors++;
}

static const char *kind_name(pl_attr_kind k)
{
	switch (k) {
	case PL_ATTR_INT: return "an integer";
	case PL_ATTR_FLOAT: return "a float";
	case PL_ATTR_STRING: return "a string";
	case PL_ATTR_BOOL: return "a boolean";
	case PL_ATTR_LIST: return "a list";
	}
	return "?";
}

#define RESERVED(member) ((int)offsetof(struct reserved, member))

static int classify_key(const char *key)
{
	switch (key[0]) {
	case 'd':
		return !strcmp(key, "domain") ? RESERVED(domain)
		       : !strcmp(key, "dimension") ? RESERVED(dimension) : -1;
	case 'f':
		return !strcmp(key, "factor") ? RESERVED(factor)
		       : !strcmp(key, "flops") ? RESERVED(flops)
		       : !strcmp(key, "fsdp") ? RESERVED(fsdp) : -1;
	case 'g': return !strcmp(key, "group_id") ? RESERVED(group_id) : -1;
	case 'i': return !strcmp(key, "id") ? RESERVED(id) : -1;
	case 'n':
		return !strcmp(key, "num_dynamic_instances") ? RESERVED(num_dynamic_instances)
		                                             : -1;
	case 'p': return !strcmp(key, "predicate") ? RESERVED(predicate) : -1;
	case 'r': return !strcmp(key, "reduce") ? RESERVED(reduce) : -1;
	default: return -1;
	}
}

/* Fills r; false when i has none of the reserved attributes. */
static bool find_reserved(struct verifier *v, const pl_inst *i, struct reserved *r)
{
	memset(r, 0, sizeof *r);
	bool any = false;
	const struct pl_attr_entry *entries = pl_attrs_v_(&i->attrs);
	for (uint16_t k = 0; k < i->attrs.n; k++) {
		uint32_t key = entries[k].val.key;
		struct key_class *c = &v->keys[key % KEY_SLOTS];
		if (c->key != key) {
			c->key = key;
			c->off = classify_key(pl_key_name_(v->m, key));
		}
		if (c->off < 0)
			continue;
		const pl_attr **slot = (const pl_attr **)(void *)((char *)r + c->off);
		if (!*slot)
			*slot = &entries[k].val; /* the first, as pl_attrs_get finds */
		any = true;
	}
	return any;
}

/* a if it has the kind wanted; reports otherwise. */
static inline const pl_attr *want(struct verifier *v, const pl_inst *i, const pl_attr *a,
                           const char *key, pl_attr_kind kind)
{
	if (__builtin_expect(a && a->kind != kind, 0)) {
		inst_error(v, i, "attribute '%s' must be %s, not %s", key, kind_name(kind),
		           kind_name((pl_attr_kind)a->kind));
		return NULL;
	}
	return a;
}

/* Whether every constraint of pred parses over a domain of rank indices.
 * Predicate lists are interned, so modules repeat the same few: the answer
 * is remembered by the list's address. */
static bool predicate_known_good(struct verifier *v, const pl_attr *pred, size_t rank)
{
	const struct pred_memo *e =
		&v->preds[(((uintptr_t)pl_attr_elems_(pred) >> 4) ^ rank) & (PRED_MEMO_SLOTS - 1)];
	return e->list == pl_attr_elems_(pred) && e->rank == rank;
}

static void remember_good_predicate(struct verifier *v, const pl_attr *pred, size_t rank)
{
	struct pred_memo *e =
		&v->preds[(((uintptr_t)pl_attr_elems_(pred) >> 4) ^ rank) & (PRED_MEMO_SLOTS - 1)];
	e->list = pl_attr_elems_(pred);
	e->rank = rank;
}

/* Whether the domain list dom was found good before in this run (lists
 * are interned, and nothing changes a module while it is verified). */
static inline size_t domain_slot(const pl_attr *dom)
{
	return pl_ht_hash_ptr(pl_attr_elems_(dom)) % DOMAIN_MEMO_SLOTS;
}

static bool domain_known_good(const struct verifier *v, const pl_attr *dom)
{
	return v->domains[domain_slot(dom)] == pl_attr_elems_(dom);
}

static void remember_good_domain(struct verifier *v, const pl_attr *dom)
{
	v->domains[domain_slot(dom)] = pl_attr_elems_(dom);
}

static void check_type_size(struct verifier *v, const pl_inst *i, const pl_type *t,
                            const char *what, size_t k)
{
	if (__builtin_expect(t->bytes <= (uint64_t)INT64_MAX, 1))
		return; /* what pl_type_num_bytes says, without the call */
	uint64_t n;
	if (pl_type_num_bytes(t, &n) != PL_OK) {
		struct pl_strbuf sb = {0};
		pl_print_type_(&sb, t);
		inst_error(v, i, "%s %zu has type %s whose size overflows int64", what, k,
		           sb.data ? sb.data : "?");
		pl_sb_free(&sb);
	}
}

/* Reserved attributes and the domain/predicate pair, of the
 * attributes find_reserved found in i's dictionary. */
static void check_reserved(struct verifier *v, const pl_inst *i, const struct reserved *r)
{
	const pl_attr *a;
	want(v, i, r->group_id, "group_id", PL_ATTR_STRING);
	if ((a = want(v, i, r->factor, "factor", PL_ATTR_INT)) && pl_attr_i_(a) < 1)
		inst_error(v, i, "attribute 'factor' must be at least 1, not %" PRId64, pl_attr_i_(a));
	want(v, i, r->reduce, "reduce", PL_ATTR_STRING);
	if ((a = want(v, i, r->dimension, "dimension", PL_ATTR_INT)) && pl_attr_i_(a) < 0)
		inst_error(v, i, "attribute 'dimension' must not be negative");
	want(v, i, r->id, "id", PL_ATTR_INT);
	want(v, i, r->fsdp, "fsdp", PL_ATTR_BOOL);
	if ((a = want(v, i, r->num_dynamic_instances, "num_dynamic_instances", PL_ATTR_INT)) &&
	    pl_attr_i_(a) < 0)
		inst_error(v, i, "attribute 'num_dynamic_instances' must not be negative");
	if ((a = want(v, i, r->flops, "flops", PL_ATTR_INT)) && pl_attr_i_(a) < 0)
		inst_error(v, i, "attribute 'flops' must not be negative");

	const pl_attr *dom = want(v, i, r->domain, "domain", PL_ATTR_LIST);
	bool dom_ok = dom != NULL;
	uint32_t rank = dom ? pl_attr_len_(dom) : 0;
	if (dom && domain_known_good(v, dom)) {
		/* checked below before, with no error */
	} else if (dom) {
		if (rank > PL_MAX_RANK) {
			inst_error(v, i, "attribute 'domain' has more than %d dimensions", PL_MAX_RANK);
			dom_ok = false;
		}
		const pl_attr *elems = pl_attr_elems_(dom);
		for (uint32_t k = 0; dom_ok && k < rank; k++) {
			const pl_attr *e = &elems[k];
			if (e->kind != PL_ATTR_INT || pl_attr_i_(e) < 0) {
				inst_error(v, i, "attribute 'domain' must list integers >= 0 "
				                 "(element %u is not)", k);
				dom_ok = false;
			}
		}
		/* The product is computed here, not through
		 * pl_inst_num_dynamic_instances: that one returns an explicit
		 * num_dynamic_instances without looking at the domain, so an
		 * overflowing domain next to one went unreported (and
		 * pl_domain_count later failed on it with PL_EOVERFLOW). */
		uint64_t n = 1;
		bool zero = false;
		for (uint32_t k = 0; dom_ok && k < rank; k++)
			zero = zero || pl_attr_i_(&elems[k]) == 0;
		for (uint32_t k = 0; dom_ok && !zero && k < rank; k++) {
			uint64_t d = (uint64_t)pl_attr_i_(&elems[k]);
			if (n > (uint64_t)INT64_MAX / d) {
				inst_error(v, i, "the product of 'domain' overflows int64");
				dom_ok = false;
			} else {
				n *= d;
			}
		}
		if (dom_ok)
			remember_good_domain(v, dom);
	}
	const pl_attr *pred = want(v, i, r->predicate, "predicate", PL_ATTR_LIST);
	if (pred) {
		if (!dom) {
			/* A domain of the wrong kind was reported above; saying
			 * it is missing as well would be wrong. */
			if (!r->domain)
				inst_error(v, i, "attribute 'predicate' needs a 'domain'");
			return;
		}
		if (dom_ok && predicate_known_good(v, pred, rank))
			return;
		int errors = v->errors;
		uint32_t npred = pl_attr_len_(pred);
		for (uint32_t k = 0; k < npred; k++) {
			const pl_attr *s = &pl_attr_elems_(pred)[k];
			if (s->kind != PL_ATTR_STRING) {
				inst_error(v, i, "attribute 'predicate' must list strings "
				                 "(element %u is not)", k);
				continue;
			}
			if (!dom_ok)
				continue;
			pl_constraint *c = NULL;
			size_t col = 0;
			const char *msg = NULL;
			int rc = pl_constraint_parse(pl_attr_s_(s), pl_attr_len_(s), rank, &c, &col, &msg);
			if (rc == PL_EPARSE) {
				/* quoted as the text form writes it: a newline or a
				 * NUL in the constraint stays in one message */
				struct pl_strbuf q = {0};
				pl_print_attr_(&q, s);
				inst_error(v, i, "predicate constraint %u %s, column %zu: %s", k,
				           q.data ? q.data : "\"?\"", col, msg);
				pl_sb_free(&q);
			} else if (rc == PL_ENOMEM)
				inst_error(v, i, "out of memory");
			pl_constraint_free(c);
		}
		if (dom_ok && npred && v->errors == errors)
			remember_good_predicate(v, pred, rank);
	}
}

/* The reserved attributes of i, checked: from the memo when i's dictionary
 * was found good before in this run. The answer is *scratch or a memo
 * entry, valid until the next instruction. */
static const struct reserved *reserved_of(struct verifier *v, const pl_inst *i,
                                          struct reserved *scratch)
{
	static const struct reserved none;
	if (i->attrs.n == 0)
		return &none;
	struct dict_memo *e =
		&v->dicts[(i->attrs.off ^ i->attrs.off >> 8) & (DICT_MEMO_SLOTS - 1)];
	if (e->v == pl_attrs_v_(&i->attrs) && e->n == i->attrs.n)
		return &e->r;
	if (!find_reserved(v, i, scratch))
		return &none;
	int errors = v->errors;
	check_reserved(v, i, scratch);
	if (v->errors != errors)
		return scratch;
	e->v = pl_attrs_v_(&i->attrs);
	e->n = i->attrs.n;
	e->r = *scratch;
	return &e->r;
}

static void type_mismatch(struct verifier *v, const pl_inst *i, size_t k,
                          const pl_type *got, const pl_type *expect_t,
                          const int64_t *dims, size_t rank, pl_dtype dt)
{
	struct pl_strbuf g = {0}, e = {0};
	pl_print_type_(&g, got);
	if (expect_t) {
		pl_print_type_(&e, expect_t);
	} else {
		pl_sb_puts(&e, pl_dtype_name(dt));
		pl_sb_putc(&e, '[');
		for (size_t d = 0; d < rank; d++)
			pl_sb_printf(&e, d ? ",%" PRId64 : "%" PRId64, dims[d]);
		pl_sb_putc(&e, ']');
	}
	inst_error(v, i, "result %zu has type %s, expected %s", k, g.data ? g.data : "?",
	           e.data ? e.data : "?");
	pl_sb_free(&g);
	pl_sb_free(&e);
}

/* The synchronous collective an op is a half of (the op itself for any
 * other). */
static pl_op sync_kind(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER_START:
	case PL_OP_ALL_GATHER_DONE: return PL_OP_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER_START:
	case PL_OP_REDUCE_SCATTER_DONE: return PL_OP_REDUCE_SCATTER;
	case PL_OP_ALL_REDUCE_START:
	case PL_OP_ALL_REDUCE_DONE: return PL_OP_ALL_REDUCE;
	default: return op;
	}
}

/* The start a done pairs with. */
static pl_op start_of_done(pl_op done)
{
	switch (done) {
	case PL_OP_ALL_GATHER_DONE: return PL_OP_ALL_GATHER_START;
	case PL_OP_REDUCE_SCATTER_DONE: return PL_OP_REDUCE_SCATTER_START;
	case PL_OP_ALL_REDUCE_DONE: return PL_OP_ALL_REDUCE_START;
	default: return PL_OP_OTHER;
	}
}

/* Inline for the operand loop, which asks it of every operand. */
static inline bool is_start(unsigned op)
{
	return op == PL_OP_ALL_GATHER_START || op == PL_OP_REDUCE_SCATTER_START ||
	       op == PL_OP_ALL_REDUCE_START;
}

static inline bool is_done(unsigned op)
{
	return op == PL_OP_ALL_GATHER_DONE || op == PL_OP_REDUCE_SCATTER_DONE ||
	       op == PL_OP_ALL_REDUCE_DONE;
}

/* Collective shapes, of a synchronous collective or a start: result k
 * belongs to operand k. */
static void check_collective(struct verifier *v, const pl_inst *i, const struct reserved *r)
{
	if (i->nops == 0) {
		inst_error(v, i, "a collective needs at least one operand");
		return;
	}
	if (i->nres != i->nops) {
		inst_error(v, i, "a collective has one result per operand (%u operand%s, %u result%s)",
		           i->nops, i->nops == 1 ? "" : "s", i->nres, i->nres == 1 ? "" : "s");
		return;
	}
	int64_t factor = 0, dim = 0;
	const pl_attr *fa = r->factor;
	const pl_attr *da = r->dimension;
	if (fa && (fa->kind != PL_ATTR_INT || pl_attr_i_(fa) < 1))
		return; /* reported with the reserved attributes */
	if (da && (da->kind != PL_ATTR_INT || pl_attr_i_(da) < 0))
		return;
	if (fa)
		factor = pl_attr_i_(fa);
	if (da)
		dim = pl_attr_i_(da);
	pl_op kind = sync_kind(pl_inst_op_(i));
	if (da && kind == PL_OP_ALL_REDUCE)
		inst_error(v, i, "attribute 'dimension' does not apply to %s", pl_inst_opname_(i));
	const pl_use *ops = pl_inst_ops_(i);
	const pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nops; k++) {
		const pl_type *ot = pl_use_val_(&ops[k])->type, *rt = res[k].type;
		if (ot->dtype != rt->dtype) {
			inst_error(v, i, "result %u has dtype %s but operand %u has %s", k,
			           pl_dtype_name((pl_dtype)rt->dtype), k,
			           pl_dtype_name((pl_dtype)ot->dtype));
			continue;
		}
		if (!fa)
			continue;
		int64_t dims[PL_MAX_RANK + 1];
		size_t rank = ot->rank;
		memcpy(dims, ot->dims, rank * sizeof *dims);
		if (kind == PL_OP_ALL_REDUCE) {
			if (rt != ot)
				type_mismatch(v, i, k, rt, ot, NULL, 0, PL_DTYPE_INVALID);
			continue;
		}
		if (rank == 0 && kind == PL_OP_ALL_GATHER) {
			if (dim != 0) {
				inst_error(v, i, "'dimension' %" PRId64 " is out of range for a scalar operand",
				           dim);
				continue;
			}
			dims[0] = factor;
			rank = 1;
		} else if ((uint64_t)dim >= rank) {
			inst_error(v, i, "'dimension' %" PRId64 " is out of range for operand %u of rank %zu",
			           dim, k, rank);
			continue;
		} else if (kind == PL_OP_ALL_GATHER) {
			if (dims[dim] > INT64_MAX / factor) {
				inst_error(v, i, "operand %u extent times factor overflows int64", k);
				continue;
			}
			dims[dim] *= factor;
		} else { /* reduce_scatter */
			if (dims[dim] % factor != 0) {
				inst_error(v, i, "operand %u extent %" PRId64 " in dimension %" PRId64
				                 " is not divisible by factor %" PRId64,
				           k, dims[dim], dim, factor);
				continue;
			}
			dims[dim] /= factor;
		}
		bool same = rt->rank == rank;
		for (size_t d = 0; same && d < rank; d++)
			same = rt->dims[d] == dims[d];
		if (!same)
			type_mismatch(v, i, k, rt, NULL, dims, rank, (pl_dtype)ot->dtype);
	}
}

/* ---- asynchronous collectives ---- */

static struct flight_slot *flight_find(const struct flight_table *t, const pl_value *buf)
{
	void *k = pl_ht_ptr_get(&t->index, buf); /* the record's index + 1 */
	return k ? &t->v[(uintptr_t)k - 1] : NULL;
}

static void flight_clear(struct flight_table *t)
{
	pl_ht_clear(&t->index);
	t->n = 0;
}

/* The operands of start s are in flight until done d. */
static void flight_add(struct verifier *v, const pl_inst *s, const pl_inst *d)
{
	struct flight_table *t = &v->flight;
	const pl_use *ops = pl_inst_ops_(s);
	for (uint32_t k = 0; k < s->nops; k++) {
		const pl_value *buf = pl_use_val_(&ops[k]);
		struct flight_slot *e = flight_find(t, buf);
		if (!e) {
			if (!PL_GROW(t->v, t->cap, t->n + 1)) {
				v->oom = true;
				return;
			}
			if (!pl_ht_ptr_put(&t->index, buf, (void *)(uintptr_t)(t->n + 1))) {
				v->oom = true;
				return;
			}
			t->v[t->n++] = (struct flight_slot){s, d};
		} else if (e->done->pos < d->pos) {
			e->start = s;
			e->done = d;
		}
	}
}

/* A store to a buffer that a start before it reads until a done after it. */
static void check_store_in_flight(struct verifier *v, const pl_inst *i)
{
	const pl_use *ops = pl_inst_ops_(i);
	const pl_value *buf = pl_use_val_(&ops[1]);
	const struct flight_slot *e = flight_find(&v->flight, buf);
	if (!e || e->done->pos <= i->pos)
		return;
	const char *nm = buf->name ? buf->name : "<unnamed>";
	if (e->start->line)
		inst_error(v, i, "writes %%%s, an operand of '%s' (line %u), while it is in flight",
		           nm, pl_inst_opname_(e->start), e->start->line);
	else
		inst_error(v, i, "writes %%%s, an operand of '%s', while it is in flight", nm,
		           pl_inst_opname_(e->start));
}

/* The one done in f that takes results of start s: NULL when there is
 * none; *several when there are more. Linear over the results' uses. */
static const pl_inst *done_of(const pl_func *f, const pl_inst *s, bool *several)
{
	const pl_inst *done = NULL;
	const pl_value *res = pl_inst_res_(s);
	*several = false;
	for (uint32_t k = 0; k < s->nres; k++)
		for (const pl_use *u = pl_value_uses_(&res[k]); u; u = pl_use_next_(u)) {
			const pl_inst *d = pl_use_user_(u);
			if (pl_inst_func_(d) != f || !(d->flags & PL_INST_LINKED) || !is_done(pl_inst_op_(d)))
				continue;
			if (!done)
				done = d;
			else if (d != done)
				*several = true;
		}
	return done;
}

/* Puts start s's operands in flight when one done after it takes its
 * results; that done, or NULL (*several when more than one). */
static const pl_inst *start_flight(struct verifier *v, const pl_inst *s, bool *several)
{
	const pl_inst *d = done_of(pl_inst_func_(s), s, several);
	if (d && !*several && d->pos > s->pos)
		flight_add(v, s, d);
	return d;
}

static void check_start(struct verifier *v, const pl_inst *i, const struct reserved *r)
{
	check_collective(v, i, r);
	if (i->nres == 0)
		return; /* no done could take it; reported as a collective */
	bool several;
	const pl_inst *d = start_flight(v, i, &several);
	if (several)
		inst_error(v, i, "its results are taken by more than one done");
	else if (!d)
		inst_error(v, i, "no done in its function takes its results");
}

/* A done takes exactly all results of one start, in order, and gives one
 * value of the same type per operand. */
static void check_done(struct verifier *v, const pl_inst *i)
{
	const pl_use *ops = pl_inst_ops_(i);
	if (i->nops == 0) {
		inst_error(v, i, "a done takes all results of one start (no operands)");
		return;
	}
	const pl_value *v0 = pl_use_val_(&ops[0]);
	const pl_inst *s = pl_value_def_(v0);
	const char *nm0 = v0->name ? v0->name : "<unnamed>";
	if (!s || !is_start(pl_inst_op_(s))) {
		inst_error(v, i, "operand 0 (%%%s) is not a result of a collective start", nm0);
		return;
	}
	for (uint32_t k = 1; k < i->nops; k++) {
		const pl_value *vk = pl_use_val_(&ops[k]);
		if (pl_value_def_(vk) != s) {
			const char *nm = vk->name ? vk->name : "<unnamed>";
			inst_error(v, i, "operand %u (%%%s) is not a result of the start of "
			                 "operand 0 (%%%s)", k, nm, nm0);
			return;
		}
	}
	pl_op want_start = start_of_done(pl_inst_op_(i));
	if (pl_inst_op_(s) != want_start)
		inst_error(v, i, "takes the results of '%s', not of '%s'", pl_inst_opname_(s),
		           pl_op_name(want_start));
	if (i->nops != s->nres) {
		inst_error(v, i, "has %u operand%s but its start has %u result%s; a done takes "
		                 "all of them, in order", i->nops, i->nops == 1 ? "" : "s", s->nres,
		           s->nres == 1 ? "" : "s");
		return;
	}
	const pl_value *sres = pl_inst_res_(s);
	for (uint32_t k = 0; k < i->nops; k++) {
		const pl_value *vk = pl_use_val_(&ops[k]);
		if (vk != &sres[k]) {
			const char *nm = vk->name ? vk->name : "<unnamed>";
			inst_error(v, i, "operand %u (%%%s) is result %zu of its start; a done "
			                 "takes all of them, in order", k, nm, (size_t)(vk - sres));
			return;
		}
	}
	if (i->nres != i->nops) {
		inst_error(v, i, "a done has one result per operand (%u operand%s, %u result%s)",
		           i->nops, i->nops == 1 ? "" : "s", i->nres, i->nres == 1 ? "" : "s");
		return;
	}
	const pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nres; k++) {
		const pl_type *t = pl_use_val_(&ops[k])->type;
		if (res[k].type && res[k].type != t)
			type_mismatch(v, i, k, res[k].type, t, NULL, 0, PL_DTYPE_INVALID);
	}
}

/* Operand and result counts of the ops the SDK knows. */
static void check_arity(struct verifier *v, const pl_inst *i, const struct reserved *r)
{
	unsigned t = i->op < PL_OP__COUNT ? v->traits[i->op] : 0; /* pl_op_traits */
	if (t & PL_TRAIT_COLLECTIVE) {
		check_collective(v, i, r);
	} else if (t & PL_TRAIT_COLLECTIVE_START) {
		check_start(v, i, r);
	} else if (t & PL_TRAIT_COLLECTIVE_DONE) {
		check_done(v, i);
	} else if (t & PL_TRAIT_STORE) {
		if (i->nops < 2)
			inst_error(v, i, "a store needs the stored value and the buffer "
			                 "(%u operand%s)", i->nops, i->nops == 1 ? "" : "s");
		else if (v->flight.index.count)
			check_store_in_flight(v, i);
		if (i->nres)
			inst_error(v, i, "a store has no results");
	} else if (t & PL_TRAIT_LOAD) {
		if (i->nres != 1)
			inst_error(v, i, "a load has exactly one result (%u)", i->nres);
	} else if (i->op == PL_OP_PACK) {
		if (i->nres != 1 || i->nops < 1)
			inst_error(v, i, "pack takes at least one operand and has one result");
	} else if (i->op == PL_OP_UNPACK) {
		if (i->nops != 1 || i->nres < 1)
			inst_error(v, i, "unpack takes one operand and has at least one result");
	} else if (i->op == PL_OP_RETURN) {
		if (i->nres)
			inst_error(v, i, "return has no results");
		if (i->next)
			inst_error(v, i, "return must be the last instruction of its function");
	}
}

/* What is checked once per function, before its instructions. */
static void check_func_head(struct verifier *v, pl_func *f)
{
	flight_clear(&v->flight);
	for (size_t k = 0; k < f->nargs; k++) {
		uint64_t n;
		if (pl_type_num_bytes(f->args[k]->v.type, &n) != PL_OK)
			func_error(v, f, "argument %zu has a type whose size overflows int64", k);
	}
	const pl_attr *a;
	if ((a = pl_attrs_get(&f->attrs, "has_copy")) && a->kind != PL_ATTR_BOOL)
		func_error(v, f, "attribute 'has_copy' must be a boolean");
	if ((a = pl_attrs_get(&f->attrs, "has_reduce")) && a->kind != PL_ATTR_BOOL)
		func_error(v, f, "attribute 'has_reduce' must be a boolean");
}

/* Whether every operand of i is a value of f defined before i; reports
 * each that is not (and a value in flight used by other than its done,
 * which leaves the operands good). Inline: the walk over every
 * instruction calls it. */
static inline __attribute__((always_inline)) bool
check_operands(struct verifier *v, const pl_func *f, const pl_inst *i)
{
	const pl_use *ops = pl_inst_ops_(i);
	bool ops_ok = true, done = is_done(pl_inst_op_(i));
	for (uint32_t k = 0; k < i->nops; k++) {
		const pl_value *val = pl_use_val_(&ops[k]);
		if (!val) {
			inst_error(v, i, "operand %u is missing", k);
			ops_ok = false;
			continue;
		}
		/* pl_value_func, inline */
		const pl_inst *d = pl_value_def_(val);
		const pl_func *vf = d ? pl_inst_func_(d) : ((const struct pl_arg *)(const void *)val)->func;
		if (vf == f && (!d || ((d->flags & (PL_INST_ERASED | PL_INST_LINKED)) ==
		                           PL_INST_LINKED &&
		                       d->pos < i->pos && (done || !is_start(pl_inst_op_(d))))))
			continue; /* the usual case: none of the reports below */
		const char *nm = val->name ? val->name : "<unnamed>";
		if (vf != f) {
			inst_error(v, i, "operand %u (%%%s) belongs to another function", k, nm);
			ops_ok = false;
		} else if (d) {
			if (d->flags & PL_INST_ERASED) {
				inst_error(v, i, "operand %u (%%%s) was defined by an erased "
				                 "instruction", k, nm);
				ops_ok = false;
			} else if (!(d->flags & PL_INST_LINKED)) {
				inst_error(v, i, "operand %u (%%%s) is defined by an instruction "
				                 "that is not in the function", k, nm);
				ops_ok = false;
			} else if (d->pos >= i->pos) {
				inst_error(v, i, "operand %u (%%%s) is used before its definition",
				           k, nm);
				ops_ok = false;
			} else if (is_start(pl_inst_op_(d)) && !is_done(pl_inst_op_(i))) {
				inst_error(v, i, "operand %u (%%%s) is in flight: only the done "
				                 "of its start may use it", k, nm);
			}
		}
	}
	return ops_ok;
}

static void check_inst(struct verifier *v, const pl_func *f, const pl_inst *i)
{
	bool ops_ok = check_operands(v, f, i);
	const pl_value *res = pl_inst_res_(i);
	for (uint32_t k = 0; k < i->nres; k++) {
		if (!res[k].type)
			inst_error(v, i, "result %u has no type", k);
		else
			check_type_size(v, i, res[k].type, "result", k);
	}
	struct reserved scratch;
	const struct reserved *r = reserved_of(v, i, &scratch);
	if (ops_ok)
		check_arity(v, i, r);
}

static int cmp_func_name(const void *a, const void *b)
{
	const pl_func *x = *(const pl_func *const *)a, *y = *(const pl_func *const *)b;
	return strcmp(x->name, y->name);
}

/* Function names are unique by construction (pl_func_new refuses a
 * duplicate, so does the reader); checked anyway, by sorting. */
static int check_func_names(struct verifier *v)
{
	pl_module *m = v->m;
	if (m->nfuncs < 2)
		return PL_OK;
	pl_func **sorted = malloc(m->nfuncs * sizeof *sorted);
	if (!sorted)
		return PL_ENOMEM;
	memcpy(sorted, m->funcs, m->nfuncs * sizeof *sorted);
	qsort(sorted, m->nfuncs, sizeof *sorted, cmp_func_name);
	for (size_t k = 1; k < m->nfuncs; k++)
		if (strcmp(sorted[k - 1]->name, sorted[k]->name) == 0)
			func_error(v, sorted[k], "a function of this name exists already");
	free(sorted);
	return PL_OK;
}

int pl_verify_module(pl_module *m, pl_diags *diags)
{
	return pl_verify_module_threads(m, diags, 1);
}

/* What one thread checks, into its own messages: the instructions whose
 * index in the module (functions in order, each in its order) lies in
 * [from, to), and the heads of the functions that begin there. A part may
 * begin inside a function: it then steps over the instructions before,
 * putting in flight what their starts put in flight, as the walk of the
 * part before would have. */
struct verify_part {
	struct verifier v;
	size_t from, to; /* to: SIZE_MAX for the last part */
	pthread_t thread;
	bool started;
};

static void *verify_part(void *arg)
{
	struct verify_part *part = arg;
	struct verifier *v = &part->v;
	const pl_module *m = v->m;
	size_t at = 0; /* the index of function k's first instruction */
	for (size_t k = 0; k < m->nfuncs && at < part->to; at += m->funcs[k++]->ninsts) {
		pl_func *f = m->funcs[k];
		if (at < part->from && at + f->ninsts <= part->from)
			continue; /* all in the parts before */
		const pl_inst *i = f->first;
		size_t begin = at < part->from ? part->from : at;
		if (begin == at) {
			check_func_head(v, f);
		} else {
			/* as check_inst does through check_arity and check_start */
			flight_clear(&v->flight);
			v->quiet = true;
			for (size_t n = begin - at; i && n; n--, i = pl_inst_next_(i)) {
				bool several;
				if (is_start(pl_inst_op_(i)) && i->nres && check_operands(v, f, i))
					start_flight(v, i, &several);
			}
			v->quiet = false;
		}
		/* a function that ends in the part is checked to its end */
		size_t left = at + f->ninsts <= part->to ? SIZE_MAX : part->to - begin;
		for (; i && left; left--, i = pl_inst_next_(i))
			check_inst(v, f, i);
	}
	return NULL;
}

enum { VERIFY_MAX_THREADS = 16, VERIFY_MIN_INSTS_PER_THREAD = 50000 };

int pl_verify_module_threads(pl_module *m, pl_diags *diags, unsigned threads)
{
	struct verifier head;
	memset(&head, 0, sizeof head);
	head.m = m;
	head.diags = diags;
	if (check_func_names(&head) != PL_OK)
		return PL_ENOMEM;
	size_t n = threads < 1 ? 1 : threads > VERIFY_MAX_THREADS ? VERIFY_MAX_THREADS : threads;
	if (n > 1 && m->ninsts / n < VERIFY_MIN_INSTS_PER_THREAD)
		n = m->ninsts / VERIFY_MIN_INSTS_PER_THREAD > 1 ? m->ninsts / VERIFY_MIN_INSTS_PER_THREAD
		                                                : 1;
	struct verify_part *parts = calloc(n, sizeof *parts);
	if (!parts)
		return PL_ENOMEM;
	/* runs of about the same number of instructions, inside a function or
	 * across several; the messages are then gathered in part order, as
	 * one thread would have written them */
	size_t total = 0;
	for (size_t k = 0; k < m->nfuncs; k++)
		total += m->funcs[k]->ninsts;
	for (size_t t = 0; t < n; t++) {
		parts[t].v.m = m;
		for (unsigned op = 0; op < PL_OP__COUNT; op++)
			parts[t].v.traits[op] = pl_op_traits((pl_op)op);
		parts[t].from = total / n * t;
		parts[t].to = t == n - 1 ? SIZE_MAX : total / n * (t + 1);
	}
	int rc = PL_OK;
	parts[0].v.diags = diags;
	for (size_t t = 1; t < n; t++) {
		parts[t].v.diags = pl_diags_new();
		if (!parts[t].v.diags) {
			rc = PL_ENOMEM;
			break;
		}
		parts[t].started = pthread_create(&parts[t].thread, NULL, verify_part, &parts[t]) == 0;
		if (!parts[t].started)
			verify_part(&parts[t]);
	}
	if (rc == PL_OK)
		verify_part(&parts[0]);
	int errors = head.errors + parts[0].v.errors;
	for (size_t t = 1; t < n; t++) {
		if (parts[t].started)
			pthread_join(parts[t].thread, NULL);
		pl_diags *d = parts[t].v.diags;
		if (!d)
			continue;
		errors += parts[t].v.errors;
		for (size_t i = 0; i < pl_diags_count(d); i++)
			pl_diags_add(diags, pl_diags_severity(d, i), pl_diags_file(d, i),
			             pl_diags_line(d, i), pl_diags_col(d, i), "%s",
			             pl_diags_message(d, i));
		pl_diags_free(d);
	}
	for (size_t t = 0; t < n; t++) {
		if (parts[t].v.oom)
			rc = PL_ENOMEM;
		free(parts[t].v.flight.v);
		pl_ht_free(&parts[t].v.flight.index);
	}
	free(parts);
	if (rc != PL_OK)
		return rc;
	return errors ? PL_EVERIFY : PL_OK;
}
