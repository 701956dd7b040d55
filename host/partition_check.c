/* SPDX-License-Identifier: MIT */
/* host/partition_check.c — a module taken before SPMD partitioning. XLA
 * dumps a program meant for many devices before its partitioner has cut
 * it (num_partitions > 1, or sharding annotations over devices) with no
 * collective in it: costed as it stands, it is the whole program on one
 * device, which nobody runs. The figures still come out, with a warning
 * that says what they are (shown with the statistics and in
 * --stats-json's "warnings"). */
#include "host.h"

#include <stdlib.h>
#include <string.h>

/* N of "NAME=N" in the HloModule line, or 1. */
static long module_count(const char *line, const char *name)
{
	const char *p = line;
	size_t n = strlen(name);
	while ((p = strstr(p, name)) != NULL) {
		bool word = p == line || p[-1] == ' ' || p[-1] == ',';
		if (word && p[n] == '=')
			return strtol(p + n + 1, NULL, 10);
		p += n;
	}
	return 1;
}

/* Whether a sharding text names devices ("{devices=[8,1]<=[8]}"): a
 * replicated or maximal sharding does not cut the program. */
static bool has_devices(const char *s, size_t n)
{
	static const char key[] = "devices=";
	for (size_t k = 0; k + sizeof key - 1 <= n; k++)
		if (memcmp(s + k, key, sizeof key - 1) == 0)
			return true;
	return false;
}

void partition_check(struct pipeline *pl, pl_module *m)
{
	const char *line = NULL;
	size_t len = 0;
	bool sharded = false;
	const pl_cost_model *cm = pipeline_run_cost_model(pl);
	pl_cost_model *own = cm ? NULL : pl_cost_model_new();
	if (!cm && !(cm = own))
		return;
	for (size_t f = 0; f < pl_module_num_funcs(m); f++) {
		pl_func *fn = pl_module_func_at(m, f);
		const char *s;
		size_t n;
		if (!line && pl_attrs_get_string(pl_func_attrs(fn), "hlo_module", &s, &n) == PL_OK) {
			line = s;
			len = n;
		}
		for (const pl_inst *i = pl_func_first_inst(fn); i; i = pl_inst_next(i)) {
			double kind;
			if (pl_inst_comm_term(i, cm, PL_COMM_TERM_KIND, &kind) == PL_OK) {
				pl_cost_model_free(own);
				return; /* partitioned: it talks to other devices */
			}
			if (!sharded && pl_attrs_get_string(pl_inst_attrs_const(i), "hlo_sharding", &s,
			                                    &n) == PL_OK)
				sharded = has_devices(s, n);
		}
	}
	pl_cost_model_free(own);
	if (!line)
		return;
	char *text = xmalloc(len + 1);
	memcpy(text, line, len);
	text[len] = '\0';
	/* replicas each run the whole program: only partitions cut it */
	long parts = module_count(text, "num_partitions");
	free(text);
	if (parts <= 1 && !sharded)
		return;
	pipeline_add_warning(
		pl, xasprintf("no collective, but num_partitions=%ld%s: the module was dumped "
		              "before SPMD partitioning, so its figures are for the whole program on "
		              "one device, not for one device of the partitioned step",
		              parts, sharded ? " and sharding annotations over devices" : ""));
}
