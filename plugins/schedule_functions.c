/* SPDX-License-Identifier: MIT */
/* plugins/schedule_functions.c — ScheduleEstimate's per-function figures,
 * written as JSON when its option functions names a file: the cost model in
 * force, the entry and step_ns, then per function, in module order, how
 * often it runs from the entry and its figures per execution (flops and
 * bytes as DetailDynInst counts them; makespan, compute, communication and
 * exposed communication as pl_schedule_new_totals simulates it).
 */
#include <passline/passline.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule_functions.h"
#include "u128_int.h"

struct buf {
	char *data;
	size_t len, cap;
	bool failed;
};

static void put(struct buf *b, const char *fmt, ...) PL_PRINTF(2, 3);
static void put(struct buf *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->data ? b->data + b->len : NULL, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if (b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
		char *d = realloc(b->data, cap);
		if (!d) {
			b->failed = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
}

static void put_string(struct buf *b, const char *s)
{
	put(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			put(b, "\\%c", *p);
		else if (*p < 0x20)
			put(b, "\\u%04x", *p);
		else
			put(b, "%c", *p);
	}
	put(b, "\"");
}

static void put_u128(struct buf *b, u128 v)
{
	char dec[PL_U128_DEC_BUFSIZE];
	put(b, "%s", u128_format(v, dec));
}

/* flops and bytes of one execution of f, as DetailDynInst counts them. */
static int count(pl_pass_ctx *ctx, const pl_func *f, u128 *flops,
                 u128 *bytes)
{
	*flops = *bytes = 0;
	for (const pl_inst *inst = pl_func_first_inst(f); inst; inst = pl_inst_next(inst)) {
		uint64_t n;
		int64_t fl = 0;
		unsigned traits = pl_inst_traits(inst);
		int rc = pl_inst_masked_dynamic_instances(inst, &n);
		const pl_value *v = NULL;
		if (rc == PL_OK && (traits & (PL_TRAIT_LOAD | PL_TRAIT_STORE))) {
			v = traits & PL_TRAIT_LOAD
			            ? (pl_inst_num_results(inst) ? pl_inst_result(inst, 0) : NULL)
			            : (pl_inst_num_operands(inst) ? pl_inst_operand(inst, 0) : NULL);
			if (!v)
				rc = PL_EINVAL;
		} else if (rc == PL_OK) {
			rc = pl_inst_flops(inst, &fl);
		}
		if (rc) {
			pl_ctx_error(ctx, inst, "cannot count %s in @%s: %s", pl_inst_opname(inst),
			             pl_func_name(f), pl_status_string(rc));
			return rc;
		}
		/* each product is below 2^127; a function's sum of them cannot
		 * pass 2^128 - 1 for fewer than 2 instructions per byte of it */
		if (v)
			*bytes += (u128)n * pl_dtype_size(pl_type_dtype(pl_value_type(v)));
		else
			*flops += (u128)n * (uint64_t)fl;
	}
	return PL_OK;
}

int schedule_write_functions(pl_pass_ctx *ctx, const pl_module *m, const pl_callgraph *cg,
                             const char *name, uint64_t step_ns)
{
	const pl_cost_model *cm = pl_ctx_cost_model(ctx);
	struct buf b = {0};
	int rc = PL_OK;
	/* the model in force as --stats-json writes it: its preset (null for
	 * the exact integer model), whether it is that model, and the keys it
	 * reads (every key by name, or the four integer keys) */
	bool exact = pl_cost_model_is_exact(cm);
	const char *preset = pl_cost_model_preset(cm);
	put(&b, "{\"cost_model\": {\"preset\": ");
	if (preset)
		put_string(&b, preset);
	else
		put(&b, "null");
	put(&b, ", \"exact\": %s", exact ? "true" : "false");
	for (size_t k = 0; k < pl_cost_model_num_params(); k++) {
		const char *key = pl_cost_model_param_name(k);
		int kind = pl_cost_model_param_kind(k);
		char v[64];
		if (kind == PL_COST_KEY_TEXT || (kind == PL_COST_KEY_ALIAS) != exact ||
		    pl_cost_model_format(cm, key, v, sizeof v) != PL_OK)
			continue;
		put(&b, ", ");
		put_string(&b, key);
		put(&b, ": %s", v);
	}
	put(&b, "}, \"entry\": ");
	if (pl_callgraph_entry(cg))
		put_string(&b, pl_func_name(pl_callgraph_entry(cg)));
	else
		put(&b, "null");
	put(&b, ", \"step_ns\": %llu, \"functions\": [", (unsigned long long)step_ns);
	for (size_t fi = 0; fi < pl_module_num_funcs(m) && rc == PL_OK; fi++) {
		const pl_func *f = pl_module_func_at(m, fi);
		uint64_t hi = 0, lo = 0;
		u128 flops, bytes;
		pl_schedule *s = NULL;
		pl_callgraph_executions(cg, f, &hi, &lo); /* the pass checked them */
		if ((rc = count(ctx, f, &flops, &bytes)) ||
		    (rc = pl_schedule_new_totals(&s, f, cm)))
			break;
		put(&b, "%s\n  {\"name\": ", fi ? "," : "");
		put_string(&b, pl_func_name(f));
		put(&b, ", \"executions\": ");
		put_u128(&b, u128_of(hi, lo));
		put(&b, ", \"flops\": ");
		put_u128(&b, flops);
		put(&b, ", \"bytes\": ");
		put_u128(&b, bytes);
		put(&b,
		    ", \"makespan_ns\": %llu, \"compute_ns\": %llu, \"comm_ns\": %llu, "
		    "\"exposed_comm_ns\": %llu}",
		    (unsigned long long)pl_schedule_makespan_ns(s),
		    (unsigned long long)pl_schedule_compute_ns(s),
		    (unsigned long long)pl_schedule_comm_ns(s),
		    (unsigned long long)pl_schedule_exposed_ns(s));
		pl_schedule_free(s);
	}
	put(&b, "\n]}\n");
	if (rc == PL_OK)
		rc = b.failed ? PL_ENOMEM : pl_ctx_write_file(ctx, name, b.data, b.len);
	free(b.data);
	return rc;
}
