/* SPDX-License-Identifier: MIT */
/* sdk/analysis/callee.c — the functions an attribute names, as the HLO
 * reader keeps a list of computations ("{%a, %b}", "%a" or "a"). */
#include "analysis/name_list.h"

bool pl_name_list_next(const char *s, size_t len, size_t *at, const char **name, size_t *nlen)
{
	return s && at && name && nlen && name_list_next(s, len, at, name, nlen);
}

pl_func *pl_inst_callee(const pl_inst *i, const char *key, size_t k)
{
	const char *s, *name;
	size_t len, at = 0, n;
	if (!i || !key || pl_attrs_get_string(&i->attrs, key, &s, &len) != PL_OK)
		return NULL;
	while (name_list_next(s, len, &at, &name, &n))
		if (!k--)
			return pl_module_find_func_(pl_inst_func_(i)->m, name, n);
	return NULL;
}
