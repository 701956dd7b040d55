# SPDX-License-Identifier: MIT
# The passline executable.
bin_PROGRAMS += passline
passline_SOURCES = \
	host/host.h \
	host/atomic.c \
	host/compare.c \
	host/compare_svg.c \
	host/cost_default.c \
	host/crash.c \
	host/loader.c \
	host/loops.c \
	host/main.c \
	host/partition_check.c \
	host/pass_files.c \
	host/pipeline.c \
	host/read_input.c \
	host/report.c \
	host/runner.c \
	host/runner_group.c \
	host/tune.c \
	host/util.c \
	host/xla_flags.c
nodist_passline_SOURCES = host/default_pipeline.c host/xla_gpu_pipeline.c
passline_CPPFLAGS = $(AM_CPPFLAGS) -DPL_PLUGINDIR='"$(pluginsdir)"' \
	-DPL_SYSCONFDIR='"$(sysconfdir)"'
passline_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
passline_LDADD = libpassline.la $(INIH_LIBS)
CLEANFILES += host/default_pipeline.c host/xla_gpu_pipeline.c

# The built-in pipelines are the shipped files themselves, as C strings,
# so the two cannot drift apart: the default one, conf/xla-gpu.ini (for
# passline tune) and the strategies of --compare.
INI_TO_C_STRING = sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/'
host/default_pipeline.c: $(srcdir)/conf/default.ini
	$(AM_V_GEN)$(MKDIR_P) host && { \
	  echo '/* Generated from conf/default.ini; do not edit. */'; \
	  echo 'const char default_pipeline_text[] ='; \
	  $(INI_TO_C_STRING) $(srcdir)/conf/default.ini; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

# passline tune runs conf/xla-gpu.ini itself, built in the same way.
host/xla_gpu_pipeline.c: $(srcdir)/conf/xla-gpu.ini
	$(AM_V_GEN)$(MKDIR_P) host && { \
	  echo '/* Generated from conf/xla-gpu.ini; do not edit. */'; \
	  echo 'const char xla_gpu_pipeline_text[] ='; \
	  $(INI_TO_C_STRING) $(srcdir)/conf/xla-gpu.ini; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

# The host built to run from anywhere without libtool's wrapper (its
# library path is in the binary): the tests make a setuid copy of it to
# check that PASSLINE_PLUGIN_PATH is ignored there.
check_PROGRAMS += tests/passline-standalone
tests_passline_standalone_SOURCES = $(passline_SOURCES)
nodist_tests_passline_standalone_SOURCES = host/default_pipeline.c host/xla_gpu_pipeline.c
tests_passline_standalone_CPPFLAGS = $(passline_CPPFLAGS)
tests_passline_standalone_CFLAGS = $(passline_CFLAGS)
tests_passline_standalone_LDADD = $(passline_LDADD)
tests_passline_standalone_LDFLAGS = $(AM_LDFLAGS) -no-install

# The shipped strategies --compare compares without -p: conf/compare-*.ini
# themselves, as C strings, as the default pipeline is.
COMPARE_CONFS = conf/compare-neuron.ini conf/compare-xla.ini conf/compare-overlap.ini
nodist_passline_SOURCES += host/compare_pipelines.c
nodist_tests_passline_standalone_SOURCES += host/compare_pipelines.c
CLEANFILES += host/compare_pipelines.c
host/compare_pipelines.c: $(srcdir)/conf/compare-neuron.ini $(srcdir)/conf/compare-xla.ini \
	$(srcdir)/conf/compare-overlap.ini
	$(AM_V_GEN)$(MKDIR_P) host && { \
	  echo '/* Generated from conf/compare-*.ini; do not edit. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char *const compare_builtin_names[] = {'; \
	  for f in $(COMPARE_CONFS); do echo "\"$${f#conf/}\","; done; \
	  echo '};'; \
	  echo 'const char *const compare_builtin_texts[] = {'; \
	  for f in $(COMPARE_CONFS); do \
	    $(INI_TO_C_STRING) $(srcdir)/$$f; \
	    echo ','; \
	  done; \
	  echo '};'; \
	  echo 'const size_t compare_builtin_count = sizeof compare_builtin_names / sizeof *compare_builtin_names;'; \
	} > $@.tmp && mv $@.tmp $@
