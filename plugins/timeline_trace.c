/* SPDX-License-Identifier: MIT */
/* plugins/timeline_trace.c — the schedule in the Chrome trace-event JSON
 * format that Perfetto (ui.perfetto.dev) and chrome://tracing open: one
 * thread per lane (compute, then each process group) named by metadata
 * events, one complete event ("ph": "X") per instruction that takes time
 * or waits, named by the instruction with its opcode as category and its
 * bytes, group and exposed time in args, timestamps and durations in microseconds with the exact
 * nanoseconds as three decimals. A whole step's loop, call or conditional
 * is one slice named by its label ("@body ×80"), and each part below it
 * has threads of its own after the root's, its slices from where its
 * first run starts. */
#include "timeline.h"
#include "inst_bytes.h"

#include <inttypes.h>
#include <string.h>

static void json_str(struct tl_buf *b, const char *s)
{
	TL_PUTS(b, "\"");
	tl_buf_json(b, s);
	TL_PUTS(b, "\"");
}

static void thread_meta(struct tl_buf *b, size_t tid, const char *name)
{
	tl_buf_printf(b, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%zu,"
	                 "\"args\":{\"name\":", tid);
	json_str(b, name);
	tl_buf_printf(b, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,"
	                 "\"tid\":%zu,\"args\":{\"sort_index\":%zu}}", tid, tid);
}

/* A slice is named by the instruction ("%all-reduce.514", its result
 * names; the opcode when it has none), prefix first, so that a search in
 * Perfetto finds it; the category is the opcode, or cat when given. */
static void event(struct tl_buf *b, const pl_inst *inst, const char *prefix, const char *cat,
                  const char *cls, uint64_t exposed, size_t tid, uint64_t t0, uint64_t t1,
                  const struct tl_span *span)
{
	TL_PUTS(b, ",\n{\"name\":\"");
	tl_buf_json(b, prefix);
	if (span) {
		tl_buf_json(b, span->label);
		TL_PUTS(b, " ");
	}
	if (tl_has_names(inst))
		tl_buf_results(b, inst, tl_buf_json);
	else
		tl_buf_json(b, pl_inst_opname(inst));
	TL_PUTS(b, "\",\"cat\":");
	json_str(b, cat ? cat : pl_inst_opname(inst));
	TL_PUTS(b, ",\"ph\":\"X\",\"pid\":1,\"tid\":");
	tl_buf_u64(b, tid);
	TL_PUTS(b, ",\"ts\":");
	tl_buf_us(b, t0);
	TL_PUTS(b, ",\"dur\":");
	tl_buf_us(b, t1 - t0);
	TL_PUTS(b, ",\"args\":{\"op\":");
	json_str(b, pl_inst_opname(inst));
	if (tl_has_names(inst)) {
		TL_PUTS(b, ",\"results\":\"");
		tl_buf_results(b, inst, tl_buf_json);
		TL_PUTS(b, "\"");
	}
	uint64_t bytes = result_bytes(inst);
	if (bytes != UINT64_MAX && pl_inst_num_results(inst)) {
		TL_PUTS(b, ",\"result_bytes\":");
		tl_buf_u64(b, bytes);
	}
	const pl_attrs *a = pl_inst_attrs_const(inst);
	const char *group;
	int64_t factor;
	if (pl_attrs_get_string(a, "group_id", &group, NULL) == PL_OK) {
		TL_PUTS(b, ",\"group\":");
		json_str(b, group);
	}
	if (pl_attrs_get_int(a, "factor", &factor) == PL_OK)
		tl_buf_printf(b, ",\"factor\":%" PRId64, factor);
	TL_PUTS(b, ",\"class\":\"");
	tl_buf_put(b, cls, strlen(cls));
	TL_PUTS(b, "\",\"ns\":");
	tl_buf_u64(b, t1 - t0);
	TL_PUTS(b, ",\"exposed_ns\":");
	tl_buf_u64(b, exposed);
	if (pl_inst_line(inst)) {
		TL_PUTS(b, ",\"line\":");
		tl_buf_u64(b, pl_inst_line(inst));
	}
	if (span && span->loop)
		tl_buf_printf(b, ",\"trips\":%llu,\"body_ns\":%llu,\"cond_ns\":%llu",
		              (unsigned long long)span->trips, (unsigned long long)span->body_ns,
		              (unsigned long long)span->cond_ns);
	TL_PUTS(b, "}}");
}

/* The lanes of s as threads from tid base: compute named compute, each
 * group by its label, after prefix. */
static void threads(struct tl_buf *b, const pl_schedule *s, const struct tl_part *part,
                    size_t base, const char *compute, const char *prefix)
{
	thread_meta(b, base, compute);
	for (size_t g = 0; g < pl_schedule_num_groups(s); g++) {
		struct tl_buf label = {0}; /* the whole name is in each slice's args */
		tl_buf_put(&label, prefix, strlen(prefix));
		tl_group_label(&label, tl_lane_no(part, g) - 1, pl_schedule_group_name(s, g), 40);
		thread_meta(b, base + tl_lane_row(part, g + 1), label.data ? label.data : "");
		if (label.failed)
			b->failed = true;
		tl_buf_free(&label);
	}
}

/* The slices of s on threads from base, times after offset. */
static void slices(struct tl_buf *b, const pl_schedule *s, const struct tl_part *part,
                   size_t base, uint64_t offset, const struct tl_span *spans, size_t nspans)
{
	size_t next = 0;
	for (size_t i = 0; i < pl_schedule_num_insts(s); i++) {
		const pl_inst *inst = pl_schedule_inst(s, i);
		uint64_t t0 = offset + pl_schedule_begin_ns(s, i), t1 = offset + pl_schedule_end_ns(s, i);
		uint64_t exposed = pl_schedule_inst_exposed_ns(s, i);
		size_t tid = base + tl_lane_row(part, pl_schedule_lane(s, i));
		const struct tl_span *span = next < nspans && spans[next].row == i ? &spans[next++]
		                                                                    : NULL;
		bool done = false;
		enum tl_class cls = tl_class_at(s, i, &done);
		if (span)
			cls = TL_SPAN;
		if (done)
			event(b, inst, "", NULL, exposed ? "exposed" : "done", exposed, tid, t0, t1, NULL);
		else if (cls != TL_NONE && t1 > t0)
			event(b, inst, "", NULL, tl_classes[cls].name, exposed, tid, t0, t1, span);
		if (exposed && !done)
			event(b, inst, "exposed wait: ", "exposed", "exposed", exposed, base,
			      t1 - exposed, t1, NULL);
	}
}

void tl_write_trace(struct tl_buf *b, const struct tl_view *v)
{
	const pl_schedule *s = v->s;
	const struct tl_step *st = v->step;
	/* one scope: one run of the function drawn with its loops and calls
	 * (makespan_ns = compute_ns + exposed_ns) */
	TL_PUTS(b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"function\":");
	json_str(b, v->func);
	tl_buf_printf(b, ",\"scope\":\"%s\"",
	              st ? "one run with its loops and calls" : "one run of the function");
	tl_buf_printf(b, ",\"makespan_ns\":%" PRIu64 ",\"compute_ns\":%" PRIu64
	                 ",\"comm_ns\":%" PRIu64 ",\"exposed_ns\":%" PRIu64,
	              v->whole.makespan, v->whole.compute, v->whole.comm, v->whole.exposed);
	if (st && st->whole)
		tl_buf_printf(b, ",\"step_ns\":%" PRIu64, v->whole.makespan);
	TL_PUTS(b, "},\n\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
	              "\"args\":{\"name\":");
	json_str(b, v->title);
	TL_PUTS(b, "}}");
	threads(b, s, st ? &st->parts[0] : NULL, 0, "compute", "");
	size_t base = pl_schedule_num_groups(s) + 1;
	for (size_t k = 1; st && k < st->n; k++) {
		const struct tl_part *p = &st->parts[k];
		struct tl_buf prefix = {0};
		tl_buf_printf(&prefix, "@%s: ", pl_func_name(p->f));
		threads(b, p->s, p, base, p->thread, prefix.data ? prefix.data : "");
		if (prefix.failed)
			b->failed = true;
		tl_buf_free(&prefix);
		base += pl_schedule_num_groups(p->s) + 1;
	}
	slices(b, s, st ? &st->parts[0] : NULL, 0, 0, st ? st->parts[0].spans : NULL,
	       st ? st->parts[0].nspans : 0);
	base = pl_schedule_num_groups(s) + 1;
	for (size_t k = 1; st && k < st->n; k++) {
		const struct tl_part *p = &st->parts[k];
		slices(b, p->s, p, base, p->offset_ns, p->spans, p->nspans);
		base += pl_schedule_num_groups(p->s) + 1;
	}
	TL_PUTS(b, "\n]}\n");
}
