/* SPDX-License-Identifier: MIT */
/* sdk/analysis/rewritable.c — which functions run as code of their own,
 * where passes that move or rewrite instructions may work
 * (pl_module_rewritable_funcs, passline/callgraph.h).
 *
 * One walk over the instructions reads every reference to a function: a
 * call, a while's body and condition, a conditional's branches run as
 * code; any other instruction's hlo_calls, hlo_to_apply or
 * hlo_called_computations is part of that instruction (an async-start's
 * or fusion's computation, a reducer, a comparator). Those, and all they
 * reach in turn, are not rewritable.
 *
 * pl_module_kernel_funcs reads the same references for another question:
 * which functions an instruction applies inside its own kernel.
 */
#include "analysis/name_list.h"
#include "ir/hlo_keys.h"
#include "ir/internal.h"
#include <passline/grow.h>

#include <passline/callgraph.h>

#include <stdlib.h>
#include <string.h>

struct ref {
	size_t from, to;
};

struct walk {
	const pl_module *m;
	const pl_func **by_addr; /* the functions, sorted by address */
	size_t n;
	struct ref *refs;
	size_t nrefs, cap;
	unsigned char *inside; /* 1: part of an instruction */
};

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const pl_func *const *)a;
	uintptr_t y = (uintptr_t)*(const pl_func *const *)b;
	return x < y ? -1 : x > y;
}

/* Where f stands in the sorted copy. */
static size_t sorted_pos(const struct walk *w, const pl_func *f)
{
	const pl_func **hit = bsearch(&f, w->by_addr, w->n, sizeof *w->by_addr, cmp_ptr);
	return (size_t)(hit - w->by_addr);
}

/* The index of f in module order (order: sorted position -> index). */
static size_t index_of(const struct walk *w, const pl_func *f, const size_t *order)
{
	return order[sorted_pos(w, f)];
}

/* Each name of "{%a, %b}" or "%a" that names a function of the module. */
static int add_refs(struct walk *w, size_t from, const char *s, size_t len, bool code,
                    const size_t *order)
{
	size_t at = 0, n;
	const char *name;
	while (name_list_next(s, len, &at, &name, &n)) {
		const pl_func *f = pl_module_find_func_(w->m, name, n);
		if (!f)
			continue;
		size_t to = index_of(w, f, order);
		if (!code)
			w->inside[to] = 1;
		if (!PL_GROW(w->refs, w->cap, w->nrefs + 1))
			return PL_ENOMEM;
		w->refs[w->nrefs++] = (struct ref){from, to};
	}
	return PL_OK;
}

static int read_refs(struct walk *w, size_t from, const pl_inst *inst, const size_t *order,
                     const struct call_ids *ids)
{
	bool loop = inst->op == ids->op_while, call = inst->op == ids->op_call,
	     cond = inst->op == ids->op_cond;
	const pl_attrs *a = pl_inst_attrs_const(inst);
	for (size_t k = 0; k < CALL_NKEYS; k++) {
		size_t len;
		const char *s = pl_attrs_find_string_id_(a, ids->key[k], &len);
		if (!s)
			continue;
		bool code = (loop && k <= CALL_CONDITION) || (call && k == CALL_TO_APPLY) ||
		            (cond && k >= CALL_BRANCH_COMPUTATIONS);
		int rc = add_refs(w, from, s, len, code, order);
		if (rc)
			return rc;
	}
	return PL_OK;
}

/* The walk's function index: the functions sorted by address, and
 * order (n entries) from a sorted position to the module's index. */
static void index_funcs(struct walk *w, size_t *order)
{
	for (size_t k = 0; k < w->n; k++)
		w->by_addr[k] = pl_module_func_at(w->m, k);
	qsort(w->by_addr, w->n, sizeof *w->by_addr, cmp_ptr);
	for (size_t k = 0; k < w->n; k++)
		order[sorted_pos(w, pl_module_func_at(w->m, k))] = k;
}

int pl_module_rewritable_funcs(const pl_module *m, bool *out, size_t n)
{
	if (!m || (!out && n) || n != pl_module_num_funcs(m))
		return PL_EINVAL;
	struct walk w = {.m = m, .n = n};
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	size_t *first = calloc(n + 1, sizeof *first); /* refs by caller */
	size_t *stack = malloc((n ? n : 1) * sizeof *stack);
	struct ref *sorted = NULL;
	w.by_addr = malloc((n ? n : 1) * sizeof *w.by_addr);
	w.inside = calloc(n ? n : 1, 1);
	int rc = PL_ENOMEM;
	if (!order || !first || !stack || !w.by_addr || !w.inside)
		goto out;
	index_funcs(&w, order);
	rc = PL_OK;
	struct call_ids ids;
	call_ids_number(m, &ids);
	/* a module without those keys (.pir written by hand or by passes)
	 * references no function: every one is rewritable */
	for (size_t k = 0; ids.any_key && k < n && rc == PL_OK; k++)
		for (const pl_inst *i = pl_func_first_inst(pl_module_func_at(m, k)); i && rc == PL_OK;
		     i = pl_inst_next(i))
			rc = read_refs(&w, k, i, order, &ids);
	if (rc)
		goto out;
	/* the references grouped by caller (a counting sort) */
	sorted = malloc((w.nrefs ? w.nrefs : 1) * sizeof *sorted);
	if (!sorted) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t r = 0; r < w.nrefs; r++)
		first[w.refs[r].from + 1]++;
	for (size_t k = 0; k < n; k++)
		first[k + 1] += first[k];
	for (size_t r = 0; r < w.nrefs; r++)
		sorted[first[w.refs[r].from]++] = w.refs[r];
	for (size_t k = n; k > 0; k--)
		first[k] = first[k - 1];
	first[0] = 0;
	/* what a function inside an instruction calls is inside it too */
	size_t top = 0;
	for (size_t k = 0; k < n; k++)
		if (w.inside[k])
			stack[top++] = k;
	while (top) {
		size_t f = stack[--top];
		for (size_t r = first[f]; r < first[f + 1]; r++)
			if (!w.inside[sorted[r].to]) {
				w.inside[sorted[r].to] = 1;
				stack[top++] = sorted[r].to;
			}
	}
	for (size_t k = 0; k < n; k++)
		out[k] = !w.inside[k];
out:
	free(order);
	free(first);
	free(stack);
	free(sorted);
	free(w.by_addr);
	free(w.inside);
	free(w.refs);
	return rc;
}

/* The keys naming what inst applies inside its kernel (ended by
 * PL_HK_COUNT_), by the op numbers of ops (fusion, select_and_scatter,
 * call, async_start in m). */
static const enum pl_hlo_key *kernel_keys(const pl_inst *inst, const uint32_t ops[4])
{
	static const enum pl_hlo_key fusion[] = {PL_HK_CALLS, PL_HK_COUNT_};
	static const enum pl_hlo_key select_scatter[] = {PL_HK_TO_APPLY, PL_HK_SELECT,
	                                                 PL_HK_SCATTER, PL_HK_COUNT_};
	static const enum pl_hlo_key applied[] = {PL_HK_TO_APPLY, PL_HK_COUNT_};
	static const enum pl_hlo_key none[] = {PL_HK_COUNT_};
	if (inst->op == ops[0])
		return fusion;
	if (inst->op == ops[1])
		return select_scatter;
	if (inst->op == ops[2] || inst->op == ops[3])
		return none;
	return applied;
}

int pl_module_kernel_funcs(const pl_module *m, bool *out, size_t n)
{
	if (!m || (!out && n) || n != pl_module_num_funcs(m))
		return PL_EINVAL;
	struct walk w = {.m = m, .n = n};
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	w.by_addr = malloc((n ? n : 1) * sizeof *w.by_addr);
	w.inside = calloc(n ? n : 1, 1);
	int rc = PL_ENOMEM;
	if (order && w.by_addr && w.inside) {
		index_funcs(&w, order);
		rc = PL_OK;
	}
	const uint32_t ops[4] = {pl_hlo_op_number_find_(m, PL_HLO_FUSION),
	                         pl_hlo_op_number_find_(m, PL_HLO_SELECT_AND_SCATTER),
	                         pl_hlo_op_number_find_(m, PL_HLO_CALL),
	                         pl_hlo_op_number_find_(m, PL_HLO_ASYNC_START)};
	/* the keys kernel_keys names; the others stay 0, none */
	static const enum pl_hlo_key asked[] = {PL_HK_CALLS, PL_HK_TO_APPLY, PL_HK_SELECT,
	                                        PL_HK_SCATTER};
	uint32_t keys[PL_HK_COUNT_] = {0};
	bool any = false;
	for (size_t k = 0; k < sizeof asked / sizeof *asked; k++)
		any |= (keys[asked[k]] = pl_key_number_find_(m, pl_hlo_key_(asked[k]))) != 0;
	for (size_t k = 0; any && k < n && rc == PL_OK; k++)
		for (const pl_inst *i = pl_func_first_inst(pl_module_func_at(m, k)); i && rc == PL_OK;
		     i = pl_inst_next(i))
			for (const enum pl_hlo_key *key = kernel_keys(i, ops);
			     *key != PL_HK_COUNT_ && rc == PL_OK; key++) {
				size_t len;
				const char *s = pl_attrs_find_string_id_(pl_inst_attrs_const(i),
				                                         keys[*key], &len);
				if (s)
					rc = add_refs(&w, k, s, len, false, order);
			}
	for (size_t k = 0; k < n && rc == PL_OK; k++)
		out[k] = w.inside[k];
	free(order);
	free(w.by_addr);
	free(w.inside);
	free(w.refs);
	return rc;
}
