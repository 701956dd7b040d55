/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_read.h — the HLO text reader's state (private to
 * hlo_read.c): the syntax tree of the computation being read, the
 * computations already mapped, and the scratch the reader owns so that a
 * throw (longjmp) loses nothing; hr_free in hlo_read.c frees it all. */
#ifndef PL_HLO_READ_H
#define PL_HLO_READ_H

#include "hlo/hlo.h"
#include "hlo/hlo_eof.h"
#include "hlo/hlo_kept.h"
#include "ir/hlo_opcodes.h"
#include "hlo/hlo_shape.h"
#include <passline/hash_table.h>
#include <passline/text.h>

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable array of T (grown with passline/grow.h): v[0..n), room for
 * cap. */
#define HR_ARRAY(T) struct { T *v; size_t n, cap; }
/* A buffer of T regrown for each use: room for cap. */
#define HR_BUFFER(T) struct { T *v; size_t cap; }

struct pattr {
	const char *key, *val;
	uint32_t klen, vlen;
	const char *at;
};

struct popnd {
	uint32_t ref;          /* the instruction it names */
	uint32_t path, npath;  /* "#i" indices, in hr.paths */
	const char *at;
	const char *ty;        /* the shape written before it, or NULL */
	uint32_t tylen;
	bool pct;              /* written "%name" */
};

enum { KIND_PLAIN, KIND_ALIAS, KIND_PARAM, KIND_START };

struct pinst {
	const char *name, *opc, *at, *lit;
	uint32_t nlen, olen, litlen;
	uint32_t shape;
	const char *shape_at;    /* the text of its shape (has_shape) */
	uint32_t shape_len;
	uint32_t op0, nops, at0, nat;
	int64_t param;
	bool root, has_shape, mapped, named_anon;
	bool pct;                /* its name written "%name" */
	uint8_t kind;
	uint8_t opcode, phase;   /* enum hlo_op, enum hlo_phase: classified
	                          * once when the line is read */
	pl_op start_op;          /* KIND_START: the collective's start op */
	uint32_t leaf0, nleaves; /* the value's leaves, in hr.leaves */
	uint32_t res0, nres;     /* KIND_START: where the IR results are */
	bool used;               /* an operand or the root */
	uint8_t labeled;         /* a tuple: 0 not known yet, 1 labeled, 2 not */
	uint8_t vnode;           /* an alias: VNODE_*, from value_node */
	bool own_layout;         /* a get-tuple-element whose shape's text is
	                          * not its element's (another layout) */
	bool compact;            /* a get-tuple-element an operand's "#I" made */
	bool ctx_known, has_ctx; /* whether one of its leaves is the context of
	                          * an asynchronous collective (a NULL leaf),
	                          * once asked (operand_view) */
	pl_inst *inst;
};

_Static_assert(HLO_OP_OTHER <= UINT8_MAX, "an opcode fits pinst.opcode");

/* What later computations need to know of an earlier one. */
struct comp {
	const char *name;
	size_t len;
	pl_func *f;
	pl_inst *root;       /* the root's IR instruction, if it is one */
	const char *reduce;  /* the reduction its root computes, if any */
	bool bare;           /* exactly p0, p1, ROOT op(p0, p1) on scalars */
	bool root_on_params; /* the root's operands are the parameters, in order */
};


/* the reader's scratch buffers (struct hr's scratch) */
enum scratch_use {
	SCRATCH_PARAMS,       /* map_comp: the parameters in number order */
	SCRATCH_PARAM_SHAPES, /* map_comp: their shape texts */
	SCRATCH_PARAM_ATTRS,  /* map_comp: their attribute texts */
	SCRATCH_PARAM_NAMES,  /* map_comp: the names no argument carries */
	SCRATCH_ALIAS,        /* keep_alias_names: names, attributes, shapes */
	SCRATCH_COUNT
};

struct anon_next {
	const char *opc;
	uint32_t olen;
	unsigned next;
};

struct hr {
	const char *src, *p, *end;
	const char *file;
	pl_diags *diags;
	jmp_buf jb;
	int status;
	pl_module *m;
	/* line counting for locations: the last position asked for */
	const char *lpos, *lstart;
	uint32_t lline;

	/* growable arrays: v holds n elements, room for cap */
	struct pl_hlo_shapes shapes;  /* every shape read, preorder */
	HR_ARRAY(struct pinst) insts; /* the computation's instructions */
	HR_ARRAY(struct popnd) opnds; /* their operands */
	HR_ARRAY(struct popnd) side;  /* operands set aside while nested ones are read */
	HR_ARRAY(struct pattr) attrs; /* their attributes */
	HR_ARRAY(uint32_t) paths;     /* the operands' "#i" indices */
	HR_ARRAY(pl_value *) leaves;  /* the values' leaves */
	/* keep_structure: the attributes of each NAME@ANCHOR line in the
	 * operand structure, and whether one has any */
	HR_ARRAY(const pl_attr *) label_attrs;
	bool label_attrs_any;
	struct pl_ht names; /* the computation's instructions by name: items
	                     * are instruction index + 1 */
	/* for each opcode of a nested instruction, the first N not yet tried
	 * for "<opcode>.anon.N": a computation of many nested instructions
	 * names each in one lookup, not one for every one before it */
	HR_ARRAY(struct anon_next) anon;
	HR_ARRAY(struct comp) comps;  /* the computations mapped so far */
	HR_ARRAY(struct pl_hlo_stmt) stmts; /* the statements, for the kept text */
	/* the last white space and comments peek skipped: a statement ends
	 * where the skip started, when it ended where the next one starts */
	const char *skip_from_at, *skip_to;
	/* buffers grown to what one use needs (cap only) */
	HR_BUFFER(pl_value *) vals;
	HR_BUFFER(const pl_type *) types;
	struct pl_strbuf sb, sb2;
	HR_BUFFER(char) namebuf;
	int64_t replica_count, num_partitions; /* 0: not in the header */
	/* the part of the module being read, from where it starts: an error
	 * in a part the text ends inside of says so (hlo_eof.h) */
	const char *part_at;
	enum pl_hlo_part part;
	const char *header;
	size_t header_len;
	const char *frames;
	size_t frames_len;
	pl_func *entry;
	bool entry_marked;
	bool any_layout; /* some shape read so far has a layout */
	/* async collectives written over a computation (async-start), and
	 * written native (all-gather-start, ...) */
	bool async_wrapped, async_native;
	/* the numbers of the "hlo_<name>" keys, by the HLO attribute name */
	struct keymemo {
		const char *name;
		uint32_t len;
		uint32_t key;
	} keys[64];
	unsigned nkeys;
	const char *entry_name;
	size_t entry_len;
	pl_inst *ret;       /* the computation's return, once mapped */
	/* whose value an IR value is part of: a map from instruction to the
	 * index of its line, and the line of each argument */
	struct pl_ht owners;
	uint32_t owners_upto;    /* the lines before it are in owners */
	struct pl_ht comp_index; /* the computations by name: index + 1 */
	HR_ARRAY(uint32_t) arg_owner;
	/* scratch buffers, one per use, owned here and freed by hr_free, so
	 * that a throw between setjmp and return loses nothing */
	void *scratch[SCRATCH_COUNT];
	size_t scratch_cap[SCRATCH_COUNT];
};

#endif
