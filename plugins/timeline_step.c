/* SPDX-License-Identifier: MIT */
/* plugins/timeline_step.c — the parts of a whole step's picture: the root
 * function's schedule as the step simulates it (pl_callgraph_schedule_new:
 * a loop takes its trips' time, a call its callee's, a conditional its
 * longest branch), each loop, call and conditional of it a span, and the
 * function each span runs drawn once below it (a loop's body, a call's
 * callee, each branch), spans inside those nesting the same way.
 *
 * Each function is drawn once, at its first span (in drawing order), at
 * most max_depth below the root, and not at all when one run of it is
 * shorter than the fold threshold (its span stays a box): the parts are
 * then at most max_depth + 1 times the module's functions, and the
 * picture's size follows the functions it draws, not how often they run.
 * Fusions and async calls stay boxes of their callee's time, as the step
 * counts them.
 *
 * Each part also gets the totals of one run of it with its loops and
 * calls (tl_totals), summed through the call graph whatever is drawn,
 * and each process group a number in the step, in the order the groups
 * are first drawn, so that a lane keeps its number from part to part. */
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptr_map.h"

struct builder {
	struct tl_step *st;
	const pl_callgraph *cg;
	const pl_cost_model *cm;
	pl_fusion_mode mode; /* which functions the fusion model costs */
	uint64_t floor_ns;
	struct ptr_map first_site; /* inst -> its first site + 1 */
	struct ptr_map loop_of;    /* inst -> its loop index + 1 */
	struct ptr_map drawn;      /* function -> its part + 1 */
	struct ptr_map summed;     /* function -> its totals + 1 */
	struct tl_totals *totals;
	size_t ntotals, cap_totals;
	struct tl_limits lim;
	const pl_func **failed;
};

/* printf into a new string, or NULL. */
static char *fmt(const char *f, ...) PL_PRINTF(1, 2);
static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *out = n < 0 ? NULL : malloc((size_t)n + 1);
	if (out) {
		va_start(ap, f);
		vsnprintf(out, (size_t)n + 1, f, ap);
		va_end(ap);
	}
	return out;
}

/* The instruction's name for people: "%" and its first result's name, else
 * its op. */
static char *inst_name(const pl_inst *inst)
{
	const char *n = pl_inst_num_results(inst) ? pl_value_name(pl_inst_result(inst, 0)) : NULL;
	return n ? fmt("%%%s", n) : fmt("%s", pl_inst_opname(inst));
}

static int add_part(struct builder *bd, const pl_func *f, size_t depth, size_t *out)
{
	struct tl_step *st = bd->st;
	if (!PL_GROW(st->parts, st->cap, st->n + 1))
		return PL_ENOMEM;
	struct tl_part *p = &st->parts[st->n];
	*p = (struct tl_part){.f = f, .depth = depth};
	int rc = pl_callgraph_schedule_new(&p->s, bd->cg, f, bd->cm, bd->mode, bd->floor_ns);
	if (rc) {
		*bd->failed = f;
		return rc;
	}
	if (!ptr_map_put(&bd->drawn, f, (void *)(uintptr_t)(st->n + 1))) {
		pl_schedule_free(p->s);
		return PL_ENOMEM;
	}
	*out = st->n++;
	return PL_OK;
}

/* The time of one run of f: its part's makespan when drawn, else its step. */
static int time_of(struct builder *bd, const pl_func *f, uint64_t *out)
{
	void *v = ptr_map_get(&bd->drawn, f);
	if (v) {
		*out = pl_schedule_makespan_ns(bd->st->parts[(uintptr_t)v - 1].s);
		return PL_OK;
	}
	int rc = pl_callgraph_step_fused_ns(bd->cg, f, bd->cm, bd->mode, bd->floor_ns, out);
	if (rc)
		*bd->failed = f;
	return rc;
}

static int expand(struct builder *bd, size_t pi);

/* Draws callee below the span at row begin t0 of part pi, unless it is
 * drawn already, too deep or folded; takes heading and thread. */
static int draw_callee(struct builder *bd, size_t pi, const pl_func *callee, uint64_t t0,
                       char *heading, char *thread)
{
	struct tl_step *st = bd->st;
	size_t depth = st->parts[pi].depth + 1, ci;
	bool skip = ptr_map_get(&bd->drawn, callee) || depth > bd->lim.max_depth;
	uint64_t run_ns = 0;
	int rc = !heading || !thread ? PL_ENOMEM : PL_OK;
	if (rc == PL_OK && !skip && bd->lim.fold_ns) {
		rc = time_of(bd, callee, &run_ns);
		skip = run_ns < bd->lim.fold_ns;
	}
	if (rc == PL_OK && !skip)
		rc = add_part(bd, callee, depth, &ci);
	if (rc || skip) {
		free(heading);
		free(thread);
		return rc;
	}
	st->parts[ci].heading = heading;
	st->parts[ci].thread = thread;
	st->parts[ci].offset_ns = st->parts[pi].offset_ns + t0;
	return expand(bd, ci);
}

/* The span of a loop: its body drawn below, its first iteration after
 * the condition's first run. */
static int loop_span(struct builder *bd, size_t pi, struct tl_span *sp, size_t first)
{
	const pl_callgraph *cg = bd->cg;
	const pl_func *body = NULL, *cond = NULL;
	for (size_t k = first; k < pl_callgraph_num_sites(cg) &&
	                       pl_callgraph_site_inst(cg, k) == sp->inst; k++) {
		if (pl_callgraph_site_kind(cg, k) == PL_CALL_LOOP_BODY)
			body = pl_callgraph_site_callee(cg, k);
		else if (pl_callgraph_site_kind(cg, k) == PL_CALL_LOOP_COND)
			cond = pl_callgraph_site_callee(cg, k);
	}
	void *li = ptr_map_get(&bd->loop_of, sp->inst);
	const char *lname = li ? pl_callgraph_loop_name(cg, (uintptr_t)li - 1) : "?";
	sp->loop = true;
	sp->trips = li ? pl_callgraph_loop_trips(cg, (uintptr_t)li - 1) : 1;
	bool unknown = li && pl_callgraph_loop_source(cg, (uintptr_t)li - 1) == PL_TRIP_UNKNOWN;
	int rc = cond ? time_of(bd, cond, &sp->cond_ns) : PL_OK;
	sp->label = fmt("@%s ×%llu%s", body ? pl_func_name(body) : "?",
	                (unsigned long long)sp->trips, unknown ? " (trip count unknown)" : "");
	if (rc || !sp->label || !body)
		return rc ? rc : sp->label ? PL_OK : PL_ENOMEM;
	const pl_func *in = bd->st->parts[pi].f;
	uint64_t t0 = pl_schedule_begin_ns(bd->st->parts[pi].s, sp->row) + sp->cond_ns;
	rc = draw_callee(bd, pi, body, t0,
	                 fmt("@%s: 1 of %llu iterations of loop '%s' in @%s", pl_func_name(body),
	                     (unsigned long long)sp->trips, lname, pl_func_name(in)),
	                 fmt("@%s (1 of %llu iterations)", pl_func_name(body),
	                     (unsigned long long)sp->trips));
	return rc ? rc : time_of(bd, body, &sp->body_ns);
}

/* The span of a call or conditional: each callee drawn below. */
static int call_span(struct builder *bd, size_t pi, struct tl_span *sp, size_t first,
                     size_t n)
{
	const pl_callgraph *cg = bd->cg;
	struct tl_buf label = {0};
	for (size_t k = 0; k < n && k < 3; k++)
		tl_buf_printf(&label, "%s@%s", k ? " | " : "",
		              pl_func_name(pl_callgraph_site_callee(cg, first + k)));
	if (n > 3)
		tl_buf_printf(&label, " | … (%zu branches)", n);
	if (label.failed) {
		tl_buf_free(&label);
		return PL_ENOMEM;
	}
	sp->label = label.data;
	const pl_func *in = bd->st->parts[pi].f;
	uint64_t t0 = pl_schedule_begin_ns(bd->st->parts[pi].s, sp->row);
	char *iname = inst_name(sp->inst);
	int rc = iname ? PL_OK : PL_ENOMEM;
	for (size_t k = 0; k < n && rc == PL_OK; k++) {
		const pl_func *callee = pl_callgraph_site_callee(cg, first + k);
		const char *cn = pl_func_name(callee);
		if (pl_callgraph_site_kind(cg, first + k) == PL_CALL_BRANCH)
			rc = draw_callee(bd, pi, callee, t0,
			                 fmt("@%s: branch %zu of %zu of %s in @%s", cn, k + 1, n, iname,
			                     pl_func_name(in)),
			                 fmt("@%s (branch %zu of %zu)", cn, k + 1, n));
		else
			rc = draw_callee(bd, pi, callee, t0,
			                 fmt("@%s: called by %s in @%s", cn, iname, pl_func_name(in)),
			                 fmt("@%s (call)", cn));
	}
	free(iname);
	return rc;
}

/* The spans of part pi, each callee drawn below as it comes (so the parts
 * inside pi follow it). */
static int expand(struct builder *bd, size_t pi)
{
	const pl_callgraph *cg = bd->cg;
	const pl_schedule *s = bd->st->parts[pi].s;
	size_t cap = 0;
	int rc = PL_OK;
	for (size_t i = 0; i < pl_schedule_num_insts(s) && rc == PL_OK; i++) {
		const pl_inst *inst = pl_schedule_inst(s, i);
		void *v = ptr_map_get(&bd->first_site, inst);
		enum pl_hlo_calls how = pl_hlo_op_calls(pl_inst_hlo_op(inst));
		bool loop = how == PL_HLO_CALLS_LOOP, call = how == PL_HLO_CALLS_ONCE;
		if (!v || !(loop || call || how == PL_HLO_CALLS_BRANCHES))
			continue; /* a fusion or async call: a box of its callee's time */
		size_t first = (uintptr_t)v - 1, n = 0;
		while (first + n < pl_callgraph_num_sites(cg) &&
		       pl_callgraph_site_inst(cg, first + n) == inst)
			n++;
		struct tl_part *p = &bd->st->parts[pi];
		if (!PL_GROW(p->spans, cap, p->nspans + 1))
			return PL_ENOMEM;
		struct tl_span *sp = &p->spans[p->nspans++];
		*sp = (struct tl_span){.row = i, .inst = inst};
		p->spans_ns += pl_schedule_end_ns(s, i) - pl_schedule_begin_ns(s, i);
		size_t si = p->nspans - 1;
		/* the parts array may move while the callees are drawn */
		struct tl_span tmp = *sp;
		rc = loop ? loop_span(bd, pi, &tmp, first) : call_span(bd, pi, &tmp, first, n);
		bd->st->parts[pi].spans[si] = tmp;
	}
	bd->st->parts[pi].end = bd->st->n;
	return rc;
}

static int index_graph(struct builder *bd)
{
	const pl_callgraph *cg = bd->cg;
	for (size_t k = pl_callgraph_num_sites(cg); k-- > 0;) /* the first wins */
		if (!ptr_map_put(&bd->first_site, pl_callgraph_site_inst(cg, k),
		                 (void *)(uintptr_t)(k + 1)))
			return PL_ENOMEM;
	for (size_t k = 0; k < pl_callgraph_num_loops(cg); k++)
		if (!ptr_map_put(&bd->loop_of, pl_callgraph_loop(cg, k), (void *)(uintptr_t)(k + 1)))
			return PL_ENOMEM;
	return PL_OK;
}

/* ---- the totals of one run, through the call graph ---- */


static int totals_of(struct builder *bd, const pl_func *f, struct tl_totals *out);

/* Adds times runs of callee's communication and exposed time to t. */
static int add_runs(struct builder *bd, const pl_func *callee, uint64_t times,
                    struct tl_totals *t)
{
	struct tl_totals in;
	int rc = totals_of(bd, callee, &in);
	if (rc == PL_OK) {
		t->comm = pl_u64_add_sat(t->comm, pl_u64_mul_sat(times, in.comm));
		t->exposed = pl_u64_add_sat(t->exposed, pl_u64_mul_sat(times, in.exposed));
	}
	return rc;
}

/* What the calling instruction at row i of s adds to t: a loop N runs of
 * its body and N + 1 of its condition, a call its callee, a conditional
 * its longest branch (the one its time is, the first of equals). */
static int add_calls(struct builder *bd, const pl_schedule *s, size_t i, struct tl_totals *t)
{
	const pl_callgraph *cg = bd->cg;
	const pl_inst *inst = pl_schedule_inst(s, i);
	void *v = ptr_map_get(&bd->first_site, inst);
	enum pl_hlo_calls how = pl_hlo_op_calls(pl_inst_hlo_op(inst));
	if (!v || (how != PL_HLO_CALLS_LOOP && how != PL_HLO_CALLS_ONCE &&
	           how != PL_HLO_CALLS_BRANCHES))
		return PL_OK; /* a fusion or async call: compute of the caller */
	void *li = ptr_map_get(&bd->loop_of, inst);
	uint64_t trips = li ? pl_callgraph_loop_trips(cg, (uintptr_t)li - 1) : 1;
	const pl_func *longest = NULL;
	uint64_t longest_ns = 0;
	int rc = PL_OK;
	for (size_t k = (uintptr_t)v - 1;
	     rc == PL_OK && k < pl_callgraph_num_sites(cg) && pl_callgraph_site_inst(cg, k) == inst;
	     k++) {
		const pl_func *callee = pl_callgraph_site_callee(cg, k);
		switch (pl_callgraph_site_kind(cg, k)) {
		case PL_CALL_LOOP_BODY: rc = add_runs(bd, callee, trips, t); break;
		case PL_CALL_LOOP_COND: rc = add_runs(bd, callee, pl_u64_add_sat(trips, 1), t); break;
		case PL_CALL_BRANCH: {
			struct tl_totals in;
			if ((rc = totals_of(bd, callee, &in)) == PL_OK && (!longest || in.makespan > longest_ns)) {
				longest = callee;
				longest_ns = in.makespan;
			}
			break;
		}
		default: rc = add_runs(bd, callee, 1, t);
		}
	}
	return rc == PL_OK && longest ? add_runs(bd, longest, 1, t) : rc;
}

/* One run of f with its loops and calls, each function's once (memo). */
static int totals_of(struct builder *bd, const pl_func *f, struct tl_totals *out)
{
	void *v = ptr_map_get(&bd->summed, f);
	if (v) {
		*out = bd->totals[(uintptr_t)v - 1];
		return PL_OK;
	}
	void *drawn = ptr_map_get(&bd->drawn, f);
	pl_schedule *own = NULL;
	const pl_schedule *s = drawn ? bd->st->parts[(uintptr_t)drawn - 1].s : NULL;
	int rc = PL_OK;
	if (!s) {
		rc = pl_callgraph_schedule_new(&own, bd->cg, f, bd->cm, bd->mode, bd->floor_ns);
		if (rc) {
			*bd->failed = f;
			return rc;
		}
		s = own;
	}
	struct tl_totals t = {pl_schedule_makespan_ns(s), 0, pl_schedule_comm_ns(s),
	                      pl_schedule_exposed_ns(s)};
	for (size_t i = 0; i < pl_schedule_num_insts(s) && rc == PL_OK; i++)
		rc = add_calls(bd, s, i, &t);
	pl_schedule_free(own);
	t.compute = t.makespan > t.exposed ? t.makespan - t.exposed : 0;
	if (rc == PL_OK && !PL_GROW(bd->totals, bd->cap_totals, bd->ntotals + 1))
		rc = PL_ENOMEM;
	if (rc == PL_OK) {
		bd->totals[bd->ntotals++] = t;
		if (!ptr_map_put(&bd->summed, f, (void *)(uintptr_t)bd->ntotals))
			rc = PL_ENOMEM;
	}
	*out = t;
	return rc;
}

/* ---- lane numbers ---- */

/* Numbers every part's process groups in drawing order, a name its
 * number wherever it is drawn again. */
static int number_lanes(struct tl_step *st)
{
	const char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = PL_OK;
	for (size_t k = 0; k < st->n && rc == PL_OK; k++) {
		struct tl_part *p = &st->parts[k];
		size_t ng = pl_schedule_num_groups(p->s);
		p->lane_no = calloc(ng ? ng : 1, sizeof *p->lane_no);
		p->lane_row = calloc(ng ? ng : 1, sizeof *p->lane_row);
		if (!p->lane_no || !p->lane_row) {
			rc = PL_ENOMEM;
			break;
		}
		for (size_t g = 0; g < ng; g++) {
			const char *name = pl_schedule_group_name(p->s, g);
			size_t j = 0;
			while (j < n && strcmp(names[j], name) != 0)
				j++;
			if (j == n) {
				if (!PL_GROW(names, cap, n + 1)) {
					rc = PL_ENOMEM;
					break;
				}
				names[n++] = name;
			}
			p->lane_no[g] = j + 1;
		}
		for (size_t g = 0; g < ng; g++) {
			p->lane_row[g] = 1;
			for (size_t h = 0; h < ng; h++)
				p->lane_row[g] += p->lane_no[h] < p->lane_no[g];
		}
	}
	st->nlanes = n;
	free(names);
	return rc;
}

size_t tl_lane_no(const struct tl_part *p, size_t g)
{
	return p && p->lane_no ? p->lane_no[g] : g + 1;
}

size_t tl_lane_row(const struct tl_part *p, size_t lane)
{
	return lane && p && p->lane_row ? p->lane_row[lane - 1] : lane;
}

int tl_step_build(struct tl_step *st, const pl_callgraph *cg, const pl_func *root,
                  const pl_cost_model *cm, pl_fusion_mode mode, uint64_t floor_ns,
                  const struct tl_limits *lim, const pl_func **failed)
{
	struct builder bd = {.st = st, .cg = cg, .cm = cm, .mode = mode, .floor_ns = floor_ns,
	                     .lim = *lim, .failed = failed};
	size_t ri;
	*failed = NULL;
	st->whole = root == pl_callgraph_entry(cg);
	int rc = index_graph(&bd);
	if (rc == PL_OK && (rc = add_part(&bd, root, 0, &ri)) == PL_OK)
		rc = expand(&bd, ri);
	for (size_t k = 0; k < st->n && rc == PL_OK; k++)
		rc = totals_of(&bd, st->parts[k].f, &st->parts[k].whole);
	if (rc == PL_OK)
		rc = number_lanes(st);
	ptr_map_free(&bd.first_site);
	ptr_map_free(&bd.loop_of);
	ptr_map_free(&bd.drawn);
	ptr_map_free(&bd.summed);
	free(bd.totals);
	return rc;
}

void tl_step_free(struct tl_step *st)
{
	for (size_t k = 0; k < st->n; k++) {
		struct tl_part *p = &st->parts[k];
		pl_schedule_free(p->s);
		free(p->heading);
		free(p->thread);
		for (size_t j = 0; j < p->nspans; j++)
			free(p->spans[j].label);
		free(p->spans);
		free(p->lane_no);
		free(p->lane_row);
	}
	free(st->parts);
	memset(st, 0, sizeof *st);
}
