/* SPDX-License-Identifier: MIT */
/* sdk/ir/hlo_opcodes.h — the library's side of the one table of HLO
 * opcodes (PL_HLO_OP_TABLE, passline/hlo_ops.h): the opcode as the HLO
 * reader sees it (enum hlo_op, numbered from 0 with HLO_OP_OTHER last),
 * the lookups of HLO text the reader makes, and the classification of an
 * op name a module makes once, when it numbers the name. It lives in the
 * bottom floor beside the key table so that hlo/ and analysis/ (and the
 * op numbering itself) read the same rows. Nothing here is installed. */
#ifndef PL_HLO_OPCODES_H
#define PL_HLO_OPCODES_H

#include "ir/internal.h"
#include <passline/hlo_ops.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The opcodes as the reader numbers them: pl_hlo_op less one, so that
 * HLO_OP_OTHER (a name of no row) comes last and tables indexed by the
 * opcode have a slot for it. */
enum hlo_op {
#define PL_HLO_OPCODE_ENUM_(id, hlo, op, fuse, calls, coll, flags, req) \
	HLO_OP_##id = PL_HLO_##id - 1,
	PL_HLO_OP_TABLE(PL_HLO_OPCODE_ENUM_)
#undef PL_HLO_OPCODE_ENUM_
	HLO_OP_OTHER = PL_HLO__COUNT - 1
};

static inline pl_hlo_op pl_hlo_op_of_(enum hlo_op op)
{
	return op < HLO_OP_OTHER ? (pl_hlo_op)(op + 1) : PL_HLO_OTHER;
}

/* The phase of XLA's short form of an async pair ("reduce-scatter-start"
 * for an opcode the table has only without the suffix). */
enum hlo_phase { HLO_PHASE_NONE, HLO_PHASE_START, HLO_PHASE_UPDATE, HLO_PHASE_DONE };

/* Whether s[0..len) is one of the opcodes, or one of them with "-start",
 * "-update" or "-done" (XLA's short form of an async pair). */
bool pl_hlo_opcode_known_(const char *s, size_t len);

/* The HLO spelling of op ("all-gather"); NULL for HLO_OP_OTHER. */
const char *pl_hlo_opcode_name_(enum hlo_op op);

/* The known opcode nearest s[0..len) (at most two edits away, the first
 * of equals in the table's order), or NULL. */
const char *pl_hlo_opcode_nearest_(const char *s, size_t len);

/* Classifies s[0..len) once: its entry in the table, with *phase NONE;
 * else, when it is an entry with "-start", "-update" or "-done", that
 * entry and the phase; else HLO_OP_OTHER. */
enum hlo_op pl_hlo_opcode_of_(const char *s, size_t len, enum hlo_phase *phase);

/* What the reader knows of an opcode besides its name, as flags. */
enum hlo_op_flag {
	/* the result has the first operand's shape (so the text may leave
	 * it out) */
	HLO_F_SHAPE_OF_OPERAND = PL_HLO_F_SHAPE_OF_OPERAND,
};

/* The flags of op read with phase: none for XLA's short form of an async
 * pair (add-start is not add). */
unsigned pl_hlo_opcode_flags_(enum hlo_op op, enum hlo_phase phase);

/* The attributes XLA's parser requires of op (the table's REQUIRED; not
 * an async pair's -update or -done, which take their start's); "" for
 * none. */
const char *pl_hlo_opcode_required_(enum hlo_op op);

/* The opcode op is the asynchronous start or done of, where XLA has both
 * as opcodes of their own (all-gather for all-gather-start and
 * all-gather-done; all-reduce, collective-permute, copy); else op. */
enum hlo_op pl_hlo_opcode_sync_(enum hlo_op op);

/* What a module keeps of an op name, per number: the row (pl_hlo_op) in
 * the low byte, the phase of XLA's short form of a pair (enum hlo_phase)
 * above it, and PL_HLO_CLS_HLO_ when the name starts "hlo.". */
enum { PL_HLO_CLS_PHASE_SHIFT_ = 8, PL_HLO_CLS_HLO_ = 1u << 10 };
_Static_assert(PL_HLO__COUNT <= 256, "a row fits the low byte");

/* The classification of the op name s[0..len). */
uint16_t pl_hlo_classify_(const char *s, size_t len);

static inline pl_hlo_op pl_hlo_cls_op_(uint16_t cls)
{
	return (cls >> PL_HLO_CLS_PHASE_SHIFT_ & 3) ? PL_HLO_OTHER : (pl_hlo_op)(cls & 0xff);
}

/* The rows' columns, for the walks that ask every instruction: read in
 * place, not through a call. */
struct pl_hlo_row_ {
	const char *hlo, *op, *required;
	unsigned char fuse, calls, coll;
	unsigned flags;
};
extern const struct pl_hlo_row_ pl_hlo_rows_[PL_HLO__COUNT];

/* i's row (pl_inst_hlo_op), and that row's columns. */
static inline pl_hlo_op pl_inst_hlo_op_(const pl_inst *i)
{
	return pl_hlo_cls_op_(pl_inst_hlo_cls_(i));
}
static inline const struct pl_hlo_row_ *pl_inst_hlo_row_(const pl_inst *i)
{
	return &pl_hlo_rows_[pl_inst_hlo_op_(i)];
}
/* Whether i's op name starts "hlo.". */
static inline bool pl_inst_is_hlo_(const pl_inst *i)
{
	return pl_inst_hlo_cls_(i) & PL_HLO_CLS_HLO_;
}
/* The number m gives op's name (pl_op_number_find_), 0 when no
 * instruction of m has it. */
static inline uint32_t pl_hlo_op_number_find_(const pl_module *m, pl_hlo_op op)
{
	return pl_op_number_find_(m, pl_hlo_rows_[op].op);
}
/* pl_inst_hlo_coll */
enum pl_hlo_coll pl_inst_hlo_coll_(const pl_inst *i, int *phase);
#endif
