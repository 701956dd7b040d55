/* SPDX-License-Identifier: MIT */
/* sdk/ir/hlo_keys.c — the table of hlo_* keys (hlo_keys.h). */
#include "ir/hlo_keys.h"

const struct pl_hlo_key_info pl_hlo_keys_[PL_HK_COUNT_] = {
#define PL_HLO_KEY_ROW_(id, key, on, form, meaning) \
	[PL_HK_##id] = {key, PL_HK_ON_##on, PL_HK_FORM_##form, meaning},
	PL_HLO_KEYS(PL_HLO_KEY_ROW_)
#undef PL_HLO_KEY_ROW_
};

bool pl_hlo_internal_key_(const char *k)
{
	/* the reader asks this of every HLO attribute: compare k only with the
	 * rows that qualify, a test the compiler settles per row */
#define PL_HLO_KEY_OWN_(id, key, on, form, meaning) \
	if (PL_HK_ON_##on == PL_HK_ON_INST && PL_HK_FORM_##form != PL_HK_FORM_ATTR && \
	    strcmp(k, key) == 0) \
		return true;
	PL_HLO_KEYS(PL_HLO_KEY_OWN_)
#undef PL_HLO_KEY_OWN_
	return false;
}
