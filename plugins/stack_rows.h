/* SPDX-License-Identifier: MIT */
/* plugins/stack_rows.h — what CollectivePipeliner's forward-sink uses to
 * stack the values of N loop trips, row i of a stack being trip i's value:
 * a value whose first extent is 1 keeps its row there (the stack grows
 * that extent to N, "merged"), any other gets a new leading dimension of
 * N; and the HLO ops rebuilt at the stacked shape after the loop. */
#ifndef PLUGINS_STACK_ROWS_H
#define PLUGINS_STACK_ROWS_H

#include <passline/passline.h>

#include "ptr_map.h"

/* Whether a value of type t keeps its row in its first extent of 1. */
bool rows_merged(const pl_type *t);
/* The type of the stack of n values of type t; NULL when out of memory. */
const pl_type *rows_type(pl_module *m, const pl_type *t, int64_t n);

/* HLO ops applied element by element (operands of the result's shape). */
bool rows_elementwise(const pl_inst *i);
/* The ops rebuilt at the stacked shape: the elementwise ones, reshape,
 * broadcast, transpose, concatenate, reduce, slice, dynamic-slice, pad,
 * collective-permute, all-gather, all-reduce. */
bool rows_stackable(const pl_inst *i);
/* Whether operand k of a stacked f is stacked too (not: a reduce's
 * initial value, a pad's value, a dynamic-slice's indices). */
bool rows_full_operand(const pl_inst *f, size_t k);
/* Whether f, whose stacked operand has type in, keeps each row where
 * that operand had it. */
bool rows_alike(const pl_inst *f, const pl_type *in);
/* Rewrites the attributes of c, the clone of f at the stacked shape of n
 * rows (dimensions shifted, a slice's or dynamic-slice's extents). */
int rows_attrs(pl_inst *c, const pl_inst *f, int64_t n);

/* Names v after src with suffix, when src has a name. */
void rows_name_after(pl_value *v, const pl_value *src, const char *suffix);
/* A new op(ops) : t before pos, with hlo_dimensions dims when not NULL. */
pl_inst *rows_make(pl_func *f, pl_inst *pos, pl_hlo_op op, pl_value *const *ops, size_t n,
                   const pl_type *t, const char *dims);
/* The stack of n copies of the body's value v, which the loop does not
 * change, before pos (map: what stands for a body value there). */
pl_value *rows_spread(pl_module *m, pl_func *f, pl_inst *pos, pl_value *v, struct ptr_map *map,
                      int64_t n);
/* A zero of type t before pos: a constant, broadcast when t is an array. */
pl_value *rows_zeros(pl_module *m, pl_func *f, pl_inst *pos, const pl_type *t);

#endif
