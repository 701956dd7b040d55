/* SPDX-License-Identifier: MIT */
/* plugins/timeline_trace.c — the schedule in the Chrome trace-event JSON
 * format that Perfetto (ui.perfetto.dev) and chrome://tracing open: one
 * thread per lane (compute, then each process group) named by metadata
 * events, one complete event ("ph": "X") per instruction that takes time
 * or waits, named by the instruction with its opcode as category and its
 * bytes, group and exposed time in args, timestamps and durations in microseconds with the exact
 * nanoseconds as three decimals. */
#include "timeline.h"

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
                  const char *cls, uint64_t exposed, size_t tid, uint64_t t0, uint64_t t1)
{
	TL_PUTS(b, ",\n{\"name\":\"");
	tl_buf_json(b, prefix);
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
	uint64_t bytes = 0;
	bool ok = true;
	for (size_t k = 0; k < pl_inst_num_results(inst) && ok; k++) {
		uint64_t n;
		ok = pl_type_num_bytes(pl_value_type(pl_inst_result(inst, k)), &n) == PL_OK &&
		     bytes + n >= bytes;
		bytes += ok ? n : 0;
	}
	if (ok && pl_inst_num_results(inst)) {
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
	TL_PUTS(b, "}}");
}

void tl_write_trace(struct tl_buf *b, const struct tl_view *v)
{
	const pl_schedule *s = v->s;
	TL_PUTS(b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"function\":");
	json_str(b, v->func);
	tl_buf_printf(b, ",\"makespan_ns\":%" PRIu64 ",\"compute_ns\":%" PRIu64
	                 ",\"comm_ns\":%" PRIu64 ",\"exposed_ns\":%" PRIu64 "},\n",
	              pl_schedule_makespan_ns(s), pl_schedule_compute_ns(s),
	              pl_schedule_comm_ns(s), pl_schedule_exposed_ns(s));
	TL_PUTS(b, "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
	              "\"args\":{\"name\":");
	json_str(b, v->title);
	TL_PUTS(b, "}}");
	thread_meta(b, 0, "compute");
	for (size_t g = 0; g < pl_schedule_num_groups(s); g++) {
		struct tl_buf label = {0}; /* the whole name is in each slice's args */
		tl_group_label(&label, g, pl_schedule_group_name(s, g), 40);
		thread_meta(b, g + 1, label.data ? label.data : "");
		if (label.failed)
			b->failed = true;
		tl_buf_free(&label);
	}
	for (size_t i = 0; i < pl_schedule_num_insts(s); i++) {
		const pl_inst *inst = pl_schedule_inst(s, i);
		uint64_t t0 = pl_schedule_begin_ns(s, i), t1 = pl_schedule_end_ns(s, i);
		uint64_t exposed = pl_schedule_inst_exposed_ns(s, i);
		size_t tid = pl_schedule_lane(s, i);
		bool done;
		enum tl_class cls = tl_class_at(s, i, &done);
		if (done)
			event(b, inst, "", NULL, exposed ? "exposed" : "done", exposed, tid, t0, t1);
		else if (cls != TL_NONE && t1 > t0)
			event(b, inst, "", NULL, tl_classes[cls].name, exposed, tid, t0, t1);
		if (exposed && !done)
			event(b, inst, "exposed wait: ", "exposed", "exposed", exposed, 0, t1 - exposed,
			      t1);
	}
	TL_PUTS(b, "\n]}\n");
}
