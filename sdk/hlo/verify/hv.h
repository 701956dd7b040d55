/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/hv.h — the verifier's bottom floor: its state and the
 * helpers every check may call, in files that call only the ones listed
 * before them: attrs.c reads attributes, opcodes and types; diag.c gives
 * the messages (and the assertions that give one); groups.c reads and
 * checks device lists, common.c has the two rules two families of checks
 * share. Nothing here calls a check (checks.h) or the dispatcher
 * (verify.c). Nothing here is installed. */
#ifndef PL_HLO_VERIFY_HV_H
#define PL_HLO_VERIFY_HV_H

#include "ir/hlo_opcodes.h"
#include "hlo/verify/hlo_verify.h"
#include "ir/hlo_keys.h" /* the keys of the attributes the rules read */

#define MAX_LIST 64          /* dimensions in an attribute list */
#define MAX_DEVICE (1 << 20) /* device numbers in a replica group */

struct hv {
	const pl_module *m;
	const char *file;
	pl_diags *diags;
	const pl_inst *at;
	/* at's opcode, classified once per instruction (HLO_OP_OTHER for an
	 * op the reader mapped onto the SDK's own, or XLA's short form of an
	 * async pair), and its HLO spelling for messages */
	enum hlo_op op;
	const char *opc;
	/* the first computation at names (in the order of the keys
	 * hv_named_computations reads), NULL for none */
	const pl_func *callee;
	/* the size of at's replica groups, as hv_groups gives it (0: every
	 * device; -1: a form not read), for an HLO instruction */
	int64_t group_size;
	/* replica_count and num_partitions of the HloModule line (1 when
	 * it does not give them, as XLA's config has it) */
	int64_t replicas, partitions;
	/* some shape of the module's text has a layout: the rules XLA checks
	 * only once layouts are assigned apply */
	bool layouts;
	int rc;
	unsigned char *seen; /* devices met in a group list, by number */
	size_t seencap;
};

/* A check: true when at passes it (or it does not apply), false after
 * the error it gives (or with v->rc set to PL_ENOMEM). */
typedef bool hv_check(struct hv *v);

/* diag.c */
/* Adds the error at v->at; always false, so a rule can return it. */
bool hv_bad(struct hv *v, const char *fmt, ...) PL_PRINTF(2, 3);
/* The instruction's name, for messages (a buffer of this thread's for a
 * tuple-shaped one: name one instruction per message). */
const char *hv_name(const pl_inst *i);
/* t as HLO spells it, f32[4,8], into buf. */
void hv_type(char *buf, size_t n, const pl_type *t);
/* Two types as HLO spells them, for a message that names both:
 * struct hv_two ty = hv_types(a, b); hv_bad(v, "... %s ... %s", ty.a, ty.b). */
struct hv_two {
	char a[160], b[160];
};
struct hv_two hv_types(const pl_type *a, const pl_type *b);
/* A list attribute; -2 when absent, -1 when malformed (an error given). */
int hv_list(struct hv *v, const char *key, int64_t *out);
/* Result value k of the instruction (opcode opc) is want; what names
 * want in the message. */
bool hv_value_is(struct hv *v, const char *opc, size_t k, const pl_type *want, const char *what);
bool hv_want_operands(struct hv *v, const char *opc, size_t n);
/* got has want's dimensions; what names got in the message. */
bool hv_dims_are(struct hv *v, const char *what, const pl_type *got, const pl_type *want);
/* Each of the nd entries of list key is a dimension of a rank-n array. */
bool hv_dims_in(struct hv *v, const char *key, const int64_t *d, int nd, uint32_t rank);
/* Value k (a result, or an operand when operand) of the instruction
 * (opcode opc) is a scalar of dtype; what says which value it is. */
bool hv_scalar_is(struct hv *v, const char *opc, bool operand, size_t k, pl_dtype dt,
                  const char *what);
/* The instruction (opcode opc) has want results; form says what they are. */
bool hv_count_is(struct hv *v, const char *opc, size_t want, const char *form);

/* attrs.c */
/* A string attribute, or NULL. */
const char *hv_str(const pl_inst *i, const char *key, size_t *len);
/* "{1,2}" (or "1", or "1,2]"); the count, or -1 when it is not such a list. */
int hv_ints(const char *s, size_t len, int64_t *out);
/* The value of key, a number; false (and *x untouched) when absent. */
bool hv_num_attr(const pl_inst *i, const char *key, int64_t *x);
/* The nth computation key names; NULL when there is none. */
const pl_func *hv_callee(const struct hv *v, const char *key, size_t nth);
/* f's return instruction, or NULL. */
const pl_inst *hv_returned(const pl_func *f);
/* The HLO opcode of an instruction the reader kept as hlo.<opcode>: one
 * lookup in the opcode table; HLO_OP_OTHER for any other instruction. */
enum hlo_op hv_op_of(const pl_inst *i);
const pl_type *hv_op_type(const pl_inst *i, size_t k);
bool hv_same_dims(const pl_type *a, const pl_type *b);
/* Element types XLA's verifier takes as the same: equal, or both
 * floating-point (mixed precision allowed). */
bool hv_same_elements(pl_dtype a, pl_dtype b);
bool hv_same_type(const pl_type *a, const pl_type *b);

/* groups.c */
/* The replica group list key (none or "{}": every device, size 0;
 * explicit groups; the iota form) of v->at, checked: no empty group, no
 * device twice, each of 0..n-1 named, one size when uniform, n against
 * the module's device counts; *size the size of the groups (of the last
 * one, where sizes may differ), 0 for every device, -1 for a form not
 * read. */
bool hv_groups(struct hv *v, const char *key, int64_t *size, bool uniform);
/* source_target_pairs, when v->at has them: each source and target once
 * (but for an in-place permute), each below the module's device count. */
bool hv_pairs(struct hv *v);
/* XLA's GetSubgroupSize of v->at for listed, a size hv_groups gave; 0
 * for an op without a group mode or groups in a form not read. */
int64_t hv_subgroup_size(const struct hv *v, int64_t listed);

/* common.c */
/* reshape and dynamic-reshape: a into r keeps the element count and type. */
bool hv_reshapes(struct hv *v, const char *opc, const pl_type *a, const pl_type *r);
/* to_apply takes two scalars per operand k0..k0+n-1 and (a comparator)
 * returns pred[]. */
bool hv_scalar_pairs(struct hv *v, const char *role, size_t k0, size_t n, bool comparator);

/* Extents and attribute numbers may be anything up to INT64_MAX, so the
 * rules add and multiply them saturating at INT64_MIN/INT64_MAX: an
 * absurd module gets a message, never an overflow. */
static inline int64_t hv_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}
static inline int64_t hv_mul(int64_t a, int64_t b)
{
	if (!a || !b)
		return 0;
	bool neg = (a < 0) != (b < 0);
	/* magnitudes as unsigned: INT64_MIN's has no int64_t */
	uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
	uint64_t ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	if (ua > (uint64_t)INT64_MAX / ub)
		return neg ? INT64_MIN : INT64_MAX;
	return neg ? -(int64_t)(ua * ub) : (int64_t)(ua * ub);
}

/* The instruction's one result type; NULL when it has several. */
#define RESULT_OF(i) (pl_inst_num_results(i) == 1 ? pl_value_type(pl_inst_result(i, 0)) : NULL)

#endif
