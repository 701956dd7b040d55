/* SPDX-License-Identifier: MIT */
/* bench/pl-memory.c — where a module's memory goes, per instruction read:
 * what the targets of bytes per instruction are made of, the same on any
 * machine (make bench records it beside the peaks it measures).
 *
 *   pl-memory IN.pir
 *
 * Reads IN on one thread, then prints one line per part, "NAME BYTES"
 * with BYTES per instruction, then "json" and the same as a JSON object.
 * The parts: the instruction blocks (headers, operand uses, result values,
 * and the ends of chunks too short for the next block), the functions
 * with their arguments and the dictionaries' entry arrays (which lie
 * among the blocks), value names, interned strings and lists, the names
 * of the ops the library does not know, the rest
 * of the module's arena (types, function names, chunk ends), the module's
 * hash tables, and the reader's table of a function's values, freed
 * after reading but part of its peak (its size is computed, not seen).
 *
 * It reads the library's private structures (sdk/ir/internal.h), so it is
 * built from this tree only and never installed.
 */
#include "ir/internal.h"

#include <stdio.h>
#include <stdlib.h>

/* What pl_arena_alloc takes for n bytes. */
static size_t rounded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The bytes of the interned blobs of set (each after its 8-byte length). */
static size_t blob_bytes(const struct pl_ht *set)
{
	size_t sum = 0;
	for (size_t j = 0; j < set->cap; j++)
		if (pl_ht_used(set, j))
			sum += rounded(sizeof(uint64_t) + ((const uint64_t *)pl_ht_item_(set, j))[-1] + 1);
	return sum;
}

static size_t table_bytes(const struct pl_ht *t)
{
	return t->cap * (pl_ht_slot_size_(t) + (t->map ? sizeof *t->vals : 0));
}

/* A numbered table's slots and its array of names. */
static size_t numbered_bytes(const struct pl_numbered *t)
{
	return t->slots_cap * sizeof *t->slots + t->cap * sizeof *t->names;
}

static bool same_address(const void *item, const void *probe, const void *ctx)
{
	(void)ctx;
	return item == probe;
}

/* Whether p is new to set, which then holds it. */
static bool counted_first(struct pl_ht *set, const void *p)
{
	if (!pl_ht_reserve(set)) {
		fprintf(stderr, "pl-memory: out of memory\n");
		exit(1);
	}
	uint32_t hash = pl_ht_hash_ptr(p);
	size_t j = pl_ht_find(set, hash, same_address, p, NULL);
	if (pl_ht_used(set, j))
		return false;
	pl_ht_put(set, j, hash, p);
	return true;
}

/* The slots the reader's value table had for n values: at most three
 * quarters full, a power of two from 64, each a value's offset in the
 * module's span and its hash (hash_table.h). */
static size_t value_table_bytes(size_t n)
{
	size_t cap = 64;
	while ((n + 1) * 4 > cap * 3)
		cap *= 2;
	return cap * sizeof(struct pl_ht_slot32);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pl-memory IN.pir\n");
		return 2;
	}
	pl_diags *diags = pl_diags_new();
	pl_module *m = NULL;
	if (!diags || pl_parse_file(argv[1], diags, &m) != PL_OK) {
		for (size_t i = 0; diags && i < pl_diags_count(diags); i++)
			fprintf(stderr, "%s\n", pl_diags_format(diags, i));
		pl_diags_free(diags);
		return 1;
	}
	size_t headers = 0, uses = 0, values = 0, args = 0, dicts = 0, names = 0, largest = 0;
	struct pl_ht arrays = {0}; /* the entry arrays counted: equal dictionaries share one */
	for (size_t f = 0; f < m->nfuncs; f++) {
		const pl_func *fn = m->funcs[f];
		size_t nvalues = fn->nargs;
		args += sizeof *fn + fn->nargs * sizeof(struct pl_arg);
		for (const pl_inst *i = fn->first; i; i = pl_inst_after_(i)) {
			headers += sizeof *i;
			uses += i->nops * sizeof(pl_use);
			values += i->nres * sizeof(pl_value);
			nvalues += i->nres;
			if (i->attrs.n && counted_first(&arrays, pl_attrs_v_(&i->attrs)))
				dicts += rounded(i->attrs.n * sizeof(struct pl_attr_entry));
		}
		if (nvalues > largest)
			largest = nvalues;
	}
	pl_ht_free(&arrays);
	size_t strings = blob_bytes(&m->strings), lists = blob_bytes(&m->lists);
	/* the names of the ops the library does not know, kept apart from
	 * the interned strings */
	size_t opnames = 0;
	for (uint32_t k = PL_OP__COUNT; k <= m->ops.n; k++)
		opnames += rounded(sizeof(uint64_t) + pl_blob_len_(m->ops.names[k]) + 1);
	/* the free end of each arena's last chunk is mapped, never touched */
	size_t arena = m->arena.total - pl_arena_room(&m->arena);
	size_t blocks = m->insts.total - pl_arena_room(&m->insts);
	names = m->text.total - pl_arena_room(&m->text); /* the names, in a row */
	size_t known = strings + lists + opnames, in_blocks = headers + uses + values + args + dicts;
	size_t tables = table_bytes(&m->strings) + table_bytes(&m->types) + table_bytes(&m->lists) +
	                table_bytes(&m->names) + table_bytes(&m->funcs_by_name) +
	                numbered_bytes(&m->keys) + numbered_bytes(&m->ops);
	double n = m->ninsts ? (double)m->ninsts : 1.0;
	const struct {
		const char *name;
		size_t bytes;
	} parts[] = {
		{"instruction_headers", headers},
		{"operand_uses", uses},
		{"result_values", values},
		{"instruction_chunk_ends", blocks > in_blocks ? blocks - in_blocks : 0},
		{"functions_and_arguments", args},
		{"dictionary_entries", dicts},
		{"value_names", names},
		{"interned_strings", strings},
		{"interned_lists", lists},
		{"op_names", opnames},
		{"arena_other", arena > known ? arena - known : 0},
		{"module_hash_tables", tables},
		{"reader_value_table", value_table_bytes(largest)},
	};
	size_t nparts = sizeof parts / sizeof *parts;
	double total = 0;
	for (size_t k = 0; k < nparts; k++) {
		printf("%-28s %8.1f\n", parts[k].name, (double)parts[k].bytes / n);
		total += (double)parts[k].bytes / n;
	}
	printf("%-28s %8.1f\n", "total", total);
	printf("json {\"insts\": %zu", m->ninsts);
	for (size_t k = 0; k < nparts; k++)
		printf(", \"%s\": %.1f", parts[k].name, (double)parts[k].bytes / n);
	printf(", \"total\": %.1f}\n", total);
	pl_module_free(m);
	pl_diags_free(diags);
	return 0;
}
