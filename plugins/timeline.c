/* SPDX-License-Identifier: MIT */
/* Contract: reads the module, the call graph and the cost model; changes nothing; hands the host an SVG and a trace-event JSON file; needs verified IR. */
/* plugins/timeline.c — Timeline: a picture of the simulated schedule of
 * a whole step (the entry as its step is simulated, passline/callgraph.h;
 * timeline_step.c) or, in a module without an entry, of one function
 * (passline/cost.h), as SVG and as Chrome trace-event JSON, handed to the
 * host as files. Reads: the module and the cost model. Changes: nothing. */
#include "timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executions.h"
#include "fusion_option.h"
#include "pass_end.h"

const struct tl_class_info tl_classes[TL_NUM_CLASSES] = {
	[TL_CONTRACT] = {"contract", "contract", "#4e79a7"},
	[TL_LOAD_STORE] = {"load_store", "load/store", "#59a14f"},
	[TL_OTHER] = {"compute", "other compute", "#bab0ac"},
	[TL_EXPOSED] = {"exposed", "exposed wait", "#e15759"},
	[TL_ALL_GATHER] = {"all_gather", "all-gather", "#f28e2b"},
	[TL_REDUCE_SCATTER] = {"reduce_scatter", "reduce-scatter", "#b07aa1"},
	[TL_ALL_REDUCE] = {"all_reduce", "all-reduce", "#76b7b2"},
	[TL_ALL_TO_ALL] = {"all_to_all", "all-to-all", "#edc948"},
	[TL_PERMUTE] = {"collective_permute", "permute", "#9c755f"},
	[TL_BROADCAST] = {"collective_broadcast", "broadcast", "#ff9da7"},
	[TL_OTHER_COMM] = {"collective", "other collective", "#79706e"},
	[TL_SPAN] = {"span", "loop / call", "#a0cbe8"},
};

/* The class of an XLA collective (the opcode table's COLL), its -start
 * or its -done (*done set); TL_NONE for any other op. */
static enum tl_class hlo_class(const pl_inst *inst, bool *done)
{
	static const enum tl_class classes[] = {
		[PL_HLO_COLL_NONE] = TL_NONE,
		[PL_HLO_COLL_ALL_GATHER] = TL_ALL_GATHER,
		[PL_HLO_COLL_REDUCE_SCATTER] = TL_REDUCE_SCATTER,
		[PL_HLO_COLL_ALL_REDUCE] = TL_ALL_REDUCE,
		[PL_HLO_COLL_ALL_TO_ALL] = TL_ALL_TO_ALL,
		[PL_HLO_COLL_PERMUTE] = TL_PERMUTE,
		[PL_HLO_COLL_BROADCAST] = TL_BROADCAST,
	};
	int phase = 0;
	enum pl_hlo_coll c = pl_inst_hlo_coll(inst, &phase);
	if ((unsigned)c >= sizeof classes / sizeof *classes || classes[c] == TL_NONE)
		return TL_NONE;
	if (phase == 2) {
		*done = true;
		return TL_NONE;
	}
	return classes[c];
}

static enum tl_class sdk_class(pl_op op)
{
	switch (op) {
	case PL_OP_ALL_GATHER:
	case PL_OP_ALL_GATHER_START: return TL_ALL_GATHER;
	case PL_OP_REDUCE_SCATTER:
	case PL_OP_REDUCE_SCATTER_START: return TL_REDUCE_SCATTER;
	case PL_OP_ALL_REDUCE:
	case PL_OP_ALL_REDUCE_START: return TL_ALL_REDUCE;
	default: return TL_NONE;
	}
}

/* The class of the collective an async-start calls: that of the root of
 * its computation (hlo_calls), else TL_NONE. */
static enum tl_class async_class(const pl_inst *inst)
{
	const pl_func *f = pl_inst_callee(inst, "hlo_calls", 0);
	const pl_inst *ret = f ? pl_func_last_inst(f) : NULL;
	const pl_inst *root = ret && pl_inst_num_operands(ret) ? pl_value_def(pl_inst_operand(ret, 0))
	                                                       : NULL;
	if (!root)
		return TL_NONE;
	enum tl_class cls = sdk_class(pl_inst_op(root));
	bool done = false;
	if (cls == TL_NONE)
		cls = hlo_class(root, &done);
	return done ? TL_NONE : cls;
}

/* Whether start is an async-start of a collective (its async-done is a
 * collective's done). */
static bool is_async_collective(const pl_inst *start)
{
	return start && pl_inst_hlo_op(start) == PL_HLO_ASYNC_START &&
	       async_class(start) != TL_NONE;
}

/* The class of inst by what it is, as tl_class_at says. */
static enum tl_class class_of(const pl_inst *inst, bool *done)
{
	enum tl_class cls = sdk_class(pl_inst_op(inst));
	unsigned traits = pl_inst_traits(inst);
	*done = false;
	if (cls != TL_NONE)
		return cls;
	if (traits & PL_TRAIT_COLLECTIVE_DONE) {
		*done = true;
		return TL_NONE;
	}
	if (traits & PL_TRAIT_TERMINATOR)
		return TL_NONE;
	if (pl_inst_is_hlo(inst)) {
		pl_hlo_op op = pl_inst_hlo_op(inst);
		if (op == PL_HLO_ASYNC_START)
			cls = async_class(inst);
		else if (op == PL_HLO_ASYNC_DONE)
			*done = is_async_collective(
			        pl_inst_num_operands(inst) ? pl_value_def(pl_inst_operand(inst, 0)) : NULL);
		else
			cls = hlo_class(inst, done);
		if (cls != TL_NONE || *done)
			return cls;
	}
	if (traits & PL_TRAIT_CONTRACT)
		return TL_CONTRACT;
	if (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE))
		return TL_LOAD_STORE;
	return TL_OTHER;
}

enum tl_class tl_class_at(const pl_schedule *s, size_t i, bool *done)
{
	enum tl_class cls = class_of(pl_schedule_inst(s, i), done);
	if (pl_schedule_lane(s, i) != 0 && cls < TL_FIRST_COMM)
		cls = TL_OTHER_COMM;
	return cls;
}

/* ---- lane labels ---- */

/* How many groups a replica-group list "{{0,1},{2,3}}" (the text from its
 * first "{{") has, and their size when all have the same (else 0). */
static bool group_shape(const char *s, size_t *ngroups, size_t *size)
{
	size_t n = 0, cur = 0, same = 0;
	bool uniform = true;
	int depth = 0;
	for (s++; *s; s++) { /* past the outer brace */
		if (*s == '{') {
			depth++;
			cur = 1;
		} else if (*s == ',' && depth == 1) {
			cur++;
		} else if (*s == '}') {
			if (depth == 0)
				break;
			depth--;
			if (n++ == 0)
				same = cur;
			else if (cur != same)
				uniform = false;
		}
	}
	*ngroups = n;
	*size = uniform ? same : 0;
	return n > 0 && depth == 0;
}

void tl_group_label(struct tl_buf *b, size_t g, const char *name, size_t max)
{
	if (!*name) {
		TL_PUTS(b, "(no group)");
		return;
	}
	if (strlen(name) <= max) {
		tl_buf_put(b, name, strlen(name));
		return;
	}
	/* "@2 global 64×2": the lane's group index, what comes before the
	 * list, the list's shape (its count of groups by their size) */
	struct tl_buf shape = {0};
	const char *list = strstr(name, "{{");
	size_t n, size;
	if (list && group_shape(list, &n, &size)) {
		if (size)
			tl_buf_printf(&shape, " %zu×%zu", n, size);
		else
			tl_buf_printf(&shape, " %zu groups", n);
	}
	size_t at = b->len;
	tl_buf_printf(b, "@%zu", g + 1);
	size_t head = list ? (size_t)(list - name) : strlen(name);
	while (head && (name[head - 1] == ':' || name[head - 1] == '=' || name[head - 1] == ' '))
		head--;
	size_t used = b->len - at + shape.len; /* bytes; × counts as one letter */
	if (head && used + 1 < max) {
		size_t room = max - used - 1;
		size_t cut = head <= room ? head : room;
		while (cut && cut < head && ((unsigned char)name[cut] & 0xC0) == 0x80)
			cut--;
		TL_PUTS(b, " ");
		tl_buf_put(b, name, cut);
	}
	if (shape.len)
		tl_buf_put(b, shape.data, shape.len);
	tl_buf_free(&shape);
}

/* ---- the text buffer ---- */

static bool grow(struct tl_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *d = realloc(b->data, cap);
	if (!d) {
		b->failed = true;
		return false;
	}
	b->data = d;
	b->cap = cap;
	return true;
}

void tl_buf_put(struct tl_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void tl_buf_printf(struct tl_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n < sizeof small) {
		tl_buf_put(b, small, (size_t)n);
		return;
	}
	if (!grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The length of the well-formed UTF-8 sequence at s, else 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
	                   : (c & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 0 || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4))
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((s[k] & 0xC0) != 0x80)
			return 0;
	if (n == 3) {
		unsigned cp = (c & 0x0F) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
		if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
	}
	if (n == 4) {
		unsigned cp = (c & 0x07) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6;
		if (cp < 0x10000 || cp > 0x10FFFF)
			return 0;
	}
	return n;
}

/* Copies the character at *s (valid UTF-8, else "?": names are bytes, the
 * SVG and JSON files are UTF-8) and steps past it. */
static void put_char(struct tl_buf *b, const char **s)
{
	size_t n = utf8_len((const unsigned char *)*s);
	tl_buf_put(b, n ? *s : "?", n ? n : 1);
	*s += n ? n - 1 : 0;
}

void tl_buf_xml(struct tl_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': TL_PUTS(b, "&amp;"); break;
		case '<': TL_PUTS(b, "&lt;"); break;
		case '>': TL_PUTS(b, "&gt;"); break;
		case '"': TL_PUTS(b, "&quot;"); break;
		case '\'': TL_PUTS(b, "&apos;"); break;
		default:
			/* XML 1.0 has no place for other control characters */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				TL_PUTS(b, "?");
			else
				put_char(b, &s);
		}
	}
}

void tl_buf_json(struct tl_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			tl_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			tl_buf_printf(b, "\\u%04x", c);
		else
			put_char(b, &s);
	}
}

void tl_buf_u64(struct tl_buf *b, uint64_t v)
{
	char digits[20];
	size_t n = 0;
	do {
		digits[sizeof digits - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	tl_buf_put(b, digits + sizeof digits - n, n);
}

void tl_buf_us(struct tl_buf *b, uint64_t ns)
{
	unsigned frac = (unsigned)(ns % 1000);
	char tail[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
	                (char)('0' + frac % 10)};
	tl_buf_u64(b, ns / 1000);
	tl_buf_put(b, tail, sizeof tail);
}

void tl_buf_free(struct tl_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

bool tl_has_names(const pl_inst *inst)
{
	for (size_t k = 0; k < pl_inst_num_results(inst); k++)
		if (pl_value_name(pl_inst_result(inst, k)))
			return true;
	return false;
}

void tl_buf_results(struct tl_buf *b, const pl_inst *inst,
                    void (*escape)(struct tl_buf *, const char *))
{
	bool first = true;
	for (size_t k = 0; k < pl_inst_num_results(inst); k++) {
		const char *name = pl_value_name(pl_inst_result(inst, k));
		if (!name)
			continue;
		if (first)
			TL_PUTS(b, "%");
		else
			TL_PUTS(b, ", %");
		escape(b, name);
		first = false;
	}
}

/* ---- the pass ---- */

static const pl_option_decl timeline_options[] = {
	PL_OPTION_STRING("svg", "", "SVG file to write, beside the output (empty: none)."),
	PL_OPTION_STRING("trace", "",
	                 "Chrome trace-event JSON file to write (empty: none)."),
	PL_OPTION_STRING("function", "",
	                 "The function to draw (empty: the entry with its loops and calls, in a "
	                 "module without one the function with the largest makespan)."),
	PL_OPTION_STRING("title", "", "The picture's title (empty: the function's name)."),
	PL_OPTION_INT("span_ns", "0", 0, INT64_MAX,
	              "Time across the SVG's plot in ns (0: the makespan; never less than it)."),
	PL_OPTION_BOOL("axis", "true",
	               "Draw the SVG's time axis and legend (false: lanes and caption only)."),
	PL_OPTION_INT("max_depth", "8", 0, 1000,
	              "How deep below the step's root its loops' and calls' functions are "
	              "drawn (0: the root alone, each loop and call a box)."),
	PL_OPTION_INT("fold_below_us", "0", 0, INT64_MAX / 1000,
	              "Draw no panel for a function one run of which takes less than this "
	              "many microseconds: its loop or call stays a box (0: fold nothing)."),
	PL_OPTION_STRING("part_span_ns", "",
	                 "NAME=NS[,NAME=NS...]: the time across the SVG's plot for the panel of "
	                 "function NAME in a step (never less than its run), so that pictures "
	                 "drawn with the same spans share scales (empty: each its own)."),
	EXECUTIONS_OPTION,
	FUSION_OPTIONS("Draw a step's functions as the kernels of the fusion model, as "
	               "ScheduleEstimate times them: on, off, or auto (on for an HLO function "
	               "without fusion instructions)."),
	PL_OPTION_END
};

/* The schedule of the function named (with or without '@'), or of the one
 * with the largest makespan (the first of equals). */
static int pick(pl_pass_ctx *ctx, pl_module *m, const char *want, pl_schedule **out,
                const pl_func **fout)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	*out = NULL;
	*fout = NULL;
	if (*want) {
		const char *name = want[0] == '@' ? want + 1 : want;
		const pl_func *f = pl_module_find_func(m, name);
		if (!f) {
			pl_ctx_error(ctx, NULL, "no function @%s in the module", name);
			return PL_ENOTFOUND;
		}
		*fout = f;
		return pl_schedule_new(out, f, cm);
	}
	for (size_t k = 0; k < pl_module_num_funcs(m); k++) {
		const pl_func *f = pl_module_func_at(m, k);
		pl_schedule *s;
		int rc = pl_schedule_new(&s, f, cm);
		if (rc != PL_OK) {
			pl_schedule_free(*out);
			*out = NULL;
			return rc;
		}
		if (!*out || pl_schedule_makespan_ns(s) > pl_schedule_makespan_ns(*out)) {
			pl_schedule_free(*out);
			*out = s;
			*fout = f;
		} else {
			pl_schedule_free(s);
		}
	}
	return PL_OK;
}

static int write_one(pl_pass_ctx *ctx, const char *name, const struct tl_view *v,
                     void (*writer)(struct tl_buf *, const struct tl_view *))
{
	if (!*name)
		return PL_OK;
	struct tl_buf b = {0};
	writer(&b, v);
	int rc = b.failed ? PL_ENOMEM : pl_ctx_write_file(ctx, name, b.data, b.len);
	tl_buf_free(&b);
	return rc;
}

/* The title: the option, else "@NAME" (NULL when out of memory). */
static char *title_of(const char *title, const pl_func *f)
{
	const char *src = *title ? title : pl_func_name(f);
	size_t n = strlen(src) + 2;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%s%s", *title ? "" : "@", src);
	return t;
}

static int write_both(pl_pass_ctx *ctx, const struct tl_view *v, const char *svg,
                      const char *trace, int *written_rc)
{
	int rc = *written_rc = write_one(ctx, svg, v, tl_write_svg);
	if (rc == PL_OK)
		rc = *written_rc = write_one(ctx, trace, v, tl_write_trace);
	return rc;
}

/* What the options ask for. */
struct tl_opts {
	const char *svg, *trace, *function, *title, *part_spans;
	int64_t span_ns, max_depth, fold_below_us;
	uint64_t floor_ns;
	bool axis;
	pl_fusion_mode mode;
};

/* Whether text is NAME=NS[,NAME=NS...] (or empty). */
static bool part_spans_ok(const char *text)
{
	for (const char *p = text; *p;) {
		const char *eq = strchr(p, '=');
		const char *comma = strchr(p, ',');
		if (!eq || eq == p || (comma && comma < eq))
			return false;
		const char *d = eq + 1;
		if (*d < '0' || *d > '9')
			return false;
		while (*d >= '0' && *d <= '9')
			d++;
		if (*d && *d != ',')
			return false;
		p = *d ? d + 1 : d;
		if (*d && !*p)
			return false;
	}
	return true;
}

/* A whole step: root (the function option, else the entry) with what its
 * loops, calls and conditionals run, as the step simulates it. */
static int draw_step(pl_pass_ctx *ctx, pl_module *m, const pl_callgraph *cg,
                     const struct tl_opts *o)
{
	const char *function = o->function, *title = o->title;
	const pl_func *root = pl_callgraph_entry(cg), *failed = NULL;
	if (*function) {
		const char *name = function[0] == '@' ? function + 1 : function;
		if (!(root = pl_module_find_func(m, name))) {
			pl_ctx_error(ctx, NULL, "no function @%s in the module", name);
			return PL_ENOTFOUND;
		}
	}
	struct tl_step st = {0};
	struct tl_limits lim = {(size_t)o->max_depth, (uint64_t)o->fold_below_us * 1000};
	int rc = tl_step_build(&st, cg, root, pl_ctx_cost_model(ctx), o->mode,
	                       o->floor_ns, &lim, &failed);
	int written_rc = 0;
	bool explained = false;
	char *t = rc ? NULL : title_of(title, root);
	if (rc == PL_OK && !t)
		rc = PL_ENOMEM;
	if (rc == PL_OK) {
		struct tl_view v = {st.parts[0].s, pl_func_name(root), t, (uint64_t)o->span_ns,
		                    o->axis, &st, o->part_spans, st.parts[0].whole};
		rc = write_both(ctx, &v, o->svg, o->trace, &written_rc);
	} else if (failed && rc != PL_ENOMEM) {
		pl_ctx_error(ctx, pl_func_first_inst(failed), "cannot simulate @%s in the step: %s",
		             pl_func_name(failed),
		             rc == PL_EOVERFLOW ? "longer than 2^64 - 1 ns" : pl_status_string(rc));
		explained = true;
	}
	free(t);
	tl_step_free(&st);
	if (explained || (rc == PL_EINVAL && written_rc == PL_EINVAL))
		return rc; /* already explained */
	return pass_end_report(ctx, rc, "simulate the step");
}

static int timeline_run(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)state;
	struct tl_opts o = {"", "", "", "", "", 0, 8, 0, 1000, true, PL_FUSION_AUTO};
	pl_ctx_get_string(ctx, "svg", &o.svg);
	pl_ctx_get_string(ctx, "part_span_ns", &o.part_spans);
	pl_ctx_get_int(ctx, "max_depth", &o.max_depth);
	pl_ctx_get_int(ctx, "fold_below_us", &o.fold_below_us);
	if (!part_spans_ok(o.part_spans)) {
		pl_ctx_error(ctx, NULL, "option part_span_ns: expected NAME=NS[,NAME=NS...], not '%s'",
		             o.part_spans);
		return PL_EINVAL;
	}
	pl_ctx_get_string(ctx, "trace", &o.trace);
	pl_ctx_get_string(ctx, "function", &o.function);
	pl_ctx_get_string(ctx, "title", &o.title);
	pl_ctx_get_int(ctx, "span_ns", &o.span_ns);
	pl_ctx_get_bool(ctx, "axis", &o.axis);
	o.mode = fusion_option(ctx, &o.floor_ns);
	const char *svg = o.svg, *trace = o.trace, *function = o.function, *title = o.title;
	int prc = pl_module_prepare_counts(m); /* each pair counted once */
	if (prc)
		return pass_end_report(ctx, prc, "count");
	pl_callgraph *cg = NULL;
	if ((prc = executions_graph(ctx, m, &cg)))
		return prc;
	if (pl_callgraph_entry(cg)) {
		prc = draw_step(ctx, m, cg, &o);
		pl_callgraph_free(cg);
		return prc;
	}
	pl_callgraph_free(cg); /* no entry: one function, as it runs once */
	pl_schedule *s;
	const pl_func *f;
	int rc = pick(ctx, m, function, &s, &f), written_rc = PL_OK;
	if (rc == PL_ENOTFOUND)
		return rc; /* already explained */
	if (rc == PL_OK && !s) {
		pl_ctx_warning(ctx, NULL, "the module has no function: nothing to draw");
		return PL_OK;
	}
	if (rc == PL_OK) {
		char *t = title_of(title, f);
		struct tl_totals whole = {pl_schedule_makespan_ns(s), pl_schedule_compute_ns(s),
		                          pl_schedule_comm_ns(s), pl_schedule_exposed_ns(s)};
		struct tl_view v = {s, pl_func_name(f), t, (uint64_t)o.span_ns, o.axis, NULL, NULL,
		                    whole};
		rc = t ? write_both(ctx, &v, svg, trace, &written_rc) : PL_ENOMEM;
		free(t);
	}
	pl_schedule_free(s);
	if (rc == PL_EINVAL && written_rc == PL_EINVAL)
		return rc; /* a refused file name, already explained */
	return pass_end_report(ctx, rc, "simulate the schedule");
}

static const pl_pass_desc timeline_pass = {
	PL_PASS_DESC_INIT,
	.name = "Timeline",
	.summary = "Draws the simulated schedule of a whole step (the entry, each loop, call "
	           "and conditional a span with what it runs drawn once below) or of a "
	           "function, as SVG and as a Chrome trace (changes nothing).",
	.options = timeline_options,
	.run = timeline_run,
	.flags = PL_PASS_READ_ONLY, /* reports only */
};

PL_PLUGIN_DEFINE("Timeline", PACKAGE_VERSION, "MIT",
                 "A picture of the simulated schedule.", &timeline_pass)
