# Benchmark tools, built by "make" and never installed:
# pl-genmodel writes a transformer-shaped FSDP training step of any size
# (standalone, no libpassline: it must outrun the reader it feeds);
# pl-roundtrip parses, verifies and prints a module, timing each phase.
noinst_PROGRAMS += bench/pl-genmodel bench/pl-roundtrip
bench_pl_genmodel_SOURCES = bench/pl-genmodel.c
bench_pl_roundtrip_SOURCES = bench/pl-roundtrip.c
bench_pl_roundtrip_LDADD = libpassline.la
