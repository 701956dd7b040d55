/* SPDX-License-Identifier: MIT */
/* passline/verify.h — the IR verifier.
 *
 * Checks the rules of passline-pir(5): unique function names; each
 * value defined once and used after its definition; result and type counts
 * agree; reserved attributes have their types; predicate only together with
 * domain, and every constraint parses and names only indices the domain
 * has; products of shapes, domains and num_dynamic_instances fit in int64;
 * collective shape rules; asynchronous collectives: a done takes exactly all
 * results of one start of its kind, in order, a start's results are used by
 * its one done only, every start has its done in its function, and no store
 * writes a start's operand while it is in flight. Every violation is one
 * error naming the instruction's location. Linear in the module's size.
 */
#ifndef PASSLINE_VERIFY_H
#define PASSLINE_VERIFY_H

#include <passline/diag.h>
#include <passline/ir.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PL_OK when the module is well formed, PL_EVERIFY (with at least one error
 * in diags) otherwise, PL_ENOMEM. */
PL_API int pl_verify_module(pl_module *m, pl_diags *diags);

/* The same, on up to threads threads, each checking a run of about as
 * many instructions, inside one function or across several (a module too
 * small to gain is checked on one). The messages are the same, in the same
 * order, as pl_verify_module's. m must not change meanwhile. */
PL_API int pl_verify_module_threads(pl_module *m, pl_diags *diags, unsigned threads);

#ifdef __cplusplus
}
#endif

#endif
