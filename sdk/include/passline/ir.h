/* SPDX-License-Identifier: MIT */
/* passline/ir.h — the IR: modules, functions, instructions, values, types,
 * attributes.
 *
 * Ownership: a pl_module owns everything reachable from it (one arena, freed
 * in one go by pl_module_free). Every handle below stays valid until its
 * module is freed; an erased instruction's handle must no longer be used.
 * Nothing here takes a lock. A function that takes only const handles and
 * adds nothing to the module (the accessors, positions, counts, times and
 * schedules; not pl_inst_clone) writes nothing to it, so several threads
 * may read one module at once while no thread changes it; everything else
 * (making, changing, naming, printing, verifying) needs the module to
 * itself.
 *
 * Functions hold a straight-line list of instructions. Values are defined
 * once (a function argument or an instruction result) and used after their
 * definition; the verifier (passline/verify.h) checks that.
 */
#ifndef PASSLINE_IR_H
#define PASSLINE_IR_H

#include <passline/common.h>
#include <passline/ops.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_module pl_module;
typedef struct pl_func pl_func;
typedef struct pl_inst pl_inst;
typedef struct pl_value pl_value;
typedef struct pl_use pl_use;
typedef struct pl_type pl_type;
typedef struct pl_attr pl_attr;
typedef struct pl_attrs pl_attrs;

/* ---- modules --------------------------------------------------------- */

/* A new, empty module; NULL when out of memory. source_name (copied, may be
 * NULL) names the module in diagnostics. Free with pl_module_free. */
PL_API pl_module *pl_module_new(const char *source_name);
PL_API void pl_module_free(pl_module *m);
PL_API const char *pl_module_source_name(const pl_module *m);

PL_API size_t pl_module_num_funcs(const pl_module *m);
PL_API pl_func *pl_module_func_at(const pl_module *m, size_t i);
/* The function named name (without '@'); NULL when there is none. */
PL_API pl_func *pl_module_find_func(const pl_module *m, const char *name);

/* Total number of instructions in the module (kept up to date, O(1)). */
PL_API size_t pl_module_num_insts(const pl_module *m);

/* The entry: a function with "entry = true" (a .pir module's) or
 * "hlo_entry = true" (the entry computation of one read from HLO).
 * pl_module_entry gives the first such function, NULL when there is none
 * (or m is NULL); pl_module_hlo_entry the first with hlo_entry = true,
 * NULL for a module not read from HLO. Added in ABI 1.1. */
PL_API bool pl_func_is_entry(const pl_func *f);
PL_API pl_func *pl_module_entry(const pl_module *m);
PL_API pl_func *pl_module_hlo_entry(const pl_module *m);

/* ---- types ----------------------------------------------------------- */

/* The type dtype[dims...]; rank 0 is a scalar. Types are interned: equal
 * types have equal handles. NULL when out of memory or invalid (a negative
 * extent, an invalid dtype, rank above PL_MAX_RANK). */
#define PL_MAX_RANK 64
PL_API const pl_type *pl_type_get(pl_module *m, pl_dtype dtype,
                                  const int64_t *dims, size_t rank);
PL_API pl_dtype pl_type_dtype(const pl_type *t);
PL_API size_t pl_type_rank(const pl_type *t);
PL_API int64_t pl_type_dim(const pl_type *t, size_t i);
/* Number of elements (1 for a scalar). PL_EOVERFLOW when it exceeds
 * INT64_MAX; *out is then unchanged. */
PL_API int pl_type_num_elements(const pl_type *t, uint64_t *out);
/* Elements times the dtype's size, PL_EOVERFLOW beyond INT64_MAX. So a
 * result is at most INT64_MAX: it converts to int64_t without loss, and a
 * bytes option (PL_OPT_BYTES, an int64_t in 0..INT64_MAX) converts to
 * uint64_t without loss, so either may be compared with the other after a
 * cast, e.g. bytes <= (uint64_t)max_bytes. */
PL_API int pl_type_num_bytes(const pl_type *t, uint64_t *out);

/* ---- attribute values -------------------------------------------------- */

typedef enum pl_attr_kind {
	PL_ATTR_INT = 1,
	PL_ATTR_FLOAT = 2,
	PL_ATTR_STRING = 3,
	PL_ATTR_BOOL = 4,
	PL_ATTR_LIST = 5
} pl_attr_kind;

/* Attribute values are immutable and owned by the module; one value may be
 * stored under several keys and instructions. The bytes of a string and
 * the elements of a list are interned: they keep their address and
 * contents as long as the module lives, and equal strings (equal lists) of
 * one module are one copy, so their addresses may key a cache for as long
 * as the module lives. NULL when out of memory. */
PL_API const pl_attr *pl_attr_int(pl_module *m, int64_t v);
PL_API const pl_attr *pl_attr_float(pl_module *m, double v);
PL_API const pl_attr *pl_attr_bool(pl_module *m, bool v);
/* The string is copied; it may hold any bytes, NUL included. */
PL_API const pl_attr *pl_attr_string(pl_module *m, const char *s, size_t len);
/* The elements are copied (made again in m when another module's). */
PL_API const pl_attr *pl_attr_list(pl_module *m, const pl_attr *const *elems,
                                   size_t n);
/* A list of integers, the common case (domain = [...]). */
PL_API const pl_attr *pl_attr_int_list(pl_module *m, const int64_t *v, size_t n);

PL_API pl_attr_kind pl_attr_get_kind(const pl_attr *a);
/* The payload of a value of the matching kind (0 / false / "" otherwise). */
PL_API int64_t pl_attr_get_int(const pl_attr *a);
PL_API double pl_attr_get_float(const pl_attr *a);
PL_API bool pl_attr_get_bool(const pl_attr *a);
/* The bytes of a string value and, if len is not NULL, their count. The
 * bytes are followed by a NUL that is not counted. */
PL_API const char *pl_attr_get_string(const pl_attr *a, size_t *len);
PL_API size_t pl_attr_list_size(const pl_attr *a);
PL_API const pl_attr *pl_attr_list_at(const pl_attr *a, size_t i);
/* Structural equality (floats compare by value). */
PL_API bool pl_attr_equal(const pl_attr *a, const pl_attr *b);

/* ---- attribute dictionaries ---------------------------------------------
 * Functions and instructions each carry one ordered dictionary. Keys are
 * kept in insertion order, which is the printed order. Keys are interned:
 * a key (pl_attrs_key_at) keeps its address and text as long as the
 * module lives, and equal keys of one module have one address.
 * Dictionaries with equal contents may share their entries; writing one
 * (pl_attrs_set, pl_attrs_remove) gives it entries of its own first (copy
 * on write), so a write never changes another dictionary. The address of
 * an entry (pl_attrs_value_at) is not stable across writes: key nothing
 * by it. */

PL_API size_t pl_attrs_count(const pl_attrs *d);
PL_API const char *pl_attrs_key_at(const pl_attrs *d, size_t i);
PL_API const pl_attr *pl_attrs_value_at(const pl_attrs *d, size_t i);
/* The value stored under key; NULL when absent. */
PL_API const pl_attr *pl_attrs_get(const pl_attrs *d, const char *key);
/* Stores value under key: replaces it in place when the key exists, else
 * appends. A value of another module is made again in d's, so that it
 * lives as long as d's module, whatever becomes of the other. PL_OK or
 * PL_ENOMEM; PL_EINVAL for a key that is not
 * [A-Za-z_][A-Za-z0-9_]*; PL_ELIMIT when appending to a dictionary that
 * holds 65535 entries already (the most one can hold), or a key new to a
 * module that has 16777215 distinct keys already (nothing changed). */
PL_API int pl_attrs_set(pl_attrs *d, const char *key, const pl_attr *value);
/* Removes key, keeping the order of the rest. PL_OK or PL_ENOTFOUND. */
PL_API int pl_attrs_remove(pl_attrs *d, const char *key);

/* Typed getters. PL_OK, PL_ENOTFOUND when absent, PL_ETYPE for another kind
 * (*out unchanged in both cases). */
PL_API int pl_attrs_get_int(const pl_attrs *d, const char *key, int64_t *out);
PL_API int pl_attrs_get_bool(const pl_attrs *d, const char *key, bool *out);
PL_API int pl_attrs_get_string(const pl_attrs *d, const char *key,
                               const char **out, size_t *len);

/* Typed setters, shorthand for pl_attrs_set(d, key, pl_attr_xxx(m, v)). */
PL_API int pl_attrs_set_int(pl_attrs *d, const char *key, int64_t v);
PL_API int pl_attrs_set_bool(pl_attrs *d, const char *key, bool v);
PL_API int pl_attrs_set_string(pl_attrs *d, const char *key, const char *s);

/* ---- functions -------------------------------------------------------- */

/* Appends a new, empty function @name to the module. NULL when out of
 * memory, when name is not a valid NAME, or when the module already has a
 * function of that name. */
PL_API pl_func *pl_func_new(pl_module *m, const char *name);
PL_API const char *pl_func_name(const pl_func *f);
PL_API pl_module *pl_func_module(const pl_func *f);
PL_API pl_attrs *pl_func_attrs(pl_func *f);
/* The source location of the function's "func" keyword (0 if built). */
PL_API unsigned pl_func_line(const pl_func *f);
PL_API unsigned pl_func_col(const pl_func *f);

/* Appends an argument %name of type t. NULL when out of memory. */
PL_API pl_value *pl_func_add_arg(pl_func *f, const char *name, const pl_type *t);
PL_API size_t pl_func_num_args(const pl_func *f);
PL_API pl_value *pl_func_arg(const pl_func *f, size_t i);

PL_API size_t pl_func_num_insts(const pl_func *f);
PL_API pl_inst *pl_func_first_inst(const pl_func *f);
PL_API pl_inst *pl_func_last_inst(const pl_func *f);

/* Spreads the position numbers of f's instructions evenly over their
 * range, in O(n). Never needed: every edit keeps the numbers current (see
 * pl_inst_position); kept for plugins built against ABI 1.0. */
PL_API void pl_func_renumber(pl_func *f);

/* ---- instructions ------------------------------------------------------- */

/* Creates a detached instruction of op opname (copied) with the given
 * operands and one result per type. Results are unnamed until
 * pl_value_set_name; the printer names unnamed values. Insert it with
 * pl_inst_insert_before/after or pl_func_append. NULL when out of memory or
 * when opname is not a valid OPNAME. pl_inst_create says which. */
PL_API pl_inst *pl_inst_new(pl_func *f, const char *opname,
                            pl_value *const *operands, size_t num_operands,
                            const pl_type *const *result_types,
                            size_t num_results);
/* pl_inst_new with a status: *out is the new, detached instruction and
 * PL_OK, or *out is NULL and
 *   PL_EINVAL    opname is NULL or not a valid OPNAME (passline-pir(5)),
 *                an operand is NULL or a value of another function, or a
 *                result type is NULL (or an array is NULL with a count);
 *   PL_ELIMIT    more than 2^31 - 1 operands or results, or a new op
 *                name in a module that has 16,777,215 (known ops included);
 *   PL_ENOMEM    out of memory.
 * Nothing is changed on failure. Added in ABI 1.1. */
PL_API int pl_inst_create(pl_inst **out, pl_func *f, const char *opname,
                          pl_value *const *operands, size_t num_operands,
                          const pl_type *const *result_types,
                          size_t num_results);
/* The start and the done of synchronous collective c (all_gather,
 * reduce_scatter, all_reduce): *start has c's operands, attributes,
 * location and result types, its results named as c's with "_s"; *done
 * takes all of *start's results and gives c's result types. Both are
 * detached and c is unchanged: insert them and move c's uses to *done's
 * results. PL_EINVAL for another instruction, PL_ENOMEM (both NULL).
 * Added in ABI 1.1. */
PL_API int pl_inst_split_collective(pl_inst *c, pl_inst **start, pl_inst **done);

/* The names of a list of computations as the HLO reader keeps one in an
 * attribute ("{%a, %b}", "%a", "a"), one at a time: from *at in
 * s[0..len), the next name without its '%' in *name and *nlen, *at past
 * it; false at the end. pl_inst_callee gives the function the k-th name
 * of i's attribute key names (hlo_calls, hlo_to_apply, ...), NULL when
 * there is none. Added in ABI 1.1. */
PL_API bool pl_name_list_next(const char *s, size_t len, size_t *at, const char **name,
                              size_t *nlen);
PL_API pl_func *pl_inst_callee(const pl_inst *i, const char *key, size_t k);

/* A detached copy of inst: same op, operands, attributes and location;
 * fresh, unnamed results of the same types. NULL when out of memory. */
PL_API pl_inst *pl_inst_clone(const pl_inst *inst);

/* Link a detached instruction into its function. These do nothing when
 * misused (see pl_inst_insert, which says so). */
PL_API void pl_func_append(pl_func *f, pl_inst *inst);
PL_API void pl_inst_insert_before(pl_inst *inst, pl_inst *pos);
PL_API void pl_inst_insert_after(pl_inst *inst, pl_inst *pos);
/* Move a linked instruction; pos must be in the same function. These do
 * nothing when misused (see pl_inst_move, which says so). */
PL_API void pl_inst_move_before(pl_inst *inst, pl_inst *pos);
PL_API void pl_inst_move_after(pl_inst *inst, pl_inst *pos);

/* Where pl_inst_insert and pl_inst_move put an instruction. Added in ABI
 * 1.1. */
typedef enum pl_where {
	PL_BEFORE = 1, /* just before pos */
	PL_AFTER = 2,  /* just after pos */
	PL_FIRST = 3,  /* first of its function; pos must be NULL */
	PL_LAST = 4    /* last of its function; pos must be NULL */
} pl_where;

/* Links the detached inst into its function at where. PL_OK, or PL_EINVAL
 * and nothing changed when inst is NULL, linked already or erased, when
 * pos is NULL for PL_BEFORE/PL_AFTER (or not NULL for PL_FIRST/PL_LAST),
 * is not linked (detached or erased) or is in another function, or where
 * is none of the above. Added in ABI 1.1. */
PL_API int pl_inst_insert(pl_inst *inst, pl_inst *pos, pl_where where);
/* Moves the linked inst to where, within its function. PL_OK, or PL_EINVAL
 * and nothing changed when inst is NULL or not linked, when pos is inst
 * itself, or on a misuse of pos or where as for pl_inst_insert. Moving an
 * instruction to where it is already is PL_OK. Added in ABI 1.1. */
PL_API int pl_inst_move(pl_inst *inst, pl_inst *pos, pl_where where);
/* Unlinks inst, drops its uses of its operands and retires it. Its results
 * must have no uses left (PL_EINVAL otherwise, nothing changed). The handle
 * (and its results') must not be used afterwards: the memory is reused for
 * later instructions and value names of the module. */
PL_API int pl_inst_erase(pl_inst *inst);

PL_API pl_func *pl_inst_func(const pl_inst *inst);
/* The next and the previous instruction of its function (NULL at an end).
 * A walk with either asks the processor for the memory ahead of it at each
 * step: the fast way over a large function. */
PL_API pl_inst *pl_inst_next(const pl_inst *inst);
PL_API pl_inst *pl_inst_prev(const pl_inst *inst);
/* True once linked into its function's list. */
PL_API bool pl_inst_is_linked(const pl_inst *inst);

PL_API pl_op pl_inst_op(const pl_inst *inst);
PL_API const char *pl_inst_opname(const pl_inst *inst);
PL_API unsigned pl_inst_traits(const pl_inst *inst);
/* Whether inst may do something besides computing its results, so that it
 * must not be removed even when none of its results is used: true for
 * stores, collectives and the starts and dones of asynchronous ones,
 * return, and every op the SDK does not know (PL_OP_OTHER: "acme.barrier"
 * may well write memory). False for the other known ops: loads, computing
 * ops, pack and unpack. See passline-pir(5). Added in ABI 1.1. */
PL_API bool pl_inst_has_side_effects(const pl_inst *inst);

PL_API size_t pl_inst_num_operands(const pl_inst *inst);
PL_API pl_value *pl_inst_operand(const pl_inst *inst, size_t i);
/* Replaces operand i, keeping the use lists right. v must be a value of
 * inst's module: another module's is ignored (nothing changes). */
PL_API void pl_inst_set_operand(pl_inst *inst, size_t i, pl_value *v);
PL_API size_t pl_inst_num_results(const pl_inst *inst);
PL_API pl_value *pl_inst_result(const pl_inst *inst, size_t i);

PL_API pl_attrs *pl_inst_attrs(pl_inst *inst);
PL_API const pl_attrs *pl_inst_attrs_const(const pl_inst *inst);
/* Replaces inst's attributes with a copy of from's, in from's order; both
 * must be of one module. A change to either after the call never shows in
 * the other. from is only read: when its entries are already shared (as
 * the reader leaves every dictionary) inst shares them too, copied on
 * write; when from has entries of its own (it was changed since), inst
 * gets a copy of them (so to give many instructions a dictionary built by
 * changes, copy it once, then copy from the copy: the rest share it).
 * PL_OK, PL_ENOMEM (inst unchanged), or PL_EINVAL (nothing changed) for
 * instructions of two modules. */
PL_API int pl_inst_copy_attrs(pl_inst *inst, const pl_inst *from);

/* Source location (0 for an instruction built without one). */
PL_API unsigned pl_inst_line(const pl_inst *inst);
PL_API unsigned pl_inst_col(const pl_inst *inst);
PL_API void pl_inst_set_loc(pl_inst *inst, unsigned line, unsigned col);

/* An ordering number: for linked a and b in one function, a precedes b iff
 * pl_inst_position(a) < pl_inst_position(b). O(1), and reading writes
 * nothing: each edit (an insertion, a move) keeps the numbers of its
 * function current, at an amortised cost of O(log^2 n) numbers for a
 * function of n instructions (where there is no gap, the edit spreads the
 * numbers of a window of neighbours). So numbers may change at any edit
 * of the function: compare numbers read since its last edit. A function
 * holds fewer than 2^31 instructions. */
PL_API uint64_t pl_inst_position(const pl_inst *inst);
PL_API bool pl_inst_comes_before(const pl_inst *a, const pl_inst *b);
/* The ordering number of pl_inst_position into *out. PL_OK; PL_ENOTFOUND
 * when inst is not linked (it has no position; *out is unchanged). Added
 * in ABI 1.1. */
PL_API int pl_inst_get_position(uint64_t *out, const pl_inst *inst);

/* num_dynamic_instances: the attribute, else the product of
 * domain, else the element count of result 0, else of operand 0, else 1.
 * PL_EOVERFLOW beyond INT64_MAX, PL_ETYPE for a malformed attribute. */
PL_API int pl_inst_num_dynamic_instances(const pl_inst *inst, uint64_t *out);
/* Flops per dynamic instance: the flops attribute, else the op default. */
PL_API int pl_inst_flops(const pl_inst *inst, int64_t *out);

/* ---- values ------------------------------------------------------------ */

PL_API const pl_type *pl_value_type(const pl_value *v);
/* The name without '%'; NULL for a value the printer has not named yet. */
PL_API const char *pl_value_name(const pl_value *v);
/* Sets the name (copied). The printer makes names unique within a function
 * by appending ".N" where two values share one. PL_EINVAL for a name that
 * is not a valid NAME. */
PL_API int pl_value_set_name(pl_value *v, const char *name);
/* The defining instruction; NULL for a function argument. */
PL_API pl_inst *pl_value_def(const pl_value *v);
PL_API bool pl_value_is_arg(const pl_value *v);
/* The result index in its instruction, or the argument index. */
PL_API size_t pl_value_index(const pl_value *v);
/* The function the value belongs to. */
PL_API pl_func *pl_value_func(const pl_value *v);

/* Uses, in no promised order. */
PL_API pl_use *pl_value_first_use(const pl_value *v);
PL_API pl_use *pl_use_next(const pl_use *u);
PL_API pl_inst *pl_use_user(const pl_use *u);
PL_API size_t pl_use_operand_index(const pl_use *u);
PL_API bool pl_value_has_uses(const pl_value *v);
PL_API size_t pl_value_num_uses(const pl_value *v);

/* Makes every use of from a use of to, and hands from's name to to (when to
 * has none). O(uses of from). Both must be values of one module: with
 * another module's to, nothing changes. */
PL_API void pl_value_replace(pl_value *from, pl_value *to);

#ifdef __cplusplus
}
#endif

#endif
