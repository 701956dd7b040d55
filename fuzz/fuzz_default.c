/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_default.c — the default pipeline on every module that parses
 * and verifies: HoistFSDPCollectives, BucketizeCCOp (all_gather_max_bytes =
 * 64MiB, as conf/default.ini), CoalesceCCOp, DynamicInstEstimator,
 * DetailDynInst, run in-process with their defaults; the properties are
 * pipeline_property.h's. */
#include <config.h>

#include "pipeline_property.h"

const pl_plugin_desc *pl_plugin_entry_hoist(void);
const pl_plugin_desc *pl_plugin_entry_bucketize(void);
const pl_plugin_desc *pl_plugin_entry_coalesce(void);
const pl_plugin_desc *pl_plugin_entry_estimator(void);
const pl_plugin_desc *pl_plugin_entry_detail(void);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const struct fuzz_step steps[] = {
		{pl_plugin_entry_hoist, NULL, NULL},
		{pl_plugin_entry_bucketize, "all_gather_max_bytes", "64MiB"},
		{pl_plugin_entry_coalesce, NULL, NULL},
		{pl_plugin_entry_estimator, NULL, NULL},
		{pl_plugin_entry_detail, NULL, NULL},
	};
	fuzz_pipeline_property(data, size, steps, sizeof steps / sizeof *steps);
	return 0;
}
