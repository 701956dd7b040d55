/* SPDX-License-Identifier: MIT */
/* plugins/labels.h — how the shipped passes name values and instructions
 * in their remarks and messages, so that every pass says it alike. */
#ifndef PLUGINS_LABELS_H
#define PLUGINS_LABELS_H

#include <stdio.h>

#include <passline/passline.h>

/* A value's name (without '%'), or "<unnamed>"; v may be NULL. */
static inline const char *value_label(const pl_value *v)
{
	const char *name = v ? pl_value_name(v) : NULL;
	return name ? name : "<unnamed>";
}

/* An instruction by its first result's name, or "<no result>". */
static inline const char *inst_label(const pl_inst *inst)
{
	return pl_inst_num_results(inst) ? value_label(pl_inst_result(inst, 0)) : "<no result>";
}

/* An instruction in a remark, into buf: "%name" by its first result, else
 * "op (line N)", else the op. Returns buf. */
static inline const char *inst_remark_label(const pl_inst *inst, char *buf, size_t size)
{
	const char *name = pl_inst_num_results(inst) ? pl_value_name(pl_inst_result(inst, 0)) : NULL;
	if (name)
		snprintf(buf, size, "%%%s", name);
	else if (pl_inst_line(inst))
		snprintf(buf, size, "%s (line %u)", pl_inst_opname(inst), pl_inst_line(inst));
	else
		snprintf(buf, size, "%s", pl_inst_opname(inst));
	return buf;
}

/* "%v = op in @f" (or "op in @f") into buf, and where the instruction
 * stands when a pass built it and it has no source location. */
static inline void inst_describe(const pl_inst *inst, char *buf, size_t len)
{
	const pl_func *f = pl_inst_func(inst);
	const char *name = pl_inst_num_results(inst) ? pl_value_name(pl_inst_result(inst, 0))
	                                             : NULL;
	int n = snprintf(buf, len, "%s%s%s%s in @%s", name ? "%" : "", name ? name : "",
	                 name ? " = " : "", pl_inst_opname(inst), pl_func_name(f));
	if (pl_inst_line(inst) == 0 && n > 0 && (size_t)n < len) {
		size_t k = 1;
		for (const pl_inst *i = pl_func_first_inst(f); i && i != inst; i = pl_inst_next(i))
			k++;
		snprintf(buf + n, len - (size_t)n, " (instruction %zu)", k);
	}
}

#endif
