/* SPDX-License-Identifier: MIT */
/* sdk/pass/options.c — option values: validation against a declaration, and
 * their canonical text (what --print-pipeline writes back). */
#include "ir/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

const char *pl_option_type_name(pl_option_type t)
{
	switch (t) {
	case PL_OPT_BOOL: return "bool";
	case PL_OPT_INT: return "int";
	case PL_OPT_BYTES: return "bytes";
	case PL_OPT_STRING: return "string";
	case PL_OPT_ENUM: return "enum";
	}
	return "unknown";
}

/* true/false, yes/no, on/off, 1/0, any case. */
static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	for (size_t k = 0; k < 4; k++) {
		if (strcasecmp(s, yes[k]) == 0) {
			*out = true;
			return PL_OK;
		}
		if (strcasecmp(s, no[k]) == 0) {
			*out = false;
			return PL_OK;
		}
	}
	return PL_EINVAL;
}

/* The decimal digits at *p (at least one) into *v; *p is left after
 * them. PL_EINVAL when there is no digit, PL_EOVERFLOW past UINT64_MAX. */
static int read_digits(const char **p, uint64_t *v)
{
	const char *q = *p;
	if (*q < '0' || *q > '9')
		return PL_EINVAL;
	*v = 0;
	for (; *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return PL_EOVERFLOW;
		*v = *v * 10 + d;
	}
	*p = q;
	return PL_OK;
}

/* A decimal int64 with an optional '-', nothing else. */
static int parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	bool neg = *p == '-';
	if (neg || *p == '+')
		p++;
	uint64_t v;
	int rc = read_digits(&p, &v);
	if (rc != PL_OK)
		return rc;
	if (*p)
		return PL_EINVAL;
	if ((!neg && v > (uint64_t)INT64_MAX) || (neg && v > (uint64_t)INT64_MAX + 1))
		return PL_EOVERFLOW;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return PL_OK;
}

int pl_parse_bytes(const char *text, int64_t *out)
{
	static const struct {
		const char *suffix;
		unsigned shift;
	} units[] = {{"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
	const char *p = text;
	uint64_t v;
	int rc = read_digits(&p, &v);
	if (rc != PL_OK)
		return rc;
	for (size_t k = 0; k < sizeof units / sizeof *units; k++) {
		if (strcmp(p, units[k].suffix) != 0)
			continue;
		if (v > ((uint64_t)INT64_MAX >> units[k].shift))
			return PL_EOVERFLOW;
		*out = (int64_t)(v << units[k].shift);
		return PL_OK;
	}
	return PL_EINVAL;
}

static char *format_bytes(int64_t v)
{
	char buf[32];
	if (v != 0 && v % (1 << 30) == 0)
		snprintf(buf, sizeof buf, "%" PRId64 "GiB", v >> 30);
	else if (v != 0 && v % (1 << 20) == 0)
		snprintf(buf, sizeof buf, "%" PRId64 "MiB", v >> 20);
	else if (v != 0 && v % (1 << 10) == 0)
		snprintf(buf, sizeof buf, "%" PRId64 "KiB", v >> 10);
	else
		snprintf(buf, sizeof buf, "%" PRId64, v);
	return strdup(buf);
}

static int range_check(const pl_option_decl *d, int64_t v, char *err, size_t errlen)
{
	if (v < d->min) {
		snprintf(err, errlen, "%" PRId64 " is below the minimum %" PRId64, v, d->min);
		return PL_EINVAL;
	}
	if (v > d->max) {
		snprintf(err, errlen, "%" PRId64 " is above the maximum %" PRId64, v, d->max);
		return PL_EINVAL;
	}
	return PL_OK;
}

int pl_option_validate(const pl_option_decl *d, const char *text, char **canonical,
                       char *err, size_t errlen)
{
	char dummy[1];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (canonical)
		*canonical = NULL;
	if (!text) {
		snprintf(err, errlen, "missing value");
		return PL_EINVAL;
	}
	char *canon = NULL;
	switch (d->type) {
	case PL_OPT_BOOL: {
		bool b;
		if (parse_bool(text, &b)) {
			snprintf(err, errlen, "expected true or false, not '%s'", text);
			return PL_EINVAL;
		}
		canon = strdup(b ? "true" : "false");
		break;
	}
	case PL_OPT_INT:
	case PL_OPT_BYTES: {
		bool bytes = d->type == PL_OPT_BYTES;
		int64_t v;
		int rc = bytes ? pl_parse_bytes(text, &v) : parse_int(text, &v);
		if (rc == PL_EOVERFLOW) {
			snprintf(err, errlen, "'%s' is out of range of int64", text);
			return PL_EINVAL;
		}
		if (rc) {
			if (bytes)
				snprintf(err, errlen, "expected a byte count such as 4096, 64KiB, "
				                      "16MiB or 1GiB, not '%s'", text);
			else
				snprintf(err, errlen, "expected an integer, not '%s'", text);
			return PL_EINVAL;
		}
		if (range_check(d, v, err, errlen))
			return PL_EINVAL;
		if (bytes) {
			canon = format_bytes(v);
		} else {
			char buf[24];
			buf[pl_fmt_i64(buf, v)] = '\0';
			canon = strdup(buf);
		}
		break;
	}
	case PL_OPT_STRING:
		canon = strdup(text);
		break;
	case PL_OPT_ENUM: {
		for (const char *const *c = d->choices; c && *c; c++)
			if (strcmp(*c, text) == 0) {
				canon = strdup(text);
				break;
			}
		if (!canon) {
			struct pl_strbuf sb = {0};
			for (const char *const *c = d->choices; c && *c; c++) {
				if (c != d->choices)
					pl_sb_puts(&sb, ", ");
				pl_sb_puts(&sb, *c);
			}
			snprintf(err, errlen, "expected one of %s, not '%s'",
			         sb.data ? sb.data : "(none)", text);
			pl_sb_free(&sb);
			return PL_EINVAL;
		}
		break;
	}
	default:
		snprintf(err, errlen, "option has an unknown type %d", (int)d->type);
		return PL_EINVAL;
	}
	if (!canon) {
		snprintf(err, errlen, "out of memory");
		return PL_ENOMEM;
	}
	if (canonical)
		*canonical = canon;
	else
		free(canon);
	return PL_OK;
}
