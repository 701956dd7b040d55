/* SPDX-License-Identifier: MIT */
/* sdk/analysis/schedule.c — the simulation of one function's schedule: a compute
 * clock and one stream clock per process group (passline/cost.h).
 *
 * One walk over the function. Two small hash maps keep it linear: group
 * names to stream indices (by content: after a module append equal names
 * may live at two addresses) and starts to the time they end (a done
 * finds its start through its operand's defining instruction). The rows,
 * one per instruction, are only written: a schedule of totals has none.
 */
#include "analysis/schedule.h"
#include "ir/internal.h"
#include "analysis/cost_model.h"
#include <passline/grow.h>
#include "analysis/fusion.h"

#include <math.h>
#include <stdlib.h>

struct row {
	const pl_inst *inst;
	uint64_t begin, end, exposed;
	size_t lane;
};

struct group {
	const char *name; /* the module's bytes while simulating; then s->names */
	size_t len;
	uint64_t clock;
	uint64_t busy; /* the times of its collectives that are waited for */
};

struct pl_schedule {
	struct row *rows; /* NULL for totals only */
	size_t n;         /* rows */
	struct group *groups;
	size_t ngroups;
	char *names; /* every group name, NUL-terminated, one after another */
	uint64_t makespan, compute, comm, exposed;
};

/* The maps below are the one hash table (hash_table.h): an item is a row
 * or group index + 1, the context the array it indexes. */

/* ---- groups by name ---- */

struct name_probe {
	const char *name;
	size_t len;
};

static bool group_named(const void *item, const void *probe, const void *ctx)
{
	const struct group *g = &((const struct group *)ctx)[(uintptr_t)item - 1];
	const struct name_probe *n = probe;
	return g->len == n->len && memcmp(g->name, n->name, n->len) == 0;
}

/* The stream of the group named s (len bytes), made on first sight. */
static int group_of(pl_schedule *s, struct pl_ht *m, size_t *cap, const char *name,
                    size_t len, size_t *out)
{
	if (!pl_ht_reserve(m))
		return PL_ENOMEM;
	struct name_probe probe = {name, len};
	uint32_t hash = (uint32_t)pl_hash_bytes_(name, len);
	size_t j = pl_ht_find(m, hash, group_named, &probe, s->groups);
	if (pl_ht_used(m, j)) {
		*out = (uintptr_t)m->slots[j].item - 1;
		return PL_OK;
	}
	if (!PL_GROW(s->groups, *cap, s->ngroups + 1))
		return PL_ENOMEM;
	s->groups[s->ngroups] = (struct group){name, len, 0, 0};
	pl_ht_put(m, j, hash, (const void *)(uintptr_t)++s->ngroups);
	*out = s->ngroups - 1;
	return PL_OK;
}

/* Copies the names out of the module, so they live as long as s. */
static int keep_names(pl_schedule *s)
{
	size_t total = 0;
	for (size_t g = 0; g < s->ngroups; g++)
		total += s->groups[g].len + 1;
	s->names = malloc(total ? total : 1);
	if (!s->names)
		return PL_ENOMEM;
	char *p = s->names;
	for (size_t g = 0; g < s->ngroups; g++) {
		memcpy(p, s->groups[g].name, s->groups[g].len);
		p[s->groups[g].len] = '\0';
		s->groups[g].name = p;
		p += s->groups[g].len + 1;
	}
	return PL_OK;
}

/* ---- starts by instruction ---- */

struct started {
	const pl_inst *inst;
	uint64_t end;
	size_t group;
	uint64_t time; /* counted in its group's busy time when waited for */
};

struct starts {
	struct pl_ht map; /* items: an index into v + 1 */
	struct started *v;
	size_t n, cap;
};

static bool start_is(const void *item, const void *probe, const void *ctx)
{
	return ((const struct started *)ctx)[(uintptr_t)item - 1].inst == probe;
}

static int add_start(struct starts *st, const pl_inst *inst, uint64_t end, size_t group,
                     uint64_t time)
{
	if (!PL_GROW(st->v, st->cap, st->n + 1))
		return PL_ENOMEM;
	if (!pl_ht_reserve(&st->map))
		return PL_ENOMEM;
	st->v[st->n] = (struct started){inst, end, group, time};
	uint32_t hash = pl_ht_hash_ptr(inst);
	size_t j = pl_ht_find(&st->map, hash, start_is, inst, st->v);
	pl_ht_put(&st->map, j, hash, (const void *)(uintptr_t)++st->n);
	return PL_OK;
}

/* The start whose result done takes, or NULL. */
static struct started *start_of(const struct starts *st, const pl_inst *done)
{
	if (!done->nops)
		return NULL;
	const pl_inst *start = pl_value_def_(pl_use_val_(&pl_inst_ops_(done)[0]));
	if (!start)
		return NULL;
	const void *k = pl_ht_get(&st->map, pl_ht_hash_ptr(start), start_is, start, st->v);
	return k ? &st->v[(uintptr_t)k - 1] : NULL;
}

/* ---- the walk ---- */

static bool add_u64(uint64_t *acc, uint64_t v)
{
	return !__builtin_add_overflow(*acc, v, acc);
}

/* The time compute of nominal time t takes from c when collectives are in
 * flight until busy: they hold a share `slow` of the device, so work runs
 * at 1 - slow until busy, at full speed after. */
static uint64_t slowed_time(uint64_t t, uint64_t c, uint64_t busy, double slow)
{
	if (!(slow > 0) || busy <= c || t == 0)
		return t;
	double rate = slow < 1 ? 1 - slow : 1e-9;
	double window = (double)(busy - c), done = window * rate, d;
	if ((double)t <= done)
		d = (double)t / rate;
	else
		d = window + ((double)t - done);
	d = ceil(d);
	return d < 18446744073709551615.0 && d > (double)t ? (uint64_t)d : t;
}

static int simulate(pl_schedule *s, const pl_func *f, const pl_cost_model *cm,
                    pl_time_hook_ hook, void *arg)
{
	/* collectives in flight slow compute (a cost model, not the exact one) */
	double slow = cm && !cm->legacy ? cm->v[CK_OVERLAP] : 0;
	uint64_t busy = 0; /* the latest end of any stream */
	struct pl_ht groups = {0};
	struct starts starts = {0};
	size_t groups_cap = 0;
	uint64_t c = 0;
	int rc = PL_OK;
	size_t i = 0;
	/* 0 when no instruction has one: then none is found */
	uint32_t group_key = pl_key_number_find_(f->m, "group_id");
	for (const pl_inst *inst = f->first; inst && rc == PL_OK; inst = pl_inst_next_(inst), i++) {
		struct row r = {.inst = inst};
		uint64_t t;
		bool handled = false;
		enum pl_coll_kind kind = PL_CK_ALL_REDUCE;
		enum pl_comm_role role = pl_comm_role_(inst, &kind);
		if ((hook && (rc = hook(inst, arg, &t, &handled))) ||
		    (!handled && (rc = pl_inst_time_role_ns_(inst, cm, role, kind, &t))))
			break;
		if (role == PL_COMM_DONE) {
			struct started *start = start_of(&starts, inst);
			if (!start) {
				rc = PL_EINVAL;
				break;
			}
			s->groups[start->group].busy += start->time; /* at most comm */
			start->time = 0;
			r.begin = c;
			r.end = start->end > c ? start->end : c;
			r.exposed = r.end - c;
			c = r.end;
			if (!add_u64(&s->exposed, r.exposed))
				rc = PL_EOVERFLOW;
		} else if (role == PL_COMM_SYNC || role == PL_COMM_START) {
			const char *name = "";
			size_t len = 0, g;
			const pl_attr *a = group_key ? pl_attrs_find_id_(&inst->attrs, group_key) : NULL;
			if (a && a->kind != PL_ATTR_STRING) {
				rc = PL_ETYPE; /* as pl_attrs_get_string says */
				break;
			}
			if (a) {
				name = pl_attr_s_(a);
				len = pl_attr_len_(a);
			}
			if ((rc = group_of(s, &groups, &groups_cap, name, len, &g)))
				break;
			uint64_t *clock = &s->groups[g].clock;
			r.lane = g + 1;
			r.begin = *clock > c ? *clock : c;
			r.end = r.begin;
			if (!add_u64(&r.end, t) || !add_u64(&s->comm, t)) {
				rc = PL_EOVERFLOW;
				break;
			}
			*clock = r.end;
			if (r.end > busy)
				busy = r.end;
			if (role == PL_COMM_START) {
				rc = add_start(&starts, inst, r.end, g, t);
			} else {
				s->groups[g].busy += t; /* at most comm: cannot wrap */
				r.exposed = r.end - c;
				c = r.end;
				if (!add_u64(&s->exposed, r.exposed))
					rc = PL_EOVERFLOW;
			}
		} else {
			/* compute; return takes 0 */
			uint64_t d = slowed_time(t, c, busy, slow);
			r.begin = c;
			r.end = c;
			if (!add_u64(&r.end, d) || !add_u64(&s->compute, d))
				rc = PL_EOVERFLOW;
			c = r.end;
		}
		if (s->rows && i < s->n)
			s->rows[i] = r;
	}
	pl_ht_free(&groups);
	pl_ht_free(&starts.map);
	free(starts.v);
	if (rc)
		return rc;
	s->makespan = c;
	for (size_t g = 0; g < s->ngroups; g++)
		if (s->groups[g].clock > s->makespan)
			s->makespan = s->groups[g].clock;
	return keep_names(s);
}

/* The fusion model's times, through the walk's hook: the walk asks for
 * every instruction in order, so the hook counts them to find each one's
 * index in the model; collectives keep the cost model's times. */
struct fused_walk {
	const pl_fusion *fu;
	size_t i;
};

static int fused_time(const pl_inst *inst, void *arg, uint64_t *t, bool *handled)
{
	struct fused_walk *w = arg;
	enum pl_coll_kind kind;
	if (pl_comm_role_(inst, &kind) == PL_COMM_NONE) {
		*t = pl_fusion_inst_time_(w->fu, w->i);
		*handled = true;
	}
	w->i++;
	return PL_OK;
}

/* A schedule of f, with rows or totals only, times from hook first. */
static int schedule_alloc(pl_schedule **out, const pl_func *f, const pl_cost_model *cm,
                          bool rows, pl_time_hook_ hook, void *arg)
{
	pl_schedule *s = calloc(1, sizeof *s);
	if (!s)
		return PL_ENOMEM;
	if (rows) {
		s->n = f->ninsts;
		s->rows = calloc(s->n ? s->n : 1, sizeof *s->rows);
		if (!s->rows) {
			free(s);
			return PL_ENOMEM;
		}
	}
	int rc = simulate(s, f, cm, hook, arg);
	if (rc) {
		pl_schedule_free(s);
		return rc;
	}
	*out = s;
	return PL_OK;
}

static int schedule_new(pl_schedule **out, const pl_func *f, const pl_cost_model *cm,
                        bool rows, const pl_fusion *fu)
{
	if (fu && pl_fusion_func_(fu) != f)
		return PL_EINVAL;
	if (!fu)
		return schedule_alloc(out, f, cm, rows, NULL, NULL);
	return schedule_alloc(out, f, cm, rows, fused_time, &(struct fused_walk){fu, 0});
}

int pl_schedule_new_hooked_(pl_schedule **out, const pl_func *f, const pl_cost_model *cm,
                            pl_time_hook_ hook, void *arg)
{
	return schedule_alloc(out, f, cm, true, hook, arg);
}

int pl_schedule_new(pl_schedule **out, const pl_func *f, const pl_cost_model *cm)
{
	return schedule_new(out, f, cm, true, NULL);
}

int pl_schedule_new_totals(pl_schedule **out, const pl_func *f, const pl_cost_model *cm)
{
	return schedule_new(out, f, cm, false, NULL);
}

int pl_schedule_new_fused(pl_schedule **out, const pl_func *f, const pl_cost_model *cm,
                          const pl_fusion *fu)
{
	return schedule_new(out, f, cm, true, fu);
}

int pl_schedule_new_fused_totals(pl_schedule **out, const pl_func *f, const pl_cost_model *cm,
                                 const pl_fusion *fu)
{
	return schedule_new(out, f, cm, false, fu);
}

int pl_schedule_makespan_hooked_(const pl_func *f, const pl_cost_model *cm,
                                 pl_time_hook_ hook, void *arg, uint64_t *out)
{
	pl_schedule *s = calloc(1, sizeof *s);
	if (!s)
		return PL_ENOMEM;
	int rc = simulate(s, f, cm, hook, arg);
	if (rc == PL_OK)
		*out = s->makespan;
	pl_schedule_free(s);
	return rc;
}

void pl_schedule_free(pl_schedule *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s->groups);
	free(s->names);
	free(s);
}

uint64_t pl_schedule_makespan_ns(const pl_schedule *s) { return s->makespan; }
uint64_t pl_schedule_compute_ns(const pl_schedule *s) { return s->compute; }
uint64_t pl_schedule_comm_ns(const pl_schedule *s) { return s->comm; }
uint64_t pl_schedule_exposed_ns(const pl_schedule *s) { return s->exposed; }
size_t pl_schedule_num_insts(const pl_schedule *s) { return s->n; }

const pl_inst *pl_schedule_inst(const pl_schedule *s, size_t i)
{
	return i < s->n ? s->rows[i].inst : NULL;
}

uint64_t pl_schedule_begin_ns(const pl_schedule *s, size_t i)
{
	return i < s->n ? s->rows[i].begin : 0;
}

uint64_t pl_schedule_end_ns(const pl_schedule *s, size_t i)
{
	return i < s->n ? s->rows[i].end : 0;
}

uint64_t pl_schedule_inst_exposed_ns(const pl_schedule *s, size_t i)
{
	return i < s->n ? s->rows[i].exposed : 0;
}

size_t pl_schedule_lane(const pl_schedule *s, size_t i)
{
	return i < s->n ? s->rows[i].lane : 0;
}

size_t pl_schedule_num_groups(const pl_schedule *s) { return s->ngroups; }

uint64_t pl_schedule_group_comm_ns(const pl_schedule *s, size_t g)
{
	return g < s->ngroups ? s->groups[g].busy : 0;
}

uint64_t pl_schedule_exposed_floor_ns(const pl_schedule *s)
{
	uint64_t most = 0;
	for (size_t g = 0; g < s->ngroups; g++)
		if (s->groups[g].busy > most)
			most = s->groups[g].busy;
	return most > s->compute ? most - s->compute : 0;
}

const char *pl_schedule_group_name(const pl_schedule *s, size_t g)
{
	return g < s->ngroups ? s->groups[g].name : NULL;
}
