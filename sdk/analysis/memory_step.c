/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory_step.c — the memory of one execution of a function
 * with what it calls (passline/callgraph.h: pl_callgraph_step_peak_bytes,
 * pl_callgraph_memory_report_new), from each function's buffers
 * (memory.c) and what its callees tell it.
 *
 * Callees are planned first, each once; a caller's plan asks, at each
 * instruction that calls, what its callees hold beyond their arguments
 * (and, but for a loop, beyond what they return: the instruction's
 * results) and which results are an operand's buffer. The report plans
 * again the functions from the entry down to the instruction where the
 * peak happens.
 */
#include "analysis/memory.h"
#include "ir/hlo_opcodes.h"
#include <passline/callgraph.h>

#include <stdlib.h>
#include <string.h>

struct by_addr {
	const void *p;
	size_t i;
};

struct step_mem {
	const pl_callgraph *cg;
	size_t nf;
	struct by_addr *index;        /* the module's functions by address */
	const pl_func **funcs;        /* by index */
	struct pl_mem_summary_ *sum;  /* per function, once planned */
	unsigned char *state;         /* 0 new, 1 being planned, 2 planned */
	bool *is_body;                /* called as a loop's body */
	size_t *sites;                /* site indices by caller, then position */
	size_t *site_first;           /* per function: its first in sites[] */
	size_t cursor, end;           /* the sites of the function being planned */
};

static int cmp_addr(const void *a, const void *b)
{
	const struct by_addr *x = a, *y = b;
	return x->p < y->p ? -1 : x->p > y->p;
}

static size_t func_index(const struct step_mem *w, const pl_func *f)
{
	struct by_addr key = {f, 0};
	const struct by_addr *e = bsearch(&key, w->index, w->nf, sizeof key, cmp_addr);
	return e ? e->i : SIZE_MAX;
}

/* A site with what orders it: its caller, its position, its index. */
struct site_key {
	size_t caller;
	uint32_t pos;
	size_t site;
};

static int cmp_site(const void *a, const void *b)
{
	const struct site_key *x = a, *y = b;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

static void step_free(struct step_mem *w)
{
	for (size_t f = 0; w->sum && f < w->nf; f++)
		pl_mem_summary_free_(&w->sum[f]);
	free(w->index);
	free(w->funcs);
	free(w->sum);
	free(w->state);
	free(w->is_body);
	free(w->sites);
	free(w->site_first);
}

static int step_init(struct step_mem *w, const pl_callgraph *cg, const pl_module *m)
{
	*w = (struct step_mem){.cg = cg, .nf = pl_module_num_funcs(m)};
	size_t ns = pl_callgraph_num_sites(cg), nf = w->nf;
	w->index = malloc((nf + 1) * sizeof *w->index);
	w->funcs = malloc((nf + 1) * sizeof *w->funcs);
	w->sum = calloc(nf + 1, sizeof *w->sum);
	w->state = calloc(nf + 1, 1);
	w->is_body = calloc(nf + 1, sizeof *w->is_body);
	w->sites = malloc((ns + 1) * sizeof *w->sites);
	w->site_first = calloc(nf + 2, sizeof *w->site_first);
	struct site_key *keys = malloc((ns + 1) * sizeof *keys);
	int rc = PL_OK;
	if (!w->index || !w->funcs || !w->sum || !w->state || !w->is_body || !w->sites ||
	    !w->site_first || !keys)
		rc = PL_ENOMEM;
	for (size_t f = 0; rc == PL_OK && f < nf; f++) {
		w->funcs[f] = pl_module_func_at(m, f);
		w->index[f] = (struct by_addr){w->funcs[f], f};
	}
	if (rc == PL_OK)
		qsort(w->index, nf, sizeof *w->index, cmp_addr);
	for (size_t s = 0; rc == PL_OK && s < ns; s++) {
		const pl_inst *inst = pl_callgraph_site_inst(cg, s);
		size_t caller = func_index(w, pl_inst_func_(inst));
		size_t callee = func_index(w, pl_callgraph_site_callee(cg, s));
		if (caller == SIZE_MAX || callee == SIZE_MAX) {
			rc = PL_ENOTFOUND;
			break;
		}
		keys[s] = (struct site_key){caller, inst->pos, s};
		w->site_first[caller + 1]++;
		if (pl_callgraph_site_kind(cg, s) == PL_CALL_LOOP_BODY)
			w->is_body[callee] = true;
	}
	if (rc == PL_OK) {
		qsort(keys, ns, sizeof *keys, cmp_site);
		for (size_t s = 0; s < ns; s++)
			w->sites[s] = keys[s].site;
		for (size_t f = 0; f < nf; f++)
			w->site_first[f + 1] += w->site_first[f];
	}
	free(keys);
	return rc;
}

/* A fusion is one kernel: what its body holds is in the kernel, not in
 * memory. */
static bool runs_in_memory(const pl_inst *inst)
{
	return pl_inst_hlo_op_(inst) != PL_HLO_FUSION;
}

/* What callee summary s adds while inst runs it as a site of kind k. */
static uint64_t callee_bytes(const struct pl_mem_summary_ *s, pl_call_kind k)
{
	uint64_t held = s->args;
	if (k != PL_CALL_LOOP_BODY && k != PL_CALL_LOOP_COND)
		held = held + s->new_ret < held ? UINT64_MAX : held + s->new_ret;
	return s->peak > held ? s->peak - held : 0;
}

static int call_hook(const pl_inst *inst, void *arg, struct pl_mem_call_ *out)
{
	struct step_mem *w = arg;
	const pl_callgraph *cg = w->cg;
	while (w->cursor < w->end && pl_callgraph_site_inst(cg, w->sites[w->cursor])->pos < inst->pos)
		w->cursor++;
	bool call = pl_inst_hlo_row_(inst)->calls == PL_HLO_CALLS_ONCE;
	for (; w->cursor < w->end && pl_callgraph_site_inst(cg, w->sites[w->cursor]) == inst;
	     w->cursor++) {
		size_t site = w->sites[w->cursor];
		if (!runs_in_memory(inst))
			continue;
		pl_call_kind k = pl_callgraph_site_kind(cg, site);
		const struct pl_mem_summary_ *s =
		        &w->sum[func_index(w, pl_callgraph_site_callee(cg, site))];
		uint64_t x = callee_bytes(s, k);
		if (x > out->extra)
			out->extra = x;
		if ((k == PL_CALL_LOOP_BODY || (k == PL_CALL_ONCE && call)) && s->nret == inst->nres)
			for (uint32_t r = 0; r < inst->nres; r++) {
				out->alias[r] = s->ret_arg[r];
				out->written[r] = s->ret_written[r];
			}
	}
	return PL_OK;
}

/* Plans function fi with its callees' summaries (all made). */
static int plan_with_callees(struct step_mem *w, size_t fi, const pl_func *f,
                             struct pl_mem_plan_ *p)
{
	w->cursor = w->site_first[fi];
	w->end = w->site_first[fi + 1];
	return pl_mem_plan_new_(p, f, w->is_body[fi], call_hook, w);
}

static int summarize(struct step_mem *w, size_t fi, int depth)
{
	if (w->state[fi] == 2)
		return PL_OK;
	if (w->state[fi] == 1 || depth > 10000)
		return PL_EINVAL; /* f calls itself */
	w->state[fi] = 1;
	for (size_t s = w->site_first[fi]; s < w->site_first[fi + 1]; s++) {
		size_t site = w->sites[s];
		if (!runs_in_memory(pl_callgraph_site_inst(w->cg, site)))
			continue;
		int rc = summarize(w, func_index(w, pl_callgraph_site_callee(w->cg, site)), depth + 1);
		if (rc)
			return rc;
	}
	struct pl_mem_plan_ p;
	int rc = plan_with_callees(w, fi, w->funcs[fi], &p);
	if (rc)
		return rc;
	rc = pl_mem_summary_new_(&w->sum[fi], &p);
	pl_mem_plan_free_(&p);
	if (rc == PL_OK)
		w->state[fi] = 2;
	return rc;
}

static int step_start(struct step_mem *w, const pl_callgraph *cg, const pl_func *f,
                      size_t *fi)
{
	const pl_module *m = pl_callgraph_module_(cg);
	int rc = step_init(w, cg, m);
	if (rc == PL_OK && (pl_func_module(f) != m || (*fi = func_index(w, f)) == SIZE_MAX))
		rc = PL_ENOTFOUND;
	if (rc == PL_OK)
		rc = summarize(w, *fi, 0);
	return rc;
}

int pl_callgraph_step_peak_bytes(const pl_callgraph *cg, const pl_func *f, uint64_t *out)
{
	struct step_mem w;
	size_t fi = 0;
	int rc = step_start(&w, cg, f, &fi);
	if (rc == PL_OK)
		*out = w.sum[fi].peak;
	step_free(&w);
	return rc;
}

/* ---- the report ---- */

struct rbuf {
	const pl_value *v;
	uint64_t bytes;
	pl_buffer_kind kind;
	size_t seq;
};

struct pl_memory_report {
	uint64_t peak;
	const pl_inst *at;
	struct rbuf *b;
	size_t n;
};

static int by_bytes(const void *a, const void *b)
{
	const struct rbuf *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The kind buffer B has at ordinal at. */
static pl_buffer_kind kind_at(const struct pl_mem_buf_ *B, size_t at)
{
	if (at < B->ready_at)
		return PL_BUFFER_IN_FLIGHT;
	return B->kind == PL_BUFFER_IN_FLIGHT ? PL_BUFFER_TEMPORARY : (pl_buffer_kind)B->kind;
}

/* Adds p's buffers live at its peak to r (skipping arguments when inner,
 * and the results of the instruction there when a callee is descended
 * into), then descends into the callee that makes the peak there. */
static int list_level(struct step_mem *w, pl_memory_report *r, size_t fi, const pl_func *f,
                      bool inner, int depth)
{
	struct pl_mem_plan_ p;
	int rc = plan_with_callees(w, fi, f, &p);
	if (rc)
		return rc;
	size_t at = p.peak_at;
	const pl_inst *inst = at < p.n ? p.inst[at] : NULL;
	/* the callee that makes the peak, if any */
	size_t best = SIZE_MAX;
	uint64_t most = 0;
	pl_call_kind best_kind = PL_CALL_ONCE;
	for (size_t s = w->site_first[fi]; inst && p.extra[at] && s < w->site_first[fi + 1]; s++) {
		size_t site = w->sites[s];
		if (pl_callgraph_site_inst(w->cg, site) != inst || !runs_in_memory(inst))
			continue;
		size_t c = func_index(w, pl_callgraph_site_callee(w->cg, site));
		pl_call_kind k = pl_callgraph_site_kind(w->cg, site);
		uint64_t x = callee_bytes(&w->sum[c], k);
		if (best == SIZE_MAX || x > most) {
			best = c;
			most = x;
			best_kind = k;
		}
	}
	bool descend = best != SIZE_MAX && depth < 1000;
	for (size_t b = 0; b < p.nbuf && rc == PL_OK; b++) {
		const struct pl_mem_buf_ *B = &p.buf[b];
		if (!B->bytes || !pl_mem_live_at_(&p, b, at) || (inner && b < f->nargs))
			continue;
		/* a call's results are the buffers its callee returns, listed there */
		if (descend && best_kind != PL_CALL_LOOP_BODY && best_kind != PL_CALL_LOOP_COND &&
		    B->born == at && !B->whole && B->value->def && pl_value_def_(B->value) == inst)
			continue;
		struct rbuf *grown = realloc(r->b, (r->n + 1) * sizeof *r->b);
		if (!grown) {
			rc = PL_ENOMEM;
			break;
		}
		r->b = grown;
		r->b[r->n] = (struct rbuf){B->value, B->bytes, kind_at(B, at), r->n};
		r->n++;
	}
	if (inst)
		r->at = inst;
	pl_mem_plan_free_(&p);
	if (rc == PL_OK && descend) {
		rc = list_level(w, r, best, w->funcs[best], true, depth + 1);
	}
	return rc;
}

int pl_callgraph_memory_report_new(pl_memory_report **out, const pl_callgraph *cg,
                                   const pl_func *f)
{
	*out = NULL;
	struct step_mem w;
	size_t fi = 0;
	int rc = step_start(&w, cg, f, &fi);
	pl_memory_report *r = NULL;
	if (rc == PL_OK && !(r = calloc(1, sizeof *r)))
		rc = PL_ENOMEM;
	if (rc == PL_OK) {
		r->peak = w.sum[fi].peak;
		rc = list_level(&w, r, fi, f, false, 0);
	}
	step_free(&w);
	if (rc) {
		pl_memory_report_free(r);
		return rc;
	}
	if (r->n)
		qsort(r->b, r->n, sizeof *r->b, by_bytes);
	*out = r;
	return PL_OK;
}

void pl_memory_report_free(pl_memory_report *r)
{
	if (!r)
		return;
	free(r->b);
	free(r);
}

uint64_t pl_memory_report_peak_bytes(const pl_memory_report *r)
{
	return r->peak;
}

const pl_inst *pl_memory_report_peak_inst(const pl_memory_report *r)
{
	return r->at;
}

size_t pl_memory_report_num_buffers(const pl_memory_report *r)
{
	return r->n;
}

const pl_value *pl_memory_report_buffer_value(const pl_memory_report *r, size_t k)
{
	return r->b[k].v;
}

uint64_t pl_memory_report_buffer_bytes(const pl_memory_report *r, size_t k)
{
	return r->b[k].bytes;
}

pl_buffer_kind pl_memory_report_buffer_kind(const pl_memory_report *r, size_t k)
{
	return r->b[k].kind;
}
