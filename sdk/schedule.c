/* SPDX-License-Identifier: MIT */
/* sdk/schedule.c — the simulation of one function's schedule: a compute
 * clock and one stream clock per process group (passline/cost.h).
 *
 * One walk over the function. Two small hash maps keep it linear: group
 * names to stream indices (by content: after a module append equal names
 * may live at two addresses) and starts to their rows (a done finds its
 * start through its operand's defining instruction).
 */
#include "internal.h"

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
};

struct pl_schedule {
	struct row *rows;
	size_t n;
	struct group *groups;
	size_t ngroups;
	char *names; /* every group name, NUL-terminated, one after another */
	uint64_t makespan, compute, comm, exposed;
};

/* Open addressing, linear probing, at most half full; a slot holds an
 * index + 1 (0: empty). */
struct index_map {
	size_t *slots;
	size_t cap;
	size_t count;
};

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static bool map_reserve(struct index_map *m, size_t (*hash)(const void *, size_t),
                        const void *ctx)
{
	if ((m->count + 1) * 2 <= m->cap)
		return true;
	size_t cap = m->cap ? m->cap * 2 : 16;
	size_t *v = calloc(cap, sizeof *v);
	if (!v)
		return false;
	for (size_t k = 0; k < m->cap; k++) {
		if (!m->slots[k])
			continue;
		size_t j = hash(ctx, m->slots[k] - 1) & (cap - 1);
		while (v[j])
			j = (j + 1) & (cap - 1);
		v[j] = m->slots[k];
	}
	free(m->slots);
	m->slots = v;
	m->cap = cap;
	return true;
}

/* ---- groups by name ---- */

static size_t group_hash_of(const char *s, size_t len)
{
	return (size_t)mix64(pl_hash_bytes_(s, len));
}

static size_t group_hash(const void *ctx, size_t g)
{
	const struct group *groups = ctx;
	return group_hash_of(groups[g].name, groups[g].len);
}

/* The stream of the group named s (len bytes), made on first sight. */
static int group_of(pl_schedule *s, struct index_map *m, size_t *cap, const char *name,
                    size_t len, size_t *out)
{
	if (!map_reserve(m, group_hash, s->groups))
		return PL_ENOMEM;
	size_t j = group_hash_of(name, len) & (m->cap - 1);
	for (; m->slots[j]; j = (j + 1) & (m->cap - 1)) {
		const struct group *g = &s->groups[m->slots[j] - 1];
		if (g->len == len && memcmp(g->name, name, len) == 0) {
			*out = m->slots[j] - 1;
			return PL_OK;
		}
	}
	if (s->ngroups == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		struct group *v = realloc(s->groups, c * sizeof *v);
		if (!v)
			return PL_ENOMEM;
		s->groups = v;
		*cap = c;
	}
	s->groups[s->ngroups] = (struct group){name, len, 0};
	m->slots[j] = ++s->ngroups;
	m->count++;
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

static size_t start_hash_of(const pl_inst *inst)
{
	return (size_t)mix64((uint64_t)(uintptr_t)inst);
}

static size_t start_hash(const void *ctx, size_t row)
{
	const struct row *rows = ctx;
	return start_hash_of(rows[row].inst);
}

static int add_start(pl_schedule *s, struct index_map *m, size_t row)
{
	if (!map_reserve(m, start_hash, s->rows))
		return PL_ENOMEM;
	size_t j = start_hash_of(s->rows[row].inst) & (m->cap - 1);
	while (m->slots[j])
		j = (j + 1) & (m->cap - 1);
	m->slots[j] = row + 1;
	m->count++;
	return PL_OK;
}

/* The row of the start whose result done takes, or NULL. */
static const struct row *start_of(const pl_schedule *s, const struct index_map *m,
                                  const pl_inst *done)
{
	if (!done->nops || !m->cap)
		return NULL;
	const pl_inst *start = pl_inst_ops_(done)[0].val->def;
	if (!start)
		return NULL;
	for (size_t j = start_hash_of(start) & (m->cap - 1); m->slots[j];
	     j = (j + 1) & (m->cap - 1))
		if (s->rows[m->slots[j] - 1].inst == start)
			return &s->rows[m->slots[j] - 1];
	return NULL;
}

/* ---- the walk ---- */

static bool add_u64(uint64_t *acc, uint64_t v)
{
	return !__builtin_add_overflow(*acc, v, acc);
}

static int simulate(pl_schedule *s, const pl_func *f, const pl_cost_model *cm)
{
	struct index_map groups = {0}, starts = {0};
	size_t groups_cap = 0;
	uint64_t c = 0;
	int rc = PL_OK;
	size_t i = 0;
	for (const pl_inst *inst = f->first; inst && i < s->n && rc == PL_OK;
	     inst = inst->next, i++) {
		struct row *r = &s->rows[i];
		r->inst = inst;
		uint64_t t;
		if ((rc = pl_inst_time_ns(inst, cm, &t)))
			break;
		unsigned traits = pl_op_traits((pl_op)inst->op);
		if (traits & PL_TRAIT_COLLECTIVE_DONE) {
			const struct row *start = start_of(s, &starts, inst);
			if (!start || !(pl_op_traits((pl_op)start->inst->op) &
			                PL_TRAIT_COLLECTIVE_START)) {
				rc = PL_EINVAL;
				break;
			}
			r->begin = c;
			r->end = start->end > c ? start->end : c;
			r->exposed = r->end - c;
			c = r->end;
			if (!add_u64(&s->exposed, r->exposed))
				rc = PL_EOVERFLOW;
		} else if (traits & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START)) {
			const char *name = "";
			size_t len = 0, g;
			rc = pl_attrs_get_string(&inst->attrs, "group_id", &name, &len);
			if (rc == PL_ENOTFOUND)
				rc = PL_OK;
			if (rc || (rc = group_of(s, &groups, &groups_cap, name, len, &g)))
				break;
			uint64_t *clock = &s->groups[g].clock;
			r->lane = g + 1;
			r->begin = *clock > c ? *clock : c;
			r->end = r->begin;
			if (!add_u64(&r->end, t) || !add_u64(&s->comm, t)) {
				rc = PL_EOVERFLOW;
				break;
			}
			*clock = r->end;
			if (traits & PL_TRAIT_COLLECTIVE_START) {
				rc = add_start(s, &starts, i);
			} else {
				r->exposed = r->end - c;
				c = r->end;
				if (!add_u64(&s->exposed, r->exposed))
					rc = PL_EOVERFLOW;
			}
		} else {
			/* compute; return takes 0 */
			r->begin = c;
			r->end = c;
			if (!add_u64(&r->end, t) || !add_u64(&s->compute, t))
				rc = PL_EOVERFLOW;
			c = r->end;
		}
	}
	free(groups.slots);
	free(starts.slots);
	if (rc)
		return rc;
	s->makespan = c;
	for (size_t g = 0; g < s->ngroups; g++)
		if (s->groups[g].clock > s->makespan)
			s->makespan = s->groups[g].clock;
	return keep_names(s);
}

int pl_schedule_new(pl_schedule **out, const pl_func *f, const pl_cost_model *cm)
{
	pl_schedule *s = calloc(1, sizeof *s);
	if (!s)
		return PL_ENOMEM;
	s->n = f->ninsts;
	s->rows = calloc(s->n ? s->n : 1, sizeof *s->rows);
	if (!s->rows) {
		free(s);
		return PL_ENOMEM;
	}
	int rc = simulate(s, f, cm);
	if (rc) {
		pl_schedule_free(s);
		return rc;
	}
	*out = s;
	return PL_OK;
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

const char *pl_schedule_group_name(const pl_schedule *s, size_t g)
{
	return g < s->ngroups ? s->groups[g].name : NULL;
}
