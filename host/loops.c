/* SPDX-License-Identifier: MIT */
/* host/loops.c — the trip counts of a module's loops, set once for the
 * whole pipeline ([loops] in a pipeline file, -O loops.NAME=N): checked
 * against the module before any pass runs, so that a name the module
 * lacks is an error in the pipeline rather than a pass that fails; handed
 * to every pass that counts loops (those with a trip_counts option); and
 * a warning for each loop such a pass would count once for want of a
 * trip count, since every figure it feeds is then a guess. */
#include "host.h"

#include <stdlib.h>
#include <string.h>

/* Whether value is a whole number of at most 2^64 - 1. */
static bool valid_count(const char *value, size_t n)
{
	uint64_t v = 0;
	if (!n)
		return false;
	for (size_t k = 0; k < n; k++) {
		if (value[k] < '0' || value[k] > '9' || __builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(value[k] - '0'), &v))
			return false;
	}
	return true;
}

char *loops_set(struct pipeline *pl, const char *name, const char *value, const char *file,
                unsigned line)
{
	if (!*name)
		return xstrdup("a loop needs a name");
	if (strchr(name, ',') || strchr(name, '=') || strchr(name, ' '))
		return xasprintf("'%s' cannot be a loop's name", name);
	if (!valid_count(value, strlen(value)))
		return xasprintf("the trip count of loop '%s' must be a whole number from 0 to "
		                 "2^64 - 1, not '%s'", name, value);
	struct setting *set = NULL;
	for (size_t k = 0; k < pl->nloops; k++)
		if (strcmp(pl->loops[k].key, name) == 0)
			set = &pl->loops[k];
	if (set) {
		free(set->value);
		free(set->file);
	} else {
		pl->loops = xrealloc(pl->loops, (pl->nloops + 1) * sizeof *pl->loops);
		set = &pl->loops[pl->nloops++];
		set->key = xstrdup(name);
	}
	set->value = xstrdup(value);
	set->file = xstrdup(file);
	set->line = line;
	return NULL;
}

/* One NAME=N of a trip_counts list: the name's bounds, or false at the
 * end. *p moves past it; *bad is set when the text is not of the form. */
static bool next_pair(const char **p, const char **name, size_t *nlen, bool *bad)
{
	const char *s = *p;
	while (*s == ' ' || *s == ',')
		s++;
	if (!*s)
		return false;
	const char *comma = strchr(s, ',');
	const char *end = comma ? comma : s + strlen(s);
	const char *eq = memchr(s, '=', (size_t)(end - s));
	*p = end;
	*name = s;
	if (!eq) {
		*bad = true;
		return false;
	}
	size_t n = (size_t)(eq - s);
	while (n && s[n - 1] == ' ')
		n--;
	const char *v = eq + 1, *ve = end;
	while (*v == ' ')
		v++;
	while (ve > v && ve[-1] == ' ')
		ve--;
	*nlen = n;
	if (!n || !valid_count(v, (size_t)(ve - v))) {
		*bad = true;
		return false;
	}
	return true;
}

bool loops_list_valid(const char *text, char **why)
{
	const char *p = text, *name;
	size_t n;
	bool bad = false;
	while (next_pair(&p, &name, &n, &bad))
		;
	if (bad)
		*why = xasprintf("expected NAME=N[,NAME=N...] with N a whole number, not '%s'", text);
	return !bad;
}

bool step_counts_loops(const struct step *s)
{
	const pl_option_decl *d = s->desc ? pl_pass_desc_find_option(s->desc, "trip_counts") : NULL;
	return d && d->type == PL_OPT_STRING;
}

char *loops_option_value(const struct pipeline *pl, const char *own)
{
	size_t len = own ? strlen(own) + 1 : 1;
	for (size_t k = 0; k < pl->nloops; k++)
		len += strlen(pl->loops[k].key) + strlen(pl->loops[k].value) + 2;
	if (len == 1 || (own && !*own && !pl->nloops))
		return NULL;
	char *s = xmalloc(len), *p = s;
	for (size_t k = 0; k < pl->nloops; k++)
		p += sprintf(p, "%s%s=%s", k ? "," : "", pl->loops[k].key, pl->loops[k].value);
	if (own && *own)
		p += sprintf(p, "%s%s", p > s ? "," : "", own);
	*p = '\0';
	return s;
}

/* The value a step's own trip_counts option has, or NULL. */
static const char *own_value(const struct step *s)
{
	for (size_t j = 0; j < s->nsettings; j++)
		if (strcmp(s->settings[j].key, "trip_counts") == 0)
			return s->settings[j].value;
	return NULL;
}

/* Whether the trip_counts list text names loop name. */
static bool list_names(const char *text, const char *name)
{
	const char *p = text ? text : "", *n;
	size_t len;
	bool bad = false;
	while (next_pair(&p, &n, &len, &bad))
		if (len == strlen(name) && memcmp(n, name, len) == 0)
			return true;
	return false;
}

/* The reason name is no loop of the module: "no loop is named 'X' in
 * INPUT", and the nearest name or the loops there are; malloc'd. */
static char *no_such_loop(const char *name, size_t len, const char *const *names, size_t n,
                          const char *input)
{
	char *word = xmalloc(len + 1);
	memcpy(word, name, len);
	word[len] = '\0';
	const char *near = closest_match(word, names, n);
	char *why;
	if (!n) {
		why = xasprintf("no loop is named '%s' in %s: it has no loops", word, input);
	} else if (near) {
		why = xasprintf("no loop is named '%s' in %s (did you mean '%s'?)", word, input, near);
	} else {
		size_t cap = 256, used = 0;
		char *list = xmalloc(cap);
		list[0] = '\0';
		for (size_t k = 0; k < n && k < 8; k++) {
			size_t need = used + strlen(names[k]) + 8;
			if (need > cap)
				list = xrealloc(list, cap = 2 * need);
			used += (size_t)sprintf(list + used, "%s'%s'", k ? ", " : "", names[k]);
		}
		why = xasprintf("no loop is named '%s' in %s (its loops: %s%s)", word, input, list,
		                n > 8 ? ", ..." : "");
		free(list);
	}
	free(word);
	return why;
}

void pipeline_add_warning(struct pipeline *pl, char *w)
{
	pl->warnings = xrealloc(pl->warnings, (pl->nwarnings + 1) * sizeof *pl->warnings);
	pl->warnings[pl->nwarnings++] = w;
}

/* A warning for every loop that runs, whose count the module does not
 * give, and that some counting step is given no count for either. */
static void find_unknown(struct pipeline *pl, const pl_module *m, bool host_counts)
{
	char *given = loops_option_value(pl, NULL);
	pl_callgraph *cg = NULL;
	int rc = pl_callgraph_new(&cg, m, given, NULL, NULL, 0);
	free(given);
	if (rc != PL_OK || !pl_callgraph_entry(cg)) {
		pl_callgraph_free(cg); /* without an entry every function counts once */
		return;
	}
	for (size_t i = 0; i < pl_callgraph_num_loops(cg); i++) {
		if (pl_callgraph_loop_source(cg, i) != PL_TRIP_UNKNOWN)
			continue;
		const pl_inst *w = pl_callgraph_loop(cg, i);
		uint64_t hi = 0, lo = 0;
		if (pl_callgraph_executions(cg, pl_inst_func(w), &hi, &lo) != PL_OK || (!hi && !lo))
			continue; /* it never runs */
		const char *name = pl_callgraph_loop_name(cg, i);
		bool uncounted = host_counts; /* by the host, or by some counting step */
		for (size_t k = 0; k < pl->nsteps && !uncounted; k++) {
			const struct step *s = &pl->steps[k];
			uncounted = s->enabled && step_counts_loops(s) && !list_names(own_value(s), name);
		}
		if (!uncounted)
			continue;
		pipeline_add_warning(pl, xasprintf("loop '%s' in @%s has an unknown trip count and is counted "
		                          "as 1 trip (set it with -O loops.%s=N)",
		                          name, pl_func_name(pl_inst_func(w)), *name ? name : "NAME"));
	}
	pl_callgraph_free(cg);
}

int loops_check(struct pipeline *pl, const pl_module *m, const char *input, bool host_counts)
{
	bool any = pl->nloops > 0 || host_counts;
	for (size_t k = 0; k < pl->nsteps && !any; k++)
		any = pl->steps[k].enabled && step_counts_loops(&pl->steps[k]);
	if (!any)
		return EXIT_OK;
	pl_callgraph *cg = NULL;
	if (pl_callgraph_new(&cg, m, NULL, NULL, NULL, 0) != PL_OK)
		return EXIT_OK; /* a pass that needs the graph says why */
	const char *shown = strcmp(input, "-") == 0 ? "the input" : input;
	size_t n = pl_callgraph_num_loops(cg);
	const char **names = xcalloc(n, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = pl_callgraph_loop_name(cg, i);
	int status = EXIT_OK;
	for (size_t k = 0; k < pl->nloops; k++) {
		const struct setting *set = &pl->loops[k];
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			found = strcmp(names[i], set->key) == 0;
		if (found)
			continue;
		char *why = no_such_loop(set->key, strlen(set->key), names, n, shown);
		if (set->line)
			host_error_at(set->file, set->line, "[loops] %s", why);
		else
			host_error("%s: loops.%s: %s", set->file, set->key, why);
		free(why);
		status = EXIT_INPUT;
	}
	for (size_t k = 0; k < pl->nsteps; k++) {
		const struct step *s = &pl->steps[k];
		if (!s->enabled || !step_counts_loops(s))
			continue;
		for (size_t j = 0; j < s->nsettings; j++) {
			const struct setting *set = &s->settings[j];
			if (strcmp(set->key, "trip_counts") != 0)
				continue;
			const char *p = set->value, *name;
			size_t len;
			bool bad = false;
			while (next_pair(&p, &name, &len, &bad)) {
				bool found = false;
				for (size_t i = 0; i < n && !found; i++)
					found = strlen(names[i]) == len && memcmp(names[i], name, len) == 0;
				if (found)
					continue;
				char *why = no_such_loop(name, len, names, n, shown);
				if (set->line)
					host_error_at(set->file, set->line, "[pass %s] option 'trip_counts': %s",
					              s->pass, why);
				else
					host_error("%s: [pass %s] option 'trip_counts': %s", set->file, s->pass,
					           why);
				free(why);
				status = EXIT_INPUT;
			}
		}
	}
	free(names);
	pl_callgraph_free(cg);
	if (status == EXIT_OK)
		find_unknown(pl, m, host_counts);
	return status;
}

void loops_print_warnings(const struct pipeline *pl)
{
	for (size_t k = 0; k < pl->nwarnings; k++)
		host_warning("%s", pl->warnings[k]);
}
