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
	host/main.c \
	host/pass_files.c \
	host/pipeline.c \
	host/report.c \
	host/runner.c \
	host/runner_group.c \
	host/util.c
nodist_passline_SOURCES = host/default_pipeline.c
passline_CPPFLAGS = $(AM_CPPFLAGS) -DPL_PLUGINDIR='"$(pluginsdir)"' \
	-DPL_SYSCONFDIR='"$(sysconfdir)"'
passline_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
passline_LDADD = libpassline.la $(INIH_LIBS)
CLEANFILES += host/default_pipeline.c

# The built-in default pipeline is conf/default.ini itself, as a C string,
# so the two cannot drift apart.
host/default_pipeline.c: $(srcdir)/conf/default.ini
	$(AM_V_GEN)$(MKDIR_P) host && { \
	  echo '/* Generated from conf/default.ini; do not edit. */'; \
	  echo 'const char default_pipeline_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(srcdir)/conf/default.ini; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

# The host built to run from anywhere without libtool's wrapper (its
# library path is in the binary): the tests make a setuid copy of it to
# check that PASSLINE_PLUGIN_PATH is ignored there.
check_PROGRAMS += tests/passline-standalone
tests_passline_standalone_SOURCES = $(passline_SOURCES)
nodist_tests_passline_standalone_SOURCES = host/default_pipeline.c
tests_passline_standalone_CPPFLAGS = $(passline_CPPFLAGS)
tests_passline_standalone_CFLAGS = $(passline_CFLAGS)
tests_passline_standalone_LDADD = $(passline_LDADD)
tests_passline_standalone_LDFLAGS = $(AM_LDFLAGS) -no-install
