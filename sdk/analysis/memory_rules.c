/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory_rules.c — which values share a buffer, as XLA's
 * alias analysis and in-place rules have it (HloDataflowAnalysis's
 * in-place input/output pairs, buffer_assignment's live-out and parameter
 * allocations): views that allocate nothing, instructions that update an
 * operand in place, the entry's input_output_alias. */
#include "analysis/memory.h"
#include "ir/hlo_keys.h"
#include "ir/hlo_opcodes.h"
#include <passline/fusion.h>

#include <stdlib.h>
#include <string.h>

/* An instruction's rule, by its opcode's row (passline/hlo_ops.h): a
 * view, an update in place, a constant, or the computations it calls. */
static enum pl_mem_rule_ rule_of(const pl_inst *inst)
{
	pl_hlo_op op = pl_inst_hlo_op_(inst);
	const struct pl_hlo_row_ *row = &pl_hlo_rows_[op];
	if (row->flags & PL_HLO_F_VIEW)
		return PL_MEM_VIEW;
	if (row->flags & PL_HLO_F_IN_PLACE)
		return PL_MEM_IN_PLACE;
	if (op == PL_HLO_CONSTANT)
		return PL_MEM_CONSTANT;
	if (row->calls == PL_HLO_CALLS_LOOP)
		return PL_MEM_WHILE;
	if (row->calls == PL_HLO_CALLS_ONCE || row->calls == PL_HLO_CALLS_BRANCHES)
		return PL_MEM_CALLS;
	return PL_MEM_NEW;
}

/* The value v is, through views. */
static const pl_value *through_views(const pl_value *v)
{
	for (int guard = 0; guard < 64 && v->def; guard++) {
		const pl_inst *d = pl_value_def_(v);
		if (rule_of(d) != PL_MEM_VIEW || !d->nops)
			break;
		uint32_t r = (uint32_t)(v - pl_inst_res_(d));
		if (r >= d->nops)
			break;
		v = pl_use_val_(&pl_inst_ops_(d)[r]);
	}
	return v;
}

/* The function a fusion calls, or NULL. */
static const pl_func *fused_body(const pl_inst *fusion)
{
	/* one computation, or none */
	return pl_inst_callee(fusion, HK(CALLS), 1) ? NULL : pl_inst_callee(fusion, HK(CALLS), 0);
}

/* For each result of a fusion, the fusion operand it updates in place:
 * the root element is a dynamic-update-slice or scatter (through views)
 * whose updated operand is a parameter (through views). */
static bool fused_in_place(const pl_inst *fusion, uint32_t *in_place)
{
	const pl_func *body = fused_body(fusion);
	const pl_inst *ret = body ? body->last : NULL;
	if (!ret || !(pl_inst_traits_(ret) & PL_TRAIT_TERMINATOR) || ret->nops != fusion->nres)
		return false;
	bool any = false;
	for (uint32_t r = 0; r < ret->nops; r++) {
		const pl_value *v = through_views(pl_use_val_(&pl_inst_ops_(ret)[r]));
		if (!v->def)
			continue;
		const pl_inst *d = pl_value_def_(v);
		pl_hlo_op op = pl_inst_hlo_op_(d);
		if (!d->nops || (op != PL_HLO_DYNAMIC_UPDATE_SLICE && op != PL_HLO_SCATTER))
			continue;
		uint32_t k = (uint32_t)(v - pl_inst_res_(d));
		if (k >= d->nops)
			continue;
		const pl_value *target = through_views(pl_use_val_(&pl_inst_ops_(d)[k]));
		if (target->def)
			continue;
		size_t a = ((const struct pl_arg *)(const void *)target)->index;
		if (a < fusion->nops) {
			in_place[r] = (uint32_t)a;
			any = true;
		}
	}
	return any;
}

enum pl_mem_rule_ pl_mem_rule_(const pl_inst *inst, bool unfused, uint32_t *in_place)
{
	unsigned traits = pl_inst_traits_(inst);
	if (traits & PL_TRAIT_COLLECTIVE_DONE)
		return PL_MEM_DONE;
	pl_hlo_op op = pl_inst_hlo_op_(inst);
	/* before layout assignment, which gives a transpose's result the layout
	 * that makes it a bitcast where nothing constrains it */
	if (unfused && op == PL_HLO_TRANSPOSE)
		return PL_MEM_VIEW;
	enum pl_mem_rule_ rule = rule_of(inst);
	if (rule != PL_MEM_IN_PLACE)
		return rule;
	for (uint32_t r = 0; r < inst->nres; r++)
		in_place[r] = PL_MEM_NONE;
	if (op == PL_HLO_FUSION)
		return fused_in_place(inst, in_place) ? PL_MEM_IN_PLACE : PL_MEM_NEW;
	/* a dynamic-update-slice, or a scatter of n operands into n results */
	for (uint32_t r = 0; r < inst->nres && r < inst->nops; r++)
		in_place[r] = r;
	return PL_MEM_IN_PLACE;
}

bool pl_mem_is_entry_(const pl_func *f)
{
	return pl_func_is_entry(f);
}

bool pl_mem_unfused_hlo_(const pl_func *f)
{
	return pl_module_hlo_entry(f->m) && !pl_func_has_fusion(f);
}

/* The number at *p (digits), or SIZE_MAX; *p past it. */
static size_t number(const char **p, const char *end)
{
	size_t n = 0;
	bool any = false;
	for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
		n = n * 10 + (size_t)(**p - '0');
		any = true;
		if (n > 1u << 30)
			return SIZE_MAX;
	}
	return any ? n : SIZE_MAX;
}

static void skip_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n'))
		(*p)++;
}

/* Reads "input_output_alias={ {K}: (P, {}, may-alias), ... }" of the
 * HloModule line: output K (a tuple element of the flat result; "{}" for
 * an array result is output 0) binds parameter P. Entries with a deeper
 * output or parameter index are skipped. */
void pl_mem_entry_aliases_(const pl_func *f, bool *donated, uint32_t *out_arg, size_t nret)
{
	for (size_t a = 0; a < f->nargs; a++)
		donated[a] = false;
	for (size_t k = 0; k < nret; k++)
		out_arg[k] = PL_MEM_NONE;
	const char *h;
	size_t len;
	if (pl_attrs_get_string(&f->attrs, HK(MODULE), &h, &len) != PL_OK)
		return;
	static const char key[] = "input_output_alias={";
	const char *end = h + len, *p = NULL;
	for (const char *s = h; s + sizeof key - 1 <= end; s++)
		if (memcmp(s, key, sizeof key - 1) == 0) {
			p = s + sizeof key - 1;
			break;
		}
	while (p && p < end) {
		skip_blanks(&p, end);
		if (p >= end || *p != '{')
			return;
		p++;
		size_t out = number(&p, end);
		bool whole = out == SIZE_MAX; /* "{}" */
		if (p >= end || *p != '}') {  /* a deeper output index */
			while (p < end && *p != ')')
				p++;
		} else {
			p++;
			while (p < end && (*p == ':' || *p == ' ' || *p == '('))
				p++;
			size_t param = number(&p, end);
			while (p < end && (*p == ',' || *p == ' '))
				p++;
			bool param_whole = p + 1 < end && p[0] == '{' && p[1] == '}';
			if (whole)
				out = 0;
			if (param != SIZE_MAX && param < f->nargs && param_whole) {
				donated[param] = true;
				if (out < nret)
					out_arg[out] = (uint32_t)param;
			}
			while (p < end && *p != ')')
				p++;
		}
		if (p < end)
			p++; /* ')' */
		skip_blanks(&p, end);
		if (p < end && *p == ',')
			p++;
		else
			return;
	}
}
