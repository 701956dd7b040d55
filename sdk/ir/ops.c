/* SPDX-License-Identifier: MIT */
/* sdk/ir/ops.c — the op and dtype tables (driven by the X-macros in ops.h). */
#include "ir/internal.h"

#include <limits.h>

static const char *const op_names[PL_OP__COUNT] = {
	[PL_OP_OTHER] = NULL,
#define X(e, name, traits, flops) [PL_OP_##e] = name,
	PL_OP_TABLE(X)
#undef X
};

const int64_t pl_op_flops_table_[PL_OP__COUNT] = {
	[PL_OP_OTHER] = PL_OTHER_OP_FLOPS,
#define X(e, name, traits, flops) [PL_OP_##e] = flops,
	PL_OP_TABLE(X)
#undef X
};

static const struct {
	const char *name;
	unsigned size;
} dtype_table[PL_DTYPE__COUNT] = {
	[PL_DTYPE_INVALID] = {NULL, 0},
#define X(e, name, size) [PL_DTYPE_##e] = {name, size},
	PL_DTYPE_TABLE(X)
#undef X
};

/* PL_OP_OTHER has none */
const unsigned pl_op_traits_table_[PL_OP__COUNT] = {
#define X(e, name, traits, flops) [PL_OP_##e] = traits,
	PL_OP_TABLE(X)
#undef X
};

unsigned pl_op_count(void)
{
	return PL_OP__COUNT;
}

unsigned pl_dtype_count(void)
{
	return PL_DTYPE__COUNT;
}

pl_op pl_op_from_name(const char *name)
{
	if (!name)
		return PL_OP_OTHER;
	/* Known op names are few; a first-letter check makes misses cheap. */
	for (int op = 1; op < PL_OP__COUNT; op++)
		if (op_names[op][0] == name[0] && strcmp(op_names[op], name) == 0)
			return (pl_op)op;
	return PL_OP_OTHER;
}

const char *pl_op_name(pl_op op)
{
	if ((unsigned)op >= PL_OP__COUNT)
		return NULL;
	return op_names[op];
}

unsigned pl_op_traits(pl_op op)
{
	if ((unsigned)op >= PL_OP__COUNT)
		return 0;
	return pl_op_traits_table_[op];
}

int64_t pl_op_default_flops(pl_op op)
{
	if ((unsigned)op >= PL_OP__COUNT)
		return PL_OTHER_OP_FLOPS;
	return pl_op_flops_table_[op];
}

pl_dtype pl_dtype_from_name(const char *name, size_t len)
{
	for (int dt = 1; dt < PL_DTYPE__COUNT; dt++)
		if (len && dtype_table[dt].name[0] == name[0] &&
		    strncmp(dtype_table[dt].name, name, len) == 0 && dtype_table[dt].name[len] == '\0')
			return (pl_dtype)dt;
	return PL_DTYPE_INVALID;
}

const char *pl_dtype_name(pl_dtype dt)
{
	if ((unsigned)dt >= PL_DTYPE__COUNT)
		return NULL;
	return dtype_table[dt].name;
}

unsigned pl_dtype_bits(pl_dtype dt)
{
	switch (dt) {
	case PL_DTYPE_S1: case PL_DTYPE_U1: return 1;
	case PL_DTYPE_S2: case PL_DTYPE_U2: return 2;
	case PL_DTYPE_S4: case PL_DTYPE_U4: case PL_DTYPE_F4E2M1FN: return 4;
	case PL_DTYPE_F6E3M2FN: case PL_DTYPE_F6E2M3FN: return 6;
	default: return 8 * pl_dtype_size(dt);
	}
}

unsigned pl_dtype_size(pl_dtype dt)
{
	if ((unsigned)dt >= PL_DTYPE__COUNT)
		return 0;
	return dtype_table[dt].size;
}

const char *pl_status_string(int status)
{
	switch (status) {
	case PL_OK: return "success";
	case PL_ERROR: return "failed";
	case PL_ENOMEM: return "out of memory";
	case PL_EINVAL: return "invalid argument";
	case PL_EPARSE: return "syntax error";
	case PL_EVERIFY: return "invalid IR";
	case PL_EIO: return "input/output error";
	case PL_EOVERFLOW: return "value too large";
	case PL_ENOTFOUND: return "not found";
	case PL_ETYPE: return "wrong type";
	case PL_ELIMIT: return "limit exceeded";
	default: return "unknown status";
	}
}

const char *pl_version(void)
{
	return PL_VERSION_STRING;
}
