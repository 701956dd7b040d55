/* SPDX-License-Identifier: MIT */
/* tests/pl-genasync.c — writes a random, valid module of asynchronous
 * collectives and compute, for the property tests of OverlapBucketCCOp
 * (tests/overlap.sh).
 *
 *   pl-genasync SEED
 *
 * Per function: a random walk that starts collectives (three kinds, two
 * process groups, now and then no group_id, another factor or dtype, a
 * pinned one or a tuple), computes from what is ready (work of 0 to 3000
 * flops, so that with peak_gflops = 1 and latency_ns = 1000 compute and
 * communication are of one size), stores to arguments that no collective
 * in flight reads, and ends collectives in a random order. Everything is a
 * vector of 4 (collectives have no factor, or factor 1, so shapes are
 * free), which keeps every use well typed. Output depends only on SEED.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)(next() % n);
}

enum { MAX_VALS = 512, MAX_COLLS = 64, NARGS = 6 };

struct val {
	char name[24];
	int dtype; /* 0 bf16, 1 f32 */
};

struct coll {
	int kind; /* 0 all_gather, 1 reduce_scatter, 2 all_reduce */
	int nops;
	int ops[2];     /* value indices (arguments first) */
	char name[16];
	bool done;
};

static const char *const dtypes[] = {"bf16", "f32"};
static const char *const kinds[] = {"all_gather", "reduce_scatter", "all_reduce"};

static struct val vals[MAX_VALS];
static int nvals;
static struct coll colls[MAX_COLLS];
static int ncolls;

/* Whether argument a is read by a collective in flight. */
static bool in_flight(int a)
{
	for (int c = 0; c < ncolls; c++)
		if (!colls[c].done)
			for (int k = 0; k < colls[c].nops; k++)
				if (colls[c].ops[k] == a)
					return true;
	return false;
}

static int ready_of(int dtype)
{
	int cand[MAX_VALS], n = 0;
	for (int v = 0; v < nvals; v++)
		if (vals[v].dtype == dtype)
			cand[n++] = v;
	return cand[below((unsigned)n)];
}

static void start(void)
{
	struct coll *c = &colls[ncolls];
	c->kind = (int)below(3);
	c->nops = below(12) == 0 ? 2 : 1;
	int dtype = (int)below(2);
	for (int k = 0; k < c->nops; k++)
		c->ops[k] = ready_of(dtype);
	snprintf(c->name, sizeof c->name, "c%d", ncolls);
	c->done = false;
	printf("  ");
	for (int k = 0; k < c->nops; k++)
		printf("%s%%%s_s%d", k ? ", " : "", c->name, k);
	printf(" = %s_start ", kinds[c->kind]);
	for (int k = 0; k < c->nops; k++)
		printf("%s%%%s", k ? ", " : "", vals[c->ops[k]].name);
	unsigned attrs = below(20);
	const char *group = below(3) == 0 ? "tp" : "dp";
	if (attrs == 0)
		printf(" {");
	else if (attrs == 1)
		printf(" {group_id = \"\"");
	else
		printf(" {group_id = \"%s\"", group);
	if (attrs == 2)
		printf(", factor = 1");
	if (attrs == 3)
		printf(", pinned = true");
	if (c->kind != 0)
		printf("%sreduce = \"%s\"", attrs == 0 ? "" : ", ", below(4) ? "add" : "max");
	printf("} : ");
	if (c->nops > 1)
		printf("(");
	for (int k = 0; k < c->nops; k++)
		printf("%s%s[4]", k ? ", " : "", dtypes[vals[c->ops[k]].dtype]);
	printf("%s\n", c->nops > 1 ? ")" : "");
	ncolls++;
}

static void done(struct coll *c)
{
	printf("  ");
	for (int k = 0; k < c->nops; k++) {
		struct val *v = &vals[nvals + k];
		snprintf(v->name, sizeof v->name, "%s%s", c->name, k ? "b" : "");
		v->dtype = vals[c->ops[k]].dtype;
		printf("%s%%%s", k ? ", " : "", v->name);
	}
	printf(" = %s_done ", kinds[c->kind]);
	for (int k = 0; k < c->nops; k++)
		printf("%s%%%s_s%d", k ? ", " : "", c->name, k);
	printf(" : ");
	if (c->nops > 1)
		printf("(");
	for (int k = 0; k < c->nops; k++)
		printf("%s%s[4]", k ? ", " : "", dtypes[vals[nvals + k].dtype]);
	printf("%s\n", c->nops > 1 ? ")" : "");
	nvals += c->nops;
	c->done = true;
}

static void work(int id)
{
	int dtype = (int)below(2);
	int a = ready_of(dtype), b = ready_of((int)below(2));
	struct val *v = &vals[nvals++];
	snprintf(v->name, sizeof v->name, "w%d", id);
	v->dtype = dtype;
	static const unsigned flops[] = {0, 100, 250, 500, 1000, 1500, 3000};
	printf("  %%%s = acme.work %%%s, %%%s {num_dynamic_instances = 1, flops = %u} : %s[4]\n",
	       v->name, vals[a].name, vals[b].name, flops[below(7)], dtypes[dtype]);
}

static void store(void)
{
	int a = (int)below(NARGS);
	if (in_flight(a))
		return;
	int v = ready_of(vals[a].dtype);
	printf("  affine_store %%%s, %%%s\n", vals[v].name, vals[a].name);
}

static void func(int f)
{
	nvals = ncolls = 0;
	printf("func @f%d(", f);
	for (int a = 0; a < NARGS; a++) {
		struct val *v = &vals[nvals++];
		snprintf(v->name, sizeof v->name, "a%d", a);
		v->dtype = a % 2;
		printf("%s%%%s: %s[4]", a ? ", " : "", v->name, dtypes[v->dtype]);
	}
	printf(") {\n");
	int steps = 10 + (int)below(50), nwork = 0;
	for (int s = 0; s < steps; s++) {
		unsigned r = below(10);
		if (r < 3 && ncolls < MAX_COLLS) {
			start();
		} else if (r < 5) {
			int open[MAX_COLLS], n = 0;
			for (int c = 0; c < ncolls; c++)
				if (!colls[c].done)
					open[n++] = c;
			if (n)
				done(&colls[open[below((unsigned)n)]]);
		} else if (r < 9) {
			work(nwork++);
		} else {
			store();
		}
		if (nvals > MAX_VALS - 8)
			break;
	}
	for (int c = 0; c < ncolls; c++)
		if (!colls[c].done)
			done(&colls[c]);
	printf("  return");
	for (int v = NARGS; v < nvals; v++)
		printf("%s %%%s", v > NARGS ? "," : "", vals[v].name);
	printf("\n}\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pl-genasync SEED\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 10);
	int nfunc = 1 + (int)below(3);
	for (int f = 0; f < nfunc; f++) {
		if (f)
			printf("\n");
		func(f);
	}
	return 0;
}
