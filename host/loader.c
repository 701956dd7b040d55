/* SPDX-License-Identifier: MIT */
/* host/loader.c — finding and loading pass plugins.
 *
 * A pass X is X.so in the first folder of the search path that has it; a
 * step's `plugin =` key names the file directly. Files are opened with
 * dlopen(RTLD_NOW | RTLD_LOCAL) and never closed. Each way a file can be
 * refused has its own message. The current directory is never searched:
 * every path handed to dlopen contains a '/'.
 */
#include "host.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void add_dir(struct loader *ld, const char *dir)
{
	if (!*dir)
		return;
	ld->dirs = xrealloc(ld->dirs, (ld->ndirs + 1) * sizeof *ld->dirs);
	/* a bare relative name would make dlopen search the library path */
	ld->dirs[ld->ndirs++] = dir[0] == '/' || dir[0] == '.' ? xstrdup(dir)
	                                                        : xasprintf("./%s", dir);
}


void loader_init(struct loader *ld, const char *pipeline_dir, char **cli_dirs,
                 size_t ncli_dirs)
{
	memset(ld, 0, sizeof *ld);
	if (pipeline_dir)
		add_dir(ld, pipeline_dir);
	for (size_t k = 0; k < ncli_dirs; k++)
		add_dir(ld, cli_dirs[k]);
	const char *env = host_secure_getenv("PASSLINE_PLUGIN_PATH");
	if (env) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			add_dir(ld, d);
		free(copy);
	}
	add_dir(ld, PL_PLUGINDIR);
}

void loader_free(struct loader *ld)
{
	for (size_t k = 0; k < ld->ndirs; k++)
		free(ld->dirs[k]);
	free(ld->dirs);
	for (struct plugin *p = ld->loaded, *next; p; p = next) {
		next = p->next;
		free(p->path);
		free(p); /* the shared object itself stays loaded */
	}
	memset(ld, 0, sizeof *ld);
}

/* Checks that path can be trusted and looks like a shared object. On a
 * problem writes the reason into why. */
static bool check_file(const struct loader *ld, const char *path, char *why, size_t n)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		snprintf(why, n, "%s", strerror(errno));
		return false;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, n, "is a directory, not a plugin");
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, n, "not a regular file");
		return false;
	}
	if (!ld->allow_insecure) {
		if (st.st_mode & S_IWOTH) {
			snprintf(why, n, "refusing a world-writable plugin file "
			                 "(use --allow-insecure-plugins to load it anyway)");
			return false;
		}
		char *dir = dir_of(path);
		struct stat ds;
		bool ww = stat(dir, &ds) == 0 && (ds.st_mode & S_IWOTH);
		free(dir);
		if (ww) {
			snprintf(why, n, "refusing a plugin in a world-writable folder "
			                 "(use --allow-insecure-plugins to load it anyway)");
			return false;
		}
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return false;
	}
	unsigned char magic[4] = {0};
	ssize_t got = read(fd, magic, sizeof magic);
	close(fd);
	if (got != 4 || memcmp(magic, "\177ELF", 4) != 0) {
		snprintf(why, n, "not a shared object (no ELF header)");
		return false;
	}
	return true;
}

/* Loads path (once: a file loaded before is found by its inode). Returns
 * NULL after printing why not. */
static struct plugin *load(struct loader *ld, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		for (struct plugin *p = ld->loaded; p; p = p->next) {
			struct stat ps;
			if (stat(p->path, &ps) == 0 && ps.st_dev == st.st_dev && ps.st_ino == st.st_ino)
				return p;
		}
	}
	char why[512];
	if (!check_file(ld, path, why, sizeof why)) {
		host_error("cannot load plugin %s: %s", path, why);
		return NULL;
	}
	dlerror();
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *err = dlerror();
		if (err && strstr(err, "undefined symbol"))
			host_error("cannot load plugin %s: undefined symbol: %s", path,
			           strstr(err, "undefined symbol: ") ? strstr(err, "undefined symbol: ") + 18
			                                             : err);
		else
			host_error("cannot load plugin %s: not a loadable shared object: %s", path,
			           err ? err : "unknown error");
		return NULL;
	}
	dlerror();
	void *sym = dlsym(handle, PL_PLUGIN_ENTRY_SYMBOL);
	if (!sym) {
		host_error("cannot load plugin %s: not a passline plugin (it has no %s)", path,
		           PL_PLUGIN_ENTRY_SYMBOL);
		return NULL;
	}
	pl_plugin_entry_fn entry;
	memcpy(&entry, &sym, sizeof entry);
	crash_set_current(PL_PLUGIN_ENTRY_SYMBOL, path);
	const pl_plugin_desc *desc = entry();
	crash_set_current(NULL, NULL);
	pl_desc_problem problem = pl_plugin_desc_check(desc, why, sizeof why);
	if (problem != PL_DESC_OK) {
		static const char *const kind[] = {
			[PL_DESC_NULL] = "no descriptor",
			[PL_DESC_ABI_MAJOR] = "wrong ABI major version",
			[PL_DESC_ABI_NEWER] = "needs a newer host",
			[PL_DESC_TOO_SMALL] = "descriptor too small",
			[PL_DESC_MALFORMED] = "malformed descriptor",
		};
		host_error("cannot load plugin %s: %s: %s", path, kind[problem], why);
		return NULL;
	}
	struct plugin *p = xcalloc(1, sizeof *p);
	p->path = xstrdup(path);
	p->desc = desc;
	p->next = ld->loaded;
	ld->loaded = p;
	return p;
}

static const pl_pass_desc *find_pass(const struct plugin *p, const char *name)
{
	size_t n = pl_plugin_desc_num_passes(p->desc);
	for (size_t k = 0; k < n; k++)
		if (strcmp(pl_plugin_desc_pass(p->desc, k)->name, name) == 0)
			return pl_plugin_desc_pass(p->desc, k);
	return NULL;
}

/* Two files offering one pass name make a pipeline ambiguous. */
static bool check_unique(const struct loader *ld)
{
	bool ok = true;
	for (const struct plugin *a = ld->loaded; a; a = a->next)
		for (const struct plugin *b = a->next; b; b = b->next) {
			size_t n = pl_plugin_desc_num_passes(a->desc);
			for (size_t k = 0; k < n; k++) {
				const char *name = pl_plugin_desc_pass(a->desc, k)->name;
				if (find_pass(b, name)) {
					host_error("pass '%s' is offered by two plugins: %s and %s", name,
					           b->path, a->path);
					ok = false;
				}
			}
		}
	return ok;
}

static char *search(const struct loader *ld, const char *pass)
{
	for (size_t k = 0; k < ld->ndirs; k++) {
		char *path = xasprintf("%s/%s.so", ld->dirs[k], pass);
		if (access(path, F_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

/* The passes the search path offers: NAME of each NAME.so, in folder
 * order, each once; *n of them, the array and names malloc'd. */
static char **offered(const struct loader *ld, size_t *n)
{
	char **names = NULL;
	*n = 0;
	for (size_t k = 0; k < ld->ndirs; k++) {
		DIR *dir = opendir(ld->dirs[k]);
		if (!dir)
			continue;
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			if (len <= 3 || strcmp(e->d_name + len - 3, ".so") != 0)
				continue;
			bool seen = false;
			for (size_t j = 0; j < *n && !seen; j++)
				seen = strlen(names[j]) == len - 3 && !memcmp(names[j], e->d_name, len - 3);
			if (seen)
				continue;
			names = xrealloc(names, (*n + 1) * sizeof *names);
			names[*n] = xmalloc(len - 2);
			memcpy(names[*n], e->d_name, len - 3);
			names[(*n)++][len - 3] = '\0';
		}
		closedir(dir);
	}
	return names;
}

/* "DIR, DIR (no such folder), ...": the folders searched; malloc'd. */
static char *searched(const struct loader *ld)
{
	char *list = xstrdup("");
	for (size_t k = 0; k < ld->ndirs; k++) {
		struct stat st;
		bool there = stat(ld->dirs[k], &st) == 0 && S_ISDIR(st.st_mode);
		char *next = xasprintf("%s%s%s%s", list, k ? ", " : "", ld->dirs[k],
		                       there ? "" : " (no such folder)");
		free(list);
		list = next;
	}
	return list;
}

/* The steps of pl whose pass no file in the search path offers, missing[0
 * .. n): a did-you-mean for a name near one the path offers, and one
 * message, with the folders searched, for all the others (a search path
 * without the shipped plugins misses them all). */
static void report_missing(const struct loader *ld, const struct pipeline *pl,
                           const size_t *missing, size_t n)
{
	size_t noffered;
	char **names = offered(ld, &noffered);
	char *list = NULL; /* the passes with no near name */
	size_t nlist = 0, last = 0;
	for (size_t k = 0; k < n; k++) {
		const struct step *s = &pl->steps[missing[k]];
		const char *near = closest_match(s->pass, (const char *const *)names, noffered);
		if (near) {
			host_error_decl(s->file, s->line, "unknown pass '%s': no %s.so in the plugin "
			                "search path (did you mean '%s'?)", s->pass, s->pass, near);
			continue;
		}
		bool seen = false; /* a pass that runs twice is named once */
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(pl->steps[missing[j]].pass, s->pass) == 0;
		if (seen)
			continue;
		char *next = xasprintf("%s%s%s", list ? list : "", list ? ", " : "", s->pass);
		free(list);
		list = next;
		nlist++;
		last = missing[k];
	}
	char *dirs = searched(ld);
	const char *hint = noffered ? "see passline --list-passes"
	                            : "no plugins there; name their folder with --plugin-dir or "
	                              "PASSLINE_PLUGIN_PATH";
	if (nlist == 1)
		host_error_decl(pl->steps[last].file, pl->steps[last].line,
		                "unknown pass '%s': no %s.so in the plugin search path (searched: %s; "
		                "%s)", list, list, dirs, hint);
	else if (nlist > 1)
		host_error("unknown passes %s: no NAME.so for them in the plugin search path "
		           "(searched: %s; %s)", list, dirs, hint);
	free(dirs);
	free(list);
	for (size_t k = 0; k < noffered; k++)
		free(names[k]);
	free(names);
}

int loader_resolve(struct loader *ld, struct pipeline *pl)
{
	int status = EXIT_OK;
	size_t *missing = xcalloc(pl->nsteps, sizeof *missing), nmissing = 0;
	for (size_t k = 0; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		if (!s->enabled)
			continue;
		char *path = s->plugin_path ? xstrdup(s->plugin_path) : search(ld, s->pass);
		if (!path) {
			missing[nmissing++] = k;
			if (status == EXIT_OK)
				status = EXIT_INPUT;
			continue;
		}
		struct plugin *p = load(ld, path);
		if (!p) {
			status = EXIT_PLUGIN;
			free(path);
			continue;
		}
		s->plugin = p;
		s->desc = find_pass(p, s->pass);
		if (!s->desc) {
			host_error("plugin %s does not offer pass '%s'", path, s->pass);
			status = EXIT_PLUGIN;
		}
		free(path);
	}
	if (nmissing)
		report_missing(ld, pl, missing, nmissing);
	free(missing);
	if (!check_unique(ld))
		status = EXIT_PLUGIN;
	return status;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void list_option(const pl_option_decl *o, FILE *out)
{
	fprintf(out, "    %s (%s, default %s", o->name, pl_option_type_name(o->type),
	        o->default_value);
	if (o->type == PL_OPT_INT && (o->min != INT64_MIN || o->max != INT64_MAX))
		fprintf(out, ", %" PRId64 "..%" PRId64, o->min, o->max);
	if (o->type == PL_OPT_ENUM) {
		fputs(", one of", out);
		for (const char *const *c = o->choices; *c; c++)
			fprintf(out, " %s", *c);
	}
	fprintf(out, ")%s%s\n", o->help ? ": " : "", o->help ? o->help : "");
}

/* shadowed_by: the file of the same name earlier in the search path, which
 * a pipeline step gets instead of this one; NULL if none */
static void list_plugin(const struct plugin *p, const char *shadowed_by, FILE *out)
{
	const pl_plugin_desc *d = p->desc;
	fputs(p->path, out);
	if (shadowed_by)
		fprintf(out, " (shadowed: %s comes first in the search path and runs instead)",
		        shadowed_by);
	fprintf(out, "\n  plugin %s %s (%s)%s%s\n", d->name,
	        d->version ? d->version : "?", d->license ? d->license : "license unknown",
	        d->summary ? ": " : "", d->summary ? d->summary : "");
	size_t np = pl_plugin_desc_num_passes(d);
	for (size_t k = 0; k < np; k++) {
		const pl_pass_desc *pass = pl_plugin_desc_pass(d, k);
		fprintf(out, "  pass %s%s%s\n", pass->name, pass->summary ? ": " : "",
		        pass->summary ? pass->summary : "");
		size_t no = pl_pass_desc_num_options(pass);
		for (size_t j = 0; j < no; j++)
			list_option(pl_pass_desc_option(pass, j), out);
		size_t ns = pl_pass_desc_num_stats(pass);
		for (size_t j = 0; j < ns; j++) {
			const pl_stat_decl *s = pl_pass_desc_stat(pass, j);
			fprintf(out, "    stat %s: %s\n", s->name, s->description ? s->description : "");
		}
	}
}

/* The first file named name (X.so) in the folders before dirs[k], as
 * search finds it, unless that is the very file at self (a folder listed
 * twice); malloc'd, or NULL. */
static char *found_before(const struct loader *ld, size_t k, const char *name,
                          const char *self)
{
	for (size_t j = 0; j < k; j++) {
		char *path = xasprintf("%s/%s", ld->dirs[j], name);
		if (access(path, F_OK) == 0) {
			struct stat a, b;
			if (stat(path, &a) == 0 && stat(self, &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				free(path);
				return NULL;
			}
			return path;
		}
		free(path);
	}
	return NULL;
}

int loader_list(struct loader *ld, FILE *out)
{
	int status = EXIT_OK;
	bool first = true;
	for (size_t k = 0; k < ld->ndirs; k++) {
		DIR *dir = opendir(ld->dirs[k]);
		if (!dir)
			continue;
		char **names = NULL;
		size_t n = 0;
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			if (len > 3 && strcmp(e->d_name + len - 3, ".so") == 0) {
				names = xrealloc(names, (n + 1) * sizeof *names);
				names[n++] = xstrdup(e->d_name);
			}
		}
		closedir(dir);
		qsort(names, n, sizeof *names, cmp_str);
		for (size_t j = 0; j < n; j++) {
			char *path = xasprintf("%s/%s", ld->dirs[k], names[j]);
			struct plugin *p = load(ld, path);
			if (p) {
				if (!first)
					fputc('\n', out);
				first = false;
				char *shadow = found_before(ld, k, names[j], path);
				list_plugin(p, shadow, out);
				free(shadow);
			} else {
				status = EXIT_PLUGIN;
			}
			free(path);
			free(names[j]);
		}
		free(names);
	}
	if (first)
		fprintf(out, "no plugins found in the search path\n");
	fprintf(out, "\ncost model: [cost_model] in a pipeline file, -O cost_model.KEY=VALUE\n");
	for (size_t k = 0; k < pl_cost_model_num_params(); k++) {
		const char *name = pl_cost_model_param_name(k);
		switch (pl_cost_model_param_kind(k)) {
		case PL_COST_KEY_ALIAS:
			for (size_t j = 0; j < pl_cost_model_num_keys(); j++)
				if (strcmp(pl_cost_model_key(j)->name, name) == 0)
					list_option(pl_cost_model_key(j), out);
			continue;
		case PL_COST_KEY_TEXT:
			fprintf(out, "    %s (one of", name);
			for (size_t j = 0; j < pl_cost_model_num_presets(); j++)
				fprintf(out, " %s", pl_cost_model_preset_name(j));
			fprintf(out, "): %s\n", pl_cost_model_param_help(k));
			continue;
		default:
			break;
		}
		char summary[512];
		cost_key_summary(k, summary, sizeof summary);
		fprintf(out, "    %s (%s): [%s] %s\n", name,
		        pl_cost_model_param_kind(k) == PL_COST_KEY_INT ? "int" : "decimal", summary,
		        pl_cost_model_param_help(k));
	}
	return status;
}
