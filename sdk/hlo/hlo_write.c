/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_write.c — the XLA HLO text writer.
 *
 * Prints what the HLO reader kept (the header, every hlo_* attribute, the
 * recorded shapes) and rebuilds what it turned into aliasing: parameters
 * from arguments, tuple and get-tuple-element where an operand or the
 * root is (part of) a tuple (a tuple line the reader recorded comes back
 * under its name right after the line it followed), start/done pairs,
 * and reducer computations a new collective needs. A recorded shape is used only while it still fits
 * the IR's types; otherwise the shape is printed from the types. The text
 * is in the form XLA prints a module in: names after '%', each operand
 * after the shape of its line, each computation's heading with its
 * signature. Last, each line of that text that the IR still says the
 * same of as when it was read is put back as it was read (hlo_kept.c).
 */
#include "hlo/hlo.h"
#include "hlo/hlo_kept.h"
#include "hlo/hlo_shape.h"
#include <passline/hash_table.h>
#include <passline/grow.h>

#include <passline/text.h>

#include <stdlib.h>

/* Something with an HLO name whose leaves are IR values: a parameter or
 * an instruction. */
struct ent {
	const char *name;
	struct pl_hlo_shapes *tree; /* NULL: one array */
	uint32_t leaf0;     /* for a parameter: its first argument */
	uint32_t nleaves;
	pl_inst *inst;
	bool printed;
};

/* print_function's scratch for the function being printed. */
struct fn_scratch {
	const pl_attrs *fa;       /* the function's attributes */
	const pl_attr *pa;        /* hlo_param_attrs */
	bool grouped;             /* parameters grouped as recorded */
	size_t nparams;           /* entities [0, nparams) are parameters */
	pl_inst *ret;             /* the return */
	size_t nret;
	pl_value **rv;            /* its operands */
	const pl_type **rt;       /* and their types */
	struct pl_hlo_shapes *rtree; /* the root's shape; NULL: from the types */
	struct ent *root_ent;     /* the entity that is the root, if one is */
	size_t lines_at;          /* where the function's lines start in out */
	size_t root, last;        /* the shapes (+1) of the ROOT line, the last */
};

/* Where a line's shape is kept, in hw.shapes. */
struct span {
	size_t at, len;
};

struct hw {
	pl_module *m;
	pl_diags *diags;
	int status;
	struct pl_strbuf out, line, tmp, tmp2;
	struct pl_strbuf body; /* the computations, printed before the heading */
	struct pl_strbuf ops; /* print_inst's operand text */
	pl_value **vals;      /* print_inst's operands */
	size_t nvals;
	/* the function being printed */
	pl_func *f;
	struct ent *ents;
	size_t nents, ecap;
	uint32_t *arg_ent; /* argument -> entity */
	/* instruction -> entity index, a map by address */
	struct pl_ht imap;
	/* names made (owned, kept to the end), the set of those in use in
	 * the function, and the set of every name the module keeps or the
	 * writer made, so that a made name is new in the whole module */
	char **names;
	size_t nnames, ncap;
	struct pl_ht name_set;
	struct pl_ht module_names;
	/* get-tuple-element and tuple lines already made: their keys
	 * ("entity#path", owned) and a map from key to the line's name */
	char **gte_keys;
	size_t ngtes, gcap;
	struct pl_ht gte_index;
	unsigned serial; /* the last "get-tuple-element.N" or "tuple.N" made */
	/* the kept attributes of the alias operand being rebuilt by name */
	const char *want_attrs;
	size_t want_attrs_len;
	/* and the shape of that get-tuple-element line, where its layout is
	 * not its element's (hlo_operand_shapes) */
	const char *want_shape;
	size_t want_shape_len;
	const pl_attr *param_attrs; /* hlo_param_attrs when the grouping fits */
	/* group_ids warned about: written as all devices */
	char **warned;
	size_t nwarned, wcap;
	/* reducers made for new collectives: "kind.dtype" */
	char **reducers;
	size_t nreducers, rcap;
	/* the operand structures (hlo_operands) of the function's
	 * instructions, each parsed once: owned in ptrees, found by
	 * instruction in ops_index (NO_OPERANDS when none fits) */
	struct pl_hlo_shapes **ptrees;
	size_t nptrees, ptcap;
	struct pl_ht ops_index;
	struct fn_scratch fn;
	/* the instruction whose operands are being written: its
	 * hlo_label_attrs hold the attributes of their named parts */
	pl_inst *label_inst;
	/* the collectives passes make asynchronous are written as XLA:GPU
	 * writes them: "async-start(...), calls=%c" over a computation of the
	 * collective, and "async-done" (else "all-gather-start" and so on):
	 * hlo_async_wrapped on the entry */
	bool async_wrapped;
	/* the computations wrapping the function's new async collectives,
	 * written before the function */
	struct pl_strbuf wrapped;
	/* the shape of each line of the function, by its name (a pointer
	 * take_name gave), for the operands that name it: span index + 1 */
	struct pl_strbuf shapes;
	struct span *spans;
	size_t nspans, spcap;
	struct pl_ht shape_of;
};

static void set_err(struct hw *w, int st)
{
	if (w->status == PL_OK)
		w->status = st;
}

static PL_PRINTF(3, 4) void inst_error(struct hw *w, const pl_inst *i, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	const char *nm = pl_inst_num_results(i) ? pl_value_name(pl_inst_result(i, 0)) : NULL;
	pl_diags_add(w->diags, PL_SEV_ERROR, pl_module_source_name(w->m), pl_inst_line(i),
	             pl_inst_col(i), "in @%s, %s%s%s'%s' cannot be written as XLA HLO: %s",
	             pl_func_name(pl_inst_func(i)), nm ? "%" : "", nm ? nm : "", nm ? " = " : "",
	             pl_inst_opname(i), buf);
	set_err(w, PL_EINVAL);
}

/* ---- recorded shapes ---- */

static bool is_dig(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_dig(c) || c == '_' ||
	       c == '.' || c == '-';
}

static void free_tree(struct pl_hlo_shapes *t)
{
	if (t)
		pl_hlo_shapes_free_(t);
	free(t);
}

/* The tree of a kept shape text, the whole of it; NULL (nothing kept)
 * when it is none. */
static struct pl_hlo_shapes *parse_tree(struct hw *w, const char *s, size_t len)
{
	struct pl_hlo_shapes *t = calloc(1, sizeof *t);
	struct pl_hlo_shape_err err;
	uint32_t root;
	const char *p = s, *e = s + len;
	int st = t ? pl_hlo_shape_parse_(t, &p, e, 0, &root, &err) : PL_ENOMEM;
	if (st == PL_OK && pl_hlo_shape_skip_(p, e) != e)
		st = PL_EINVAL; /* more than a shape */
	if (st == PL_ENOMEM)
		set_err(w, PL_ENOMEM);
	if (st != PL_OK) {
		free_tree(t);
		return NULL;
	}
	return t;
}

/* The recorded shape under key of attributes d, when it fits the n types;
 * NULL (and nothing kept) otherwise. */
static struct pl_hlo_shapes *fitting_shape(struct hw *w, const pl_attrs *d, const char *key,
                                           const pl_type *const *types, size_t n)
{
	size_t len;
	const char *s;
	if (pl_attrs_get_string(d, key, &s, &len) != PL_OK)
		return NULL;
	struct pl_hlo_shapes *t = parse_tree(w, s, len);
	if (t && !pl_hlo_shape_fits_(t, 0, types, n)) {
		free_tree(t);
		return NULL;
	}
	return t;
}

static void put_tree(struct pl_strbuf *sb, const struct pl_hlo_shapes *t, uint32_t idx)
{
	pl_hlo_shape_put_(sb, t, idx);
}

/* Structure s at idx with the arrays' shapes where recorded and still
 * fitting, else from the types of the values v. */
static void put_shape_vals(struct pl_strbuf *sb, const struct pl_hlo_shapes *s, uint32_t idx,
                           pl_value *const *v)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	if (!n->tuple) {
		if (pl_hlo_array_fits_(s, idx, pl_value_type(v[0])))
			put_tree(sb, s, idx);
		else
			pl_hlo_put_type_(sb, pl_value_type(v[0]));
		return;
	}
	pl_sb_putc(sb, '(');
	uint32_t c = idx + 1, off = 0;
	for (size_t i = 0; c < idx + n->size; i++) {
		pl_hlo_put_sep_(sb, i);
		put_shape_vals(sb, s, c, v + off);
		off += s->v[c].nleaves;
		c += s->v[c].size;
	}
	pl_sb_putc(sb, ')');
}

/* ---- names ---- */

struct text_ref {
	const char *s;
	size_t len;
};

static bool same_text(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	const struct text_ref *r = probe;
	const char *n = item;
	return strncmp(n, r->s, r->len) == 0 && n[r->len] == '\0';
}

static uint32_t text_hash(const char *s, size_t len)
{
	return (uint32_t)pl_hash_bytes_(s, len);
}

static bool name_in(struct pl_ht *set, const char *s, size_t len)
{
	struct text_ref r = {s, len};
	return pl_ht_get(set, text_hash(s, len), same_text, &r, NULL) != NULL;
}

static bool name_used(struct hw *w, const char *s, size_t len)
{
	return name_in(&w->name_set, s, len);
}

/* Adds name (NUL-terminated, outliving the set) to set; false when out
 * of memory. */
static bool name_add(struct pl_ht *set, const char *name, size_t len)
{
	if (!pl_ht_reserve(set))
		return false;
	struct text_ref r = {name, len};
	uint32_t h = text_hash(name, len);
	size_t j = pl_ht_find(set, h, same_text, &r, NULL);
	if (!pl_ht_used(set, j))
		pl_ht_put(set, j, h, name);
	return true;
}

static void seed_list(struct hw *w, const pl_attr *list)
{
	if (!list || pl_attr_get_kind(list) != PL_ATTR_LIST)
		return;
	for (size_t k = 0; k < pl_attr_list_size(list); k++) {
		size_t len;
		const char *n = pl_attr_get_string(pl_attr_list_at(list, k), &len);
		if (n && len && !name_add(&w->module_names, n, len))
			set_err(w, PL_ENOMEM);
	}
}

/* Every name the module's lines keep: the values' and those the reader
 * kept of lines that have no value of their own. A name the writer makes
 * is none of them, in any computation. */
static void seed_module_names(struct hw *w)
{
	size_t nf = pl_module_num_funcs(w->m);
	for (size_t k = 0; k < nf && w->status == PL_OK; k++) {
		pl_func *f = pl_module_func_at(w->m, k);
		for (size_t a = 0; a < pl_func_num_args(f); a++) {
			const char *n = pl_value_name(pl_func_arg(f, a));
			if (n && !name_add(&w->module_names, n, strlen(n)))
				set_err(w, PL_ENOMEM);
		}
		seed_list(w, pl_attrs_get(pl_func_attrs(f), HK(PARAM_NAMES)));
		for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
			const pl_attrs *at = pl_inst_attrs_const(i);
			for (size_t r = 0; r < pl_inst_num_results(i); r++) {
				const char *n = pl_value_name(pl_inst_result(i, r));
				if (n && !name_add(&w->module_names, n, strlen(n)))
					set_err(w, PL_ENOMEM);
			}
			const char *n;
			size_t len;
			if (pl_attrs_get_string(at, HK(NAME), &n, &len) == PL_OK && len &&
			    !name_add(&w->module_names, n, len))
				set_err(w, PL_ENOMEM);
			seed_list(w, pl_attrs_get(at, HK(OPERAND_NAMES)));
			seed_list(w, pl_attrs_get(at, HK(ASYNC_UPDATES)));
		}
	}
}

/* A name of the function's own: base (up to '$'), made a valid HLO name
 * and unique with ".N". A name the module keeps is taken as it is where
 * the function has not used it yet; a made one (made, or base with ".N")
 * is also new in the module. */
static const char *take_name(struct hw *w, const char *base, bool made)
{
	struct pl_strbuf *sb = &w->tmp;
	sb->len = 0;
	size_t n = strcspn(base ? base : "", "$");
	if (!n || !((base[0] >= 'a' && base[0] <= 'z') || (base[0] >= 'A' && base[0] <= 'Z') ||
	            base[0] == '_'))
		pl_sb_puts(sb, "v");
	/* runs of name characters as they are, any other one as '_' */
	for (size_t i = 0; i < n;) {
		size_t run = i;
		while (run < n && is_name_char(base[run]))
			run++;
		pl_sb_put(sb, base + i, run - i);
		if (run < n) {
			pl_sb_putc(sb, '_');
			run++;
		}
		i = run;
	}
	size_t stem = sb->len;
	for (unsigned k = 1;
	     !sb->failed && (name_used(w, sb->data, sb->len) ||
	                     ((made || k > 1) && name_in(&w->module_names, sb->data, sb->len)));
	     k++) {
		sb->len = stem;
		pl_sb_printf(sb, ".%u", k);
	}
	if (sb->failed) {
		set_err(w, PL_ENOMEM);
		return "x";
	}
	char *copy = malloc(sb->len + 1);
	if (!copy || !PL_GROW(w->names, w->ncap, w->nnames + 1) || !pl_ht_reserve(&w->name_set) ||
	    !pl_ht_reserve(&w->module_names)) {
		free(copy);
		set_err(w, PL_ENOMEM);
		return "x";
	}
	memcpy(copy, sb->data, sb->len);
	copy[sb->len] = 0;
	w->names[w->nnames++] = copy;
	/* cannot fail: room was reserved */
	name_add(&w->name_set, copy, sb->len);
	name_add(&w->module_names, copy, sb->len);
	return copy;
}

/* A made name "stem.N", N the module's next number that gives a new name
 * (XLA numbers the lines it makes so, across the module). */
static const char *take_serial(struct hw *w, const char *stem)
{
	char base[64];
	size_t len;
	do {
		len = (size_t)snprintf(base, sizeof base, "%s.%u", stem, ++w->serial);
	} while (name_used(w, base, len) || name_in(&w->module_names, base, len));
	return take_name(w, base, true);
}

/* ---- lines already made, by key ---- */

/* The name of the line made under key (NUL-terminated), or NULL. */
static const char *gte_lookup(struct hw *w, const struct pl_strbuf *key)
{
	struct text_ref r = {key->data, key->len - 1};
	if (!w->gte_index.count)
		return NULL;
	size_t j = pl_ht_find(&w->gte_index, text_hash(r.s, r.len), same_text, &r, NULL);
	return pl_ht_used(&w->gte_index, j) ? w->gte_index.vals[j] : NULL;
}

/* Remembers name under key, whose text w takes over; returns name. */
static const char *gte_remember(struct hw *w, struct pl_strbuf *key, const char *name)
{
	if (!PL_GROW(w->gte_keys, w->gcap, w->ngtes + 1))
		goto nomem;
	if (!pl_ht_reserve(&w->gte_index))
		goto nomem;
	struct text_ref r = {key->data, key->len - 1};
	uint32_t h = text_hash(r.s, r.len);
	size_t j = pl_ht_find(&w->gte_index, h, same_text, &r, NULL);
	pl_ht_put(&w->gte_index, j, h, key->data);
	w->gte_index.vals[j] = (void *)name;
	w->gte_keys[w->ngtes++] = key->data;
	return name;
nomem:
	set_err(w, PL_ENOMEM);
	pl_sb_free(key);
	return name;
}

/* ---- entities ---- */

/* The entity of instruction i, or UINT32_MAX. */
static uint32_t imap_find(const struct hw *w, const pl_inst *i)
{
	if (!w->imap.count)
		return UINT32_MAX;
	size_t j = pl_ht_find(&w->imap, pl_ht_hash_ptr(i), pl_ht_same_ptr, i, NULL);
	return pl_ht_used(&w->imap, j) ? (uint32_t)(uintptr_t)w->imap.vals[j] : UINT32_MAX;
}

/* Maps instruction i (not in the map yet) to entity v. */
static void imap_put(struct hw *w, const pl_inst *i, uint32_t v)
{
	if (!pl_ht_reserve(&w->imap)) {
		set_err(w, PL_ENOMEM);
		return;
	}
	uint32_t h = pl_ht_hash_ptr(i);
	size_t j = pl_ht_find(&w->imap, h, pl_ht_same_ptr, i, NULL);
	pl_ht_put(&w->imap, j, h, i);
	w->imap.vals[j] = (void *)(uintptr_t)v;
}

static struct ent *new_ent(struct hw *w)
{
	if (!PL_GROW(w->ents, w->ecap, w->nents + 1)) {
		set_err(w, PL_ENOMEM);
		return NULL;
	}
	struct ent *e = &w->ents[w->nents++];
	memset(e, 0, sizeof *e);
	return e;
}

/* The entity and leaf of a value. */
static struct ent *ent_of(struct hw *w, const pl_value *v, uint32_t *leaf)
{
	if (pl_value_is_arg(v)) {
		uint32_t e = w->arg_ent[pl_value_index(v)];
		*leaf = (uint32_t)pl_value_index(v) - w->ents[e].leaf0;
		return &w->ents[e];
	}
	uint32_t e = imap_find(w, pl_value_def(v));
	*leaf = (uint32_t)pl_value_index(v);
	return e == UINT32_MAX ? NULL : &w->ents[e];
}

static void put_ent_shape(struct hw *w, struct pl_strbuf *sb, const struct ent *e);

static const char *op_text(struct hw *w, pl_inst *i, bool *generic_async);

/* ---- operands ---- */

static void emit_line(struct hw *w, const struct pl_strbuf *l)
{
	pl_sb_puts(&w->out, "  ");
	pl_sb_put(&w->out, l->data, l->len);
	pl_sb_putc(&w->out, '\n');
}

/* Starts line l (emptied) as XLA prints one: "[ROOT ]%NAME = ", the
 * shape next. */
static void line_head(struct pl_strbuf *l, bool root, const char *name)
{
	l->len = 0;
	pl_sb_puts(l, root ? "ROOT %" : "%");
	pl_sb_puts(l, name);
	pl_sb_puts(l, " = ");
}

/* NAME's line has shape s: an operand naming it is written after it, and
 * the root's is the signature's result. */
static void def_shape(struct hw *w, const char *name, bool root, const char *s, size_t len)
{
	if (!PL_GROW(w->spans, w->spcap, w->nspans + 1)) {
		set_err(w, PL_ENOMEM);
		return;
	}
	w->spans[w->nspans++] = (struct span){w->shapes.len, len};
	pl_sb_put(&w->shapes, s, len);
	if (w->shapes.failed || !pl_ht_ptr_put(&w->shape_of, name, (void *)(uintptr_t)w->nspans))
		set_err(w, PL_ENOMEM);
	w->fn.last = w->nspans;
	if (root)
		w->fn.root = w->nspans;
}

/* def_shape of the line l that line_head started and a shape follows. */
static void line_shape(struct hw *w, const struct pl_strbuf *l, const char *name, bool root)
{
	size_t at = (root ? 6 : 1) + strlen(name) + 3;
	if (!l->failed)
		def_shape(w, name, root, l->data + at, l->len - at);
}

/* Operand k of a line (XLA marks every fifth with its index): "SHAPE
 * %NAME", SHAPE that of NAME's line. */
static void put_operand(struct hw *w, struct pl_strbuf *l, size_t k, const char *name)
{
	pl_hlo_put_sep_(l, k);
	uintptr_t s = (uintptr_t)pl_ht_ptr_get(&w->shape_of, name);
	if (s) {
		pl_sb_put(l, w->shapes.data + w->spans[s - 1].at, w->spans[s - 1].len);
		pl_sb_putc(l, ' ');
	}
	pl_sb_putc(l, '%');
	pl_sb_puts(l, name);
}

/* Shape text s without its layouts (each "{...}" right after an
 * array's ']'), as a signature has it. */
static void put_bare(struct pl_strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '{' && i && s[i - 1] == ']') {
			for (int depth = 0; i < len; i++)
				if (!(depth += (s[i] == '{') - (s[i] == '}')))
					break;
			continue;
		}
		pl_sb_putc(sb, s[i]);
	}
}

/* The name of the node of entity e at leaf range [leaf, leaf+n) whose
 * structure is the tree s at sidx; a get-tuple-element is made when it is
 * inside e. NULL when no node of e is that range. */
static const char *ent_node_ref(struct hw *w, struct ent *e, uint32_t leaf, uint32_t n,
                                const struct pl_hlo_shapes *s, uint32_t sidx, const char *want);

static bool same_structure(const struct pl_hlo_shapes *a, uint32_t ai, const struct pl_hlo_shapes *b, uint32_t bi)
{
	bool at = a ? a->v[ai].tuple : false, bt = b ? b->v[bi].tuple : false;
	if (at != bt)
		return false;
	if (!at)
		return true;
	if (a->v[ai].size != b->v[bi].size)
		return false;
	for (uint32_t k = 1; k < a->v[ai].size; k++)
		if (a->v[ai + k].tuple != b->v[bi + k].tuple || a->v[ai + k].size != b->v[bi + k].size)
			return false;
	return true;
}

/* Whether array nodes a and b have one element type and the same
 * extents (their layouts may differ). */
static bool same_array(const struct pl_hlo_shapes *a, uint32_t ai, const struct pl_hlo_shapes *b,
                       uint32_t bi)
{
	const struct pl_hlo_snode *x = &a->v[ai], *y = &b->v[bi];
	if (x->tuple || y->tuple || x->any || y->any || x->dtype != y->dtype ||
	    x->rank != y->rank || x->bounded != y->bounded || x->unbounded != y->unbounded)
		return false;
	for (unsigned k = 0; k < x->rank; k++)
		if (a->dims[x->dims + k] != b->dims[y->dims + k])
			return false;
	return true;
}

static const char *gte_name(struct hw *w, struct ent *e, const uint32_t *path, size_t depth,
                            uint32_t node, const char *want)
{
	/* the key: entity name and path */
	struct pl_strbuf key = {0};
	pl_sb_puts(&key, e->name);
	for (size_t k = 0; k < depth; k++) {
		pl_sb_putc(&key, '#');
		pl_hlo_put_u64_(&key, path[k]);
	}
	/* a name the reader kept makes a line of its own */
	if (want)
		pl_sb_printf(&key, "@%s", want);
	if (key.failed) {
		set_err(w, PL_ENOMEM);
		pl_sb_free(&key);
		return "x";
	}
	pl_sb_putc(&key, 0);
	const char *made = gte_lookup(w, &key);
	if (made) {
		pl_sb_free(&key);
		return made;
	}
	const char *parent = depth == 1 ? e->name : gte_name(w, e, path, depth - 1, 0, NULL);
	(void)node; /* the node is found again from the path below */
	/* a made one is named as XLA's parser names the line "%t#1" stands
	 * for: "t_1" (the reader knows that name for a made one) */
	const char *name;
	if (want) {
		name = take_name(w, want, false);
	} else {
		struct pl_strbuf b = {0};
		pl_sb_printf(&b, "%s_%u", parent, path[depth - 1]);
		if (b.failed)
			set_err(w, PL_ENOMEM);
		name = b.failed ? "x" : take_name(w, b.data, true);
		pl_sb_free(&b);
	}
	struct pl_strbuf l = {0};
	line_head(&l, false, name);
	/* find the node from the path */
	uint32_t idx = 0;
	for (size_t k = 0; k < depth; k++) {
		uint32_t leaf = 0, c = pl_hlo_shape_child_(e->tree, idx, path[k], &leaf);
		if (c == UINT32_MAX) { /* cannot happen: the path was walked down */
			set_err(w, PL_EINVAL);
			break;
		}
		idx = c;
	}
	/* the line's own shape: an element the tuple's text left without a
	 * layout has the default one here, as the reader found it */
	struct pl_hlo_shapes *own = want && w->want_shape
	                                    ? parse_tree(w, w->want_shape, w->want_shape_len)
	                                    : NULL;
	if (own && same_array(own, 0, e->tree, idx)) {
		put_tree(&l, own, 0);
	} else {
		bool bare = e->tree->print_bare;
		e->tree->print_bare = false;
		put_tree(&l, e->tree, idx);
		e->tree->print_bare = bare;
	}
	free_tree(own);
	line_shape(w, &l, name, false);
	pl_sb_puts(&l, " get-tuple-element(");
	put_operand(w, &l, 0, parent);
	pl_sb_puts(&l, "), index=");
	pl_hlo_put_u64_(&l, path[depth - 1]);
	if (want && w->want_attrs)
		pl_sb_put(&l, w->want_attrs, w->want_attrs_len);
	if (l.failed)
		set_err(w, PL_ENOMEM);
	else
		emit_line(w, &l);
	pl_sb_free(&l);
	return gte_remember(w, &key, name);
}

static void print_param(struct hw *w, size_t k, const struct ent *root_ent, const pl_attr *pa);

static const char *ent_node_ref(struct hw *w, struct ent *e, uint32_t leaf, uint32_t n,
                                const struct pl_hlo_shapes *s, uint32_t sidx, const char *want)
{
	/* a parameter is printed before its first use */
	if (!e->inst && !e->printed)
		print_param(w, (size_t)(e - w->ents), NULL, w->param_attrs);
	if (!e->tree)
		return leaf == 0 && n == 1 && !(s && s->v[sidx].tuple) ? e->name : NULL;
	uint32_t path[PL_MAX_NESTING + 1];
	size_t depth = 0;
	uint32_t idx = 0, first = 0;
	for (;;) {
		if (first == leaf && e->tree->v[idx].nleaves == n &&
		    same_structure(e->tree, idx, s, sidx))
			return depth == 0 ? e->name : gte_name(w, e, path, depth, idx, want);
		if (!e->tree->v[idx].tuple || depth == PL_MAX_NESTING)
			return NULL;
		/* down into the child that holds leaf */
		uint32_t k;
		uint32_t c = pl_hlo_shape_child_holding_(e->tree, idx, leaf, &first, &k);
		if (c == UINT32_MAX)
			return NULL;
		path[depth++] = k;
		idx = c;
	}
}

static const char *ref(struct hw *w, pl_value *const *v, uint32_t n, const struct pl_hlo_shapes *s,
                       uint32_t sidx, const char *want);
static bool alias_line_key(struct pl_strbuf *key, const char *name, pl_value *const *v, size_t n);
static void remember_alias_line(struct hw *w, pl_inst *i, const struct ent *e);

static void put_attr_key(struct pl_strbuf *l, const char *key);

/* The attributes hlo_label_attrs keeps for the line labelled at node idx
 * of i's operand structure t, or NULL. */
static const pl_attr *label_attrs(pl_inst *i, const struct pl_hlo_shapes *t, uint32_t idx)
{
	const pl_attr *l = pl_attrs_get(pl_inst_attrs_const(i), HK(LABEL_ATTRS));
	const struct pl_hlo_label *lb =
		t->v[idx].tuple ? pl_hlo_shape_label_(t, idx) : pl_hlo_shape_leaf_label_(t, idx);
	if (!l || !lb || pl_attr_get_kind(l) != PL_ATTR_LIST ||
	    (size_t)(lb - t->labels) >= pl_attr_list_size(l))
		return NULL;
	const pl_attr *a = pl_attr_list_at(l, (size_t)(lb - t->labels));
	return pl_attr_get_kind(a) == PL_ATTR_STRING ? a : NULL;
}

/* A tuple line made of the operands' parts. */
static const char *make_tuple(struct hw *w, pl_value *const *v, uint32_t n, const struct pl_hlo_shapes *s,
                              uint32_t sidx, const char *want_name, bool root,
                              const pl_attrs *keep)
{
	struct pl_strbuf args = {0};
	uint32_t c = sidx + 1, off = 0;
	/* the kept attributes are this line's, not its parts' */
	const char *want_attrs = w->want_attrs, *want_shape = w->want_shape;
	size_t want_attrs_len = w->want_attrs_len;
	w->want_attrs = NULL;
	w->want_shape = NULL;
	/* a root tuple's parts under the names the reader kept for them */
	const pl_attr *names = keep ? pl_attrs_get(keep, HK(OPERAND_NAMES)) : NULL;
	if (names && pl_attr_get_kind(names) != PL_ATTR_LIST)
		names = NULL;
	for (size_t k = 0; s && c < sidx + s->v[sidx].size; k++) {
		const char *part = names && k < pl_attr_list_size(names)
		                           ? pl_attr_get_string(pl_attr_list_at(names, k), NULL)
		                           : NULL;
		const struct pl_hlo_label *leaf = pl_hlo_shape_leaf_label_(s, c);
		if (!(part && *part) && leaf)
			part = leaf->name;
		/* a part's own line: its attributes (hlo_label_attrs) */
		const pl_attr *la = w->label_inst ? label_attrs(w->label_inst, s, c) : NULL;
		w->want_attrs = la ? pl_attr_get_string(la, &w->want_attrs_len) : NULL;
		const char *r = ref(w, v + off, s->v[c].nleaves, s, c, part && *part ? part : NULL);
		put_operand(w, &args, k, r);
		off += s->v[c].nleaves;
		c += s->v[c].size;
	}
	w->want_attrs = want_attrs;
	w->want_attrs_len = want_attrs_len;
	w->want_shape = want_shape;
	const char *name = want_name ? take_name(w, want_name, false) : take_serial(w, "tuple");
	struct pl_strbuf l = {0};
	line_head(&l, root, name);
	(void)n;
	put_shape_vals(&l, s, sidx, v);
	line_shape(w, &l, name, root);
	pl_sb_puts(&l, " tuple(");
	pl_sb_put(&l, args.data ? args.data : "", args.len);
	pl_sb_putc(&l, ')');
	if (want_name && !root && w->want_attrs)
		pl_sb_put(&l, w->want_attrs, w->want_attrs_len);
	for (size_t k = 0; keep && k < pl_attrs_count(keep); k++) {
		const char *key = pl_attrs_key_at(keep, k);
		if (strncmp(key, PL_HLO_KEY_PREFIX, PL_HLO_KEY_PREFIX_LEN) || pl_hlo_internal_key_(key))
			continue;
		const pl_attr *a = pl_attrs_value_at(keep, k);
		if (pl_attr_get_kind(a) != PL_ATTR_STRING)
			continue;
		size_t len;
		const char *val = pl_attr_get_string(a, &len);
		put_attr_key(&l, key);
		pl_sb_put(&l, val, len);
	}
	if (l.failed || args.failed)
		set_err(w, PL_ENOMEM);
	else
		emit_line(w, &l);
	pl_sb_free(&l);
	pl_sb_free(&args);
	return name;
}

/* The HLO operand for values v[0..n) of structure s at sidx (NULL: one
 * array): a name, a get-tuple-element of one, or a new tuple. */
static const char *ref(struct hw *w, pl_value *const *v, uint32_t n, const struct pl_hlo_shapes *s,
                       uint32_t sidx, const char *want)
{
	/* a get-tuple-element line of the input printed as such, named so,
	 * whose element these values are */
	if (want && n > 0 && w->gte_index.count) {
		struct pl_strbuf key = {0};
		const char *line = alias_line_key(&key, want, v, n) ? gte_lookup(w, &key) : NULL;
		if (key.failed)
			set_err(w, PL_ENOMEM);
		pl_sb_free(&key);
		if (line)
			return line;
	}
	if (n > 0) {
		uint32_t leaf;
		struct ent *e = ent_of(w, v[0], &leaf);
		bool consecutive = e != NULL;
		for (uint32_t k = 1; consecutive && k < n; k++) {
			uint32_t l2;
			consecutive = ent_of(w, v[k], &l2) == e && l2 == leaf + k;
		}
		if (consecutive) {
			const char *r = ent_node_ref(w, e, leaf, n, s, sidx, want);
			if (r)
				return r;
		}
	}
	if (!s || !s->v[sidx].tuple)
		return "x"; /* cannot happen: a single value always has an entity */
	if (!want)
		want = pl_hlo_shape_label_(s, sidx) ? pl_hlo_shape_label_(s, sidx)->name : NULL;
	if (!want)
		return make_tuple(w, v, n, s, sidx, NULL, false, NULL);
	/* a kept name stands for one tuple: made once for the same parts */
	struct pl_strbuf key = {0};
	pl_sb_printf(&key, "tuple@%s", want);
	for (uint32_t k = 0; k < n; k++)
		pl_sb_printf(&key, "#%p", (void *)v[k]);
	if (key.failed) {
		pl_sb_free(&key);
		set_err(w, PL_ENOMEM);
		return "x";
	}
	pl_sb_putc(&key, 0);
	const char *made = gte_lookup(w, &key);
	if (made) {
		pl_sb_free(&key);
		return made;
	}
	const char *name = make_tuple(w, v, n, s, sidx, want, false, NULL);
	return gte_remember(w, &key, name);
}

/* ---- tuple lines in their places ---- */

/* What ops_index holds for an instruction whose hlo_operands is none. */
static struct pl_hlo_shapes no_operands;

/* The trees of an operand structure: groups separated by ',', each "_"
 * (an array), "(...)" or NAME@ANCHOR(...) (a tuple), with as many
 * arrays as i has operands; the tree owns a copy of the text, names and
 * anchors NUL-terminated in it. NULL when the text is none of that. */
static struct pl_hlo_shapes *parse_operands(struct hw *w, pl_inst *i, const char *s,
                                            size_t len)
{
	struct pl_hlo_shapes *t = calloc(1, sizeof *t);
	char *txt = t ? malloc(len + 1) : NULL;
	if (!txt) {
		free(t);
		set_err(w, PL_ENOMEM);
		return NULL;
	}
	memcpy(txt, s, len);
	txt[len] = 0;
	t->text = txt;
	const char *p = txt, *e = txt + len;
	size_t leaves = 0;
	int st;
	for (;;) {
		struct pl_hlo_shape_err err;
		uint32_t g;
		st = pl_hlo_shape_parse_(t, &p, e, PL_HLO_SHAPE_STRUCTURE, &g, &err);
		if (st != PL_OK)
			break;
		leaves += t->v[g].nleaves;
		p = pl_hlo_shape_skip_(p, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		break;
	}
	if (st == PL_ENOMEM)
		set_err(w, PL_ENOMEM);
	if (st != PL_OK || p != e || leaves != pl_inst_num_operands(i)) {
		free_tree(t);
		return NULL;
	}
	for (size_t k = 0; k < t->nlabels; k++) {
		const struct pl_hlo_label *l = &t->labels[k];
		txt[l->name - txt + l->name_len] = 0;
		txt[l->anchor - txt + l->anchor_len] = 0;
	}
	return t;
}

/* The operand structure the reader recorded for i (hlo_operands), when
 * it fits, and its number of groups; parsed once in a function. */
static const struct pl_hlo_shapes *operands_of(struct hw *w, pl_inst *i, size_t *ngroups)
{
	*ngroups = 0;
	size_t len;
	const char *s;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(OPERANDS), &s, &len) != PL_OK)
		return NULL;
	struct pl_hlo_shapes *t = pl_ht_ptr_get(&w->ops_index, i);
	if (!t) {
		t = parse_operands(w, i, s, len);
		if (t && !PL_GROW(w->ptrees, w->ptcap, w->nptrees + 1)) {
			free_tree(t);
			t = NULL;
			set_err(w, PL_ENOMEM);
		}
		if (t)
			w->ptrees[w->nptrees++] = t;
		if (!pl_ht_ptr_put(&w->ops_index, i, t ? t : &no_operands))
			set_err(w, PL_ENOMEM);
	}
	if (t == &no_operands)
		return NULL;
	for (uint32_t c = 0; c < t->n; c += t->v[c].size)
		(*ngroups)++;
	return t;
}

/* The names of the tuples a root tuple rtree is made of, from the return's
 * operand structure t (its groups are rtree's children), when
 * the two have the same nodes. */
static void label_root(struct hw *w, struct pl_hlo_shapes *rtree, const struct pl_hlo_shapes *t)
{
	uint32_t nt = t ? (uint32_t)t->n : 0;
	if (!t || rtree->v[0].size != nt + 1)
		return;
	for (uint32_t j = 0; j < nt; j++)
		if (t->v[j].tuple != rtree->v[j + 1].tuple || t->v[j].size != rtree->v[j + 1].size ||
		    t->v[j].nleaves != rtree->v[j + 1].nleaves)
			return;
	for (uint32_t j = 0; j < nt; j++) {
		const struct pl_hlo_label *l = pl_hlo_shape_label_(t, j);
		if (l && pl_hlo_shape_set_label_(rtree, j + 1, l) != PL_OK)
			set_err(w, PL_ENOMEM);
	}
}

/* hlo_operand_shapes' text for operand group g of i, or NULL. */
static const char *operand_shape(struct hw *w, pl_inst *i, size_t g)
{
	const pl_attr *l = pl_attrs_get(pl_inst_attrs_const(i), HK(OPERAND_SHAPES));
	const pl_attr *a = l && pl_attr_get_kind(l) == PL_ATTR_LIST && g < pl_attr_list_size(l)
	                           ? pl_attr_list_at(l, g) : NULL;
	const char *t = a && pl_attr_get_kind(a) == PL_ATTR_STRING
	                        ? pl_attr_get_string(a, &w->want_shape_len) : NULL;
	return t && w->want_shape_len ? t : NULL;
}

/* ---- instructions ---- */

/* ", NAME=" for the kept attribute hlo_NAME */
static void put_attr_key(struct pl_strbuf *l, const char *key)
{
	pl_sb_puts(l, ", ");
	bool cp = !strcmp(key, HK(CONTROL_PREDECESSORS));
	pl_sb_puts(l, cp ? "control-predecessors" : key + PL_HLO_KEY_PREFIX_LEN);
	pl_sb_putc(l, '=');
}

static void put_kept_attrs(struct hw *w, struct pl_strbuf *l, pl_inst *i, const char *skip1)
{
	const pl_attrs *d = pl_inst_attrs_const(i);
	for (size_t k = 0; k < pl_attrs_count(d); k++) {
		const char *key = pl_attrs_key_at(d, k);
		if (strncmp(key, PL_HLO_KEY_PREFIX, PL_HLO_KEY_PREFIX_LEN) || pl_hlo_internal_key_(key))
			continue;
		if (skip1 && !strcmp(key + PL_HLO_KEY_PREFIX_LEN, skip1))
			continue;
		const pl_attr *a = pl_attrs_value_at(d, k);
		if (pl_attr_get_kind(a) != PL_ATTR_STRING) {
			inst_error(w, i, "attribute '%s' must be a string", key);
			continue;
		}
		size_t len;
		const char *val = pl_attr_get_string(a, &len);
		put_attr_key(l, key);
		pl_sb_put(l, val, len);
	}
}

static const char *reduce_opcode(const char *kind)
{
	static const struct {
		const char *k, *o;
	} t[] = {{"add", "add"}, {"mul", "multiply"}, {"max", "maximum"},
	         {"min", "minimum"}, {"and", "and"}, {"or", "or"}};
	for (size_t k = 0; k < sizeof t / sizeof *t; k++)
		if (!strcmp(kind, t[k].k))
			return t[k].o;
	return NULL;
}

/* The opcode of a reducer named "kind.dtype.reducer". */
static const char *reducer_op(const char *name)
{
	char kind[16];
	size_t n = strcspn(name, ".");
	snprintf(kind, sizeof kind, "%.*s", (int)n, name);
	const char *op = reduce_opcode(kind);
	return op ? op : "add";
}

/* The reducer computation for kind on dt, made once per module. */
static const char *reducer_name(struct hw *w, const char *kind, pl_dtype dt)
{
	char name[96];
	snprintf(name, sizeof name, "%s.%s.reducer", kind, pl_hlo_dtype_name_(dt));
	for (size_t k = 0; k < w->nreducers; k++)
		if (!strcmp(w->reducers[k], name))
			return w->reducers[k];
	char *c = PL_GROW(w->reducers, w->rcap, w->nreducers + 1) ? strdup(name) : NULL;
	if (!c) {
		set_err(w, PL_ENOMEM);
		return "add";
	}
	w->reducers[w->nreducers++] = c;
	return c;
}

/* A group_id HLO has no replica groups for is written as all devices:
 * said once per group. */
static void warn_group(struct hw *w, const pl_inst *i, const char *g)
{
	for (size_t k = 0; k < w->nwarned; k++)
		if (!strcmp(w->warned[k], g))
			return;
	char *c = PL_GROW(w->warned, w->wcap, w->nwarned + 1) ? strdup(g) : NULL;
	if (!c) {
		set_err(w, PL_ENOMEM);
		return;
	}
	w->warned[w->nwarned++] = c;
	pl_diags_add(w->diags, PL_SEV_WARNING, pl_module_source_name(w->m), pl_inst_line(i),
	             pl_inst_col(i),
	             "group_id \"%s\" names no replica groups: written as all devices", g);
}

/* Attributes a collective needs that the IR did not keep (one built from
 * .pir, or made by a pass). */
static void put_collective_attrs(struct hw *w, struct pl_strbuf *l, pl_inst *i, pl_op base)
{
	const pl_attrs *d = pl_inst_attrs_const(i);
	int64_t dim = 0;
	pl_attrs_get_int(d, "dimension", &dim);
	bool have_groups = pl_attrs_get(d, HK(REPLICA_GROUPS)) != NULL;
	const char *g;
	size_t len;
	/* groups from a group_id the reader made; no replica_groups is all */
	if (!have_groups && pl_attrs_get_string(d, "group_id", &g, &len) == PL_OK) {
		const char *colon = memchr(g, ':', len);
		bool all = len >= 4 && !memcmp(g + len - 4, ":all", 4);
		if (!all && !(colon && colon + 1 < g + len && colon[1] == '{'))
			warn_group(w, i, g);
		if (colon && colon + 1 < g + len && colon[1] == '{') {
			if (!strncmp(g, "global:", 7) || !strncmp(g, "replica_partition:", 18))
				pl_sb_puts(l, ", channel_id=1");
			pl_sb_puts(l, ", replica_groups=");
			pl_sb_put(l, colon + 1, (size_t)(g + len - colon - 1));
			if (!strncmp(g, "global:", 7))
				pl_sb_puts(l, ", use_global_device_ids=true");
		}
	}
	if (base != PL_OP_ALL_REDUCE && !pl_attrs_get(d, HK(DIMENSIONS)))
		pl_sb_printf(l, ", dimensions={%" PRId64 "}", dim);
	if (base != PL_OP_ALL_GATHER && !pl_attrs_get(d, HK(TO_APPLY))) {
		const char *kind = "add";
		pl_attrs_get_string(d, "reduce", &kind, &len);
		if (!reduce_opcode(kind)) {
			inst_error(w, i, "reduction '%s' has no HLO reducer", kind);
			return;
		}
		pl_dtype dt = pl_inst_num_operands(i) ? pl_type_dtype(pl_value_type(pl_inst_operand(i, 0)))
		                                      : PL_DTYPE_F32;
		pl_sb_printf(l, ", to_apply=%%%s", reducer_name(w, kind, dt));
	}
}

/* The HLO opcode of an instruction; NULL (after an error) when there is
 * none. */
/* Whether start st (an SDK collective start) is written async-start over
 * a computation of its collective: a start read in the native form
 * (hlo_start_done) stays so; the passes' new ones take the module's form. */
static bool wraps(const struct hw *w, const pl_inst *st)
{
	bool native;
	return w->async_wrapped &&
	       !(pl_attrs_get_bool(pl_inst_attrs_const(st), HK(START_DONE), &native) == PL_OK &&
	         native);
}

static const char *op_text(struct hw *w, pl_inst *i, bool *generic_async)
{
	*generic_async = false;
	switch (pl_inst_op(i)) {
	case PL_OP_ALL_GATHER: return "all-gather";
	case PL_OP_ALL_REDUCE: return "all-reduce";
	case PL_OP_REDUCE_SCATTER: return "reduce-scatter";
	case PL_OP_TENSOR_CONTRACT: return "dot";
	case PL_OP_ALL_GATHER_START:
	case PL_OP_ALL_REDUCE_START:
	case PL_OP_REDUCE_SCATTER_START:
		if (pl_attrs_get(pl_inst_attrs_const(i), HK(CALLS))) {
			*generic_async = true;
			return "async-start";
		}
		if (wraps(w, i))
			return "async-start";
		return pl_inst_op(i) == PL_OP_ALL_GATHER_START ? "all-gather-start"
		       : pl_inst_op(i) == PL_OP_ALL_REDUCE_START ? "all-reduce-start"
		                                                 : "reduce-scatter-start";
	case PL_OP_ALL_GATHER_DONE:
	case PL_OP_ALL_REDUCE_DONE:
	case PL_OP_REDUCE_SCATTER_DONE: {
		pl_inst *st = pl_inst_num_operands(i) ? pl_value_def(pl_inst_operand(i, 0)) : NULL;
		if (st && (pl_attrs_get(pl_inst_attrs_const(st), HK(CALLS)) ||
		           ((pl_inst_traits(st) & PL_TRAIT_COLLECTIVE_START) && wraps(w, st))))
			return "async-done";
		return pl_inst_op(i) == PL_OP_ALL_GATHER_DONE ? "all-gather-done"
		       : pl_inst_op(i) == PL_OP_ALL_REDUCE_DONE ? "all-reduce-done"
		                                                : "reduce-scatter-done";
	}
	case PL_OP_OTHER: {
		const char *n = pl_inst_opname(i);
		if (!strncmp(n, "hlo.", 4) && n[4])
			return n + 4; /* '_' back to '-' by the caller */
		inst_error(w, i, "only ops read from HLO (hlo.*) and the collectives and "
		                 "tensor_contract have an HLO form");
		return NULL;
	}
	case PL_OP_PACK:
	case PL_OP_UNPACK:
		return "";
	default:
		inst_error(w, i, "the op has no HLO form");
		return NULL;
	}
}

static pl_op base_of(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER_START: return PL_OP_ALL_GATHER;
	case PL_OP_ALL_REDUCE_START: return PL_OP_ALL_REDUCE;
	case PL_OP_REDUCE_SCATTER_START: return PL_OP_REDUCE_SCATTER;
	default: return op;
	}
}

/* dot's dimension numbers for a tensor_contract without them: a matrix
 * product [m,k]x[k,n] or [m,k]x[n,k]. */
static bool dot_dims(struct hw *w, pl_inst *i, struct pl_strbuf *l)
{
	if (pl_inst_num_operands(i) != 2 || pl_inst_num_results(i) != 1) {
		inst_error(w, i, "a dot has two operands and one result");
		return false;
	}
	const pl_type *a = pl_value_type(pl_inst_operand(i, 0));
	const pl_type *b = pl_value_type(pl_inst_operand(i, 1));
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	/* no dimension numbers: an outer product, lhs extents then rhs's */
	bool outer = r->rank == a->rank + b->rank;
	for (uint32_t k = 0; outer && k < r->rank; k++)
		outer = r->dims[k] == (k < a->rank ? a->dims[k] : b->dims[k - a->rank]);
	if (outer)
		return true;
	if (a->rank == 2 && b->rank == 2 && r->rank == 2 && r->dims[0] == a->dims[0]) {
		if (a->dims[1] == b->dims[0] && r->dims[1] == b->dims[1]) {
			pl_sb_puts(l, ", lhs_contracting_dims={1}, rhs_contracting_dims={0}");
			return true;
		}
		if (a->dims[1] == b->dims[1] && r->dims[1] == b->dims[0]) {
			pl_sb_puts(l, ", lhs_contracting_dims={1}, rhs_contracting_dims={1}");
			return true;
		}
	}
	inst_error(w, i, "its contraction is not a matrix product and records no dimension numbers");
	return false;
}

/* ---- pack and unpack, lowered to reshape, bitcast-convert, transpose,
 * concatenate and slice (CoalesceCCOp's definition, passline-pipeline(5)) ---- */

static void put_arr(struct pl_strbuf *sb, pl_dtype dt, const int64_t *dims, size_t rank)
{
	pl_sb_puts(sb, pl_hlo_dtype_name_(dt));
	pl_sb_putc(sb, '[');
	for (size_t k = 0; k < rank; k++)
		pl_sb_printf(sb, "%s%" PRId64, k ? "," : "", dims[k]);
	pl_sb_putc(sb, ']');
	if (rank) {
		pl_sb_putc(sb, '{');
		for (size_t k = rank; k-- > 0;)
			pl_sb_printf(sb, "%zu%s", k, k ? "," : "");
		pl_sb_putc(sb, '}');
	}
}

/* Emits "%name = dt[dims] opcode(operands)rest", the operands the lines
 * named ops[0..n); name is final when given, else made from stem.
 * Returns the name. */
static const char *lower_line(struct hw *w, const char *final, const char *stem, bool root,
                              pl_dtype dt, const int64_t *dims, size_t rank, const char *opcode,
                              const char *const *ops, size_t n, const char *rest)
{
	const char *name = final ? final : take_name(w, stem, true);
	struct pl_strbuf l = {0};
	line_head(&l, root, name);
	put_arr(&l, dt, dims, rank);
	line_shape(w, &l, name, root);
	pl_sb_printf(&l, " %s(", opcode);
	for (size_t k = 0; k < n; k++)
		put_operand(w, &l, k, ops[k]);
	pl_sb_printf(&l, ")%s", rest ? rest : "");
	if (l.failed)
		set_err(w, PL_ENOMEM);
	else
		emit_line(w, &l);
	pl_sb_free(&l);
	return name;
}

static bool int_list_attr(const pl_attrs *d, const char *key, size_t n, int64_t *out)
{
	const pl_attr *a = pl_attrs_get(d, key);
	if (!a || pl_attr_get_kind(a) != PL_ATTR_LIST || pl_attr_list_size(a) != n)
		return false;
	for (size_t k = 0; k < n; k++) {
		const pl_attr *x = pl_attr_list_at(a, k);
		if (pl_attr_get_kind(x) != PL_ATTR_INT)
			return false;
		out[k] = pl_attr_get_int(x);
	}
	return true;
}

/* One member into its part of the buffer: the units it occupies (all
 * kinds), rank-major pieces for reduce_scatter ([F, count]). */
static const char *pack_member(struct hw *w, const char *stem, const char *x, const pl_type *t,
                               pl_dtype unit, const char *kind, int64_t f, int64_t dim)
{
	char buf[64];
	int64_t n = (int64_t)t->elements;
	pl_dtype dt = (pl_dtype)t->dtype;
	if (!strcmp(kind, "reduce_scatter")) {
		int64_t d[PL_MAX_RANK + 1];
		size_t r = 0;
		for (uint32_t k = 0; k < t->rank; k++) {
			if ((int64_t)k == dim) {
				d[r++] = f;
				d[r++] = t->dims[k] / f;
			} else {
				d[r++] = t->dims[k];
			}
		}
		const char *a = lower_line(w, NULL, stem, false, dt, d, r, "reshape", &x, 1, NULL);
		if (dim > 0) {
			struct pl_strbuf perm = {0};
			int64_t td[PL_MAX_RANK + 1];
			pl_sb_printf(&perm, ", dimensions={%" PRId64, dim);
			td[0] = f;
			for (size_t k = 0, j = 1; k < r; k++)
				if ((int64_t)k != dim) {
					pl_sb_printf(&perm, ",%zu", k);
					td[j++] = d[k];
				}
			pl_sb_putc(&perm, '}');
			a = lower_line(w, NULL, stem, false, dt, td, r, "transpose", &a, 1, perm.data);
			pl_sb_free(&perm);
		}
		int64_t fc[2] = {f, n / f};
		return lower_line(w, NULL, stem, false, dt, fc, 2, "reshape", &a, 1, NULL);
	}
	const char *a = lower_line(w, NULL, stem, false, dt, &n, 1, "reshape", &x, 1, NULL);
	if (dt == unit)
		return a;
	unsigned s = pl_dtype_bits(dt), u = pl_dtype_bits(unit);
	if (s == u)
		return lower_line(w, NULL, stem, false, unit, &n, 1, "bitcast-convert", &a, 1,
		                  NULL);
	int64_t nr[2] = {n, (int64_t)(s / u)};
	snprintf(buf, sizeof buf, "%s", stem);
	a = lower_line(w, NULL, buf, false, unit, nr, 2, "bitcast-convert", &a, 1, NULL);
	int64_t m = n * (int64_t)(s / u);
	return lower_line(w, NULL, stem, false, unit, &m, 1, "reshape", &a, 1, NULL);
}

/* A pack or unpack being lowered: its kind, factor and members' layout
 * in the buffer. */
struct pack_plan {
	pl_inst *i;
	struct ent *e;
	bool root;
	bool pack, ar, ag;       /* pack (else unpack); all_reduce; all_gather */
	const char *kind;
	int64_t f;               /* the factor */
	size_t nm;               /* the members */
	int64_t *off, *cnt, *dims; /* per member; one allocation at off */
	pl_dtype unit;           /* the buffer's element type */
	int64_t seg;             /* the units of all members */
	const char **parts;      /* the members' lines, by name */
};

/* Reads a pack's or unpack's attributes into k; false after an error. */
static bool pack_layout(struct hw *w, struct pack_plan *k)
{
	pl_inst *i = k->i;
	const pl_attrs *d = pl_inst_attrs_const(i);
	size_t kl, nm = k->nm;
	if (pl_attrs_get_string(d, "kind", &k->kind, &kl) != PL_OK ||
	    (strcmp(k->kind, "all_gather") && strcmp(k->kind, "reduce_scatter") &&
	     strcmp(k->kind, "all_reduce"))) {
		inst_error(w, i, "'kind' must be all_gather, reduce_scatter or all_reduce");
		return false;
	}
	k->ar = !strcmp(k->kind, "all_reduce");
	k->ag = !strcmp(k->kind, "all_gather");
	if (!k->ar && pl_attrs_get_int(d, "factor", &k->f) != PL_OK) {
		inst_error(w, i, "it needs its 'factor'");
		return false;
	}
	k->off = malloc(3 * (nm + 1) * sizeof *k->off);
	k->parts = calloc(nm + 1, sizeof *k->parts);
	if (!k->off || !k->parts) {
		set_err(w, PL_ENOMEM);
		return false;
	}
	k->cnt = k->off + nm + 1;
	k->dims = k->cnt + nm + 1;
	for (size_t j = 0; j < nm; j++)
		k->dims[j] = 0;
	if (!int_list_attr(d, "offsets", nm, k->off) || !int_list_attr(d, "counts", nm, k->cnt) ||
	    (!k->ar && !int_list_attr(d, "dimensions", nm, k->dims)) || k->f < 1 ||
	    (k->pack ? pl_inst_num_results(i) != 1 : pl_inst_num_operands(i) != 1)) {
		inst_error(w, i, "its offsets, counts, dimensions or factor do not fit its members");
		return false;
	}
	const pl_type *buf = k->pack ? pl_value_type(pl_inst_result(i, 0))
	                             : pl_value_type(pl_inst_operand(i, 0));
	k->unit = (pl_dtype)buf->dtype;
	for (size_t j = 0; j < nm; j++)
		k->seg += k->cnt[j];
	return true;
}

/* pack: each member into its part, then the parts concatenated. */
static void lower_pack_members(struct hw *w, struct pack_plan *k)
{
	pl_inst *i = k->i;
	const char *name = k->e->name;
	for (size_t j = 0; j < k->nm; j++) {
		pl_value *v = pl_inst_operand(i, j);
		const char *x = ref(w, &v, 1, NULL, 0, NULL);
		k->parts[j] = pack_member(w, name, x, pl_value_type(v), k->unit, k->kind, k->f,
		                          k->dims[j]);
	}
	int64_t fs[2] = {k->f, k->seg}, total = k->ar || k->ag ? k->seg : k->f * k->seg;
	if (k->ar || k->ag) {
		lower_line(w, name, NULL, k->root, k->unit, &total, 1, "concatenate", k->parts,
		           k->nm, ", dimensions={0}");
	} else {
		const char *c = lower_line(w, NULL, name, false, k->unit, fs, 2, "concatenate",
		                           k->parts, k->nm, ", dimensions={1}");
		lower_line(w, name, NULL, k->root, k->unit, &total, 1, "reshape", &c, 1, NULL);
	}
}

/* An all_gather member out of the [F, seg] grid: its columns, in its
 * own element type, F moved next to its dimension, in its shape. */
static const char *unpack_gathered(struct hw *w, struct pack_plan *k, size_t j,
                                   const char *grid)
{
	const char *name = k->e->name;
	const pl_type *t = pl_value_type(pl_inst_result(k->i, j));
	pl_dtype dt = (pl_dtype)t->dtype, unit = k->unit;
	int64_t f = k->f, off = k->off[j], cnt = k->cnt[j];
	char sl[96];
	snprintf(sl, sizeof sl, ", slice={[0:%" PRId64 "], [%" PRId64 ":%" PRId64 "]}", f, off,
	         off + cnt);
	int64_t fc[3] = {f, cnt, 1};
	const char *a = lower_line(w, NULL, name, false, unit, fc, 2, "slice", &grid, 1, sl);
	unsigned sb = pl_dtype_bits(dt), ub = pl_dtype_bits(unit);
	if (dt != unit && sb == ub) {
		a = lower_line(w, NULL, name, false, dt, fc, 2, "bitcast-convert", &a, 1, NULL);
	} else if (dt != unit) {
		fc[1] = cnt / (int64_t)(sb / ub);
		fc[2] = (int64_t)(sb / ub);
		a = lower_line(w, NULL, name, false, unit, fc, 3, "reshape", &a, 1, NULL);
		a = lower_line(w, NULL, name, false, dt, fc, 2, "bitcast-convert", &a, 1, NULL);
	}
	/* [F, operand shape] -> F next to dimension d -> result */
	int64_t dim = k->dims[j], od[PL_MAX_RANK + 1], td[PL_MAX_RANK + 1];
	od[0] = f;
	for (uint32_t q = 0; q < t->rank; q++)
		od[q + 1] = (int64_t)q == dim ? t->dims[q] / f : t->dims[q];
	a = lower_line(w, NULL, name, false, dt, od, t->rank + 1, "reshape", &a, 1, NULL);
	if (dim > 0) {
		struct pl_strbuf perm = {0};
		pl_sb_puts(&perm, ", dimensions={");
		size_t q = 0;
		for (int64_t x = 1; x <= dim; x++) {
			pl_sb_printf(&perm, "%s%" PRId64, q ? "," : "", x);
			td[q++] = od[x];
		}
		pl_sb_printf(&perm, ",0");
		td[q++] = f;
		for (uint32_t x = (uint32_t)dim + 1; x <= t->rank; x++) {
			pl_sb_printf(&perm, ",%u", x);
			td[q++] = od[x];
		}
		pl_sb_putc(&perm, '}');
		a = lower_line(w, NULL, name, false, dt, td, q, "transpose", &a, 1, perm.data);
		pl_sb_free(&perm);
	}
	const char *last_name = k->nm == 1 ? name : NULL;
	return lower_line(w, last_name, name, k->root && k->nm == 1, dt, t->dims, t->rank,
	                  "reshape", &a, 1, NULL);
}

/* unpack: each member out of the buffer, then a tuple of them when
 * there are several. */
static void lower_unpack_members(struct hw *w, struct pack_plan *k)
{
	pl_inst *i = k->i;
	struct ent *e = k->e;
	pl_value *v = pl_inst_operand(i, 0);
	const char *flat = ref(w, &v, 1, NULL, 0, NULL);
	const char *grid = flat;
	if (k->ag) {
		int64_t fs[2] = {k->f, k->seg};
		grid = lower_line(w, NULL, e->name, false, k->unit, fs, 2, "reshape", &flat, 1,
		                  NULL);
	}
	for (size_t j = 0; j < k->nm; j++) {
		const pl_type *t = pl_value_type(pl_inst_result(i, j));
		const char *a;
		if (!k->ag) {
			char sl[96];
			snprintf(sl, sizeof sl, ", slice={[%" PRId64 ":%" PRId64 "]}", k->off[j],
			         k->off[j] + k->cnt[j]);
			a = lower_line(w, NULL, e->name, false, k->unit, &k->cnt[j], 1, "slice", &flat,
			               1, sl);
			a = lower_line(w, k->nm == 1 ? e->name : NULL, e->name, k->root && k->nm == 1,
			               (pl_dtype)t->dtype, t->dims, t->rank, "reshape", &a, 1, NULL);
		} else {
			a = unpack_gathered(w, k, j, grid);
		}
		k->parts[j] = a;
	}
	if (k->nm != 1) {
		struct pl_strbuf l = {0};
		line_head(&l, k->root, e->name);
		put_tree(&l, e->tree, 0);
		line_shape(w, &l, e->name, k->root);
		pl_sb_puts(&l, " tuple(");
		for (size_t j = 0; j < k->nm; j++)
			put_operand(w, &l, j, k->parts[j]);
		pl_sb_putc(&l, ')');
		if (l.failed)
			set_err(w, PL_ENOMEM);
		else
			emit_line(w, &l);
		pl_sb_free(&l);
	}
}

/* A pack or unpack as plain HLO lines: reshapes, bitcasts, slices and
 * concatenates over the buffer. */
static void lower_pack(struct hw *w, pl_inst *i, struct ent *e, bool root)
{
	struct pack_plan k = {.i = i, .e = e, .root = root, .f = 1};
	k.pack = pl_inst_op(i) == PL_OP_PACK;
	k.nm = k.pack ? pl_inst_num_operands(i) : pl_inst_num_results(i);
	if (!pack_layout(w, &k))
		goto done;
	if (k.pack)
		lower_pack_members(w, &k);
	else
		lower_unpack_members(w, &k);
	e->printed = true;
done:
	free(k.parts);
	free(k.off);
}

/* The async-update lines the reader kept on done i (hlo_async_updates),
 * each the value of start e passed on, made right before the done; the
 * name the done takes: the last of them, or the start's. */
static const char *put_updates(struct hw *w, pl_inst *i, const struct ent *e)
{
	const pl_attrs *d = pl_inst_attrs_const(i);
	const pl_attr *names = pl_attrs_get(d, HK(ASYNC_UPDATES));
	const pl_attr *attrs = pl_attrs_get(d, HK(ASYNC_UPDATE_ATTRS));
	const char *prev = e->name;
	if (!names || pl_attr_get_kind(names) != PL_ATTR_LIST)
		return prev;
	size_t n = pl_attr_list_size(names);
	if (attrs && (pl_attr_get_kind(attrs) != PL_ATTR_LIST || pl_attr_list_size(attrs) != n))
		attrs = NULL;
	struct pl_strbuf l = {0};
	for (size_t k = 0; k < n && w->status == PL_OK; k++) {
		const char *nm = pl_attr_get_string(pl_attr_list_at(names, k), NULL);
		size_t al = 0;
		const char *at = attrs ? pl_attr_get_string(pl_attr_list_at(attrs, k), &al) : NULL;
		if (!nm || !*nm)
			continue;
		const char *name = take_name(w, nm, false);
		line_head(&l, false, name);
		put_ent_shape(w, &l, e);
		line_shape(w, &l, name, false);
		pl_sb_puts(&l, " async-update(");
		put_operand(w, &l, 0, prev);
		pl_sb_putc(&l, ')');
		if (at)
			pl_sb_put(&l, at, al);
		if (l.failed)
			set_err(w, PL_ENOMEM);
		else
			emit_line(w, &l);
		prev = name;
	}
	pl_sb_free(&l);
	return prev;
}

/* An instruction's operand text into w->ops: the start's line for a
 * done, else each operand group by reference (get-tuple-element or
 * tuple lines made as needed), by bare name when plain (a constant's);
 * false after an error. */
static bool put_operands(struct hw *w, pl_inst *i, bool plain)
{
	/* the operand text and values: buffers of w's, as print_inst is
	 * never entered again while it runs */
	struct pl_strbuf *ops = &w->ops;
	ops->len = 0;
	size_t nops = pl_inst_num_operands(i);
	if (!PL_GROW(w->vals, w->nvals, nops)) {
		set_err(w, PL_ENOMEM);
		return false;
	}
	pl_value **vals = w->vals;
	for (size_t k = 0; k < nops; k++)
		vals[k] = pl_inst_operand(i, k);
	if (pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_DONE) {
		pl_inst *st = nops ? pl_value_def(vals[0]) : NULL;
		uint32_t se = st ? imap_find(w, st) : UINT32_MAX;
		if (se == UINT32_MAX) {
			inst_error(w, i, "its operands are not the results of a start");
			return false;
		}
		put_operand(w, ops, 0, put_updates(w, i, &w->ents[se]));
		return true;
	}
	size_t ngroups;
	const struct pl_hlo_shapes *st = operands_of(w, i, &ngroups);
	const pl_attr *names = pl_attrs_get(pl_inst_attrs_const(i), HK(OPERAND_NAMES));
	const pl_attr *attrs = pl_attrs_get(pl_inst_attrs_const(i), HK(OPERAND_ATTRS));
	uint32_t off = 0, c = 0;
	for (size_t g = 0; g < (st ? ngroups : nops); g++) {
		uint32_t n = st ? st->v[c].nleaves : 1;
		const pl_attr *nm = names && pl_attr_get_kind(names) == PL_ATTR_LIST &&
		                            g < pl_attr_list_size(names)
		                    ? pl_attr_list_at(names, g) : NULL;
		const char *want = nm ? pl_attr_get_string(nm, NULL) : NULL;
		const pl_attr *na = attrs && pl_attr_get_kind(attrs) == PL_ATTR_LIST &&
		                            g < pl_attr_list_size(attrs)
		                    ? pl_attr_list_at(attrs, g) : NULL;
		w->want_attrs = na ? pl_attr_get_string(na, &w->want_attrs_len) : NULL;
		w->want_shape = operand_shape(w, i, g);
		w->label_inst = i;
		const char *r = ref(w, vals ? vals + off : NULL, n, st, c, want && *want ? want : NULL);
		if (plain)
			pl_sb_printf(ops, "%s%s", g ? ", " : "", r);
		else
			put_operand(w, ops, g, r);
		w->want_attrs = NULL;
		w->want_shape = NULL;
		w->label_inst = NULL;
		off += n;
		if (st)
			c += st->v[c].size;
	}
	return true;
}

/* A collective's attributes: the kept ones, a changed dimension over
 * the kept text, then what the collective itself says. */
static void put_collective_tail(struct hw *w, struct pl_strbuf *l, pl_inst *i, pl_op base)
{
	const pl_attrs *d = pl_inst_attrs_const(i);
	int64_t dim;
	const char *kd;
	size_t kl;
	bool dim_changed = base != PL_OP_ALL_REDUCE && pl_attrs_get_int(d, "dimension", &dim) == PL_OK &&
	                   pl_attrs_get_string(d, HK(DIMENSIONS), &kd, &kl) == PL_OK;
	if (dim_changed) {
		/* the kept text "{d}" (spaces allowed) against dim */
		int64_t kept = -1;
		for (size_t q = 0; q < kl; q++)
			if (is_dig(kd[q]))
				kept = (kept < 0 ? 0 : kept * 10) + (kd[q] - '0');
		dim_changed = kept != dim;
	}
	put_kept_attrs(w, l, i, dim_changed ? "dimensions" : NULL);
	if (dim_changed)
		pl_sb_printf(l, ", dimensions={%" PRId64 "}", dim);
	put_collective_attrs(w, l, i, base);
}

/* Type t as a signature has it: without its layout. */
static void put_type_bare(struct pl_strbuf *sb, const pl_type *t)
{
	size_t at = sb->len;
	pl_hlo_put_type_(sb, t);
	const char *brace = sb->failed ? NULL : memchr(sb->data + at, '{', sb->len - at);
	if (brace)
		sb->len = (size_t)(brace - sb->data);
}

/* The results of i: one array or a tuple of them (bare: without
 * layouts, as a signature has them). */
static void put_results(struct pl_strbuf *c, pl_inst *i, bool bare)
{
	size_t nres = pl_inst_num_results(i);
	pl_sb_puts(c, nres == 1 ? "" : "(");
	for (size_t k = 0; k < nres; k++) {
		pl_sb_puts(c, k ? ", " : "");
		(bare ? put_type_bare : pl_hlo_put_type_)(c, pl_value_type(pl_inst_result(i, k)));
	}
	pl_sb_puts(c, nres == 1 ? "" : ")");
}

/* A new async collective as XLA:GPU writes it: ", calls=NAME" after
 * async-start(...) into l, and the computation NAME of the collective
 * itself into w->wrapped. */
static void put_wrapped(struct hw *w, struct pl_strbuf *l, pl_inst *i, const struct ent *e)
{
	struct pl_strbuf *c = &w->wrapped;
	struct pl_strbuf nb = {0}, *name = &nb;
	pl_sb_printf(name, "%s.wrapped", e->name);
	size_t stem = name->len;
	pl_sb_putc(name, 0);
	for (unsigned k = 1; !name->failed && pl_module_find_func(w->m, name->data); k++) {
		name->len = stem;
		pl_sb_printf(name, ".%u", k);
		pl_sb_putc(name, 0);
	}
	if (name->failed) {
		set_err(w, PL_ENOMEM);
		pl_sb_free(name);
		return;
	}
	/* its lines' names are new in the module too */
	size_t nops = pl_inst_num_operands(i);
	const char **pn = calloc(nops ? nops : 1, sizeof *pn);
	if (!pn) {
		set_err(w, PL_ENOMEM);
		pl_sb_free(name);
		return;
	}
	pl_op base = base_of(pl_inst_op(i));
	const char *opc = base == PL_OP_ALL_GATHER   ? "all-gather"
	                  : base == PL_OP_ALL_REDUCE ? "all-reduce"
	                                             : "reduce-scatter";
	pl_sb_printf(c, "%%%s (", name->data);
	for (size_t k = 0; k < nops; k++) {
		char pb[32];
		snprintf(pb, sizeof pb, "param_%zu", k);
		pn[k] = take_name(w, pb, true);
		pl_sb_printf(c, "%s%s: ", k ? ", " : "", pn[k]);
		put_type_bare(c, pl_value_type(pl_inst_operand(i, k)));
	}
	pl_sb_puts(c, ") -> ");
	put_results(c, i, true);
	pl_sb_puts(c, " {\n");
	for (size_t k = 0; k < nops; k++) {
		pl_sb_printf(c, "  %%%s = ", pn[k]);
		pl_hlo_put_type_(c, pl_value_type(pl_inst_operand(i, k)));
		pl_sb_printf(c, " parameter(%zu)\n", k);
	}
	pl_sb_printf(c, "  ROOT %%%s = ", take_name(w, opc, true));
	put_results(c, i, false);
	pl_sb_printf(c, " %s(", opc);
	for (size_t k = 0; k < nops; k++) {
		pl_hlo_put_sep_(c, k);
		pl_hlo_put_type_(c, pl_value_type(pl_inst_operand(i, k)));
		pl_sb_printf(c, " %%%s", pn[k]);
	}
	pl_sb_putc(c, ')');
	free(pn);
	put_collective_tail(w, c, i, base);
	pl_sb_puts(c, "\n}\n\n");
	pl_sb_printf(l, ", calls=%%%s", name->data);
	if (c->failed || l->failed)
		set_err(w, PL_ENOMEM);
	pl_sb_free(name);
}

static void print_inst(struct hw *w, pl_inst *i, struct ent *e, bool root)
{
	if (pl_inst_op(i) == PL_OP_PACK || pl_inst_op(i) == PL_OP_UNPACK) {
		lower_pack(w, i, e, root);
		return;
	}
	bool generic;
	const char *opc = op_text(w, i, &generic);
	if (!opc)
		return;
	pl_op op = pl_inst_op(i);
	unsigned traits = pl_inst_traits(i);
	/* operands first: they may need get-tuple-element or tuple lines; a
	 * constant's are names, as its literal is no operand */
	if (!put_operands(w, i, op == PL_OP_OTHER && !strcmp(opc, "constant")))
		return;
	struct pl_strbuf *ops = &w->ops;
	struct pl_strbuf *l = &w->line;
	line_head(l, root, e->name);
	put_ent_shape(w, l, e);
	line_shape(w, l, e->name, root);
	pl_sb_putc(l, ' ');
	size_t opc_at = l->len;
	pl_sb_puts(l, opc);
	for (size_t k = opc_at; op == PL_OP_OTHER && !l->failed && k < l->len; k++)
		if (l->data[k] == '_')
			l->data[k] = '-';
	pl_sb_putc(l, '(');
	const pl_attrs *d = pl_inst_attrs_const(i);
	const char *lit;
	size_t litlen;
	if (pl_attrs_get_string(d, HK(CONSTANT), &lit, &litlen) == PL_OK)
		pl_sb_put(l, lit, litlen);
	pl_sb_put(l, ops->data ? ops->data : "", ops->len);
	pl_sb_putc(l, ')');
	if (traits & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START)) {
		if (generic)
			put_kept_attrs(w, l, i, NULL);
		else if ((traits & PL_TRAIT_COLLECTIVE_START) && wraps(w, i))
			put_wrapped(w, l, i, e);
		else
			put_collective_tail(w, l, i, base_of(op));
	} else {
		if (op == PL_OP_TENSOR_CONTRACT && !pl_attrs_get(d, HK(LHS_CONTRACTING_DIMS)) &&
		    !pl_attrs_get(d, HK(RHS_CONTRACTING_DIMS)) && !pl_attrs_get(d, HK(LHS_BATCH_DIMS)) &&
		    !pl_attrs_get(d, HK(RHS_BATCH_DIMS)) && !dot_dims(w, i, l)) {
			return;
		}
		put_kept_attrs(w, l, i, NULL);
	}
	if (l->failed || ops->failed) {
		set_err(w, PL_ENOMEM);
	} else {
		emit_line(w, l);
	}
	e->printed = true;
	remember_alias_line(w, i, e);
}

/* Prints entity e's shape: the recorded one when it fits, else from the
 * types. */
static void put_ent_shape(struct hw *w, struct pl_strbuf *sb, const struct ent *e)
{
	(void)w;
	if (e->tree) {
		put_tree(sb, e->tree, 0);
		return;
	}
	/* a single array: from its one value */
	const pl_type *t;
	if (e->inst) {
		if (pl_inst_traits(e->inst) & PL_TRAIT_COLLECTIVE_START) {
			/* never without a tree: set up in setup_inst */
			return;
		}
		t = pl_value_type(pl_inst_result(e->inst, 0));
	} else {
		t = pl_value_type(pl_func_arg(w->f, e->leaf0));
	}
	pl_hlo_put_type_(sb, t);
}

/* A flat tree for n arrays of types t (n != 1). */
static struct pl_hlo_shapes *flat_tree(struct hw *w, const pl_type *const *t, size_t n)
{
	struct pl_hlo_shapes *tree = calloc(1, sizeof *tree);
	bool ok = tree && PL_GROW(tree->v, tree->cap, n + 1);
	if (ok) {
		tree->v[tree->n++] = (struct pl_hlo_snode){.tuple = 1, .size = (uint32_t)n + 1,
		                                           .nleaves = (uint32_t)n};
		for (size_t k = 0; ok && k < n; k++)
			ok = pl_hlo_shape_add_array_(tree, t[k]) == PL_OK;
	}
	if (!ok) {
		free_tree(tree);
		set_err(w, PL_ENOMEM);
		return NULL;
	}
	return tree;
}

static void free_function_state(struct hw *w)
{
	for (size_t k = 0; k < w->nents; k++)
		free_tree(w->ents[k].tree);
	w->nents = 0;
	pl_ht_clear(&w->name_set);
	for (size_t k = 0; k < w->ngtes; k++)
		free(w->gte_keys[k]);
	w->ngtes = 0;
	pl_ht_clear(&w->gte_index);
	free(w->arg_ent);
	w->arg_ent = NULL;
	pl_ht_clear(&w->imap);
	for (size_t k = 0; k < w->nptrees; k++)
		free_tree(w->ptrees[k]);
	w->nptrees = 0;
	pl_ht_clear(&w->ops_index);
	pl_ht_clear(&w->shape_of);
	w->shapes.len = 0;
	w->nspans = 0;
}

/* Whether a recorded async-start shape tr still fits: split, (operands,
 * results) with each array fitting; else the results. */
static bool start_shape_fits(pl_inst *i, const struct pl_hlo_shapes *tr,
                             const pl_type *const *t, bool split, bool generic)
{
	size_t nres = pl_inst_num_results(i), nops = pl_inst_num_operands(i);
	const struct pl_hlo_snode *v = tr->v;
	/* the older all-gather-start, as read (not the shape of the
	 * collective a pass made asynchronous, which it carries over) */
	if (split && !v[0].tuple && nres == 1 && !generic)
		return pl_attrs_get(pl_inst_attrs_const(i), HK(START_DONE)) &&
		       pl_hlo_array_fits_(tr, 0, t[0]);
	if (!split)
		return pl_hlo_shape_fits_(tr, 0, t, nres);
	/* element 0: the operands, element 1: the results */
	if (!v[0].tuple || v[0].size <= 1)
		return false;
	uint32_t c0 = 1, c1 = 1 + v[1].size;
	if (c1 >= v[0].size || v[c0].nleaves != nops)
		return false;
	for (uint32_t k = c0, leaf = 0; k < c0 + v[c0].size; k++)
		if (!v[k].tuple && !pl_hlo_array_fits_(tr, k, pl_value_type(pl_inst_operand(i, leaf++))))
			return false;
	return pl_hlo_shape_fits_(tr, c1, t, nres);
}

/* An async-start's shape from its types: native all-gather-start
 * (operand(s), result(s)), reduce-scatter-start ((operands), result(s)),
 * else the results. */
static void put_start_shape(struct pl_strbuf *part, pl_inst *i, const pl_type *const *t,
                            bool split, bool wrapped)
{
	size_t nres = pl_inst_num_results(i), nops = pl_inst_num_operands(i);
	if (!split) {
		pl_hlo_put_types_(part, t, nres);
		return;
	}
	/* XLA's operands are a tuple but in all-gather-start of one */
	bool rs = pl_inst_op(i) == PL_OP_REDUCE_SCATTER_START || wrapped;
	pl_sb_putc(part, '(');
	if (rs || nops != 1)
		pl_sb_putc(part, '(');
	for (size_t k = 0; k < nops; k++) {
		if (k)
			pl_sb_puts(part, ", ");
		pl_hlo_put_type_(part, pl_value_type(pl_inst_operand(i, k)));
	}
	if (rs || nops != 1)
		pl_sb_putc(part, ')');
	pl_sb_puts(part, ", ");
	pl_hlo_put_types_(part, t, nres);
	pl_sb_putc(part, ')');
}

/* An async-start's tree synthesized from its types, owning its text. */
static bool synth_start_tree(struct hw *w, pl_inst *i, struct ent *e, const pl_type *const *t,
                             bool split, bool wrapped)
{
	struct pl_strbuf part = {0};
	put_start_shape(&part, i, t, split, wrapped);
	e->tree = part.failed ? NULL : parse_tree(w, part.data, part.len);
	if (!e->tree) {
		pl_sb_free(&part);
		set_err(w, PL_ENOMEM);
		return false;
	}
	e->tree->text = part.data; /* the layouts point into it */
	return true;
}

/* An async-start's tree: (operands, results[, contexts]) except for
 * all-reduce-start (the results); a recorded shape whose parts fit is
 * kept, else one is synthesized. */
static bool start_tree(struct hw *w, pl_inst *i, struct ent *e, const pl_type *const *t)
{
	bool generic;
	op_text(w, i, &generic);
	/* a new start written over a computation of its collective */
	bool wrapped = !generic && wraps(w, i);
	bool split = pl_inst_op(i) != PL_OP_ALL_REDUCE_START || generic || wrapped;
	size_t len;
	const char *s;
	e->tree = NULL;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(SHAPE), &s, &len) == PL_OK) {
		struct pl_hlo_shapes *tr = parse_tree(w, s, len);
		if (tr && start_shape_fits(i, tr, t, split, generic || wrapped) &&
		    (!wrapped || (tr->v[0].tuple && tr->n > 1 && tr->v[1].tuple)))
			e->tree = tr;
		else
			free_tree(tr);
	}
	if (!e->tree && generic) {
		inst_error(w, i, "it is an async-start (it has hlo_calls), whose shape "
		                 "(hlo_shape) is missing or no longer fits");
		return false;
	}
	return e->tree || synth_start_tree(w, i, e, t, split, wrapped);
}

/* The element a get-tuple-element without results takes (its operands
 * the leaves of its tuple operand, hlo_operands their structure, hlo_index
 * the element): its first operand *off and its *n leaves; false when the
 * structure or the index does not give one. */
static bool gte_element(struct hw *w, pl_inst *i, uint32_t *off, size_t *n)
{
	size_t ngroups, len;
	const char *s;
	const struct pl_hlo_shapes *st = operands_of(w, i, &ngroups);
	int64_t idx = -1;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(INDEX), &s, &len) == PL_OK && len &&
	    len < 10) {
		idx = 0;
		for (size_t k = 0; k < len && idx >= 0; k++)
			idx = is_dig(s[k]) ? idx * 10 + (s[k] - '0') : -1;
	}
	if (!st || ngroups != 1 || !st->v[0].tuple || idx < 0)
		return false;
	/* child idx of the operand, its first leaf off */
	uint32_t c = 1;
	*off = 0;
	for (int64_t k = 0; k < idx && c < st->v[0].size; k++) {
		*off += st->v[c].nleaves;
		c += st->v[c].size;
	}
	if (c >= st->v[0].size)
		return false;
	*n = st->v[c].nleaves;
	return true;
}

/* The key under which a get-tuple-element line without results, named
 * name, is found by the values of its element v[0..n). */
static bool alias_line_key(struct pl_strbuf *key, const char *name, pl_value *const *v, size_t n)
{
	pl_sb_printf(key, "alias@%s", name);
	for (size_t k = 0; k < n; k++)
		pl_sb_printf(key, "#%p", (void *)v[k]);
	pl_sb_putc(key, 0);
	return !key->failed;
}

/* Once such a line is printed, an operand the reader named so, whose
 * values are its element's, is written by that name (ref). */
static void remember_alias_line(struct hw *w, pl_inst *i, const struct ent *e)
{
	uint32_t off;
	size_t n;
	if (pl_inst_num_results(i) || strcmp(pl_inst_opname(i), "hlo.get_tuple_element") ||
	    !gte_element(w, i, &off, &n) || !n || off + n > pl_inst_num_operands(i))
		return;
	pl_value **v = malloc(n * sizeof *v);
	struct pl_strbuf key = {0};
	if (v) {
		for (size_t k = 0; k < n; k++)
			v[k] = pl_inst_operand(i, off + k);
		if (alias_line_key(&key, e->name, v, n)) {
			gte_remember(w, &key, e->name);
			key.data = NULL;
		}
	}
	if (!v || key.data)
		set_err(w, PL_ENOMEM);
	pl_sb_free(&key);
	free(v);
}

/* A get-tuple-element without results: its recorded shape, which must
 * fit the element hlo_index picks. */
static bool unused_gte_tree(struct hw *w, pl_inst *i, struct ent *e)
{
	const pl_attrs *d = pl_inst_attrs_const(i);
	uint32_t off;
	size_t n;
	e->tree = NULL;
	if (gte_element(w, i, &off, &n)) {
		const pl_type **t = calloc(n + 1, sizeof *t);
		if (!t) {
			set_err(w, PL_ENOMEM);
			return false;
		}
		for (size_t k = 0; k < n; k++)
			t[k] = pl_value_type(pl_inst_operand(i, off + k));
		e->tree = fitting_shape(w, d, HK(SHAPE), t, n);
		free(t);
	}
	if (!e->tree && w->status == PL_OK)
		inst_error(w, i, "it is a get-tuple-element without results, whose shape "
		                 "(hlo_shape) is missing or no longer fits its element");
	return e->tree != NULL;
}

/* Sets up an entity's tree for an instruction. */
static bool inst_tree(struct hw *w, pl_inst *i, struct ent *e)
{
	size_t nres = pl_inst_num_results(i);
	const pl_type **t = calloc(nres + pl_inst_num_operands(i) + 1, sizeof *t);
	if (!t) {
		set_err(w, PL_ENOMEM);
		return false;
	}
	for (size_t k = 0; k < nres; k++)
		t[k] = pl_value_type(pl_inst_result(i, k));
	bool ok;
	if (pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_START) {
		ok = start_tree(w, i, e, t);
	} else if (nres == 0 && !strcmp(pl_inst_opname(i), "hlo.tuple")) {
		/* a tuple nothing uses: its shape is its operands' */
		size_t nops = pl_inst_num_operands(i);
		for (size_t k = 0; k < nops; k++)
			t[k] = pl_value_type(pl_inst_operand(i, k));
		e->tree = fitting_shape(w, pl_inst_attrs_const(i), HK(SHAPE), t, nops);
		if (!e->tree)
			e->tree = flat_tree(w, t, nops);
		ok = e->tree != NULL;
	} else if (nres == 0 && !strcmp(pl_inst_opname(i), "hlo.get_tuple_element")) {
		ok = unused_gte_tree(w, i, e);
	} else {
		/* one array whose recorded shape fits keeps its text */
		e->tree = fitting_shape(w, pl_inst_attrs_const(i), HK(SHAPE), t, nres);
		if (!e->tree && nres != 1)
			e->tree = flat_tree(w, t, nres);
		ok = e->tree != NULL || nres == 1;
	}
	free(t);
	return ok;
}

/* The operands from byte `from` of out naming NAME (len bytes) after
 * shape old take shape now. */
static void reshape_uses(struct hw *w, size_t from, const char *name, size_t len,
                         const struct pl_strbuf *old, const char *now, size_t nl)
{
	struct pl_strbuf *o = &w->out, t = {0};
	pl_sb_put(&t, o->data + from, o->len - from);
	o->len = from;
	for (size_t i = 0, ol = old->len; i < t.len && !t.failed;) {
		const char *u = t.data + i + ol;
		if (i + ol + 2 + len <= t.len && !memcmp(t.data + i, old->data, ol) &&
		    !memcmp(u, " %", 2) && !memcmp(u + 2, name, len) &&
		    (u + 2 + len == t.data + t.len || !is_name_char(u[2 + len]))) {
			pl_sb_put(o, now, nl);
			i += ol;
		} else {
			pl_sb_putc(o, t.data[i++]);
		}
	}
	if (t.failed)
		set_err(w, PL_ENOMEM);
	pl_sb_free(&t);
}

/* When a line from `from` on in the output is "%NAME = REST" (name of
 * len bytes; REST's shape its first sl bytes), makes it the function's
 * ROOT line and returns true. When REST is "SHAPE TAIL" with TAIL "
 * get-tuple-element(...)...", a line of that name and tail with another
 * shape is the same line, made first for a use before the root, with the
 * element's layout: it takes the root's, and so do the operands naming it. */
static bool mark_root(struct hw *w, size_t from, const char *name, size_t len,
                      const struct pl_strbuf *rest, size_t sl)
{
	struct pl_strbuf *o = &w->out;
	const char *gte = memmem(rest->data, rest->len, " get-tuple-element(", 19);
	/* what the line must end with: TAIL, or else all of REST */
	const char *tail = gte ? gte : rest->data;
	size_t tail_len = rest->len - (size_t)(tail - rest->data), head = 1 + len + 3;
	for (size_t at = from; at + 2 <= o->len;) {
		const char *line = o->data + at + 2, *nl = memchr(line, '\n', o->len - at - 2);
		if (!nl)
			break;
		size_t n = (size_t)(nl - line);
		bool same = gte ? n > head + tail_len : n == head + rest->len;
		if (same && !memcmp(line - 2, "  %", 3) && !memcmp(line + 1, name, len) &&
		    !memcmp(line + 1 + len, " = ", 3) && !memcmp(nl - tail_len, tail, tail_len)) {
			/* the line becomes "ROOT %NAME = REST" */
			size_t pos = (size_t)(line - o->data), end = pos + n;
			size_t now = 5 + head + rest->len, after = o->len - end;
			struct pl_strbuf old = {0};
			pl_sb_put(&old, line + head, gte ? n - head - tail_len : sl);
			if (now > n)
				pl_sb_put(o, rest->data, now - n); /* room, then moved into place */
			if (o->failed || old.failed) {
				set_err(w, PL_ENOMEM);
				pl_sb_free(&old);
				return true;
			}
			memmove(o->data + pos + now, o->data + end, after);
			o->len = pos + now + after;
			memmove(o->data + pos + 5, o->data + pos, head);
			memcpy(o->data + pos, "ROOT ", 5);
			memcpy(o->data + pos + 5 + head, rest->data, rest->len);
			struct text_ref r = {name, len};
			const char *key = pl_ht_get(&w->name_set, text_hash(name, len), same_text, &r, NULL);
			def_shape(w, key ? key : name, true, rest->data, sl);
			if (old.len != sl || memcmp(old.data, rest->data, sl))
				reshape_uses(w, pos + now, name, len, &old, rest->data, sl);
			pl_sb_free(&old);
			return true;
		}
		at = (size_t)(nl - o->data) + 1;
	}
	return false;
}

/* Parameter k, its attributes from the list pa. */
static void print_param(struct hw *w, size_t k, const struct ent *root_ent, const pl_attr *pa)
{
	struct ent *e = &w->ents[k];
	if (e->printed)
		return;
	e->printed = true;
	struct pl_strbuf *l = &w->line;
	line_head(l, e == root_ent, e->name);
	if (e->tree)
		put_tree(l, e->tree, 0);
	else
		pl_hlo_put_type_(l, pl_value_type(pl_func_arg(w->f, e->leaf0)));
	line_shape(w, l, e->name, e == root_ent);
	pl_sb_puts(l, " parameter(");
	pl_hlo_put_u64_(l, k);
	pl_sb_putc(l, ')');
	if (pa && pl_attr_get_kind(pa) == PL_ATTR_LIST && k < pl_attr_list_size(pa)) {
		size_t len;
		const char *s = pl_attr_get_string(pl_attr_list_at(pa, k), &len);
		pl_sb_put(l, s, len);
	}
	if (l->failed)
		set_err(w, PL_ENOMEM);
	else
		emit_line(w, l);
}

/* print_function's scratch for one function, owned by the writer state
 * and freed in one place (end_function). */
static void end_function(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	free(p->rv);
	free(p->rt);
	free_tree(p->rtree);
	memset(p, 0, sizeof *p);
}

/* The parameters as the recorded grouping of the arguments
 * (hlo_param_shapes) when every group still fits; true when they are. */
static bool group_params(struct hw *w)
{
	pl_func *f = w->f;
	size_t nargs = pl_func_num_args(f);
	const pl_attr *ps = pl_attrs_get(w->fn.fa, HK(PARAM_SHAPES));
	if (!ps || pl_attr_get_kind(ps) != PL_ATTR_LIST)
		return false;
	size_t np = pl_attr_list_size(ps), arg = 0;
	bool grouped = true;
	size_t first_ent = w->nents;
	for (size_t k = 0; k < np && grouped; k++) {
		const pl_attr *sv = pl_attr_list_at(ps, k);
		size_t len;
		const char *s = pl_attr_get_string(sv, &len);
		struct pl_hlo_shapes *tr = pl_attr_get_kind(sv) == PL_ATTR_STRING
		                           ? parse_tree(w, s, len) : NULL;
		grouped = tr && arg + tr->v[0].nleaves <= nargs;
		for (uint32_t j = 0, leaf = 0; grouped && j < tr->n; j++)
			if (!tr->v[j].tuple)
				grouped = pl_hlo_array_fits_(tr, j, pl_value_type(pl_func_arg(f, arg + leaf++)));
		struct ent *e = grouped ? new_ent(w) : NULL;
		if (!e) {
			free_tree(tr);
			grouped = false;
			break;
		}
		e->tree = tr;
		e->leaf0 = (uint32_t)arg;
		e->nleaves = tr->v[0].nleaves;
		for (uint32_t j = 0; j < e->nleaves; j++)
			w->arg_ent[arg + j] = (uint32_t)(w->nents - 1);
		arg += e->nleaves;
	}
	if (!grouped || arg != nargs) {
		grouped = false;
		for (size_t k = first_ent; k < w->nents; k++)
			free_tree(w->ents[k].tree);
		w->nents = first_ent;
	}
	return grouped;
}

/* The parameter entities: grouped as recorded, else one per argument;
 * named after their first argument. */
static void param_ents(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	size_t nargs = pl_func_num_args(w->f);
	p->grouped = group_params(w);
	if (!p->grouped) {
		for (size_t k = 0; k < nargs; k++) {
			struct ent *e = new_ent(w);
			if (!e)
				return;
			e->leaf0 = (uint32_t)k;
			e->nleaves = 1;
			w->arg_ent[k] = (uint32_t)(w->nents - 1);
		}
	}
	p->nparams = w->nents;
	/* a parameter without arguments (an empty tuple) by its kept name */
	const pl_attr *kept = pl_attrs_get(p->fa, HK(PARAM_NAMES));
	if (kept && (pl_attr_get_kind(kept) != PL_ATTR_LIST || pl_attr_list_size(kept) != p->nparams))
		kept = NULL;
	for (size_t k = 0; k < p->nparams; k++) {
		struct ent *e = &w->ents[k];
		const char *nm = kept ? pl_attr_get_string(pl_attr_list_at(kept, k), NULL) : NULL;
		if (e->nleaves)
			e->name = take_name(w, pl_value_name(pl_func_arg(w->f, e->leaf0)), false);
		else
			e->name = nm && *nm ? take_name(w, nm, false) : take_name(w, "param", true);
	}
}

/* An entity per instruction but the return (kept in fn.ret), named. */
static void inst_ents(struct hw *w)
{
	for (pl_inst *i = pl_func_first_inst(w->f); i; i = pl_inst_next(i)) {
		if (pl_inst_op(i) == PL_OP_RETURN) {
			w->fn.ret = i;
			continue;
		}
		struct ent *e = new_ent(w);
		if (!e)
			break;
		e->inst = i;
		e->nleaves = (uint32_t)pl_inst_num_results(i);
		const char *nm = NULL;
		size_t nl;
		if (pl_inst_num_results(i))
			nm = pl_value_name(pl_inst_result(i, 0));
		else if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(NAME), &nm, &nl) != PL_OK)
			nm = NULL;
		e->name = nm ? take_name(w, nm, false) : take_name(w, pl_inst_opname(i), true);
		imap_put(w, i, (uint32_t)(w->nents - 1));
	}
}

/* The instructions' shape trees. */
static void inst_shapes(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	for (size_t k = p->nparams; k < w->nents && w->status == PL_OK; k++)
		if (!inst_tree(w, w->ents[k].inst, &w->ents[k]))
			break;
}

/* The entity whose whole value the return gives, if any: the values
 * in order, or for a return without values the instruction it names. */
static struct ent *whole_root(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	struct ent *root_ent = NULL;
	if (p->nret > 0) {
		uint32_t leaf;
		struct ent *e = ent_of(w, p->rv[0], &leaf);
		bool whole = e && leaf == 0 && e->nleaves == p->nret &&
		             !(e->inst && (pl_inst_traits(e->inst) & PL_TRAIT_COLLECTIVE_START));
		for (size_t k = 1; whole && k < p->nret; k++) {
			uint32_t l2;
			whole = ent_of(w, p->rv[k], &l2) == e && l2 == k;
		}
		if (whole && (!p->rtree || same_structure(p->rtree, 0, e->tree, 0)))
			root_ent = e;
	}
	const char *rn;
	size_t rl;
	bool named = pl_attrs_get_string(pl_inst_attrs_const(p->ret), HK(NAME), &rn, &rl) == PL_OK;
	/* a root line of its own (a tuple of another's parts) stays one */
	if (root_ent && named && !(strlen(root_ent->name) == rl && !memcmp(root_ent->name, rn, rl)))
		root_ent = NULL;
	/* the root a line without results names (a kept get-tuple-element) */
	if (!root_ent && named)
		for (size_t k = p->nparams; k < w->nents && !root_ent; k++)
			if (w->ents[k].nleaves == 0 && strlen(w->ents[k].name) == rl &&
			    !memcmp(w->ents[k].name, rn, rl))
				root_ent = &w->ents[k];
	return root_ent;
}

/* The root: one entity's whole value, or a tuple made at the end (its
 * shape in fn.rtree). */
static void plan_root(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	pl_inst *ret = p->ret;
	p->nret = ret ? pl_inst_num_operands(ret) : 0;
	p->rv = malloc((p->nret ? p->nret : 1) * sizeof *p->rv);
	p->rt = malloc((p->nret ? p->nret : 1) * sizeof *p->rt);
	if (!p->rv || !p->rt) {
		set_err(w, PL_ENOMEM);
		return;
	}
	for (size_t k = 0; k < p->nret; k++) {
		p->rv[k] = pl_inst_operand(ret, k);
		p->rt[k] = pl_value_type(p->rv[k]);
	}
	if (!ret) {
		pl_diags_add(w->diags, PL_SEV_ERROR, pl_module_source_name(w->m), pl_func_line(w->f),
		             pl_func_col(w->f), "@%s cannot be written as XLA HLO: it has no return",
		             pl_func_name(w->f));
		set_err(w, PL_EINVAL);
		return;
	}
	p->rtree = fitting_shape(w, pl_inst_attrs_const(ret), HK(SHAPE), p->rt, p->nret);
	p->root_ent = whole_root(w);
	if (!p->root_ent && !p->rtree && p->nret != 1)
		p->rtree = flat_tree(w, p->rt, p->nret);
}

/* The parameter and instruction lines, with the tuples planned after
 * them. */
static void print_body(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	const pl_attr *pa = p->grouped ? p->pa : NULL;
	w->param_attrs = pa;
	if (p->ret && !p->root_ent && p->rtree && p->rtree->v[0].tuple) {
		size_t ngroups;
		label_root(w, p->rtree, operands_of(w, p->ret, &ngroups));
	}
	for (size_t q = 0; q < p->nparams; q++)
		print_param(w, q, p->root_ent, pa);
	for (size_t k = p->nparams; k < w->nents && w->status == PL_OK; k++)
		print_inst(w, w->ents[k].inst, &w->ents[k], &w->ents[k] == p->root_ent);
}

/* A root that is one array inside a tuple: a get-tuple-element line as
 * the root, or the same line made already for an earlier use. */
static void print_gte_root(struct hw *w, const char *want, size_t wl)
{
	struct fn_scratch *p = &w->fn;
	uint32_t leaf;
	struct ent *e = ent_of(w, p->rv[0], &leaf);
	struct pl_strbuf *l = &w->line;
	if (!e || !e->tree) {
		inst_error(w, p->ret, "the returned value has no HLO name");
		return;
	}
	/* find the path of leaf */
	uint32_t idx = 0, first = 0, parent_depth = 0;
	uint32_t path[PL_MAX_NESTING + 1];
	while (e->tree->v[idx].tuple && parent_depth < PL_MAX_NESTING) {
		uint32_t c = idx + 1, k = 0;
		while (first + e->tree->v[c].nleaves <= leaf) {
			first += e->tree->v[c].nleaves;
			c += e->tree->v[c].size;
			k++;
		}
		path[parent_depth++] = k;
		idx = c;
	}
	const char *parent = parent_depth == 1 ? e->name
	                     : gte_name(w, e, path, parent_depth - 1, 0, NULL);
	/* the line after "ROOT NAME = " */
	struct pl_strbuf *rest = &w->tmp2;
	rest->len = 0;
	if (p->rtree)
		put_tree(rest, p->rtree, 0);
	else
		pl_hlo_put_type_(rest, p->rt[0]);
	size_t sl = rest->len;
	pl_sb_puts(rest, " get-tuple-element(");
	put_operand(w, rest, 0, parent);
	pl_sb_printf(rest, "), index=%u", path[parent_depth - 1]);
	put_kept_attrs(w, rest, p->ret, "index");
	if (rest->failed)
		set_err(w, PL_ENOMEM);
	/* the same line made already under the name the root had, for a use
	 * of it before the root (ROOT need not be last): that one is the root */
	if (!(want && name_used(w, want, wl) && mark_root(w, p->lines_at, want, wl, rest, sl))) {
		const char *name = want ? take_name(w, want, false)
		                        : take_name(w, "get-tuple-element", true);
		line_head(l, true, name);
		pl_sb_put(l, rest->data, sl);
		line_shape(w, l, name, true);
		pl_sb_put(l, rest->data + sl, rest->len - sl);
		emit_line(w, l);
	}
}

/* The root line when no entity is the root: a tuple or a
 * get-tuple-element made at the end. */
static void print_made_root(struct hw *w)
{
	struct fn_scratch *p = &w->fn;
	const char *want;
	size_t wl;
	if (pl_attrs_get_string(pl_inst_attrs_const(p->ret), HK(NAME), &want, &wl) != PL_OK)
		want = NULL;
	if (p->rtree && p->rtree->v[0].tuple)
		make_tuple(w, p->rv, (uint32_t)p->nret, p->rtree, 0, want, true,
		           pl_inst_attrs_const(p->ret));
	else if (p->nret == 1)
		print_gte_root(w, want, wl);
	else
		inst_error(w, p->ret, "the returned values have no HLO form");
}

/* " (p: shape, ...) -> shape": the parameters' and the root's shapes
 * (else the last line's), without layouts. */
static void put_signature(struct hw *w, struct pl_strbuf *sb)
{
	pl_sb_puts(sb, " (");
	for (size_t k = 0, n = 0; k < w->fn.nparams; k++) {
		uintptr_t s = (uintptr_t)pl_ht_ptr_get(&w->shape_of, w->ents[k].name);
		if (!s)
			continue;
		pl_sb_printf(sb, "%s%s: ", n++ ? ", " : "", w->ents[k].name);
		put_bare(sb, w->shapes.data + w->spans[s - 1].at, w->spans[s - 1].len);
	}
	pl_sb_puts(sb, ") -> ");
	size_t r = w->fn.root ? w->fn.root : w->fn.last;
	if (r)
		put_bare(sb, w->shapes.data + w->spans[r - 1].at, w->spans[r - 1].len);
}

/* Puts the text of what before byte at of sb, and empties what. */
static void insert_text(struct hw *w, struct pl_strbuf *sb, size_t at, struct pl_strbuf *what)
{
	size_t n = what->len, tail = sb->len - at;
	pl_sb_put(sb, what->data, n); /* room */
	if (sb->failed || what->failed) {
		set_err(w, PL_ENOMEM);
		return;
	}
	memmove(sb->data + at + n, sb->data + at, tail);
	memcpy(sb->data + at, what->data, n);
	what->len = 0;
}

static void print_function(struct hw *w, pl_func *f, bool entry)
{
	struct fn_scratch *p = &w->fn;
	w->f = f;
	size_t nargs = pl_func_num_args(f);
	w->arg_ent = malloc((nargs ? nargs : 1) * sizeof *w->arg_ent);
	if (!w->arg_ent) {
		set_err(w, PL_ENOMEM);
		goto done;
	}
	p->fa = pl_func_attrs(f);
	p->pa = pl_attrs_get(p->fa, HK(PARAM_ATTRS));
	param_ents(w);
	if (w->status != PL_OK)
		goto done;
	inst_ents(w);
	inst_shapes(w);
	if (w->status != PL_OK)
		goto done;
	plan_root(w);
	if (w->status != PL_OK)
		goto done;
	p->lines_at = w->out.len;
	print_body(w);
	if (p->ret && !p->root_ent && w->status == PL_OK)
		print_made_root(w);
	/* the heading, once the root is known, after the computations
	 * wrapping new collectives */
	if (entry)
		pl_sb_puts(&w->wrapped, "ENTRY ");
	pl_sb_printf(&w->wrapped, "%%%s", pl_func_name(f));
	put_signature(w, &w->wrapped);
	pl_sb_puts(&w->wrapped, " {\n");
	if (w->status == PL_OK)
		insert_text(w, &w->out, p->lines_at, &w->wrapped);
	pl_sb_puts(&w->out, "}");
	const char *thr;
	size_t tl;
	if (pl_attrs_get_string(p->fa, HK(EXECUTION_THREAD), &thr, &tl) == PL_OK) {
		pl_sb_puts(&w->out, ", execution_thread=");
		pl_sb_put(&w->out, thr, tl);
	}
	pl_sb_puts(&w->out, "\n\n");
done:
	end_function(w);
}

/* The entry: the function marked hlo_entry, else the last one; NULL in
 * an empty module. */
static pl_func *entry_func(pl_module *m)
{
	size_t nf = pl_module_num_funcs(m);
	pl_func *entry = pl_module_hlo_entry(m);
	if (!entry && nf)
		entry = pl_module_func_at(m, nf - 1);
	return entry;
}

/* The module's heading and the reducer computations the body needs,
 * into w->out. */
static void put_heading(struct hw *w, pl_func *entry)
{
	const char *h;
	size_t hl;
	if (pl_attrs_get_string(pl_func_attrs(entry), HK(MODULE), &h, &hl) == PL_OK) {
		pl_sb_put(&w->out, h, hl);
	} else {
		pl_sb_puts(&w->out, "HloModule ");
		pl_sb_puts(&w->out, pl_func_name(entry));
	}
	pl_sb_putc(&w->out, '\n');
	if (pl_attrs_get_string(pl_func_attrs(entry), HK(STACK_FRAMES), &h, &hl) == PL_OK) {
		pl_sb_put(&w->out, h, hl);
		pl_sb_putc(&w->out, '\n');
	}
	pl_sb_putc(&w->out, '\n');
	for (size_t k = 0; k < w->nreducers; k++) {
		char *kind = w->reducers[k];
		char *dot = strchr(kind, '.');
		char *dt = dot + 1;
		char *dot2 = strchr(dt, '.');
		int n = (int)(dot2 - dt);
		pl_sb_printf(&w->out,
		             "%%%s (p0: %.*s[], p1: %.*s[]) -> %.*s[] {\n"
		             "  %%p0 = %.*s[] parameter(0)\n  %%p1 = %.*s[] parameter(1)\n"
		             "  ROOT %%r = %.*s[] %s(%.*s[] %%p0, %.*s[] %%p1)\n}\n\n",
		             kind, n, dt, n, dt, n, dt, n, dt, n, dt, n, dt, reducer_op(kind), n, dt, n,
		             dt);
	}
}

/* Everything the writer owns. */
static void free_writer(struct hw *w)
{
	pl_sb_free(&w->body);
	pl_sb_free(&w->out);
	pl_sb_free(&w->line);
	pl_sb_free(&w->tmp);
	pl_sb_free(&w->tmp2);
	pl_sb_free(&w->ops);
	pl_sb_free(&w->wrapped);
	free(w->vals);
	for (size_t k = 0; k < w->nreducers; k++)
		free(w->reducers[k]);
	free(w->reducers);
	for (size_t k = 0; k < w->nwarned; k++)
		free(w->warned[k]);
	free(w->warned);
	free(w->ents);
	for (size_t k = 0; k < w->nnames; k++)
		free(w->names[k]);
	free(w->names);
	pl_ht_free(&w->name_set);
	pl_ht_free(&w->module_names);
	free(w->gte_keys);
	pl_ht_free(&w->gte_index);
	free(w->ptrees);
	pl_ht_free(&w->imap);
	pl_ht_free(&w->ops_index);
	pl_sb_free(&w->shapes);
	free(w->spans);
	pl_ht_free(&w->shape_of);
}

int pl_hlo_render_(pl_module *m, pl_diags *diags, struct pl_strbuf *res)
{
	int rc = pl_module_name_values(m);
	if (rc != PL_OK)
		return rc;
	pl_func *entry = entry_func(m);
	if (!entry) {
		pl_diags_add(diags, PL_SEV_ERROR, pl_module_source_name(m), 0, 0,
		             "an empty module cannot be written as XLA HLO");
		return PL_EINVAL;
	}
	struct hw w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.diags = diags;
	w.gte_index.map = true;
	w.imap.map = true;
	w.ops_index.map = true;
	bool wrapped;
	w.async_wrapped = pl_attrs_get_bool(pl_func_attrs(entry), HK(ASYNC_WRAPPED), &wrapped) ==
	                          PL_OK &&
	                  wrapped;
	/* the body first, to learn which reducers it needs; the computations
	 * in the module's order, the entry in its place, so that reading the
	 * text back gives the same order (XLA prints the entry last, and so
	 * does every module read from it) */
	seed_module_names(&w);
	size_t nf = pl_module_num_funcs(m);
	for (size_t k = 0; k < nf && w.status == PL_OK; k++) {
		pl_func *f = pl_module_func_at(m, k);
		print_function(&w, f, f == entry);
		free_function_state(&w);
	}
	/* each computation ends with a blank line but the last (the kept
	 * text, hlo_kept.c, ends as the input did) */
	if (w.out.len >= 2 && w.out.data[w.out.len - 2] == '\n')
		w.out.len--;
	w.body = w.out;
	memset(&w.out, 0, sizeof w.out);
	rc = w.status;
	if (rc == PL_OK) {
		put_heading(&w, entry);
		rc = w.status;
		pl_sb_put(&w.out, w.body.data, w.body.len);
		if (w.out.failed || w.body.failed)
			rc = PL_ENOMEM;
	}
	if (rc == PL_OK) {
		*res = w.out;
		memset(&w.out, 0, sizeof w.out);
	}
	free_writer(&w);
	return rc;
}

int pl_print_hlo_module(pl_module *m, pl_diags *diags, pl_write_fn write, void *userdata)
{
	if (!m || !write)
		return PL_EINVAL;
	struct pl_strbuf text = {0}, kept = {0};
	int rc = pl_hlo_render_(m, diags, &text);
	const struct pl_strbuf *out = &text;
	/* the lines the IR still says the same of, as they were read */
	if (rc == PL_OK && m->hlo_kept) {
		pl_hlo_kept_apply_(m->hlo_kept, text.data, text.len, &kept);
		out = &kept;
		if (kept.failed)
			rc = PL_ENOMEM;
	}
	if (rc == PL_OK && out->len && write(userdata, out->data, out->len) != 0)
		rc = PL_EIO;
	pl_sb_free(&text);
	pl_sb_free(&kept);
	return rc;
}

static int file_write(void *ud, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, ud) == len ? 0 : -1;
}

int pl_print_hlo_module_file(pl_module *m, pl_diags *diags, FILE *fp)
{
	if (!fp)
		return PL_EINVAL;
	int rc = pl_print_hlo_module(m, diags, file_write, fp);
	if (rc == PL_OK && (fflush(fp) != 0 || ferror(fp)))
		rc = PL_EIO;
	return rc;
}
