/* SPDX-License-Identifier: MIT */
/* plugins/schedule_memory.c — where a step's memory peaks, what is live
 * there (in the spirit of XLA's memory-usage report), and whether it fits
 * the device. */
#include "schedule_memory.h"

#include <stdio.h>
#include <string.h>

#include "labels.h"

/* "bf16[8,128]" into buf. */
static const char *type_text(const pl_type *t, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s[", pl_dtype_name(pl_type_dtype(t)));
	for (size_t d = 0; d < pl_type_rank(t) && len < size; d++)
		len += (size_t)snprintf(buf + len, size - len, "%s%lld", d ? "," : "",
		                        (long long)pl_type_dim(t, d));
	if (len < size)
		snprintf(buf + len, size - len, "]");
	return buf;
}

/* "%name bf16[8,128], 2048 bytes, parameter" into buf. */
static const char *buffer_text(const pl_memory_report *r, size_t k, char *buf, size_t size)
{
	const pl_value *v = pl_memory_report_buffer_value(r, k);
	char type[128];
	snprintf(buf, size, "%%%s %s, %llu bytes, %s", value_label(v),
	         type_text(pl_value_type(v), type, sizeof type),
	         (unsigned long long)pl_memory_report_buffer_bytes(r, k),
	         pl_buffer_kind_name(pl_memory_report_buffer_kind(r, k)));
	return buf;
}

/* The top largest buffers, "; "-separated, into buf. */
static const char *top_list(const pl_memory_report *r, size_t top, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < top && k < pl_memory_report_num_buffers(r) && len < size; k++) {
		char one[256];
		len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? "; " : "",
		                        buffer_text(r, k, one, sizeof one));
	}
	return buf;
}

/* The device's limit in bytes (device_memory_gb x memory_fraction), or 0
 * when the device's memory is unknown. */
static uint64_t device_limit(const pl_cost_model *cm, double *gb, double *fraction)
{
	*gb = 0;
	*fraction = 0.75;
	if (!cm || pl_cost_model_get_double(cm, "device_memory_gb", gb) != PL_OK || !(*gb > 0))
		return 0;
	if (pl_cost_model_get_double(cm, "memory_fraction", fraction) != PL_OK)
		*fraction = 0.75;
	double bytes = *gb * 1e9 * *fraction;
	return bytes >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)bytes;
}

int schedule_memory_report(pl_pass_ctx *ctx, const pl_callgraph *cg, size_t top,
                           uint64_t *peak)
{
	const pl_func *entry = pl_callgraph_entry(cg);
	pl_memory_report *r;
	int rc = pl_callgraph_memory_report_new(&r, cg, entry);
	if (rc) {
		if (rc != PL_ENOMEM)
			pl_ctx_error(ctx, pl_func_first_inst(entry), "cannot find the peak of the step: %s",
			             pl_status_string(rc));
		return rc;
	}
	*peak = pl_memory_report_peak_bytes(r);
	const pl_inst *at = pl_memory_report_peak_inst(r);
	char where[160] = "its arguments";
	if (at) {
		char name[96];
		snprintf(where, sizeof where, "%s in @%s", inst_remark_label(at, name, sizeof name),
		         pl_func_name(pl_inst_func(at)));
	}
	if (top) {
		rc = pl_ctx_report(ctx, "memory peak: %llu bytes at %s", (unsigned long long)*peak,
		                   where);
		for (size_t k = 0; rc == PL_OK && k < top && k < pl_memory_report_num_buffers(r); k++) {
			char one[256];
			rc = pl_ctx_report(ctx, "memory #%zu: %s", k + 1, buffer_text(r, k, one, sizeof one));
		}
	}
	char list[1024];
	size_t shown = top ? top : 3;
	if (rc == PL_OK && pl_ctx_remarks_enabled(ctx))
		pl_ctx_remark(ctx, at ? at : pl_func_first_inst(entry),
		              "memory peak of the step: %llu bytes at %s; largest live: %s",
		              (unsigned long long)*peak, where, top_list(r, shown, list, sizeof list));
	double gb, fraction;
	uint64_t limit = device_limit(pl_ctx_cost_model(ctx), &gb, &fraction);
	if (rc == PL_OK && limit && *peak > limit)
		pl_ctx_warning(ctx, at ? at : pl_func_first_inst(entry),
		               "the step's predicted peak of %llu bytes at %s exceeds %llu bytes "
		               "(device_memory_gb %g x memory_fraction %g): out of memory; "
		               "largest live: %s",
		               (unsigned long long)*peak, where, (unsigned long long)limit, gb, fraction,
		               top_list(r, shown, list, sizeof list));
	pl_memory_report_free(r);
	return rc;
}
