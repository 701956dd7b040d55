/* SPDX-License-Identifier: MIT */
/* Contract: reads collectives, stores, operand defs; merges same-kind runs into tuple collectives; needs verified IR. */

/* plugins/bucketize_ccop.c — BucketizeCCOp (passline-pipeline(5)).
 *
 * Per function, one forward sweep with one pending run per kind
 * (all_gather, reduce_scatter, all_reduce). A candidate (a collective of an
 * enabled kind with a non-empty group_id, not pinned = true) first flushes
 * its kind's run when
 * it cannot join it:
 *   - its group_id, factor, reduce or dimension (absent: 0) differs from
 *     the run's last member's (dimension is not in the original pass's key, but a
 *     merged collective has one dimension and every result must fit it);
 *   - it could not be issued at the run's first member: an operand is
 *     defined at or after the first member, or a store writes an operand
 *     after the first member (and before the candidate);
 *   - the run would pass its kind's byte cap (a total equal to the cap is
 *     allowed) or max_count members;
 * then joins the (possibly new) run. Every run is flushed at the end of the
 * function. Flushing a run of n >= 2 builds one collective of the same kind
 * before the first member, with every member's operands and results in
 * order and the first member's attributes (so its id); the members' results
 * hand their uses and names to the merged results and the members are
 * erased.
 *
 * Linear: each instruction is visited once; the key check compares four
 * attributes with the last member's; "defined at or after the first member"
 * compares positions (O(1)); "stored to inside the run" compares the
 * position of the last store to the operand seen so far in the sweep (a hash
 * map from buffer value to its last store) with the first member's. A merge
 * costs O(operands + results + uses of the results) of its members, each
 * member merged once. Positions are queried live, so they stay right after
 * each merge (every insertion keeps the numbers current, and erasing
 * renumbers nothing).
 */
#include <passline/passline.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "labels.h"
#include "inst_bytes.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"

enum kind { KIND_ALL_GATHER, KIND_REDUCE_SCATTER, KIND_ALL_REDUCE, NUM_KINDS, KIND_NONE = -1 };

static const char *const kind_names[NUM_KINDS] = {"all_gather", "reduce_scatter", "all_reduce"};
static const char *const kind_stats[NUM_KINDS] = {
	"num_all_gathers_coalesced", "num_reduce_scatters_coalesced", "num_all_reduces_coalesced"};
static const char *const kind_enable_options[NUM_KINDS] = {"all_gather", "reduce_scatter",
                                                           "all_reduce"};
static const char *const kind_cap_options[NUM_KINDS] = {
	"all_gather_max_bytes", "reduce_scatter_max_bytes", "all_reduce_max_bytes"};

static const pl_option_decl bucketize_options[] = {
	PL_OPTION_BOOL("all_gather", "true", "Bucket all_gather collectives."),
	PL_OPTION_BOOL("reduce_scatter", "true", "Bucket reduce_scatter collectives."),
	PL_OPTION_BOOL("all_reduce", "true", "Bucket all_reduce collectives."),
	PL_OPTION_BYTES("all_gather_max_bytes", "0",
	                "Largest all_gather bucket, in result bytes (0: no cap)."),
	PL_OPTION_BYTES("reduce_scatter_max_bytes", "0",
	                "Largest reduce_scatter bucket, in result bytes (0: no cap)."),
	PL_OPTION_BYTES("all_reduce_max_bytes", "0",
	                "Largest all_reduce bucket, in result bytes (0: no cap)."),
	PL_OPTION_INT("max_count", "0", 0, INT64_MAX,
	              "Most collectives in one bucket (0: no cap)."),
	PL_OPTION_END
};

static const pl_stat_decl bucketize_stats[] = {
	PL_STAT("num_all_gathers_coalesced", "All-gathers merged into a bucket."),
	PL_STAT("num_reduce_scatters_coalesced", "Reduce-scatters merged into a bucket."),
	PL_STAT("num_all_reduces_coalesced", "All-reduces merged into a bucket."),
	PL_STAT_END
};

struct config {
	bool enabled[NUM_KINDS];
	uint64_t max_bytes[NUM_KINDS]; /* 0: no cap */
	uint64_t max_count;            /* 0: no cap */
};

/* The attributes that must agree along a run: the original pass's key with its
 * deviation (reduce is part of the key), and dimension (absent means 0):
 * the merged collective has one dimension, the first member's, and the
 * shape rules check every result against it. */
enum { KEY_GROUP_ID, KEY_FACTOR, KEY_REDUCE, KEY_DIMENSION, NUM_KEYS };
/* ...and, read in the same scan but not compared, pinned */
enum { KEY_PINNED = NUM_KEYS, NUM_READ };
static const char *const key_names[NUM_READ] = {"group_id", "factor", "reduce", "dimension",
                                                "pinned"};

struct key {
	const pl_attr *attr[NUM_READ]; /* NULL where absent */
};

/* The pending run of one kind. */
struct run {
	struct inst_vec members;
	uint64_t bytes;      /* sum of the members' result bytes, saturating */
	struct key last_key; /* the last member's */
};

struct bucketizer {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	bool remarks;
	struct run runs[NUM_KINDS];
	struct ptr_map last_store; /* buffer value -> last store to it so far */
	struct key_classes keys;   /* key_names by address */
	uint64_t merged[NUM_KINDS];    /* members merged, for the stats */
};

/* ---- options ---------------------------------------------------------- */

static int bucketize_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int rc = PL_OK;
	for (int k = 0; k < NUM_KINDS && rc == PL_OK; k++) {
		int64_t cap = 0;
		rc = pl_ctx_get_bool(ctx, kind_enable_options[k], &cfg->enabled[k]);
		if (rc == PL_OK)
			rc = pl_ctx_get_int(ctx, kind_cap_options[k], &cap);
		cfg->max_bytes[k] = cap > 0 ? (uint64_t)cap : 0;
	}
	int64_t count = 0;
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_count", &count);
	cfg->max_count = count > 0 ? (uint64_t)count : 0;
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	*state = cfg;
	return PL_OK;
}

static void bucketize_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- reading instructions ---------------------------------------------- */

static enum kind kind_of(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER: return KIND_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER: return KIND_REDUCE_SCATTER;
	case PL_OP_ALL_REDUCE: return KIND_ALL_REDUCE;
	default: return KIND_NONE;
	}
}

/* A collective with no group_id, or an empty one, is not bucketizable. */
static bool has_group_id(const struct key *key)
{
	const pl_attr *g = key->attr[KEY_GROUP_ID];
	size_t len = 0;
	if (!g || pl_attr_get_kind(g) != PL_ATTR_STRING)
		return false;
	pl_attr_get_string(g, &len);
	return len > 0;
}

/* Reads inst's key; false when inst is not bucketizable: without a
 * group_id, or pinned (an HLO control dependency: it never merges). */
static bool read_key(struct bucketizer *b, pl_inst *inst, struct key *key)
{
	key_classes_read(&b->keys, pl_inst_attrs_const(inst), key->attr);
	const pl_attr *pinned = key->attr[KEY_PINNED];
	if (pinned && pl_attr_get_kind(pinned) == PL_ATTR_BOOL && pl_attr_get_bool(pinned))
		return false;
	return has_group_id(key);
}

/* An attribute value as the text form writes it ("dp" quoted), or "none". */
static void describe_attr(const pl_attr *a, char *buf, size_t size)
{
	if (!a) {
		snprintf(buf, size, "none");
		return;
	}
	switch (pl_attr_get_kind(a)) {
	case PL_ATTR_INT:
		snprintf(buf, size, "%" PRId64, pl_attr_get_int(a));
		return;
	case PL_ATTR_BOOL:
		snprintf(buf, size, "%s", pl_attr_get_bool(a) ? "true" : "false");
		return;
	case PL_ATTR_FLOAT:
		snprintf(buf, size, "%g", pl_attr_get_float(a));
		return;
	case PL_ATTR_STRING: {
		size_t len, out = 0;
		const char *s = pl_attr_get_string(a, &len);
		if (size < 8) {
			snprintf(buf, size, "\"\"");
			return;
		}
		buf[out++] = '"';
		for (size_t i = 0; i < len && out + 6 < size; i++) {
			unsigned char c = (unsigned char)s[i];
			if (c == '"' || c == '\\') {
				buf[out++] = '\\';
				buf[out++] = (char)c;
			} else if (c < 0x20 || c >= 0x7f) {
				out += (size_t)snprintf(buf + out, size - out, "\\x%02x", c);
			} else {
				buf[out++] = (char)c;
			}
		}
		buf[out++] = '"';
		buf[out] = '\0';
		return;
	}
	default:
		snprintf(buf, size, "a list");
		return;
	}
}

/* ---- deciding ------------------------------------------------------------ */

/* Whether a dimension attribute means 0 (absent, or the integer 0). */
static bool is_default_dimension(const pl_attr *a)
{
	return !a || (pl_attr_get_kind(a) == PL_ATTR_INT && pl_attr_get_int(a) == 0);
}

static bool key_attr_equal(int k, const pl_attr *a, const pl_attr *c)
{
	if (a == c || (a && c && pl_attr_equal(a, c)))
		return true;
	return k == KEY_DIMENSION && is_default_dimension(a) && is_default_dimension(c);
}

/* A key attribute for a message: its value, the default 0 for an absent
 * dimension, "none" for another absent attribute. */
static void describe_key_attr(int k, const pl_attr *a, char *buf, size_t size)
{
	if (!a && k == KEY_DIMENSION)
		snprintf(buf, size, "0");
	else
		describe_attr(a, buf, size);
}

/* Whether cand cannot join run (a run of its kind that is not empty). The
 * reason goes into why when why is not NULL (only remarks need it, and
 * formatting it for every flush would cost more than the check). */
static bool must_flush(struct bucketizer *b, enum kind kind, const struct run *run,
                       pl_inst *cand, const struct key *cand_key, uint64_t cand_bytes,
                       char *why, size_t whylen)
{
	for (int k = 0; k < NUM_KEYS; k++) {
		const pl_attr *a = run->last_key.attr[k], *c = cand_key->attr[k];
		if (key_attr_equal(k, a, c))
			continue;
		if (why) {
			char va[128], vc[128];
			describe_key_attr(k, a, va, sizeof va);
			describe_key_attr(k, c, vc, sizeof vc);
			snprintf(why, whylen, "different %s (%s vs %s)", key_names[k], va, vc);
		}
		return true;
	}

	uint64_t start = pl_inst_position(run->members.v[0]);
	size_t nops = pl_inst_num_operands(cand);
	for (size_t k = 0; k < nops; k++) {
		pl_value *v = pl_inst_operand(cand, k);
		pl_inst *def = pl_value_def(v);
		if (def && pl_inst_position(def) >= start) {
			if (why)
				snprintf(why, whylen, "operand %%%s defined after run start", value_label(v));
			return true;
		}
		pl_inst *store = ptr_map_get(&b->last_store, v);
		if (store && pl_inst_position(store) > start) {
			if (why)
				snprintf(why, whylen, "store to operand %%%s inside run", value_label(v));
			return true;
		}
	}

	uint64_t cap = b->cfg->max_bytes[kind];
	if (cap && pl_u64_add_sat(run->bytes, cand_bytes) > cap) {
		if (why)
			snprintf(why, whylen, "size cap %" PRIu64 " bytes reached", cap);
		return true;
	}
	if (b->cfg->max_count && run->members.len + 1 > b->cfg->max_count) {
		if (why)
			snprintf(why, whylen, "count cap reached");
		return true;
	}
	return false;
}

/* ---- merging -------------------------------------------------------------- */

/* Gives the merged result the store history of the member result it
 * replaces, so later dependency checks still see those stores. */
static int carry_store_record(struct bucketizer *b, pl_value *from, pl_value *to)
{
	pl_inst *store = ptr_map_get(&b->last_store, from);
	if (store && !ptr_map_put(&b->last_store, to, store))
		return PL_ENOMEM;
	return PL_OK;
}

/* Builds the merged collective before the first member and erases the
 * members. */
static int merge_run(struct bucketizer *b, enum kind kind, struct run *run)
{
	pl_inst *first = run->members.v[0];
	size_t nops = 0, nres = 0;
	for (size_t i = 0; i < run->members.len; i++) {
		nops += pl_inst_num_operands(run->members.v[i]);
		nres += pl_inst_num_results(run->members.v[i]);
	}
	/* most runs are short: no allocation for them */
	pl_value *ops_small[32];
	const pl_type *types_small[32];
	pl_value **ops = nops <= 32 ? ops_small : malloc(nops * sizeof *ops);
	const pl_type **types = nres <= 32 ? types_small : malloc(nres * sizeof *types);
	int rc = PL_ENOMEM;
	if (!ops || !types)
		goto out;
	size_t o = 0, r = 0;
	for (size_t i = 0; i < run->members.len; i++) {
		pl_inst *m = run->members.v[i];
		size_t mops = pl_inst_num_operands(m), mres = pl_inst_num_results(m);
		for (size_t k = 0; k < mops; k++)
			ops[o++] = pl_inst_operand(m, k);
		for (size_t k = 0; k < mres; k++)
			types[r++] = pl_value_type(pl_inst_result(m, k));
	}
	pl_inst *merged;
	if ((rc = pl_inst_create(&merged, pl_inst_func(first), pl_inst_opname(first), ops, nops,
	                         types, nres)) != PL_OK ||
	    (rc = pl_inst_copy_attrs(merged, first)) != PL_OK)
		goto out;
	pl_inst_set_loc(merged, pl_inst_line(first), pl_inst_col(first));
	if (b->remarks)
		pl_ctx_remark(b->ctx, first, "merged %zu %s into one at %%%s", run->members.len,
		              kind_names[kind], inst_label(first));
	if ((rc = pl_inst_insert(merged, first, PL_BEFORE)) != PL_OK)
		goto out;
	r = 0;
	for (size_t i = 0; i < run->members.len; i++) {
		pl_inst *m = run->members.v[i];
		size_t mres = pl_inst_num_results(m);
		for (size_t k = 0; k < mres; k++) {
			pl_value *from = pl_inst_result(m, k), *to = pl_inst_result(merged, r++);
			if ((rc = carry_store_record(b, from, to)) != PL_OK)
				goto out;
			pl_value_replace(from, to);
		}
	}
	for (size_t i = 0; i < run->members.len; i++)
		if ((rc = pl_inst_erase(run->members.v[i])) != PL_OK)
			goto out;
	b->merged[kind] += run->members.len; /* added to the stats at the end of the run */
	rc = PL_OK;
out:
	if (ops != ops_small)
		free(ops);
	if (types != types_small)
		free(types);
	return rc;
}

static int flush_run(struct bucketizer *b, enum kind kind)
{
	struct run *run = &b->runs[kind];
	int rc = PL_OK;
	if (run->members.len >= 2)
		rc = merge_run(b, kind, run);
	run->members.len = 0;
	run->bytes = 0;
	return rc;
}

static int append_to_run(struct run *run, pl_inst *inst, const struct key *key,
                         uint64_t bytes)
{
	if (!push_inst(&run->members, inst))
		return PL_ENOMEM;
	run->bytes = pl_u64_add_sat(run->bytes, bytes);
	run->last_key = *key;
	return PL_OK;
}

/* ---- the sweep ------------------------------------------------------------- */

/* One candidate: flush its kind's run if it cannot join, then join. */
static int visit_candidate(struct bucketizer *b, enum kind kind, pl_inst *cand,
                           const struct key *key)
{
	struct run *run = &b->runs[kind];
	uint64_t bytes = result_bytes(cand);
	char why[512];
	bool remarks = b->remarks;
	if (run->members.len && must_flush(b, kind, run, cand, key, bytes, remarks ? why : NULL,
	                           sizeof why)) {
		if (remarks) {
			pl_inst *first = run->members.v[0], *last = run->members.v[run->members.len - 1];
			if (first == last)
				pl_ctx_remark(b->ctx, cand, "flushed %s run %%%s before %%%s: %s",
				              kind_names[kind], inst_label(first), inst_label(cand), why);
			else
				pl_ctx_remark(b->ctx, cand, "flushed %s run %%%s..%%%s before %%%s: %s",
				              kind_names[kind], inst_label(first), inst_label(last),
				              inst_label(cand), why);
		}
		int rc = flush_run(b, kind);
		if (rc != PL_OK)
			return rc;
	}
	return append_to_run(run, cand, key, bytes);
}

static int bucketize_func(struct bucketizer *b, pl_func *f)
{
	int rc = PL_OK;
	for (pl_inst *i = pl_func_first_inst(f), *next; i && rc == PL_OK; i = next) {
		next = pl_inst_next(i);
		pl_op op = pl_inst_op(i);
		if (inst_is_store(i)) {
			if (!ptr_map_put(&b->last_store, pl_inst_operand(i, 1), i))
				rc = PL_ENOMEM;
			continue;
		}
		enum kind kind = kind_of(op);
		if (kind == KIND_NONE || !b->cfg->enabled[kind])
			continue;
		struct key key;
		if (read_key(b, i, &key))
			rc = visit_candidate(b, kind, i, &key);
	}
	for (int k = 0; k < NUM_KINDS; k++) {
		int frc = flush_run(b, (enum kind)k);
		if (rc == PL_OK)
			rc = frc;
	}
	ptr_map_clear(&b->last_store);
	return rc;
}

static int bucketize_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct bucketizer b = {.ctx = ctx, .cfg = state, .remarks = pl_ctx_remarks_enabled(ctx),
	                       .keys = {.names = key_names, .count = NUM_READ}};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++)
		if (rewritable_at(&rw, k))
			rc = bucketize_func(&b, pl_module_func_at(m, k));
	rewritable_free(&rw);
	for (int k = 0; k < NUM_KINDS; k++) {
		free(b.runs[k].members.v);
		/* every merge that was made counts, as when each added its own */
		pass_end_stat(ctx, kind_stats[k], b.merged[k], &rc);
	}
	ptr_map_free(&b.last_store);
	ptr_map_free(&b.keys.seen);
	return pass_end_report(ctx, rc, "merge collectives");
}

static const pl_pass_desc bucketize_pass = {
	PL_PASS_DESC_INIT,
	.name = "BucketizeCCOp",
	.summary = "Merges runs of same-kind collectives into one tuple collective.",
	.options = bucketize_options,
	.stats = bucketize_stats,
	.create = bucketize_create,
	.run = bucketize_run,
	.destroy = bucketize_destroy,
};

PL_PLUGIN_DEFINE("BucketizeCCOp", PACKAGE_VERSION, "MIT",
                 "Collective bucketing.", &bucketize_pass)
