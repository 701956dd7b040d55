/* SPDX-License-Identifier: MIT */
/* sdk/ir/internal.h — the bodies of the IR's opaque types and the helpers the
 * library's files share. Nothing here is installed.
 */
#ifndef PL_INTERNAL_H
#define PL_INTERNAL_H

#include <config.h>

#define PL_BUILDING_LIBRARY 1
#include <passline/passline.h>
#include <passline/host.h>

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "ir/arena.h"
#include <passline/hash_table.h>
#include "ir/region.h"

#define PL_INTERNAL __attribute__((visibility("hidden")))

/* Memory layout: an instruction, its operand uses and its result values
 * are one block [pl_inst][pl_use x nops][pl_value x nres] of the module's
 * instruction arena (pl_module.insts), which takes its memory from the
 * module's region (region.h); so what lies there names each other by
 * 32-bit offsets. Attribute lists and strings are interned, so repeated
 * domains and group names cost one copy. */

/* 8 bytes, so that a dictionary entry is 8 (a module whose instructions
 * all have their own attributes holds one array of entries each). Every
 * attribute value a caller can see lies in its module's region, and so
 * does what it names: the payload is a 32-bit offset there (pl_region_at_
 * from the value's own address) but for a boolean and an integer that
 * fits 32 bits. A string's or a list's length is the one its interned
 * copy keeps (pl_attr_len_). Read it through the accessors below. */
struct pl_attr {
	uint32_t kind : 7; /* pl_attr_kind */
	/* an integer that does not fit 32 bits: v is the offset of its 8
	 * bytes, interned in the module's scalars (as every float's are) */
	uint32_t boxed : 1;
	/* in a dictionary, the entry's key: its number in the module's keys
	 * (see pl_module.keys); 0 in a value anywhere else */
	uint32_t key : 24;
	/* BOOL: 0 or 1; INT: the value, or (boxed) an offset; FLOAT: the
	 * offset of its 8 bytes; STRING: of the interned string (its bytes,
	 * NUL-terminated); LIST: of the interned elements, 0 when none */
	uint32_t v;
};
_Static_assert(sizeof(struct pl_attr) == 8, "a dictionary entry is 8 bytes");

/* The payload of a (which lies in its module's region) */
static inline int64_t pl_attr_i_(const pl_attr *a)
{
	int64_t x;
	if (!a->boxed)
		return (int32_t)a->v;
	memcpy(&x, pl_region_at_(a, a->v), sizeof x);
	return x;
}
static inline double pl_attr_f_(const pl_attr *a)
{
	double x;
	memcpy(&x, pl_region_at_(a, a->v), sizeof x);
	return x;
}
static inline const char *pl_attr_s_(const pl_attr *a) { return pl_region_at_(a, a->v); }
/* NULL for an empty list */
static inline const pl_attr *pl_attr_elems_(const pl_attr *a) { return pl_region_at_(a, a->v); }

struct pl_attr_entry {
	pl_attr val; /* val.key is the entry's key */
};

enum { PL_KEY_MAX = (1u << 24) - 1 };

enum { PL_ATTRS_OF_INST = 1, PL_ATTRS_OF_FUNC = 2 };

/* Inside an instruction or a function, which lie in the module's region,
 * as the entry arrays do: so the array is named by a region offset. 12
 * bytes. */
struct pl_attrs {
	uint32_t off; /* the entry array (pl_attrs_v_); shared by several when cap == 0 */
	uint16_t n, cap;
	uint8_t owner; /* PL_ATTRS_OF_*: finds the module without a pointer */
	/* a second reader made the array for this dictionary (others may
	 * share it): the splice renumbers the keys of each array once
	 * (splice.c) */
	bool fresh;
};

static inline struct pl_attr_entry *pl_attrs_v_(const pl_attrs *d)
{
	return pl_region_at_(d, d->off);
}

struct pl_type {
	uint32_t rank;
	uint32_t dtype;
	/* derived from the dims when the type is made, so asking is O(1); a
	 * value above INT64_MAX means the count overflows */
	uint64_t elements, bytes;
	int64_t dims[]; /* rank entries */
};

/* The uint32_t fields are offsets in the region (pl_region_at_), 0 for
 * none: 16 bytes a use, 24 a value, where pointers took 32 each. */
struct pl_use {
	uint32_t val;
	uint32_t user;
	uint32_t next, prev; /* in val's use list */
};

struct pl_value {
	const char *name;   /* arena; NULL until named */
	const pl_type *type;
	uint32_t uses;      /* the first use */
	uint32_t def;       /* 0 for an argument (see struct pl_arg) */
};

static inline pl_value *pl_use_val_(const pl_use *u) { return pl_region_at_(u, u->val); }
static inline pl_inst *pl_use_user_(const pl_use *u) { return pl_region_at_(u, u->user); }
static inline pl_use *pl_use_next_(const pl_use *u) { return pl_region_at_(u, u->next); }
static inline pl_use *pl_value_uses_(const pl_value *v) { return pl_region_at_(v, v->uses); }
static inline pl_inst *pl_value_def_(const pl_value *v) { return pl_region_at_(v, v->def); }

/* An argument is a value with its function and index beside it. */
struct pl_arg {
	pl_value v;
	pl_func *func;
	size_t index;
};

/* An instruction is LINKED exactly while it is in its function's list
 * (link_between sets the flag, unlink_inst clears it): so "linked and
 * of f" says "reached by a walk over f" without the walk. */
enum {
	PL_INST_LINKED = 1u << 0,
	PL_INST_ERASED = 1u << 1
};

/* What a walk over the instructions reads (the links, the op, the
 * position, the counts, the function, the dictionary) comes first: 40
 * bytes, which lie in one cache line for most block addresses. 48 bytes
 * in all: the neighbours and the function (which lies in the region too)
 * are region offsets. */
struct pl_inst {
	uint32_t prev, next; /* pl_inst_before_, pl_inst_after_ */
	/* the op's number in its module's op names (struct pl_names): a
	 * known op's pl_op, or PL_OP__COUNT and up for the ops the library
	 * does not know, so the name costs no pointer (pl_inst_op_ and
	 * pl_inst_opname_ below) */
	uint32_t op : 24;
	uint32_t flags : 8;
	uint32_t pos;
	uint32_t nops, nres;
	uint32_t func; /* pl_inst_func_ */
	pl_attrs attrs;
	uint32_t line, col;
	/* followed by pl_use ops[nops], pl_value res[nres] */
};
_Static_assert(sizeof(struct pl_inst) == 48, "an instruction's header is 48 bytes");

static inline pl_func *pl_inst_func_(const pl_inst *i) { return pl_region_at_(i, i->func); }

static inline pl_use *pl_inst_ops_(const pl_inst *i)
{
	return (pl_use *)(void *)((char *)(uintptr_t)i + sizeof(pl_inst));
}

static inline pl_value *pl_inst_res_(const pl_inst *i)
{
	return (pl_value *)(void *)(pl_inst_ops_(i) + i->nops);
}

/* A walk along a function costs a memory latency per instruction unless
 * the memory ahead is asked for early. Instruction blocks come from an
 * arena, so those read or made in a row lie one after another in memory,
 * but at distances that vary with their operand and result counts (128
 * to 512 bytes is common), which the processor's prefetcher, following
 * constant strides or lines in a row, does not follow. Each step from one
 * instruction to the next (or previous) asks for the cache lines from
 * PL_WALK_AHEAD bytes past the one to as far past the other, so the steps
 * of a walk tile the memory ahead of it; where the other lies far away
 * (a moved or new instruction) the step asks for nothing. A hint only:
 * nothing is read, and order in memory never changes what a walk finds. */
enum { PL_WALK_AHEAD = 1536, PL_WALK_SPAN = 4096, PL_CACHE_LINE = 64 };

/* always inlined: a call of a function that only prefetches is dropped
 * (see pl_ht_prefetch) */
static inline __attribute__((always_inline)) void pl_walk_ahead_(const pl_inst *from,
                                                                 const pl_inst *to)
{
	uintptr_t a = (uintptr_t)from, b = (uintptr_t)to;
	if (b > a && b - a <= PL_WALK_SPAN) {
		for (a = (a + PL_WALK_AHEAD) & ~(uintptr_t)(PL_CACHE_LINE - 1);
		     a < b + PL_WALK_AHEAD; a += PL_CACHE_LINE)
			__builtin_prefetch((const void *)a);
	} else if (a > b && a - b <= PL_WALK_SPAN && b > PL_WALK_AHEAD) {
		for (b -= PL_WALK_AHEAD; b < a - PL_WALK_AHEAD; b += PL_CACHE_LINE)
			__builtin_prefetch((const void *)b);
	}
}

/* The instructions before and after i, or NULL. */
static inline pl_inst *pl_inst_before_(const pl_inst *i) { return pl_region_at_(i, i->prev); }
static inline pl_inst *pl_inst_after_(const pl_inst *i) { return pl_region_at_(i, i->next); }

/* The same, asking for the memory ahead (see above): for walks */
static inline pl_inst *pl_inst_next_(const pl_inst *i)
{
	pl_inst *next = pl_inst_after_(i);
	if (next)
		pl_walk_ahead_(i, next);
	return next;
}

static inline pl_inst *pl_inst_prev_(const pl_inst *i)
{
	pl_inst *prev = pl_inst_before_(i);
	if (prev)
		pl_walk_ahead_(i, prev);
	return prev;
}

/* The gap between position numbers an append leaves in a new function:
 * room for ten insertions in a row at one place before any numbering
 * again, and for four million appends before the whole function is
 * numbered again (a walk over all of it, which at 4096 a function of
 * 1.05 million instructions read in order needed). */
enum { PL_APPEND_STEP = 1024 };

struct pl_func {
	pl_module *m;
	const char *name;
	pl_attrs attrs;
	struct pl_arg **args; /* arena array */
	size_t nargs, args_cap;
	pl_inst *first, *last;
	size_t ninsts;
	uint32_t line, col;
	uint32_t append_step; /* the gap an append leaves, at most PL_APPEND_STEP */
	bool names_dirty;  /* a value may share its name: name them all again */
	/* otherwise the names were unique when last assigned, and since then
	 * values may have lost their names or got the ones listed in renamed
	 * (see pl_names_changed_) */
	bool names_changed;
	struct pl_name_change *renamed;
};

/* A slot of a numbered table: a number (0: empty) and the hash of its
 * name's bytes (pl_hash_short_). */
struct pl_number_slot {
	uint32_t id;
	uint32_t hash;
};

/* Interned strings numbered from 1 in the order they were entered:
 * names[id] is the string; slots (open addressing, linear probing, at
 * most three quarters full) find a string's number by the hash of its
 * bytes, so a reader looks a word of its text up without interning it
 * first, and a module whose every op name differs pays 8 bytes a slot
 * (no table of addresses with a value beside each, nor one of the
 * reader's own). At most max of them. */
struct pl_numbered {
	const char **names; /* names[0] is unused */
	uint32_t n, cap, max;
	struct pl_number_slot *slots;
	size_t slots_cap; /* 0 or a power of two */
	/* op names only (classify set): per number, what the table of HLO
	 * opcodes says of the name (pl_hlo_classify_, ir/hlo_opcodes.h),
	 * entered with it */
	uint16_t *hlo;
	bool classify;
};

enum { PL_FREE_BLOCK_MAX = 1024, PL_FREE_BLOCK_CLASSES = PL_FREE_BLOCK_MAX / 8 + 1,
       PL_FREE_LARGE_CLASSES = 64 };

struct pl_module {
	/* in the module's region too, apart from the blocks: interned
	 * strings, lists and types, attribute values, function names */
	pl_arena arena;
	/* in the module's region: the instruction blocks
	 * [pl_inst][pl_use...][pl_value...], the functions' arguments and
	 * the dictionaries' entry arrays, which every pass reads beside the
	 * blocks, and nothing else: they lie side by side in the order they
	 * were made, so a walk over a function's instructions reads memory
	 * nearly in order and asks for it ahead (pl_walk_ahead_), where
	 * strings and names between them made each pass over a million
	 * instructions wait on memory, and dictionaries apart from them
	 * (their own stream, not asked for) did too */
	pl_arena insts;
	/* the names of values, in a row (pl_arena_text) */
	pl_arena text;
	char *source_name;
	pl_func **funcs;
	size_t nfuncs, funcs_cap;
	size_t ninsts;
	/* sets of interned byte blobs (see pl_intern_blob_) */
	struct pl_ht strings; /* keys, the known ops' names, string values */
	struct pl_ht types;   /* by dtype and extents (see pl_type_get) */
	struct pl_ht lists;
	struct pl_ht scalars; /* the 8 bytes of floats and of wide integers */
	/* blocks of erased instructions by size (8-byte steps up to
	 * FREE_BLOCK_MAX), for the next instruction of the same size or,
	 * split, of a smaller one; free_mask has a bit per non-empty list */
	void *free_blocks[PL_FREE_BLOCK_CLASSES];
	uint64_t free_mask[(PL_FREE_BLOCK_CLASSES + 63) / 64];
	/* larger blocks by the power of two at or below their size, for
	 * the next block they can hold (a merged collective's, erased when
	 * it is lowered, holds the lowering's); free_large_mask has a bit
	 * per non-empty list */
	void *free_large[PL_FREE_LARGE_CLASSES];
	uint64_t free_large_mask;
	/* names.c's scratch set of value names, kept between functions */
	struct pl_ht names;
	/* the functions by name (names never change, functions never go) */
	struct pl_ht funcs_by_name;
	/* the attribute keys of the module's dictionaries, numbered in the
	 * order they were first used. The reserved keys are entered when the
	 * module is made, so their numbers are the PL_KEY_* constants in
	 * every module, and the SDK's own lookups compare numbers. */
	struct pl_numbered keys;
	/* the names of the instructions' ops: the known ops' names are
	 * entered when the module is made, in pl_op order, so a known op's
	 * number is its pl_op; the names of other ops follow as first used */
	struct pl_numbered ops;
	/* op names a pass created instructions of, by the caller's address */
	struct {
		const char *given;
		uint32_t op; /* its number in ops */
	} op_cache[16];
	/* attribute keys numbered lately, by the address the caller passed:
	 * passes pass the same literals over and over */
	struct {
		const char *given;
		uint32_t id;
	} key_cache[64];
	/* predicated counts by their interned domain and predicate lists
	 * (predicate.c); NULL until the first one */
	struct pl_count_memo *count_memo;
	/* the text the HLO reader read the module from, line by line, for
	 * the HLO writer (hlo/hlo_kept.c); NULL when none. Beside the IR, not
	 * in it: no pass, printer or count sees it */
	struct pl_hlo_kept *hlo_kept;
};

/* --- hlo/hlo_kept.c --- */
PL_INTERNAL void pl_hlo_kept_free_(struct pl_hlo_kept *k);

/* --- module.c --- */
/* A module whose instruction arena takes its memory from r (which it
 * holds): the two readers of one file share one. */
PL_INTERNAL pl_module *pl_module_new_in_(const char *source_name, struct pl_region *r);
/* The module of a dictionary, which lies in an instruction or a
 * function (d->owner says which). Inline: every lookup by name asks. */
static inline pl_module *pl_module_of_attrs_(const pl_attrs *d)
{
	if (d->owner == PL_ATTRS_OF_INST) {
		const pl_inst *i = (const pl_inst *)(const void *)((const char *)d -
		                                                   offsetof(pl_inst, attrs));
		return pl_inst_func_(i)->m;
	}
	const pl_func *f =
		(const pl_func *)(const void *)((const char *)d - offsetof(pl_func, attrs));
	return f->m;
}
PL_INTERNAL const char *pl_intern_str_(pl_module *m, const char *s, size_t len);
/* The copy of bytes[0..len) in set, made when there is none; NULL when out
 * of memory. It lives, unchanged, as long as m, and a NUL follows it. */
PL_INTERNAL const void *pl_intern_blob_(pl_module *m, struct pl_ht *set,
                                        const void *bytes, size_t len);
/* The hash pl_intern_blob_ files bytes[0..len) under. */
PL_INTERNAL uint32_t pl_intern_hash_(const void *bytes, size_t len);
/* pl_intern_blob_ with the blob's hash known (pl_intern_hash_): a reader
 * that asked for the slot (pl_ht_prefetch) while it read on. */
PL_INTERNAL const void *pl_intern_blob_hashed_(pl_module *m, struct pl_ht *set,
                                               const void *bytes, size_t len, uint32_t hash);

/* The length in bytes of an interned blob, kept before it. */
static inline size_t pl_blob_len_(const void *blob)
{
	uint64_t len;
	memcpy(&len, (const char *)blob - sizeof len, sizeof len);
	return (size_t)len;
}

/* A string's bytes, a list's elements; 0 for other kinds. */
static inline uint32_t pl_attr_len_(const pl_attr *a)
{
	if (a->kind == PL_ATTR_STRING)
		return (uint32_t)pl_blob_len_(pl_attr_s_(a));
	if (a->kind == PL_ATTR_LIST)
		return a->v ? (uint32_t)(pl_blob_len_(pl_attr_elems_(a)) / sizeof(pl_attr)) : 0;
	return 0;
}
/* The attribute value of kind INT or FLOAT (with the bits of x) as m
 * keeps it, in *out, boxed (pl_attr_box_) when it must be. false when
 * out of memory. Inline: the reader makes one of every integer. */
PL_INTERNAL bool pl_attr_box_(pl_module *m, pl_attr_kind kind, const void *x, pl_attr *out);
static inline bool pl_attr_scalar_(pl_module *m, pl_attr_kind kind, const void *x, pl_attr *out)
{
	int64_t i;
	memcpy(&i, x, sizeof i);
	if (kind == PL_ATTR_INT && i >= INT32_MIN && i <= INT32_MAX) {
		*out = (pl_attr){.kind = PL_ATTR_INT, .v = (uint32_t)(int32_t)i};
		return true;
	}
	return pl_attr_box_(m, kind, x, out);
}
/* blob, interned in another module whose arena m has adopted: the equal
 * one of set (one of m's), or blob itself, entered in set. NULL when out
 * of memory. */
PL_INTERNAL const void *pl_intern_adopt_(struct pl_ht *set, const void *blob);
/* Every blob of from (interned in another module whose arena to's module
 * has adopted) into to, as pl_intern_adopt_ enters each; dups maps (by
 * address) each that to had an equal one of already to that one. Walks
 * from's slots, not what points at its blobs, and reads a blob's bytes
 * only where to has one of the same hash. false when out of memory. */
PL_INTERNAL bool pl_intern_merge_(struct pl_ht *to, const struct pl_ht *from,
                                  struct pl_ht *dups);
PL_INTERNAL uint64_t pl_hash_bytes_(const void *p, size_t len);
/* A 32-bit hash of s[0..len): names, keys and words of up to 16 bytes
 * inline, from loads that cover every byte; longer ones by
 * pl_hash_bytes_. Not pl_hash_bytes_'s value: a table takes one or the
 * other. */
static inline uint32_t pl_hash_short_(const char *s, size_t len)
{
	uint64_t a = 0, b = 0;
	uint32_t x, y;
	if (len > 16)
		return (uint32_t)pl_hash_bytes_(s, len);
	if (len >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + len - 4, 4);
		a = x;
		b = y;
	} else if (len) {
		a = (unsigned char)s[0] | (unsigned char)s[len / 2] << 8 | (unsigned char)s[len - 1] << 16;
	}
	uint64_t h = (a ^ len) * 0x9e3779b97f4a7c15u;
	return (uint32_t)(((h ^ (h >> 29) ^ b) * 0xbf58476d1ce4e5b9u) >> 32);
}
PL_INTERNAL void pl_intern_free_(struct pl_ht *set);
/* A new function named name (len bytes): a valid name that the caller
 * made sure no function of m has (pl_module_find_func_). */
PL_INTERNAL pl_func *pl_func_new_unchecked_(pl_module *m, const char *name,
                                            size_t len);
/* f, made in another module whose arena m has adopted, becomes m's last
 * function (its name is not m's yet). PL_OK or PL_ENOMEM. */
PL_INTERNAL int pl_module_add_func_(pl_module *m, pl_func *f);
/* The function of m named name (len bytes), or NULL. */
PL_INTERNAL pl_func *pl_module_find_func_(const pl_module *m, const char *name, size_t len);

/* --- attr.c --- */
PL_INTERNAL const pl_attr *pl_attr_intern_list_(pl_module *m, const pl_attr *elems,
                                                size_t n);
/* The reserved keys' numbers (see pl_module.keys). */
enum { PL_KEY_DOMAIN = 1, PL_KEY_PREDICATE, PL_KEY_NUM_DYNAMIC_INSTANCES, PL_KEY_FLOPS };

/* The number of interned (a blob: its length before it) in t, or of the
 * string of the same bytes that t holds, entered when new; 0 when out of
 * memory or when t holds its max already (module.c). */
PL_INTERNAL uint32_t pl_number_(struct pl_numbered *t, const char *interned);
PL_INTERNAL void pl_numbered_free_(struct pl_numbered *t);
/* The number of the string s[0..len), whose pl_hash_short_ is hash, in t;
 * 0 when t has none. */
static inline uint32_t pl_number_find_(const struct pl_numbered *t, const char *s, size_t len,
                                       uint32_t hash)
{
	if (!t->slots_cap)
		return 0;
	size_t mask = t->slots_cap - 1;
	for (size_t j = hash & mask;; j = (j + 1) & mask) {
		const struct pl_number_slot *q = &t->slots[j];
		if (!q->id)
			return 0;
		if (q->hash == hash) {
			const char *name = t->names[q->id];
			if (pl_blob_len_(name) == len && memcmp(name, s, len) == 0)
				return q->id;
		}
	}
}
/* The number of the interned key in m's keys (at most PL_KEY_MAX). */
static inline uint32_t pl_key_id_(pl_module *m, const char *interned)
{
	return pl_number_(&m->keys, interned);
}
static inline const char *pl_key_name_(const pl_module *m, uint32_t id)
{
	return m->keys.names[id];
}
/* At most this many op names in a module, known ops included: an op's
 * number has 24 bits in an instruction's header. */
enum { PL_OPNAME_MAX = (1 << 24) - 1 };
static inline pl_op pl_inst_op_(const pl_inst *i)
{
	return i->op < PL_OP__COUNT ? (pl_op)i->op : PL_OP_OTHER;
}
/* The op number of the op name s[0..len) (a valid one) in m, entered
 * when new; 0 when out of memory or past PL_OPNAME_MAX. Its copy is the
 * module's, not entered in m's interned strings. */
PL_INTERNAL uint32_t pl_op_number_text_(pl_module *m, const char *s, size_t len);
/* Each known op's traits (pl_op_traits), for the walks that ask every
 * instruction: read in place, not through a call. */
PL_INTERNAL extern const unsigned pl_op_traits_table_[PL_OP__COUNT];
static inline unsigned pl_inst_traits_(const pl_inst *i)
{
	return pl_op_traits_table_[pl_inst_op_(i)];
}
/* Each known op's flops without the attribute (pl_op_default_flops) */
PL_INTERNAL extern const int64_t pl_op_flops_table_[PL_OP__COUNT];
static inline const char *pl_inst_opname_(const pl_inst *i)
{
	return pl_inst_func_(i)->m->ops.names[i->op];
}
/* The classification of i's op name (ir/hlo_opcodes.h), made when the
 * module numbered it. */
static inline uint16_t pl_inst_hlo_cls_(const pl_inst *i)
{
	return pl_inst_func_(i)->m->ops.hlo[i->op];
}
/* The value under the key numbered id. */
static inline const pl_attr *pl_attrs_find_id_(const pl_attrs *d, uint32_t id)
{
	const struct pl_attr_entry *v = pl_attrs_v_(d);
	for (uint16_t i = 0; i < d->n; i++)
		if (v[i].val.key == id)
			return &v[i].val;
	return NULL;
}
/* The number m gives the attribute key (the op name) s, or 0 when no
 * dictionary (no instruction) of m has it yet, which then no entry
 * (instruction) matches. For a walk that asks each instruction of a module
 * the same keys or ops: it compares numbers where a lookup by name would
 * compare strings, and a module that has none of them needs no walk. */
static inline uint32_t pl_key_number_find_(const pl_module *m, const char *s)
{
	size_t len = strlen(s);
	return pl_number_find_(&m->keys, s, len, pl_hash_short_(s, len));
}
static inline uint32_t pl_op_number_find_(const pl_module *m, const char *s)
{
	size_t len = strlen(s);
	return pl_number_find_(&m->ops, s, len, pl_hash_short_(s, len));
}
/* The string under the key numbered id (none for 0), or NULL; its length
 * in *len. */
static inline const char *pl_attrs_find_string_id_(const pl_attrs *d, uint32_t id,
                                                   size_t *len)
{
	const pl_attr *a = id ? pl_attrs_find_id_(d, id) : NULL;
	if (!a || a->kind != PL_ATTR_STRING)
		return NULL;
	*len = pl_attr_len_(a);
	return pl_attr_s_(a);
}
/* dst gets src's entries: shared when src shares its own already (both
 * copy on write), else copied; src is not written. PL_OK or PL_ENOMEM. */
PL_INTERNAL int pl_attrs_copy_(pl_module *m, pl_attrs *dst, const pl_attrs *src);
/* Appends without checking for an existing key (the parser checks). */
PL_INTERNAL int pl_attrs_append_(pl_module *m, pl_attrs *d, uint32_t key,
                                 const pl_attr *val);

/* --- inst.c --- */
/* The attributes the counts read, found in one scan of an instruction's
 * dictionary d by their key numbers (the first of each, as pl_attrs_get):
 * pl_inst_time_ns asks for the count and the flops of every instruction. */
struct pl_count_attrs {
	const pl_attr *domain, *predicate, *num_dynamic_instances, *flops;
};
PL_INTERNAL void pl_count_attrs_(const pl_attrs *d, struct pl_count_attrs *a);
/* pl_inst_num_dynamic_instances, pl_inst_masked_dynamic_instances and
 * pl_inst_flops of inst, whose attributes a holds. */
PL_INTERNAL int pl_num_dynamic_instances_(const pl_inst *inst, const struct pl_count_attrs *a,
                                          uint64_t *out);
PL_INTERNAL int pl_masked_dynamic_instances_(const pl_inst *inst,
                                             const struct pl_count_attrs *a, uint64_t *out);
PL_INTERNAL int pl_flops_(const pl_inst *inst, const struct pl_count_attrs *a, int64_t *out);
/* A new instruction of the op numbered op in f's module (pl_op_number_text_),
 * not linked, its operands unset. */
PL_INTERNAL pl_inst *pl_inst_alloc_(pl_func *f, uint32_t op, size_t nops, size_t nres);
PL_INTERNAL void pl_use_set_(pl_use *u, pl_value *v);

/* --- names.c --- */
PL_INTERNAL bool pl_is_name_(const char *s, size_t len);
PL_INTERNAL bool pl_is_opname_(const char *s, size_t len);
PL_INTERNAL bool pl_is_key_(const char *s, size_t len);
PL_INTERNAL int pl_assign_names_(pl_func *f);
/* A value of f lost its name, a value without one was added, or (name not
 * NULL) a value now holds name: the next pl_assign_names_ looks at what
 * may now clash, not at every name of f. */
PL_INTERNAL void pl_names_changed_(pl_func *f, const char *name);

/* --- strbuf.c: a growable byte buffer (malloc'd) --- */
struct pl_strbuf {
	char *data;
	size_t len, cap;
	bool failed; /* an allocation failed; contents are incomplete */
};
PL_INTERNAL void pl_sb_put(struct pl_strbuf *sb, const char *s, size_t n);
PL_INTERNAL void pl_sb_puts(struct pl_strbuf *sb, const char *s);
PL_INTERNAL void pl_sb_putc(struct pl_strbuf *sb, char c);
PL_INTERNAL void pl_sb_printf(struct pl_strbuf *sb, const char *fmt, ...)
	PL_PRINTF(2, 3);
PL_INTERNAL void pl_sb_vprintf(struct pl_strbuf *sb, const char *fmt, va_list ap)
	PL_PRINTF(2, 0);
PL_INTERNAL void pl_sb_free(struct pl_strbuf *sb);
/* A malloc'd copy of sb's bytes from `at` to its end (at < sb->len), for
 * a rewrite of them into sb; NULL when out of memory. */
PL_INTERNAL char *pl_sb_copy_from_(const struct pl_strbuf *sb, size_t at);
/* Where the run of plain string bytes (printable ASCII but '"' and '\\')
 * that starts at s ends, end at the latest. */
PL_INTERNAL extern const unsigned char pl_str_plain_[256];
PL_INTERNAL const char *pl_str_plain_end_(const char *s, const char *end);
/* Decimal digits of v into buf (20 bytes at least); returns the length. */
PL_INTERNAL size_t pl_fmt_i64(char *buf, int64_t v);
/* The digits of v written backwards to end (at most 20 bytes before it);
 * returns where they begin. */
PL_INTERNAL char *pl_fmt_i64_back_(char *end, int64_t v);
PL_INTERNAL size_t pl_fmt_u64(char *buf, uint64_t v);

/* The multi-byte UTF-8 sequence at s (avail bytes there): PL_UTF8_OK with
 * *len its length, or why it is not one. */
enum { PL_UTF8_OK, PL_UTF8_BAD_LEAD, PL_UTF8_TRUNCATED, PL_UTF8_BAD_SEQUENCE };
PL_INTERNAL int pl_utf8_check_(const unsigned char *s, size_t avail, size_t *len);

/* --- diag.c --- */
PL_INTERNAL int pl_diags_vadd_(pl_diags *d, pl_severity sev, const char *file,
                               unsigned line, unsigned col, const char *fmt,
                                va_list ap) PL_PRINTF(6, 0);

/* --- attribute values printed by the text writer, also for messages --- */
PL_INTERNAL void pl_print_attr_(struct pl_strbuf *sb, const pl_attr *a);
PL_INTERNAL void pl_print_type_(struct pl_strbuf *sb, const pl_type *t);

/* --- count_memo.c --- */
PL_INTERNAL void pl_count_memo_free_(struct pl_count_memo *memo);
/* Enters the pair of domain and predicate of d (a dictionary of m) in m's
 * memo, uncounted, unless d has no predicate or the pair is there. Called
 * where a dictionary gets its pair (the reader, the splice, pl_attrs_set),
 * so that pl_module_prepare_counts finds every pair without a walk. */
PL_INTERNAL void pl_count_note_(pl_module *m, const pl_attrs *d);

/* --- cost.c --- */
/* The model with every key at its default (static, never freed). */
PL_INTERNAL const pl_cost_model *pl_cost_model_default_(void);
/* A file name pl_file_name_check accepted, without "." and ".." components
 * or repeated slashes (malloc'd; NULL when out of memory). */
PL_INTERNAL char *pl_file_name_normalize_(const char *name);

/* --- u128 helpers --- */
typedef unsigned __int128 pl_u128;
static inline pl_u128 pl_u128_make(uint64_t hi, uint64_t lo)
{
	return ((pl_u128)hi << 64) | lo;
}

#endif
