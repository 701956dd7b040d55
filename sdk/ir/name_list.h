/* SPDX-License-Identifier: MIT */
/* sdk/ir/name_list.h — the names in a list of computations as the HLO
 * reader keeps it in an attribute ("{%a, %b}" or "%a"), one at a time: in
 * the bottom floor, so that the HLO verifier and the analyses read such a
 * list alike. */
#ifndef PL_IR_NAME_LIST_H
#define PL_IR_NAME_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* The next name of s[0..len) from *at, without its '%': true with *name
 * and *nlen set and *at past it; false at the end. */
static inline bool name_list_next(const char *s, size_t len, size_t *at, const char **name,
                                  size_t *nlen)
{
	size_t i = *at;
	while (i < len && (s[i] == '{' || s[i] == '}' || s[i] == ',' || s[i] == ' ' ||
	                   s[i] == '%' || s[i] == '\n' || s[i] == '\t'))
		i++;
	size_t j = i;
	while (j < len && s[j] != ',' && s[j] != '}' && s[j] != ' ')
		j++;
	*at = j;
	*name = s + i;
	*nlen = j - i;
	return j > i;
}

#endif
