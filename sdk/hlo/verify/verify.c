/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_verify.c — the shape and attribute checks XLA's verifier
 * makes, on a module the HLO reader has mapped onto the IR: operands of
 * elementwise ops, dot dimensions, broadcast/transpose/reshape/concatenate
 * shapes, reduce and its reducer, the computations an instruction names,
 * each collective's shape against its groups and dimension, replica
 * groups and source_target_pairs, all-to-all's split (hlo_verify_ops.c has
 * the rest). The first finding stops the check.
 * Every rule is linear in the instruction's operands and attributes. */
#include "hlo/verify/hv.h"

#include "hlo/hlo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

PL_PRINTF(2, 3) bool hv_bad(struct hv *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (pl_diags_add(v->diags, PL_SEV_ERROR, v->file, pl_inst_line(v->at), pl_inst_col(v->at),
	                 "%s", buf) != PL_OK)
		v->rc = PL_ENOMEM;
	else if (v->rc == PL_OK)
		v->rc = PL_EPARSE;
	return false;
}

/* The instruction's name, for messages. */
const char *hv_name(const pl_inst *i)
{
	const char *s = NULL;
	size_t len;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), HK(NAME), &s, &len) == PL_OK)
		return s;
	if (!pl_inst_num_results(i))
		return pl_inst_opname(i);
	/* a tuple's leaves are "name$k": the instruction is "name" */
	static _Thread_local char buf[256];
	s = pl_value_name(pl_inst_result(i, 0));
	const char *cut = s ? strchr(s, '$') : NULL;
	if (!cut || (size_t)(cut - s) >= sizeof buf)
		return s;
	memcpy(buf, s, (size_t)(cut - s));
	buf[cut - s] = 0;
	return buf;
}

const char *hv_str(const pl_inst *i, const char *key, size_t *len)
{
	const char *s = NULL;
	if (pl_attrs_get_string(pl_inst_attrs_const(i), key, &s, len) != PL_OK)
		return NULL;
	return s;
}

/* "{1,2}" (or "1", or "1,2]"); the count, or -1 when it is not such a list. */
int hv_ints(const char *s, size_t len, int64_t *out)
{
	size_t k = 0;
	int n = 0;
	while (k < len && (s[k] == ' ' || s[k] == '{'))
		k++;
	while (k < len && s[k] != '}' && s[k] != ']') {
		bool neg = s[k] == '-';
		if (neg)
			k++;
		if (k >= len || s[k] < '0' || s[k] > '9' || n >= MAX_LIST)
			return -1;
		int64_t x = 0;
		while (k < len && s[k] >= '0' && s[k] <= '9') {
			if (x > INT64_MAX / 16)
				return -1;
			x = x * 10 + (s[k++] - '0');
		}
		out[n++] = neg ? -x : x;
		while (k < len && s[k] == ' ')
			k++;
		if (k < len && s[k] == ',')
			k++;
		while (k < len && s[k] == ' ')
			k++;
	}
	return n;
}

/* A list attribute; -2 when absent, -1 when malformed (an error given). */
int hv_list(struct hv *v, const char *key, int64_t *out)
{
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	if (!s)
		return -2;
	int n = hv_ints(s, len, out);
	if (n < 0)
		hv_bad(v, "%s of '%s' must be a list of numbers {a,b,...}", key + 4, hv_name(v->at));
	return n;
}

void hv_type(char *buf, size_t n, const pl_type *t)
{
	size_t k = (size_t)snprintf(buf, n, "%s[", pl_hlo_dtype_name_((pl_dtype)t->dtype));
	for (uint32_t i = 0; i < t->rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->dims[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
}

struct hv_two hv_types(const pl_type *a, const pl_type *b)
{
	struct hv_two two;
	hv_type(two.a, sizeof two.a, a);
	hv_type(two.b, sizeof two.b, b);
	return two;
}

bool hv_same_dims(const pl_type *a, const pl_type *b)
{
	if (a->rank != b->rank)
		return false;
	for (uint32_t i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

/* XLA's verifier, mixed precision allowed as in its compiler pipelines:
 * equal element types, or two floating-point ones. */
bool hv_same_elements(pl_dtype a, pl_dtype b)
{
	static const pl_dtype fp[] = {
		PL_DTYPE_F16,      PL_DTYPE_BF16,        PL_DTYPE_F32,         PL_DTYPE_F64,
		PL_DTYPE_F8E4M3,   PL_DTYPE_F8E5M2,      PL_DTYPE_F8E4M3FN,    PL_DTYPE_F8E4M3FNUZ,
		PL_DTYPE_F8E5M2FNUZ, PL_DTYPE_F8E4M3B11FNUZ, PL_DTYPE_F8E3M4,  PL_DTYPE_F8E8M0FNU,
		PL_DTYPE_F4E2M1FN, PL_DTYPE_F6E3M2FN,    PL_DTYPE_F6E2M3FN};
	bool fa = false, fb = false;
	for (size_t k = 0; k < sizeof fp / sizeof *fp; k++) {
		fa = fa || a == fp[k];
		fb = fb || b == fp[k];
	}
	return a == b || (fa && fb);
}

const pl_type *hv_op_type(const pl_inst *i, size_t k)
{
	return pl_value_type(pl_inst_operand(i, k));
}

enum hlo_op hv_op_of(const pl_inst *i)
{
	/* classified when the module numbered the op name */
	pl_hlo_op op = pl_inst_hlo_op_(i);
	return op == PL_HLO_OTHER ? HLO_OP_OTHER : (enum hlo_op)(op - 1);
}

/* The number of operands of an elementwise op, 0 for another op; the
 * element types of unary ops are hv_unary_types's. */
static size_t elementwise_arity(enum hlo_op op)
{
	switch (op) {
	case HLO_OP_ABS: case HLO_OP_CBRT: case HLO_OP_CEIL: case HLO_OP_COPY:
	case HLO_OP_COSINE: case HLO_OP_COUNT_LEADING_ZEROS: case HLO_OP_ERF:
	case HLO_OP_EXPONENTIAL: case HLO_OP_EXPONENTIAL_MINUS_ONE: case HLO_OP_FLOOR:
	case HLO_OP_IMAG: case HLO_OP_IS_FINITE: case HLO_OP_LOG: case HLO_OP_LOG_PLUS_ONE:
	case HLO_OP_LOGISTIC: case HLO_OP_NEGATE: case HLO_OP_NOT: case HLO_OP_POPCNT:
	case HLO_OP_REAL: case HLO_OP_ROUND_NEAREST_AFZ: case HLO_OP_ROUND_NEAREST_EVEN:
	case HLO_OP_RSQRT: case HLO_OP_SIGN: case HLO_OP_SINE: case HLO_OP_SQRT:
	case HLO_OP_TAN: case HLO_OP_TANH:
		return 1;
	case HLO_OP_ADD: case HLO_OP_AND: case HLO_OP_ATAN2: case HLO_OP_COMPLEX:
	case HLO_OP_DIVIDE: case HLO_OP_MAXIMUM: case HLO_OP_MINIMUM: case HLO_OP_MULTIPLY:
	case HLO_OP_OR: case HLO_OP_POWER: case HLO_OP_REMAINDER: case HLO_OP_SHIFT_LEFT:
	case HLO_OP_SHIFT_RIGHT_ARITHMETIC: case HLO_OP_SHIFT_RIGHT_LOGICAL:
	case HLO_OP_SUBTRACT: case HLO_OP_XOR:
		return 2;
	default:
		return 0;
	}
}

/* Operands and result of an elementwise op: n operands, all of the
 * result's dimensions; the element types agree unless the op changes
 * them (compare, complex, is-finite, real, imag). */
static bool elementwise(struct hv *v, const char *opc, size_t n, bool keep_dtype)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != n)
		return hv_bad(v, "'%s' takes %zu operand%s, not %zu", opc, n, n == 1 ? "" : "s",
		           pl_inst_num_operands(i));
	if (pl_inst_num_results(i) != 1)
		return true;
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	for (size_t k = 0; k < n; k++) {
		const pl_type *t = hv_op_type(i, k);
		if (!hv_same_dims(t, r) || (keep_dtype && !hv_same_elements(t->dtype, r->dtype))) {
			char a[160], b[160];
			hv_type(a, sizeof a, t);
			hv_type(b, sizeof b, r);
			return hv_bad(v, "operand %zu of '%s' (%s) is %s: expected the result's shape %s", k,
			           hv_name(i), opc, a, b);
		}
	}
	return true;
}

/* Each computation an attribute names must exist; the first one named
 * is returned through callee. */
static bool computations(struct hv *v, const char *key, const pl_func **callee)
{
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	if (!s)
		return true;
	size_t k = 0;
	while (k < len) {
		while (k < len && (s[k] == '{' || s[k] == '}' || s[k] == ',' || s[k] == ' ' ||
		                   s[k] == '%'))
			k++;
		size_t b = k;
		while (k < len && s[k] != ',' && s[k] != '}' && s[k] != ' ')
			k++;
		if (k == b)
			break;
		char name[256];
		if (k - b >= sizeof name)
			return hv_bad(v, "%s of '%s' names no computation", key + 4, hv_name(v->at));
		memcpy(name, s + b, k - b);
		name[k - b] = 0;
		const pl_func *f = pl_module_find_func(v->m, name);
		if (!f)
			return hv_bad(v, "%s of '%s' names computation '%s', which the module does not have",
			           key + 4, hv_name(v->at), name);
		if (callee && !*callee)
			*callee = f;
	}
	return true;
}

/* How XLA reads a collective's device numbers (its collective op group
 * mode): from channel_id and use_global_device_ids, which all-to-all
 * does not have; -1 for an op whose groups XLA does not count. */
enum { MODE_REPLICA, MODE_PARTITION, MODE_REPLICA_AND_PARTITION, MODE_FLATTENED };

static int group_mode(const struct hv *v)
{
	pl_op op = pl_inst_op(v->at);
	bool counted = op == PL_OP_ALL_GATHER || op == PL_OP_REDUCE_SCATTER ||
	               op == PL_OP_ALL_REDUCE || op == PL_OP_ALL_GATHER_START ||
	               op == PL_OP_REDUCE_SCATTER_START || op == PL_OP_ALL_REDUCE_START;
	bool a2a = v->op == HLO_OP_ALL_TO_ALL || v->op == HLO_OP_RAGGED_ALL_TO_ALL;
	switch (v->op) {
	case HLO_OP_ALL_GATHER: case HLO_OP_ALL_GATHER_START: case HLO_OP_ALL_REDUCE:
	case HLO_OP_ALL_REDUCE_START: case HLO_OP_REDUCE_SCATTER:
		counted = true;
		break;
	default:
		break;
	}
	if (!counted && !a2a)
		return -1;
	size_t len;
	bool channel = hv_str(v->at, HK(CHANNEL_ID), &len) != NULL;
	const char *g = hv_str(v->at, HK(USE_GLOBAL_DEVICE_IDS), &len);
	bool global = g && len == 4 && !memcmp(g, "true", 4);
	if (!channel)
		return MODE_REPLICA;
	if (a2a)
		return MODE_PARTITION;
	return global ? MODE_FLATTENED : MODE_REPLICA_AND_PARTITION;
}

/* n devices named (0: no list) against the module's replica_count and
 * num_partitions, as XLA's CheckReplicaGroups counts them in the op's
 * mode; a count of 1 is XLA's default, which it does not check. */
static bool device_count(struct hv *v, const char *what, int64_t n)
{
	int mode = group_mode(v);
	if (mode < 0)
		return true;
	size_t len;
	const char *g = hv_str(v->at, HK(USE_GLOBAL_DEVICE_IDS), &len);
	if (mode == MODE_REPLICA && g && len == 4 && !memcmp(g, "true", 4))
		return hv_bad(v, "'%s' has use_global_device_ids=true and no channel_id: expected a "
		                 "channel_id with global device ids",
		              hv_name(v->at));
	if (mode == MODE_FLATTENED && n == 0)
		return hv_bad(v, "%s of '%s' is empty: expected the groups listed, as "
		                 "use_global_device_ids=true asks",
		              what, hv_name(v->at));
	int64_t want = mode == MODE_PARTITION   ? v->partitions
	               : mode == MODE_FLATTENED ? v->replicas * v->partitions
	                                        : v->replicas;
	if (n == 0 || want == 1 || n == want)
		return true;
	static const char *const why[] = {
		"the module's replica_count (no channel_id: across replicas)",
		"the module's num_partitions (a channel_id: across partitions)",
		"the module's replica_count (a channel_id without use_global_device_ids=true: "
		"across replicas and partitions)",
		"replica_count x num_partitions (use_global_device_ids=true: flattened ids)"};
	return hv_bad(v, "%s of '%s' name %lld devices: expected %lld, %s", what, hv_name(v->at),
	              (long long)n, (long long)want, why[mode]);
}

/* Reads one replica group list: none or "{}" (size 0: every device),
 * "{{0,1},{2,3}}" or the iota form "[G,S]<=[d...]" (with an optional
 * "T(perm)"); *size is the first group's size, 0 for every device, -1
 * for a form not read. Checks no device is in two groups, the groups are
 * of one size, and an iota list's two shapes hold as many devices. */
static bool groups(struct hv *v, const char *key, int64_t *size, bool uniform)
{
	*size = 0;
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	const char *what = key + 4;
	if (!s) /* as XLA's parser reads it: "{}" */
		return device_count(v, what, 0);
	if (len && s[0] == '[') {
		int64_t a[MAX_LIST], b[MAX_LIST];
		const char *le = memchr(s, '<', len);
		if (!le || le + 2 >= s + len || le[1] != '=' || le[2] != '[')
			return hv_bad(v, "%s of '%s': expected [groups,size]<=[devices]", what, hv_name(v->at));
		size_t l1 = (size_t)(le - s), r0 = l1 + 2;
		const char *re = memchr(s + r0, ']', len - r0);
		int na = hv_ints(s + 1, l1 - 1, a);
		int nb = re ? hv_ints(s + r0 + 1, (size_t)(re - s - r0 - 1), b) : -1;
		if (na != 2 || nb < 1)
			return hv_bad(v, "%s of '%s': expected [groups,size]<=[devices]", what, hv_name(v->at));
		int64_t pa = 1, pb = 1;
		for (int k = 0; k < na; k++)
			pa = a[k] > 0 && pa <= INT64_MAX / a[k] ? pa * a[k] : -1;
		for (int k = 0; k < nb; k++)
			pb = b[k] > 0 && pb <= INT64_MAX / b[k] && pb > 0 ? pb * b[k] : -1;
		if (pa < 1 || pb < 1 || pa != pb)
			return hv_bad(v, "%s of '%s': [%lld,%lld] holds %lld devices, the device list %lld",
			           what, hv_name(v->at), (long long)a[0], (long long)a[1], (long long)pa,
			           (long long)pb);
		*size = a[1];
		return device_count(v, what, pa);
	}
	/* another form (mesh[...] {axes}) is not checked */
	if (len && s[0] != '{') {
		*size = -1;
		return true;
	}
	/* explicit groups: each number once, every group of one size */
	int64_t gsize = -1, count = 0, maxid = -1;
	bool ok = true;
	size_t k = 0;
	while (k < len && s[k] != '{')
		k++;
	k++;
	for (int pass = 0; pass < 2 && ok; pass++) {
		size_t q = k;
		int64_t cur = -1;
		while (q < len) {
			char c = s[q];
			if (c == '{') {
				cur = 0;
				q++;
			} else if (c == '}') {
				if (cur == 0 && pass == 0)
					return hv_bad(v, "%s of '%s' has an empty group: expected each group to "
					                 "name a device",
					              what, hv_name(v->at));
				if (cur >= 0) {
					if (uniform && gsize >= 0 && cur != gsize && pass == 0)
						return hv_bad(v, "%s of '%s': groups of %lld and %lld devices; expected "
						              "groups of one size",
						           what, hv_name(v->at), (long long)gsize, (long long)cur);
					gsize = cur;
					cur = -1;
				}
				q++;
			} else if (c >= '0' && c <= '9') {
				int64_t x = 0;
				while (q < len && s[q] >= '0' && s[q] <= '9' && x <= MAX_DEVICE)
					x = x * 10 + (s[q++] - '0');
				if (x >= MAX_DEVICE)
					return hv_bad(v, "%s of '%s': device %lld is beyond %d", what, hv_name(v->at),
					           (long long)x, MAX_DEVICE);
				if (cur >= 0)
					cur++;
				if (pass == 0) {
					count++;
					if (x > maxid)
						maxid = x;
				} else {
					if (v->seen[x])
						return hv_bad(v, "%s of '%s': device %lld is in two groups", what,
						           hv_name(v->at), (long long)x);
					v->seen[x] = 1;
				}
			} else if (c == '-') {
				return hv_bad(v, "%s of '%s': a negative device number", what, hv_name(v->at));
			} else {
				q++;
			}
		}
		if (pass == 0 && maxid >= 0) {
			if ((size_t)maxid + 1 > v->seencap) {
				unsigned char *n = realloc(v->seen, (size_t)maxid + 1);
				if (!n) {
					v->rc = PL_ENOMEM;
					return false;
				}
				v->seen = n;
				v->seencap = (size_t)maxid + 1;
			}
			memset(v->seen, 0, (size_t)maxid + 1);
		}
		if (maxid < 0)
			break;
	}
	/* no device twice, so as many as the highest number + 1 when none
	 * of 0..max is missing, as XLA requires */
	if (count && count != maxid + 1)
		return hv_bad(v, "%s of '%s' name %lld devices up to %lld: expected each of 0..%lld once",
		              what, hv_name(v->at), (long long)count, (long long)maxid,
		              (long long)maxid);
	*size = gsize < 0 ? 0 : gsize;
	return device_count(v, what, count);
}

/* source_target_pairs={{0,1},{1,2}}: each source once, each target once,
 * each below the module's replica_count (no channel_id) or num_partitions
 * (a channel_id) when that is not 1, as XLA's verifier counts them. */
static bool pairs(struct hv *v)
{
	size_t len, sl;
	const char *s = hv_str(v->at, HK(SOURCE_TARGET_PAIRS), &len);
	if (!s)
		return true;
	bool channel = hv_str(v->at, HK(CHANNEL_ID), &sl) != NULL;
	int64_t limit = channel ? v->partitions : v->replicas;
	/* in-place permutes (slice_sizes) may send one device several slices */
	bool inplace = hv_str(v->at, HK(SLICE_SIZES), &sl) != NULL;
	int64_t ids[2 * MAX_LIST * 16];
	size_t n = 0;
	for (size_t k = 0; k < len;) {
		if (s[k] >= '0' && s[k] <= '9') {
			int64_t x = 0;
			while (k < len && s[k] >= '0' && s[k] <= '9' && x <= MAX_DEVICE)
				x = x * 10 + (s[k++] - '0');
			if (limit > 1 && x >= limit)
				return hv_bad(v, "source_target_pairs of '%s' name device %lld: expected one "
				                 "below %lld, the module's %s",
				              hv_name(v->at), (long long)x, (long long)limit,
				              channel ? "num_partitions (a channel_id: across partitions)"
				                      : "replica_count (no channel_id: across replicas)");
			if (inplace)
				continue;
			if (x >= MAX_DEVICE || n >= sizeof ids / sizeof *ids)
				return true; /* beyond what is checked here */
			ids[n++] = x;
		} else {
			k++;
		}
	}
	if (inplace)
		return true;
	if (n % 2)
		return hv_bad(v, "source_target_pairs of '%s': expected pairs {source,target}", hv_name(v->at));
	int64_t maxid = 0;
	for (size_t k = 0; k < n; k++)
		if (ids[k] > maxid)
			maxid = ids[k];
	size_t need = 2 * ((size_t)maxid + 1);
	if (need > v->seencap) {
		unsigned char *nb = realloc(v->seen, need);
		if (!nb) {
			v->rc = PL_ENOMEM;
			return false;
		}
		v->seen = nb;
		v->seencap = need;
	}
	memset(v->seen, 0, need);
	for (size_t k = 0; k < n; k++) {
		size_t slot = (size_t)ids[k] * 2 + (k % 2);
		if (v->seen[slot])
			return hv_bad(v, "source_target_pairs of '%s': device %lld is a %s twice", hv_name(v->at),
			           (long long)ids[k], k % 2 ? "target" : "source");
		v->seen[slot] = 1;
	}
	return true;
}

/* XLA's GetSubgroupSize: the devices one group holds, by the op's mode:
 * the first listed group's size (listed), or for every device (listed 0)
 * the module's replica_count, num_partitions across partitions; across
 * replicas and partitions, times num_partitions. 0 for an op without a
 * mode or groups in a form not read (listed -1). */
static int64_t subgroup_size(const struct hv *v, int64_t listed)
{
	int mode = group_mode(v);
	if (mode < 0 || listed < 0)
		return 0;
	int64_t n = listed ? listed : mode == MODE_PARTITION ? v->partitions : v->replicas;
	return mode == MODE_REPLICA_AND_PARTITION ? hv_mul(n, v->partitions) : n;
}

/* all-gather: result = operand x shards along the dimension;
 * reduce-scatter divides; all-reduce keeps the shape. The shards are the
 * group size, unless that is 1 (XLA's default config, which its verifier
 * does not check): then as many as the first operand and result give.
 * Result value res0+k is operand k's (res0 > 0: a start's results after
 * its operands part). */
bool hv_collective(struct hv *v, pl_op op, size_t res0)
{
	const pl_inst *i = v->at;
	int64_t listed;
	/* all-reduce's groups may differ in size (XLA's verifier) */
	if (!groups(v, HK(REPLICA_GROUPS), &listed, op != PL_OP_ALL_REDUCE))
		return false;
	size_t n = pl_inst_num_operands(i);
	if (pl_inst_num_results(i) < res0 + n || (!res0 && pl_inst_num_results(i) != n))
		return true;
	int64_t dv[MAX_LIST];
	int nd = op == PL_OP_ALL_REDUCE ? 0 : hv_list(v, HK(DIMENSIONS), dv);
	if (nd == -1)
		return false;
	int64_t size = subgroup_size(v, listed), shards = size > 1 ? size : 0;
	char how[96];
	snprintf(how, sizeof how, "over groups of %lld", (long long)size);
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k), *r = pl_value_type(pl_inst_result(i, res0 + k));
		struct hv_two ty = hv_types(a, r);
		if (op == PL_OP_ALL_REDUCE) {
			if (!hv_same_dims(a, r))
				return hv_bad(v, "'%s' (all-reduce) turns %s into %s: expected the same shape",
				           hv_name(i), ty.a, ty.b);
			continue;
		}
		if (nd != 1)
			continue;
		int64_t d = dv[0];
		if (!a->rank && !r->rank)
			continue; /* a scalar rides along, as PyTorch/XLA writes them */
		if (d < 0 || (uint64_t)d >= a->rank)
			return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of %s (rank %u)",
			           (long long)d, hv_name(i), ty.a, a->rank);
		bool fits = a->rank == r->rank;
		for (uint32_t j = 0; fits && j < a->rank; j++)
			if (j != (uint32_t)d && a->dims[j] != r->dims[j])
				fits = false;
		if (!fits)
			return hv_bad(v, "'%s' turns %s into %s: expected the same extents but dimension %lld",
			           hv_name(i), ty.a, ty.b, (long long)d);
		bool gather = op == PL_OP_ALL_GATHER;
		int64_t whole = gather ? r->dims[d] : a->dims[d], part = gather ? a->dims[d] : r->dims[d];
		if (!shards && part > 0) {
			/* XLA's shard count: the ratio, rounded up, of the first pair */
			shards = whole / part + (whole % part != 0);
			snprintf(how, sizeof how, "of %lld shards, as its first operand and result give",
			         (long long)shards);
		}
		if (shards <= 0)
			continue;
		if (gather && r->dims[d] != hv_mul(a->dims[d], shards))
			return hv_bad(v, "'%s' (all-gather %s) turns %s into %s: expected dimension %lld "
			                 "to be %lld",
			              hv_name(i), how, ty.a, ty.b, (long long)d,
			              (long long)hv_mul(a->dims[d], shards));
		if (!gather && a->dims[d] % shards)
			return hv_bad(v, "'%s' (reduce-scatter %s): dimension %lld of %s does not divide "
			                 "by %lld",
			              hv_name(i), how, (long long)d, ty.a, (long long)shards);
		if (!gather && r->dims[d] != a->dims[d] / shards)
			return hv_bad(v, "'%s' (reduce-scatter %s) turns %s into %s: expected dimension "
			                 "%lld to be %lld",
			              hv_name(i), how, ty.a, ty.b, (long long)d,
			              (long long)(a->dims[d] / shards));
	}
	return true;
}

/* The extents dot's result has: the batch dimensions (lhs order), then
 * lhs's and rhs's that are neither batch nor contracting. */
static bool dot_result(struct hv *v, const int64_t (*d)[MAX_LIST], const int *nd)
{
	const pl_inst *i = v->at;
	const pl_type *res = RESULT_OF(i);
	if (!res)
		return true;
	int64_t want[2 * MAX_LIST];
	uint32_t n = 0;
	for (int k = 0; k < nd[2]; k++)
		want[n++] = hv_op_type(i, 0)->dims[d[2][k]];
	for (int side = 0; side < 2; side++) {
		const pl_type *t = hv_op_type(i, (size_t)side);
		for (uint32_t j = 0; j < t->rank; j++) {
			bool used = false;
			for (int k = 0; k < nd[side] && !used; k++)
				used = d[side][k] == (int64_t)j;
			for (int k = 0; k < nd[2 + side] && !used; k++)
				used = d[2 + side][k] == (int64_t)j;
			if (!used && n < 2 * MAX_LIST)
				want[n++] = t->dims[j];
		}
	}
	bool same = res->rank == n;
	for (uint32_t j = 0; same && j < n; j++)
		same = res->dims[j] == want[j];
	if (same)
		return true;
	char tr[160], tw[160] = "[";
	size_t k = 1;
	for (uint32_t j = 0; j < n && k < sizeof tw; j++)
		k += (size_t)snprintf(tw + k, sizeof tw - k, "%s%lld", j ? "," : "", (long long)want[j]);
	if (k < sizeof tw)
		snprintf(tw + k, sizeof tw - k, "]");
	hv_type(tr, sizeof tr, res);
	return hv_bad(v, "dot '%s' gives %s: expected the extents %s (batch, lhs free, rhs free)",
	              hv_name(i), tr, tw);
}

/* dot: contracting dimensions and batch dimensions in range, as many on
 * each side, of equal extents; the result's extents. */
static bool dot(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 2)
		return hv_bad(v, "dot '%s' takes 2 operands, not %zu", hv_name(i), pl_inst_num_operands(i));
	const pl_type *l = hv_op_type(i, 0), *r = hv_op_type(i, 1);
	int64_t dl[4][MAX_LIST]; /* lhs, rhs contracting; lhs, rhs batch */
	int nl[4];
	const char *const keys[2][2] = {{HK(LHS_CONTRACTING_DIMS), HK(RHS_CONTRACTING_DIMS)},
	                                {HK(LHS_BATCH_DIMS), HK(RHS_BATCH_DIMS)}};
	for (int kind = 0; kind < 2; kind++) {
		int64_t a[MAX_LIST], b[MAX_LIST];
		int na = hv_list(v, keys[kind][0], a), nb = hv_list(v, keys[kind][1], b);
		if (na == -1 || nb == -1)
			return false;
		na = na < 0 ? 0 : na;
		nb = nb < 0 ? 0 : nb;
		memcpy(dl[2 * kind], a, (size_t)na * sizeof *a);
		memcpy(dl[2 * kind + 1], b, (size_t)nb * sizeof *b);
		nl[2 * kind] = na;
		nl[2 * kind + 1] = nb;
		const char *what = kind ? "batch" : "contracting";
		if (na != nb)
			return hv_bad(v, "dot '%s' has %d lhs and %d rhs %s dimensions: expected as many", hv_name(i),
			           na, nb, what);
		for (int k = 0; k < na; k++) {
			if (a[k] < 0 || (uint64_t)a[k] >= l->rank)
				return hv_bad(v, "dot '%s': lhs %s dimension %lld is beyond its rank %u", hv_name(i),
				           what, (long long)a[k], l->rank);
			if (b[k] < 0 || (uint64_t)b[k] >= r->rank)
				return hv_bad(v, "dot '%s': rhs %s dimension %lld is beyond its rank %u", hv_name(i),
				           what, (long long)b[k], r->rank);
			if (l->dims[a[k]] != r->dims[b[k]])
				return hv_bad(v, "dot '%s': lhs %s dimension %lld is %lld, rhs dimension %lld is %lld: "
				              "expected equal extents",
				           hv_name(i), what, (long long)a[k], (long long)l->dims[a[k]],
				           (long long)b[k], (long long)r->dims[b[k]]);
		}
	}
	return dot_result(v, (const int64_t (*)[MAX_LIST])dl, nl);
}

static bool broadcast(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return true;
	int64_t d[MAX_LIST];
	int n = hv_list(v, HK(DIMENSIONS), d);
	if (n == -1)
		return false;
	if (n == -2)
		return true;
	const pl_type *a = hv_op_type(i, 0), *r = pl_value_type(pl_inst_result(i, 0));
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "broadcast '%s' has %d dimensions for an operand of rank %u: expected %u",
		           hv_name(i), n, a->rank, a->rank);
	if (!hv_same_elements(a->dtype, r->dtype))
		return hv_bad(v, "broadcast '%s' turns %s elements into %s: expected the same type (or "
		                 "two floating-point ones)",
		              hv_name(i), pl_hlo_dtype_name_(a->dtype), pl_hlo_dtype_name_(r->dtype));
	for (int k = 0; k < n; k++) {
		if (d[k] < 0 || (uint64_t)d[k] >= r->rank)
			return hv_bad(v, "dimensions={..%lld..} of '%s' is not a dimension of its rank-%u result",
			           (long long)d[k], hv_name(i), r->rank);
		if (a->dims[k] != r->dims[d[k]])
			return hv_bad(v, "broadcast '%s': operand dimension %d is %lld, result dimension %lld "
			              "is %lld: expected equal",
			           hv_name(i), k, (long long)a->dims[k], (long long)d[k],
			           (long long)r->dims[d[k]]);
	}
	return true;
}

static bool transpose(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return true;
	int64_t d[MAX_LIST];
	int n = hv_list(v, HK(DIMENSIONS), d);
	if (n < 0)
		return n == -2;
	const pl_type *a = hv_op_type(i, 0), *r = pl_value_type(pl_inst_result(i, 0));
	if ((uint32_t)n != a->rank)
		return hv_bad(v, "transpose '%s' has %d dimensions for an operand of rank %u: expected a "
		              "permutation of %u",
		           hv_name(i), n, a->rank, a->rank);
	uint64_t used = 0;
	for (int k = 0; k < n; k++) {
		if (d[k] < 0 || (uint64_t)d[k] >= a->rank || (used >> d[k] & 1))
			return hv_bad(v, "dimensions of transpose '%s' are not a permutation of 0..%u", hv_name(i),
			           a->rank ? a->rank - 1 : 0);
		used |= 1ull << d[k];
		if (r->rank == a->rank && r->dims[k] != a->dims[d[k]])
			return hv_bad(v, "transpose '%s': result dimension %d is %lld, expected %lld", hv_name(i), k,
			           (long long)r->dims[k], (long long)a->dims[d[k]]);
	}
	return true;
}

bool hv_reshapes(struct hv *v, const char *opc, const pl_type *a, const pl_type *r)
{
	if (a->elements == r->elements && hv_same_elements(a->dtype, r->dtype))
		return true;
	struct hv_two ty = hv_types(a, r);
	return hv_bad(v, "%s '%s' turns %s (%llu elements) into %s (%llu): expected as many "
	                 "elements of the same type",
	              opc, hv_name(v->at), ty.a, (unsigned long long)a->elements, ty.b,
	              (unsigned long long)r->elements);
}

static bool reshape(struct hv *v)
{
	const pl_inst *i = v->at;
	if (pl_inst_num_operands(i) != 1 || pl_inst_num_results(i) != 1)
		return hv_bad(v, "reshape '%s' takes 1 operand", hv_name(i));
	return hv_reshapes(v, "reshape", hv_op_type(i, 0), pl_value_type(pl_inst_result(i, 0)));
}

/* concatenate: operands of the result's rank and element type, equal but
 * in the dimension, whose extents add up to the result's. */
static bool concatenate(struct hv *v)
{
	const pl_inst *i = v->at;
	size_t n = pl_inst_num_operands(i);
	int64_t d[MAX_LIST];
	int nd = hv_list(v, HK(DIMENSIONS), d);
	if (nd == -1)
		return false;
	if (nd != 1 || !n || pl_inst_num_results(i) != 1)
		return true;
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	if (d[0] < 0 || (uint64_t)d[0] >= r->rank)
		return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of its rank-%u result",
		           (long long)d[0], hv_name(i), r->rank);
	int64_t sum = 0;
	for (size_t k = 0; k < n; k++) {
		const pl_type *t = hv_op_type(i, k);
		bool fits = t->rank == r->rank;
		for (uint32_t j = 0; fits && j < t->rank; j++)
			if (j != (uint32_t)d[0] && t->dims[j] != r->dims[j])
				fits = false;
		if (!fits) {
			struct hv_two ty = hv_types(t, r);
			return hv_bad(v, "operand %zu of concatenate '%s' is %s: expected the extents of %s but "
			              "dimension %lld",
			           k, hv_name(i), ty.a, ty.b, (long long)d[0]);
		}
		if (!hv_same_elements(t->dtype, r->dtype))
			return hv_bad(v, "operand %zu of concatenate '%s' has %s elements: expected %s, the "
			                 "result's",
			              k, hv_name(i), pl_hlo_dtype_name_(t->dtype),
			              pl_hlo_dtype_name_(r->dtype));
		sum = hv_add(sum, t->dims[d[0]]);
	}
	if (sum != r->dims[d[0]])
		return hv_bad(v, "concatenate '%s': the operands' dimension %lld adds up to %lld, the "
		              "result's is %lld",
		           hv_name(i), (long long)d[0], (long long)sum, (long long)r->dims[d[0]]);
	return true;
}

static bool call(struct hv *v, const pl_func *f)
{
	const pl_inst *i = v->at;
	if (!f)
		return true;
	size_t n = pl_inst_num_operands(i);
	if (pl_func_num_args(f) != n)
		return hv_bad(v, "call '%s' passes %zu argument%s; '%s' takes %zu", hv_name(i), n,
		           n == 1 ? "" : "s", pl_func_name(f), pl_func_num_args(f));
	for (size_t k = 0; k < n; k++) {
		const pl_type *a = hv_op_type(i, k), *p = pl_value_type(pl_func_arg(f, k));
		if (!hv_same_dims(a, p) || a->dtype != p->dtype) {
			struct hv_two ty = hv_types(a, p);
			return hv_bad(v, "call '%s': argument %zu is %s, parameter %zu of '%s' is %s", hv_name(i), k,
			           ty.a, k, pl_func_name(f), ty.b);
		}
	}
	return true;
}

/* all-to-all: its split count is the group size (XLA's GetSubgroupSize,
 * a count of 1 included). With dimensions={d}, one array whose dimension
 * d divides by that count, the result its shape; without, one array per
 * device of a group, all of one shape, the result their shapes. */
static bool all_to_all(struct hv *v, int64_t listed)
{
	const pl_inst *i = v->at;
	int64_t d[MAX_LIST], split = subgroup_size(v, listed);
	int nd = hv_list(v, HK(DIMENSIONS), d);
	size_t n = pl_inst_num_operands(i);
	if (nd == -1 || !n)
		return nd != -1;
	const pl_type *a = hv_op_type(i, 0);
	if (nd < 0) {
		if (split > 0 && n != (uint64_t)split)
			return hv_bad(v, "'%s' (all-to-all over groups of %lld) has %zu operands: expected "
			                 "%lld, one per device of a group, as it has no dimensions=",
			              hv_name(i), (long long)split, n, (long long)split);
		for (size_t k = 1; k < n; k++)
			if (!hv_same_type(hv_op_type(i, k), a)) {
				struct hv_two ty = hv_types(hv_op_type(i, k), a);
				return hv_bad(v, "operand %zu of '%s' (all-to-all) is %s: expected %s, the "
				                 "shape of operand 0",
				              k, hv_name(i), ty.a, ty.b);
			}
		if (pl_inst_num_results(i) != n)
			return hv_bad(v, "'%s' (all-to-all) has %zu values for %zu operands: expected one "
			                 "per operand",
			              hv_name(i), pl_inst_num_results(i), n);
		for (size_t k = 0; k < n; k++)
			if (!hv_same_dims(pl_value_type(pl_inst_result(i, k)), a))
				return hv_value_is(v, "all-to-all", k, a, "the shape of its operands");
		return true;
	}
	if (nd != 1 || pl_inst_num_results(i) != 1)
		return true;
	if (n != 1)
		return hv_bad(v, "'%s' (all-to-all) has dimensions= and %zu operands: expected one "
		                 "array to split",
		              hv_name(i), n);
	const pl_type *r = pl_value_type(pl_inst_result(i, 0));
	struct hv_two ty = hv_types(a, r);
	if (d[0] < 0 || (uint64_t)d[0] >= a->rank)
		return hv_bad(v, "dimensions={%lld} of '%s' is not a dimension of %s (rank %u)",
		              (long long)d[0], hv_name(i), ty.a, a->rank);
	if (split > 0 && a->dims[d[0]] % split)
		return hv_bad(v, "'%s' (all-to-all over groups of %lld): dimension %lld of %s does not "
		                 "divide by %lld",
		              hv_name(i), (long long)split, (long long)d[0], ty.a, (long long)split);
	if (!hv_same_dims(a, r))
		return hv_bad(v, "'%s' (all-to-all) turns %s into %s: expected the same shape", hv_name(i),
		              ty.a, ty.b);
	return true;
}

static bool check_inst(struct hv *v, const pl_inst *i)
{
	v->at = i;
	v->op = HLO_OP_OTHER;
	v->opc = pl_inst_opname(i);
	const pl_func *callee = NULL;
	const char *const refs[] = {HK(TO_APPLY),         HK(CALLS),
	                            HK(BODY),             HK(CONDITION),
	                            HK(TRUE_COMPUTATION), HK(FALSE_COMPUTATION),
	                            HK(BRANCH_COMPUTATIONS), HK(SELECT),
	                            HK(SCATTER),          NULL};
	for (const char *const *k = refs; *k; k++)
		if (!computations(v, *k, &callee))
			return false;
	pl_op op = pl_inst_op(i);
	if (op == PL_OP_ALL_GATHER || op == PL_OP_REDUCE_SCATTER || op == PL_OP_ALL_REDUCE)
		return hv_collective(v, op, 0);
	/* a start the reader mapped: its results are the collective's */
	if (op == PL_OP_ALL_GATHER_START)
		return hv_collective(v, PL_OP_ALL_GATHER, 0);
	if (op == PL_OP_REDUCE_SCATTER_START)
		return hv_collective(v, PL_OP_REDUCE_SCATTER, 0);
	if (op == PL_OP_ALL_REDUCE_START)
		return hv_collective(v, PL_OP_ALL_REDUCE, 0);
	if (op == PL_OP_TENSOR_CONTRACT)
		return dot(v);
	if (!pl_inst_is_hlo_(i))
		return true;
	v->op = hv_op_of(i);
	v->opc = v->op == HLO_OP_OTHER ? pl_inst_opname(i) + 4 : pl_hlo_opcode_name_(v->op);
	int64_t gs;
	bool any_size = v->op == HLO_OP_ALL_REDUCE || v->op == HLO_OP_ALL_REDUCE_START;
	if (!groups(v, HK(REPLICA_GROUPS), &gs, !any_size) || !pairs(v))
		return false;
	if (v->op == HLO_OP_ALL_TO_ALL && !all_to_all(v, gs))
		return false;
	size_t arity = elementwise_arity(v->op);
	/* the element types: hv_unary_types */
	if (arity == 1)
		return elementwise(v, v->opc, 1, false) && hv_unary_types(v);
	if (arity == 2)
		return elementwise(v, v->opc, 2, v->op != HLO_OP_COMPLEX) && hv_binary_types(v);
	switch (v->op) {
	case HLO_OP_DOT: /* a dot the reader could not map onto tensor_contract */
		return dot(v);
	case HLO_OP_BROADCAST:
		return broadcast(v);
	case HLO_OP_TRANSPOSE:
		return transpose(v);
	case HLO_OP_RESHAPE:
		return reshape(v);
	case HLO_OP_CONCATENATE:
		return concatenate(v);
	case HLO_OP_REDUCE:
		return hv_reduce(v);
	case HLO_OP_CALL:
		if (!call(v, callee))
			return false;
		break;
	case HLO_OP_COMPARE:
		return hv_compare(v) && elementwise(v, v->opc, 2, false);
	default:
		break;
	}
	return hv_check_more(v);
}

/* The number after "key=" in the HloModule line h (a whole attribute:
 * after a comma or blank), or 1, XLA's default. */
static int64_t config_number(const char *h, size_t hl, const char *key)
{
	size_t kl = strlen(key);
	for (size_t k = 1; k + kl < hl; k++) {
		if ((h[k - 1] != ',' && h[k - 1] != ' ') || memcmp(h + k, key, kl))
			continue;
		int64_t x = 0;
		size_t q = k + kl;
		while (q < hl && h[q] >= '0' && h[q] <= '9' && x < MAX_DEVICE)
			x = x * 10 + (h[q++] - '0');
		return q > k + kl && x > 0 ? x : 1;
	}
	return 1;
}

int pl_hlo_verify_(const pl_module *m, const char *file, pl_diags *diags)
{
	struct hv v = {.m = m, .file = file, .diags = diags, .rc = PL_OK, .replicas = 1,
	               .partitions = 1};
	for (size_t f = 0; f < pl_module_num_funcs(m); f++) {
		const pl_attrs *a = pl_func_attrs(pl_module_func_at(m, f));
		const char *h;
		size_t hl;
		if (pl_attrs_get_string(a, HK(MODULE), &h, &hl) == PL_OK) {
			bool none;
			v.replicas = config_number(h, hl, "replica_count=");
			v.partitions = config_number(h, hl, "num_partitions=");
			v.layouts = pl_attrs_get_bool(a, HK(NO_LAYOUTS), &none) != PL_OK || !none;
			break;
		}
	}
	for (size_t f = 0; f < pl_module_num_funcs(m) && v.rc == PL_OK; f++)
		for (const pl_inst *i = pl_func_first_inst(pl_module_func_at(m, f)); i && v.rc == PL_OK;
		     i = pl_inst_next(i))
			check_inst(&v, i);
	free(v.seen);
	return v.rc;
}
