# SPDX-License-Identifier: MIT
# The Check suites of the SDK, one program per area.
check_PROGRAMS += tests/unit/check_text
tests_unit_check_text_SOURCES = tests/unit/check_text.c
tests_unit_check_text_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_text_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_text

check_PROGRAMS += tests/unit/check_verify
tests_unit_check_verify_SOURCES = tests/unit/check_verify.c
tests_unit_check_verify_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_verify_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_verify

check_PROGRAMS += tests/unit/check_ir
tests_unit_check_ir_SOURCES = tests/unit/check_ir.c
tests_unit_check_ir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ir_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_ir

check_PROGRAMS += tests/unit/check_predicate
tests_unit_check_predicate_SOURCES = tests/unit/check_predicate.c
tests_unit_check_predicate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_predicate_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_predicate

check_PROGRAMS += tests/unit/check_options
tests_unit_check_options_SOURCES = tests/unit/check_options.c
tests_unit_check_options_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_options_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_options
# the additions of plugin ABI 1.1 for plugin authors
check_PROGRAMS += tests/unit/check_api11
tests_unit_check_api11_SOURCES = tests/unit/check_api11.c
tests_unit_check_api11_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_api11_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_api11

check_PROGRAMS += tests/unit/check_cost
tests_unit_check_cost_SOURCES = tests/unit/check_cost.c
tests_unit_check_cost_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_cost_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_cost

# live bytes over an instruction order (pl_func_peak_bytes)
check_PROGRAMS += tests/unit/check_memory
tests_unit_check_memory_SOURCES = tests/unit/check_memory.c
tests_unit_check_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_memory_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_memory

# the call graph: sites, executions from the entry, trip counts, a step's time
check_PROGRAMS += tests/unit/check_callgraph
tests_unit_check_callgraph_SOURCES = tests/unit/check_callgraph.c
tests_unit_check_callgraph_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_callgraph_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_callgraph

check_PROGRAMS += tests/unit/check_fusion
tests_unit_check_fusion_SOURCES = tests/unit/check_fusion.c
tests_unit_check_fusion_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_fusion_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_fusion

check_PROGRAMS += tests/unit/check_files
tests_unit_check_files_SOURCES = tests/unit/check_files.c
tests_unit_check_files_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_files_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_files

check_PROGRAMS += tests/unit/check_hash_table
tests_unit_check_hash_table_SOURCES = tests/unit/check_hash_table.c
tests_unit_check_hash_table_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hash_table_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_hash_table

# the bump allocator of a module's memory (built with sdk/ir/arena.c)
check_PROGRAMS += tests/unit/check_arena
tests_unit_check_arena_SOURCES = tests/unit/check_arena.c sdk/ir/arena.c sdk/ir/region.c
tests_unit_check_arena_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
tests_unit_check_arena_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_arena_LDADD = $(CHECK_LIBS)
TESTS += tests/unit/check_arena
check_PROGRAMS += tests/unit/check_grow
tests_unit_check_grow_SOURCES = tests/unit/check_grow.c
tests_unit_check_grow_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_grow_LDADD = $(CHECK_LIBS)
TESTS += tests/unit/check_grow

# naming values after a few were renamed or added
check_PROGRAMS += tests/unit/check_names
tests_unit_check_names_SOURCES = tests/unit/check_names.c
tests_unit_check_names_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_names_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_names

# reading on two readers, against one (built with the library's sources:
# where the second reader begins is internal)
check_PROGRAMS += tests/unit/check_split
tests_unit_check_split_SOURCES = tests/unit/check_split.c fuzz/split_same.h fuzz/harness.h \
	$(libpassline_la_SOURCES)
tests_unit_check_split_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
tests_unit_check_split_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_split_LDADD = $(CHECK_LIBS) $(LIBM)
TESTS += tests/unit/check_split

# HLO text cut at every byte says where the file ends
check_PROGRAMS += tests/unit/check_hlo_eof
tests_unit_check_hlo_eof_SOURCES = tests/unit/check_hlo_eof.c
tests_unit_check_hlo_eof_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hlo_eof_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_hlo_eof

# The HLO shape tree the reader and writer share: parse, print, fit (its
# functions are private to the library: built from its sources)
check_PROGRAMS += tests/unit/check_hlo_shape
tests_unit_check_hlo_shape_SOURCES = tests/unit/check_hlo_shape.c $(libpassline_la_SOURCES)
tests_unit_check_hlo_shape_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
tests_unit_check_hlo_shape_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hlo_shape_LDADD = $(CHECK_LIBS) $(LIBM)
TESTS += tests/unit/check_hlo_shape
check_PROGRAMS += tests/unit/check_pir_eof
tests_unit_check_pir_eof_SOURCES = tests/unit/check_pir_eof.c
tests_unit_check_pir_eof_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_pir_eof_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_pir_eof

check_PROGRAMS += tests/unit/check_hlo_ops
tests_unit_check_hlo_ops_SOURCES = tests/unit/check_hlo_ops.c
tests_unit_check_hlo_ops_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hlo_ops_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_hlo_ops

check_PROGRAMS += tests/unit/check_helpers
tests_unit_check_helpers_SOURCES = tests/unit/check_helpers.c
tests_unit_check_helpers_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_helpers_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_helpers
