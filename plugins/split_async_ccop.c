/* SPDX-License-Identifier: MIT */
/* Contract: reads operands, uses, stores; replaces each synchronous collective of the chosen kinds by a start and a done; needs verified IR. */

/* plugins/split_async_ccop.c — SplitAsyncCCOp (passline-pipeline(5)).
 *
 * Each synchronous collective becomes a start at its place, with its
 * operands and attributes, and a done that gives its results (the same
 * names; the start's results get the suffix "_s"). The done waits as long
 * as it may: it lands just before the first of
 *   - an instruction that uses one of its results (return included),
 *   - a store to one of the collective's operands,
 *   - with max_window W, the (W+1)-th instruction after the start (dones
 *     do not count: W instructions of the input lie between them),
 * or at the end of the function. Dones that land before the same
 * instruction keep the order of their starts. A collective with
 * pinned = true (an HLO control dependency) stays as it is: splitting it
 * would move its wait.
 *
 * One forward sweep. The dones not yet placed are pending, in start order;
 * at each instruction the pass gathers the pending dones that must land
 * before it: those whose results it uses (a result's definition is a done
 * not yet linked: a map from done to entry), those reading a buffer it
 * stores to (per buffer, a list of the entries reading it, emptied by the
 * store), and those whose window ends here (a prefix of the pending list,
 * since every window has the same length). The gathered dones are sorted
 * by start order and inserted before the instruction. Each entry joins and
 * leaves every structure once: linear, apart from sorting the dones that
 * land at one place.
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "labels.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"

static const pl_option_decl split_options[] = {
	PL_OPTION_STRING("kinds", "all_gather,reduce_scatter,all_reduce",
	                 "The collectives to split: a comma-separated list of all_gather, "
	                 "reduce_scatter, all_reduce."),
	PL_OPTION_INT("max_window", "0", 0, INT64_MAX,
	              "Most instructions between a start and its done, other dones not "
	              "counted (0: no limit)."),
	PL_OPTION_END
};

static const pl_stat_decl split_stats[] = {
	PL_STAT("num_collectives_split", "Synchronous collectives split into a start and a done."),
	PL_STAT_END
};

/* The three kinds, in the order of the kinds option's default. */
static const struct kind {
	const char *name;
	pl_op op;
} kinds[] = {
	{"all_gather", PL_OP_ALL_GATHER},
	{"reduce_scatter", PL_OP_REDUCE_SCATTER},
	{"all_reduce", PL_OP_ALL_REDUCE},
};
enum { NUM_KINDS = sizeof kinds / sizeof kinds[0] };

struct config {
	bool split[NUM_KINDS];
	uint64_t max_window; /* 0: no limit */
};

/* Why a done landed where it did, for remarks. */
enum reason { BY_USE, BY_STORE, BY_WINDOW, BY_RETURN, BY_END };

/* A collective split in the current function. */
struct entry {
	pl_inst *done;      /* detached until it lands */
	uint64_t start_idx; /* the input instruction the collective was */
	uint64_t deadline;  /* the input instruction it must land before */
	bool landed;        /* placed, or gathered to be placed at this instruction */
	uint8_t kind;
	uint8_t reason;
};

/* One link of a buffer's list of the entries that read it. */
struct reader {
	size_t entry, next; /* next: index + 1 in the node array; 0 ends */
};

struct splitter {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	bool remarks;
	struct entry *entries; /* this function's, in start order */
	size_t len, cap;
	size_t cursor;   /* entries before it have landed */
	size_t npending; /* entries that have not */
	struct ptr_map entry_of;   /* done -> entry index + 1 */
	struct ptr_map readers_of; /* buffer value -> first reader node index + 1 */
	struct reader *nodes;
	size_t nnodes, nodes_cap;
	size_t *batch; /* entries landing before the current instruction */
	size_t batch_len, batch_cap;
	struct attr_key pinned;
	uint64_t split;
};

/* ---- options ------------------------------------------------------------- */

/* Parses the kinds list into cfg->split; reports and fails on a bad one. */
static int parse_kinds(pl_pass_ctx *ctx, const char *list, struct config *cfg)
{
	const char *p = list;
	if (!list[strspn(list, " \t")]) {
		pl_ctx_error(ctx, NULL, "option 'kinds' names no collective kind (expected a "
		                        "comma-separated list of all_gather, reduce_scatter, all_reduce)");
		return PL_EINVAL;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *end = p;
		while (*end && *end != ',')
			end++;
		size_t len = (size_t)(end - p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		size_t k = 0;
		while (k < NUM_KINDS && !(strlen(kinds[k].name) == len && !memcmp(kinds[k].name, p, len)))
			k++;
		if (k == NUM_KINDS) {
			if (len)
				pl_ctx_error(ctx, NULL, "option 'kinds': unknown collective kind '%.*s' "
				                        "(expected all_gather, reduce_scatter or all_reduce)",
				             (int)(len > 64 ? 64 : len), p);
			else
				pl_ctx_error(ctx, NULL, "option 'kinds': an empty item in the list (expected "
				                        "a comma-separated list of all_gather, reduce_scatter, "
				                        "all_reduce)");
			return PL_EINVAL;
		}
		cfg->split[k] = true;
		if (!*end)
			break;
		p = end + 1;
	}
	return PL_OK;
}

static int split_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	const char *list = NULL;
	int64_t window = 0;
	int rc = pl_ctx_get_string(ctx, "kinds", &list);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "max_window", &window);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	if ((rc = parse_kinds(ctx, list, cfg)) != PL_OK) {
		free(cfg);
		return rc;
	}
	cfg->max_window = window > 0 ? (uint64_t)window : 0;
	*state = cfg;
	return PL_OK;
}

static void split_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- helpers -------------------------------------------------------------- */

static int kind_of(const struct config *cfg, pl_op op)
{
	for (int k = 0; k < NUM_KINDS; k++)
		if (kinds[k].op == op)
			return cfg->split[k] ? k : -1;
	return -1;
}

/* Marks entry e as landing before the current instruction. */
static bool gather(struct splitter *sp, size_t e, enum reason why)
{
	if (sp->entries[e].landed)
		return true;
	if (!PL_GROW(sp->batch, sp->batch_cap, sp->batch_len + 1))
		return false;
	sp->entries[e].landed = true;
	sp->entries[e].reason = (uint8_t)why;
	sp->batch[sp->batch_len++] = e;
	sp->npending--;
	return true;
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static void remark_landing(struct splitter *sp, const struct entry *e, const pl_inst *before,
                           uint64_t idx)
{
	char what[256], label[240], where[300];
	inst_remark_label(e->done, what, sizeof what);
	uint64_t between = idx - e->start_idx - 1;
	if (!before)
		snprintf(where, sizeof where, "at the end of @%s,", pl_func_name(pl_inst_func(e->done)));
	else if (e->reason == BY_USE)
		snprintf(where, sizeof where, "just before its first use, %s,",
		         inst_remark_label(before, label, sizeof label));
	else if (e->reason == BY_STORE)
		snprintf(where, sizeof where, "just before %s, which writes an operand,",
		         inst_remark_label(before, label, sizeof label));
	else if (e->reason == BY_WINDOW)
		snprintf(where, sizeof where, "just before %s, at max_window,",
		         inst_remark_label(before, label, sizeof label));
	else
		snprintf(where, sizeof where, "just before %s,", pl_inst_opname(before));
	pl_ctx_remark(sp->ctx, e->done, "split %s %s: done %s %llu instruction%s after its start",
	              kinds[e->kind].name, what, where, (unsigned long long)between,
	              between == 1 ? "" : "s");
}

/* Inserts the gathered dones, in start order, before inst (at the end of
 * f when inst is NULL); idx is inst's index among the input instructions. */
static void land_batch(struct splitter *sp, pl_func *f, pl_inst *inst, uint64_t idx)
{
	if (sp->batch_len > 1)
		qsort(sp->batch, sp->batch_len, sizeof *sp->batch, cmp_index);
	for (size_t k = 0; k < sp->batch_len; k++) {
		const struct entry *e = &sp->entries[sp->batch[k]];
		if (inst)
			pl_inst_insert_before(e->done, inst);
		else
			pl_func_append(f, e->done);
		if (sp->remarks)
			remark_landing(sp, e, inst, idx);
	}
	sp->batch_len = 0;
}

/* Gathers every pending entry, in order. */
static bool gather_all(struct splitter *sp, enum reason why)
{
	for (; sp->cursor < sp->len; sp->cursor++)
		if (!gather(sp, sp->cursor, why))
			return false;
	return true;
}

/* The pending dones that must land before inst (the idx-th input
 * instruction). */
static bool gather_for(struct splitter *sp, pl_inst *inst, uint64_t idx)
{
	size_t nops = pl_inst_num_operands(inst);
	for (size_t k = 0; k < nops && sp->npending; k++) {
		pl_inst *def = pl_value_def(pl_inst_operand(inst, k));
		if (!def || pl_inst_is_linked(def))
			continue;
		void *e = ptr_map_get(&sp->entry_of, def);
		if (e && !gather(sp, (size_t)(uintptr_t)e - 1, BY_USE))
			return false;
	}
	if (sp->npending && (pl_inst_traits(inst) & PL_TRAIT_STORE) && nops >= 2) {
		pl_value *buf = pl_inst_operand(inst, 1);
		void *head = ptr_map_get(&sp->readers_of, buf);
		for (size_t n = (size_t)(uintptr_t)head; n; n = sp->nodes[n - 1].next)
			if (!gather(sp, sp->nodes[n - 1].entry, BY_STORE))
				return false;
		if (head && !ptr_map_put(&sp->readers_of, buf, NULL))
			return false;
	}
	for (; sp->cursor < sp->len; sp->cursor++) {
		struct entry *e = &sp->entries[sp->cursor];
		if (!e->landed && e->deadline > idx)
			break;
		if (!gather(sp, sp->cursor, BY_WINDOW))
			return false;
	}
	return true;
}

/* Replaces collective c (the idx-th input instruction, of kind k) by a
 * start in its place and a pending done. */
static int split_one(struct splitter *sp, pl_inst *c, int k, uint64_t idx)
{
	size_t nops = pl_inst_num_operands(c), nres = pl_inst_num_results(c);
	pl_inst *start = NULL, *done = NULL;
	int rc = pl_inst_split_collective(c, &start, &done);
	if (rc == PL_OK && !PL_GROW(sp->entries, sp->cap, sp->len + 1))
		rc = PL_ENOMEM;
	if (rc == PL_OK && !ptr_map_put(&sp->entry_of, done, (void *)(uintptr_t)(sp->len + 1)))
		rc = PL_ENOMEM;
	for (size_t j = 0; rc == PL_OK && j < nops; j++) {
		if (!PL_GROW(sp->nodes, sp->nodes_cap, sp->nnodes + 1)) {
			rc = PL_ENOMEM;
			break;
		}
		pl_value *buf = pl_inst_operand(c, j);
		sp->nodes[sp->nnodes] = (struct reader){sp->len,
		                                        (size_t)(uintptr_t)ptr_map_get(&sp->readers_of, buf)};
		if (!ptr_map_put(&sp->readers_of, buf, (void *)(uintptr_t)(sp->nnodes + 1)))
			rc = PL_ENOMEM;
		else
			sp->nnodes++;
	}
	if (rc != PL_OK) {
		/* nothing linked yet: the detached instructions are the module's
		 * and go with it; the pending structures are reset per function */
		return rc;
	}
	pl_inst_insert_before(start, c);
	for (size_t j = 0; j < nres; j++)
		pl_value_replace(pl_inst_result(c, j), pl_inst_result(done, j));
	rc = pl_inst_erase(c);
	uint64_t w = sp->cfg->max_window;
	sp->entries[sp->len++] = (struct entry){done, idx, w ? idx + w + 1 : UINT64_MAX, false,
	                                        (uint8_t)k, BY_END};
	sp->npending++;
	sp->split++;
	return rc;
}

/* ---- driver -------------------------------------------------------------- */

/* Forgets every entry (none may be pending): the structures stay as small
 * as the most dones pending at once, not as the function's collectives. */
static bool is_pinned(struct splitter *sp, const pl_inst *inst)
{
	const pl_attr *a = attr_key_get(&sp->pinned, pl_inst_attrs_const(inst));
	return a && pl_attr_get_kind(a) == PL_ATTR_BOOL && pl_attr_get_bool(a);
}

static void reset_entries(struct splitter *sp)
{
	sp->len = sp->cursor = sp->npending = sp->nnodes = sp->batch_len = 0;
	ptr_map_clear(&sp->entry_of);
	ptr_map_clear(&sp->readers_of);
}

static int split_func(struct splitter *sp, pl_func *f)
{
	reset_entries(sp);
	uint64_t idx = 0;
	pl_inst *next;
	for (pl_inst *i = pl_func_first_inst(f); i; i = next, idx++) {
		next = pl_inst_next(i);
		if (sp->npending) {
			bool ok = (pl_inst_traits(i) & PL_TRAIT_TERMINATOR) ? gather_all(sp, BY_RETURN)
			                                                    : gather_for(sp, i, idx);
			if (!ok)
				return PL_ENOMEM;
			land_batch(sp, f, i, idx);
			if (!sp->npending)
				reset_entries(sp);
		}
		int k = kind_of(sp->cfg, pl_inst_op(i));
		if (k >= 0 && is_pinned(sp, i)) {
			if (sp->remarks) {
				char buf[80];
				pl_ctx_remark(sp->ctx, i, "left %s %s synchronous: it is pinned",
				              kinds[k].name, inst_remark_label(i, buf, sizeof buf));
			}
		} else if (k >= 0) {
			int rc = split_one(sp, i, k, idx);
			if (rc != PL_OK)
				return rc;
		}
	}
	if (sp->npending) {
		if (!gather_all(sp, BY_END))
			return PL_ENOMEM;
		land_batch(sp, f, NULL, idx);
	}
	return PL_OK;
}

static int split_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct splitter sp = {.ctx = ctx, .cfg = state, .remarks = pl_ctx_remarks_enabled(ctx),
	                      .pinned = {.name = "pinned"}};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++)
		if (rewritable_at(&rw, k))
			rc = split_func(&sp, pl_module_func_at(m, k));
	rewritable_free(&rw);
	pass_end_stat(ctx, "num_collectives_split", sp.split, &rc);
	ptr_map_free(&sp.entry_of);
	ptr_map_free(&sp.readers_of);
	free(sp.entries);
	free(sp.nodes);
	free(sp.batch);
	return pass_end_report(ctx, rc, "split collectives");
}

static const pl_pass_desc split_pass = {
	PL_PASS_DESC_INIT,
	.name = "SplitAsyncCCOp",
	.summary = "Splits synchronous collectives into a start and a done placed as late as it may go.",
	.options = split_options,
	.stats = split_stats,
	.create = split_create,
	.run = split_run,
	.destroy = split_destroy,
};

PL_PLUGIN_DEFINE("SplitAsyncCCOp", PACKAGE_VERSION, "MIT",
                 "Asynchronous collectives.", &split_pass)
