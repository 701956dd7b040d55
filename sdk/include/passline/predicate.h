/* SPDX-License-Identifier: MIT */
/* passline/predicate.h — the predicate language and exact domain counting.
 *
 * A constraint is "expr CMP expr" over the index variables i0, i1, ... of a
 * domain, where expr is a sum of terms c, iK, c*iK, iK*c joined by + and -,
 * and CMP is one of < <= > >= == !=. It is kept normalised as
 *     sum_k coeff[k] * iK + constant  CMP  0.
 */
#ifndef PASSLINE_PREDICATE_H
#define PASSLINE_PREDICATE_H

#include <passline/diag.h>
#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pl_cmp {
	PL_CMP_LT = 0,
	PL_CMP_LE = 1,
	PL_CMP_GT = 2,
	PL_CMP_GE = 3,
	PL_CMP_EQ = 4,
	PL_CMP_NE = 5
} pl_cmp;

typedef struct pl_constraint pl_constraint;

/* Parses one constraint over a domain of rank indices. On success *out is
 * a constraint the caller frees with pl_constraint_free. On a syntax error,
 * an index the domain lacks, or a coefficient beyond int64, returns
 * PL_EPARSE and, when err_col / err_msg are not NULL, the 1-based column in
 * text and a static message. PL_ENOMEM when out of memory. */
PL_API int pl_constraint_parse(const char *text, size_t len, size_t rank,
                               pl_constraint **out, size_t *err_col,
                               const char **err_msg);
PL_API void pl_constraint_free(pl_constraint *c);

PL_API size_t pl_constraint_rank(const pl_constraint *c);
PL_API int64_t pl_constraint_coeff(const pl_constraint *c, size_t k);
PL_API int64_t pl_constraint_constant(const pl_constraint *c);
PL_API pl_cmp pl_constraint_cmp(const pl_constraint *c);
/* Whether the constraint holds at the point idx[0..rank-1]. */
PL_API bool pl_constraint_eval(const pl_constraint *c, const int64_t *idx);

/* The bound on enumeration: counting walks at most this many points of
 * outer indices per group of linked indices (after bound propagation has
 * narrowed their ranges); beyond it, PL_ELIMIT. A walk at the bound takes
 * a few seconds; typical masks walk a few hundred points. */
#define PL_COUNT_MAX_ENUMERATION (1ull << 26)

/* Counts the points of the domain extents[0..rank-1] (each >= 0) that
 * satisfy every constraint, without enumerating the whole domain (see
 * sdk/analysis/predicate.c for how). No constraints: the product of the extents.
 * PL_OK, PL_EINVAL (a negative extent, a constraint of another rank),
 * PL_EOVERFLOW when the product of the extents exceeds INT64_MAX, or
 * PL_ELIMIT when the outer enumeration would exceed the bound above. */
PL_API int pl_domain_count(const int64_t *extents, size_t rank,
                           const pl_constraint *const *constraints,
                           size_t num_constraints, uint64_t *out);

/* masked_dynamic_instances: the number of domain points that
 * satisfy the predicate when inst has one, else
 * pl_inst_num_dynamic_instances. Errors as above, plus PL_EPARSE for a
 * predicate that does not parse (the verifier rejects those first).
 *
 * With a predicate, the count depends on nothing but the values of inst's
 * domain and predicate attributes (attribute values are immutable, so a
 * caller may remember it per pair of values). A pair that
 * pl_module_prepare_counts has counted is answered in O(1); any other is
 * counted on every call. The call writes nothing: several threads may ask
 * at once while no thread changes the module. Every pass that needs the
 * predicated count should call this, so that all count the same way. */
PL_API int pl_inst_masked_dynamic_instances(const pl_inst *inst, uint64_t *out);

/* Counts, once, every pair of domain and predicate that m's dictionaries
 * have been given (by reading, pl_attrs_set or pl_inst_copy_attrs) and
 * that is not counted yet, and keeps the counts in m: afterwards
 * pl_inst_masked_dynamic_instances, pl_inst_time_ns and the schedules
 * answer those pairs in O(1). A count can take seconds, so nothing counts
 * before a pass asks: a pass that asks for many counts calls this once
 * at the start of run (again after setting domains or predicates, for
 * the new pairs). A pair whose count fails keeps its status, which the
 * calls then return. PL_OK, or PL_ENOMEM (what is counted stays counted).
 * Added in ABI 1.1. */
PL_API int pl_module_prepare_counts(pl_module *m);

#ifdef __cplusplus
}
#endif

#endif
