/* SPDX-License-Identifier: MIT */
/* sdk/pass/desc.c — checking plugin descriptors against this library's ABI,
 * and walking their arrays by the struct_size the plugin was built with
 * (never by this library's sizeof). */
#include "ir/internal.h"

#include <stdio.h>
#include <stdlib.h>

enum { MAX_ENTRIES = 4096 };

static const void *stride_at(const void *base, size_t i)
{
	size_t stride = *(const size_t *)base;
	return (const char *)base + i * stride;
}

size_t pl_plugin_desc_num_passes(const pl_plugin_desc *d)
{
	size_t n = 0;
	while (d->passes[n])
		n++;
	return n;
}

const pl_pass_desc *pl_plugin_desc_pass(const pl_plugin_desc *d, size_t i)
{
	return d->passes[i];
}

size_t pl_pass_desc_num_options(const pl_pass_desc *p)
{
	size_t n = 0;
	if (p->options)
		while (((const pl_option_decl *)stride_at(p->options, n))->name)
			n++;
	return n;
}

const pl_option_decl *pl_pass_desc_option(const pl_pass_desc *p, size_t i)
{
	return stride_at(p->options, i);
}

const pl_option_decl *pl_pass_desc_find_option(const pl_pass_desc *p, const char *name)
{
	size_t n = pl_pass_desc_num_options(p);
	for (size_t i = 0; i < n; i++) {
		const pl_option_decl *o = pl_pass_desc_option(p, i);
		if (strcmp(o->name, name) == 0)
			return o;
	}
	return NULL;
}

size_t pl_pass_desc_num_stats(const pl_pass_desc *p)
{
	size_t n = 0;
	if (p->stats)
		while (((const pl_stat_decl *)stride_at(p->stats, n))->name)
			n++;
	return n;
}

const pl_stat_decl *pl_pass_desc_stat(const pl_pass_desc *p, size_t i)
{
	return stride_at(p->stats, i);
}

#define PROBLEM(kind, ...)                           \
	do {                                         \
		snprintf(err, errlen, __VA_ARGS__);  \
		return (kind);                       \
	} while (0)

static bool valid_key(const char *s)
{
	return s && pl_is_key_(s, strlen(s));
}

static pl_desc_problem check_options(const pl_pass_desc *p, char *err, size_t errlen)
{
	if (!p->options)
		return PL_DESC_OK;
	size_t stride = *(const size_t *)p->options;
	if (stride < PL_OPTION_DECL_SIZE_1_0)
		PROBLEM(PL_DESC_TOO_SMALL,
		        "pass '%s': option descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
		        p->name, stride, (size_t)PL_OPTION_DECL_SIZE_1_0);
	for (size_t i = 0;; i++) {
		if (i == MAX_ENTRIES)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option list not terminated", p->name);
		const pl_option_decl *o = stride_at(p->options, i);
		if (o->struct_size != stride)
			PROBLEM(PL_DESC_MALFORMED,
			        "pass '%s': option %zu has struct_size %zu, the first has %zu",
			        p->name, i, o->struct_size, stride);
		if (!o->name)
			break;
		if (!valid_key(o->name))
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option %zu has an invalid name",
			        p->name, i);
		for (size_t j = 0; j < i; j++)
			if (strcmp(((const pl_option_decl *)stride_at(p->options, j))->name,
			           o->name) == 0)
				PROBLEM(PL_DESC_MALFORMED, "pass '%s': option '%s' declared twice",
				        p->name, o->name);
		if (o->type < PL_OPT_BOOL || o->type > PL_OPT_ENUM)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option '%s' has unknown type %d",
			        p->name, o->name, (int)o->type);
		if ((o->type == PL_OPT_INT || o->type == PL_OPT_BYTES) && o->min > o->max)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option '%s' has min above max",
			        p->name, o->name);
		if (o->type == PL_OPT_ENUM && (!o->choices || !o->choices[0]))
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': enum option '%s' has no choices",
			        p->name, o->name);
		if (!o->default_value)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option '%s' has no default",
			        p->name, o->name);
		char why[256];
		if (pl_option_validate(o, o->default_value, NULL, why, sizeof why))
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': option '%s': invalid default: %s",
			        p->name, o->name, why);
	}
	return PL_DESC_OK;
}

static pl_desc_problem check_stats(const pl_pass_desc *p, char *err, size_t errlen)
{
	if (!p->stats)
		return PL_DESC_OK;
	size_t stride = *(const size_t *)p->stats;
	if (stride < PL_STAT_DECL_SIZE_1_0)
		PROBLEM(PL_DESC_TOO_SMALL,
		        "pass '%s': stat descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
		        p->name, stride, (size_t)PL_STAT_DECL_SIZE_1_0);
	for (size_t i = 0;; i++) {
		if (i == MAX_ENTRIES)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': stat list not terminated", p->name);
		const pl_stat_decl *s = stride_at(p->stats, i);
		if (s->struct_size != stride)
			PROBLEM(PL_DESC_MALFORMED,
			        "pass '%s': stat %zu has struct_size %zu, the first has %zu", p->name,
			        i, s->struct_size, stride);
		if (!s->name)
			break;
		if (!valid_key(s->name))
			PROBLEM(PL_DESC_MALFORMED, "pass '%s': stat %zu has an invalid name", p->name,
			        i);
		for (size_t j = 0; j < i; j++)
			if (strcmp(((const pl_stat_decl *)stride_at(p->stats, j))->name, s->name) == 0)
				PROBLEM(PL_DESC_MALFORMED, "pass '%s': stat '%s' declared twice",
				        p->name, s->name);
	}
	return PL_DESC_OK;
}

pl_desc_problem pl_plugin_desc_check(const pl_plugin_desc *d, char *err, size_t errlen)
{
	char dummy[1];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (!d)
		PROBLEM(PL_DESC_NULL, "the plugin entry returned no descriptor");
	size_t version_end = offsetof(pl_plugin_desc, abi_minor) + sizeof d->abi_minor;
	if (d->struct_size < version_end)
		PROBLEM(PL_DESC_TOO_SMALL,
		        "plugin descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
		        d->struct_size, (size_t)PL_PLUGIN_DESC_SIZE_1_0);
	if (d->abi_major != PL_ABI_MAJOR)
		PROBLEM(PL_DESC_ABI_MAJOR,
		        "built for plugin ABI %u.%u, this host speaks ABI %d.%d (major versions "
		        "differ)",
		        d->abi_major, d->abi_minor, PL_ABI_MAJOR, PL_ABI_MINOR);
	if (d->abi_minor > PL_ABI_MINOR)
		PROBLEM(PL_DESC_ABI_NEWER,
		        "built for plugin ABI %u.%u, this host speaks ABI %d.%d",
		        d->abi_major, d->abi_minor, PL_ABI_MAJOR, PL_ABI_MINOR);
	if (d->struct_size < PL_PLUGIN_DESC_SIZE_1_0)
		PROBLEM(PL_DESC_TOO_SMALL,
		        "plugin descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
		        d->struct_size, (size_t)PL_PLUGIN_DESC_SIZE_1_0);
	if (!d->name || !*d->name)
		PROBLEM(PL_DESC_MALFORMED, "plugin descriptor has no name");
	if (!d->passes || !d->passes[0])
		PROBLEM(PL_DESC_MALFORMED, "plugin '%s' offers no passes", d->name);
	for (size_t i = 0; d->passes[i]; i++) {
		if (i == MAX_ENTRIES)
			PROBLEM(PL_DESC_MALFORMED, "plugin '%s': pass list not terminated", d->name);
		const pl_pass_desc *p = d->passes[i];
		if (p->struct_size < PL_PASS_DESC_SIZE_1_0)
			PROBLEM(PL_DESC_TOO_SMALL,
			        "pass descriptor %zu too small (struct_size %zu, ABI 1.0 needs %zu)", i,
			        p->struct_size, (size_t)PL_PASS_DESC_SIZE_1_0);
		if (!valid_key(p->name))
			PROBLEM(PL_DESC_MALFORMED, "plugin '%s': pass %zu has an invalid name",
			        d->name, i);
		if (!p->run)
			PROBLEM(PL_DESC_MALFORMED, "pass '%s' has no run function", p->name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->passes[j]->name, p->name) == 0)
				PROBLEM(PL_DESC_MALFORMED, "plugin '%s' offers pass '%s' twice", d->name,
				        p->name);
		pl_desc_problem pr = check_options(p, err, errlen);
		if (pr)
			return pr;
		if ((pr = check_stats(p, err, errlen)))
			return pr;
	}
	return PL_DESC_OK;
}
