/* SPDX-License-Identifier: MIT */
/* Contract: reads collectives, starts and dones, operand defs, stores; merges same-key collectives anywhere in a function into tuple collectives, moving their dependants after the merged one; needs verified IR. */

/* plugins/xla_combine_ccop.c — XlaCombineCCOp (passline-pipeline(5)).
 *
 * XLA's collective combiners (AllGatherCombiner, AllReduceCombiner,
 * ReduceScatterCombiner) on passline's IR. Per function:
 *
 *  1. Candidates, in instruction order: collectives (or starts, with their
 *     done) of an enabled kind with one operand, a non-empty group_id, not
 *     pinned, whose result bytes are at most the byte threshold. Each gets
 *     a key (kind, group_id, factor, reduce, dtype unless all-gathers may
 *     mix dtypes, dimension when combining by dimension, the sharding when
 *     the function has domain instructions, and with xla_gpu_keys the
 *     frontend and backend attributes XLA:GPU keys on).
 *  2. Groups, one at a time, as XLA forms them: the first candidate not yet
 *     taken opens a group of its key; a forward walk from it adds each
 *     later candidate of that key until one would pass the byte threshold
 *     (a total equal to it is allowed), or depends on a member (through
 *     operands, or a store to a buffer a member's dependant touched), or
 *     the count threshold is reached. A candidate that ends a group opens
 *     a later one. A group of two or more becomes one tuple collective.
 *  3. Placement: XLA's graph has no order; here the merged collective goes
 *     where the last member was (its start and done where the last start
 *     and the last done were), and every instruction between the first and
 *     the last member that depends on a member moves, in order, just after
 *     it. A pinned instruction never moves: a candidate that would need
 *     one moved ends the group instead.
 *
 * Cost: each group walks from its first member to where it ends, so a
 * function costs O(n) times the number of keys whose groups interleave.
 */
#include <passline/passline.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/host.h> /* pl_parse_bytes */

#include "labels.h"
#include "inst_bytes.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"
#include <passline/grow.h>

enum kind { K_AG, K_RS, K_AR, NUM_KINDS };

static const struct {
	const char *name, *stat;
	pl_op sync, start, done;
} kinds[NUM_KINDS] = {
	{"all_gather", "num_all_gathers_combined", PL_OP_ALL_GATHER, PL_OP_ALL_GATHER_START,
	 PL_OP_ALL_GATHER_DONE},
	{"reduce_scatter", "num_reduce_scatters_combined", PL_OP_REDUCE_SCATTER,
	 PL_OP_REDUCE_SCATTER_START, PL_OP_REDUCE_SCATTER_DONE},
	{"all_reduce", "num_all_reduces_combined", PL_OP_ALL_REDUCE, PL_OP_ALL_REDUCE_START,
	 PL_OP_ALL_REDUCE_DONE},
};

static const char *const by_dim_choices[] = {"", "true", "false", NULL};

static const pl_option_decl xla_options[] = {
	PL_OPTION_BYTES("combine_threshold_in_bytes", "31457287",
	                "Largest combined collective, in result bytes (0: combine nothing)."),
	PL_OPTION_INT("combine_threshold_count", "2048", 0, INT64_MAX,
	              "Most collectives in one combined collective (0: combine nothing)."),
	PL_OPTION_BOOL("combine_by_dim", "true",
	               "Only combine all-gathers and reduce-scatters of one dimension."),
	PL_OPTION_STRING("all_gather_threshold_in_bytes", "",
	                 "All-gathers: the largest combined one, in result bytes (empty: "
	                 "combine_threshold_in_bytes)."),
	PL_OPTION_STRING("reduce_scatter_threshold_in_bytes", "",
	                 "Reduce-scatters: the largest combined one, in result bytes (empty: "
	                 "combine_threshold_in_bytes)."),
	PL_OPTION_STRING("all_reduce_threshold_in_bytes", "",
	                 "All-reduces: the largest combined one, in result bytes (empty: "
	                 "combine_threshold_in_bytes)."),
	PL_OPTION_ENUM("all_gather_combine_by_dim", "", by_dim_choices,
	               "All-gathers: only combine those of one dimension (empty: combine_by_dim)."),
	PL_OPTION_ENUM("reduce_scatter_combine_by_dim", "", by_dim_choices,
	               "Reduce-scatters: only combine those of one dimension (empty: "
	               "combine_by_dim)."),
	PL_OPTION_BOOL("combine_different_dtypes", "true",
	               "All-gathers of different dtypes may be combined."),
	PL_OPTION_BOOL("combine_while_loops", "true",
	               "Combine inside the body and condition of an HLO while loop."),
	PL_OPTION_STRING("kinds", "all_gather,reduce_scatter,all_reduce",
	                 "Comma-separated kinds to combine."),
	PL_OPTION_BOOL("xla_gpu_keys", "false",
	               "Also key as XLA:GPU does: combiner_key, collective_group_key, "
	               "sync_collective and is_pipelined."),
	PL_OPTION_BYTES("pipelined_threshold_in_bytes", "0",
	                "With xla_gpu_keys: the threshold of pipelined collectives "
	                "(0: combine_threshold_in_bytes)."),
	PL_OPTION_END
};

static const pl_stat_decl xla_stats[] = {
	PL_STAT("num_all_gathers_combined", "All-gathers merged into a combined one."),
	PL_STAT("num_reduce_scatters_combined", "Reduce-scatters merged into a combined one."),
	PL_STAT("num_all_reduces_combined", "All-reduces merged into a combined one."),
	PL_STAT("num_combined", "Combined collectives made."),
	PL_STAT_END
};

struct config {
	bool kind_on[NUM_KINDS];
	bool by_dim[NUM_KINDS]; /* all-reduces have no dimension */
	bool different_dtypes, while_loops, gpu_keys;
	uint64_t threshold[NUM_KINDS];
	uint64_t pipelined_threshold; /* 0: the kind's threshold */
	uint64_t count;
};

/* The per-kind options (empty: the general one). */
static const char *const threshold_options[NUM_KINDS] = {
	"all_gather_threshold_in_bytes", "reduce_scatter_threshold_in_bytes",
	"all_reduce_threshold_in_bytes"};
static const char *const by_dim_options[NUM_KINDS] = {
	"all_gather_combine_by_dim", "reduce_scatter_combine_by_dim", NULL};

/* Reads the per-kind options over the general values in cfg. */
static int read_kind_options(pl_pass_ctx *ctx, struct config *cfg)
{
	for (int k = 0; k < NUM_KINDS; k++) {
		const char *text = NULL;
		int rc = pl_ctx_get_string(ctx, threshold_options[k], &text);
		if (rc != PL_OK)
			return rc;
		if (*text) {
			int64_t v;
			rc = pl_parse_bytes(text, &v);
			if (rc != PL_OK) {
				pl_ctx_error(ctx, NULL, "option '%s': expected a byte count such as 4096, "
				                        "64KiB, 16MiB or 1GiB (or empty), not '%.64s'",
				             threshold_options[k], text);
				return PL_EINVAL;
			}
			cfg->threshold[k] = (uint64_t)v;
		}
		if (!by_dim_options[k])
			continue;
		if ((rc = pl_ctx_get_string(ctx, by_dim_options[k], &text)) != PL_OK)
			return rc;
		if (*text)
			cfg->by_dim[k] = strcmp(text, "true") == 0;
	}
	return PL_OK;
}

/* ---- options ----------------------------------------------------------- */

static int parse_kinds(pl_pass_ctx *ctx, const char *list, struct config *cfg)
{
	const char *p = list;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *end = p;
		while (*end && *end != ',')
			end++;
		size_t len = (size_t)(end - p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		int k = 0;
		while (k < NUM_KINDS && !(strlen(kinds[k].name) == len && !memcmp(kinds[k].name, p, len)))
			k++;
		if (k == NUM_KINDS) {
			pl_ctx_error(ctx, NULL, "option 'kinds': unknown collective kind '%.*s' (expected "
			                        "a comma-separated list of all_gather, reduce_scatter, "
			                        "all_reduce)",
			             (int)(len > 64 ? 64 : len), p);
			return PL_EINVAL;
		}
		cfg->kind_on[k] = true;
		if (!*end)
			return PL_OK;
		p = end + 1;
	}
}

static int xla_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int64_t bytes = 0, pbytes = 0, count = 0;
	bool by_dim = true;
	const char *list = NULL;
	int rc = pl_ctx_get_int(ctx, "combine_threshold_in_bytes", &bytes);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "pipelined_threshold_in_bytes", &pbytes);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "combine_threshold_count", &count);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "combine_by_dim", &by_dim);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "combine_different_dtypes", &cfg->different_dtypes);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "combine_while_loops", &cfg->while_loops);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "xla_gpu_keys", &cfg->gpu_keys);
	if (rc == PL_OK)
		rc = pl_ctx_get_string(ctx, "kinds", &list);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	for (int k = 0; k < NUM_KINDS; k++) {
		cfg->threshold[k] = (uint64_t)bytes;
		cfg->by_dim[k] = by_dim && k != K_AR;
	}
	if ((rc = read_kind_options(ctx, cfg)) != PL_OK) {
		if (rc != PL_EINVAL)
			pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	if ((rc = parse_kinds(ctx, list, cfg)) != PL_OK) {
		free(cfg);
		return rc;
	}
	/* as XLA: a threshold of 0 turns a kind's combiner off */
	for (int k = 0; k < NUM_KINDS; k++)
		cfg->kind_on[k] = cfg->kind_on[k] && cfg->threshold[k];
	cfg->pipelined_threshold = pbytes > 0 ? (uint64_t)pbytes : 0;
	cfg->count = (uint64_t)count;
	*state = cfg;
	return PL_OK;
}

static void xla_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

/* ---- candidates and keys ------------------------------------------------ */

struct cand {
	pl_inst *inst; /* the collective, or the start */
	pl_inst *done; /* the start's done; NULL for a collective */
	uint32_t key;
	uint64_t bytes, threshold;
	bool taken;
};

/* A key is its text; keys are numbered in the order of their first
 * candidate and found through a hash table of their texts. */
struct keys {
	char **text;
	size_t n, cap;
	struct pl_ht index; /* items: a key's number + 1 */
};

enum { A_GROUP_ID, A_FACTOR, A_REDUCE, A_DIMENSION, A_PINNED, A_SHARDING, A_FRONTEND,
       A_BACKEND, A_CONSTRAIN, NUM_ATTRS };
static const char *const attr_names[NUM_ATTRS] = {
	"group_id", "factor", "reduce", "dimension", "pinned", "hlo_sharding",
	"hlo_frontend_attributes", "hlo_backend_config", "hlo_constrain_layout"};

struct combiner {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	pl_module *module;
	bool remarks;
	bool kind_skipped[NUM_KINDS]; /* a layout-constrained collective of the kind */
	struct key_classes attrs;
	struct cand *cands;
	size_t ncands, cands_cap;
	struct keys keys;
	struct ptr_map cand_of;   /* inst -> its cand index + 1 */
	struct ptr_map taint;     /* inst -> the epoch it was found to depend on a member */
	struct ptr_map stored;    /* value -> non-NULL: a store writes it */
	struct ptr_map touched;   /* stored value -> epoch a dependant read or wrote it */
	struct ptr_map written;   /* stored value -> epoch a dependant wrote it */
	struct ptr_map mdone;     /* done -> epoch its start joined the group */
	struct ptr_map loop_funcs; /* interned function name -> non-NULL: a while body or condition */
	uint64_t epoch;
	struct inst_vec members, dones, moved;
	uint64_t combined[NUM_KINDS], num_combined;
	char *buf;
	size_t buf_len, buf_cap;
};

static bool is_true_attr(const pl_attr *a)
{
	if (!a)
		return false;
	if (pl_attr_get_kind(a) == PL_ATTR_BOOL)
		return pl_attr_get_bool(a);
	if (pl_attr_get_kind(a) == PL_ATTR_STRING) {
		size_t len;
		const char *s = pl_attr_get_string(a, &len);
		return len == 4 && !memcmp(s, "true", 4);
	}
	return false;
}

static const char *attr_string(const pl_attr *a, size_t *len)
{
	*len = 0;
	if (!a || pl_attr_get_kind(a) != PL_ATTR_STRING)
		return NULL;
	return pl_attr_get_string(a, len);
}

/* Appends to the key buffer; false when out of memory. */
static bool put(struct combiner *c, const char *s, size_t len)
{
	if (!PL_GROW(c->buf, c->buf_cap, c->buf_len + len + 2))
		return false;
	memcpy(c->buf + c->buf_len, s, len);
	c->buf_len += len;
	c->buf[c->buf_len++] = '\x1f'; /* a separator no attribute text needs */
	c->buf[c->buf_len] = '\0';
	return true;
}

static bool put_int(struct combiner *c, int64_t v)
{
	char num[32];
	int n = snprintf(num, sizeof num, "%" PRId64, v);
	return put(c, num, (size_t)n);
}

/* The value of key="..." (or key=...) inside an attribute dictionary text
 * such as {a="x",b="y"}; NULL when absent. */
static const char *dict_value(const char *s, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);
	for (size_t i = 0; i + klen < len; i++) {
		if (memcmp(s + i, key, klen) || s[i + klen] != '=' ||
		    (i && s[i - 1] != '{' && s[i - 1] != ',' && s[i - 1] != ' '))
			continue;
		size_t v = i + klen + 1, e = v;
		if (v < len && s[v] == '"') {
			e = ++v;
			while (e < len && s[e] != '"')
				e += s[e] == '\\' ? 2 : 1;
		} else {
			while (e < len && s[e] != ',' && s[e] != '}')
				e++;
		}
		*vlen = (e < len ? e : len) - v;
		return s + v;
	}
	return NULL;
}

static bool has_text(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; s && i + n <= len; i++)
		if (!memcmp(s + i, needle, n))
			return true;
	return false;
}

static uint32_t text_hash(const char *s, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return (uint32_t)(h ^ (h >> 32));
}

static bool key_item_is(const void *item, const void *probe, const void *ctx)
{
	const char *const *text = ctx;
	return !strcmp(text[(uintptr_t)item - 1], probe);
}

/* The number of the key in c->buf, added when new; -1 when out of memory. */
static int64_t key_number(struct combiner *c)
{
	struct keys *k = &c->keys;
	if (!pl_ht_reserve(&k->index))
		return -1;
	uint32_t h = text_hash(c->buf, c->buf_len);
	size_t j = pl_ht_find(&k->index, h, key_item_is, c->buf, k->text);
	if (pl_ht_used(&k->index, j))
		return (int64_t)((uintptr_t)k->index.slots[j].item - 1);
	char *copy = malloc(c->buf_len + 1);
	if (!copy || !PL_GROW(k->text, k->cap, k->n + 1)) {
		free(copy);
		return -1;
	}
	memcpy(copy, c->buf, c->buf_len + 1);
	k->text[k->n] = copy;
	pl_ht_put(&k->index, j, h, (const void *)(uintptr_t)(k->n + 1));
	return (int64_t)k->n++;
}

static void keys_clear(struct keys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->text[i]);
	k->n = 0;
	pl_ht_clear(&k->index);
}

static int kind_of(pl_op op, bool *async)
{
	for (int k = 0; k < NUM_KINDS; k++)
		if (op == kinds[k].sync || op == kinds[k].start) {
			*async = op == kinds[k].start;
			return k;
		}
	return -1;
}

/* The done of a start: the one user of its results. */
static pl_inst *done_of(const pl_inst *start)
{
	if (!pl_inst_num_results(start))
		return NULL;
	const pl_value *v = pl_inst_result(start, 0);
	if (pl_value_num_uses(v) != 1)
		return NULL;
	return pl_use_user(pl_value_first_use(v));
}

/* Builds inst's key into c->buf and fills cand; false when inst is not a
 * candidate (*rc says whether memory ran out). */
static bool read_candidate(struct combiner *c, pl_inst *inst, int kind, bool async,
                           bool has_domains, struct cand *out, int *rc)
{
	const struct config *cfg = c->cfg;
	const pl_attr *a[NUM_ATTRS];
	key_classes_read(&c->attrs, pl_inst_attrs_const(inst), a);
	size_t gl, fl, bl, sl;
	const char *gid = attr_string(a[A_GROUP_ID], &gl);
	const char *fe = attr_string(a[A_FRONTEND], &fl);
	const char *be = attr_string(a[A_BACKEND], &bl);
	const char *sh = attr_string(a[A_SHARDING], &sl);
	if (!gid || !gl || is_true_attr(a[A_PINNED]) || pl_inst_num_operands(inst) != 1 ||
	    pl_inst_num_results(inst) != 1 || has_text(fe, fl, "_scheduling_group_id"))
		return false;
	pl_inst *done = async ? done_of(inst) : NULL;
	if (async) {
		/* the in-flight window grows: a buffer written by a store may
		 * not be an operand (conservative) */
		if (!done || ptr_map_get(&c->stored, pl_inst_operand(inst, 0)))
			return false;
		const pl_attr *dp = pl_attrs_get(pl_inst_attrs_const(done), "pinned");
		if (is_true_attr(dp))
			return false;
	}
	bool pipelined = cfg->gpu_keys && has_text(be, bl, "\"is_pipelined\": true");
	uint64_t threshold = pipelined && cfg->pipelined_threshold ? cfg->pipelined_threshold
	                                                            : cfg->threshold[kind];
	uint64_t bytes = result_bytes(inst);
	if (bytes > threshold)
		return false;
	pl_dtype dtype = pl_type_dtype(pl_value_type(pl_inst_result(inst, 0)));
	c->buf_len = 0;
	bool ok = put(c, kinds[kind].name, strlen(kinds[kind].name)) && put_int(c, async) &&
	          put(c, gid, gl);
	if (ok && a[A_FACTOR] && pl_attr_get_kind(a[A_FACTOR]) == PL_ATTR_INT)
		ok = put_int(c, pl_attr_get_int(a[A_FACTOR]));
	size_t rl;
	const char *red = attr_string(a[A_REDUCE], &rl);
	if (ok && kind != K_AG)
		ok = put(c, red ? red : "", rl);
	if (ok && (kind != K_AG || !cfg->different_dtypes))
		ok = put_int(c, (int64_t)dtype);
	if (ok && cfg->by_dim[kind]) {
		int64_t dim = 0;
		if (a[A_DIMENSION] && pl_attr_get_kind(a[A_DIMENSION]) == PL_ATTR_INT)
			dim = pl_attr_get_int(a[A_DIMENSION]);
		ok = put_int(c, dim);
	}
	if (ok && has_domains)
		ok = put(c, sh ? sh : "", sl);
	if (ok && cfg->gpu_keys) {
		static const char *const fkeys[] = {"combiner_key", "collective_group_key",
		                                    "sync_collective"};
		for (size_t k = 0; k < 3 && ok; k++) {
			size_t vl = 0;
			const char *v = fe ? dict_value(fe, fl, fkeys[k], &vl) : NULL;
			ok = put(c, v ? v : "", vl);
		}
		if (ok)
			ok = put_int(c, pipelined);
	}
	int64_t key = ok ? key_number(c) : -1;
	if (key < 0) {
		*rc = PL_ENOMEM;
		return false;
	}
	*out = (struct cand){.inst = inst, .done = done, .key = (uint32_t)key, .bytes = bytes,
	                     .threshold = threshold};
	return true;
}

/* ---- dependence ----------------------------------------------------------- */

static bool tainted(struct combiner *c, const pl_inst *inst)
{
	return inst && (uint64_t)(uintptr_t)ptr_map_get(&c->taint, inst) == c->epoch;
}

static int set_taint(struct combiner *c, const pl_inst *inst)
{
	return ptr_map_put(&c->taint, inst, (void *)(uintptr_t)c->epoch) ? PL_OK : PL_ENOMEM;
}

static bool at_epoch(struct combiner *c, struct ptr_map *m, const void *key)
{
	return (uint64_t)(uintptr_t)ptr_map_get(m, key) == c->epoch;
}

/* Whether inst depends on a member of the open group: on a tainted
 * definition, or through memory (a store to a buffer a dependant touched,
 * a read of a buffer a dependant wrote). */
static bool depends(struct combiner *c, const pl_inst *inst)
{
	bool store = inst_is_store(inst);
	for (size_t k = 0, n = pl_inst_num_operands(inst); k < n; k++) {
		const pl_value *v = pl_inst_operand(inst, k);
		if (tainted(c, pl_value_def(v)))
			return true;
		if (!ptr_map_get(&c->stored, v))
			continue;
		if (store && k == 1 ? at_epoch(c, &c->touched, v) : at_epoch(c, &c->written, v))
			return true;
	}
	return false;
}

/* Records that the dependant inst touched its stored operands. */
static int mark_dependant(struct combiner *c, const pl_inst *inst)
{
	bool store = inst_is_store(inst);
	void *e = (void *)(uintptr_t)c->epoch;
	for (size_t k = 0, n = pl_inst_num_operands(inst); k < n; k++) {
		const pl_value *v = pl_inst_operand(inst, k);
		if (!ptr_map_get(&c->stored, v))
			continue;
		if (!ptr_map_put(&c->touched, v, e) ||
		    (store && k == 1 && !ptr_map_put(&c->written, v, e)))
			return PL_ENOMEM;
	}
	return set_taint(c, inst);
}

/* ---- combining ------------------------------------------------------------ */

/* XLA's choice of the combined all-gather's dimension: the most frequent
 * one (the smallest on a tie), or 0 when a member has too few dimensions. */
static int64_t gather_dim(const struct inst_vec *members)
{
	int64_t freq[PL_MAX_RANK] = {0}, best = 0;
	size_t min_rank = PL_MAX_RANK;
	for (size_t i = 0; i < members->len; i++) {
		const pl_inst *m = members->v[i];
		int64_t d = 0;
		pl_attrs_get_int(pl_inst_attrs_const(m), "dimension", &d);
		size_t r = pl_type_rank(pl_value_type(pl_inst_result(m, 0)));
		if (d >= 0 && d < PL_MAX_RANK)
			freq[d]++;
		if (r < min_rank)
			min_rank = r;
	}
	for (int64_t d = 1; d < PL_MAX_RANK; d++)
		if (freq[d] > freq[best])
			best = d;
	return (size_t)best < min_rank ? best : 0;
}

/* t with dimensions a and b swapped. */
static const pl_type *swapped(pl_module *m, const pl_type *t, int64_t a, int64_t b)
{
	int64_t dims[PL_MAX_RANK];
	size_t r = pl_type_rank(t);
	for (size_t i = 0; i < r; i++)
		dims[i] = pl_type_dim(t, i);
	int64_t x = dims[a];
	dims[a] = dims[b];
	dims[b] = x;
	return pl_type_get(m, pl_type_dtype(t), dims, r);
}

/* An hlo.transpose of v swapping dimensions a and b, inserted before pos;
 * NULL when out of memory. */
static pl_inst *transpose(struct combiner *c, pl_value *v, int64_t a, int64_t b, pl_inst *pos,
                          pl_where where)
{
	const pl_type *t = pl_value_type(v);
	const pl_type *to = swapped(c->module, t, a, b);
	char perm[PL_MAX_RANK * 4 + 4];
	size_t len = 0, r = pl_type_rank(t);
	perm[len++] = '{';
	for (size_t i = 0; i < r; i++) {
		int64_t p = (int64_t)i == a ? b : (int64_t)i == b ? a : (int64_t)i;
		len += (size_t)snprintf(perm + len, sizeof perm - len, "%s%" PRId64, i ? "," : "", p);
	}
	snprintf(perm + len, sizeof perm - len, "}");
	pl_inst *tr;
	if (!to || pl_inst_create(&tr, pl_inst_func(pos), pl_hlo_op_name(PL_HLO_TRANSPOSE), &v, 1, &to, 1) != PL_OK)
		return NULL;
	if (pl_attrs_set_string(pl_inst_attrs(tr), "hlo_dimensions", perm) != PL_OK ||
	    pl_inst_insert(tr, pos, where) != PL_OK)
		return NULL;
	return tr;
}

static int combine_group(struct combiner *c, int kind, bool async, size_t nmoved)
{
	struct inst_vec *mem = &c->members;
	size_t n = mem->len;
	pl_inst *first = mem->v[0], *last_start = mem->v[n - 1];
	pl_inst *last_done = NULL;
	pl_value **ops = calloc(n, sizeof *ops);
	const pl_type **types = calloc(n, sizeof *types), **dtypes = calloc(n, sizeof *dtypes);
	int64_t *dims = calloc(n, sizeof *dims);
	int rc = PL_ENOMEM;
	if (!ops || !types || !dtypes || !dims)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (async && (!last_done || pl_inst_position(c->dones.v[i]) > pl_inst_position(last_done)))
			last_done = c->dones.v[i];
	/* the dependants move after the combined collective (or its done) */
	pl_inst *anchor = async ? last_done : last_start;
	for (size_t k = nmoved; k-- > 0;)
		if ((rc = pl_inst_move(c->moved.v[k], anchor, PL_AFTER)) != PL_OK)
			goto out;
	int64_t D = kind != K_AR && !c->cfg->by_dim[kind] ? gather_dim(mem) : -1;
	for (size_t i = 0; i < n; i++) {
		pl_inst *m = mem->v[i];
		ops[i] = pl_inst_operand(m, 0);
		types[i] = pl_value_type(pl_inst_result(m, 0));
		dtypes[i] = async ? pl_value_type(pl_inst_result(c->dones.v[i], 0)) : types[i];
		dims[i] = 0;
		pl_attrs_get_int(pl_inst_attrs_const(m), "dimension", &dims[i]);
		if (D >= 0 && dims[i] != D) {
			/* gather along D: transpose the operand, and back after */
			pl_inst *tr = transpose(c, ops[i], dims[i], D, last_start, PL_BEFORE);
			if (!tr)
				goto out;
			ops[i] = pl_inst_result(tr, 0);
			types[i] = swapped(c->module, types[i], dims[i], D);
			dtypes[i] = swapped(c->module, dtypes[i], dims[i], D);
			if (!types[i] || !dtypes[i])
				goto out;
		}
	}
	pl_inst *start;
	if ((rc = pl_inst_create(&start, pl_inst_func(first), pl_inst_opname(first), ops, n, types,
	                         n)) != PL_OK ||
	    (rc = pl_inst_copy_attrs(start, first)) != PL_OK)
		goto out;
	if (D >= 0 && (rc = pl_attrs_set_int(pl_inst_attrs(start), "dimension", D)) != PL_OK)
		goto out;
	pl_inst_set_loc(start, pl_inst_line(first), pl_inst_col(first));
	if ((rc = pl_inst_insert(start, last_start, PL_BEFORE)) != PL_OK)
		goto out;
	pl_inst *done = NULL;
	if (async) {
		pl_value **sres = (pl_value **)types; /* reused: the start's results */
		for (size_t i = 0; i < n; i++)
			sres[i] = pl_inst_result(start, i);
		if ((rc = pl_inst_create(&done, pl_inst_func(first), pl_inst_opname(c->dones.v[0]),
		                         sres, n, dtypes, n)) != PL_OK ||
		    (rc = pl_inst_copy_attrs(done, c->dones.v[0])) != PL_OK ||
		    (rc = pl_inst_insert(done, last_done, PL_BEFORE)) != PL_OK)
			goto out;
		pl_inst_set_loc(done, pl_inst_line(c->dones.v[0]), pl_inst_col(c->dones.v[0]));
	}
	pl_inst *ready = async ? done : start;
	if (c->remarks)
		pl_ctx_remark(c->ctx, first, "combined %zu %s into one at %%%s", n, kinds[kind].name,
		              inst_label(first));
	for (size_t i = 0; i < n; i++) {
		pl_inst *m = async ? c->dones.v[i] : mem->v[i];
		pl_value *res = pl_inst_result(ready, i);
		if (D >= 0 && dims[i] != D) {
			pl_inst *back = transpose(c, res, dims[i], D, ready, PL_AFTER);
			if (!back) {
				rc = PL_ENOMEM;
				goto out;
			}
			res = pl_inst_result(back, 0);
		}
		pl_value_replace(pl_inst_result(m, 0), res);
		if (async) /* the start's result takes the member start's name */
			pl_value_replace(pl_inst_result(mem->v[i], 0), pl_inst_result(start, i));
	}
	for (size_t i = 0; i < n && rc == PL_OK; i++) {
		if (async)
			rc = pl_inst_erase(c->dones.v[i]);
		if (rc == PL_OK)
			rc = pl_inst_erase(mem->v[i]);
	}
	c->combined[kind] += n;
	c->num_combined++;
out:
	free(ops);
	free(types);
	free(dtypes);
	free(dims);
	return rc;
}

/* One group, from the first candidate not taken (index at): the walk of
 * XLA's CombineInstructionsByKey over the function in its order. */
static int form_group(struct combiner *c, size_t at)
{
	struct cand *first = &c->cands[at];
	uint32_t key = first->key;
	bool async = first->done != NULL;
	int kind = kind_of(pl_inst_op(first->inst), &async);
	uint64_t bytes = 0, threshold = first->threshold;
	c->epoch++;
	c->members.len = c->dones.len = c->moved.len = 0;
	size_t nmoved = 0; /* dependants before the last member so far */
	bool pinned_dependant = false;
	size_t first_pinned = SIZE_MAX; /* its index in moved */
	pl_inst *stop = NULL; /* async: walk on to the last member's done */
	bool past_stop = false;
	const char *why = NULL;
	pl_inst *ender = NULL;
	int rc = PL_OK;
	for (pl_inst *i = first->inst; i && rc == PL_OK; i = pl_inst_next(i)) {
		uintptr_t ci = (uintptr_t)ptr_map_get(&c->cand_of, i);
		struct cand *cd = ci ? &c->cands[ci - 1] : NULL;
		if (cd && !cd->taken && cd->key == key && !why) {
			if (bytes + cd->bytes > threshold)
				why = "combined size threshold exceeded";
			else if (depends(c, i))
				why = "depends on a member";
			else if (pinned_dependant)
				why = "a pinned instruction depends on a member";
			if (why) {
				ender = i;
				if (!stop || past_stop)
					break;
			} else {
				cd->taken = true;
				bytes += cd->bytes;
				if (!push_inst(&c->members, i) ||
				    (cd->done && (!push_inst(&c->dones, cd->done) ||
				                  !ptr_map_put(&c->mdone, cd->done, (void *)(uintptr_t)c->epoch)))) {
					rc = PL_ENOMEM;
					break;
				}
				if (cd->done && (!stop || pl_inst_position(cd->done) > pl_inst_position(stop))) {
					stop = cd->done;
					past_stop = false;
				}
				if (!cd->done && (rc = set_taint(c, i)) != PL_OK)
					break;
				if (c->cfg->count && c->members.len >= c->cfg->count) {
					why = "count threshold reached";
					if (!stop)
						break;
				}
				if (!cd->done)
					nmoved = c->moved.len;
				continue;
			}
		}
		if (at_epoch(c, &c->mdone, i)) {
			if ((rc = set_taint(c, i)) != PL_OK)
				break;
			if (i == stop) {
				/* the dependants so far lie before the last done */
				nmoved = c->moved.len;
				past_stop = true;
				if (why)
					break;
			}
			continue;
		}
		if (!c->members.len || !depends(c, i))
			continue;
		if ((rc = mark_dependant(c, i)) != PL_OK)
			break;
		if (!push_inst(&c->moved, i)) {
			rc = PL_ENOMEM;
			break;
		}
		if (is_true_attr(pl_attrs_get(pl_inst_attrs_const(i), "pinned")) ||
		    (pl_inst_traits(i) & PL_TRAIT_TERMINATOR)) {
			if (!pinned_dependant)
				first_pinned = c->moved.len - 1;
			pinned_dependant = true;
		}
	}
	if (rc == PL_OK && ender && c->remarks && c->members.len)
		pl_ctx_remark(c->ctx, ender, "%s group of %zu at %%%s ends before %%%s: %s",
		              kinds[kind].name, c->members.len, inst_label(c->members.v[0]),
		              inst_label(ender), why);
	if (rc == PL_OK && c->members.len >= 2) {
		if (first_pinned < nmoved)
			return PL_OK; /* a pinned dependant lies before the last done: leave them */
		rc = combine_group(c, kind, async, nmoved);
	}
	return rc;
}

/* ---- per function and module ----------------------------------------------- */

static bool is_loop_func(struct combiner *c, const pl_func *f)
{
	return ptr_map_get(&c->loop_funcs, pl_func_name(f)) != NULL;
}

static int combine_func(struct combiner *c, pl_func *f)
{
	int rc = PL_OK;
	bool has_domains = false;
	c->ncands = 0;
	keys_clear(&c->keys);
	ptr_map_clear(&c->cand_of);
	ptr_map_clear(&c->stored);
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		if (inst_is_store(i) && !ptr_map_put(&c->stored, pl_inst_operand(i, 1), (void *)1))
			return PL_ENOMEM;
		if (pl_inst_hlo_op(i) == PL_HLO_DOMAIN)
			has_domains = true;
	}
	for (pl_inst *i = pl_func_first_inst(f); i && rc == PL_OK; i = pl_inst_next(i)) {
		bool async = false;
		int kind = kind_of(pl_inst_op(i), &async);
		if (kind < 0 || !c->cfg->kind_on[kind] || c->kind_skipped[kind])
			continue;
		struct cand cd;
		if (!read_candidate(c, i, kind, async, has_domains, &cd, &rc))
			continue;
		if (!PL_GROW(c->cands, c->cands_cap, c->ncands + 1) ||
		    !ptr_map_put(&c->cand_of, i, (void *)(uintptr_t)(c->ncands + 1)))
			return PL_ENOMEM;
		c->cands[c->ncands++] = cd;
	}
	for (size_t at = 0; at < c->ncands && rc == PL_OK; at++)
		if (!c->cands[at].taken)
			rc = form_group(c, at);
	return rc;
}

/* Functions an HLO while loop calls, and kinds a layout-constrained
 * collective keeps XLA's combiner from touching. */
static int scan_module(struct combiner *c, pl_module *m)
{
	for (size_t k = 0; k < pl_module_num_funcs(m); k++) {
		pl_func *f = pl_module_func_at(m, k);
		for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
			const pl_attrs *d = pl_inst_attrs_const(i);
			bool async;
			int kind = kind_of(pl_inst_op(i), &async);
			if (kind >= 0 && is_true_attr(pl_attrs_get(d, "hlo_constrain_layout")))
				c->kind_skipped[kind] = true;
			if (pl_inst_hlo_op(i) != PL_HLO_WHILE)
				continue;
			static const char *const callees[] = {"hlo_body", "hlo_condition"};
			for (size_t j = 0; j < 2; j++) {
				pl_func *callee = pl_inst_callee(i, callees[j], 0);
				if (callee && !ptr_map_put(&c->loop_funcs, pl_func_name(callee), (void *)1))
					return PL_ENOMEM;
			}
		}
	}
	return PL_OK;
}

static int xla_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	const struct config *cfg = state;
	struct combiner c = {.ctx = ctx, .cfg = cfg, .module = m,
	                     .remarks = pl_ctx_remarks_enabled(ctx),
	                     .attrs = {.names = attr_names, .count = NUM_ATTRS}};
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	/* as XLA: a count of 0 turns the combiners off */
	if (rc == PL_OK && cfg->count)
		rc = scan_module(&c, m);
	for (size_t k = 0; cfg->count && k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		pl_func *f = pl_module_func_at(m, k);
		if (!rewritable_at(&rw, k))
			continue;
		if (!cfg->while_loops && is_loop_func(&c, f)) {
			if (c.remarks)
				pl_ctx_remark(ctx, pl_func_first_inst(f),
				              "@%s is called by a while loop: not combined", pl_func_name(f));
			continue;
		}
		rc = combine_func(&c, f);
	}
	for (int k = 0; k < NUM_KINDS; k++)
		pass_end_stat(ctx, kinds[k].stat, c.combined[k], &rc);
	pass_end_stat(ctx, "num_combined", c.num_combined, &rc);
	keys_clear(&c.keys);
	free(c.keys.text);
	pl_ht_free(&c.keys.index);
	free(c.cands);
	rewritable_free(&rw);
	free(c.members.v);
	free(c.dones.v);
	free(c.moved.v);
	free(c.buf);
	ptr_map_free(&c.cand_of);
	ptr_map_free(&c.taint);
	ptr_map_free(&c.stored);
	ptr_map_free(&c.touched);
	ptr_map_free(&c.written);
	ptr_map_free(&c.mdone);
	ptr_map_free(&c.loop_funcs);
	ptr_map_free(&c.attrs.seen);
	return pass_end_report(ctx, rc, "combine collectives");
}

static const pl_pass_desc xla_pass = {
	PL_PASS_DESC_INIT,
	.name = "XlaCombineCCOp",
	.summary = "Combines same-key collectives as XLA's combiners do, into tuple collectives.",
	.options = xla_options,
	.stats = xla_stats,
	.create = xla_create,
	.run = xla_run,
	.destroy = xla_destroy,
};

PL_PLUGIN_DEFINE("XlaCombineCCOp", PACKAGE_VERSION, "MIT",
                 "XLA's collective combiners.", &xla_pass)
