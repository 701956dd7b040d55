/* SPDX-License-Identifier: MIT */
/* sdk/analysis/callgraph.c — the call graph of a module, execution counts
 * from its entry and loop trip counts (passline/callgraph.h).
 *
 * One walk over the instructions finds the call sites and the loops; the
 * functions are then ordered callers first (a depth-first walk from the
 * entry, reversed), so one pass over that order hands each function's
 * count to its callees. Functions and sites are found by address through
 * sorted arrays (binary search): the graph is small beside the module.
 */
#include "analysis/cost_model.h"
#include "analysis/fusion.h"
#include "analysis/memory.h"
#include "analysis/name_list.h"
#include "analysis/schedule.h"
#include "ir/hlo_keys.h"
#include "ir/internal.h"
#include <passline/grow.h>

#include <passline/callgraph.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

struct site {
	const pl_inst *inst;
	size_t caller, callee; /* function indices */
	pl_call_kind kind;
	size_t loop; /* the loop's index for a body or condition */
};

struct loop {
	const pl_inst *inst;
	uint64_t trips;
	pl_trip_source src;
	char *name;
	long body, cond; /* function indices, -1 when not named */
};

struct fn {
	const pl_func *f;
	pl_u128 exec;
	bool overflow;
	size_t *callers, ncallers, callers_cap;
};

struct by_addr {
	const void *p;
	size_t i;
};

struct pl_callgraph {
	const pl_module *m;
	struct fn *fns;
	size_t nfns;
	struct by_addr *fn_index; /* sorted by address */
	struct site *sites;
	size_t nsites, sites_cap;
	struct loop *loops;
	size_t nloops, loops_cap;
	long entry; /* -1: none */
};

static int cmp_addr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct by_addr *)a)->p;
	uintptr_t y = (uintptr_t)((const struct by_addr *)b)->p;
	return x < y ? -1 : x > y;
}

static long fn_index(const pl_callgraph *cg, const pl_func *f)
{
	struct by_addr key = {f, 0};
	const struct by_addr *hit =
	        bsearch(&key, cg->fn_index, cg->nfns, sizeof key, cmp_addr);
	return hit ? (long)hit->i : -1;
}

struct build {
	pl_callgraph *cg;
	const pl_inst **at;
	char *err;
	size_t errlen;
	struct call_ids ids; /* what read_sites asks every instruction */
};

static int fail(struct build *b, int rc, const pl_inst *at, const char *fmt, ...)
	PL_PRINTF(4, 5);
static int fail(struct build *b, int rc, const pl_inst *at, const char *fmt, ...)
{
	if (b->at)
		*b->at = at;
	if (b->err && b->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(b->err, b->errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* ---- reading call sites ---- */

static const char *attr_str(const pl_inst *inst, const char *key, size_t *len)
{
	const char *s = NULL;
	if (pl_attrs_get_string(pl_inst_attrs_const(inst), key, &s, len) != PL_OK)
		return NULL;
	return s;
}

static int add_site(struct build *b, const pl_inst *inst, size_t caller, const char *name,
                    size_t len, pl_call_kind kind, size_t loop)
{
	pl_callgraph *cg = b->cg;
	char buf[512];
	if (len >= sizeof buf)
		return fail(b, PL_ENOTFOUND, inst, "a called function's name is too long");
	memcpy(buf, name, len);
	buf[len] = '\0';
	const pl_func *callee = pl_module_find_func(cg->m, buf);
	if (!callee && cg->entry < 0)
		return PL_OK; /* nothing is counted from an entry: no harm */
	if (!callee)
		return fail(b, PL_ENOTFOUND, inst, "%s calls @%s, which the module does not have",
		            pl_inst_opname(inst), buf);
	if (!PL_GROW(cg->sites, cg->sites_cap, cg->nsites + 1))
		return PL_ENOMEM;
	cg->sites[cg->nsites++] = (struct site){inst, caller, (size_t)fn_index(cg, callee), kind,
	                                        loop};
	return PL_OK;
}

/* Each name of a list "{%a, %b}" or a single "%a". */
static int add_sites(struct build *b, const pl_inst *inst, size_t caller, const char *s,
                     size_t len, pl_call_kind kind, size_t loop)
{
	size_t at = 0, n;
	const char *name;
	while (name_list_next(s, len, &at, &name, &n)) {
		int rc = add_site(b, inst, caller, name, n, kind, loop);
		if (rc)
			return rc;
	}
	return PL_OK;
}

static bool op_is(const pl_inst *inst, pl_hlo_op op)
{
	return pl_inst_hlo_op_(inst) == op;
}

static int read_sites(struct build *b, const pl_inst *inst, size_t caller)
{
	pl_callgraph *cg = b->cg;
	const pl_attrs *a = &inst->attrs;
	size_t len;
	const char *s;
	const struct call_ids *ids = &b->ids;
	if (inst->op == ids->op_while) {
		if (!PL_GROW(cg->loops, cg->loops_cap, cg->nloops + 1))
			return PL_ENOMEM;
		size_t loop = cg->nloops++;
		cg->loops[loop] = (struct loop){inst, 1, PL_TRIP_UNKNOWN, NULL, -1, -1};
		int rc = PL_OK;
		size_t n0 = cg->nsites;
		if ((s = pl_attrs_find_string_id_(a, ids->key[CALL_BODY], &len)))
			rc = add_sites(b, inst, caller, s, len, PL_CALL_LOOP_BODY, loop);
		if (rc == PL_OK && cg->nsites == n0 + 1)
			cg->loops[loop].body = (long)cg->sites[n0].callee;
		n0 = cg->nsites;
		if (rc == PL_OK && (s = pl_attrs_find_string_id_(a, ids->key[CALL_CONDITION], &len)))
			rc = add_sites(b, inst, caller, s, len, PL_CALL_LOOP_COND, loop);
		if (rc == PL_OK && cg->nsites == n0 + 1)
			cg->loops[loop].cond = (long)cg->sites[n0].callee;
		return rc;
	}
	if (inst->op == ids->op_call) {
		s = pl_attrs_find_string_id_(a, ids->key[CALL_TO_APPLY], &len);
		return s ? add_sites(b, inst, caller, s, len, PL_CALL_ONCE, 0) : PL_OK;
	}
	if (inst->op == ids->op_cond) {
		for (size_t k = CALL_BRANCH_COMPUTATIONS; k <= CALL_FALSE_COMPUTATION; k++) {
			s = pl_attrs_find_string_id_(a, ids->key[k], &len);
			int rc = s ? add_sites(b, inst, caller, s, len, PL_CALL_BRANCH, 0) : PL_OK;
			if (rc)
				return rc;
		}
		return PL_OK;
	}
	/* a collective start stands for the collective its computation wraps */
	if (pl_inst_traits_(inst) & PL_TRAIT_COLLECTIVE_START)
		return PL_OK;
	s = pl_attrs_find_string_id_(a, ids->key[CALL_CALLS], &len);
	return s ? add_sites(b, inst, caller, s, len, PL_CALL_ONCE, 0) : PL_OK;
}

/* ---- trip counts ---- */

/* The integer of an hlo.constant, or false. */
static bool const_int(const pl_value *v, int64_t *out)
{
	const pl_inst *d = v ? pl_value_def(v) : NULL;
	if (!d || !op_is(d, PL_HLO_CONSTANT))
		return false;
	size_t len;
	const char *s = attr_str(d, HK(CONSTANT), &len);
	if (!s || !len || len > 30)
		return false;
	char buf[32], *end;
	memcpy(buf, s, len);
	buf[len] = '\0';
	long long x = strtoll(buf, &end, 10);
	if (end == buf || *end)
		return false;
	*out = x;
	return true;
}

/* The argument index of v in f, or -1. */
static long arg_of(const pl_value *v, const pl_func *f)
{
	return v && pl_value_is_arg(v) && pl_value_func(v) == f ? (long)pl_value_index(v) : -1;
}

static const pl_value *returned(const pl_func *f, size_t k)
{
	const pl_inst *ret = pl_func_last_inst(f);
	if (!ret || pl_inst_op(ret) != PL_OP_RETURN || k >= pl_inst_num_operands(ret))
		return NULL;
	return pl_inst_operand(ret, k);
}

/* "known_trip_count":{"n":"N"} in the backend config. */
static bool known_trip_count(const pl_inst *w, uint64_t *out)
{
	size_t len;
	const char *s = attr_str(w, HK(BACKEND_CONFIG), &len);
	if (!s)
		return false;
	/* {"known_trip_count":{"n":"N"}}, its quotes maybe escaped (a
	 * backend_config written as a string) */
	const char *p = strstr(s, "known_trip_count");
	if (!p)
		return false;
	p += strlen("known_trip_count");
	while (*p == ' ' || *p == ':' || *p == '"' || *p == '\\' || *p == '{')
		p++;
	if (*p != 'n')
		return false;
	p++;
	while (*p == ' ' || *p == ':' || *p == '"' || *p == '\\')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	uint64_t n = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, (uint64_t)(*p - '0'), &n))
			return false;
	*out = n;
	return true;
}

/* Iterations of "for (i = i0; i DIR bound; i += step)", or false when
 * they do not end (or are not known to). */
static bool iterations(i128 i0, i128 step, const char *dir, i128 bound, uint64_t *out)
{
	i128 n;
	if (!strcmp(dir, "LE")) {
		bound += 1;
		dir = "LT";
	} else if (!strcmp(dir, "GE")) {
		bound -= 1;
		dir = "GT";
	}
	if (!strcmp(dir, "LT")) {
		if (i0 >= bound)
			n = 0;
		else if (step <= 0)
			return false;
		else
			n = (bound - i0 + step - 1) / step;
	} else if (!strcmp(dir, "GT")) {
		if (i0 <= bound)
			n = 0;
		else if (step >= 0)
			return false;
		else
			n = (i0 - bound + (-step) - 1) / (-step);
	} else if (!strcmp(dir, "NE")) {
		if (i0 == bound)
			n = 0;
		else if (step == 0 || (bound - i0) % step != 0 || (bound - i0) / step < 0)
			return false;
		else
			n = (bound - i0) / step;
	} else if (!strcmp(dir, "EQ")) {
		if (i0 != bound)
			n = 0;
		else if (step == 0)
			return false;
		else
			n = 1;
	} else {
		return false;
	}
	*out = (uint64_t)n;
	return true;
}

/* The canonical counted loop: see passline/callgraph.h. */
static bool counted_loop(const pl_callgraph *cg, size_t li, uint64_t *out)
{
	const struct loop *l = &cg->loops[li];
	const pl_func *body = l->body >= 0 ? cg->fns[l->body].f : NULL;
	const pl_func *cond = l->cond >= 0 ? cg->fns[l->cond].f : NULL;
	const pl_inst *w = cg->loops[li].inst;
	const pl_value *c = cond ? returned(cond, 0) : NULL;
	const pl_inst *cmp = c ? pl_value_def(c) : NULL;
	if (!body || !cmp || !op_is(cmp, PL_HLO_COMPARE) || pl_inst_num_operands(cmp) != 2)
		return false;
	size_t dlen;
	const char *dir = attr_str(cmp, HK(DIRECTION), &dlen);
	if (!dir || dlen != 2)
		return false;
	char d[3] = {dir[0], dir[1], '\0'};
	const pl_value *lhs = pl_inst_operand(cmp, 0), *rhs = pl_inst_operand(cmp, 1);
	int64_t bound;
	long k = arg_of(lhs, cond);
	if (k < 0 || !const_int(rhs, &bound)) {
		/* bound DIR i: the same as i DIR' bound */
		k = arg_of(rhs, cond);
		if (k < 0 || !const_int(lhs, &bound))
			return false;
		static const char *const flip[][2] = {{"LT", "GT"}, {"GT", "LT"}, {"LE", "GE"},
		                                      {"GE", "LE"}, {"NE", "NE"}, {"EQ", "EQ"}};
		bool found = false;
		for (size_t i = 0; i < 6 && !found; i++)
			if (!strcmp(d, flip[i][0])) {
				memcpy(d, flip[i][1], 3);
				found = true;
			}
		if (!found)
			return false;
	}
	/* the body: element k comes back as element k plus (minus) a constant */
	const pl_value *next = returned(body, (size_t)k);
	const pl_inst *inc = next ? pl_value_def(next) : NULL;
	int64_t step;
	if (!inc || pl_inst_num_operands(inc) != 2)
		return false;
	if (op_is(inc, PL_HLO_ADD)) {
		if (arg_of(pl_inst_operand(inc, 0), body) == k && const_int(pl_inst_operand(inc, 1), &step))
			;
		else if (arg_of(pl_inst_operand(inc, 1), body) == k &&
		         const_int(pl_inst_operand(inc, 0), &step))
			;
		else
			return false;
	} else if (op_is(inc, PL_HLO_SUBTRACT)) {
		if (arg_of(pl_inst_operand(inc, 0), body) != k ||
		    !const_int(pl_inst_operand(inc, 1), &step))
			return false;
		step = step == INT64_MIN ? INT64_MAX : -step; /* never a real counter's */
	} else {
		return false;
	}
	int64_t init;
	if ((size_t)k >= pl_inst_num_operands(w) || !const_int(pl_inst_operand(w, (size_t)k), &init))
		return false;
	return iterations(init, step, d, bound, out);
}

/* The name of a loop: its first result's up to any '$'. */
static char *loop_name(const pl_inst *w)
{
	const char *n = pl_inst_num_results(w) ? pl_value_name(pl_inst_result(w, 0)) : NULL;
	if (!n)
		n = "";
	size_t len = strcspn(n, "$");
	char *s = malloc(len + 1);
	if (s) {
		memcpy(s, n, len);
		s[len] = '\0';
	}
	return s;
}

/* Applies "NAME=N[,NAME=N...]". */
static int give_trips(struct build *b, const char *text)
{
	pl_callgraph *cg = b->cg;
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		const char *eq = strchr(p, '=');
		const char *end = eq ? eq : p + strlen(p);
		size_t nlen = (size_t)(end - p);
		while (nlen && p[nlen - 1] == ' ')
			nlen--;
		if (!eq || !nlen)
			return fail(b, PL_EPARSE, NULL,
			            "trip counts must read NAME=N[,NAME=N...], not \"%s\"", text);
		const char *q = eq + 1;
		while (*q == ' ')
			q++;
		if (*q < '0' || *q > '9')
			return fail(b, PL_EPARSE, NULL, "the trip count of loop '%.*s' must be an "
			            "integer >= 0", (int)nlen, p);
		uint64_t n = 0;
		for (; *q >= '0' && *q <= '9'; q++)
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, (uint64_t)(*q - '0'), &n))
				return fail(b, PL_EPARSE, NULL, "the trip count of loop '%.*s' passes "
				            "2^64 - 1", (int)nlen, p);
		while (*q == ' ')
			q++;
		if (*q && *q != ',')
			return fail(b, PL_EPARSE, NULL, "the trip count of loop '%.*s' must be an "
			            "integer >= 0", (int)nlen, p);
		bool found = false;
		for (size_t i = 0; i < cg->nloops; i++)
			if (strlen(cg->loops[i].name) == nlen &&
			    !memcmp(cg->loops[i].name, p, nlen)) {
				cg->loops[i].trips = n;
				cg->loops[i].src = PL_TRIP_GIVEN;
				found = true;
			}
		if (!found)
			return fail(b, PL_ENOTFOUND, NULL, "no loop is named '%.*s'", (int)nlen, p);
		p = q;
	}
	return PL_OK;
}

/* ---- execution counts ---- */

/* The functions the entry reaches, callers before callees, into order. */
static int order_from_entry(struct build *b, size_t *order, size_t *norder)
{
	pl_callgraph *cg = b->cg;
	int rc = PL_OK;
	/* per function: the first of its sites (sites are in caller order) */
	size_t *first = calloc(cg->nfns + 1, sizeof *first);
	unsigned char *state = calloc(cg->nfns ? cg->nfns : 1, 1); /* 0 new, 1 open, 2 done */
	struct frame {
		size_t f, next;
	} *stack = malloc((cg->nfns ? cg->nfns : 1) * sizeof *stack);
	if (!first || !state || !stack) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t s = 0; s < cg->nsites; s++)
		first[cg->sites[s].caller + 1]++;
	for (size_t f = 0; f < cg->nfns; f++)
		first[f + 1] += first[f];
	size_t depth = 0, n = 0;
	stack[depth++] = (struct frame){(size_t)cg->entry, first[cg->entry]};
	state[cg->entry] = 1;
	while (depth) {
		struct frame *top = &stack[depth - 1];
		if (top->next == first[top->f + 1]) {
			state[top->f] = 2;
			order[n++] = top->f; /* postorder */
			depth--;
			continue;
		}
		const struct site *s = &cg->sites[top->next++];
		if (state[s->callee] == 1) {
			rc = fail(b, PL_EINVAL, s->inst, "@%s calls itself (through %s in @%s)",
			          pl_func_name(cg->fns[s->callee].f), pl_inst_opname(s->inst),
			          pl_func_name(cg->fns[s->caller].f));
			goto out;
		}
		if (state[s->callee] == 0) {
			state[s->callee] = 1;
			stack[depth++] = (struct frame){s->callee, first[s->callee]};
		}
	}
	/* reversed: callers first */
	for (size_t i = 0; i < n / 2; i++) {
		size_t t = order[i];
		order[i] = order[n - 1 - i];
		order[n - 1 - i] = t;
	}
	*norder = n;
out:
	free(first);
	free(state);
	free(stack);
	return rc;
}

static void add_exec(struct fn *to, const struct fn *from, pl_u128 times)
{
	pl_u128 add;
	if (from->overflow || __builtin_mul_overflow(from->exec, times, &add) ||
	    __builtin_add_overflow(to->exec, add, &to->exec)) {
		to->overflow = true;
		to->exec = ~(pl_u128)0;
	}
}

static int count_executions(struct build *b)
{
	pl_callgraph *cg = b->cg;
	if (cg->entry < 0) {
		for (size_t f = 0; f < cg->nfns; f++)
			cg->fns[f].exec = 1;
		return PL_OK;
	}
	size_t *order = malloc((cg->nfns ? cg->nfns : 1) * sizeof *order), n = 0;
	if (!order)
		return PL_ENOMEM;
	int rc = order_from_entry(b, order, &n);
	if (rc == PL_OK) {
		cg->fns[cg->entry].exec = 1;
		/* sites by caller: the sites of one function are consecutive */
		size_t *first = calloc(cg->nfns + 1, sizeof *first);
		if (!first) {
			free(order);
			return PL_ENOMEM;
		}
		for (size_t s = 0; s < cg->nsites; s++)
			first[cg->sites[s].caller + 1]++;
		for (size_t f = 0; f < cg->nfns; f++)
			first[f + 1] += first[f];
		for (size_t i = 0; i < n; i++) {
			size_t f = order[i];
			for (size_t s = first[f]; s < first[f + 1]; s++) {
				const struct site *st = &cg->sites[s];
				pl_u128 times = 1;
				if (st->kind == PL_CALL_LOOP_BODY)
					times = cg->loops[st->loop].trips;
				else if (st->kind == PL_CALL_LOOP_COND)
					times = (pl_u128)cg->loops[st->loop].trips + 1;
				add_exec(&cg->fns[st->callee], &cg->fns[f], times);
			}
		}
		free(first);
	}
	free(order);
	return rc;
}

/* ---- building ---- */

static int build(struct build *b, const char *trip_counts)
{
	pl_callgraph *cg = b->cg;
	const pl_module *m = cg->m;
	cg->nfns = pl_module_num_funcs(m);
	cg->fns = calloc(cg->nfns ? cg->nfns : 1, sizeof *cg->fns);
	cg->fn_index = malloc((cg->nfns ? cg->nfns : 1) * sizeof *cg->fn_index);
	if (!cg->fns || !cg->fn_index)
		return PL_ENOMEM;
	cg->entry = -1;
	for (size_t f = 0; f < cg->nfns; f++) {
		pl_func *fn = pl_module_func_at(m, f);
		cg->fns[f].f = fn;
		cg->fn_index[f] = (struct by_addr){fn, f};
		if (pl_func_is_entry(fn)) {
			if (cg->entry >= 0)
				return fail(b, PL_EINVAL, NULL, "@%s and @%s are both marked entry",
				            pl_func_name(cg->fns[cg->entry].f), pl_func_name(fn));
			cg->entry = (long)f;
		}
	}
	qsort(cg->fn_index, cg->nfns, sizeof *cg->fn_index, cmp_addr);
	call_ids_number(m, &b->ids);
	int rc = PL_OK;
	/* without those keys only a while makes something of an instruction
	 * (a loop without a body): a module with neither (every .pir module
	 * not read from HLO) has no call sites to read */
	bool sites = b->ids.any_key || b->ids.op_while;
	for (size_t f = 0; sites && f < cg->nfns && rc == PL_OK; f++)
		for (const pl_inst *inst = cg->fns[f].f->first; inst && rc == PL_OK;
		     inst = pl_inst_next_(inst))
			rc = read_sites(b, inst, f);
	for (size_t i = 0; i < cg->nloops && rc == PL_OK; i++) {
		struct loop *l = &cg->loops[i];
		if (!(l->name = loop_name(l->inst)))
			return PL_ENOMEM;
		if (known_trip_count(l->inst, &l->trips))
			l->src = PL_TRIP_KNOWN;
		else if (counted_loop(cg, i, &l->trips))
			l->src = PL_TRIP_COUNTED;
	}
	if (rc == PL_OK && trip_counts)
		rc = give_trips(b, trip_counts);
	/* the callers of each function, in module order */
	for (size_t s = 0; s < cg->nsites && rc == PL_OK; s++) {
		struct fn *c = &cg->fns[cg->sites[s].callee];
		if (!PL_GROW(c->callers, c->callers_cap, c->ncallers + 1))
			return PL_ENOMEM;
		c->callers[c->ncallers++] = s;
	}
	if (rc == PL_OK)
		rc = count_executions(b);
	return rc;
}

int pl_callgraph_new(pl_callgraph **out, const pl_module *m, const char *trip_counts,
                     const pl_inst **at, char *err, size_t errlen)
{
	if (at)
		*at = NULL;
	if (err && errlen)
		err[0] = '\0';
	*out = NULL;
	pl_callgraph *cg = calloc(1, sizeof *cg);
	if (!cg)
		return PL_ENOMEM;
	cg->m = m;
	struct build b = {.cg = cg, .at = at, .err = err, .errlen = errlen};
	int rc = build(&b, trip_counts);
	if (rc == PL_ENOMEM)
		fail(&b, rc, NULL, "out of memory");
	if (rc) {
		pl_callgraph_free(cg);
		return rc;
	}
	*out = cg;
	return PL_OK;
}

void pl_callgraph_free(pl_callgraph *cg)
{
	if (!cg)
		return;
	for (size_t f = 0; cg->fns && f < cg->nfns; f++)
		free(cg->fns[f].callers);
	for (size_t i = 0; i < cg->nloops; i++)
		free(cg->loops[i].name);
	free(cg->fns);
	free(cg->fn_index);
	free(cg->sites);
	free(cg->loops);
	free(cg);
}

/* ---- queries ---- */

const pl_func *pl_callgraph_entry(const pl_callgraph *cg)
{
	return cg->entry >= 0 ? cg->fns[cg->entry].f : NULL;
}

int pl_callgraph_executions(const pl_callgraph *cg, const pl_func *f, uint64_t *hi,
                            uint64_t *lo)
{
	long i = fn_index(cg, f);
	if (i < 0)
		return PL_ENOTFOUND;
	*hi = (uint64_t)(cg->fns[i].exec >> 64);
	*lo = (uint64_t)cg->fns[i].exec;
	return cg->fns[i].overflow ? PL_EOVERFLOW : PL_OK;
}

size_t pl_callgraph_num_sites(const pl_callgraph *cg) { return cg->nsites; }

const pl_inst *pl_callgraph_site_inst(const pl_callgraph *cg, size_t i)
{
	return i < cg->nsites ? cg->sites[i].inst : NULL;
}

const pl_func *pl_callgraph_site_callee(const pl_callgraph *cg, size_t i)
{
	return i < cg->nsites ? cg->fns[cg->sites[i].callee].f : NULL;
}

pl_call_kind pl_callgraph_site_kind(const pl_callgraph *cg, size_t i)
{
	return i < cg->nsites ? cg->sites[i].kind : (pl_call_kind)0;
}

size_t pl_callgraph_num_callers(const pl_callgraph *cg, const pl_func *f)
{
	long i = fn_index(cg, f);
	return i < 0 ? 0 : cg->fns[i].ncallers;
}

size_t pl_callgraph_caller(const pl_callgraph *cg, const pl_func *f, size_t k)
{
	long i = fn_index(cg, f);
	return i < 0 || k >= cg->fns[i].ncallers ? SIZE_MAX : cg->fns[i].callers[k];
}

size_t pl_callgraph_num_loops(const pl_callgraph *cg) { return cg->nloops; }

const pl_inst *pl_callgraph_loop(const pl_callgraph *cg, size_t i)
{
	return i < cg->nloops ? cg->loops[i].inst : NULL;
}

uint64_t pl_callgraph_loop_trips(const pl_callgraph *cg, size_t i)
{
	return i < cg->nloops ? cg->loops[i].trips : 0;
}

pl_trip_source pl_callgraph_loop_source(const pl_callgraph *cg, size_t i)
{
	return i < cg->nloops ? cg->loops[i].src : (pl_trip_source)0;
}

const char *pl_callgraph_loop_name(const pl_callgraph *cg, size_t i)
{
	return i < cg->nloops ? cg->loops[i].name : NULL;
}

/* Where each function's sites begin, in function order (CSR: the sites
 * of f are first[f] .. first[f + 1] - 1, in instruction order), or NULL. */
static size_t *sites_by_caller(const pl_callgraph *cg)
{
	size_t *first = calloc(cg->nfns + 1, sizeof *first);
	if (!first)
		return NULL;
	for (size_t s = 0; s < cg->nsites; s++)
		first[cg->sites[s].caller + 1]++;
	for (size_t i = 0; i < cg->nfns; i++)
		first[i + 1] += first[i];
	return first;
}

/* ---- the time of a step ---- */

struct step {
	const pl_callgraph *cg;
	const pl_cost_model *cm;
	uint64_t *time;     /* per function, once known */
	unsigned char *done;
	size_t *site_first; /* per function: its first site (CSR by caller) */
	size_t cursor, end; /* the next and the end of the sites of the function
	                     * being simulated */
	/* with the fusion model: which functions it costs, and the model of
	 * the function being simulated (NULL: op by op) with the index of the
	 * instruction the walk is at */
	pl_fusion_mode mode;
	bool hlo;
	uint64_t floor_ns;
	const pl_fusion *fu;
	size_t index;
};

/* An existing fusion instruction is one kernel: with the fusion model it
 * takes its own time, not that of its body op by op. */
static bool own_time(const struct step *st, const pl_inst *inst)
{
	return st->mode != PL_FUSION_OFF && op_is(inst, PL_HLO_FUSION);
}


/* The time of inst when it calls something (*handled), from its sites. */
static int call_time(const pl_inst *inst, void *arg, uint64_t *t, bool *handled)
{
	struct step *st = arg;
	const pl_callgraph *cg = st->cg;
	uint64_t total = 0, branch_max = 0;
	bool any = false, branches = false;
	if (own_time(st, inst)) {
		while (st->cursor < st->end && cg->sites[st->cursor].inst == inst)
			st->cursor++;
		return PL_OK;
	}
	/* the simulation walks the instructions in order, and the sites of
	 * one function are consecutive and in instruction order */
	for (; st->cursor < st->end && cg->sites[st->cursor].inst == inst; st->cursor++) {
		const struct site *site = &cg->sites[st->cursor];
		any = true;
		uint64_t ct = st->time[site->callee], x;
		uint64_t times = 1;
		bool big = false;
		if (site->kind == PL_CALL_LOOP_BODY)
			times = cg->loops[site->loop].trips;
		else if (site->kind == PL_CALL_LOOP_COND)
			big = __builtin_add_overflow(cg->loops[site->loop].trips, 1, &times);
		if (site->kind == PL_CALL_BRANCH) {
			branches = true;
			if (ct > branch_max)
				branch_max = ct;
			continue;
		}
		if (big || __builtin_mul_overflow(ct, times, &x) ||
		    __builtin_add_overflow(total, x, &total))
			return PL_EOVERFLOW;
	}
	*handled = any;
	if (any && (!branches || !__builtin_add_overflow(total, branch_max, &total)))
		*t = total;
	else if (any)
		return PL_EOVERFLOW;
	return PL_OK;
}

/* The time of inst in a step: what it calls, else under the fusion model
 * the time of the kernels that end at it (collectives keep theirs), else
 * its own. */
static int step_time(const pl_inst *inst, void *arg, uint64_t *t, bool *handled)
{
	struct step *st = arg;
	size_t i = st->index++;
	int rc = call_time(inst, arg, t, handled);
	enum pl_coll_kind kind;
	if (rc == PL_OK && !*handled && st->fu && pl_comm_role_(inst, &kind) == PL_COMM_NONE) {
		*t = pl_fusion_inst_time_(st->fu, i);
		*handled = true;
	}
	return rc;
}

static int simulate_one(struct step *st, size_t f, pl_schedule **rows);

static int step_of(struct step *st, size_t f, int depth)
{
	const pl_callgraph *cg = st->cg;
	if (st->done[f] == 2)
		return PL_OK;
	if (st->done[f] == 1 || depth > 10000)
		return PL_EINVAL; /* f calls itself */
	st->done[f] = 1;
	for (size_t s = st->site_first[f]; s < st->site_first[f + 1]; s++) {
		if (own_time(st, cg->sites[s].inst))
			continue;
		int rc = step_of(st, cg->sites[s].callee, depth + 1);
		if (rc)
			return rc;
	}
	int rc = simulate_one(st, f, NULL);
	if (rc == PL_OK)
		st->done[f] = 2;
	return rc;
}

/* Function f simulated with its callees' times known: its time in
 * st->time[f], and with rows its schedule too. */
static int simulate_one(struct step *st, size_t f, pl_schedule **rows)
{
	const pl_func *fn = st->cg->fns[f].f;
	pl_fusion *fu = NULL;
	int rc = PL_OK;
	if (st->mode == PL_FUSION_ON ||
	    (st->mode == PL_FUSION_AUTO && st->hlo && !pl_func_has_fusion(fn)))
		rc = pl_fusion_new(&fu, fn, st->cm, st->floor_ns);
	st->cursor = st->site_first[f];
	st->end = st->site_first[f + 1];
	st->fu = fu;
	st->index = 0;
	if (rc == PL_OK && rows) {
		rc = pl_schedule_new_hooked_(rows, fn, st->cm, step_time, st);
		if (rc == PL_OK)
			st->time[f] = pl_schedule_makespan_ns(*rows);
	} else if (rc == PL_OK) {
		rc = pl_schedule_makespan_hooked_(fn, st->cm, step_time, st, &st->time[f]);
	}
	pl_fusion_free(fu);
	st->fu = NULL;
	return rc;
}

/* The callees' times of f, then f simulated with them: its time (out) or
 * its schedule (rows), each function costed as mode says. */
static int step_run(const pl_callgraph *cg, const pl_func *f, const pl_cost_model *cm,
                    pl_fusion_mode mode, uint64_t floor_ns, uint64_t *out, pl_schedule **rows)
{
	long fi = fn_index(cg, f);
	if (fi < 0)
		return PL_ENOTFOUND;
	if ((unsigned)mode > PL_FUSION_AUTO)
		return PL_EINVAL;
	bool hlo = false;
	if (cg->entry >= 0)
		pl_attrs_get_bool(&cg->fns[cg->entry].f->attrs, HK(ENTRY), &hlo);
	struct step st = {.cg = cg, .cm = cm, .mode = mode, .hlo = hlo, .floor_ns = floor_ns};
	int rc = PL_ENOMEM;
	st.time = calloc(cg->nfns, sizeof *st.time);
	st.done = calloc(cg->nfns, 1);
	st.site_first = sites_by_caller(cg);
	if (st.time && st.done && st.site_first) {
		rc = step_of(&st, (size_t)fi, 0);
		if (rc == PL_OK && rows) /* the callees are done: f once more, with rows */
			rc = simulate_one(&st, (size_t)fi, rows);
		if (rc == PL_OK && out)
			*out = st.time[fi];
	}
	free(st.time);
	free(st.done);
	free(st.site_first);
	return rc;
}

int pl_callgraph_step_ns(const pl_callgraph *cg, const pl_func *f, const pl_cost_model *cm,
                         uint64_t *out)
{
	return step_run(cg, f, cm, PL_FUSION_OFF, 0, out, NULL);
}

int pl_callgraph_step_fused_ns(const pl_callgraph *cg, const pl_func *f,
                               const pl_cost_model *cm, pl_fusion_mode mode, uint64_t floor_ns,
                               uint64_t *out)
{
	return step_run(cg, f, cm, mode, floor_ns, out, NULL);
}

int pl_callgraph_schedule_new(pl_schedule **out, const pl_callgraph *cg, const pl_func *f,
                              const pl_cost_model *cm, pl_fusion_mode mode, uint64_t floor_ns)
{
	*out = NULL;
	return step_run(cg, f, cm, mode, floor_ns, NULL, out);
}

const pl_module *pl_callgraph_module_(const pl_callgraph *cg)
{
	return cg->m;
}
