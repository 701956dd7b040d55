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
	if (strncmp(k, PL_HLO_KEY_PREFIX, PL_HLO_KEY_PREFIX_LEN) != 0)
		return false;
	for (size_t i = 0; i < PL_HK_COUNT_; i++) {
		const struct pl_hlo_key_info *e = &pl_hlo_keys_[i];
		/* the first letter after the prefix rules out most rows at once */
		if (e->on == PL_HK_ON_INST && e->form != PL_HK_FORM_ATTR &&
		    e->key[PL_HLO_KEY_PREFIX_LEN] == k[PL_HLO_KEY_PREFIX_LEN] && strcmp(e->key, k) == 0)
			return true;
	}
	return false;
}
