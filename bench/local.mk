# SPDX-License-Identifier: MIT
# Benchmark tools, built by "make" and never installed:
# pl-genmodel writes a transformer-shaped FSDP training step of any size
# (standalone, no libpassline: it must outrun the reader it feeds);
# pl-roundtrip parses, verifies and prints a module, timing each phase.
noinst_PROGRAMS += bench/pl-genmodel bench/pl-roundtrip
bench_pl_genmodel_SOURCES = bench/pl-genmodel.c
bench_pl_roundtrip_SOURCES = bench/pl-roundtrip.c
bench_pl_roundtrip_LDADD = libpassline.la

# pl-memory tells what a module's memory is made of, per instruction. It
# reads the library's private structures, so it is built from the
# library's sources (as tests/unit/check_split is), for make bench only.
EXTRA_PROGRAMS += bench/pl-memory
bench_pl_memory_SOURCES = bench/pl-memory.c $(libpassline_la_SOURCES)
bench_pl_memory_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
bench_pl_memory_LDADD = $(LIBM)
CLEANFILES += bench/pl-memory$(EXEEXT)

# make bench: the benchmark table (see bench/README.md). Not part of make
# check: speed is measured, never asserted by a test.
bench: all bench/pl-memory$(EXEEXT)
	srcdir=$(srcdir) builddir=$(builddir) HLO_DIR='$(HLO_DIR)' $(SHELL) $(srcdir)/bench/run.sh
.PHONY: bench
EXTRA_DIST += bench/run.sh bench/README.md bench/pir-to-mlir.py bench/overlap.sh \
	bench/hlo_dot_flops.py bench/pipelines.sh

# make bench also times reading and writing XLA HLO on the largest dumps
# of HLO_DIR (shared/hlo beside the tree), when that folder exists.
noinst_PROGRAMS += bench/pl-hlo-bench
bench_pl_hlo_bench_SOURCES = bench/pl-hlo-bench.c
bench_pl_hlo_bench_LDADD = libpassline.la
bench: bench-hlo
bench-hlo: all
	@if [ -d '$(HLO_DIR)/dumps' ]; then \
		$(builddir)/bench/pl-hlo-bench $$(ls -S '$(HLO_DIR)'/dumps/*.hlo | head -n 4); \
	else echo "bench-hlo: no $(HLO_DIR)/dumps; set HLO_DIR"; fi
.PHONY: bench-hlo

# make bench-cost: the cost model's presets against the measured tables of
# ../shared/costmodel beside the tree (or COSTMODEL_DIR=...), each row a
# one-instruction HLO module through passline (see bench/README.md). A
# benchmark: the errors are reported, never asserted.
bench-cost: all
	COSTMODEL_DIR='$(COSTMODEL_DIR)' python3 $(srcdir)/bench/bench_cost.py \
		--passline $(builddir)/passline --plugin-dir $(builddir)/plugins/.libs
.PHONY: bench-cost
EXTRA_DIST += bench/bench_cost.py bench/fit_cost_model.py bench/cost_model_lib.py

# make bench-pipelines: the shipped pipelines and the other orders of their
# passes on the real steps of HLO_DIR (bench/pipelines.sh, bench/README.md),
# under the default cost model, then under the h100 preset.
bench-pipelines: all
	srcdir=$(srcdir) builddir=$(builddir) HLO_DIR='$(HLO_DIR)' $(SHELL) $(srcdir)/bench/pipelines.sh
	srcdir=$(srcdir) builddir=$(builddir) HLO_DIR='$(HLO_DIR)' $(SHELL) $(srcdir)/bench/pipelines.sh \
		-O cost_model.preset=h100
.PHONY: bench-pipelines
