/* SPDX-License-Identifier: MIT */
/* sdk/ir/inst.c — functions' instruction lists, instructions, values, uses and
 * position numbers. */
#include "ir/internal.h"

/* The function of a value (pl_value_func), inline for this file's loops. */
static inline pl_func *value_func(const pl_value *v)
{
	if (!v->def)
		return ((const struct pl_arg *)(const void *)v)->func;
	return pl_inst_func_(pl_value_def_(v));
}

/* ---- functions ---- */

const char *pl_func_name(const pl_func *f) { return f->name; }
pl_module *pl_func_module(const pl_func *f) { return f->m; }
pl_attrs *pl_func_attrs(pl_func *f) { return &f->attrs; }
unsigned pl_func_line(const pl_func *f) { return f->line; }
unsigned pl_func_col(const pl_func *f) { return f->col; }
size_t pl_func_num_args(const pl_func *f) { return f->nargs; }
pl_value *pl_func_arg(const pl_func *f, size_t i) { return i < f->nargs ? &f->args[i]->v : NULL; }
size_t pl_func_num_insts(const pl_func *f) { return f->ninsts; }
pl_inst *pl_func_first_inst(const pl_func *f) { return f->first; }
pl_inst *pl_func_last_inst(const pl_func *f) { return f->last; }

pl_value *pl_func_add_arg(pl_func *f, const char *name, const pl_type *t)
{
	if (!t || (name && !pl_is_name_(name, strlen(name))))
		return NULL;
	if (f->nargs == f->args_cap) {
		size_t cap = f->args_cap ? f->args_cap * 2 : 4;
		struct pl_arg **v = pl_arena_alloc(&f->m->arena, cap * sizeof *v);
		if (!v)
			return NULL;
		if (f->nargs)
			memcpy(v, f->args, f->nargs * sizeof *v);
		f->args = v;
		f->args_cap = cap;
	}
	/* in the region: uses name it by offset */
	struct pl_arg *a = pl_arena_alloc(&f->m->insts, sizeof *a);
	if (!a)
		return NULL;
	memset(a, 0, sizeof *a);
	a->v.type = t;
	a->func = f;
	a->index = f->nargs;
	if (name && !(a->v.name = pl_arena_text(&f->m->text, name, strlen(name))))
		return NULL;
	f->args[f->nargs++] = a;
	pl_names_changed_(f, a->v.name);
	return &a->v;
}

/* ---- positions ----
 * Linked instructions carry increasing 32-bit numbers with gaps, kept
 * current by every edit, so that reading one never writes. An insertion
 * takes the middle of its gap; an append, the function's append step.
 * When there is no gap, the smallest window of neighbours around the new
 * instruction that is sparse enough is numbered again, evenly. How sparse
 * depends on the window's size: about 2^i instructions must keep an
 * average gap of 2^(i*b/L), where L is the bit length of the function's
 * size and 2^b the largest power of two at most 2^32 / (2 n). Small
 * windows may be dense and large ones must be sparse, so a window numbered
 * again leaves room for many insertions before the next renumbering there
 * (the order-maintenance scheme of Itai, Konheim and Rodeh, and of Dietz
 * and Sleator): each insertion writes O(log^2 n) numbers, amortised. An
 * append with no room left numbers the whole function again over the lower
 * half of the range, leaving the upper half for the next n appends. A
 * function holds fewer than 2^31 instructions. */

#define POS_RANGE ((uint64_t)UINT32_MAX + 1)

static unsigned bit_length(uint64_t x)
{
	unsigned b = 0;
	while (x) {
		b++;
		x >>= 1;
	}
	return b;
}

/* Numbers count instructions from first on evenly, strictly between lo
 * and hi (which has room: hi - lo > count). span * k stays below 2^63:
 * span is at most 2^32 and k below 2^31. */
static void spread(pl_inst *first, size_t count, uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo;
	pl_inst *i = first;
	for (uint64_t k = 1; k <= count; k++, i = pl_inst_next_(i))
		i->pos = (uint32_t)(lo + span * k / (count + 1));
}

/* Numbers the whole function again over [1, range) evenly; appends then
 * step by the spacing. */
static void spread_function(pl_func *f, uint64_t range)
{
	uint64_t n = f->ninsts;
	spread(f->first, n, 0, range);
	uint64_t step = range / (n + 1);
	f->append_step = (uint32_t)(step < 1 ? 1 : step > PL_APPEND_STEP ? PL_APPEND_STEP : step);
}

void pl_func_renumber(pl_func *f)
{
	spread_function(f, POS_RANGE);
}

/* inst, just linked where its neighbours leave no number between them:
 * numbers the smallest sparse enough window around it again. */
static void make_room(pl_inst *inst)
{
	pl_func *f = pl_inst_func_(inst);
	uint64_t n = f->ninsts;
	uint64_t root_gap = POS_RANGE / (2 * n);
	unsigned b = root_gap ? bit_length(root_gap) - 1 : 0, levels = bit_length(n);
	pl_inst *first = inst, *last = inst;
	uint64_t count = 1;
	for (unsigned level = 0;; level++) {
		uint64_t lo = first->prev ? pl_inst_before_(first)->pos : 0;
		uint64_t hi = last->next ? pl_inst_after_(last)->pos : POS_RANGE;
		uint64_t gap = (uint64_t)1 << (level >= levels ? b : level * b / levels);
		if ((hi - lo) / (count + 1) >= gap || (!first->prev && !last->next)) {
			spread(first, count, lo, hi);
			return;
		}
		/* about twice as many: half as many again on each side, more on
		 * the other side at an end of the function */
		uint64_t target = 2 * count, half = (count + 1) / 2;
		for (uint64_t k = 0; k < half && first->prev; k++, count++)
			first = pl_inst_prev_(first);
		for (uint64_t k = 0; k < half && last->next; k++, count++)
			last = pl_inst_next_(last);
		for (; count < target && first->prev; count++)
			first = pl_inst_prev_(first);
		for (; count < target && last->next; count++)
			last = pl_inst_next_(last);
	}
}

static void assign_pos(pl_inst *inst)
{
	pl_func *f = pl_inst_func_(inst);
	uint64_t lo = inst->prev ? pl_inst_before_(inst)->pos : 0;
	uint64_t hi = inst->next ? pl_inst_after_(inst)->pos : POS_RANGE;
	if (hi - lo >= 2) {
		uint64_t step = (hi - lo) / 2;
		if (!inst->next && step > f->append_step)
			step = f->append_step; /* appending: leave room for what follows */
		inst->pos = (uint32_t)(lo + step);
	} else if (!inst->next) {
		spread_function(f, POS_RANGE / 2);
	} else {
		make_room(inst);
	}
}

uint64_t pl_inst_position(const pl_inst *inst)
{
	return inst->pos;
}

bool pl_inst_comes_before(const pl_inst *a, const pl_inst *b)
{
	return a->pos < b->pos;
}

int pl_inst_get_position(uint64_t *out, const pl_inst *inst)
{
	if (!(inst->flags & PL_INST_LINKED))
		return PL_ENOTFOUND;
	*out = inst->pos;
	return PL_OK;
}

/* ---- linking ----
 * Inserting or moving relative to a position that is not linked (detached,
 * or erased) does nothing: its prev/next are NULL, and linking next to it
 * used to make the new instruction the function's first or last one,
 * cutting the rest of the list off. */

/* Links inst between prev and next; inserted says it was detached (not
 * moved within its function). */
static void link_between(pl_inst *inst, pl_inst *prev, pl_inst *next, bool inserted)
{
	pl_func *f = pl_inst_func_(inst);
	uint32_t self = pl_region_off_(inst);
	inst->prev = pl_region_off_(prev);
	inst->next = pl_region_off_(next);
	if (prev)
		prev->next = self;
	else
		f->first = inst;
	if (next)
		next->prev = self;
	else
		f->last = inst;
	inst->flags |= PL_INST_LINKED;
	f->ninsts++;
	f->m->ninsts++;
	assign_pos(inst);
	/* The names of a detached instruction's results are noted when it
	 * goes in, not when they are given (pl_value_set_name): naming the
	 * values between creating and inserting it (a print for a remark,
	 * say) would forget them, its unnamed results printed as
	 * "%<unnamed>" and a name given to it given to another value
	 * meanwhile. (The reader names its values, all unique, before it
	 * links them, with the names marked dirty meanwhile: this costs it
	 * one test per result.) */
	if (!inserted || f->names_dirty)
		return;
	pl_value *res = pl_inst_res_(inst);
	for (uint32_t k = 0; k < inst->nres; k++)
		pl_names_changed_(f, res[k].name);
}

static void unlink_inst(pl_inst *inst)
{
	pl_func *f = pl_inst_func_(inst);
	pl_inst *prev = pl_inst_before_(inst), *next = pl_inst_after_(inst);
	if (prev)
		prev->next = inst->next;
	else
		f->first = next;
	if (next)
		next->prev = inst->prev;
	else
		f->last = prev;
	inst->prev = inst->next = 0;
	inst->flags &= ~PL_INST_LINKED & 0xffu;
	f->ninsts--;
	f->m->ninsts--;
}

void pl_func_append(pl_func *f, pl_inst *inst)
{
	if (pl_inst_func_(inst) != f || (inst->flags & (PL_INST_LINKED | PL_INST_ERASED)))
		return;
	link_between(inst, f->last, NULL, true);
}

void pl_inst_insert_before(pl_inst *inst, pl_inst *pos)
{
	if (pl_inst_func_(inst) != pl_inst_func_(pos) ||
	    (inst->flags & (PL_INST_LINKED | PL_INST_ERASED)) || !(pos->flags & PL_INST_LINKED))
		return;
	link_between(inst, pl_inst_before_(pos), pos, true);
}

void pl_inst_insert_after(pl_inst *inst, pl_inst *pos)
{
	if (pl_inst_func_(inst) != pl_inst_func_(pos) ||
	    (inst->flags & (PL_INST_LINKED | PL_INST_ERASED)) || !(pos->flags & PL_INST_LINKED))
		return;
	link_between(inst, pos, pl_inst_after_(pos), true);
}

void pl_inst_move_before(pl_inst *inst, pl_inst *pos)
{
	if (inst == pos || pl_inst_func_(inst) != pl_inst_func_(pos) || !(inst->flags & PL_INST_LINKED) ||
	    !(pos->flags & PL_INST_LINKED))
		return;
	unlink_inst(inst);
	link_between(inst, pl_inst_before_(pos), pos, false);
}

void pl_inst_move_after(pl_inst *inst, pl_inst *pos)
{
	if (inst == pos || pl_inst_func_(inst) != pl_inst_func_(pos) || !(inst->flags & PL_INST_LINKED) ||
	    !(pos->flags & PL_INST_LINKED))
		return;
	unlink_inst(inst);
	link_between(inst, pos, pl_inst_after_(pos), false);
}

/* The neighbours inst gets at where (pos checked as pl_inst_insert says);
 * false on a misuse. */
static bool place(const pl_inst *inst, pl_inst *pos, pl_where where, pl_inst **prev,
                  pl_inst **next)
{
	pl_func *f = pl_inst_func_(inst);
	switch (where) {
	case PL_FIRST:
	case PL_LAST:
		if (pos)
			return false;
		*prev = where == PL_FIRST ? NULL : f->last;
		*next = where == PL_FIRST ? f->first : NULL;
		return true;
	case PL_BEFORE:
	case PL_AFTER:
		if (!pos || pl_inst_func_(pos) != f || !(pos->flags & PL_INST_LINKED))
			return false;
		*prev = where == PL_BEFORE ? pl_inst_before_(pos) : pos;
		*next = where == PL_BEFORE ? pos : pl_inst_after_(pos);
		return true;
	}
	return false;
}

int pl_inst_insert(pl_inst *inst, pl_inst *pos, pl_where where)
{
	pl_inst *prev, *next;
	if (!inst || (inst->flags & (PL_INST_LINKED | PL_INST_ERASED)) ||
	    !place(inst, pos, where, &prev, &next))
		return PL_EINVAL;
	link_between(inst, prev, next, true);
	return PL_OK;
}

int pl_inst_move(pl_inst *inst, pl_inst *pos, pl_where where)
{
	pl_inst *prev, *next;
	if (!inst || !(inst->flags & PL_INST_LINKED) || inst == pos ||
	    !place(inst, pos, where, &prev, &next))
		return PL_EINVAL;
	if (prev == inst || next == inst)
		return PL_OK; /* there already (PL_FIRST or PL_LAST) */
	if (prev == pl_inst_before_(inst) && next == pl_inst_after_(inst))
		return PL_OK;
	unlink_inst(inst);
	link_between(inst, prev, next, false);
	return PL_OK;
}

/* ---- uses ---- */

static void use_unlink(pl_use *u)
{
	if (!u->val)
		return;
	pl_use *next = pl_use_next_(u);
	if (u->prev)
		((pl_use *)pl_region_at_(u, u->prev))->next = u->next;
	else
		pl_use_val_(u)->uses = u->next;
	if (next)
		next->prev = u->prev;
	u->val = u->next = u->prev = 0;
}

/* Nothing changes when v is another module's: a use names its value by
 * an offset in its own module's region. */
void pl_use_set_(pl_use *u, pl_value *v)
{
	if (v && !pl_region_same_(u, v))
		return;
	use_unlink(u);
	if (!v)
		return;
	uint32_t self = pl_region_off_(u);
	u->val = pl_region_off_(v);
	u->next = v->uses;
	if (v->uses)
		pl_value_uses_(v)->prev = self;
	v->uses = self;
}

/* ---- recycled blocks ----
 * Erased instructions' blocks wait in per-size lists for the next
 * instruction. A request whose own list is empty takes the smallest larger
 * block there is and leaves the rest in the list of its size: passes that
 * replace instructions by smaller ones (CoalesceCCOp lowers a tuple to a
 * pack and an unpack) then reuse memory that is already mapped, instead of
 * faulting in new pages. Blocks over FREE_BLOCK_MAX wait in lists by the
 * power of two at or below their size, which they keep in the word after
 * the header (the header's first word links the list, as in a small one). */

enum { LARGE_SIZE_AT = sizeof(pl_inst), LARGE_FIT_TRIES = 8 };

static unsigned floor_log2(uint64_t n) { return 63u - (unsigned)__builtin_clzll(n); }

/* The size a large free block keeps after its header. */
static size_t large_size(const void *block)
{
	uint64_t size;
	memcpy(&size, (const char *)block + LARGE_SIZE_AT, sizeof size);
	return (size_t)size;
}

static void free_block_push(pl_module *m, void *p, size_t size)
{
	void **block = p;
	if (size > PL_FREE_BLOCK_MAX) {
		unsigned c = floor_log2(size);
		*block = m->free_large[c];
		memcpy((char *)p + LARGE_SIZE_AT, &(uint64_t){size}, sizeof(uint64_t));
		m->free_large[c] = block;
		m->free_large_mask |= (uint64_t)1 << c;
		return;
	}
	size_t c = size / 8;
	*block = m->free_blocks[c];
	m->free_blocks[c] = block;
	m->free_mask[c / 64] |= (uint64_t)1 << (c % 64);
}

/* The index of the lowest set bit of w (not 0), by de Bruijn multiplication. */
static unsigned lowest_bit(uint64_t w)
{
	static const unsigned char index[64] = {
		0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,
		62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
		63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
		46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
	return index[((w & (~w + 1)) * UINT64_C(0x03f79d71b4cb0a89)) >> 58];
}

/* Takes the block *link names out of the list at *head; bit of *mask,
 * the list's, goes when the list empties. */
static void *list_take(void **link, void *const *head, uint64_t *mask, unsigned bit)
{
	void **block = *link;
	*link = *block;
	if (!*head)
		*mask &= ~((uint64_t)1 << bit);
	return block;
}

/* The first block of small list c. */
static void *small_take(pl_module *m, size_t c)
{
	return list_take(&m->free_blocks[c], &m->free_blocks[c], &m->free_mask[c / 64],
	                 (unsigned)(c % 64));
}

/* A recycled block of exactly size bytes (<= PL_FREE_BLOCK_MAX), or NULL. */
static inline void *free_block_pop(pl_module *m, size_t size)
{
	return m->free_blocks[size / 8] ? small_take(m, size / 8) : NULL;
}

/* A large block of at least size bytes, taken from its list, its size in
 * *got; NULL when none. In size's own list the first few are tried; any
 * block of a higher list holds it. */
static void *free_large_take(pl_module *m, size_t size, size_t *got)
{
	unsigned c = size > PL_FREE_BLOCK_MAX ? floor_log2(size) : floor_log2(PL_FREE_BLOCK_MAX + 1);
	void **link = &m->free_large[c];
	for (int tries = 0; *link && large_size(*link) < size && tries < LARGE_FIT_TRIES; tries++)
		link = *link;
	if (!*link || large_size(*link) < size) {
		uint64_t w = c + 1 < 64 ? m->free_large_mask & (~(uint64_t)0 << (c + 1)) : 0;
		if (!w)
			return NULL;
		c = lowest_bit(w);
		link = &m->free_large[c];
	}
	*got = large_size(*link);
	return list_take(link, &m->free_large[c], &m->free_large_mask, c);
}

/* A recycled block of size bytes, cut from a larger one when there is
 * none of that size, or NULL. */
static void *free_block_take(pl_module *m, size_t size)
{
	enum { WORDS = sizeof m->free_mask / sizeof m->free_mask[0] };
	void **block = NULL;
	size_t found = 0;
	if (size <= PL_FREE_BLOCK_MAX) {
		size_t c = size / 8, wi = c / 64;
		uint64_t w = m->free_mask[wi] & (~(uint64_t)0 << (c % 64));
		while (!w && ++wi < WORDS)
			w = m->free_mask[wi];
		if (w) {
			size_t fc = wi * 64 + lowest_bit(w);
			block = small_take(m, fc);
			found = fc * 8;
		}
	}
	if (!block && !(block = free_large_take(m, size, &found)))
		return NULL;
	size_t rest = found - size;
	if (rest >= sizeof(void *))
		free_block_push(m, (char *)block + size, rest);
	return block;
}

int pl_inst_erase(pl_inst *inst)
{
	if (inst->flags & PL_INST_ERASED)
		return PL_EINVAL;
	pl_value *res = pl_inst_res_(inst);
	for (uint32_t k = 0; k < inst->nres; k++)
		if (res[k].uses)
			return PL_EINVAL;
	if (inst->flags & PL_INST_LINKED)
		unlink_inst(inst);
	pl_use *ops = pl_inst_ops_(inst);
	for (uint32_t k = 0; k < inst->nops; k++)
		use_unlink(&ops[k]);
	inst->flags |= PL_INST_ERASED;
	/* The block goes back to the module for the next instruction of its
	 * size: passes that replace instructions (merging, lowering) would
	 * otherwise grow the arena by what they erase. */
	size_t size = sizeof(pl_inst) + inst->nops * sizeof(pl_use) + inst->nres * sizeof(pl_value);
	free_block_push(pl_inst_func_(inst)->m, inst, size);
	return PL_OK;
}

/* ---- creation ---- */

/* split: may cut the block from a larger recycled one. The reader, which
 * erases nothing, only looks for one of its size, as before. */
static pl_inst *inst_alloc(pl_func *f, uint32_t op, size_t nops, size_t nres, bool split)
{
	if (nops > UINT32_MAX / 2 || nres > UINT32_MAX / 2)
		return NULL;
	size_t size = sizeof(pl_inst) + nops * sizeof(pl_use) + nres * sizeof(pl_value);
	pl_inst *inst = split ? free_block_take(f->m, size)
	                : size <= PL_FREE_BLOCK_MAX ? free_block_pop(f->m, size) : NULL;
	if (!inst)
		inst = pl_arena_alloc(&f->m->insts, size);
	if (!inst)
		return NULL;
	memset(inst, 0, size);
	inst->func = pl_region_off_(f);
	inst->op = op;
	inst->nops = (uint32_t)nops;
	inst->nres = (uint32_t)nres;
	inst->attrs.owner = PL_ATTRS_OF_INST;
	uint32_t self = pl_region_off_(inst);
	pl_use *ops = pl_inst_ops_(inst);
	for (size_t k = 0; k < nops; k++)
		ops[k].user = self;
	pl_value *res = pl_inst_res_(inst);
	for (size_t k = 0; k < nres; k++)
		res[k].def = self;
	return inst;
}

pl_inst *pl_inst_alloc_(pl_func *f, uint32_t op, size_t nops, size_t nres)
{
	return inst_alloc(f, op, nops, nres, false);
}

pl_inst *pl_inst_new(pl_func *f, const char *opname, pl_value *const *operands,
                     size_t num_operands, const pl_type *const *result_types,
                     size_t num_results)
{
	pl_inst *inst;
	pl_inst_create(&inst, f, opname, operands, num_operands, result_types, num_results);
	return inst;
}

int pl_inst_create(pl_inst **out, pl_func *f, const char *opname, pl_value *const *operands,
                   size_t num_operands, const pl_type *const *result_types,
                   size_t num_results)
{
	*out = NULL;
	if (!f || !opname || (num_operands && !operands) || (num_results && !result_types))
		return PL_EINVAL;
	if (num_operands > UINT32_MAX / 2 || num_results > UINT32_MAX / 2)
		return PL_ELIMIT;
	for (size_t k = 0; k < num_operands; k++)
		if (!operands[k] || value_func(operands[k]) != f)
			return PL_EINVAL;
	for (size_t k = 0; k < num_results; k++)
		if (!result_types[k])
			return PL_EINVAL;
	/* passes create instructions of a few ops, naming them with the same
	 * literals: remember the op's number by the given address, hashed
	 * whole (a compiler may store "pack" as the tail of "unpack": two
	 * literals in one 8-byte word took turns in one slot) */
	pl_module *m = f->m;
	size_t slot = pl_ht_hash_ptr(opname) >> 28; /* 16 slots */
	uint32_t op = m->op_cache[slot].op;
	if (m->op_cache[slot].given != opname || strcmp(m->ops.names[op], opname) != 0) {
		if (!pl_is_opname_(opname, strlen(opname)))
			return PL_EINVAL;
		uint32_t number = pl_op_number_text_(m, opname, strlen(opname));
		if (!number)
			return m->ops.n == m->ops.max ? PL_ELIMIT : PL_ENOMEM;
		op = number;
		m->op_cache[slot].given = opname;
		m->op_cache[slot].op = op;
	}
	pl_inst *inst = inst_alloc(f, op, num_operands, num_results, true);
	if (!inst)
		return PL_ENOMEM;
	pl_use *ops = pl_inst_ops_(inst);
	for (size_t k = 0; k < num_operands; k++)
		pl_use_set_(&ops[k], operands[k]);
	pl_value *res = pl_inst_res_(inst);
	for (size_t k = 0; k < num_results; k++)
		res[k].type = result_types[k];
	if (num_results)
		pl_names_changed_(f, NULL);
	*out = inst;
	return PL_OK;
}

pl_inst *pl_inst_clone(const pl_inst *src)
{
	pl_func *f = pl_inst_func_(src);
	pl_inst *inst = inst_alloc(f, src->op, src->nops, src->nres, true);
	/* first what can fail: the block is then unused (the arena frees it) */
	if (!inst || pl_inst_copy_attrs(inst, src) != PL_OK)
		return NULL;
	pl_use *ops = pl_inst_ops_(inst), *sops = pl_inst_ops_(src);
	for (uint32_t k = 0; k < src->nops; k++)
		pl_use_set_(&ops[k], pl_use_val_(&sops[k]));
	pl_value *res = pl_inst_res_(inst), *sres = pl_inst_res_(src);
	for (uint32_t k = 0; k < src->nres; k++)
		res[k].type = sres[k].type;
	inst->line = src->line;
	inst->col = src->col;
	if (src->nres)
		pl_names_changed_(f, NULL);
	return inst;
}

int pl_inst_copy_attrs(pl_inst *inst, const pl_inst *from)
{
	/* keys are interned per module: another module's would never match */
	if (pl_inst_func_(inst)->m != pl_inst_func_(from)->m)
		return PL_EINVAL;
	if (inst != from)
		return pl_attrs_copy_(pl_inst_func_(inst)->m, &inst->attrs, &from->attrs);
	return PL_OK;
}

/* ---- accessors ---- */

pl_func *pl_inst_func(const pl_inst *i) { return pl_inst_func_(i); }
pl_inst *pl_inst_next(const pl_inst *i) { return pl_inst_next_(i); }
pl_inst *pl_inst_prev(const pl_inst *i) { return pl_inst_prev_(i); }
bool pl_inst_is_linked(const pl_inst *i) { return (i->flags & PL_INST_LINKED) != 0; }
pl_op pl_inst_op(const pl_inst *i) { return pl_inst_op_(i); }
const char *pl_inst_opname(const pl_inst *i) { return pl_inst_opname_(i); }
unsigned pl_inst_traits(const pl_inst *i) { return pl_inst_traits_(i); }

bool pl_inst_has_side_effects(const pl_inst *i)
{
	/* an op the SDK does not know may do anything */
	pl_op op = pl_inst_op_(i);
	return op == PL_OP_OTHER || (pl_op_traits(op) & PL_TRAIT_SIDE_EFFECTS);
}
size_t pl_inst_num_operands(const pl_inst *i) { return i->nops; }
size_t pl_inst_num_results(const pl_inst *i) { return i->nres; }
pl_attrs *pl_inst_attrs(pl_inst *i) { return &i->attrs; }
const pl_attrs *pl_inst_attrs_const(const pl_inst *i) { return &i->attrs; }
unsigned pl_inst_line(const pl_inst *i) { return i->line; }
unsigned pl_inst_col(const pl_inst *i) { return i->col; }

void pl_inst_set_loc(pl_inst *i, unsigned line, unsigned col)
{
	i->line = line;
	i->col = col;
}

pl_value *pl_inst_operand(const pl_inst *i, size_t k)
{
	return k < i->nops ? pl_use_val_(&pl_inst_ops_(i)[k]) : NULL;
}

void pl_inst_set_operand(pl_inst *i, size_t k, pl_value *v)
{
	if (k < i->nops && v)
		pl_use_set_(&pl_inst_ops_(i)[k], v);
}

pl_value *pl_inst_result(const pl_inst *i, size_t k)
{
	return k < i->nres ? &pl_inst_res_(i)[k] : NULL;
}

/* ---- values ---- */

const pl_type *pl_value_type(const pl_value *v) { return v->type; }
const char *pl_value_name(const pl_value *v) { return v->name; }
pl_inst *pl_value_def(const pl_value *v) { return pl_value_def_(v); }
bool pl_value_is_arg(const pl_value *v) { return v->def == 0; }

size_t pl_value_index(const pl_value *v)
{
	if (!v->def)
		return ((const struct pl_arg *)(const void *)v)->index;
	return (size_t)(v - pl_inst_res_(pl_value_def_(v)));
}

pl_func *pl_value_func(const pl_value *v)
{
	return value_func(v);
}

int pl_value_set_name(pl_value *v, const char *name)
{
	if (!name)
		return PL_EINVAL;
	size_t len = strlen(name), size = (len + 8) & ~(size_t)7;
	if (!pl_is_name_(name, len))
		return PL_EINVAL;
	pl_func *f = value_func(v);
	/* a pass that names what it builds may have erased something */
	char *copy = size <= PL_FREE_BLOCK_MAX ? free_block_take(f->m, size) : NULL;
	if (copy) {
		memcpy(copy, name, len);
		copy[len] = '\0';
	} else if (!(copy = pl_arena_text(&f->m->text, name, len))) {
		return PL_ENOMEM;
	}
	v->name = copy;
	/* a result of an instruction not in the function is noted when the
	 * instruction goes in (link_between) */
	const pl_inst *def = pl_value_def_(v);
	if (!def || (def->flags & PL_INST_LINKED))
		pl_names_changed_(f, copy);
	return PL_OK;
}

pl_use *pl_value_first_use(const pl_value *v) { return pl_value_uses_(v); }
pl_use *pl_use_next(const pl_use *u) { return pl_use_next_(u); }
pl_inst *pl_use_user(const pl_use *u) { return pl_use_user_(u); }
size_t pl_use_operand_index(const pl_use *u) { return (size_t)(u - pl_inst_ops_(pl_use_user_(u))); }
bool pl_value_has_uses(const pl_value *v) { return v->uses != 0; }

size_t pl_value_num_uses(const pl_value *v)
{
	size_t n = 0;
	for (const pl_use *u = pl_value_uses_(v); u; u = pl_use_next_(u))
		n++;
	return n;
}

void pl_value_replace(pl_value *from, pl_value *to)
{
	if (from == to || !pl_region_same_(from, to))
		return;
	while (from->uses)
		pl_use_set_(pl_value_uses_(from), to);
	if (!to->name && from->name) {
		to->name = from->name;
		from->name = NULL;
	}
	pl_names_changed_(value_func(to), NULL);
}

/* ---- derived quantities ---- */

void pl_count_attrs_(const pl_attrs *d, struct pl_count_attrs *a)
{
	*a = (struct pl_count_attrs){0};
	const struct pl_attr_entry *entries = pl_attrs_v_(d);
	for (uint16_t i = 0; i < d->n; i++) {
		const pl_attr *v = &entries[i].val;
		const pl_attr **slot;
		switch (v->key) { /* the reserved keys, numbered alike in every module */
		case PL_KEY_DOMAIN: slot = &a->domain; break;
		case PL_KEY_PREDICATE: slot = &a->predicate; break;
		case PL_KEY_NUM_DYNAMIC_INSTANCES: slot = &a->num_dynamic_instances; break;
		case PL_KEY_FLOPS: slot = &a->flops; break;
		default: continue;
		}
		if (!*slot)
			*slot = v; /* the first, as pl_attrs_get finds */
	}
}

/* The count of inst with the explicit count a and the domain dom (either
 * NULL when absent). */
static inline int num_dynamic_instances(const pl_inst *inst, const pl_attr *a,
                                        const pl_attr *dom, uint64_t *out)
{
	/* an explicit count wins over the domain wherever it stands */
	if (a) {
		int64_t x = a->kind == PL_ATTR_INT ? pl_attr_i_(a) : -1;
		if (x < 0)
			return PL_ETYPE;
		*out = (uint64_t)x;
		return PL_OK;
	}
	if (dom) {
		if (dom->kind != PL_ATTR_LIST)
			return PL_ETYPE;
		/* a bad extent is an error even after a 0, and a 0 makes the count
		 * 0 even after an overflow; the product is checked in 128 bits
		 * rather than with a division per extent (once it overflows, or
		 * after a 0, the running product no longer matters) */
		uint64_t n = 1;
		bool zero = false, over = false;
		const pl_attr *elems = pl_attr_elems_(dom);
		for (uint32_t k = 0, rank = pl_attr_len_(dom); k < rank; k++) {
			const pl_attr *e = &elems[k];
			int64_t x = e->kind == PL_ATTR_INT ? pl_attr_i_(e) : -1;
			if (x < 0)
				return PL_ETYPE;
			zero |= x == 0;
			pl_u128 p = (pl_u128)n * (uint64_t)x;
			over |= p > INT64_MAX;
			n = (uint64_t)p;
		}
		if (zero) {
			*out = 0;
			return PL_OK;
		}
		if (over)
			return PL_EOVERFLOW;
		*out = n;
		return PL_OK;
	}
	const pl_type *t = NULL;
	if (inst->nres)
		t = pl_inst_res_(inst)[0].type;
	else if (inst->nops && pl_inst_ops_(inst)[0].val)
		t = pl_use_val_(&pl_inst_ops_(inst)[0])->type;
	if (!t) {
		*out = 1;
		return PL_OK;
	}
	if (t->elements > (uint64_t)INT64_MAX) /* as pl_type_num_elements */
		return PL_EOVERFLOW;
	*out = t->elements;
	return PL_OK;
}

int pl_num_dynamic_instances_(const pl_inst *inst, const struct pl_count_attrs *a,
                              uint64_t *out)
{
	return num_dynamic_instances(inst, a->num_dynamic_instances, a->domain, out);
}

int pl_inst_num_dynamic_instances(const pl_inst *inst, uint64_t *out)
{
	/* one scan for the two keys it reads; an explicit count ends it */
	const pl_attr *dom = NULL;
	const struct pl_attr_entry *v = pl_attrs_v_(&inst->attrs);
	for (uint16_t i = 0; i < inst->attrs.n; i++) {
		uint32_t k = v[i].val.key;
		if (k == PL_KEY_NUM_DYNAMIC_INSTANCES)
			return num_dynamic_instances(inst, &v[i].val, NULL, out);
		if (k == PL_KEY_DOMAIN && !dom)
			dom = &v[i].val;
	}
	return num_dynamic_instances(inst, NULL, dom, out);
}

int pl_flops_(const pl_inst *inst, const struct pl_count_attrs *attrs, int64_t *out)
{
	const pl_attr *a = attrs->flops;
	if (a) {
		int64_t x = a->kind == PL_ATTR_INT ? pl_attr_i_(a) : -1;
		if (x < 0)
			return PL_ETYPE;
		*out = x;
		return PL_OK;
	}
	*out = pl_op_flops_table_[pl_inst_op_(inst)];
	return PL_OK;
}

int pl_inst_flops(const pl_inst *inst, int64_t *out)
{
	const pl_attr *a = pl_attrs_find_id_(&inst->attrs, PL_KEY_FLOPS);
	struct pl_count_attrs attrs = {.flops = a};
	return pl_flops_(inst, &attrs, out);
}
