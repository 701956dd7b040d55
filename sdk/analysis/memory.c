/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.c — the buffers a function holds over its
 * instruction order, as XLA's buffer assignment makes them
 * (passline/cost.h: pl_func_peak_bytes).
 *
 * One walk in order gives each value a buffer: a new one, or, by the rules
 * of memory_rules.c, its operand's (a view, or an in-place update when
 * nothing reads the operand later). A buffer is live from the instruction
 * that makes it to the last use of any value in it; arguments and
 * constants for the whole function. Then the values a loop body or the
 * entry returns in an argument's place move into that argument's buffer
 * when the argument is dead by then. A last walk sums what is born and
 * what dies at each instruction. Temporaries are summed, not packed: XLA's
 * heap simulator packs them into no less (fragmentation is not modelled).
 */
#include "analysis/fusion.h"
#include "analysis/memory.h"
#include "ir/hlo_keys.h"
#include <passline/grow.h>
#include <passline/fusion.h>

#include <stdlib.h>

/* 0 for a count that overflows (pl_type_num_bytes) */
static uint64_t value_bytes(const pl_value *v)
{
	return v->type->bytes > (uint64_t)INT64_MAX ? 0 : v->type->bytes;
}

static void add_sat(uint64_t *acc, uint64_t b)
{
	*acc = *acc + b < *acc ? UINT64_MAX : *acc + b;
}

static bool is_start(const pl_inst *i)
{
	return (pl_inst_traits_(i) & PL_TRAIT_COLLECTIVE_START) != 0;
}

/* The done of start s (the user of its first result), or NULL. */
static const pl_inst *done_of(const pl_inst *s)
{
	if (!s->nres)
		return NULL;
	const pl_use *u = pl_value_uses_(&pl_inst_res_(s)[0]);
	return u ? pl_use_user_(u) : NULL;
}

/* The ordinal of inst in p, or PL_MEM_NONE when it is not in p's order. */
static uint32_t ordinal(const struct pl_mem_plan_ *p, const pl_inst *inst)
{
	if (!(inst->flags & PL_INST_LINKED) || pl_inst_func_(inst) != p->f)
		return PL_MEM_NONE;
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->inst[mid]->pos < inst->pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n && p->inst[lo] == inst ? (uint32_t)lo : PL_MEM_NONE;
}

/* The index of value v in p, or PL_MEM_NONE. */
static uint32_t value_index(const struct pl_mem_plan_ *p, const pl_value *v)
{
	if (!v->def) {
		const struct pl_arg *a = (const struct pl_arg *)(const void *)v;
		return a->func == p->f && a->index < p->f->nargs ? (uint32_t)a->index : PL_MEM_NONE;
	}
	const pl_inst *d = pl_value_def_(v);
	uint32_t o = ordinal(p, d);
	return o == PL_MEM_NONE ? o : p->first[o] + (uint32_t)(v - pl_inst_res_(d));
}

/* The ordinal of v's last use, at least from: a start's operand is read
 * until its done; a use by an instruction that is not in memory (inside a
 * kernel) lasts as long as that instruction's results. */
static uint32_t last_use(const struct pl_mem_plan_ *p, const pl_value *v, uint32_t from)
{
	uint32_t last = from;
	for (const pl_use *u = pl_value_uses_(v); u; u = pl_use_next_(u)) {
		const pl_inst *user = pl_use_user_(u);
		if (is_start(user) && done_of(user))
			user = done_of(user);
		uint32_t o = ordinal(p, user);
		if (o == PL_MEM_NONE)
			continue;
		if (p->virt && p->virt[o] && o > from)
			for (uint32_t r = 0; r < user->nres; r++)
				if (p->last[p->first[o] + r] > o)
					o = p->last[p->first[o] + r];
		if (o > last)
			last = o;
	}
	return last;
}

/* Which instructions are not in memory under the fusion model fu: those
 * computed again where read, and those whose every user is in their own
 * kernel. */
static void mark_virtual(struct pl_mem_plan_ *p, const pl_fusion *fu)
{
	for (size_t o = 0; o < p->n; o++) {
		size_t k = pl_fusion_inst_kernel(fu, o);
		if (k == SIZE_MAX)
			continue;
		bool inside = true;
		const pl_inst *inst = p->inst[o];
		for (uint32_t r = 0; r < inst->nres && inside; r++)
			for (const pl_use *u = pl_value_uses_(&pl_inst_res_(inst)[r]); u && inside;
			     u = pl_use_next_(u)) {
				uint32_t ou = ordinal(p, pl_use_user_(u));
				inside = ou != PL_MEM_NONE && pl_fusion_inst_kernel(fu, ou) == k;
			}
		p->virt[o] = inside || pl_fusion_inst_recomputed_(fu, o);
	}
}

/* Every value's last use, the last instruction first (a use inside a
 * kernel takes the last use of what it makes, known by then). */
static void last_uses(struct pl_mem_plan_ *p)
{
	for (size_t o = p->n; o-- > 0;) {
		const pl_inst *inst = p->inst[o];
		for (uint32_t r = 0; r < inst->nres; r++)
			p->last[p->first[o] + r] =
			        last_use(p, &pl_inst_res_(inst)[r], (uint32_t)o);
	}
	for (size_t a = 0; a < p->f->nargs; a++)
		p->last[a] = last_use(p, &p->f->args[a]->v, 0);
}

static int new_buf(struct pl_mem_plan_ *p, size_t *cap, struct pl_mem_buf_ b, uint32_t *out)
{
	if (!PL_GROW(p->buf, *cap, p->nbuf + 1))
		return PL_ENOMEM;
	b.taken_at = PL_MEM_NONE;
	b.bound_to = PL_MEM_NONE;
	if (b.kind != PL_BUFFER_IN_FLIGHT)
		b.ready_at = 0;
	p->buf[p->nbuf] = b;
	*out = (uint32_t)p->nbuf++;
	return PL_OK;
}

/* Whether the instruction at ordinal o may update buffer b in place:
 * nothing reads it after o, it may be written, and no other result of o
 * took it. */
static bool may_update(const struct pl_mem_buf_ *b, uint32_t o)
{
	return b->last <= o && !b->readonly && b->taken_at != o;
}

/* Puts value vi (made at ordinal o, last used at lu) into buffer b. */
static void join(struct pl_mem_plan_ *p, uint32_t vi, uint32_t b, uint32_t lu)
{
	p->vbuf[vi] = b;
	if (lu > p->buf[b].last)
		p->buf[b].last = lu;
}

/* The buffer of operand k of inst, or PL_MEM_NONE. */
static uint32_t operand_buf(const struct pl_mem_plan_ *p, const pl_inst *inst, uint32_t k)
{
	if (k >= inst->nops)
		return PL_MEM_NONE;
	uint32_t vi = value_index(p, pl_use_val_(&pl_inst_ops_(inst)[k]));
	return vi == PL_MEM_NONE ? vi : p->vbuf[vi];
}

struct scratch {
	uint32_t *in_place, *alias;
	bool *written;
	size_t cap, alias_cap, written_cap;
};

/* Gives each result of the instruction at ordinal o its buffer. */
static int place_results(struct pl_mem_plan_ *p, size_t *cap, uint32_t o, struct scratch *s,
                         pl_mem_hook_ hook, void *arg)
{
	const pl_inst *inst = p->inst[o];
	if (!PL_GROW(s->in_place, s->cap, inst->nres + 1) ||
	    !PL_GROW(s->alias, s->alias_cap, inst->nres + 1) ||
	    !PL_GROW(s->written, s->written_cap, inst->nres + 1))
		return PL_ENOMEM;
	enum pl_mem_rule_ rule = pl_mem_rule_(inst, p->virt != NULL, s->in_place);
	for (uint32_t r = 0; r < inst->nres; r++) {
		s->alias[r] = PL_MEM_NONE;
		s->written[r] = false;
	}
	if (hook) {
		struct pl_mem_call_ c = {0, s->alias, s->written};
		int rc = hook(inst, arg, &c);
		if (rc)
			return rc;
		p->extra[o] = c.extra;
	}
	bool start = is_start(inst);
	for (uint32_t r = 0; r < inst->nres; r++) {
		const pl_value *v = &pl_inst_res_(inst)[r];
		uint32_t vi = p->first[o] + r, lu = p->last[vi], b = PL_MEM_NONE;
		if (p->virt && p->virt[o]) { /* inside a kernel: in no buffer */
			p->vbuf[vi] = PL_MEM_NONE;
			continue;
		}
		bool view = false;
		switch (rule) {
		case PL_MEM_VIEW:
		case PL_MEM_DONE:
			b = operand_buf(p, inst, r);
			view = b != PL_MEM_NONE && p->buf[b].bytes >= value_bytes(v);
			break;
		case PL_MEM_IN_PLACE:
			b = operand_buf(p, inst, s->in_place[r]);
			break;
		case PL_MEM_WHILE: /* the body passes what it does not write */
			b = operand_buf(p, inst, r);
			view = s->alias[r] == r && !s->written[r];
			break;
		case PL_MEM_CALLS:
			b = operand_buf(p, inst, s->alias[r]);
			view = !s->written[r];
			break;
		default:
			break;
		}
		if (b != PL_MEM_NONE && (view || may_update(&p->buf[b], o))) {
			if (!view) {
				p->buf[b].written = true;
				p->buf[b].taken_at = o;
			}
			if (rule == PL_MEM_DONE && p->buf[b].kind == PL_BUFFER_IN_FLIGHT)
				p->buf[b].ready_at = o;
			join(p, vi, b, lu);
			continue;
		}
		bool constant = rule == PL_MEM_CONSTANT;
		struct pl_mem_buf_ nb = {
		        .value = v,
		        .bytes = value_bytes(v),
		        .born = o,
		        .last = lu,
		        .kind = constant ? PL_BUFFER_CONSTANT
		                         : start ? PL_BUFFER_IN_FLIGHT : PL_BUFFER_TEMPORARY,
		        .whole = constant,
		        .readonly = constant,
		        .ready_at = (uint32_t)p->n,
		};
		int rc = new_buf(p, cap, nb, &p->vbuf[vi]);
		if (rc)
			return rc;
	}
	return PL_OK;
}

/* The values the function returns in an argument's place (a loop body's
 * k-th, an entry's output input_output_alias binds) live in that
 * argument's buffer when it is dead by the time they are made; the
 * entry's other returned buffers are its outputs, and one that is a
 * parameter it may not give away or a constant is copied (XLA's copy
 * insertion), a buffer of its own. */
static int bind_returns(struct pl_mem_plan_ *p, size_t *cap, bool loop_body)
{
	const pl_inst *ret = p->n ? p->inst[p->n - 1] : NULL;
	if (!ret || !(pl_inst_traits_(ret) & PL_TRAIT_TERMINATOR))
		return PL_OK;
	bool entry = pl_mem_is_entry_(p->f);
	if (!entry && !loop_body)
		return PL_OK;
	size_t nargs = p->f->nargs;
	bool *donated = malloc((nargs + 1) * sizeof *donated);
	uint32_t *out_arg = malloc((ret->nops + 1) * sizeof *out_arg);
	int rc = donated && out_arg ? PL_OK : PL_ENOMEM;
	if (rc == PL_OK && entry)
		pl_mem_entry_aliases_(p->f, donated, out_arg, ret->nops);
	for (uint32_t k = 0; rc == PL_OK && k < ret->nops; k++) {
		uint32_t b = operand_buf(p, ret, k);
		if (b == PL_MEM_NONE)
			continue;
		struct pl_mem_buf_ *B = &p->buf[b];
		uint32_t a = entry ? out_arg[k] : k < nargs ? k : PL_MEM_NONE;
		if (a != PL_MEM_NONE && b >= nargs && !B->whole && B->bound_to == PL_MEM_NONE &&
		    p->buf[a].last <= B->born) {
			B->bound_to = a;
			B->bytes = 0;
			p->buf[a].written = true;
			continue;
		}
		if (!entry || b == a)
			continue;
		if (B->readonly && B->bound_to == PL_MEM_NONE) { /* a copy made at the end */
			uint32_t o = (uint32_t)(p->n - 1);
			struct pl_mem_buf_ nb = {.value = B->value, .bytes = B->bytes, .born = o,
			                         .last = o, .kind = PL_BUFFER_OUTPUT};
			uint32_t c;
			if ((rc = new_buf(p, cap, nb, &c)) != PL_OK)
				break;
			p->buf[c].bound_to = PL_MEM_NONE;
			continue;
		}
		if (!B->whole && B->kind != PL_BUFFER_PARAMETER)
			B->kind = PL_BUFFER_OUTPUT;
	}
	free(donated);
	free(out_arg);
	return rc;
}

/* The peak: whole-function buffers, and at each instruction what is
 * born there and what its callees add; what dies there is freed after. */
static int walk_peak(struct pl_mem_plan_ *p)
{
	uint64_t *born = calloc(p->n + 1, sizeof *born), *dies = calloc(p->n + 1, sizeof *dies);
	if (!born || !dies) {
		free(born);
		free(dies);
		return PL_ENOMEM;
	}
	uint64_t live = 0;
	for (size_t b = 0; b < p->nbuf; b++) {
		const struct pl_mem_buf_ *B = &p->buf[b];
		if (B->whole) {
			add_sat(&live, B->bytes);
			continue;
		}
		add_sat(&born[B->born], B->bytes);
		add_sat(&dies[B->last], B->bytes);
	}
	p->peak = live;
	p->peak_at = p->n;
	for (size_t o = 0; o < p->n; o++) {
		add_sat(&live, born[o]);
		uint64_t at = live;
		add_sat(&at, p->extra[o]);
		if (at > p->peak) {
			p->peak = at;
			p->peak_at = o;
		}
		if (live != UINT64_MAX)
			live -= dies[o] < live ? dies[o] : live;
	}
	free(born);
	free(dies);
	return PL_OK;
}

int pl_mem_plan_new_(struct pl_mem_plan_ *p, const pl_func *f, bool loop_body,
                     pl_mem_hook_ hook, void *arg)
{
	*p = (struct pl_mem_plan_){.f = f};
	size_t n = 0, nvals = f->nargs;
	for (const pl_inst *i = f->first; i; i = pl_inst_next_(i)) {
		n++;
		nvals += i->nres;
	}
	p->n = n;
	p->nvals = nvals;
	p->inst = malloc((n + 1) * sizeof *p->inst);
	p->first = malloc((n + 1) * sizeof *p->first);
	p->vbuf = malloc((nvals + 1) * sizeof *p->vbuf);
	p->extra = calloc(n + 1, sizeof *p->extra);
	p->last = malloc((nvals + 1) * sizeof *p->last);
	size_t cap = 0;
	struct scratch s = {0};
	int rc = p->inst && p->first && p->vbuf && p->extra && p->last ? PL_OK : PL_ENOMEM;
	if (rc == PL_OK) {
		size_t o = 0, at = f->nargs;
		for (const pl_inst *i = f->first; i; i = pl_inst_next_(i), o++) {
			p->inst[o] = i;
			p->first[o] = (uint32_t)at;
			at += i->nres;
		}
	}
	if (rc == PL_OK && n && pl_mem_unfused_hlo_(f)) {
		pl_fusion *fu = NULL;
		rc = pl_fusion_new(&fu, f, pl_cost_model_default_(), 0);
		if (rc == PL_OK && !(p->virt = calloc(n, sizeof *p->virt)))
			rc = PL_ENOMEM;
		if (rc == PL_OK)
			mark_virtual(p, fu);
		pl_fusion_free(fu);
	}
	if (rc == PL_OK)
		last_uses(p);
	/* arguments: for the whole function, the entry's read only (set
	 * when the returns are bound) */
	for (size_t a = 0; rc == PL_OK && a < f->nargs; a++) {
		const pl_value *v = &f->args[a]->v;
		struct pl_mem_buf_ nb = {.value = v, .bytes = value_bytes(v), .born = 0,
		                         .last = p->last[a], .kind = PL_BUFFER_PARAMETER,
		                         .whole = true};
		rc = new_buf(p, &cap, nb, &p->vbuf[a]);
	}
	if (rc == PL_OK && pl_mem_is_entry_(f)) { /* read only unless donated */
		bool *donated = malloc((f->nargs + 1) * sizeof *donated);
		if (!donated)
			rc = PL_ENOMEM;
		else
			pl_mem_entry_aliases_(f, donated, NULL, 0);
		for (size_t a = 0; donated && a < f->nargs; a++)
			p->buf[a].readonly = !donated[a];
		free(donated);
	}
	for (size_t o = 0; rc == PL_OK && o < n; o++)
		rc = place_results(p, &cap, (uint32_t)o, &s, hook, arg);
	free(s.in_place);
	free(s.alias);
	free(s.written);
	if (rc == PL_OK)
		rc = bind_returns(p, &cap, loop_body);
	if (rc == PL_OK)
		rc = walk_peak(p);
	if (rc)
		pl_mem_plan_free_(p);
	return rc;
}

void pl_mem_plan_free_(struct pl_mem_plan_ *p)
{
	free(p->inst);
	free(p->first);
	free(p->vbuf);
	free(p->buf);
	free(p->extra);
	free(p->last);
	free(p->virt);
	*p = (struct pl_mem_plan_){0};
}

bool pl_mem_live_at_(const struct pl_mem_plan_ *p, size_t b, size_t at)
{
	const struct pl_mem_buf_ *B = &p->buf[b];
	return B->whole || (at < p->n && B->born <= at && at <= B->last);
}

int pl_mem_summary_new_(struct pl_mem_summary_ *s, const struct pl_mem_plan_ *p)
{
	*s = (struct pl_mem_summary_){.peak = p->peak};
	for (size_t a = 0; a < p->f->nargs; a++)
		add_sat(&s->args, p->buf[a].bytes);
	const pl_inst *ret = p->n ? p->inst[p->n - 1] : NULL;
	if (!ret || !(pl_inst_traits_(ret) & PL_TRAIT_TERMINATOR))
		return PL_OK;
	s->nret = ret->nops;
	s->ret_arg = malloc((ret->nops + 1) * sizeof *s->ret_arg);
	s->ret_written = malloc((ret->nops + 1) * sizeof *s->ret_written);
	bool *counted = calloc(p->nbuf + 1, sizeof *counted);
	if (!s->ret_arg || !s->ret_written || !counted) {
		free(counted);
		pl_mem_summary_free_(s);
		return PL_ENOMEM;
	}
	size_t nargs = p->f->nargs;
	for (uint32_t k = 0; k < ret->nops; k++) {
		uint32_t b = operand_buf(p, ret, k);
		s->ret_arg[k] = PL_MEM_NONE;
		s->ret_written[k] = false;
		if (b == PL_MEM_NONE)
			continue;
		const struct pl_mem_buf_ *B = &p->buf[b];
		uint32_t a = b < nargs ? b : B->bound_to;
		if (a != PL_MEM_NONE) {
			s->ret_arg[k] = a;
			s->ret_written[k] = b >= nargs || p->buf[a].written;
		} else if (!counted[b]) {
			counted[b] = true;
			add_sat(&s->new_ret, B->bytes);
		}
	}
	free(counted);
	return PL_OK;
}

void pl_mem_summary_free_(struct pl_mem_summary_ *s)
{
	free(s->ret_arg);
	free(s->ret_written);
	s->ret_arg = NULL;
	s->ret_written = NULL;
}

int pl_func_peak_bytes(const pl_func *f, uint64_t *out)
{
	struct pl_mem_plan_ p;
	int rc = pl_mem_plan_new_(&p, f, false, NULL, NULL);
	if (rc)
		return rc;
	*out = p.peak;
	pl_mem_plan_free_(&p);
	return PL_OK;
}

int pl_func_result_buffer_bytes(const pl_func *f, uint64_t *out, size_t n)
{
	struct pl_mem_plan_ p;
	int rc = pl_mem_plan_new_(&p, f, false, NULL, NULL);
	if (rc)
		return rc;
	if (p.nvals - f->nargs != n)
		rc = PL_EINVAL;
	for (size_t o = 0; rc == PL_OK && o < p.n; o++)
		for (uint32_t r = 0; r < p.inst[o]->nres; r++) {
			uint32_t vi = p.first[o] + r, b = p.vbuf[vi];
			bool own = b != PL_MEM_NONE && p.buf[b].value == &pl_inst_res_(p.inst[o])[r];
			out[vi - f->nargs] = own ? p.buf[b].bytes : 0;
		}
	pl_mem_plan_free_(&p);
	return rc;
}

const char *pl_buffer_kind_name(pl_buffer_kind k)
{
	static const char *const names[] = {"parameter", "output", "temporary",
	                                    "in-flight collective", "constant"};
	return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}
