/* SPDX-License-Identifier: MIT */
/* plugins/timeline.h — the parts of the Timeline pass: what it draws (the
 * simulated schedule of one function, passline/cost.h, or of a whole step
 * as parts, one per function its loops and calls run), the classes that
 * colour it, and a growing text buffer the two writers share
 * (timeline_util.c, which calls no other file of the pass). */
#ifndef PLUGINS_TIMELINE_H
#define PLUGINS_TIMELINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <passline/passline.h>

/* What a box is, for its colour and its trace category: compute (the
 * first four, the first row of the legend) or a collective (the rest). */
enum tl_class {
	TL_CONTRACT,
	TL_LOAD_STORE,
	TL_OTHER,          /* other compute */
	TL_EXPOSED,        /* the compute stream waiting for communication */
	TL_ALL_GATHER,     /* the synchronous op or a start, of every kind */
	TL_REDUCE_SCATTER,
	TL_ALL_REDUCE,
	TL_ALL_TO_ALL,     /* and ragged all-to-all */
	TL_PERMUTE,        /* collective-permute */
	TL_BROADCAST,      /* collective-broadcast */
	TL_OTHER_COMM,     /* on a process group's lane, of no kind above */
	TL_SPAN,           /* a loop, call or conditional of a whole step's picture */
	TL_NONE,           /* dones, return: nothing of their own to draw */
	TL_NUM_CLASSES = TL_NONE,
	TL_FIRST_COMM = TL_ALL_GATHER
};

struct tl_class_info {
	const char *name;   /* the trace category */
	const char *legend; /* the SVG legend's text */
	const char *colour;
};
extern const struct tl_class_info tl_classes[TL_NUM_CLASSES];

/* The class of instruction i of s, the communication it is read from as
 * the cost model reads it (the SDK's collectives, XLA's all-to-all,
 * ragged all-to-all, collective-permute and collective-broadcast, their
 * -start forms and the async-starts that call them); TL_NONE for a
 * collective's done (*done set) and for return. Whatever s put on a
 * process group's lane is a collective class. */
enum tl_class tl_class_at(const pl_schedule *s, size_t i, bool *done);

/* A calling instruction a whole step's picture draws as one span. */
struct tl_span {
	size_t row;        /* in its part's schedule */
	char *label;       /* "@body ×3", "@f", "@then | @else" */
	bool loop;
	uint64_t trips;    /* a loop's */
	uint64_t body_ns, cond_ns; /* a loop's, per iteration */
	const pl_inst *inst;
};

/* One run of a function with all its loops and calls run (a conditional
 * its longest branch), as the step simulates it: communication and exposed
 * communication summed through them, compute the rest of the run
 * (makespan = compute + exposed). */
struct tl_totals {
	uint64_t makespan, compute, comm, exposed;
};

/* One function of a whole step's picture: the root, or a callee drawn once
 * below the span that runs it, on its own time axis (one run). */
struct tl_part {
	const pl_func *f;
	pl_schedule *s;    /* pl_callgraph_schedule_new */
	char *heading;     /* what it is a run of; NULL for the root */
	char *thread;      /* the trace's name for its compute track */
	size_t depth;      /* 0 for the root */
	size_t end;        /* the parts after it up to end are drawn inside it */
	uint64_t offset_ns; /* where the trace puts its first run */
	struct tl_span *spans; /* in row order */
	size_t nspans;
	uint64_t spans_ns; /* the spans' time together */
	struct tl_totals whole; /* one run with its loops and calls */
	size_t *lane_no; /* per process group of s, its number in the step (from 1) */
	size_t *lane_row; /* per process group of s, its row below compute (from 1):
	                   * the part's groups in the order of their numbers */
};

/* The parts of a whole step in drawing order (each part before the parts
 * inside it), built from the call graph. */
struct tl_step {
	struct tl_part *parts;
	size_t n, cap;
	bool whole; /* the root is the entry: its run is the whole step */
	size_t nlanes; /* process groups in the step, numbered in drawing order */
};
/* What a step's picture leaves out: parts deeper than max_depth below the
 * root (0: the root alone), and functions one run of which is shorter
 * than fold_ns (their spans stay, as boxes). */
struct tl_limits {
	size_t max_depth;
	uint64_t fold_ns;
};
/* PL_OK, or an error (st then holds what was built: free it) with *failed
 * the function whose simulation failed, or NULL. mode and floor_ns: the
 * fusion model as pl_callgraph_step_fused_ns takes it. */
int tl_step_build(struct tl_step *st, const pl_callgraph *cg, const pl_func *root,
                  const pl_cost_model *cm, pl_fusion_mode mode, uint64_t floor_ns,
                  const struct tl_limits *lim, const pl_func **failed);
void tl_step_free(struct tl_step *st);

/* The picture's input: one function's schedule and its captions; for a
 * whole step (step non-NULL) the parts, s the root's. */
struct tl_view {
	const pl_schedule *s;
	const char *func;  /* the function's name */
	const char *title;
	/* the SVG only: the time across the plot (0, or less than the
	 * makespan: the makespan; a whole step's: its root's), so that
	 * pictures drawn with one span share a scale; and whether to draw the
	 * axis and legend (false: a panel of a stack whose last panel draws
	 * them; a whole step keeps its parts' axes) */
	uint64_t span_ns;
	bool axis;
	const struct tl_step *step;
	/* the SVG only: "NAME=NS,...", the time across the plot of the part
	 * that draws NAME (never less than its makespan); NULL or "": each
	 * part's own */
	const char *part_spans;
	struct tl_totals whole; /* of what is drawn */
};

/* The number of s's process group g in the picture (from 1): its number
 * in the step, or g + 1 for a picture of one function. */
size_t tl_lane_no(const struct tl_part *p, size_t g);
/* The row of lane (0: compute, g + 1: process group g) in the picture:
 * compute first, then the groups in the order of their numbers. */
size_t tl_lane_row(const struct tl_part *p, size_t lane);

/* Text that grows; a failed allocation sticks (failed) and later appends
 * do nothing, so writers check once at the end. */
struct tl_buf {
	char *data;
	size_t len, cap;
	bool failed;
};
void tl_buf_printf(struct tl_buf *b, const char *fmt, ...) PL_PRINTF(2, 3);
void tl_buf_put(struct tl_buf *b, const char *s, size_t n);
#define TL_PUTS(b, lit) tl_buf_put((b), lit, sizeof lit - 1)
/* s with & < > " ' as XML entities. */
void tl_buf_xml(struct tl_buf *b, const char *s);
/* s as the inside of a JSON string. */
void tl_buf_json(struct tl_buf *b, const char *s);
/* v in decimal, without printf (the writers' hot path). */
void tl_buf_u64(struct tl_buf *b, uint64_t v);
/* ns in microseconds, exactly: "12.345" (three decimals). */
void tl_buf_us(struct tl_buf *b, uint64_t ns);
void tl_buf_free(struct tl_buf *b);

/* Whether inst has a result with a name (values a pass made may have none
 * until the module is printed). */
bool tl_has_names(const pl_inst *inst);
/* The result names of inst, "%a, %b", each through escape (tl_buf_xml or
 * tl_buf_json); unnamed values are left out. */
void tl_buf_results(struct tl_buf *b, const pl_inst *inst,
                    void (*escape)(struct tl_buf *, const char *));

/* The label of group g's lane (g counts from 0): its name when at most
 * max bytes, else "@G PREFIX N×M" (G = g + 1, the text before its replica
 * groups cut to fit, N groups of M devices), so that lanes of long names
 * that begin alike stay apart; "(no group)" for the empty name. */
void tl_group_label(struct tl_buf *b, size_t g, const char *name, size_t max);

/* Write the picture into b. */
void tl_write_svg(struct tl_buf *b, const struct tl_view *v);
void tl_write_trace(struct tl_buf *b, const struct tl_view *v);

#endif
