# Tests. Every test program speaks TAP, so the totals count single tests:
# Check suites print TAP on standard output (srunner_set_tap), shell tests
# write it themselves.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	PASSLINE='$(abs_top_builddir)/passline'; \
	PLUGIN_DIR='$(abs_top_builddir)/plugins/.libs'; \
	FIXTURE_DIR='$(abs_top_builddir)/tests/fixtures/.libs'; \
	export top_srcdir top_builddir PASSLINE PLUGIN_DIR FIXTURE_DIR;

UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTEST_SRCDIR='"$(abs_top_srcdir)/tests"'
UNIT_LDADD = libpassline.la $(CHECK_LIBS)
EXTRA_DIST += tests/unit/testutil.h

check_PROGRAMS += tests/unit/check_smoke
tests_unit_check_smoke_SOURCES = tests/unit/check_smoke.c
tests_unit_check_smoke_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_smoke_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_smoke

# Golden tests of the passes (see the comment at the top of golden.sh).
TESTS += tests/golden.sh
EXTRA_DIST += tests/golden.sh tests/golden

# Fixture plugins for the loader and CLI tests: one per way a plugin can
# be refused or fail. Built as shared modules but never installed.
FIXTURE_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -rpath /nowhere
EXTRA_DIST += tests/fixtures/fx_common.h
check_LTLIBRARIES += tests/fixtures/FxNotPlugin.la
tests_fixtures_FxNotPlugin_la_SOURCES = tests/fixtures/FxNotPlugin.c
tests_fixtures_FxNotPlugin_la_LDFLAGS = $(FIXTURE_LDFLAGS)
check_LTLIBRARIES += tests/fixtures/FxAbiMajor.la
tests_fixtures_FxAbiMajor_la_SOURCES = tests/fixtures/FxAbiMajor.c
tests_fixtures_FxAbiMajor_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxAbiMajor_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxAbiNewer.la
tests_fixtures_FxAbiNewer_la_SOURCES = tests/fixtures/FxAbiNewer.c
tests_fixtures_FxAbiNewer_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxAbiNewer_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxTooSmall.la
tests_fixtures_FxTooSmall_la_SOURCES = tests/fixtures/FxTooSmall.c
tests_fixtures_FxTooSmall_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxTooSmall_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxNullDesc.la
tests_fixtures_FxNullDesc_la_SOURCES = tests/fixtures/FxNullDesc.c
tests_fixtures_FxNullDesc_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxNullDesc_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxMalformed.la
tests_fixtures_FxMalformed_la_SOURCES = tests/fixtures/FxMalformed.c
tests_fixtures_FxMalformed_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxMalformed_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxUndefined.la
tests_fixtures_FxUndefined_la_SOURCES = tests/fixtures/FxUndefined.c
tests_fixtures_FxUndefined_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxUndefined_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxCreateFails.la
tests_fixtures_FxCreateFails_la_SOURCES = tests/fixtures/FxCreateFails.c
tests_fixtures_FxCreateFails_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxCreateFails_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxRunFails.la
tests_fixtures_FxRunFails_la_SOURCES = tests/fixtures/FxRunFails.c
tests_fixtures_FxRunFails_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxRunFails_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxCrash.la
tests_fixtures_FxCrash_la_SOURCES = tests/fixtures/FxCrash.c
tests_fixtures_FxCrash_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxCrash_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxOptions.la
tests_fixtures_FxOptions_la_SOURCES = tests/fixtures/FxOptions.c
tests_fixtures_FxOptions_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxOptions_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxTwoPasses.la
tests_fixtures_FxTwoPasses_la_SOURCES = tests/fixtures/FxTwoPasses.c
tests_fixtures_FxTwoPasses_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxTwoPasses_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxShared.la
tests_fixtures_FxShared_la_SOURCES = tests/fixtures/FxShared.c
tests_fixtures_FxShared_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxShared_la_LIBADD = libpassline.la
check_LTLIBRARIES += tests/fixtures/FxBreaksIR.la
tests_fixtures_FxBreaksIR_la_SOURCES = tests/fixtures/FxBreaksIR.c
tests_fixtures_FxBreaksIR_la_LDFLAGS = $(FIXTURE_LDFLAGS)
tests_fixtures_FxBreaksIR_la_LIBADD = libpassline.la

# The command line, end to end.
TESTS += tests/cli.sh
EXTRA_DIST += tests/cli.sh tests/tap.sh tests/pir

# Only the ABI is exported (libpassline and every plugin).
TESTS += tests/exports.sh
EXTRA_DIST += tests/exports.sh
