/* SPDX-License-Identifier: MIT */
/* plugins/timeline_svg.c — the schedule as an SVG picture: one lane for
 * compute and one per process group, time left to right on an axis with
 * units, a box per instruction coloured by class, the compute stream's
 * exposed waiting in red, a legend and a caption with the totals.
 *
 * Coordinates are integers in hundredths of a pixel (exact, so the file is
 * the same on every machine). Boxes narrower than a pixel are merged with
 * their neighbours on the lane until the merged box is a pixel wide, drawn
 * in the colour that has most of its time: a lane holds at most a few
 * boxes per pixel, whatever the size of the function.
 *
 * A whole step draws its parts one below the other, each with its lanes,
 * axis and caption, a bar at the left beside each part inside another;
 * one legend at the bottom, with the spans' class. */
#include "timeline.h"
#include "u128_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	WIDTH = 1200,
	LEFT = 120,      /* lane labels to the left of this */
	PLOT = 1040,     /* the time axis' length */
	LANE_TOP = 40,
	LANE_H = 28,
	PITCH = 36,      /* lane to lane */
	LEGEND_STEP = 150,
	LEGEND_ROW = 20, /* the legend's second row below its first */
	LABEL_MAX = 18   /* longer group names get a short label, in full in a tooltip */
};

/* v hundredths of a pixel, shortest exact form: "120", "120.5", "120.25". */
static void px(struct tl_buf *b, uint64_t v)
{
	unsigned frac = (unsigned)(v % 100);
	char tail[3] = {'.', (char)('0' + frac / 10), (char)('0' + frac % 10)};
	tl_buf_u64(b, v / 100);
	if (frac)
		tl_buf_put(b, tail, frac % 10 ? 3 : 2);
}

/* A duration for people: "640 ns", "1.5 µs", "12.345 ms" (truncated to
 * three decimals). */
static void duration(struct tl_buf *b, uint64_t ns)
{
	if (ns < 1000) {
		tl_buf_printf(b, "%" PRIu64 " ns", ns);
		return;
	}
	uint64_t div = ns < 1000000 ? 1000 : ns < 1000000000 ? 1000000 : 1000000000;
	const char *unit = div == 1000 ? "µs" : div == 1000000 ? "ms" : "s";
	unsigned frac = (unsigned)(ns % div / (div / 1000));
	tl_buf_printf(b, "%" PRIu64, ns / div);
	if (frac) {
		char d[12];
		snprintf(d, sizeof d, "%03u", frac);
		size_t n = 3;
		while (d[n - 1] == '0')
			n--;
		TL_PUTS(b, ".");
		tl_buf_put(b, d, n);
	}
	tl_buf_printf(b, " %s", unit);
}

/* One lane's boxes, and the narrow ones waiting to be merged. */
struct lane {
	struct tl_buf out;
	unsigned top;
	bool pending;
	uint64_t x0, x1;  /* the pending boxes' extent, hundredths of a pixel */
	uint64_t t0, t1;
	size_t count;
	uint64_t ns[TL_NUM_CLASSES];
	/* the first pending box, drawn as itself when it stays alone */
	const pl_inst *inst;
	enum tl_class cls;
	const struct tl_span *span;
};

struct scale {
	uint64_t span; /* ns across the plot; at least 1 */
};

static uint64_t x_of(const struct scale *sc, uint64_t t)
{
	return (uint64_t)LEFT * 100 +
	       (uint64_t)((u128)t * (PLOT * 100) / sc->span);
}

static void rect(struct lane *l, uint64_t x0, uint64_t x1, const char *fill)
{
	TL_PUTS(&l->out, "<rect x=\"");
	px(&l->out, x0);
	TL_PUTS(&l->out, "\" y=\"");
	tl_buf_u64(&l->out, l->top);
	TL_PUTS(&l->out, "\" width=\"");
	px(&l->out, x1 - x0);
	tl_buf_printf(&l->out, "\" height=\"%d\" fill=\"%s\"><title>", LANE_H, fill);
}

/* A span's tooltip: what it runs, how often, and its time. */
static void span_title(struct tl_buf *b, const struct tl_span *sp, uint64_t ns)
{
	tl_buf_xml(b, sp->label);
	if (sp->loop) {
		tl_buf_printf(b, " = %llu × (", (unsigned long long)sp->trips);
		duration(b, sp->body_ns);
		TL_PUTS(b, " body + ");
		duration(b, sp->cond_ns);
		TL_PUTS(b, " condition) + ");
		duration(b, sp->cond_ns);
	}
	TL_PUTS(b, ", ");
	duration(b, ns);
}

/* A span's label inside its box, small, in its upper half (the box's
 * colour stays at its centre), when it fits: about 6 pixels a letter. */
static void span_label(struct lane *l, uint64_t x0, uint64_t x1, const struct tl_span *sp)
{
	size_t letters = 0;
	for (const char *c = sp->label; *c; c++)
		letters += ((unsigned char)*c & 0xC0) != 0x80;
	if ((x1 - x0) / 100 < letters * 6 + 8)
		return;
	TL_PUTS(&l->out, "<text x=\"");
	px(&l->out, x0 + 400);
	tl_buf_printf(&l->out, "\" y=\"%u\" font-size=\"10\" fill=\"#333\">", l->top + 11);
	tl_buf_xml(&l->out, sp->label);
	TL_PUTS(&l->out, "</text>\n");
}

static void box(struct lane *l, uint64_t x0, uint64_t x1, const pl_inst *inst,
                enum tl_class cls, uint64_t ns, const struct tl_span *span)
{
	rect(l, x0, x1, tl_classes[cls].colour);
	struct tl_buf *b = &l->out;
	if (cls == TL_EXPOSED)
		TL_PUTS(b, "waiting: ");
	if (tl_has_names(inst)) {
		tl_buf_results(b, inst, tl_buf_xml);
		TL_PUTS(b, " = ");
	}
	tl_buf_xml(b, pl_inst_opname(inst));
	TL_PUTS(b, ", ");
	if (span)
		span_title(b, span, ns);
	else
		duration(b, ns);
	TL_PUTS(b, "</title></rect>\n");
	if (span)
		span_label(l, x0, x1, span);
}

static void flush(struct lane *l)
{
	if (!l->pending)
		return;
	l->pending = false;
	if (l->count == 1) {
		box(l, l->x0, l->x1, l->inst, l->cls, l->t1 - l->t0, l->span);
		return;
	}
	int best = 0;
	for (int c = 1; c < TL_NUM_CLASSES; c++)
		if (l->ns[c] > l->ns[best])
			best = c;
	rect(l, l->x0, l->x1, tl_classes[best].colour);
	tl_buf_printf(&l->out, "%s%zu instructions, ", best == TL_EXPOSED ? "waiting: " : "",
	              l->count);
	duration(&l->out, l->t1 - l->t0);
	TL_PUTS(&l->out, "</title></rect>\n");
}

/* [t0, t1) of inst on lane l, drawn in class cls. */
static void add(struct lane *l, const struct scale *sc, const pl_inst *inst,
                enum tl_class cls, uint64_t t0, uint64_t t1, const struct tl_span *span)
{
	if (t1 <= t0)
		return;
	uint64_t x0 = x_of(sc, t0), x1 = x_of(sc, t1);
	if (x1 - x0 >= 100) {
		flush(l);
		box(l, x0, x1, inst, cls, t1 - t0, span);
		return;
	}
	if (l->pending && x0 < l->x0 + 100) {
		l->x1 = x1;
		l->t1 = t1;
		l->count++;
		l->ns[cls] += t1 - t0;
		return;
	}
	flush(l);
	*l = (struct lane){.out = l->out, .top = l->top, .pending = true, .x0 = x0, .x1 = x1,
	                   .t0 = t0, .t1 = t1, .count = 1, .inst = inst, .cls = cls,
	                   .span = span};
	l->ns[cls] = t1 - t0;
}

/* The label of a lane: text, or for the group numbered g + 1 (SIZE_MAX:
 * the compute lane) a short label (tl_group_label), the whole name in its
 * tooltip. */
static void lane_label(struct tl_buf *b, const char *text, size_t g, unsigned top)
{
	tl_buf_printf(b, "<rect x=\"%d\" y=\"%u\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
	              LEFT, top, PLOT, LANE_H);
	tl_buf_printf(b, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">", LEFT - 8, top + 18);
	if (g == SIZE_MAX || strlen(text) <= LABEL_MAX) {
		tl_buf_xml(b, g == SIZE_MAX || *text ? text : "(no group)");
	} else {
		TL_PUTS(b, "<title>");
		tl_buf_xml(b, text);
		TL_PUTS(b, "</title>");
		struct tl_buf part = {0};
		tl_group_label(&part, g, text, LABEL_MAX);
		tl_buf_xml(b, part.data ? part.data : "");
		if (part.failed)
			b->failed = true;
		tl_buf_free(&part);
	}
	TL_PUTS(b, "</text>\n");
}

static void axis(struct tl_buf *b, const struct scale *sc, unsigned y)
{
	/* about eight ticks, 1, 2 or 5 times a power of ten apart */
	uint64_t want = sc->span / 8, step = 1;
	while (step < want) {
		if (step * 2 >= want) {
			step *= 2;
			break;
		}
		if (step * 5 >= want) {
			step *= 5;
			break;
		}
		step *= 10;
	}
	uint64_t div = step < 1000 ? 1 : step < 1000000 ? 1000 : step < 1000000000 ? 1000000
	                                                                           : 1000000000;
	const char *unit = div == 1 ? "ns" : div == 1000 ? "µs" : div == 1000000 ? "ms" : "s";
	tl_buf_printf(b, "<line x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\" stroke=\"#333\"/>\n", LEFT,
	              y, LEFT + PLOT, y);
	for (uint64_t t = 0;; t += step) {
		uint64_t x = x_of(sc, t);
		TL_PUTS(b, "<line x1=\"");
		px(b, x);
		tl_buf_printf(b, "\" y1=\"%u\" x2=\"", y);
		px(b, x);
		tl_buf_printf(b, "\" y2=\"%u\" stroke=\"#333\"/>\n", y + 5);
		TL_PUTS(b, "<text x=\"");
		px(b, x);
		tl_buf_printf(b, "\" y=\"%u\" text-anchor=\"middle\">%" PRIu64 " %s</text>\n", y + 18,
		              t / div, unit);
		if (sc->span - t < step)
			break;
	}
}

/* The lanes of schedule s from y = top (labels, boxes; a row of spans
 * drawn as its span), into b, span_ns (or the makespan, if longer) across
 * the plot; with_axis, the axis below them. Returns the axis' y. */
static unsigned draw_lanes(struct tl_buf *b, const pl_schedule *s, const struct tl_part *part,
                           unsigned top, const struct tl_span *spans, size_t nspans,
                           uint64_t span_ns, bool with_axis)
{
	size_t ngroups = pl_schedule_num_groups(s), nlanes = ngroups + 1, next = 0;
	struct scale sc = {pl_schedule_makespan_ns(s)};
	if (span_ns > sc.span)
		sc.span = span_ns;
	if (!sc.span)
		sc.span = 1;
	/* the compute lane's exposed waits are merged apart from its compute
	 * (lanes[nlanes], drawn over it), so that a merged box of compute is
	 * never in the colour of waiting nor a merged wait in that of compute */
	struct lane *lanes = calloc(nlanes + 1, sizeof *lanes);
	if (!lanes) {
		b->failed = true;
		return top;
	}
	/* the groups' lanes in the order of their numbers in the step */
	for (size_t k = 0; k < nlanes; k++)
		lanes[k].top = top + (unsigned)tl_lane_row(part, k) * PITCH;
	lanes[nlanes].top = top;
	for (size_t i = 0; i < pl_schedule_num_insts(s); i++) {
		const pl_inst *inst = pl_schedule_inst(s, i);
		uint64_t t0 = pl_schedule_begin_ns(s, i), t1 = pl_schedule_end_ns(s, i);
		uint64_t exposed = pl_schedule_inst_exposed_ns(s, i);
		size_t lane = pl_schedule_lane(s, i);
		const struct tl_span *span = next < nspans && spans[next].row == i ? &spans[next++]
		                                                                    : NULL;
		bool done;
		enum tl_class cls = span ? TL_SPAN : tl_class_at(s, i, &done);
		if (cls != TL_NONE)
			add(&lanes[lane], &sc, inst, cls, t0, t1, span);
		if (exposed)
			add(&lanes[nlanes], &sc, inst, TL_EXPOSED, t1 - exposed, t1, NULL);
	}
	for (size_t k = 0; k < nlanes; k++) {
		struct lane *l = &lanes[k];
		flush(l);
		if (k == 0)
			lane_label(b, "compute", SIZE_MAX, l->top);
		else
			lane_label(b, pl_schedule_group_name(s, k - 1), tl_lane_no(part, k - 1) - 1,
			           l->top);
		for (int w = 0; w < (k == 0 ? 2 : 1); w++, l = &lanes[nlanes]) {
			flush(l);
			if (l->out.failed)
				b->failed = true;
			else if (l->out.len)
				tl_buf_put(b, l->out.data, l->out.len);
			tl_buf_free(&l->out);
		}
	}
	free(lanes);
	unsigned axis_y = top + (unsigned)nlanes * PITCH;
	if (with_axis)
		axis(b, &sc, axis_y);
	return axis_y;
}

/* The root element says what is drawn, for a program that stacks
 * pictures (passline --compare-svg): the function, the times of one run
 * of it with its loops and calls (tl_totals), and each part below the
 * root as NAME=NS, its run's time. */
static void header(struct tl_buf *b, unsigned height, const struct tl_view *v)
{
	tl_buf_printf(b,
	              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" "
	              "viewBox=\"0 0 %d %u\" font-family=\"sans-serif\" font-size=\"12\" "
	              "shape-rendering=\"crispEdges\" data-function=\"",
	              WIDTH, height, WIDTH, height);
	tl_buf_xml(b, v->func);
	tl_buf_printf(b,
	              "\" data-makespan-ns=\"%" PRIu64 "\" data-compute-ns=\"%" PRIu64
	              "\" data-comm-ns=\"%" PRIu64 "\" data-exposed-ns=\"%" PRIu64 "\"",
	              v->whole.makespan, v->whole.compute, v->whole.comm, v->whole.exposed);
	if (v->step && v->step->n > 1) {
		TL_PUTS(b, " data-parts=\"");
		for (size_t k = 1; k < v->step->n; k++) {
			const struct tl_part *p = &v->step->parts[k];
			if (k > 1)
				TL_PUTS(b, ",");
			tl_buf_xml(b, pl_func_name(p->f));
			tl_buf_printf(b, "=%" PRIu64, pl_schedule_makespan_ns(p->s));
		}
		TL_PUTS(b, "\"");
	}
	TL_PUTS(b, ">\n");
	const char *title = v->title;
	tl_buf_printf(b, "<rect width=\"%d\" height=\"%u\" fill=\"#ffffff\"/>\n", WIDTH, height);
	tl_buf_printf(b, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", LEFT);
	tl_buf_xml(b, title);
	TL_PUTS(b, "</text>\n");
}

/* The legend in two rows from legend_y: compute (and, with spans, loops
 * and calls), then communication. */
static void legend(struct tl_buf *b, unsigned legend_y, bool spans)
{
	for (int c = 0; c < TL_NUM_CLASSES; c++) {
		if (c == TL_SPAN && !spans)
			continue;
		bool comm = c >= TL_FIRST_COMM && c < TL_SPAN;
		int col = c == TL_SPAN ? TL_FIRST_COMM : comm ? c - TL_FIRST_COMM : c;
		unsigned x = LEFT + (unsigned)col * LEGEND_STEP;
		unsigned y = legend_y + (comm ? LEGEND_ROW : 0);
		tl_buf_printf(b,
		              "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		              "<text x=\"%u\" y=\"%u\">%s</text>\n",
		              x, y - 10, tl_classes[c].colour, x + 18, y, tl_classes[c].legend);
	}
}

/* "makespan M, compute C, communication W, exposed E" of t. */
static void totals(struct tl_buf *b, const struct tl_totals *t)
{
	TL_PUTS(b, "makespan ");
	duration(b, t->makespan);
	TL_PUTS(b, ", compute ");
	duration(b, t->compute);
	TL_PUTS(b, ", communication ");
	duration(b, t->comm);
	TL_PUTS(b, ", exposed ");
	duration(b, t->exposed);
}

static void write_function(struct tl_buf *b, const struct tl_view *v)
{
	const pl_schedule *s = v->s;
	struct tl_buf body = {0};
	unsigned axis_y = draw_lanes(&body, s, NULL, LANE_TOP, NULL, 0, v->span_ns, v->axis);
	/* without the axis and legend, the caption right under the lanes */
	unsigned legend_y = axis_y + 40;
	unsigned caption_y = v->axis ? legend_y + LEGEND_ROW + 26 : axis_y + 8;
	unsigned height = caption_y + 14;
	header(b, height, v);
	tl_buf_put(b, body.data ? body.data : "", body.len);
	if (body.failed)
		b->failed = true;
	tl_buf_free(&body);
	if (v->axis)
		legend(b, legend_y, false);
	tl_buf_printf(b, "<text x=\"%d\" y=\"%u\">", LEFT, caption_y);
	totals(b, &v->whole);
	TL_PUTS(b, "</text>\n</svg>\n");
}

/* ---- a whole step ---- */

enum {
	HEAD_H = 26,   /* a part's heading above its lanes */
	CAPTION_GAP = 36, /* axis to the part's caption */
	PART_GAP = 22,  /* caption to the next part */
	CAPTION_LINE = 16, /* a caption's second line below its first */
	BAR_X = 8,     /* the bars that show what is inside what */
	BAR_STEP = 10
};

/* Part p's caption, of one scope: one run of it (the step, for the
 * entry) with all its loops and calls, then what this panel itself
 * draws: its loops and calls, and the communication on its own lanes. */
static void part_caption(struct tl_buf *b, const struct tl_part *p, bool whole, unsigned y)
{
	const pl_schedule *s = p->s;
	const struct tl_totals *t = &p->whole;
	tl_buf_printf(b, "<text x=\"%d\" y=\"%u\">%s ", LEFT, y,
	              p->depth || !whole ? "one run:" : "the step:");
	duration(b, t->makespan);
	TL_PUTS(b, " = compute ");
	duration(b, t->compute);
	TL_PUTS(b, " + exposed ");
	duration(b, t->exposed);
	TL_PUTS(b, "; communication ");
	duration(b, t->comm);
	if (p->nspans) {
		TL_PUTS(b, ", loops and calls included</text>\n");
		tl_buf_printf(b, "<text x=\"%d\" y=\"%u\">this panel: loops and calls ", LEFT,
		              y + CAPTION_LINE);
		duration(b, p->spans_ns);
		TL_PUTS(b, "; on its own lanes communication ");
		duration(b, pl_schedule_comm_ns(s));
		TL_PUTS(b, ", exposed ");
		duration(b, pl_schedule_exposed_ns(s));
	}
	TL_PUTS(b, "</text>\n");
}

/* The time across the plot for p: span_ns for the root, else p's entry
 * in part_spans ("NAME=NS,..."), else 0 (its own makespan). */
static uint64_t part_span(const struct tl_view *v, size_t k)
{
	if (!k)
		return v->span_ns;
	const char *name = pl_func_name(v->step->parts[k].f);
	size_t n = strlen(name);
	for (const char *p = v->part_spans; p && *p;) {
		const char *comma = strchr(p, ',');
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return strtoull(p + n + 1, NULL, 10);
		p = comma ? comma + 1 : p + strlen(p);
	}
	return 0;
}

/* Parts from..to drawn from y down; *tops gets each part's top. Returns
 * the y below them. */
static unsigned draw_parts(struct tl_buf *b, const struct tl_view *v, unsigned y,
                           unsigned *tops)
{
	const struct tl_step *st = v->step;
	for (size_t k = 0; k < st->n; k++) {
		const struct tl_part *p = &st->parts[k];
		tops[k] = y;
		if (p->heading) {
			tl_buf_printf(b, "<text x=\"%d\" y=\"%u\" font-weight=\"bold\">", LEFT,
			              y + 16);
			tl_buf_xml(b, p->heading);
			TL_PUTS(b, "</text>\n");
			y += HEAD_H;
		}
		unsigned axis_y =
		        draw_lanes(b, p->s, p, y, p->spans, p->nspans, part_span(v, k), true);
		part_caption(b, p, st->whole, axis_y + CAPTION_GAP);
		y = axis_y + CAPTION_GAP + PART_GAP + (p->nspans ? CAPTION_LINE : 0);
	}
	return y;
}

/* A bar left of each part inside another, from its top to the end of
 * the parts inside it, further right the deeper it is. */
static void bars(struct tl_buf *b, const struct tl_step *st, const unsigned *tops,
                 unsigned bottom)
{
	for (size_t k = 1; k < st->n; k++) {
		const struct tl_part *p = &st->parts[k];
		unsigned end = p->end < st->n ? tops[p->end] - PART_GAP / 2 : bottom;
		tl_buf_printf(b, "<rect x=\"%u\" y=\"%u\" width=\"3\" height=\"%u\" "
		                 "fill=\"%s\"/>\n",
		              BAR_X + (unsigned)(p->depth - 1) * BAR_STEP, tops[k], end - tops[k],
		              tl_classes[TL_SPAN].colour);
	}
}

static void write_step(struct tl_buf *b, const struct tl_view *v)
{
	const struct tl_step *st = v->step;
	struct tl_buf body = {0};
	unsigned *tops = calloc(st->n, sizeof *tops);
	if (!tops) {
		b->failed = true;
		return;
	}
	unsigned bottom = draw_parts(&body, v, LANE_TOP, tops);
	unsigned legend_y = bottom + 4;
	unsigned height = v->axis ? legend_y + LEGEND_ROW + 14 : bottom;
	header(b, height, v);
	bars(b, st, tops, bottom - PART_GAP);
	tl_buf_put(b, body.data ? body.data : "", body.len);
	if (body.failed)
		b->failed = true;
	tl_buf_free(&body);
	free(tops);
	if (v->axis) /* "loop / call" only where there is one */
		legend(b, legend_y, st->n > 1 || st->parts[0].nspans);
	TL_PUTS(b, "</svg>\n");
}

void tl_write_svg(struct tl_buf *b, const struct tl_view *v)
{
	if (v->step)
		write_step(b, v);
	else
		write_function(b, v);
}
