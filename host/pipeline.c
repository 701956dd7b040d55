/* SPDX-License-Identifier: MIT */
/* host/pipeline.c — pipelines: read from an INI file with the system inih,
 * built from --passes, changed by -O, printed back as INI.
 *
 * inih calls our handler per key but reports neither line numbers nor
 * empty sections, so the lines go through our own reader
 * (ini_parse_stream): it counts lines, sees every section header, and hands
 * inih each line with leading blanks removed (so an indented key is a key,
 * never the continuation of the one before).
 */
#include "host.h"

#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum section { SEC_NONE, SEC_PIPELINE, SEC_COST_MODEL, SEC_LOOPS, SEC_PASS, SEC_BAD };

struct seen_key {
	char *key;
	unsigned line;
};

struct ini_state {
	const char *path;
	const char *dir; /* the file's folder, NULL for built-in text */
	const char *buf;
	size_t len, pos;
	unsigned line;
	enum section section;
	bool seen_pipeline, seen_cost_model, seen_loops;
	bool failed;
	bool stop; /* the reader hit something it cannot hand to inih */
	struct pipeline *pl;
	struct seen_key *seen;
	size_t nseen;
};

static bool is_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static void clear_seen(struct ini_state *st)
{
	for (size_t k = 0; k < st->nseen; k++)
		free(st->seen[k].key);
	st->nseen = 0;
}

static PL_PRINTF(2, 3) void ini_error(struct ini_state *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s:%u: error: ", st->path, st->line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	st->failed = true;
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t len = c < 0x80 ? 1 : (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3
		             : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
		if (!len || i + len > n)
			return false;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		i += len;
	}
	return true;
}

static struct step *add_step(struct pipeline *pl, const char *pass, const char *file,
                             unsigned line)
{
	pl->steps = xrealloc(pl->steps, (pl->nsteps + 1) * sizeof *pl->steps);
	struct step *s = &pl->steps[pl->nsteps++];
	memset(s, 0, sizeof *s);
	s->pass = xstrdup(pass);
	s->enabled = true;
	s->file = xstrdup(file);
	s->line = line;
	return s;
}

/* A section header line: "[pipeline]" or "[pass NAME]". */
static void begin_section(struct ini_state *st, const char *line, size_t n)
{
	const char *close = memchr(line, ']', n);
	if (!close)
		return; /* inih reports the syntax error */
	char *name = xmalloc((size_t)(close - line));
	memcpy(name, line + 1, (size_t)(close - line - 1));
	name[close - line - 1] = '\0';
	char *s = name;
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	clear_seen(st);
	if (strcmp(s, "pipeline") == 0) {
		if (st->seen_pipeline)
			ini_error(st, "a second [pipeline] section");
		st->seen_pipeline = true;
		st->section = SEC_PIPELINE;
	} else if (strcmp(s, "cost_model") == 0) {
		if (st->seen_cost_model)
			ini_error(st, "a second [cost_model] section");
		st->seen_cost_model = true;
		st->section = SEC_COST_MODEL;
	} else if (strcmp(s, "loops") == 0) {
		if (st->seen_loops)
			ini_error(st, "a second [loops] section");
		st->seen_loops = true;
		st->section = SEC_LOOPS;
	} else if (strncmp(s, "pass", 4) == 0 && (s[4] == ' ' || s[4] == '\t')) {
		char *pass = s + 5;
		while (*pass == ' ' || *pass == '\t')
			pass++;
		if (!is_identifier(pass)) {
			ini_error(st, "invalid pass name '%s' in [pass NAME]", pass);
			st->section = SEC_BAD;
		} else {
			add_step(st->pl, pass, st->path, st->line);
			st->section = SEC_PASS;
		}
	} else {
		ini_error(st, "unknown section [%s]; expected [pipeline], [cost_model], [loops] "
		              "or [pass NAME]", s);
		st->section = SEC_BAD;
	}
	free(name);
}

/* Before the first section only blank lines, comments and a section
 * header may come: a byte that is none of these, invisible ones above all
 * (a byte-order mark out of place, a zero-width space, a control
 * character), is named with its line and column. A line starting with a
 * printable ASCII character is left to the usual messages. */
static bool stray_byte(struct ini_state *st, const char *line, size_t n)
{
	size_t col = 0;
	while (col < n && (line[col] == ' ' || line[col] == '\t'))
		col++;
	if (col == n || line[col] == '\r' || line[col] == ';' || line[col] == '#')
		return false;
	unsigned char c = (unsigned char)line[col];
	if (c > 0x20 && c < 0x7f)
		return false;
	/* a byte-order mark opens only the first line, but a kept one names
	 * its column in the file */
	size_t shown = col + 1 + (st->line == 1 && line != st->buf ? 3 : 0);
	ini_error(st, "unexpected byte 0x%02X at %u:%zu before the first section%s", c, st->line,
	          shown,
	          c >= 0x80 ? " (an invisible character? only a UTF-8 byte-order mark may open the "
	                      "file)"
	                    : "");
	return true;
}

static char *line_reader(char *str, int num, void *stream)
{
	struct ini_state *st = stream;
	if (st->stop || st->pos >= st->len)
		return NULL;
	const char *start = st->buf + st->pos;
	const char *nl = memchr(start, '\n', st->len - st->pos);
	size_t n = nl ? (size_t)(nl - start) : st->len - st->pos;
	st->pos += n + (nl ? 1 : 0);
	st->line++;
	/* A UTF-8 byte-order mark, as some editors write, opens the file:
	 * skipped here, since the section headers are found before inih. */
	if (st->line == 1 && n >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
		start += 3;
		n -= 3;
	}
	if (memchr(start, '\0', n)) {
		ini_error(st, "NUL byte: this is not a pipeline file");
		st->stop = true;
		return NULL;
	}
	if (st->section == SEC_NONE && stray_byte(st, start, n)) {
		st->stop = true;
		return NULL;
	}
	if (!valid_utf8((const unsigned char *)start, n)) {
		ini_error(st, "invalid UTF-8: this is not a pipeline file");
		st->stop = true;
		return NULL;
	}
	while (n && (*start == ' ' || *start == '\t')) {
		start++;
		n--;
	}
	if (n > PL_INI_MAX_CONTENT || n + 2 > (size_t)num) {
		ini_error(st, "line longer than %d characters", PL_INI_MAX_CONTENT);
		st->stop = true;
		return NULL;
	}
	if (n && start[0] == '[')
		begin_section(st, start, n);
	memcpy(str, start, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

/* Records key for the duplicate check; false (after an error) if seen. */
static bool first_time(struct ini_state *st, const char *key)
{
	for (size_t k = 0; k < st->nseen; k++)
		if (strcmp(st->seen[k].key, key) == 0) {
			ini_error(st, "duplicate key '%s' (first set on line %u)", key,
			          st->seen[k].line);
			return false;
		}
	st->seen = xrealloc(st->seen, (st->nseen + 1) * sizeof *st->seen);
	st->seen[st->nseen].key = xstrdup(key);
	st->seen[st->nseen].line = st->line;
	st->nseen++;
	return true;
}

static bool parse_enabled(const char *value, bool *out)
{
	pl_option_decl d = PL_OPTION_BOOL("enabled", "true", "");
	char *canon;
	if (pl_option_validate(&d, value, &canon, NULL, 0))
		return false;
	*out = strcmp(canon, "true") == 0;
	free(canon);
	return true;
}

static char *resolve_relative(const char *dir, const char *value)
{
	if (value[0] == '/')
		return xstrdup(value);
	char *joined = dir && strcmp(dir, ".") != 0 ? path_join(dir, value) : xstrdup(value);
	if (joined[0] == '/')
		return joined;
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		return joined;
	char *abs = path_join(cwd, joined);
	free(joined);
	return abs;
}

/* Sets a key of the pipeline's cost model from text (a preset's name, a
 * decimal, or an old integer key). NULL on success, else the reason
 * (malloc'd). */
static char *cost_model_assign(struct pipeline *pl, const char *key, const char *value)
{
	size_t n = pl_cost_model_num_params();
	const char *names[64];
	bool known = false;
	for (size_t k = 0; k < n && k < 64; k++) {
		names[k] = pl_cost_model_param_name(k);
		known = known || strcmp(names[k], key) == 0;
	}
	if (!known) {
		const char *near = closest_match(key, names, n < 64 ? n : 64);
		if (near)
			return xasprintf("unknown key '%s' in [cost_model] (did you mean '%s'?)", key,
			                 near);
		return xasprintf("unknown key '%s' in [cost_model] (see passline --list-passes)",
		                 key);
	}
	if (!pl->cost_model && !(pl->cost_model = pl_cost_model_new()))
		return xstrdup("out of memory");
	char err[256] = "";
	int rc = pl_cost_model_set_text(pl->cost_model, key, value, err, sizeof err);
	if (rc != PL_OK)
		return xasprintf("[cost_model] %s: %s", key, err);
	for (size_t j = 0; j < pl_cost_model_num_keys(); j++)
		if (strcmp(pl_cost_model_key(j)->name, key) == 0)
			pl->old_keys |= 1u << j;
	return NULL;
}

int pipeline_memory_fraction_from_env(struct pipeline *pl)
{
	const char *env = getenv("XLA_PYTHON_CLIENT_MEM_FRACTION");
	if (!env || !*env || (pl->cost_model && pl_cost_model_is_set(pl->cost_model,
	                                                             "memory_fraction")))
		return EXIT_OK;
	char *why = cost_model_assign(pl, "memory_fraction", env);
	if (!why)
		return EXIT_OK;
	host_error("XLA_PYTHON_CLIENT_MEM_FRACTION: %s", why);
	free(why);
	return EXIT_INPUT;
}

static int key_handler(void *user, const char *section, const char *name, const char *value)
{
	struct ini_state *st = user;
	(void)section; /* we track sections ourselves (see line_reader) */
	if (!name)
		return 1; /* inih built to announce new sections */
	switch (st->section) {
	case SEC_NONE:
		ini_error(st, "key '%s' outside a section", name);
		break;
	case SEC_BAD:
		break;
	case SEC_PIPELINE: {
		static const char *const keys[] = {"name", "description", "plugin_dir"};
		if (!first_time(st, name))
			break;
		/* a second [pipeline] section (an error already) may set a key
		 * again: replace, never leak */
		if (strcmp(name, "name") == 0) {
			free(st->pl->name);
			st->pl->name = xstrdup(value);
		} else if (strcmp(name, "description") == 0) {
			free(st->pl->description);
			st->pl->description = xstrdup(value);
		} else if (strcmp(name, "plugin_dir") == 0) {
			if (!st->dir && value[0] != '/') {
				ini_error(st, "plugin_dir must be absolute in a built-in pipeline");
			} else {
				free(st->pl->plugin_dir);
				st->pl->plugin_dir = resolve_relative(st->dir, value);
			}
		} else {
			const char *near = closest_match(name, keys, 3);
			if (near)
				ini_error(st, "unknown key '%s' in [pipeline] (did you mean '%s'?)",
				          name, near);
			else
				ini_error(st, "unknown key '%s' in [pipeline]; known keys are "
				              "name, description, plugin_dir", name);
		}
		break;
	}
	case SEC_COST_MODEL: {
		if (!first_time(st, name))
			break;
		char *why = cost_model_assign(st->pl, name, value);
		if (why)
			ini_error(st, "%s", why);
		free(why);
		break;
	}
	case SEC_LOOPS: {
		if (!first_time(st, name))
			break;
		char *why = loops_set(st->pl, name, value, st->path, st->line);
		if (why)
			ini_error(st, "[loops] %s", why);
		free(why);
		break;
	}
	case SEC_PASS: {
		struct step *s = &st->pl->steps[st->pl->nsteps - 1];
		if (!first_time(st, name))
			break;
		if (strcmp(name, "enabled") == 0) {
			if (!parse_enabled(value, &s->enabled))
				ini_error(st, "[pass %s] enabled: expected true or false, not '%s'",
				          s->pass, value);
		} else if (strcmp(name, "plugin") == 0) {
			if (!*value)
				ini_error(st, "[pass %s] plugin: empty path", s->pass);
			else
				s->plugin_path = resolve_relative(st->dir, value);
		} else {
			s->settings = xrealloc(s->settings, (s->nsettings + 1) * sizeof *s->settings);
			struct setting *set = &s->settings[s->nsettings++];
			set->key = xstrdup(name);
			set->value = xstrdup(value);
			set->file = xstrdup(st->path);
			set->line = st->line;
		}
		break;
	}
	}
	return 1;
}

bool pipeline_read_text(const char *path, const char *dir, const char *buf, size_t len,
                        struct pipeline *pl)
{
	memset(pl, 0, sizeof *pl);
	pl->source = xstrdup(path);
	struct ini_state st = {0};
	st.path = path;
	st.dir = dir;
	st.buf = buf;
	st.len = len;
	st.pl = pl;
	int rc = ini_parse_stream(line_reader, &st, key_handler, &st);
	if (rc > 0 && !st.stop)
		host_error_at(path, (unsigned)rc,
		              "syntax error: expected '[section]', 'key = value' or a comment");
	else if (rc < 0 && !st.stop)
		host_error_at(path, 0, "cannot parse (out of memory)");
	clear_seen(&st);
	free(st.seen);
	return rc == 0 && !st.failed && !st.stop;
}

/* Whether buf is a module (XLA HLO text, or .pir: a function after blank
 * lines and // comments) rather than a pipeline file; then an error says
 * so, instead of naming the first line the INI reader cannot take. */
static bool module_not_pipeline(const char *path, const char *buf, size_t len)
{
	const char *what = NULL;
	if (pl_text_is_hlo(buf, len)) {
		what = "XLA HLO text (it starts with HloModule)";
	} else {
		size_t i = 0;
		for (;;) {
			while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
			                   buf[i] == '\n'))
				i++;
			if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '/') {
				while (i < len && buf[i] != '\n')
					i++;
				continue;
			}
			break;
		}
		size_t j = i + 4;
		while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
			j++;
		if (len - i > 4 && memcmp(buf + i, "func", 4) == 0 && j > i + 4 && j < len &&
		    buf[j] == '@')
			what = "a .pir module (it starts with func @)";
	}
	if (what)
		host_error_at(path, 0, "this is %s, not a pipeline file: a module is the INPUT, "
		              "the last argument (passline [-p PIPELINE] %s)", what, path);
	return what != NULL;
}

bool pipeline_read_file(const char *path, struct pipeline *pl)
{
	memset(pl, 0, sizeof *pl);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		host_error_at(path, 0, "cannot open pipeline file: %s", strerror(errno));
		return false;
	}
	struct stat sb;
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		host_error_at(path, 0, "cannot read pipeline file: %s", strerror(EISDIR));
		fclose(fp);
		return false;
	}
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap >= (16u << 20)) {
				host_error_at(path, 0, "pipeline file larger than 16 MiB");
				free(buf);
				fclose(fp);
				return false;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		host_error_at(path, 0, "cannot read pipeline file: %s", strerror(errno));
		free(buf);
		fclose(fp);
		return false;
	}
	fclose(fp);
	if (module_not_pipeline(path, buf, len)) {
		pl->source = xstrdup(path);
		free(buf);
		return false;
	}
	char *dir = dir_of(path);
	bool ok = pipeline_read_text(path, dir, buf, len, pl);
	free(dir);
	free(buf);
	return ok;
}

bool pipeline_default(struct pipeline *pl)
{
	return pipeline_read_text("<built-in>", NULL, default_pipeline_text,
	                          strlen(default_pipeline_text), pl);
}

bool pipeline_from_list(const char *list, struct pipeline *pl)
{
	memset(pl, 0, sizeof *pl);
	pl->source = xstrdup("--passes");
	const char *p = list;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *name = xmalloc(n + 1);
		memcpy(name, p, n);
		name[n] = '\0';
		if (!is_identifier(name)) {
			host_error("--passes: '%s' is not a pass name", name);
			free(name);
			return false;
		}
		add_step(pl, name, "--passes", 0);
		free(name);
		p += n;
		if (*p == ',') {
			p++;
			if (!*p) {
				host_error("--passes: a trailing ','");
				return false;
			}
		}
	}
	return true;
}

int pipeline_override(struct pipeline *pl, const char *assignment, const char *origin)
{
	const char *dot = strchr(assignment, '.');
	const char *eq = strchr(assignment, '=');
	if (!dot || !eq || dot > eq || dot == assignment || eq == dot + 1) {
		host_error("%s: expected PASS.KEY=VALUE, not '%s'", origin, assignment);
		return EXIT_USAGE;
	}
	char *pass = xmalloc((size_t)(dot - assignment) + 1);
	memcpy(pass, assignment, (size_t)(dot - assignment));
	pass[dot - assignment] = '\0';
	char *key = xmalloc((size_t)(eq - dot));
	memcpy(key, dot + 1, (size_t)(eq - dot - 1));
	key[eq - dot - 1] = '\0';
	const char *value = eq + 1;
	int status = EXIT_OK;
	size_t matched = 0;
	if (strcmp(pass, "hlo") == 0) {
		if (strcmp(key, "async_form") != 0) {
			host_error("%s: unknown key '%s' of hlo (the one key is async_form)", origin, key);
			status = EXIT_INPUT;
		} else if (strcmp(value, "wrapped") == 0) {
			pl->hlo_async_form = HLO_ASYNC_WRAPPED;
		} else if (strcmp(value, "start_done") == 0) {
			pl->hlo_async_form = HLO_ASYNC_START_DONE;
		} else {
			host_error("%s: hlo.async_form: expected wrapped or start_done, not '%s'", origin,
			           value);
			status = EXIT_INPUT;
		}
		free(pass);
		free(key);
		return status;
	}
	if (strcmp(pass, "loops") == 0) {
		char *why = loops_set(pl, key, value, origin, 0);
		if (why) {
			host_error("%s: loops.%s: %s", origin, key, why);
			status = EXIT_INPUT;
		}
		free(why);
		free(pass);
		free(key);
		return status;
	}
	if (strcmp(pass, "cost_model") == 0) {
		char *why = cost_model_assign(pl, key, value);
		if (why) {
			host_error("%s: %s", origin, why);
			status = EXIT_INPUT;
		}
		free(why);
		free(pass);
		free(key);
		return status;
	}
	for (size_t k = 0; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		if (strcmp(s->pass, pass) != 0)
			continue;
		matched++;
		if (strcmp(key, "enabled") == 0) {
			if (!parse_enabled(value, &s->enabled)) {
				host_error("%s: enabled: expected true or false, not '%s'", origin, value);
				status = EXIT_INPUT;
				break;
			}
			continue;
		}
		if (strcmp(key, "plugin") == 0) {
			free(s->plugin_path);
			s->plugin_path = resolve_relative(NULL, value);
			continue;
		}
		struct setting *set = NULL;
		for (size_t j = 0; j < s->nsettings; j++)
			if (strcmp(s->settings[j].key, key) == 0)
				set = &s->settings[j];
		if (!set) {
			s->settings = xrealloc(s->settings, (s->nsettings + 1) * sizeof *s->settings);
			set = &s->settings[s->nsettings++];
			set->key = xstrdup(key);
		} else {
			free(set->value);
			free(set->file);
		}
		set->value = xstrdup(value);
		set->file = xstrdup(origin);
		set->line = 0;
	}
	if (status == EXIT_OK && !matched) {
		const char **names = xcalloc(pl->nsteps, sizeof *names);
		for (size_t k = 0; k < pl->nsteps; k++)
			names[k] = pl->steps[k].pass;
		const char *near = closest_match(pass, names, pl->nsteps);
		if (near)
			host_error("%s: no pass '%s' in the pipeline (did you mean '%s'?)", origin,
			           pass, near);
		else
			host_error("%s: no pass '%s' in the pipeline", origin, pass);
		free(names);
		status = EXIT_INPUT;
	}
	free(pass);
	free(key);
	return status;
}

/* Whether inih reads "key = value" back as this very value: it trims
 * blanks, and a ';' after a blank starts a comment. */
static bool ini_representable(const char *v)
{
	size_t n = strlen(v);
	if (n && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' || v[n - 1] == '\t'))
		return false;
	for (size_t k = 0; k < n; k++) {
		if ((unsigned char)v[k] < 0x20 && v[k] != '\t')
			return false;
		if (v[k] == ';' && k && (v[k - 1] == ' ' || v[k - 1] == '\t'))
			return false;
	}
	return true;
}

/* One "key = value" line; "key=value" when the value starts with ';' (a
 * blank before it would make it a comment) or when the spaces would pass
 * inih's line limit. False, after an error, when inih could not read the
 * line back: --print-pipeline promises text that reads back. */
static bool print_key(FILE *out, const char *key, const char *value)
{
	size_t n = strlen(key) + strlen(value);
	if (!ini_representable(value)) {
		host_error("cannot print the pipeline: the value of '%s' cannot be written in "
		           "a pipeline file (blanks at its ends, a control character, or ';' "
		           "after a blank)", key);
		return false;
	}
	if (n + 3 <= PL_INI_MAX_CONTENT && value[0] != ';')
		fprintf(out, "%s = %s\n", key, value);
	else if (n + 1 <= PL_INI_MAX_CONTENT)
		fprintf(out, "%s=%s\n", key, value);
	else {
		host_error("cannot print the pipeline: '%s' would not fit on one line of %d "
		           "characters", key, PL_INI_MAX_CONTENT);
		return false;
	}
	return true;
}

bool pipeline_old_key_set(const struct pipeline *pl, const char *name)
{
	for (size_t j = 0; j < pl_cost_model_num_keys(); j++)
		if (strcmp(pl_cost_model_key(j)->name, name) == 0)
			return pl->old_keys & (1u << j);
	return false;
}

/* The preset, then the keys that differ from what it (or the defaults)
 * gives: the others read back the same when left out. An old integer key
 * set, even at its default, is printed: it keeps the exact integer
 * model. */
static void print_cost_model(const struct pipeline *pl, FILE *out)
{
	if (!pl->cost_model)
		return;
	bool header = false;
	for (size_t k = 0; k < pl_cost_model_num_params(); k++) {
		const char *name = pl_cost_model_param_name(k);
		char value[64];
		if (!(pl_cost_model_is_set(pl->cost_model, name) || pipeline_old_key_set(pl, name)) ||
		    pl_cost_model_format(pl->cost_model, name, value, sizeof value) != PL_OK)
			continue;
		if (!header)
			fputs("\n[cost_model]\n", out);
		header = true;
		fprintf(out, "%s = %s\n", name, value);
	}
}

bool pipeline_print(const struct pipeline *pl, FILE *out)
{
	bool ok = true;
	fprintf(out, "; the effective pipeline, printed by passline %s\n", PACKAGE_VERSION);
	if (strcmp(pl->source, "<built-in>") == 0)
		fputs("; from the built-in default pipeline\n", out);
	else if (strcmp(pl->source, "--passes") == 0)
		fputs("; from --passes\n", out);
	else
		fprintf(out, "; from the file %s\n", pl->source);
	if (pl->xla && xla_flags_relevant(pl->xla, pl))
		xla_flags_print(pl->xla, out);
	if (pl->name || pl->description || pl->plugin_dir) {
		fputs("[pipeline]\n", out);
		if (pl->name)
			ok = print_key(out, "name", pl->name) && ok;
		if (pl->description)
			ok = print_key(out, "description", pl->description) && ok;
		if (pl->plugin_dir)
			ok = print_key(out, "plugin_dir", pl->plugin_dir) && ok;
	}
	print_cost_model(pl, out);
	if (pl->nloops)
		fputs("\n[loops]\n", out);
	for (size_t k = 0; k < pl->nloops; k++)
		ok = print_key(out, pl->loops[k].key, pl->loops[k].value) && ok;
	for (size_t k = 0; k < pl->nsteps; k++) {
		const struct step *s = &pl->steps[k];
		fprintf(out, "\n[pass %s]\n", s->pass);
		if (!s->enabled)
			fputs("enabled = false\n", out);
		if (s->plugin_path)
			ok = print_key(out, "plugin", s->plugin_path) && ok;
		for (size_t j = 0; j < s->nsettings; j++)
			ok = print_key(out, s->settings[j].key, s->settings[j].value) && ok;
	}
	return ok;
}

void pipeline_free(struct pipeline *pl)
{
	for (size_t k = 0; k < pl->nsteps; k++) {
		struct step *s = &pl->steps[k];
		for (size_t j = 0; j < s->nsettings; j++) {
			free(s->settings[j].key);
			free(s->settings[j].value);
			free(s->settings[j].file);
		}
		free(s->settings);
		free(s->pass);
		free(s->plugin_path);
		free(s->file);
	}
	free(pl->steps);
	for (size_t k = 0; k < pl->nloops; k++) {
		free(pl->loops[k].key);
		free(pl->loops[k].value);
		free(pl->loops[k].file);
	}
	free(pl->loops);
	for (size_t k = 0; k < pl->nwarnings; k++)
		free(pl->warnings[k]);
	free(pl->warnings);
	free(pl->source);
	free(pl->name);
	free(pl->description);
	free(pl->plugin_dir);
	pl_cost_model_free(pl->cost_model);
	pl_cost_model_free(pl->run_cost_model);
	memset(pl, 0, sizeof *pl);
}
