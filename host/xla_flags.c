/* SPDX-License-Identifier: MIT */
/* host/xla_flags.c — XLA's flags as configuration (passline-xla(7)).
 *
 * The flags come from the XLA_FLAGS environment variable and from
 * --xla-flags, in XLA's syntax: "--name=value" words separated by white
 * space, a value optionally in quotes; a variable that does not start with
 * '-' names a file holding the flags. --xla-flags wins over XLA_FLAGS flag
 * by flag. Each modelled flag that was given becomes overrides of pass
 * options, the very PASS.KEY=VALUE of -O, applied when its pass is in the
 * pipeline (before -O, which wins). Flags at XLA's default drive nothing:
 * conf/xla-gpu.ini already holds XLA's defaults. A flag passline does not
 * model, or does not know, is named once in a warning; a modelled flag
 * with a value XLA would refuse is an error.
 *
 * Names, types and defaults follow xla/debug_options_flags.cc, the value
 * syntax xla/tsl/util/command_line_flags.cc and xla/parse_flags_from_env.cc,
 * the passes each flag drives xla/service/gpu/gpu_compiler.cc, of
 * openxla/xla at commit b76e87ee3cbb. */
#include "host.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum xla_type {
	XT_BOOL,
	XT_INT32,
	XT_INT64,
	XT_PIPELINE_MODE, /* default, off, on, explicit */
	XT_UNROLL,        /* WHILE_LOOP_UNROLLING_*, in any case */
	XT_COLLECTIVES,   /* XLA's CollectiveOpType names, comma-separated */
	XT_PASSES         /* XLA pass names, comma-separated */
};

/* One modelled flag. pass and key name the option it sets, or are NULL
 * when its value is turned into options by drives_of below. */
struct xla_flag_def {
	const char *name;
	enum xla_type type;
	const char *xla_default; /* as XLA shows it */
	const char *pass, *key;
};

/* The order matters where two flags drive one option: the later wins
 * (a pipelining mode on or off over the boolean; a disabled pass over
 * everything). */
static const struct xla_flag_def flag_defs[] = {
	{"xla_gpu_all_gather_combine_threshold_bytes", XT_INT64, "31457287", "XlaCombineCCOp",
	 "all_gather_threshold_in_bytes"},
	{"xla_gpu_all_reduce_combine_threshold_bytes", XT_INT64, "31457287", "XlaCombineCCOp",
	 "all_reduce_threshold_in_bytes"},
	{"xla_gpu_reduce_scatter_combine_threshold_bytes", XT_INT64, "31457287", "XlaCombineCCOp",
	 "reduce_scatter_threshold_in_bytes"},
	{"xla_gpu_enable_all_gather_combine_by_dim", XT_BOOL, "false", "XlaCombineCCOp",
	 "all_gather_combine_by_dim"},
	{"xla_gpu_enable_reduce_scatter_combine_by_dim", XT_BOOL, "false", "XlaCombineCCOp",
	 "reduce_scatter_combine_by_dim"},
	{"xla_gpu_enable_pipelined_all_gather", XT_BOOL, "false", "CollectivePipeliner",
	 "pipeline_all_gather"},
	{"xla_gpu_enable_pipelined_reduce_scatter", XT_BOOL, "true", "CollectivePipeliner",
	 "pipeline_reduce_scatter"},
	{"xla_gpu_enable_pipelined_all_reduce", XT_BOOL, "false", "CollectivePipeliner",
	 "pipeline_all_reduce"},
	{"xla_gpu_pipeline_all_gather", XT_PIPELINE_MODE, "default", "CollectivePipeliner",
	 "pipeline_all_gather"},
	{"xla_gpu_pipeline_reduce_scatter", XT_PIPELINE_MODE, "default", "CollectivePipeliner",
	 "pipeline_reduce_scatter"},
	{"xla_gpu_pipeline_all_reduce", XT_PIPELINE_MODE, "default", "CollectivePipeliner",
	 "pipeline_all_reduce"},
	{"xla_gpu_enable_while_loop_double_buffering", XT_BOOL, "false",
	 "DoubleBufferLoopUnrolling", "enabled"},
	{"xla_gpu_enable_while_loop_unrolling", XT_UNROLL, "WHILE_LOOP_UNROLLING_AUTO_UNROLL",
	 "DoubleBufferLoopUnrolling", "enabled"},
	{"xla_gpu_enable_latency_hiding_scheduler", XT_BOOL, "false", "LatencyHidingScheduler",
	 "enabled"},
	{"xla_gpu_memory_limit_slop_factor", XT_INT32, "95", "LatencyHidingScheduler",
	 "memory_limit_slop_factor"},
	{"xla_gpu_disable_async_collectives", XT_COLLECTIVES, "", NULL, NULL},
	{"xla_disable_hlo_passes", XT_PASSES, "", NULL, NULL},
};
enum { NUM_FLAGS = sizeof flag_defs / sizeof flag_defs[0] };

/* The kinds passline's collective passes know, as their kinds options
 * spell them, with XLA's CollectiveOpType name of each. */
static const struct {
	const char *kind, *xla;
} kinds[] = {
	{"all_gather", "ALLGATHER"},
	{"reduce_scatter", "REDUCESCATTER"},
	{"all_reduce", "ALLREDUCE"},
};
enum { NUM_KINDS = 3 };

/* XLA's other CollectiveOpType names: accepted, nothing to drive. */
static const char *const other_collectives[] = {
	"NOOP", "COLLECTIVEBROADCAST", "ALLTOALL", "COLLECTIVEPERMUTE", "RAGGEDALLTOALL", NULL};

/* XLA passes (by the names xla_disable_hlo_passes takes) that passline
 * models, and what disabling one does. kind >= 0: the combiner of that
 * kind; else pass.key = false. */
static const struct {
	const char *xla;
	const char *pass, *key;
	int kind;
} disabled_passes[] = {
	{"reduce-scatter-creator", "ReduceScatterCreator", "enabled", -1},
	{"collective-pipeliner-forward", "CollectivePipeliner", "pipeline_all_reduce", -1},
	{"collective-pipeliner-forward", "CollectivePipeliner", "pipeline_reduce_scatter", -1},
	{"collective-pipeliner-backward", "CollectivePipeliner", "pipeline_all_gather", -1},
	{"all-gather-combiner", "XlaCombineCCOp", NULL, 0},
	{"gpu-all-gather-combiner", "XlaCombineCCOp", NULL, 0},
	{"reduce-scatter-combiner", "XlaCombineCCOp", NULL, 1},
	{"gpu-reduce-scatter-combiner", "XlaCombineCCOp", NULL, 1},
	{"all-reduce-combiner", "XlaCombineCCOp", NULL, 2},
	{"gpu-all-reduce-combiner", "XlaCombineCCOp", NULL, 2},
	{"loop-double-buffer-transformer", "DoubleBufferLoopUnrolling", "enabled", -1},
	{"async-collective-creator", "SplitAsyncCCOp", "enabled", -1},
	{"latency-hiding-scheduler", "LatencyHidingScheduler", "enabled", -1},
};

const char *xla_source_name(enum xla_source s)
{
	switch (s) {
	case XLA_SOURCE_ENV:
		return "XLA_FLAGS";
	case XLA_SOURCE_OPTION:
		return "--xla-flags";
	default:
		return "XLA default";
	}
}

void xla_flags_init(struct xla_flags *xf)
{
	memset(xf, 0, sizeof *xf);
	xf->values = xcalloc(NUM_FLAGS, sizeof *xf->values);
	xf->sources = xcalloc(NUM_FLAGS, sizeof *xf->sources);
}

void xla_flags_free(struct xla_flags *xf)
{
	for (size_t k = 0; xf->values && k < NUM_FLAGS; k++)
		free(xf->values[k]);
	for (size_t k = 0; k < xf->nunmodelled; k++)
		free(xf->unmodelled[k]);
	for (size_t k = 0; k < xf->ndrives; k++) {
		free(xf->drives[k].value);
	}
	free(xf->values);
	free(xf->sources);
	free(xf->unmodelled);
	free(xf->drives);
	memset(xf, 0, sizeof *xf);
}

size_t xla_flags_count(void)
{
	return NUM_FLAGS;
}

const char *xla_flag_name(size_t k)
{
	return k < NUM_FLAGS ? flag_defs[k].name : NULL;
}

const char *xla_flag_value(const struct xla_flags *xf, size_t k)
{
	return xf->values[k] ? xf->values[k] : flag_defs[k].xla_default;
}

/* Records a name (with its value when the value is what is not
 * modelled) once. */
static void add_unmodelled(struct xla_flags *xf, const char *text)
{
	for (size_t k = 0; k < xf->nunmodelled; k++)
		if (strcmp(xf->unmodelled[k], text) == 0)
			return;
	xf->unmodelled = xrealloc(xf->unmodelled, (xf->nunmodelled + 1) * sizeof *xf->unmodelled);
	char *copy = xstrdup(text);
	for (char *c = copy; *c; c++) /* a quoted value may hold any byte: one line */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	xf->unmodelled[xf->nunmodelled++] = copy;
}

static bool same_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* An integer as XLA's sscanf("%d%c") takes it: blanks, a sign, digits,
 * nothing after; within [min, max]. */
static bool parse_int(const char *text, long long min, long long max, long long *out)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
		p++;
	const char *digits = *p == '+' || *p == '-' ? p + 1 : p;
	if (*digits < '0' || *digits > '9')
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(p, &end, 10);
	if (*end || errno == ERANGE || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* The index of XLA's CollectiveOpType name in kinds[], NUM_KINDS for
 * another known name, NUM_KINDS + 1 for ALLCOLLECTIVES, -1 if unknown. */
static int collective_index(const char *name, size_t len)
{
	char buf[32];
	if (len >= sizeof buf)
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	for (int k = 0; k < NUM_KINDS; k++)
		if (same_nocase(buf, kinds[k].xla))
			return k;
	for (size_t k = 0; other_collectives[k]; k++)
		if (same_nocase(buf, other_collectives[k]))
			return NUM_KINDS;
	return same_nocase(buf, "ALLCOLLECTIVES") ? NUM_KINDS + 1 : -1;
}

/* The value of flag d in its canonical text (malloc'd), or NULL after an
 * error naming where and the flag. value is NULL for "--name" alone. */
static char *canonical(const struct xla_flag_def *d, const char *value, const char *where)
{
	long long v;
	switch (d->type) {
	case XT_BOOL:
		/* XLA takes --name, true or false in any case, 1 or 0 */
		if (!value || same_nocase(value, "true") || strcmp(value, "1") == 0)
			return xstrdup("true");
		if (same_nocase(value, "false") || strcmp(value, "0") == 0)
			return xstrdup("false");
		host_error("%s: --%s=%s: XLA takes true or false (or 1 or 0) here", where, d->name,
		           value);
		return NULL;
	case XT_INT32:
	case XT_INT64: {
		bool wide = d->type == XT_INT64;
		if (!value) {
			host_error("%s: --%s needs a value (--%s=N)", where, d->name, d->name);
			return NULL;
		}
		if (!parse_int(value, wide ? LLONG_MIN : INT_MIN, wide ? LLONG_MAX : INT_MAX, &v)) {
			host_error("%s: --%s=%s: XLA reads a whole number (%s) here", where, d->name, value,
			           wide ? "int64" : "int32");
			return NULL;
		}
		return xasprintf("%lld", v);
	}
	case XT_PIPELINE_MODE: {
		static const char *const modes[] = {"default", "off", "on", "explicit"};
		for (size_t k = 0; value && k < 4; k++)
			if (same_nocase(value, modes[k]))
				return xstrdup(modes[k]);
		host_error("%s: --%s%s%s: XLA takes default, off, on or explicit here", where,
		           d->name, value ? "=" : "", value ? value : "");
		return NULL;
	}
	case XT_UNROLL: {
		static const char *const modes[] = {
			"WHILE_LOOP_UNROLLING_NO_UNROLL", "WHILE_LOOP_UNROLLING_DOUBLE_BUFFER",
			"WHILE_LOOP_UNROLLING_FULL_UNROLL", "WHILE_LOOP_UNROLLING_AUTO_UNROLL",
			"WHILE_LOOP_UNROLLING_MANUAL_UNROLL"};
		for (size_t k = 0; value && k < sizeof modes / sizeof *modes; k++)
			if (same_nocase(value, modes[k]))
				return xstrdup(modes[k]);
		host_error("%s: --%s%s%s: XLA takes WHILE_LOOP_UNROLLING_NO_UNROLL, _DOUBLE_BUFFER, "
		           "_FULL_UNROLL, _AUTO_UNROLL or _MANUAL_UNROLL here", where, d->name,
		           value ? "=" : "", value ? value : "");
		return NULL;
	}
	case XT_COLLECTIVES: {
		if (!value) {
			host_error("%s: --%s needs a value, such as ALLREDUCE,REDUCESCATTER", where,
			           d->name);
			return NULL;
		}
		/* names, each optionally after + (add) or - (remove) */
		for (const char *p = value; *p;) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			const char *name = p + (len && (*p == '+' || *p == '-'));
			size_t nlen = len - (size_t)(name - p);
			if (collective_index(name, nlen) < 0) {
				host_error("%s: --%s=%s: '%.*s' is not one of XLA's collective kinds "
				           "(ALLREDUCE, ALLGATHER, REDUCESCATTER, COLLECTIVEBROADCAST, "
				           "ALLTOALL, COLLECTIVEPERMUTE, RAGGEDALLTOALL, ALLCOLLECTIVES)",
				           where, d->name, value, (int)(len > 64 ? 64 : len), p);
				return NULL;
			}
			p += len + (end != NULL);
		}
		return xstrdup(value);
	}
	case XT_PASSES:
		if (!value) {
			host_error("%s: --%s needs a value, a comma-separated list of XLA pass names",
			           where, d->name);
			return NULL;
		}
		return xstrdup(value);
	}
	return NULL;
}

/* One word "--name[=value]" of source src. false after an error. */
static bool take_word(struct xla_flags *xf, const char *word, enum xla_source src,
                      const char *where, bool *seen)
{
	if (strncmp(word, "--", 2) != 0) {
		/* XLA knows no flag spelt with one dash */
		add_unmodelled(xf, word);
		return true;
	}
	const char *name = word + 2;
	const char *eq = strchr(name, '=');
	size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
	if (!nlen) { /* "--=..." */
		add_unmodelled(xf, word);
		return true;
	}
	size_t k = 0;
	while (k < NUM_FLAGS &&
	       !(strlen(flag_defs[k].name) == nlen && memcmp(flag_defs[k].name, name, nlen) == 0))
		k++;
	if (k == NUM_FLAGS) {
		char *only = xmalloc(nlen + 1);
		memcpy(only, name, nlen);
		only[nlen] = '\0';
		add_unmodelled(xf, only);
		free(only);
		return true;
	}
	char *v = canonical(&flag_defs[k], eq ? eq + 1 : NULL, where);
	if (!v)
		return false;
	if (flag_defs[k].type == XT_PASSES && seen[k] && *xf->values[k]) {
		/* as XLA: each occurrence adds its passes */
		char *both = *v ? xasprintf("%s,%s", xf->values[k], v) : xstrdup(xf->values[k]);
		free(v);
		v = both;
	}
	free(xf->values[k]);
	xf->values[k] = v;
	xf->sources[k] = src;
	seen[k] = true;
	/* a mode XLA has and passline does not model is named as such */
	if ((flag_defs[k].type == XT_PIPELINE_MODE && strcmp(v, "explicit") == 0) ||
	    (flag_defs[k].type == XT_UNROLL && (strstr(v, "FULL") || strstr(v, "MANUAL")))) {
		char *text = xasprintf("%s=%s", flag_defs[k].name, v);
		add_unmodelled(xf, text);
		free(text);
	}
	return true;
}

/* The words of text as XLA's environment parser splits them: from each
 * '-' to the next blank, or "--name='...'" / "--name=\"...\"" quoted (a
 * backslash escapes in double quotes); it stops at a word that does not
 * start with '-'. */
static bool take_text(struct xla_flags *xf, const char *text, enum xla_source src,
                      const char *where)
{
	static const char blanks[] = " \t\r\n";
	bool *seen = xcalloc(NUM_FLAGS, sizeof *seen);
	bool ok = true;
	bool after_dashes = false;
	const char *p = text + strspn(text, blanks);
	while (ok && *p == '-') {
		const char *e = p;
		while (*e == '-' || *e == '_' || (*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'z') ||
		       (*e >= 'A' && *e <= 'Z'))
			e++;
		char *word;
		if (*e == '=' && (e[1] == '\'' || e[1] == '"')) {
			char quote = e[1];
			size_t head = (size_t)(e + 1 - p);
			word = xmalloc(strlen(p) + 1);
			memcpy(word, p, head);
			size_t n = head;
			const char *q = e + 2;
			for (; *q && *q != quote; q++) {
				if (quote == '"' && *q == '\\' && q[1])
					q++;
				word[n++] = *q;
			}
			word[n] = '\0';
			e = *q ? q + 1 : q;
		} else {
			e += strcspn(e, blanks);
			word = xmalloc((size_t)(e - p) + 1);
			memcpy(word, p, (size_t)(e - p));
			word[e - p] = '\0';
		}
		/* XLA takes no flag after "--": it and the words after it are
		 * unknown flags to XLA */
		after_dashes = after_dashes || strcmp(word, "--") == 0;
		if (after_dashes)
			add_unmodelled(xf, word);
		else
			ok = take_word(xf, word, src, where, seen);
		free(word);
		p = e + strspn(e, blanks);
	}
	if (ok && *p) {
		size_t n = strcspn(p, blanks);
		host_warning("%s: '%.*s' does not start with '-': XLA reads no flag from there on, "
		             "nor does passline", where, (int)(n > 40 ? 40 : n), p);
	}
	free(seen);
	return ok;
}

/* XLA_FLAGS: flags, or the name of a file that holds them. */
static bool take_env(struct xla_flags *xf, const char *env)
{
	const char *start = env + strspn(env, " \t\r\n");
	if (!*start)
		return true;
	if (*start == '-')
		return take_text(xf, env, XLA_SOURCE_ENV, "XLA_FLAGS");
	FILE *fp = fopen(env, "rb");
	if (!fp) {
		host_error("XLA_FLAGS: cannot read the flags file '%s' (a value that does not start "
		           "with '-' names a file): %s", env, strerror(errno));
		return false;
	}
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += got;
		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	bool failed = ferror(fp);
	fclose(fp);
	buf[len] = '\0';
	bool ok = !failed && take_text(xf, buf, XLA_SOURCE_ENV, "XLA_FLAGS");
	if (failed)
		host_error("XLA_FLAGS: cannot read the flags file '%s'", env);
	free(buf);
	return ok;
}


/* ---- what the flags drive ------------------------------------------------ */

static void add_drive(struct xla_flags *xf, size_t flag, const char *pass, const char *key,
                      const char *value)
{
	xf->drives = xrealloc(xf->drives, (xf->ndrives + 1) * sizeof *xf->drives);
	struct xla_drive *d = &xf->drives[xf->ndrives++];
	d->flag = flag;
	d->pass = pass;
	d->key = key;
	d->value = xstrdup(value);
	d->applied = false;
}

/* "a,b,c" of the kinds still on; "" when none. */
static char *kinds_list(const bool *off)
{
	char *s = xstrdup("");
	for (int k = 0; k < NUM_KINDS; k++) {
		if (off[k])
			continue;
		char *t = xasprintf("%s%s%s", s, *s ? "," : "", kinds[k].kind);
		free(s);
		s = t;
	}
	return s;
}

/* The kinds option of pass (or enabled = false when no kind is left). */
static void drive_kinds(struct xla_flags *xf, size_t flag, const char *pass, const bool *off)
{
	char *list = kinds_list(off);
	if (*list)
		add_drive(xf, flag, pass, "kinds", list);
	else
		add_drive(xf, flag, pass, "enabled", "false");
	free(list);
}

/* The options flag k drives, at the value given. */
static void drives_of(struct xla_flags *xf, size_t k)
{
	const struct xla_flag_def *d = &flag_defs[k];
	const char *v = xf->values[k];
	switch (d->type) {
	case XT_BOOL:
		add_drive(xf, k, d->pass, d->key, v);
		break;
	case XT_INT32:
	case XT_INT64:
		/* XLA combines nothing below a threshold of 1, and a factor
		 * below 0 leaves no memory: the options take 0 for both */
		add_drive(xf, k, d->pass, d->key, v[0] == '-' ? "0" : v);
		break;
	case XT_PIPELINE_MODE:
		/* default: the boolean flag decides; explicit: not modelled */
		if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0)
			add_drive(xf, k, d->pass, d->key, strcmp(v, "on") == 0 ? "true" : "false");
		break;
	case XT_UNROLL:
		/* as XLA: double buffering, or a full unroll instead of it; the
		 * other modes leave xla_gpu_enable_while_loop_double_buffering
		 * (or an optimization effort passline does not model) to decide */
		if (strcmp(v, "WHILE_LOOP_UNROLLING_DOUBLE_BUFFER") == 0)
			add_drive(xf, k, d->pass, d->key, "true");
		else if (strcmp(v, "WHILE_LOOP_UNROLLING_FULL_UNROLL") == 0)
			add_drive(xf, k, d->pass, d->key, "false");
		break;
	case XT_COLLECTIVES: {
		bool off[NUM_KINDS] = {false};
		for (const char *p = v; *p;) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			bool remove = len && *p == '-';
			const char *name = p + (len && (*p == '+' || *p == '-'));
			int i = collective_index(name, len - (size_t)(name - p));
			for (int j = 0; j < NUM_KINDS; j++)
				if (i == j || i == NUM_KINDS + 1)
					off[j] = !remove;
			p += len + (end != NULL);
		}
		drive_kinds(xf, k, "SplitAsyncCCOp", off);
		break;
	}
	case XT_PASSES: {
		bool combiner_off[NUM_KINDS] = {false}, any_combiner = false;
		for (const char *p = v; *p;) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			bool known = false;
			for (size_t j = 0; j < sizeof disabled_passes / sizeof *disabled_passes; j++) {
				const char *x = disabled_passes[j].xla;
				if (strlen(x) != len || memcmp(x, p, len) != 0)
					continue;
				known = true;
				if (disabled_passes[j].kind >= 0) {
					combiner_off[disabled_passes[j].kind] = true;
					any_combiner = true;
				} else {
					add_drive(xf, k, disabled_passes[j].pass, disabled_passes[j].key,
					          "false");
				}
			}
			if (!known && len) {
				char *text = xasprintf("%s=%.*s", d->name, (int)len, p);
				add_unmodelled(xf, text);
				free(text);
			}
			p += len + (end != NULL);
		}
		if (any_combiner)
			drive_kinds(xf, k, "XlaCombineCCOp", combiner_off);
		break;
	}
	}
}

bool xla_flags_read(struct xla_flags *xf, const char *env, const char *option)
{
	if (env && !take_env(xf, env))
		return false;
	if (option && !take_text(xf, option, XLA_SOURCE_OPTION, "--xla-flags"))
		return false;
	for (size_t k = 0; k < NUM_FLAGS; k++)
		if (xf->sources[k] != XLA_SOURCE_DEFAULT) {
			drives_of(xf, k);
			xf->given = true;
		}
	xf->given = xf->given || xf->nunmodelled > 0;
	if (xf->nunmodelled) {
		size_t n = 0;
		for (size_t k = 0; k < xf->nunmodelled; k++)
			n += strlen(xf->unmodelled[k]) + 2;
		char *list = xmalloc(n + 1);
		list[0] = '\0';
		for (size_t k = 0; k < xf->nunmodelled; k++) {
			if (k)
				strcat(list, ", ");
			strcat(list, xf->unmodelled[k]);
		}
		host_warning("XLA flags not modelled: %s", list);
		free(list);
	}
	return true;
}

static bool has_pass(const struct pipeline *pl, const char *pass)
{
	for (size_t k = 0; k < pl->nsteps; k++)
		if (strcmp(pl->steps[k].pass, pass) == 0)
			return true;
	return false;
}

/* Whether an earlier drive of the same flag found the same pass missing. */
static bool missing_before(const struct xla_flags *xf, size_t j)
{
	const struct xla_drive *d = &xf->drives[j];
	for (size_t i = 0; i < j; i++)
		if (xf->drives[i].flag == d->flag && !xf->drives[i].applied &&
		    strcmp(xf->drives[i].pass, d->pass) == 0)
			return true;
	return false;
}

int xla_flags_apply(struct xla_flags *xf, struct pipeline *pl, bool remarks)
{
	pl->xla = xf;
	int status = EXIT_OK;
	for (size_t k = 0; k < xf->ndrives && status == EXIT_OK; k++) {
		struct xla_drive *d = &xf->drives[k];
		const struct xla_flag_def *f = &flag_defs[d->flag];
		const char *where = xla_source_name(xf->sources[d->flag]);
		d->applied = has_pass(pl, d->pass);
		if (!d->applied) {
			if (remarks && !missing_before(xf, k))
				host_remark("%s: --%s=%s: no %s in the pipeline: nothing to drive", where,
				            f->name, xf->values[d->flag], d->pass);
			continue;
		}
		char *assignment = xasprintf("%s.%s=%s", d->pass, d->key, d->value);
		char *origin = xasprintf("%s (--%s=%s)", where, f->name, xf->values[d->flag]);
		status = pipeline_override(pl, assignment, origin);
		free(assignment);
		free(origin);
	}
	return status;
}

/* ---- reports ----------------------------------------------------------------- */

bool xla_flags_relevant(const struct xla_flags *xf, const struct pipeline *pl)
{
	if (xf->given)
		return true;
	for (size_t k = 0; k < NUM_FLAGS; k++)
		if (flag_defs[k].pass && has_pass(pl, flag_defs[k].pass))
			return true;
	for (size_t k = 0; k < sizeof disabled_passes / sizeof *disabled_passes; k++)
		if (has_pass(pl, disabled_passes[k].pass))
			return true;
	return false;
}

/* Appends t (malloc'd, freed here) to *s. */
static void append(char **s, char *t)
{
	char *u = xasprintf("%s%s", *s, t);
	free(t);
	free(*s);
	*s = u;
}

/* text as comment lines a pipeline file reads back: control characters
 * shown as '?', lines broken at a blank (or cut) before inih's limit. */
static void comment_lines(FILE *out, const char *text)
{
	enum { WIDTH = 120 };
	const char *lead = ";   ";
	size_t n = strlen(text);
	for (size_t at = 0; at < n;) {
		size_t len = n - at;
		if (len > WIDTH) {
			len = WIDTH;
			while (len > WIDTH / 2 && text[at + len] != ' ')
				len--;
			if (text[at + len] != ' ')
				len = WIDTH;
		}
		size_t shown = len;
		while (shown > 1 && text[at + shown - 1] == ' ')
			shown--;
		fputs(lead, out);
		for (size_t i = 0; i < shown; i++) {
			unsigned char ch = (unsigned char)text[at + i];
			fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
		}
		fputc('\n', out);
		at += len;
		while (at < n && text[at] == ' ')
			at++;
		lead = ";       ";
	}
}

void xla_flags_print(const struct xla_flags *xf, FILE *out)
{
	fputs("; XLA flags in force (passline-xla(7)); a flag given sets the options it drives\n",
	      out);
	for (size_t k = 0; k < NUM_FLAGS; k++) {
		char *line = xasprintf("--%s=%s  (%s", flag_defs[k].name, xla_flag_value(xf, k),
		                       xla_source_name(xf->sources[k]));
		const char *sep = ": ";
		for (size_t j = 0; j < xf->ndrives; j++) {
			const struct xla_drive *d = &xf->drives[j];
			if (d->flag != k || (!d->applied && missing_before(xf, j)))
				continue;
			if (d->applied)
				append(&line, xasprintf("%s%s.%s = %s", sep, d->pass, d->key, d->value));
			else
				append(&line, xasprintf("%sno %s in the pipeline", sep, d->pass));
			sep = ", ";
		}
		append(&line, xstrdup(")"));
		comment_lines(out, line);
		free(line);
	}
	if (xf->nunmodelled) {
		char *line = xstrdup("not modelled:");
		for (size_t k = 0; k < xf->nunmodelled; k++)
			append(&line, xasprintf("%s %s", k ? "," : "", xf->unmodelled[k]));
		comment_lines(out, line);
		free(line);
	}
}
