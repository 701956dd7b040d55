/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_async.c — the passes on asynchronous IR, on every module that
 * parses and verifies: HoistFSDPCollectives, BucketizeCCOp, SplitAsyncCCOp
 * (max_window the input's size modulo 3, so 0 = no limit, 1 and 2 all
 * occur), CoalesceCCOp (which then meets tuple starts), DynamicInstEstimator
 * and DetailDynInst, run in-process, otherwise with their defaults; the
 * properties are pipeline_property.h's. */
#include <config.h>

#include "pipeline_property.h"

const pl_plugin_desc *pl_plugin_entry_hoist(void);
const pl_plugin_desc *pl_plugin_entry_bucketize(void);
const pl_plugin_desc *pl_plugin_entry_split(void);
const pl_plugin_desc *pl_plugin_entry_coalesce(void);
const pl_plugin_desc *pl_plugin_entry_estimator(void);
const pl_plugin_desc *pl_plugin_entry_detail(void);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char window[2] = {(char)('0' + size % 3), '\0'};
	const struct fuzz_step steps[] = {
		{pl_plugin_entry_hoist, NULL, NULL},
		{pl_plugin_entry_bucketize, NULL, NULL},
		{pl_plugin_entry_split, "max_window", window},
		{pl_plugin_entry_coalesce, NULL, NULL},
		{pl_plugin_entry_estimator, NULL, NULL},
		{pl_plugin_entry_detail, NULL, NULL},
	};
	fuzz_pipeline_property(data, size, steps, sizeof steps / sizeof *steps);
	return 0;
}
