/* SPDX-License-Identifier: MIT */
/* Contract: reads all-reduces, their users and the offset computations of those; replaces each all-reduce XLA would turn into a reduce-scatter (with its dynamic-slice) by one; needs verified IR. */

/* plugins/reduce_scatter_creator.c — ReduceScatterCreator
 * (passline-pipeline(5)).
 *
 * XLA's GPU pass of that name: an all-reduce whose only user is a
 * dynamic-slice taking each device's own shard of one dimension (the rule
 * is rs_match.c's) becomes a reduce-scatter of that dimension over the
 * same replica groups, and the dynamic-slice goes. As XLA builds it:
 *  - the reduce-scatter has the all-reduce's operand and attributes
 *    (groups, channel, global ids, reducer, backend config), and stands
 *    where the dynamic-slice stood (in XLA's dumps only the offset's
 *    scalar arithmetic lies between the two);
 *  - a dimension the group size does not divide is first cut to the
 *    largest multiple (a slice of the operand);
 *  - a reshape between the all-reduce and the dynamic-slice is made again
 *    after the reduce-scatter, where the dynamic-slice was;
 *  - the dynamic-slice's offset computation is left for dead-code
 *    elimination, as XLA leaves it.
 * Every synchronous all-reduce left as it is gets a remark with XLA's
 * reason. The module's replica and partition counts come from the
 * HloModule line; where it gives neither, from the devices the replica
 * groups name (partitions when the module reads partition-id or has a
 * cross-partition collective, else replicas).
 */
#include <passline/passline.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "pass_end.h"
#include "ptr_map.h"
#include "rewritable.h"
#include "rs_groups.h"
#include "rs_match.h"

static const pl_stat_decl rsc_stats[] = {
	PL_STAT("num_created", "All-reduces turned into reduce-scatters."),
	PL_STAT("num_refused", "All-reduces left as they are (each remarked with the reason)."),
	PL_STAT_END
};

struct creator {
	pl_pass_ctx *ctx;
	pl_module *module;
	bool remarks;
	struct rs_devices dev;
	struct rs_tables tables;
	struct inst_vec work;
	uint64_t created, refused;
};

static bool is_true(const pl_inst *i, const char *key)
{
	const pl_attr *a = pl_attrs_get(pl_inst_attrs_const(i), key);
	return a && ((pl_attr_get_kind(a) == PL_ATTR_BOOL && pl_attr_get_bool(a)) ||
	             (pl_attr_get_kind(a) == PL_ATTR_STRING && !strcmp(pl_attr_get_string(a, NULL), "true")));
}

/* ---- the module's devices ------------------------------------------------- */

/* As XLA's module config: the HloModule line's counts (1 for the one it
 * leaves out); neither given, the devices the groups name. */
static int module_devices(struct creator *c)
{
	int64_t replicas, partitions;
	rs_module_counts(c->module, &replicas, &partitions);
	if (replicas || partitions) {
		c->dev.replicas = replicas ? replicas : 1;
		c->dev.partitions = partitions ? partitions : 1;
		return PL_OK;
	}
	int64_t max_id = -1;
	bool by_partition = false;
	for (size_t k = 0, n = pl_module_num_funcs(c->module); k < n; k++)
		for (pl_inst *i = pl_func_first_inst(pl_module_func_at(c->module, k)); i;
		     i = pl_inst_next(i)) {
			const pl_attrs *d = pl_inst_attrs_const(i);
			if (pl_inst_hlo_op(i) == PL_HLO_PARTITION_ID)
				by_partition = true;
			if (!pl_attrs_get(d, "hlo_replica_groups") && !pl_attrs_get(d, "group_id"))
				continue;
			struct rs_groups g;
			int rc = rs_groups_read(&g, i);
			if (rc != PL_OK)
				return rc;
			int64_t top = rs_groups_max_id(&g);
			max_id = top > max_id ? top : max_id;
			by_partition = by_partition || g.cross_module;
			rs_groups_free(&g);
		}
	int64_t devices = max_id >= 0 ? max_id + 1 : 1;
	c->dev.replicas = by_partition ? 1 : devices;
	c->dev.partitions = by_partition ? devices : 1;
	if (c->remarks)
		pl_ctx_remark(c->ctx, NULL,
		              "the module names no device counts: %" PRId64 " %s%s, as its replica "
		              "groups imply",
		              devices, by_partition ? "partition" : "replica", devices == 1 ? "" : "s");
	return PL_OK;
}

/* ---- the rewrite ------------------------------------------------------------ */

/* t with dimension d set to v; NULL when out of memory. */
static const pl_type *with_dim(pl_module *m, const pl_type *t, size_t d, int64_t v)
{
	int64_t dims[PL_MAX_RANK];
	size_t r = pl_type_rank(t);
	for (size_t k = 0; k < r; k++)
		dims[k] = k == d ? v : pl_type_dim(t, k);
	return pl_type_get(m, pl_type_dtype(t), dims, r);
}

/* An hlo.slice of x to the first `keep` of dimension d, before pos. */
static int make_slice(struct creator *c, pl_value *x, size_t d, int64_t keep, pl_inst *pos,
                      pl_inst **out)
{
	const pl_type *t = pl_value_type(x), *to = with_dim(c->module, t, d, keep);
	char text[PL_MAX_RANK * 44 + 4];
	size_t len = 0;
	text[len++] = '{';
	for (size_t k = 0; k < pl_type_rank(t); k++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s[0:%" PRId64 "]", k ? ", " : "",
		                        k == d ? keep : pl_type_dim(t, k));
	snprintf(text + len, sizeof text - len, "}");
	int rc = to ? pl_inst_create(out, pl_inst_func(pos), pl_hlo_op_name(PL_HLO_SLICE), &x, 1, &to, 1) : PL_ENOMEM;
	if (rc == PL_OK)
		rc = pl_attrs_set_string(pl_inst_attrs(*out), "hlo_slice", text);
	if (rc == PL_OK)
		rc = pl_value_set_name(pl_inst_result(*out, 0), "slice");
	if (rc == PL_OK) {
		pl_inst_set_loc(*out, pl_inst_line(pos), pl_inst_col(pos));
		rc = pl_inst_insert(*out, pos, PL_BEFORE);
	}
	return rc;
}

/* The attributes that describe an instruction's operands (how HLO named
 * them), which go with the operand to a slice made in front of it. */
static const char *const operand_keys[] = {"hlo_operand_names"};

static int rewrite(struct creator *c, pl_inst *ar, const struct rs_spec *s)
{
	pl_func *f = pl_inst_func(ar);
	pl_value *x = pl_inst_operand(ar, 0);
	const pl_type *t = pl_value_type(pl_inst_result(ar, 0));
	int64_t extent = pl_type_dim(t, s->split_dim), shard = extent / s->group_size;
	pl_inst *slice = NULL, *rs = NULL, *reshape = NULL;
	int rc = PL_OK;
	if (extent % s->group_size &&
	    (rc = make_slice(c, x, s->split_dim, shard * s->group_size, s->ds, &slice)) == PL_OK)
		x = pl_inst_result(slice, 0);
	const pl_type *rt = rc == PL_OK ? with_dim(c->module, t, s->split_dim, shard) : NULL;
	if (rc == PL_OK)
		rc = rt ? pl_inst_create(&rs, f, "reduce_scatter", &x, 1, &rt, 1) : PL_ENOMEM;
	if (rc == PL_OK)
		rc = pl_inst_copy_attrs(rs, ar);
	for (size_t k = 0; slice && rc == PL_OK && k < sizeof operand_keys / sizeof *operand_keys; k++) {
		const pl_attr *a = pl_attrs_get(pl_inst_attrs_const(ar), operand_keys[k]);
		if (a && (rc = pl_attrs_set(pl_inst_attrs(slice), operand_keys[k], a)) == PL_OK)
			rc = pl_attrs_remove(pl_inst_attrs(rs), operand_keys[k]);
	}
	pl_attrs *ra = rc == PL_OK ? pl_inst_attrs(rs) : NULL;
	if (rc == PL_OK && (rc = pl_attrs_set_int(ra, "dimension", (int64_t)s->split_dim)) == PL_OK)
		rc = pl_attrs_set_int(ra, "factor", s->group_size);
	if (rc == PL_OK)
		rc = pl_value_set_name(pl_inst_result(rs, 0), "reduce-scatter");
	if (rc == PL_OK) {
		pl_inst_set_loc(rs, pl_inst_line(ar), pl_inst_col(ar));
		rc = pl_inst_insert(rs, s->ds, PL_BEFORE);
	}
	pl_value *result = rc == PL_OK ? pl_inst_result(rs, 0) : NULL;
	if (rc == PL_OK && s->reshape) {
		/* back to the shape the dynamic-slice gave, where it gave it */
		const pl_type *dt = pl_value_type(pl_inst_result(s->ds, 0));
		rc = pl_inst_create(&reshape, f, pl_hlo_op_name(PL_HLO_RESHAPE), &result, 1, &dt, 1);
		if (rc == PL_OK)
			rc = pl_value_set_name(pl_inst_result(reshape, 0), "reshape");
		if (rc == PL_OK) {
			pl_inst_set_loc(reshape, pl_inst_line(s->ds), pl_inst_col(s->ds));
			rc = pl_inst_insert(reshape, s->ds, PL_BEFORE);
		}
		if (rc == PL_OK)
			result = pl_inst_result(reshape, 0);
	}
	if (rc != PL_OK)
		return rc;
	if (c->remarks) {
		char what[256], ds[256];
		inst_remark_label(ar, what, sizeof what);
		inst_remark_label(s->ds, ds, sizeof ds);
		pl_ctx_remark(c->ctx, ar,
		              "%s becomes a reduce-scatter of dimension %zu over groups of %" PRId64
		              "%s, in place of it and %s",
		              what, s->split_dim, s->group_size,
		              slice ? " (its operand cut to a multiple of the group size)" : "", ds);
	}
	pl_value_replace(pl_inst_result(s->ds, 0), result);
	rc = pl_inst_erase(s->ds);
	if (rc == PL_OK && s->reshape)
		rc = pl_inst_erase(s->reshape);
	if (rc == PL_OK)
		rc = pl_inst_erase(ar);
	return rc;
}

/* ---- driver ------------------------------------------------------------------ */

static int create_in(struct creator *c, pl_func *f)
{
	c->work.len = 0;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
		if (pl_inst_op(i) == PL_OP_ALL_REDUCE && !push_inst(&c->work, i))
			return PL_ENOMEM;
	char buf[320], what[256];
	for (size_t k = 0; k < c->work.len; k++) {
		pl_inst *ar = c->work.v[k];
		struct rs_spec spec;
		struct rs_groups g;
		const char *why = NULL;
		int rc = rs_groups_read(&g, ar);
		if (rc == PL_OK)
			rc = rs_match(ar, &g, &c->dev, &c->tables, &spec, &why, buf, sizeof buf);
		rs_groups_free(&g);
		if (rc != PL_OK)
			return rc;
		if (!why && (is_true(ar, "pinned") || is_true(spec.ds, "pinned") ||
		             (spec.reshape && is_true(spec.reshape, "pinned"))))
			why = "it or its dynamic-slice is pinned (an HLO control dependency)";
		if (why) {
			c->refused++;
			if (c->remarks)
				pl_ctx_remark(c->ctx, ar, "%s stays an all-reduce: %s",
				              inst_remark_label(ar, what, sizeof what), why);
			continue;
		}
		if ((rc = rewrite(c, ar, &spec)) != PL_OK)
			return rc;
		c->created++;
	}
	return PL_OK;
}

static int rsc_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	struct creator c = {.ctx = ctx, .module = m, .remarks = pl_ctx_remarks_enabled(ctx)};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	if (rc == PL_OK)
		rc = module_devices(&c);
	for (size_t k = 0; rc == PL_OK && k < pl_module_num_funcs(m); k++)
		if (rewritable_at(&rw, k))
			rc = create_in(&c, pl_module_func_at(m, k));
	rewritable_free(&rw);
	pass_end_stat(ctx, "num_created", c.created, &rc);
	pass_end_stat(ctx, "num_refused", c.refused, &rc);
	rs_tables_free(&c.tables);
	free(c.work.v);
	return pass_end_report(ctx, rc, "create reduce-scatters");
}

static const pl_pass_desc rsc_pass = {
	PL_PASS_DESC_INIT,
	.name = "ReduceScatterCreator",
	.summary = "Turns an all-reduce whose one user takes each device's shard into a "
	           "reduce-scatter, as XLA does.",
	.stats = rsc_stats,
	.run = rsc_run,
};

PL_PLUGIN_DEFINE("ReduceScatterCreator", PACKAGE_VERSION, "MIT",
                 "XLA's reduce-scatter creator.", &rsc_pass)
