# Tests. Every test program speaks TAP, so the totals count single tests:
# Check suites print TAP on standard output (srunner_set_tap), shell tests
# write it themselves.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
EXTRA_DIST += build-aux/tap-driver.sh
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
# The round-trip corpus: check_text reads every *.pir in the folder.
EXTRA_DIST += tests/pir/roundtrip

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
