/* SPDX-License-Identifier: MIT */
/* tests/overlap-check.c — checks what OverlapBucketCCOp made of a module,
 * independently of the pass (tests/overlap.sh).
 *
 *   overlap-check IN.pir OUT.pir [KEY=VALUE]...
 *
 * KEY=VALUE set the cost model as the pass's run did. For every function
 * of IN and the same function of OUT it recomputes, the plain way, the
 * hiding nodes of each collective of IN (each compute instruction gives its
 * time to the collectives in flight, in the order of their starts), finds
 * which collectives of IN each start/done pair of OUT carries (by the names
 * of the done's results), and checks:
 *  - OUT verifies;
 *  - every hiding node of a bucketed collective lies strictly between its
 *    bucket's start and done;
 *  - no execution interval of OUT, in a process group, encloses a hiding
 *    interval of another collective of that group, unless some member of
 *    the one already enclosed a hiding interval of some member of the other
 *    in IN.
 * It prints "exposed_ns_before=N exposed_ns_after=M": the exposed time of
 * IN and OUT under pl_schedule, summed over functions. Exit 0 when all
 * holds, 1 with a message otherwise, 2 on bad input.
 */
#include <passline/passline.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct coll {
	const pl_inst *start, *done;
	size_t s, d;         /* instruction indices in IN */
	uint64_t left;       /* time not yet hidden, while walking */
	size_t *hide;        /* compute ordinals of its hiding nodes */
	size_t nhide;
	const char *group;   /* "" for none */
	size_t out;          /* the start/done pair of OUT that carries it */
};

struct pair {
	size_t s, d; /* instruction indices in OUT */
	size_t *members;
	size_t nmembers;
};

static int fail(const char *fn, const char *msg)
{
	fprintf(stderr, "overlap-check: @%s: %s\n", fn, msg);
	return 1;
}

static const char *group_of(const pl_inst *start)
{
	const char *g = NULL;
	size_t len = 0;
	if (pl_attrs_get_string(pl_inst_attrs_const(start), "group_id", &g, &len) != PL_OK)
		return "";
	return g;
}

static bool is_compute(const pl_inst *i)
{
	return !(pl_inst_traits(i) & (PL_TRAIT_COLLECTIVE | PL_TRAIT_COLLECTIVE_START |
	                              PL_TRAIT_COLLECTIVE_DONE | PL_TRAIT_TERMINATOR));
}

static const char *name0(const pl_inst *i)
{
	const char *n = pl_inst_num_results(i) ? pl_value_name(pl_inst_result(i, 0)) : NULL;
	return n ? n : "";
}

/* Hiding intervals (s, h) of c, in IN or (with out_idx) in OUT. */
static bool encloses(size_t es, size_t ed, size_t s, size_t h)
{
	return es < s && h < ed;
}

static int check_func(const char *fn, pl_func *in, pl_func *out, const pl_cost_model *cm)
{
	size_t n = pl_func_num_insts(in), nout = pl_func_num_insts(out);
	struct coll *c = calloc(n, sizeof *c);
	size_t *compute_in = calloc(n, sizeof *compute_in); /* ordinal -> index */
	size_t *compute_out = calloc(nout, sizeof *compute_out);
	struct pair *p = calloc(nout, sizeof *p);
	size_t nc = 0, ncomp = 0, np = 0, ncomp_out = 0;
	int rc = 0;
	if (!c || !compute_in || !compute_out || !p) {
		rc = fail(fn, "out of memory");
		goto out;
	}
	/* IN: collectives and hiding nodes, by the definition */
	size_t idx = 0;
	for (const pl_inst *i = pl_func_first_inst(in); i; i = pl_inst_next(i), idx++) {
		unsigned tr = pl_inst_traits(i);
		if (tr & PL_TRAIT_COLLECTIVE_START) {
			uint64_t t;
			if (pl_inst_time_ns(i, cm, &t) != PL_OK) {
				rc = fail(fn, "cannot time a start");
				goto out;
			}
			c[nc] = (struct coll){.start = i, .s = idx, .left = t, .group = group_of(i)};
			c[nc].hide = calloc(n, sizeof *c[nc].hide);
			if (!c[nc].hide) {
				rc = fail(fn, "out of memory");
				goto out;
			}
			nc++;
		} else if (tr & PL_TRAIT_COLLECTIVE_DONE) {
			const pl_inst *s = pl_value_def(pl_inst_operand(i, 0));
			for (size_t k = 0; k < nc; k++)
				if (c[k].start == s) {
					c[k].done = i;
					c[k].d = idx;
				}
		} else if (is_compute(i)) {
			uint64_t t;
			if (pl_inst_time_ns(i, cm, &t) != PL_OK) {
				rc = fail(fn, "cannot time compute");
				goto out;
			}
			for (size_t k = 0; k < nc && t > 0; k++) {
				if (c[k].done || !c[k].left)
					continue;
				uint64_t take = c[k].left < t ? c[k].left : t;
				c[k].left -= take;
				t -= take;
				c[k].hide[c[k].nhide++] = ncomp;
			}
			compute_in[ncomp++] = idx;
		}
	}
	/* OUT: start/done pairs and their members, compute by ordinal */
	idx = 0;
	for (const pl_inst *i = pl_func_first_inst(out); i; i = pl_inst_next(i), idx++) {
		unsigned tr = pl_inst_traits(i);
		if (is_compute(i)) {
			if (ncomp_out >= ncomp) {
				rc = fail(fn, "more compute in OUT than in IN");
				goto out;
			}
			compute_out[ncomp_out++] = idx;
			continue;
		}
		if (!(tr & PL_TRAIT_COLLECTIVE_DONE))
			continue;
		const pl_inst *s = pl_value_def(pl_inst_operand(i, 0));
		struct pair *x = &p[np];
		x->d = idx;
		x->members = calloc(pl_inst_num_results(i), sizeof *x->members);
		if (!x->members) {
			rc = fail(fn, "out of memory");
			goto out;
		}
		size_t sidx = 0;
		for (const pl_inst *j = pl_func_first_inst(out); j != s; j = pl_inst_next(j))
			sidx++;
		x->s = sidx;
		for (size_t r = 0; r < pl_inst_num_results(i); r++) {
			const char *nm = pl_value_name(pl_inst_result(i, r));
			for (size_t k = 0; k < nc && nm; k++)
				if (c[k].done && !strcmp(name0(c[k].done), nm)) {
					c[k].out = np;
					x->members[x->nmembers++] = k;
				}
		}
		np++;
	}
	if (ncomp_out != ncomp) {
		rc = fail(fn, "compute instructions differ between IN and OUT");
		goto out;
	}
	/* hiding nodes of bucketed collectives inside their bucket */
	for (size_t k = 0; k < nc; k++) {
		const struct pair *x = &p[c[k].out];
		for (size_t h = 0; h < c[k].nhide; h++) {
			size_t at = compute_out[c[k].hide[h]];
			if (!(x->s < at && at < x->d)) {
				char msg[200];
				snprintf(msg, sizeof msg, "hiding node %zu of %%%s is outside (%zu, %zu)", at,
				         name0(c[k].done), x->s, x->d);
				rc = fail(fn, msg);
				goto out;
			}
		}
	}
	/* no new enclosure of a hiding interval within a process group */
	for (size_t a = 0; a < np; a++)
		for (size_t b = 0; b < np; b++) {
			if (a == b || !p[a].nmembers || !p[b].nmembers)
				continue;
			const char *ga = c[p[a].members[0]].group, *gb = c[p[b].members[0]].group;
			if (!*ga || strcmp(ga, gb))
				continue;
			bool now = false, before = false;
			for (size_t m = 0; m < p[b].nmembers && !now; m++) {
				const struct coll *y = &c[p[b].members[m]];
				for (size_t h = 0; h < y->nhide && !now; h++)
					now = encloses(p[a].s, p[a].d, p[b].s, compute_out[y->hide[h]]);
			}
			if (!now)
				continue;
			for (size_t m = 0; m < p[a].nmembers && !before; m++)
				for (size_t q = 0; q < p[b].nmembers && !before; q++) {
					const struct coll *x = &c[p[a].members[m]], *y = &c[p[b].members[q]];
					for (size_t h = 0; h < y->nhide && !before; h++)
						before = encloses(x->s, x->d, y->s, compute_in[y->hide[h]]);
				}
			if (!before) {
				char msg[200];
				snprintf(msg, sizeof msg,
				         "(%zu, %zu) of %%%s encloses a hiding interval of %%%s starting at %zu",
				         p[a].s, p[a].d, name0(c[p[a].members[0]].done),
				         name0(c[p[b].members[0]].done), p[b].s);
				rc = fail(fn, msg);
				goto out;
			}
		}
out:
	for (size_t k = 0; k < nc; k++)
		free(c[k].hide);
	for (size_t k = 0; k < np; k++)
		free(p[k].members);
	free(c);
	free(compute_in);
	free(compute_out);
	free(p);
	return rc;
}

static int exposed(pl_module *m, const pl_cost_model *cm, uint64_t *sum)
{
	*sum = 0;
	for (size_t k = 0; k < pl_module_num_funcs(m); k++) {
		pl_schedule *s;
		if (pl_schedule_new(&s, pl_module_func_at(m, k), cm) != PL_OK)
			return 1;
		*sum += pl_schedule_exposed_ns(s);
		pl_schedule_free(s);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: overlap-check IN.pir OUT.pir [KEY=VALUE]...\n");
		return 2;
	}
	pl_cost_model *cm = pl_cost_model_new();
	pl_diags *diags = pl_diags_new();
	pl_module *in = NULL, *out = NULL;
	int rc = 2;
	if (!cm || !diags)
		goto done;
	for (int a = 3; a < argc; a++) {
		char key[64];
		const char *eq = strchr(argv[a], '=');
		if (!eq || (size_t)(eq - argv[a]) >= sizeof key)
			goto done;
		memcpy(key, argv[a], (size_t)(eq - argv[a]));
		key[eq - argv[a]] = '\0';
		if (pl_cost_model_set(cm, key, strtoll(eq + 1, NULL, 10)) != PL_OK)
			goto done;
	}
	if (pl_parse_file(argv[1], diags, &in) != PL_OK || pl_parse_file(argv[2], diags, &out) != PL_OK) {
		fprintf(stderr, "overlap-check: cannot read the modules\n");
		goto done;
	}
	rc = 1;
	if (pl_verify_module(out, diags) != PL_OK) {
		fprintf(stderr, "overlap-check: OUT does not verify\n");
		goto done;
	}
	if (pl_module_num_funcs(in) != pl_module_num_funcs(out)) {
		fprintf(stderr, "overlap-check: the functions differ\n");
		goto done;
	}
	rc = 0;
	for (size_t k = 0; k < pl_module_num_funcs(in) && !rc; k++)
		rc = check_func(pl_func_name(pl_module_func_at(in, k)), pl_module_func_at(in, k),
		                pl_module_func_at(out, k), cm);
	uint64_t before = 0, after = 0;
	if (!rc && (exposed(in, cm, &before) || exposed(out, cm, &after)))
		rc = 1;
	if (!rc)
		printf("exposed_ns_before=%" PRIu64 " exposed_ns_after=%" PRIu64 "\n", before, after);
done:
	pl_module_free(in);
	pl_module_free(out);
	pl_diags_free(diags);
	pl_cost_model_free(cm);
	return rc;
}
