/* SPDX-License-Identifier: MIT */
/* sdk/hlo/verify/groups.c — the device lists of collectives: replica
 * groups (explicit, or the iota form) and source_target_pairs, checked
 * as XLA's CheckReplicaGroups and CheckDuplicatedSourceOrTarget check
 * them, and the group size XLA's GetSubgroupSize gives, by the op's
 * collective op group mode. Every instruction that has these attributes
 * has them checked, so this is a helper of the dispatcher and of the
 * collectives' shape rules alike. */
#include "hlo/verify/hv.h"

#include <stdlib.h>

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

/* The iota form "[G,S]<=[d...]" (with an optional "T(perm)"): its two
 * shapes hold as many devices; *size is S. */
static bool iota_groups(struct hv *v, const char *what, const char *s, size_t len, int64_t *size)
{
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

/* What a walk over explicit groups has counted: the size of the group
 * last closed, the devices named and the highest of them. */
struct tally {
	int64_t gsize, count, maxid;
};

/* One walk over the explicit groups from s[k]: the first (pass 0) counts
 * them and checks each group's size and number, the second (pass 1)
 * marks each device in v->seen, finding one named twice. */
static bool walk_groups(struct hv *v, const char *what, const char *s, size_t len, size_t k,
                        bool uniform, int pass, struct tally *t)
{
	int64_t cur = -1;
	for (size_t q = k; q < len;) {
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
				if (uniform && t->gsize >= 0 && cur != t->gsize && pass == 0)
					return hv_bad(v, "%s of '%s': groups of %lld and %lld devices; expected "
					                 "groups of one size",
					              what, hv_name(v->at), (long long)t->gsize, (long long)cur);
				t->gsize = cur;
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
				t->count++;
				if (x > t->maxid)
					t->maxid = x;
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
	return true;
}

/* v->seen cleared for n devices; false (v->rc PL_ENOMEM) when it cannot
 * grow. */
static bool clear_seen(struct hv *v, size_t n)
{
	if (n > v->seencap) {
		unsigned char *nb = realloc(v->seen, n);
		if (!nb) {
			v->rc = PL_ENOMEM;
			return false;
		}
		v->seen = nb;
		v->seencap = n;
	}
	memset(v->seen, 0, n);
	return true;
}

/* Explicit groups "{{0,1},{2,3}}": each number once, every group of one
 * size (when uniform), each of 0..n-1 named; *size the group size. */
static bool listed_groups(struct hv *v, const char *what, const char *s, size_t len, bool uniform,
                          int64_t *size)
{
	struct tally t = {.gsize = -1, .count = 0, .maxid = -1};
	size_t k = 0;
	while (k < len && s[k] != '{')
		k++;
	k++;
	for (int pass = 0; pass < 2; pass++) {
		if (!walk_groups(v, what, s, len, k, uniform, pass, &t))
			return false;
		if (pass == 0 && t.maxid >= 0 && !clear_seen(v, (size_t)t.maxid + 1))
			return false;
		if (t.maxid < 0)
			break;
	}
	/* no device twice, so as many as the highest number + 1 when none
	 * of 0..max is missing, as XLA requires */
	if (t.count && t.count != t.maxid + 1)
		return hv_bad(v, "%s of '%s' name %lld devices up to %lld: expected each of 0..%lld once",
		              what, hv_name(v->at), (long long)t.count, (long long)t.maxid,
		              (long long)t.maxid);
	*size = t.gsize < 0 ? 0 : t.gsize;
	return device_count(v, what, t.count);
}

bool hv_groups(struct hv *v, const char *key, int64_t *size, bool uniform)
{
	*size = 0;
	size_t len;
	const char *s = hv_str(v->at, key, &len);
	const char *what = key + 4;
	if (!s) /* as XLA's parser reads it: "{}" */
		return device_count(v, what, 0);
	if (len && s[0] == '[')
		return iota_groups(v, what, s, len, size);
	/* another form (mesh[...] {axes}) is not checked */
	if (len && s[0] != '{') {
		*size = -1;
		return true;
	}
	return listed_groups(v, what, s, len, uniform, size);
}

/* source_target_pairs={{0,1},{1,2}}: each source once, each target once,
 * each below the module's replica_count (no channel_id) or num_partitions
 * (a channel_id) when that is not 1, as XLA's verifier counts them. */
bool hv_pairs(struct hv *v)
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
	if (!clear_seen(v, 2 * ((size_t)maxid + 1)))
		return false;
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
int64_t hv_subgroup_size(const struct hv *v, int64_t listed)
{
	int mode = group_mode(v);
	if (mode < 0 || listed < 0)
		return 0;
	int64_t n = listed ? listed : mode == MODE_PARTITION ? v->partitions : v->replicas;
	return mode == MODE_REPLICA_AND_PARTITION ? hv_mul(n, v->partitions) : n;
}
