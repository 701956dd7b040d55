/* SPDX-License-Identifier: MIT */
/* host/compare_svg.c — passline --compare-svg: one picture of each
 * pipeline's schedule, stacked on one time axis.
 *
 * The pictures are the Timeline pass's (plugins/timeline*.c), not drawn
 * here: the Timeline plugin, found through the real loader, runs once per
 * pipeline's result with that pipeline's cost model, on the function with
 * the largest makespan (Timeline's own choice, made here first so that the
 * scale is known), all with one span_ns (the longest of those makespans),
 * so that equal times are equal widths; only the last draws its axis and
 * legend (axis = false for the others). Each picture is a nested <svg>
 * inside a <g class="strategy"> moved down under the one before; its title
 * is the pipeline's name and the function, its caption the makespan and
 * the exposed time. */
#include "host.h"

#include <stdlib.h>
#include <string.h>

int compare_svg_pick(const pl_module *m, const pl_cost_model *cm, struct compare_drawn *out)
{
	pl_cost_model *own = NULL;
	if (!cm && !(cm = own = pl_cost_model_new()))
		return PL_ENOMEM;
	int rc = PL_OK;
	out->func = NULL;
	out->makespan_ns = out->exposed_ns = 0;
	/* Timeline's rule: the largest makespan, the first of equals */
	for (size_t k = 0; k < pl_module_num_funcs(m) && rc == PL_OK; k++) {
		const pl_func *f = pl_module_func_at(m, k);
		pl_schedule *s;
		if ((rc = pl_schedule_new_totals(&s, f, cm)) != PL_OK)
			break;
		if (!out->func || pl_schedule_makespan_ns(s) > out->makespan_ns) {
			out->func = pl_func_name(f);
			out->makespan_ns = pl_schedule_makespan_ns(s);
			out->exposed_ns = pl_schedule_exposed_ns(s);
		}
		pl_schedule_free(s);
	}
	pl_cost_model_free(own);
	return rc;
}

/* The value of the attribute name="..." of the first element of svg (a
 * Timeline picture), or 0. */
static unsigned long root_attr(const char *svg, const char *name)
{
	const char *root = strstr(svg, "<svg ");
	const char *end = root ? strchr(root, '>') : NULL;
	size_t n = strlen(name);
	for (const char *p = root ? root + 5 : NULL; p && p < end; p++)
		if (p[-1] == ' ' && strncmp(p, name, n) == 0 && p[n] == '=' && p[n + 1] == '"')
			return strtoul(p + n + 2, NULL, 10);
	return 0;
}

/* Sets option key of the Timeline step; false after an error. */
static bool set_option(struct step *s, const char *key, const char *value)
{
	char err[256];
	if (pl_ctx_set_option(s->ctx, key, value, err, sizeof err) == PL_OK)
		return true;
	host_error("--compare-svg: Timeline option %s: %s", key, err);
	return false;
}

/* Runs Timeline on d's module; *svg: the picture (malloc'd). */
static int draw_one(struct loader *ld, const struct compare_drawn *d, const char *label,
                    uint64_t span, bool axis, char **svg)
{
	struct pipeline tl;
	*svg = NULL;
	if (!d->func) {
		host_error("--compare-svg: the result of %s has no function to draw", label);
		return EXIT_INPUT;
	}
	if (!pipeline_from_list("Timeline", &tl)) {
		pipeline_free(&tl);
		return EXIT_INPUT;
	}
	tl.cost_model = d->cost_model; /* borrowed: given back below */
	int status = loader_resolve(ld, &tl);
	pl_diags *diags = pl_diags_new();
	if (!diags) {
		host_error("out of memory");
		status = EXIT_INPUT;
	} else {
		pl_diags_set_handler(diags, host_diag_printer, NULL);
	}
	if (status == EXIT_OK)
		status = runner_configure(&tl, diags, false, 1);
	struct step *s = &tl.steps[0];
	char *title = xasprintf("%s: @%s", label, d->func);
	char *span_text = xasprintf("%" PRIu64, span);
	if (status == EXIT_OK &&
	    !(set_option(s, "svg", "compare.svg") && set_option(s, "function", d->func) &&
	      set_option(s, "title", title) && set_option(s, "span_ns", span_text) &&
	      set_option(s, "axis", axis ? "true" : "false")))
		status = EXIT_INPUT;
	free(title);
	free(span_text);
	if (status == EXIT_OK) {
		struct run_options ro = {false, false, 1};
		status = runner_run(&tl, d->module, &ro);
	}
	if (status == EXIT_OK) {
		size_t len = 0;
		const void *data = pl_ctx_num_files(s->ctx) ? pl_ctx_file_data(s->ctx, 0, &len) : NULL;
		if (!data || !len) {
			host_error("--compare-svg: Timeline drew nothing for %s", label);
			status = EXIT_PASS;
		} else {
			*svg = xmalloc(len + 1);
			memcpy(*svg, data, len);
			(*svg)[len] = '\0';
		}
	}
	runner_finish(&tl);
	pl_diags_free(diags);
	tl.cost_model = NULL;
	pipeline_free(&tl);
	return status;
}

/* The picture without its XML declaration, to nest. */
static const char *body_of(const char *svg)
{
	if (strncmp(svg, "<?xml", 5) == 0) {
		const char *nl = strchr(svg, '\n');
		return nl ? nl + 1 : svg;
	}
	return svg;
}

/* The length of the well-formed UTF-8 sequence at s (shortest form, no
 * surrogate), else 0. */
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
	if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)))
		return 0;
	if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90)))
		return 0;
	return n;
}

/* s as XML text: the five entities, '?' for control characters and bytes
 * that are not UTF-8 (names are bytes; the file is UTF-8). */
static void xml_text(FILE *out, const char *s)
{
	while (*s) {
		size_t n = utf8_len((const unsigned char *)s);
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if (!n || (unsigned char)*s < 0x20)
				fputc('?', out);
			else
				fwrite(s, 1, n, out);
		}
		s += n ? n : 1;
	}
}

enum { HEADING = 40 }; /* the picture's own title above the stack */

int compare_svg_draw(const struct compare_request *rq, const struct compare_drawn *drawn,
                     const char *const *labels, size_t n, char **svg)
{
	uint64_t span = 0;
	for (size_t k = 0; k < n; k++)
		if (drawn[k].makespan_ns > span)
			span = drawn[k].makespan_ns;
	struct loader ld;
	loader_init(&ld, NULL, rq->plugin_dirs, rq->nplugin_dirs);
	ld.allow_insecure = rq->allow_insecure;
	int status = EXIT_OK;
	for (size_t k = 0; k < n && status == EXIT_OK; k++)
		status = draw_one(&ld, &drawn[k], labels[k], span, k + 1 == n, &svg[k]);
	loader_free(&ld);
	return status;
}

void compare_svg_print(FILE *out, const struct compare_request *rq,
                       const struct compare_drawn *drawn, const char *const *labels,
                       char *const *svg, size_t n)
{
	uint64_t span = 0;
	unsigned long width = 0, height = HEADING;
	for (size_t k = 0; k < n; k++) {
		if (drawn[k].makespan_ns > span)
			span = drawn[k].makespan_ns;
		unsigned long w = root_attr(svg[k], "width");
		width = w > width ? w : width;
		height += root_attr(svg[k], "height");
	}
	fprintf(out,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%lu\" height=\"%lu\" "
	        "viewBox=\"0 0 %lu %lu\" font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<rect width=\"%lu\" height=\"%lu\" fill=\"#ffffff\"/>\n"
	        "<text x=\"120\" y=\"28\" font-size=\"18\" font-weight=\"bold\">",
	        width, height, width, height, width, height);
	const char *slash = strrchr(rq->input, '/');
	xml_text(out, slash ? slash + 1 : rq->input);
	fprintf(out, ": %zu pipeline%s on one time axis</text>\n", n, n == 1 ? "" : "s");
	unsigned long y = HEADING;
	for (size_t k = 0; k < n; k++) {
		fputs("<g class=\"strategy\" data-pipeline=\"", out);
		xml_text(out, labels[k]);
		fputs("\" data-function=\"", out);
		xml_text(out, drawn[k].func);
		fprintf(out,
		        "\" data-makespan-ns=\"%" PRIu64 "\" data-exposed-ns=\"%" PRIu64
		        "\" data-span-ns=\"%" PRIu64 "\" transform=\"translate(0,%lu)\">\n",
		        drawn[k].makespan_ns, drawn[k].exposed_ns, span, y);
		fputs(body_of(svg[k]), out);
		fputs("</g>\n", out);
		y += root_attr(svg[k], "height");
	}
	fputs("</svg>\n", out);
}
