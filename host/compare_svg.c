/* SPDX-License-Identifier: MIT */
/* host/compare_svg.c — passline --compare-svg: one picture of each
 * pipeline's schedule, stacked on one time axis.
 *
 * The pictures are the Timeline pass's (plugins/timeline*.c), not drawn
 * here: the Timeline plugin, found through the real loader, runs on each
 * pipeline's result with that pipeline's cost model and draws what it
 * draws by default (the step of the entry, with what its loops and calls
 * run below it; a module without an entry, its longest function). It
 * runs twice: once to learn each picture's length (data-makespan-ns of
 * its root element) and its parts' (data-parts), then again with span_ns
 * the longest step and part_span_ns each part's longest run, so that the
 * longest step fills the plot, equal times are equal widths, and a loop
 * body drawn in two strategies is drawn on one scale. Only the last draws
 * the legend (axis = false for the others). Each picture is a nested <svg>
 * inside a <g class="strategy"> moved down under the one before; its title
 * is the pipeline's name and the function, its caption the step's times. */
#include "host.h"

#include <stdlib.h>
#include <string.h>

/* The text of the attribute name="..." of the first element of svg (a
 * Timeline picture), malloc'd, or NULL. */
static char *root_text(const char *svg, const char *name)
{
	const char *root = strstr(svg, "<svg ");
	const char *end = root ? strchr(root, '>') : NULL;
	size_t n = strlen(name);
	for (const char *p = root ? root + 5 : NULL; p && p < end; p++)
		if (p[-1] == ' ' && strncmp(p, name, n) == 0 && p[n] == '=' && p[n + 1] == '"') {
			const char *v0 = p + n + 2, *q = strchr(v0, '"');
			if (!q || q > end)
				return NULL;
			char *v = xmalloc((size_t)(q - v0) + 1);
			memcpy(v, v0, (size_t)(q - v0));
			v[q - v0] = '\0';
			return v;
		}
	return NULL;
}

/* The value of the numeric attribute name of svg's first element, or 0. */
static uint64_t root_attr(const char *svg, const char *name)
{
	char *v = root_text(svg, name);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;
	free(v);
	return n;
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

/* Runs Timeline on d's module (its own choice of what to draw) with the
 * options given (NULL: the default); *svg: the picture (malloc'd). */
static int draw_one(struct loader *ld, const struct compare_request *rq,
                    const struct compare_drawn *d, const char *label, const char *title,
                    const char *span, const char *parts, bool axis, char **svg)
{
	struct pipeline tl;
	*svg = NULL;
	if (!pipeline_from_list("Timeline", &tl)) {
		pipeline_free(&tl);
		return EXIT_INPUT;
	}
	tl.run_cost_model = d->cost_model; /* in force, borrowed: given back below */
	int status = EXIT_OK;
	/* -O Timeline.KEY (max_depth, fold_below_us, fusion, ...) too */
	for (size_t k = 0; k < rq->noverrides && status == EXIT_OK; k++)
		if (strncmp(rq->overrides[k], "Timeline.", 9) == 0)
			status = pipeline_override(&tl, rq->overrides[k], rq->override_origins[k]);
	if (status == EXIT_OK)
		status = loader_resolve(ld, &tl);
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
	if (status == EXIT_OK &&
	    !(set_option(s, "svg", "compare.svg") && set_option(s, "title", title) &&
	      set_option(s, "axis", axis ? "true" : "false") &&
	      (!span || set_option(s, "span_ns", span)) &&
	      (!parts || set_option(s, "part_span_ns", parts))))
		status = EXIT_INPUT;
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
	tl.run_cost_model = NULL;
	pipeline_free(&tl);
	return status;
}

/* A function drawn as a part of a step (a loop's body, a call's callee)
 * and the longest of its runs in any picture. */
struct part_span {
	char *func;
	uint64_t ns;
};

/* Merges list, "NAME=NS,..." (a picture's data-parts), into v. */
static void merge_parts(struct part_span **v, size_t *n, const char *list)
{
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ','), *eq = strchr(p, '=');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (eq && eq < p + len) {
			size_t nlen = (size_t)(eq - p), k = 0;
			uint64_t ns = strtoull(eq + 1, NULL, 10);
			while (k < *n && (strlen((*v)[k].func) != nlen || strncmp((*v)[k].func, p, nlen)))
				k++;
			if (k == *n) {
				*v = xrealloc(*v, (*n + 1) * sizeof **v);
				(*v)[k].func = xmalloc(nlen + 1);
				memcpy((*v)[k].func, p, nlen);
				(*v)[k].func[nlen] = '\0';
				(*v)[k].ns = 0;
				(*n)++;
			}
			if (ns > (*v)[k].ns)
				(*v)[k].ns = ns;
		}
		p += len + (comma != NULL);
	}
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

int compare_svg_draw(const struct compare_request *rq, struct compare_drawn *drawn,
                     const char *const *labels, size_t n, char **svg)
{
	struct loader ld;
	loader_init(&ld, NULL, rq->plugin_dirs, rq->nplugin_dirs);
	ld.allow_insecure = rq->allow_insecure;
	int status = EXIT_OK;
	/* first each picture on its own, to learn what it draws and how long
	 * it and each of its parts run; then all again on the scales they
	 * share: the longest step across the plot, and each part's function
	 * at the longest of its runs */
	uint64_t span = 0;
	struct part_span *parts = NULL;
	size_t nparts = 0;
	for (size_t k = 0; k < n && status == EXIT_OK; k++) {
		char *first = NULL;
		status = draw_one(&ld, rq, &drawn[k], labels[k], labels[k], NULL, NULL, false, &first);
		if (status != EXIT_OK)
			break;
		drawn[k].func = root_text(first, "data-function");
		drawn[k].makespan_ns = root_attr(first, "data-makespan-ns");
		drawn[k].exposed_ns = root_attr(first, "data-exposed-ns");
		if (drawn[k].makespan_ns > span)
			span = drawn[k].makespan_ns;
		char *list = root_text(first, "data-parts");
		merge_parts(&parts, &nparts, list);
		free(list);
		free(first);
		if (!drawn[k].func) {
			host_error("--compare-svg: the result of %s has no function to draw", labels[k]);
			status = EXIT_INPUT;
		}
	}
	char *span_text = xasprintf("%" PRIu64, span);
	char *list = xstrdup("");
	for (size_t k = 0; k < nparts; k++) {
		char *more = xasprintf("%s%s%s=%" PRIu64, list, k ? "," : "", parts[k].func,
		                       parts[k].ns);
		free(list);
		list = more;
		free(parts[k].func);
	}
	free(parts);
	for (size_t k = 0; k < n && status == EXIT_OK; k++) {
		char *title = xasprintf("%s: @%s", labels[k], drawn[k].func);
		status = draw_one(&ld, rq, &drawn[k], labels[k], title, span_text,
		                  nparts ? list : NULL, k + 1 == n, &svg[k]);
		free(title);
	}
	free(span_text);
	free(list);
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
		unsigned long w = (unsigned long)root_attr(svg[k], "width");
		width = w > width ? w : width;
		height += (unsigned long)root_attr(svg[k], "height");
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
		y += (unsigned long)root_attr(svg[k], "height");
	}
	fputs("</svg>\n", out);
}
