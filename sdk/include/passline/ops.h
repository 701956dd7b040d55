/* SPDX-License-Identifier: MIT */
/* passline/ops.h — the ops and dtypes the SDK knows.
 *
 * Both tables are X-macros so that names, traits and enum values are written
 * once. Entries are only ever appended: the numeric values are part of the
 * ABI. An op name that is not in the table is still a valid op (third-party
 * ops such as "acme.fused_gelu"); pl_op_from_name gives PL_OP_OTHER for it.
 */
#ifndef PASSLINE_OPS_H
#define PASSLINE_OPS_H

#include <passline/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Traits of an op, as bits. A later ABI may give a known op a new bit
 * (1.1 added PL_TRAIT_SIDE_EFFECTS): test bits with &, never compare a
 * traits value with ==. */
enum {
	PL_TRAIT_COLLECTIVE = 1u << 0,  /* all_gather, all_reduce, reduce_scatter */
	PL_TRAIT_REDUCING = 1u << 1,    /* a collective that reduces */
	PL_TRAIT_CONTRACT = 1u << 2,    /* tensor_contract */
	PL_TRAIT_LOAD = 1u << 3,
	PL_TRAIT_STORE = 1u << 4,       /* operand 0 is stored into operand 1 */
	PL_TRAIT_AFFINE = 1u << 5,      /* affine_load, affine_store */
	PL_TRAIT_REDUCE_LIKE = 1u << 6, /* reduce, rms_norm: sets has_reduce */
	PL_TRAIT_DATA_MOVEMENT = 1u << 7, /* pack, unpack */
	PL_TRAIT_TERMINATOR = 1u << 8,  /* return */
	/* Added in ABI 1.1: the two halves of an asynchronous collective. A
	 * start has the collective's operands, attributes and result types
	 * (its results are the in-flight buffers); its done takes exactly all
	 * of the start's results and gives the ready values. */
	PL_TRAIT_COLLECTIVE_START = 1u << 9,
	PL_TRAIT_COLLECTIVE_DONE = 1u << 10,
	/* Added in ABI 1.1: the op does something besides computing its
	 * results (writes memory, talks to other ranks, ends the function), so
	 * an instruction of it must stay even when its results are unused.
	 * Ops the SDK does not know have no traits; pl_inst_has_side_effects
	 * (passline/ir.h) counts them as side-effecting too. */
	PL_TRAIT_SIDE_EFFECTS = 1u << 11
};

/* Shorthands for the table below. */
#define PL_TRAITS_COLLECTIVE_ (PL_TRAIT_COLLECTIVE | PL_TRAIT_SIDE_EFFECTS)
#define PL_TRAITS_START_ (PL_TRAIT_COLLECTIVE_START | PL_TRAIT_SIDE_EFFECTS)
#define PL_TRAITS_DONE_ (PL_TRAIT_COLLECTIVE_DONE | PL_TRAIT_SIDE_EFFECTS)

/* X(ENUM, "name", traits, default flops per dynamic instance) */
#define PL_OP_TABLE(X)                                                           \
	X(ALL_GATHER, "all_gather", PL_TRAITS_COLLECTIVE_, 0)                    \
	X(ALL_REDUCE, "all_reduce", PL_TRAITS_COLLECTIVE_ | PL_TRAIT_REDUCING, 0) \
	X(REDUCE_SCATTER, "reduce_scatter",                                      \
	  PL_TRAITS_COLLECTIVE_ | PL_TRAIT_REDUCING, 0)                          \
	X(TENSOR_CONTRACT, "tensor_contract", PL_TRAIT_CONTRACT, 2)              \
	X(AFFINE_LOAD, "affine_load", PL_TRAIT_LOAD | PL_TRAIT_AFFINE, 0)        \
	X(AFFINE_STORE, "affine_store",                                          \
	  PL_TRAIT_STORE | PL_TRAIT_AFFINE | PL_TRAIT_SIDE_EFFECTS, 0)           \
	X(GENERIC_LOAD, "generic_load", PL_TRAIT_LOAD, 0)                        \
	X(GENERIC_STORE, "generic_store",                                        \
	  PL_TRAIT_STORE | PL_TRAIT_SIDE_EFFECTS, 0)                             \
	X(REDUCE, "reduce", PL_TRAIT_REDUCE_LIKE, 1)                             \
	X(RMS_NORM, "rms_norm", PL_TRAIT_REDUCE_LIKE, 1)                         \
	X(PACK, "pack", PL_TRAIT_DATA_MOVEMENT, 0)                               \
	X(UNPACK, "unpack", PL_TRAIT_DATA_MOVEMENT, 0)                           \
	X(RETURN, "return", PL_TRAIT_TERMINATOR | PL_TRAIT_SIDE_EFFECTS, 0)      \
	/* Added in ABI 1.1. */                                                  \
	X(ALL_GATHER_START, "all_gather_start", PL_TRAITS_START_, 0)             \
	X(ALL_GATHER_DONE, "all_gather_done", PL_TRAITS_DONE_, 0)                \
	X(REDUCE_SCATTER_START, "reduce_scatter_start",                          \
	  PL_TRAITS_START_ | PL_TRAIT_REDUCING, 0)                               \
	X(REDUCE_SCATTER_DONE, "reduce_scatter_done", PL_TRAITS_DONE_, 0)        \
	X(ALL_REDUCE_START, "all_reduce_start",                                  \
	  PL_TRAITS_START_ | PL_TRAIT_REDUCING, 0)                               \
	X(ALL_REDUCE_DONE, "all_reduce_done", PL_TRAITS_DONE_, 0)

typedef enum pl_op {
	PL_OP_OTHER = 0, /* any op the SDK does not know */
#define PL_X_OP_ENUM(e, name, traits, flops) PL_OP_##e,
	PL_OP_TABLE(PL_X_OP_ENUM)
#undef PL_X_OP_ENUM
	PL_OP__COUNT /* what THESE headers know; see pl_op_count */
} pl_op;

/* PL_OP__COUNT is only how many ops the headers a plugin was built with
 * know. The library that runs it may be newer and know more: pl_inst_op
 * can then give a value at or above the plugin's PL_OP__COUNT. Never index
 * a table sized PL_OP__COUNT by an op without checking it first, e.g.
 *
 *     pl_op op = pl_inst_op(i);
 *     counts[(unsigned)op < PL_OP__COUNT ? op : PL_OP_OTHER]++;
 *
 * or size the table at run time by pl_op_count(). */

/* How many op values the library that is running knows: pl_op values are
 * below this. A plugin built against older headers may meet larger values
 * than its own PL_OP__COUNT; size tables by this instead. Added in ABI 1.1. */
PL_API unsigned pl_op_count(void);

/* Default flops for an op the SDK does not know. */
#define PL_OTHER_OP_FLOPS 1

/* The op for a name; PL_OP_OTHER for a name not in the table. */
PL_API pl_op pl_op_from_name(const char *name);
/* The canonical name of a known op; NULL for PL_OP_OTHER or out of range. */
PL_API const char *pl_op_name(pl_op op);
/* Trait bits of an op (0 for PL_OP_OTHER: for an instruction, ask
 * pl_inst_has_side_effects rather than test PL_TRAIT_SIDE_EFFECTS). */
PL_API unsigned pl_op_traits(pl_op op);
/* Default flops per dynamic instance; PL_OTHER_OP_FLOPS for
 * PL_OP_OTHER. */
PL_API int64_t pl_op_default_flops(pl_op op);

/* X(ENUM, "name", size in bytes) */
#define PL_DTYPE_TABLE(X)    \
	X(BOOL, "bool", 1)     \
	X(I8, "i8", 1)         \
	X(U8, "u8", 1)         \
	X(F8E4M3, "f8e4m3", 1) \
	X(F8E5M2, "f8e5m2", 1) \
	X(I16, "i16", 2)       \
	X(U16, "u16", 2)       \
	X(F16, "f16", 2)       \
	X(BF16, "bf16", 2)     \
	X(I32, "i32", 4)       \
	X(U32, "u32", 4)       \
	X(F32, "f32", 4)       \
	X(I64, "i64", 8)       \
	X(U64, "u64", 8)       \
	X(F64, "f64", 8)        \
	/* Added in ABI 1.1 (XLA's element types). The size of a type narrower \
	 * than a byte is rounded up to 1 here; pl_dtype_bits gives its width, \
	 * and a tensor's bytes are its bits rounded up (pl_type_num_bytes). */ \
	X(S4, "s4", 1)         \
	X(U4, "u4", 1)         \
	X(S2, "s2", 1)         \
	X(U2, "u2", 1)         \
	X(S1, "s1", 1)         \
	X(U1, "u1", 1)         \
	X(F8E4M3FN, "f8e4m3fn", 1) \
	X(F8E4M3FNUZ, "f8e4m3fnuz", 1) \
	X(F8E5M2FNUZ, "f8e5m2fnuz", 1) \
	X(F8E4M3B11FNUZ, "f8e4m3b11fnuz", 1) \
	X(F8E3M4, "f8e3m4", 1) \
	X(F8E8M0FNU, "f8e8m0fnu", 1) \
	X(F4E2M1FN, "f4e2m1fn", 1) \
	X(F6E3M2FN, "f6e3m2fn", 1) \
	X(F6E2M3FN, "f6e2m3fn", 1) \
	X(TOKEN, "token", 0)   \
	X(OPAQUE, "opaque", 0) \
	X(C64, "c64", 8)       \
	X(C128, "c128", 16)

typedef enum pl_dtype {
	PL_DTYPE_INVALID = 0,
#define PL_X_DTYPE_ENUM(e, name, size) PL_DTYPE_##e,
	PL_DTYPE_TABLE(PL_X_DTYPE_ENUM)
#undef PL_X_DTYPE_ENUM
	PL_DTYPE__COUNT /* what THESE headers know; see pl_dtype_count */
} pl_dtype;

/* Like PL_OP__COUNT, PL_DTYPE__COUNT is what the headers a plugin was built
 * with know: pl_type_dtype can give a larger value under a newer library.
 * Check a dtype against it before indexing a table of that size. */

/* How many dtype values the running library knows (PL_DTYPE_INVALID
 * included), like pl_op_count. Added in ABI 1.1. */
PL_API unsigned pl_dtype_count(void);

/* The dtype named by the first len bytes of name; PL_DTYPE_INVALID if none. */
PL_API pl_dtype pl_dtype_from_name(const char *name, size_t len);
/* "bf16" etc.; NULL for an invalid dtype. */
PL_API const char *pl_dtype_name(pl_dtype dt);
/* Size of one element in bytes; 0 for an invalid dtype and for the
 * dataless token and opaque. */
PL_API unsigned pl_dtype_size(pl_dtype dt);
/* Width of one element in bits: 4 for s4 and f4e2m1fn, 6 for f6e3m2fn,
 * otherwise 8 times pl_dtype_size. Added in ABI 1.1. */
PL_API unsigned pl_dtype_bits(pl_dtype dt);

#ifdef __cplusplus
}
#endif

#endif
