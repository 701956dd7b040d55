/* SPDX-License-Identifier: MIT */
/* Contract: reads operands, uses, stores, the cost model; reorders each function's instructions (and splits synchronous collectives when asked); needs verified IR. */

/* plugins/latency_hiding_scheduler.c — LatencyHidingScheduler
 * (passline-pipeline(5)).
 *
 * A list scheduler, top-down, over each function's dependence graph,
 * simulating the schedule as it goes with the cost model's times (a
 * compute clock and one stream clock per process group, as ScheduleEstimate
 * does). At each step it takes, in this order of priority:
 *  1. a start whose operands are ready, whose process group has fewer
 *     than max_in_flight collectives in flight, and whose results fit
 *     under the memory limit: the earliest in the input order;
 *  2. a done whose collective has ended by the compute clock (it frees a
 *     place in its group's stream at no cost);
 *  3. a compute instruction (or a synchronous collective): the earliest in
 *     the input order, or first what leads to the earliest start (see
 *     ways[] below); but when its results would pass the memory limit, a
 *     done that must wait comes first;
 *  4. else a done that must wait: the one whose collective ends first;
 *  5. else a start held back by memory alone;
 *  6. else a start held back by its stream: the dones that would free
 *     the stream wait, through a barrier, for that start.
 * So a start goes as early as its operands, its stream and memory allow,
 * and a done as late as there is computation to do before it.
 *
 * The graph: operands before users; a store after every earlier reader of
 * the buffer it writes and the store before it, and before every later
 * reader (a start's done reads the start's operands too: nothing writes
 * them while in flight); HLO ops with side effects, and those that call
 * computations (while, conditional, call), keep their order among
 * themselves; pinned instructions and ops the SDK does not know stand as
 * barriers: nothing crosses them. The terminator stays last. Nothing crosses a function: each is scheduled
 * alone.
 *
 * Each function is scheduled in up to four ways (ways[]) and the schedules
 * judged as ScheduleEstimate times the function (under the fusion model
 * where it applies). The best is kept only when faster than the input
 * order and its peak of live bytes (pl_func_peak_bytes) within the limit,
 * or as fast and no higher; else the input order stays, with a remark.
 *
 * O((n + e) log n) for n instructions and e dependences: one heap per
 * kind of ready instruction, and every instruction enters each at most
 * once, but for starts, which go back to their group's queue when the
 * group is full and come out when a done frees it.
 */
#include <passline/passline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/grow.h>
#include "fusion_option.h"
#include "inst_bytes.h"
#include "labels.h"
#include "pass_end.h"
#include "rewritable.h"
#include "ptr_map.h"

static const pl_option_decl lhs_options[] = {
	PL_OPTION_INT("max_in_flight", "1", 1, 1 << 20,
	              "Most collectives in flight at once in one process group."),
	PL_OPTION_BYTES("memory_limit_bytes", "0",
	                "Most bytes live at once (0: device_memory_bytes times "
	                "memory_limit_slop_factor percent, else the input order's peak plus "
	                "memory_headroom_percent)."),
	PL_OPTION_BYTES("device_memory_bytes", "0",
	                "The device's memory, for memory_limit_slop_factor (0: unknown)."),
	PL_OPTION_INT("memory_limit_slop_factor", "95", 0, INT32_MAX,
	              "With memory_limit_bytes = 0 and device_memory_bytes: the memory limit "
	              "in percent of the device's memory (XLA's xla_gpu_memory_limit_slop_factor)."),
	PL_OPTION_INT("memory_headroom_percent", "10", 0, 100000,
	              "With memory_limit_bytes = 0: how far above the input order's peak "
	              "the schedule may go, in percent."),
	PL_OPTION_BOOL("split", "false",
	               "First split each synchronous collective into a start and a done."),
	FUSION_OPTIONS("Judge a function's schedules with the kernels of the fusion model, as "
	               "ScheduleEstimate times them: on, off, or auto (on for an HLO function "
	               "without fusion instructions)."),
	PL_OPTION_END
};

static const pl_stat_decl lhs_stats[] = {
	PL_STAT("num_functions_scheduled", "Functions whose instructions were reordered."),
	PL_STAT("num_functions_kept", "Functions left in their input order (no better schedule)."),
	PL_STAT("num_collectives_split", "Synchronous collectives split into a start and a done."),
	PL_STAT("exposed_ns_before", "Simulated exposed communication before, summed (ns)."),
	PL_STAT("exposed_ns_after", "Simulated exposed communication after, summed (ns)."),
	PL_STAT("makespan_ns_before", "Simulated time before, summed over functions (ns)."),
	PL_STAT("makespan_ns_after", "Simulated time after, summed over functions (ns)."),
	PL_STAT("peak_bytes_before", "Largest peak of live bytes of a function before."),
	PL_STAT("peak_bytes_after", "Largest peak of live bytes of a function after."),
	PL_STAT_END
};

struct config {
	uint64_t max_in_flight;
	uint64_t memory_limit; /* 0: from the device or the input */
	uint64_t headroom_percent;
	bool split;
	uint64_t device_memory, slop_percent;
};

enum kind { K_COMPUTE, K_SYNC, K_START, K_DONE, K_ORDERED, K_BARRIER };

/* Why a start went later than its operands were ready. */
enum held { HELD_NOT, HELD_STREAM, HELD_MEMORY };

struct node {
	pl_inst *inst;
	uint64_t time;   /* the cost model's, ns: op by op */
	uint64_t ktime;  /* the same under the fusion model (kernel_times) */
	uint64_t alloc;  /* bytes of its results */
	uint64_t end;    /* a start's: when its collective ends */
	uint64_t ready_c; /* a start's: the compute clock when it became ready */
	uint32_t npred;  /* dependences not yet scheduled */
	uint32_t succ, nsucc; /* its successors: succs[succ .. succ + nsucc) */
	uint32_t partner; /* a start's done, a done's start (index + 1; 0: none) */
	uint32_t group;   /* a collective's process group */
	uint32_t val;     /* its first result's index in the values */
	uint32_t feed;    /* the first start (by input index) it leads to; UINT32_MAX: none */
	uint8_t kind;
	uint8_t held;
};

/* A min-heap of node indexes by (key, index). */
struct heap {
	struct item {
		uint64_t key;
		uint32_t node;
	} *v;
	size_t n, cap;
};

static bool item_less(const struct item *a, const struct item *b)
{
	return a->key < b->key || (a->key == b->key && a->node < b->node);
}

static bool heap_push(struct heap *h, uint64_t key, uint32_t node)
{
	if (!PL_GROW(h->v, h->cap, h->n + 1))
		return false;
	size_t i = h->n++;
	struct item it = {key, node};
	while (i > 0 && item_less(&it, &h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = it;
	return true;
}

static struct item heap_pop(struct heap *h)
{
	struct item top = h->v[0], last = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && item_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!item_less(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

struct group {
	const char *name; /* the group_id's bytes ("" for none) */
	size_t len;
	uint64_t clock;
	uint64_t in_flight;
	struct heap waiting; /* ready starts held back by the stream, by input order */
};

struct sched {
	pl_pass_ctx *ctx;
	const struct config *cfg;
	const pl_cost_model *cm;
	bool remarks;
	pl_fusion_mode fusion; /* how schedules are judged */
	uint64_t floor_ns;
	bool hlo;    /* the module came from HLO */
	bool fused;  /* the function at hand is judged as kernels */
	struct attr_key pinned, group_id, side_effect;
	struct node *nodes;
	size_t n, ncap;
	uint32_t *succs;
	size_t nsuccs, scap;
	struct edge {
		uint32_t from, to;
	} *edges; /* the dependences before they are sorted by source */
	size_t nedges, ecap;
	struct group *groups;
	size_t ngroups, gcap;
	size_t ginit; /* groups whose queue memory is set up (kept across functions) */
	struct ptr_map index_of; /* instruction -> node index + 1 */
	struct ptr_map group_of; /* group_id bytes' address -> group index + 1 */
	struct ptr_map buffer_of; /* stored-to value -> buffer state index + 1 */
	uint32_t *remaining; /* per result value: uses not yet scheduled */
	uint64_t *bytes;     /* per result value: its buffer's bytes (pl_func_result_buffer_bytes) */
	size_t bytes_cap;
	size_t nvals, vcap;
	uint32_t *order;
	bool by_feed; /* compute ordered by the first start it leads to, not input order */
	bool kernel_clock; /* the clocks run on the fusion model's kernel times */
	struct heap starts, dones_ended, dones, compute, held_by_memory;
	/* totals of the run */
	uint64_t scheduled, kept, split, exp_before, exp_after, span_before, span_after,
	    peak_before, peak_after;
};

/* ---- the graph ------------------------------------------------------------ */

static bool is_pinned(struct sched *s, const pl_inst *i)
{
	const pl_attr *a = attr_key_get(&s->pinned, pl_inst_attrs_const(i));
	return a && pl_attr_get_kind(a) == PL_ATTR_BOOL && pl_attr_get_bool(a);
}

/* HLO ops with effects beyond their results (XLA's HasSideEffect), and
 * those that call computations or run asynchronously beside the streams
 * modelled here (the opcode table's PL_HLO_F_ORDERED): they keep their
 * order among themselves, and other instructions may move across them as
 * their operands allow. Every other HLO op computes its results only;
 * a custom-call has effects when it says so. */
static bool hlo_has_effects(struct sched *s, const pl_inst *i)
{
	pl_hlo_op op = pl_inst_hlo_op(i);
	if (pl_hlo_op_flags(op) & PL_HLO_F_ORDERED)
		return true;
	if (op == PL_HLO_CUSTOM_CALL) {
		const pl_attr *a = attr_key_get(&s->side_effect, pl_inst_attrs_const(i));
		const char *v = a && pl_attr_get_kind(a) == PL_ATTR_STRING ? pl_attr_get_string(a, NULL)
		                                                           : NULL;
		return v && strcmp(v, "true") == 0;
	}
	return false;
}

static enum kind kind_of(struct sched *s, const pl_inst *i)
{
	unsigned t = pl_inst_traits(i);
	if ((t & PL_TRAIT_TERMINATOR) || is_pinned(s, i))
		return K_BARRIER;
	if (t & PL_TRAIT_COLLECTIVE_START)
		return K_START;
	if (t & PL_TRAIT_COLLECTIVE_DONE)
		return K_DONE;
	if (t & PL_TRAIT_COLLECTIVE)
		return K_SYNC;
	if (t & PL_TRAIT_STORE)
		return K_COMPUTE; /* ordered by its buffer's dependences */
	if (pl_inst_has_side_effects(i)) {
		if (!pl_inst_is_hlo(i))
			return K_BARRIER; /* an op nobody knows may touch anything */
		if (hlo_has_effects(s, i))
			return K_ORDERED;
	}
	return K_COMPUTE;
}

static bool add_edge(struct sched *s, uint32_t from, uint32_t to)
{
	if (from == to)
		return true;
	if (!PL_GROW(s->edges, s->ecap, s->nedges + 1))
		return false;
	s->edges[s->nedges++] = (struct edge){from, to};
	return true;
}

static uint32_t node_of(struct sched *s, const pl_inst *i)
{
	return (uint32_t)(uintptr_t)ptr_map_get(&s->index_of, i) - 1;
}

/* The process group of collective i, made on first sight. */
static int group_index(struct sched *s, const pl_inst *i, uint32_t *out)
{
	const pl_attr *a = attr_key_get(&s->group_id, pl_inst_attrs_const(i));
	size_t len = 0;
	const char *name = a && pl_attr_get_kind(a) == PL_ATTR_STRING ? pl_attr_get_string(a, &len)
	                                                               : "";
	void *known = ptr_map_get(&s->group_of, name);
	if (known) {
		*out = (uint32_t)(uintptr_t)known - 1;
		return PL_OK;
	}
	/* equal names may live at two addresses: one look by content */
	size_t g = 0;
	while (g < s->ngroups && !(s->groups[g].len == len && !memcmp(s->groups[g].name, name, len)))
		g++;
	if (g == s->ngroups) {
		if (!PL_GROW(s->groups, s->gcap, s->ngroups + 1))
			return PL_ENOMEM;
		struct group *gr = &s->groups[s->ngroups++];
		if (g == s->ginit) { /* a queue not set up yet */
			*gr = (struct group){0};
			s->ginit++;
		}
		gr->name = name;
		gr->len = len;
	}
	if (!ptr_map_put(&s->group_of, name, (void *)(uintptr_t)(g + 1)))
		return PL_ENOMEM;
	*out = (uint32_t)g;
	return PL_OK;
}

/* Per stored-to buffer: the last store and the readers since. */
struct buffer {
	uint32_t last_store; /* node + 1; 0: none yet */
	uint32_t *readers;
	size_t n, cap;
};

static int buffer_read(struct sched *s, struct buffer **bufs, size_t *nb, size_t *bcap,
                       const pl_value *v, uint32_t reader, bool is_store)
{
	uintptr_t b = (uintptr_t)ptr_map_get(&s->buffer_of, v);
	if (!b) {
		if (!is_store)
			return PL_OK; /* a value no store writes needs no order */
		if (!PL_GROW(*bufs, *bcap, *nb + 1))
			return PL_ENOMEM;
		(*bufs)[(*nb)++] = (struct buffer){0};
		b = *nb;
		if (!ptr_map_put(&s->buffer_of, v, (void *)b))
			return PL_ENOMEM;
	}
	struct buffer *bf = &(*bufs)[b - 1];
	if (is_store) {
		for (size_t k = 0; k < bf->n; k++)
			if (!add_edge(s, bf->readers[k], reader))
				return PL_ENOMEM;
		if (bf->last_store && !add_edge(s, bf->last_store - 1, reader))
			return PL_ENOMEM;
		bf->n = 0;
		bf->last_store = reader + 1;
		return PL_OK;
	}
	if (bf->last_store && !add_edge(s, bf->last_store - 1, reader))
		return PL_ENOMEM;
	if (!PL_GROW(bf->readers, bf->cap, bf->n + 1))
		return PL_ENOMEM;
	bf->readers[bf->n++] = reader;
	return PL_OK;
}

/* Buffers written by a store: a first walk finds them, so that only their
 * readers are tracked. */
static int mark_stored(struct sched *s, struct buffer **bufs, size_t *nb, size_t *bcap,
                       pl_func *f)
{
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		if (!inst_is_store(i))
			continue;
		const pl_value *v = pl_inst_operand(i, 1);
		if (ptr_map_get(&s->buffer_of, v))
			continue;
		if (!PL_GROW(*bufs, *bcap, *nb + 1))
			return PL_ENOMEM;
		(*bufs)[(*nb)++] = (struct buffer){0};
		if (!ptr_map_put(&s->buffer_of, v, (void *)(uintptr_t)*nb))
			return PL_ENOMEM;
	}
	return PL_OK;
}

static uint64_t value_bytes(const pl_value *v)
{
	uint64_t b = 0;
	return pl_type_num_bytes(pl_value_type(v), &b) == PL_OK ? b : 0;
}

/* The nodes of f with their times, kinds, groups and values. */
static int make_nodes(struct sched *s, pl_func *f)
{
	s->n = s->nvals = s->ngroups = 0;
	ptr_map_clear(&s->index_of);
	ptr_map_clear(&s->group_of);
	size_t nres = 0;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i))
		nres += pl_inst_num_results(i);
	if (!PL_GROW(s->bytes, s->bytes_cap, nres + 1))
		return PL_ENOMEM;
	int brc = pl_func_result_buffer_bytes(f, s->bytes, nres);
	if (brc != PL_OK)
		return brc;
	for (pl_inst *i = pl_func_first_inst(f); i; i = pl_inst_next(i)) {
		if (!PL_GROW(s->nodes, s->ncap, s->n + 1))
			return PL_ENOMEM;
		struct node *nd = &s->nodes[s->n];
		*nd = (struct node){.inst = i, .kind = (uint8_t)kind_of(s, i), .val = (uint32_t)s->nvals};
		int rc = pl_inst_time_ns(i, s->cm, &nd->time);
		if (rc != PL_OK)
			return rc;
		nd->ktime = nd->time;
		for (size_t r = 0; r < pl_inst_num_results(i); r++) {
			if (!PL_GROW(s->remaining, s->vcap, s->nvals + 1))
				return PL_ENOMEM;
			const pl_value *v = pl_inst_result(i, r);
			nd->alloc += s->bytes[s->nvals];
			s->remaining[s->nvals++] = (uint32_t)pl_value_num_uses(v);
		}
		if ((nd->kind == K_START || nd->kind == K_SYNC) &&
		    (rc = group_index(s, i, &nd->group)) != PL_OK)
			return rc;
		if (!ptr_map_put(&s->index_of, i, (void *)(uintptr_t)(s->n + 1)))
			return PL_ENOMEM;
		s->n++;
	}
	return PL_OK;
}

/* Under the fusion model, a kernel's time is its last instruction's (in
 * the input order) and the others' none, so that the list scheduler's
 * clocks follow the judge's. */
static int kernel_times(struct sched *s, const pl_func *f)
{
	pl_fusion *fu = NULL;
	int rc = pl_fusion_new(&fu, f, s->cm, s->floor_ns);
	if (rc != PL_OK)
		return rc;
	for (size_t k = 0; k < pl_fusion_num_kernels(fu); k++) {
		size_t ni = pl_fusion_kernel_num_insts(fu, k);
		for (size_t j = 0; j < ni; j++) {
			uint32_t at = node_of(s, pl_fusion_kernel_inst(fu, k, j));
			s->nodes[at].ktime = j + 1 == ni ? pl_fusion_kernel_time_ns(fu, k) : 0;
		}
	}
	pl_fusion_free(fu);
	return PL_OK;
}

/* The dependences of f's nodes, as successor lists. */
static int make_edges(struct sched *s, pl_func *f)
{
	struct buffer *bufs = NULL;
	size_t nb = 0, bcap = 0;
	s->nedges = 0;
	ptr_map_clear(&s->buffer_of);
	int rc = mark_stored(s, &bufs, &nb, &bcap, f);
	uint32_t last_barrier = UINT32_MAX, last_ordered = UINT32_MAX;
	for (uint32_t k = 0; rc == PL_OK && k < s->n; k++) {
		struct node *nd = &s->nodes[k];
		pl_inst *i = nd->inst;
		bool store = (pl_inst_traits(i) & PL_TRAIT_STORE) != 0;
		for (size_t o = 0; rc == PL_OK && o < pl_inst_num_operands(i); o++) {
			const pl_value *v = pl_inst_operand(i, o);
			pl_inst *def = pl_value_def(v);
			if (def && !add_edge(s, node_of(s, def), k))
				rc = PL_ENOMEM;
			if (rc == PL_OK)
				rc = buffer_read(s, &bufs, &nb, &bcap, v, k, store && o == 1);
		}
		if (nd->kind == K_DONE && pl_inst_num_operands(i)) {
			/* a done reads what its start reads, for the stores after it */
			pl_inst *st = pl_value_def(pl_inst_operand(i, 0));
			if (st) {
				uint32_t sk = node_of(s, st);
				nd->partner = sk + 1;
				s->nodes[sk].partner = k + 1;
				for (size_t o = 0; rc == PL_OK && o < pl_inst_num_operands(st); o++)
					rc = buffer_read(s, &bufs, &nb, &bcap, pl_inst_operand(st, o), k, false);
			}
		}
		if (rc == PL_OK && nd->kind == K_ORDERED) {
			if (last_ordered != UINT32_MAX && !add_edge(s, last_ordered, k))
				rc = PL_ENOMEM;
			last_ordered = k;
		}
		/* barriers: everything since the last one before it, it before
		 * everything up to the next one */
		if (rc == PL_OK && nd->kind == K_BARRIER) {
			uint32_t from = last_barrier == UINT32_MAX ? 0 : last_barrier + 1;
			for (uint32_t j = from; j < k && rc == PL_OK; j++)
				if (!add_edge(s, j, k))
					rc = PL_ENOMEM;
			if (last_barrier != UINT32_MAX && !add_edge(s, last_barrier, k))
				rc = PL_ENOMEM;
			last_barrier = k;
		} else if (rc == PL_OK && last_barrier != UINT32_MAX &&
		           !add_edge(s, last_barrier, k)) {
			rc = PL_ENOMEM;
		}
	}
	for (size_t b = 0; b < nb; b++)
		free(bufs[b].readers);
	free(bufs);
	if (rc != PL_OK)
		return rc;
	/* successor lists by counting sort on the source */
	for (uint32_t k = 0; k < s->n; k++)
		s->nodes[k].nsucc = 0;
	for (size_t e = 0; e < s->nedges; e++)
		s->nodes[s->edges[e].from].nsucc++;
	uint32_t at = 0;
	for (uint32_t k = 0; k < s->n; k++) {
		s->nodes[k].succ = at;
		at += s->nodes[k].nsucc;
		s->nodes[k].nsucc = 0;
	}
	if (!PL_GROW(s->succs, s->scap, s->nedges + 1))
		return PL_ENOMEM;
	for (size_t e = 0; e < s->nedges; e++) {
		struct node *from = &s->nodes[s->edges[e].from];
		s->succs[from->succ + from->nsucc++] = s->edges[e].to;
	}
	/* every edge goes forward in the input order: one backward sweep */
	for (uint32_t k = s->n; k-- > 0;) {
		struct node *nd = &s->nodes[k];
		nd->feed = nd->kind == K_START ? k : UINT32_MAX;
		for (uint32_t e = 0; e < nd->nsucc; e++) {
			uint32_t to = s->nodes[s->succs[nd->succ + e]].feed;
			if (to < nd->feed)
				nd->feed = to;
		}
	}
	return PL_OK;
}

/* ---- the list scheduler ----------------------------------------------------- */

struct clock {
	uint64_t compute; /* the compute clock C */
	uint64_t live;    /* bytes live now */
	uint64_t limit;   /* the memory limit */
};

static void free_operand(struct sched *s, struct clock *c, const pl_value *v)
{
	pl_inst *def = pl_value_def(v);
	if (!def)
		return; /* an argument: live throughout */
	uint32_t vi = s->nodes[node_of(s, def)].val + (uint32_t)pl_value_index(v);
	if (s->remaining[vi] && --s->remaining[vi] == 0)
		c->live -= c->live < s->bytes[vi] ? c->live : s->bytes[vi];
}

static uint64_t node_time(const struct sched *s, const struct node *nd)
{
	return s->kernel_clock ? nd->ktime : nd->time;
}

/* Puts node k in the ready heap of its kind. */
static bool make_ready(struct sched *s, const struct clock *c, uint32_t k)
{
	struct node *nd = &s->nodes[k];
	switch (nd->kind) {
	case K_START:
		nd->ready_c = c->compute;
		return heap_push(&s->starts, k, k);
	case K_DONE: {
		const struct node *st = nd->partner ? &s->nodes[nd->partner - 1] : NULL;
		uint64_t end = st ? st->end : 0;
		return end <= c->compute ? heap_push(&s->dones_ended, k, k) : heap_push(&s->dones, end, k);
	}
	default: /* compute, synchronous collectives, barriers: input order */
		return heap_push(&s->compute, s->by_feed ? (uint64_t)nd->feed << 32 | k : k, k);
	}
}

/* Schedules node k: the clocks, memory, and its successors. */
static bool take(struct sched *s, struct clock *c, uint32_t k, size_t *norder)
{
	struct node *nd = &s->nodes[k];
	pl_inst *i = nd->inst;
	s->order[(*norder)++] = k;
	switch (nd->kind) {
	case K_START: {
		struct group *g = &s->groups[nd->group];
		uint64_t begin = c->compute > g->clock ? c->compute : g->clock;
		nd->end = g->clock = begin + node_time(s, nd);
		g->in_flight++;
		break;
	}
	case K_DONE:
		if (nd->partner) {
			struct node *st = &s->nodes[nd->partner - 1];
			if (st->end > c->compute)
				c->compute = st->end;
			if (s->groups[st->group].in_flight)
				s->groups[st->group].in_flight--;
			/* the start's operands were held in flight until now */
			for (size_t o = 0; o < pl_inst_num_operands(st->inst); o++)
				free_operand(s, c, pl_inst_operand(st->inst, o));
		}
		break;
	case K_SYNC: {
		struct group *g = &s->groups[nd->group];
		uint64_t begin = c->compute > g->clock ? c->compute : g->clock;
		c->compute = g->clock = begin + node_time(s, nd);
		break;
	}
	default:
		c->compute += node_time(s, nd);
	}
	c->live += nd->alloc;
	/* results nothing uses are freed at once; a start's operands stay */
	for (size_t r = 0; r < pl_inst_num_results(i); r++)
		if (!s->remaining[nd->val + r])
			c->live -= c->live < s->bytes[nd->val + r] ? c->live : s->bytes[nd->val + r];
	if (nd->kind != K_START)
		for (size_t o = 0; o < pl_inst_num_operands(i); o++)
			free_operand(s, c, pl_inst_operand(i, o));
	for (uint32_t e = 0; e < nd->nsucc; e++) {
		uint32_t to = s->succs[nd->succ + e];
		if (--s->nodes[to].npred == 0 && !make_ready(s, c, to))
			return false;
	}
	return true;
}

/* Moves the dones whose collective has ended by now to dones_ended. */
static bool settle_dones(struct sched *s, const struct clock *c)
{
	while (s->dones.n && s->dones.v[0].key <= c->compute) {
		struct item it = heap_pop(&s->dones);
		if (!heap_push(&s->dones_ended, it.node, it.node))
			return false;
	}
	return true;
}

/* The next start that may go now, or UINT32_MAX. Starts whose group is
 * full wait in their group's queue; those over the memory limit in
 * held_by_memory. */
static uint32_t next_start(struct sched *s, const struct clock *c, bool *ok)
{
	while (s->starts.n) {
		uint32_t k = s->starts.v[0].node;
		struct node *nd = &s->nodes[k];
		struct group *g = &s->groups[nd->group];
		if (g->in_flight >= s->cfg->max_in_flight) {
			heap_pop(&s->starts);
			nd->held = HELD_STREAM;
			if (!heap_push(&g->waiting, k, k))
				*ok = false;
			continue;
		}
		if (c->live + nd->alloc > c->limit) {
			heap_pop(&s->starts);
			if (nd->held == HELD_NOT)
				nd->held = HELD_MEMORY;
			if (!heap_push(&s->held_by_memory, k, k))
				*ok = false;
			continue;
		}
		heap_pop(&s->starts);
		return k;
	}
	return UINT32_MAX;
}

/* A done freed a place in group g: its first waiting start is ready again. */
static bool release_group(struct sched *s, uint32_t g)
{
	struct group *gr = &s->groups[g];
	if (!gr->waiting.n || gr->in_flight >= s->cfg->max_in_flight)
		return true;
	struct item it = heap_pop(&gr->waiting);
	return heap_push(&s->starts, it.node, it.node);
}

/* The earliest start waiting for its group's stream, taken past the
 * limit of collectives in flight: the dones that would free the stream
 * may wait, through a barrier, for that very start. UINT32_MAX when none
 * waits. */
static uint32_t overdue_start(struct sched *s)
{
	size_t best = SIZE_MAX;
	for (size_t g = 0; g < s->ngroups; g++)
		if (s->groups[g].waiting.n &&
		    (best == SIZE_MAX || s->groups[g].waiting.v[0].node < s->groups[best].waiting.v[0].node))
			best = g;
	return best == SIZE_MAX ? UINT32_MAX : heap_pop(&s->groups[best].waiting).node;
}

static int list_schedule(struct sched *s, uint64_t limit, uint64_t args_bytes)
{
	struct clock c = {.live = args_bytes, .limit = limit};
	s->starts.n = s->dones_ended.n = s->dones.n = s->compute.n = s->held_by_memory.n = 0;
	for (size_t g = 0; g < s->ngroups; g++) {
		s->groups[g].clock = s->groups[g].in_flight = 0;
		s->groups[g].waiting.n = 0;
	}
	/* each run starts from the graph (predecessors counted, every use to
	 * come): a function is scheduled once per way */
	for (uint32_t k = 0; k < s->n; k++) {
		struct node *nd = &s->nodes[k];
		nd->npred = 0;
		nd->held = HELD_NOT;
		nd->end = 0;
		for (size_t r = 0; r < pl_inst_num_results(nd->inst); r++)
			s->remaining[nd->val + r] = (uint32_t)pl_value_num_uses(pl_inst_result(nd->inst, r));
	}
	for (uint32_t k = 0; k < s->n; k++)
		for (uint32_t e = 0; e < s->nodes[k].nsucc; e++)
			s->nodes[s->succs[s->nodes[k].succ + e]].npred++;
	size_t norder = 0;
	for (uint32_t k = 0; k < s->n; k++)
		if (!s->nodes[k].npred && !make_ready(s, &c, k))
			return PL_ENOMEM;
	while (norder < s->n) {
		bool ok = settle_dones(s, &c);
		uint32_t k = next_start(s, &c, &ok);
		if (!ok)
			return PL_ENOMEM;
		if (k == UINT32_MAX && s->dones_ended.n)
			k = heap_pop(&s->dones_ended).node;
		/* over the memory limit, waiting on a collective comes before
		 * computing more: its done frees what it held and lets the
		 * users of its results free theirs */
		if (k == UINT32_MAX && s->compute.n && s->dones.n &&
		    c.live + s->nodes[s->compute.v[0].node].alloc > c.limit)
			k = heap_pop(&s->dones).node;
		if (k == UINT32_MAX && s->compute.n)
			k = heap_pop(&s->compute).node;
		if (k == UINT32_MAX && s->dones.n)
			k = heap_pop(&s->dones).node;
		if (k == UINT32_MAX && s->held_by_memory.n)
			k = heap_pop(&s->held_by_memory).node;
		if (k == UINT32_MAX)
			k = overdue_start(s);
		if (k == UINT32_MAX)
			return PL_EINVAL; /* a cycle: the input did not verify */
		if (!take(s, &c, k, &norder))
			return PL_ENOMEM;
		/* a start held by memory gets another chance once memory is freed */
		while (s->held_by_memory.n) {
			uint32_t h = s->held_by_memory.v[0].node;
			if (c.live + s->nodes[h].alloc > c.limit)
				break;
			heap_pop(&s->held_by_memory);
			if (!heap_push(&s->starts, h, h))
				return PL_ENOMEM;
		}
		if (s->nodes[k].kind == K_DONE && s->nodes[k].partner &&
		    !release_group(s, s->nodes[s->nodes[k].partner - 1].group))
			return PL_ENOMEM;
	}
	return PL_OK;
}

/* ---- splitting ------------------------------------------------------------ */

/* Replaces synchronous collective c by a start and its done right after
 * it (the done's results take c's names; the start's get "_s"). */
static int split_one(struct sched *s, pl_inst *c)
{
	pl_inst *start, *done;
	int rc = pl_inst_split_collective(c, &start, &done);
	if (rc != PL_OK)
		return rc;
	pl_inst_insert_before(start, c);
	pl_inst_insert_before(done, c);
	for (size_t j = 0; j < pl_inst_num_results(c); j++)
		pl_value_replace(pl_inst_result(c, j), pl_inst_result(done, j));
	rc = pl_inst_erase(c);
	s->split++;
	return rc;
}

static int split_func(struct sched *s, pl_func *f)
{
	pl_inst *next;
	for (pl_inst *i = pl_func_first_inst(f); i; i = next) {
		next = pl_inst_next(i);
		pl_op op = pl_inst_op(i);
		if ((op == PL_OP_ALL_GATHER || op == PL_OP_REDUCE_SCATTER || op == PL_OP_ALL_REDUCE) &&
		    !is_pinned(s, i)) {
			int rc = split_one(s, i);
			if (rc != PL_OK)
				return rc;
		}
	}
	return PL_OK;
}

/* ---- one function ----------------------------------------------------------- */

struct sim {
	uint64_t makespan, exposed, peak;
};

/* The schedule of f as ScheduleEstimate simulates it: op by op, or as the
 * fusion model's kernels; rows or totals. */
static int schedule_of(struct sched *s, const pl_func *f, bool rows, pl_schedule **out)
{
	if (!s->fused)
		return rows ? pl_schedule_new(out, f, s->cm) : pl_schedule_new_totals(out, f, s->cm);
	pl_fusion *fu = NULL;
	int rc = pl_fusion_new(&fu, f, s->cm, s->floor_ns);
	if (rc == PL_OK)
		rc = rows ? pl_schedule_new_fused(out, f, s->cm, fu)
		          : pl_schedule_new_fused_totals(out, f, s->cm, fu);
	pl_fusion_free(fu);
	return rc;
}

static int simulate(struct sched *s, const pl_func *f, struct sim *out)
{
	pl_schedule *sc = NULL;
	int rc = schedule_of(s, f, false, &sc);
	if (rc == PL_OK) {
		out->makespan = pl_schedule_makespan_ns(sc);
		out->exposed = pl_schedule_exposed_ns(sc);
		pl_schedule_free(sc);
		rc = pl_func_peak_bytes(f, &out->peak);
	}
	return rc;
}

/* Puts f's instructions in s->order. */
static void apply_order(struct sched *s)
{
	pl_inst *prev = NULL;
	for (size_t k = 0; k < s->n; k++) {
		pl_inst *i = s->nodes[s->order[k]].inst;
		if (prev && pl_inst_next(prev) != i)
			pl_inst_move_after(i, prev);
		else if (!prev && pl_inst_prev(i))
			pl_inst_move_before(i, pl_func_first_inst(pl_inst_func(i)));
		prev = i;
	}
}

/* Puts f back in its input order (s->nodes). */
static void restore_order(struct sched *s)
{
	for (size_t k = 0; k < s->n; k++)
		s->order[k] = (uint32_t)k;
	apply_order(s);
}

/* Remarks on each collective that stays exposed: why. */
static int explain_exposed(struct sched *s, pl_func *f)
{
	pl_schedule *sc = NULL;
	int rc = schedule_of(s, f, true, &sc);
	if (rc != PL_OK)
		return rc;
	for (size_t r = 0; r < pl_schedule_num_insts(sc); r++) {
		uint64_t exp = pl_schedule_inst_exposed_ns(sc, r);
		const pl_inst *i = pl_schedule_inst(sc, r);
		if (!exp || !(pl_inst_traits(i) & PL_TRAIT_COLLECTIVE_DONE))
			continue;
		const struct node *d = &s->nodes[node_of(s, i)];
		const struct node *st = d->partner ? &s->nodes[d->partner - 1] : NULL;
		char buf[96];
		inst_remark_label(st ? st->inst : i, buf, sizeof buf);
		if (st && st->held == HELD_STREAM)
			pl_ctx_remark(s->ctx, i, "%s leaves %llu ns exposed: it waited for its process "
			                         "group's stream (at most %llu in flight)",
			              buf, (unsigned long long)exp,
			              (unsigned long long)s->cfg->max_in_flight);
		else if (st && st->held == HELD_MEMORY)
			pl_ctx_remark(s->ctx, i, "%s leaves %llu ns exposed: it was held back by the "
			                         "memory limit",
			              buf, (unsigned long long)exp);
		else
			pl_ctx_remark(s->ctx, i, "%s leaves %llu ns exposed: its operands are ready only "
			                         "just before its result is used (no computation "
			                         "between them to hide it)",
			              buf, (unsigned long long)exp);
	}
	pl_schedule_free(sc);
	return PL_OK;
}

/* The ways a function is scheduled: the order of computation (the
 * input's, which suits a step that computation bounds, or first what
 * leads to the earliest start, which feeds the streams sooner where
 * communication bounds it) and the clocks (op by op, or the kernels of the
 * fusion model). Each gives a schedule; the judge keeps the best. */
static const struct way {
	bool by_feed, kernel_clock;
} ways[] = {{false, false}, {true, false}, {false, true}, {true, true}};

/* The schedule of way w, applied to f and simulated into *out. */
static int try_way(struct sched *s, pl_func *f, size_t w, uint64_t limit, uint64_t args,
                   struct sim *out)
{
	s->by_feed = ways[w].by_feed;
	s->kernel_clock = ways[w].kernel_clock;
	int rc = list_schedule(s, limit, args);
	if (rc != PL_OK)
		return rc;
	apply_order(s);
	return simulate(s, f, out);
}

/* A schedule is taken when it is faster than the input and within the
 * limit (or no higher than the input's peak), or as fast and no higher;
 * of two, the faster, then the one with the lower peak, then the first
 * tried. */
static bool acceptable(const struct sim *a, const struct sim *before, uint64_t limit)
{
	if (a->makespan == before->makespan)
		return a->peak <= before->peak;
	return a->makespan < before->makespan && (a->peak <= limit || a->peak <= before->peak);
}

static bool better(const struct sim *a, const struct sim *b)
{
	return a->makespan < b->makespan || (a->makespan == b->makespan && a->peak < b->peak);
}

static int schedule_func(struct sched *s, pl_func *f)
{
	int rc = PL_OK;
	if (s->cfg->split && (rc = split_func(s, f)) != PL_OK)
		return rc;
	s->fused = fusion_applies(s->fusion, s->hlo, f);
	struct sim before, after, tried;
	if ((rc = simulate(s, f, &before)) != PL_OK)
		return rc;
	uint64_t limit = s->cfg->memory_limit;
	if (!limit && s->cfg->device_memory) {
		/* as XLA:GPU, a share of the device's memory (at least a byte) */
		uint64_t d = s->cfg->device_memory, p = s->cfg->slop_percent;
		limit = d / 100 * p + d % 100 * p / 100;
		limit = limit ? limit : 1;
	}
	if (!limit) {
		uint64_t extra = before.peak / 100 * s->cfg->headroom_percent +
		                 before.peak % 100 * s->cfg->headroom_percent / 100;
		limit = before.peak + extra < before.peak ? UINT64_MAX : before.peak + extra;
	}
	uint64_t args = 0;
	for (size_t a = 0; a < pl_func_num_args(f); a++)
		args += value_bytes(pl_func_arg(f, a));
	if ((rc = make_nodes(s, f)) != PL_OK || (rc = make_edges(s, f)) != PL_OK ||
	    (s->fused && (rc = kernel_times(s, f)) != PL_OK))
		return rc;
	s->order = realloc(s->order, (s->n ? s->n : 1) * sizeof *s->order);
	if (!s->order)
		return PL_ENOMEM;
	size_t nways = s->fused ? sizeof ways / sizeof *ways : 2, best = SIZE_MAX;
	for (size_t w = 0; w < nways; w++) {
		if ((rc = try_way(s, f, w, limit, args, &tried)) != PL_OK)
			return rc;
		/* the first found stands for all in a remark when none is taken */
		if (w == 0 || (acceptable(&tried, &before, limit) &&
		               (best == SIZE_MAX || better(&tried, &after)))) {
			after = tried;
			best = acceptable(&tried, &before, limit) ? w : SIZE_MAX;
		}
	}
	/* the best made again (its order and why each start waited) */
	if (best != SIZE_MAX && best != nways - 1 &&
	    (rc = try_way(s, f, best, limit, args, &after)) != PL_OK)
		return rc;
	bool moved = false;
	for (size_t k = 0; k < s->n && !moved; k++)
		moved = s->order[k] != k;
	if (!acceptable(&after, &before, limit)) {
		restore_order(s);
		if (s->remarks)
			pl_ctx_remark(s->ctx, NULL, "@%s kept in its input order: the schedule found "
			                            "takes %llu ns and %llu bytes (input: %llu ns, %llu "
			                            "bytes; limit %llu bytes)",
			              pl_func_name(f), (unsigned long long)after.makespan,
			              (unsigned long long)after.peak, (unsigned long long)before.makespan,
			              (unsigned long long)before.peak, (unsigned long long)limit);
		after = before;
		s->kept++;
	} else if (moved) {
		s->scheduled++;
	}
	s->exp_before += before.exposed;
	s->exp_after += after.exposed;
	s->span_before += before.makespan;
	s->span_after += after.makespan;
	if (before.peak > s->peak_before)
		s->peak_before = before.peak;
	if (after.peak > s->peak_after)
		s->peak_after = after.peak;
	return s->remarks ? explain_exposed(s, f) : PL_OK;
}

/* ---- the pass ----------------------------------------------------------------- */

static int lhs_create(pl_pass_ctx *ctx, void **state)
{
	struct config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return PL_ENOMEM;
	int64_t in_flight = 1, limit = 0, headroom = 10, device = 0, slop = 95;
	bool split = false;
	int rc = pl_ctx_get_int(ctx, "max_in_flight", &in_flight);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "memory_limit_bytes", &limit);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "memory_headroom_percent", &headroom);
	if (rc == PL_OK)
		rc = pl_ctx_get_bool(ctx, "split", &split);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "device_memory_bytes", &device);
	if (rc == PL_OK)
		rc = pl_ctx_get_int(ctx, "memory_limit_slop_factor", &slop);
	if (rc != PL_OK) {
		pl_ctx_error(ctx, NULL, "cannot read options: %s", pl_status_string(rc));
		free(cfg);
		return rc;
	}
	*cfg = (struct config){(uint64_t)in_flight, (uint64_t)limit, (uint64_t)headroom, split,
	                       (uint64_t)device, (uint64_t)slop};
	*state = cfg;
	return PL_OK;
}

static void lhs_destroy(pl_pass_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static int lhs_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	struct sched s = {.ctx = ctx, .cfg = state, .cm = pl_ctx_cost_model(ctx),
	                  .remarks = pl_ctx_remarks_enabled(ctx), .pinned = {.name = "pinned"},
	                  .group_id = {.name = "group_id"},
	                  .side_effect = {.name = "hlo_custom_call_has_side_effect"}};
	s.fusion = fusion_option(ctx, &s.floor_ns);
	s.hlo = fusion_hlo_module(m);
	struct rewritable rw;
	int rc = rewritable_init(&rw, m);
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++)
		if (rewritable_at(&rw, k))
			rc = schedule_func(&s, pl_module_func_at(m, k));
	rewritable_free(&rw);
	pass_end_stat(ctx, "num_functions_scheduled", s.scheduled, &rc);
	pass_end_stat(ctx, "num_functions_kept", s.kept, &rc);
	pass_end_stat(ctx, "num_collectives_split", s.split, &rc);
	pass_end_stat(ctx, "exposed_ns_before", s.exp_before, &rc);
	pass_end_stat(ctx, "exposed_ns_after", s.exp_after, &rc);
	pass_end_stat(ctx, "makespan_ns_before", s.span_before, &rc);
	pass_end_stat(ctx, "makespan_ns_after", s.span_after, &rc);
	pass_end_stat(ctx, "peak_bytes_before", s.peak_before, &rc);
	pass_end_stat(ctx, "peak_bytes_after", s.peak_after, &rc);
	for (size_t g = 0; g < s.ginit; g++)
		free(s.groups[g].waiting.v);
	free(s.groups);
	free(s.nodes);
	free(s.succs);
	free(s.edges);
	free(s.remaining);
	free(s.bytes);
	free(s.order);
	free(s.starts.v);
	free(s.dones_ended.v);
	free(s.dones.v);
	free(s.compute.v);
	free(s.held_by_memory.v);
	ptr_map_free(&s.index_of);
	ptr_map_free(&s.group_of);
	ptr_map_free(&s.buffer_of);
	return pass_end_report(ctx, rc, "schedule");
}

static const pl_pass_desc lhs_pass = {
	PL_PASS_DESC_INIT,
	.name = "LatencyHidingScheduler",
	.summary = "Reorders each function so that computation hides asynchronous collectives, "
	           "within a memory limit.",
	.options = lhs_options,
	.stats = lhs_stats,
	.create = lhs_create,
	.run = lhs_run,
	.destroy = lhs_destroy,
};

PL_PLUGIN_DEFINE("LatencyHidingScheduler", PACKAGE_VERSION, "MIT",
                 "A latency-hiding list scheduler.", &lhs_pass)
