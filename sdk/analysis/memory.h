/* SPDX-License-Identifier: MIT */
/* sdk/analysis/memory.h — the buffers of one function as XLA's buffer
 * assignment makes them (memory.c), the rules that say which values share
 * a buffer (memory_rules.c), and what a function's callees tell its
 * callers. Private. */
#ifndef PL_ANALYSIS_MEMORY_H
#define PL_ANALYSIS_MEMORY_H

#include "ir/internal.h"
#include <passline/cost.h>

#define PL_MEM_NONE UINT32_MAX

/* What a called function gives its caller: per returned value k,
 * ret_arg[k] the argument whose buffer it is (PL_MEM_NONE: a buffer of its
 * own) and ret_written[k] whether that argument is written in place. */
struct pl_mem_summary_ {
	uint64_t peak;      /* the function's peak with what it calls */
	uint64_t args;      /* bytes of its arguments */
	uint64_t new_ret;   /* bytes of the buffers it returns that are not arguments */
	uint32_t nret;
	uint32_t *ret_arg;
	bool *ret_written;
};

/* What an instruction that calls functions adds (filled by the hook):
 * extra, the bytes its callees hold beyond its operands and results while
 * they run; alias[r] (nres entries, preset to PL_MEM_NONE), the operand
 * whose buffer result r is, written[r] whether the callee writes it. */
struct pl_mem_call_ {
	uint64_t extra;
	uint32_t *alias;
	bool *written;
};
typedef int (*pl_mem_hook_)(const pl_inst *inst, void *arg, struct pl_mem_call_ *out);

/* One buffer: live from the instruction born to the instruction last
 * (ordinals in the function's order), or the whole function. */
struct pl_mem_buf_ {
	const pl_value *value; /* the value that made it */
	uint64_t bytes;        /* 0 when it lives in an argument's buffer */
	uint32_t born, last;
	uint8_t kind;          /* pl_buffer_kind */
	bool whole;            /* an argument or a constant: the whole function */
	bool written;          /* an in-place instruction writes it */
	bool readonly;         /* an entry argument not donated, a constant */
	uint32_t taken_at;     /* the ordinal of the last instruction that took it over */
	uint32_t ready_at;     /* in flight until this ordinal (its done) */
	uint32_t bound_to;     /* the argument it lives in, or PL_MEM_NONE */
};

struct pl_mem_plan_ {
	const pl_func *f;
	size_t n;                 /* instructions */
	const pl_inst **inst;     /* by ordinal */
	uint32_t *first;          /* per ordinal: its first result's value index */
	size_t nvals;             /* arguments first, then results in order */
	uint32_t *vbuf;           /* per value: its buffer */
	struct pl_mem_buf_ *buf;
	size_t nbuf;
	uint64_t *extra;          /* per ordinal: what its callees add */
	uint32_t *last;           /* per value: the ordinal of its last use */
	bool *virt;               /* per ordinal: inside a kernel, not in memory
	                           * (NULL: every instruction is) */
	uint64_t peak;
	size_t peak_at;           /* the ordinal of the peak; n: before the first */
};

/* The plan of f (in an HLO computation not fused yet, only the values the
 * fusion model's kernels write out are in memory): entry rules when f is its module's entry (arguments read
 * only but those input_output_alias donates, whose outputs it binds);
 * loop_body binds each returned value k to argument k. hook (NULL: none)
 * tells what each calling instruction adds. PL_OK, PL_ENOMEM, or the
 * hook's error. Free with pl_mem_plan_free_. */
PL_INTERNAL int pl_mem_plan_new_(struct pl_mem_plan_ *p, const pl_func *f, bool loop_body,
                                 pl_mem_hook_ hook, void *arg);
PL_INTERNAL void pl_mem_plan_free_(struct pl_mem_plan_ *p);
/* The plan's summary for its callers (s->ret_arg, s->ret_written
 * allocated: free with pl_mem_summary_free_). */
PL_INTERNAL int pl_mem_summary_new_(struct pl_mem_summary_ *s, const struct pl_mem_plan_ *p);
PL_INTERNAL void pl_mem_summary_free_(struct pl_mem_summary_ *s);
/* Whether buffer b is live at ordinal at (at == n: before the first). */
PL_INTERNAL bool pl_mem_live_at_(const struct pl_mem_plan_ *p, size_t b, size_t at);

/* ---- the rules (memory_rules.c) ---- */

enum pl_mem_rule_ {
	PL_MEM_NEW,      /* results are buffers of their own */
	PL_MEM_VIEW,     /* result r is operand r's buffer (bitcast, tuple, ...) */
	PL_MEM_IN_PLACE, /* result r may update operand in_place[r] in place */
	PL_MEM_WHILE,    /* result r is operand r's buffer, updated by the body */
	PL_MEM_DONE,     /* result r is the in-flight buffer operand r of the start */
	PL_MEM_CONSTANT, /* a constant: its own buffer for the whole program */
	PL_MEM_CALLS     /* a call or conditional: results as the callee says */
};

/* The rule of inst (unfused: in an HLO computation before layout
 * assignment, where a transpose is a view); for PL_MEM_IN_PLACE,
 * in_place[r] (nres entries) the operand result r updates, PL_MEM_NONE for
 * a new buffer. */
PL_INTERNAL enum pl_mem_rule_ pl_mem_rule_(const pl_inst *inst, bool unfused,
                                          uint32_t *in_place);
/* For the entry function f: donated[a] (nargs entries) true for each
 * argument input_output_alias donates, and out_arg[k] (nret entries) the
 * argument returned value k is bound to, else PL_MEM_NONE. */
PL_INTERNAL void pl_mem_entry_aliases_(const pl_func *f, bool *donated, uint32_t *out_arg,
                                       size_t nret);
/* The module of cg (callgraph.c). */
struct pl_callgraph;
PL_INTERNAL const pl_module *pl_callgraph_module_(const struct pl_callgraph *cg);
/* Whether f is an HLO computation a compiler has not fused yet (its
 * module has an HLO entry, f no fusion instruction): its buffers are then
 * those of the fusion model's kernels (passline/fusion.h). */
PL_INTERNAL bool pl_mem_unfused_hlo_(const pl_func *f);
/* Whether f is its module's entry. */
PL_INTERNAL bool pl_mem_is_entry_(const pl_func *f);

#endif
