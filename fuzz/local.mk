# SPDX-License-Identifier: MIT
# Fuzzing. Each harness fuzz/fuzz_NAME.c is built twice:
#  - with libFuzzer (clang -fsanitize=fuzzer,address,undefined) by
#    `make fuzz` (long runs) and `make fuzz-smoke` (a bounded run for CI);
#  - with the ordinary compiler as fuzz/replay_NAME, which `make check` runs
#    over the committed seeds (fuzz/corpus/NAME) and every input that once
#    crashed (fuzz/regressions/NAME).
FUZZ_HARNESSES = pir predicate pipeline default async hlo halves
EXTRA_DIST += fuzz/corpus fuzz/regressions fuzz/harness.h fuzz/pipeline_property.h \
	fuzz/split_same.h

check_PROGRAMS += fuzz/replay_pir fuzz/replay_predicate fuzz/replay_pipeline \
	fuzz/replay_default fuzz/replay_async
fuzz_replay_pir_SOURCES = fuzz/fuzz_pir.c fuzz/replay_main.c
fuzz_replay_pir_LDADD = libpassline.la
check_PROGRAMS += fuzz/replay_hlo
fuzz_replay_hlo_SOURCES = fuzz/fuzz_hlo.c fuzz/replay_main.c
fuzz_replay_hlo_LDADD = libpassline.la
# the reader on two readers: with the library's sources (internal)
check_PROGRAMS += fuzz/replay_halves
fuzz_replay_halves_SOURCES = fuzz/fuzz_halves.c fuzz/replay_main.c $(libpassline_la_SOURCES)
fuzz_replay_halves_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
fuzz_replay_halves_LDADD = $(LIBM)
fuzz_replay_predicate_SOURCES = fuzz/fuzz_predicate.c fuzz/replay_main.c
fuzz_replay_predicate_LDADD = libpassline.la
# the pipeline reader and option validation, without main.c
FUZZ_HOST_SOURCES = host/host.h host/atomic.c host/crash.c host/loops.c host/pipeline.c \
	host/cost_default.c host/runner.c host/runner_group.c host/util.c host/xla_flags.c
fuzz_replay_pipeline_SOURCES = fuzz/fuzz_pipeline.c fuzz/replay_main.c $(FUZZ_HOST_SOURCES)
nodist_fuzz_replay_pipeline_SOURCES = host/default_pipeline.c
fuzz_replay_pipeline_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
fuzz_replay_pipeline_LDADD = libpassline.la $(INIH_LIBS)
# the five shipped passes, in-process, each entry point renamed
FUZZ_INPROC_SOURCES = fuzz/inproc_hoist.c fuzz/inproc_bucketize.c \
	fuzz/inproc_coalesce.c fuzz/inproc_estimator.c fuzz/inproc_detail.c
fuzz_replay_default_SOURCES = fuzz/fuzz_default.c fuzz/replay_main.c $(FUZZ_INPROC_SOURCES)
fuzz_replay_default_CFLAGS = $(AM_CFLAGS) -DPACKAGE_VERSION='"$(PACKAGE_VERSION)"'
fuzz_replay_default_LDADD = libpassline.la
# the passes on asynchronous IR: the same five and SplitAsyncCCOp
FUZZ_ASYNC_SOURCES = $(FUZZ_INPROC_SOURCES) fuzz/inproc_split.c
fuzz_replay_async_SOURCES = fuzz/fuzz_async.c fuzz/replay_main.c $(FUZZ_ASYNC_SOURCES)
fuzz_replay_async_CFLAGS = $(AM_CFLAGS) -DPACKAGE_VERSION='"$(PACKAGE_VERSION)"'
fuzz_replay_async_LDADD = libpassline.la
TESTS += tests/fuzz-replay.sh
EXTRA_DIST += tests/fuzz-replay.sh

# libFuzzer builds compile the SDK sources once (fuzz/obj, by
# fuzz/build.sh) and link them into each harness, so coverage reaches into
# the library.
FUZZ_CC = clang
FUZZ_SECONDS = 1800
FUZZ_SMOKE_SECONDS = 45
FUZZ_FLAGS = -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -I$(top_builddir) -I$(top_srcdir)/sdk/include \
	-I$(top_builddir)/sdk/include -I$(top_srcdir)/sdk
FUZZ_JOBS = 2
fuzz-build: host/default_pipeline.c
	@$(MKDIR_P) fuzz
	@CC="$(FUZZ_CC)" FLAGS="$(FUZZ_FLAGS)" JOBS="$(FUZZ_JOBS)" srcdir="$(srcdir)" \
	  SDK_SOURCES="$(libpassline_la_SOURCES)" HOST_SOURCES="$(FUZZ_HOST_SOURCES)" \
	  HOST_GENERATED=host/default_pipeline.c INPROC_SOURCES="$(FUZZ_INPROC_SOURCES)" \
	  ASYNC_SOURCES="$(FUZZ_ASYNC_SOURCES)" INIH_CFLAGS="$(INIH_CFLAGS)" \
	  INIH_LIBS="$(INIH_LIBS)" $(SHELL) $(srcdir)/fuzz/build.sh $(FUZZ_HARNESSES)
fuzz: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) srcdir=$(srcdir) $(SHELL) $(srcdir)/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_HARNESSES)
fuzz-smoke: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) srcdir=$(srcdir) $(SHELL) $(srcdir)/fuzz/run.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_HARNESSES)
EXTRA_DIST += fuzz/run.sh fuzz/build.sh
.PHONY: fuzz fuzz-build fuzz-smoke
CLEANFILES += fuzz/fuzz_pir fuzz/fuzz_predicate fuzz/fuzz_pipeline fuzz/fuzz_default \
	fuzz/fuzz_async fuzz/fuzz_hlo fuzz/fuzz_halves \
	fuzz/log-pir.txt fuzz/log-predicate.txt fuzz/log-pipeline.txt fuzz/log-default.txt \
	fuzz/log-async.txt fuzz/log-hlo.txt fuzz/log-halves.txt
clean-local:
	-rm -rf fuzz/obj
