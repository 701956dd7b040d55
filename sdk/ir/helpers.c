/* SPDX-License-Identifier: MIT */
/* sdk/ir/helpers.c — what passes and the host each wrote for themselves:
 * the module's entry function, the start and done of a synchronous
 * collective, and the functions an attribute names as the HLO reader
 * keeps them ("{%a, %b}"). */
#include "ir/hlo_keys.h"
#include "ir/internal.h"

#include <stdlib.h>

/* ---- the entry ---- */

bool pl_func_is_entry(const pl_func *f)
{
	bool e = false;
	return f && ((pl_attrs_get_bool(&f->attrs, "entry", &e) == PL_OK && e) ||
	             (pl_attrs_get_bool(&f->attrs, HK(ENTRY), &e) == PL_OK && e));
}

pl_func *pl_module_entry(const pl_module *m)
{
	for (size_t k = 0; m && k < m->nfuncs; k++)
		if (pl_func_is_entry(m->funcs[k]))
			return m->funcs[k];
	return NULL;
}

pl_func *pl_module_hlo_entry(const pl_module *m)
{
	for (size_t k = 0; m && k < m->nfuncs; k++) {
		bool e = false;
		if (pl_attrs_get_bool(&m->funcs[k]->attrs, HK(ENTRY), &e) == PL_OK && e)
			return m->funcs[k];
	}
	return NULL;
}

/* ---- a collective's start and done ---- */

int pl_inst_split_collective(pl_inst *c, pl_inst **start, pl_inst **done)
{
	pl_op op = c ? pl_inst_op_(c) : PL_OP_OTHER;
	pl_op sop = op == PL_OP_ALL_GATHER       ? PL_OP_ALL_GATHER_START
	            : op == PL_OP_REDUCE_SCATTER ? PL_OP_REDUCE_SCATTER_START
	            : op == PL_OP_ALL_REDUCE     ? PL_OP_ALL_REDUCE_START
	                                         : PL_OP_OTHER;
	if (sop == PL_OP_OTHER || !start || !done)
		return PL_EINVAL;
	/* the done of each start follows it in the op table */
	pl_op dop = (pl_op)(sop + 1);
	_Static_assert(PL_OP_ALL_GATHER_DONE == PL_OP_ALL_GATHER_START + 1 &&
	                       PL_OP_REDUCE_SCATTER_DONE == PL_OP_REDUCE_SCATTER_START + 1 &&
	                       PL_OP_ALL_REDUCE_DONE == PL_OP_ALL_REDUCE_START + 1,
	               "a done follows its start");
	pl_func *f = pl_inst_func_(c);
	size_t nops = c->nops, nres = c->nres;
	pl_value **vals = malloc((nops + nres + 1) * sizeof *vals);
	const pl_type **types = malloc((nres + 1) * sizeof *types);
	char *name = NULL;
	*start = *done = NULL;
	int rc = vals && types ? PL_OK : PL_ENOMEM;
	for (size_t j = 0; rc == PL_OK && j < nops; j++)
		vals[j] = pl_inst_operand(c, j);
	for (size_t j = 0; rc == PL_OK && j < nres; j++)
		types[j] = pl_value_type(pl_inst_result(c, j));
	if (rc == PL_OK &&
	    (rc = pl_inst_create(start, f, pl_op_name(sop), vals, nops, types, nres)) == PL_OK)
		rc = pl_inst_copy_attrs(*start, c);
	for (size_t j = 0; rc == PL_OK && j < nres; j++)
		vals[j] = pl_inst_result(*start, j);
	if (rc == PL_OK)
		rc = pl_inst_create(done, f, pl_op_name(dop), vals, nres, types, nres);
	/* the start's results are named as c's with "_s" */
	for (size_t j = 0; rc == PL_OK && j < nres; j++) {
		const char *base = pl_value_name(pl_inst_result(c, j));
		if (!base)
			continue;
		size_t len = strlen(base);
		char *grown = realloc(name, len + 3);
		if (!grown) {
			rc = PL_ENOMEM;
			break;
		}
		name = grown;
		memcpy(name, base, len);
		memcpy(name + len, "_s", 3);
		rc = pl_value_set_name(pl_inst_result(*start, j), name);
	}
	if (rc == PL_OK) {
		pl_inst_set_loc(*start, pl_inst_line(c), pl_inst_col(c));
		pl_inst_set_loc(*done, pl_inst_line(c), pl_inst_col(c));
	} else {
		/* detached: they go with the module */
		*start = *done = NULL;
	}
	free(vals);
	free(types);
	free(name);
	return rc;
}
