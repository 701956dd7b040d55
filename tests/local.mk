# SPDX-License-Identifier: MIT
# Tests. Every test program speaks TAP, so the totals count single tests:
# Check suites print TAP on standard output (srunner_set_tap), shell tests
# write it themselves.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
EXTRA_DIST += build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
# The tests read nothing outside the build tree: the default pipeline is
# the built-in copy (an installed, edited $(sysconfdir)/passline/default.ini
# must not change their outcome), and no plugin path comes from the
# caller's environment (nor XLA flags). passline runs without libtool's wrapper script
# when the wrapper allows (tests/unwrap.sh says why).
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	PASSLINE='$(abs_top_builddir)/passline'; \
	PLUGIN_DIR='$(abs_top_builddir)/plugins/.libs'; \
	FIXTURE_DIR='$(abs_top_builddir)/tests/fixtures/.libs'; \
	PASSLINE_DEFAULT_PIPELINE=; unset PASSLINE_PLUGIN_PATH XLA_FLAGS XLA_PYTHON_CLIENT_MEM_FRACTION; \
	HLO_DIR='$(HLO_DIR)'; MEMORY_DIR='$(MEMORY_DIR)'; \
	export top_srcdir top_builddir PASSLINE PLUGIN_DIR FIXTURE_DIR PASSLINE_DEFAULT_PIPELINE HLO_DIR \
		MEMORY_DIR; \
	. '$(abs_top_srcdir)/tests/unwrap.sh';
EXTRA_DIST += tests/unwrap.sh

UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTEST_SRCDIR='"$(abs_top_srcdir)/tests"'
UNIT_LDADD = libpassline.la $(CHECK_LIBS)
EXTRA_DIST += tests/unit/testutil.h
# The round-trip corpus: check_text reads every *.pir in the folder.
EXTRA_DIST += tests/pir/roundtrip

# The Check suites, when Check was found; else one skipped test says so.
if HAVE_CHECK
include tests/unit/local.mk

# exact domain counting against enumeration
check_PROGRAMS += tests/unit/check_count_property
tests_unit_check_count_property_SOURCES = tests/unit/check_count_property.c
tests_unit_check_count_property_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_count_property_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_count_property
else
TESTS += tests/unit-tests-not-built.sh
endif
EXTRA_DIST += tests/unit-tests-not-built.sh

# Golden tests of the passes (see the comment at the top of golden.sh).
TESTS += tests/golden.sh
EXTRA_DIST += tests/golden.sh tests/golden

include tests/fixtures/local.mk

# The command line, end to end.
TESTS += tests/cli.sh
EXTRA_DIST += tests/cli.sh tests/tap.sh tests/pir

# A module dumped before SPMD partitioning is costed with a warning.
TESTS += tests/partition.sh
EXTRA_DIST += tests/partition.sh

# passline tune: the search's rules, on a small step and the 70B step.
TESTS += tests/tune.sh
EXTRA_DIST += tests/tune.sh

# The man pages render without a groff warning and document --help.
TESTS += tests/man-pages.sh
EXTRA_DIST += tests/man-pages.sh

# The TAP helpers themselves.
TESTS += tests/tap-selftest.sh
EXTRA_DIST += tests/tap-selftest.sh

# -j/--threads: the same result on any number of threads.
TESTS += tests/threads.sh
EXTRA_DIST += tests/threads.sh
TESTS += tests/threads-real.sh
EXTRA_DIST += tests/threads-real.sh
TESTS += tests/pass-threads.sh
EXTRA_DIST += tests/pass-threads.sh

# Which default pipeline runs, and --print-pipeline naming it.
TESTS += tests/defaults.sh
EXTRA_DIST += tests/defaults.sh

# Where -o and --stats-json write: files, links, FIFOs, devices.
TESTS += tests/output.sh
EXTRA_DIST += tests/output.sh

# Files passes hand to the host: where they land, what is refused.
TESTS += tests/pass_files.sh
EXTRA_DIST += tests/pass_files.sh

# conf/schedule.ini and LatencyHidingScheduler's promises, on the example
# and on real steps.
TESTS += tests/schedule_pipeline.sh
EXTRA_DIST += tests/schedule_pipeline.sh

# The Timeline pass: golden SVG, trace, size, a browser's rendering.
TESTS += tests/timeline.sh
EXTRA_DIST += tests/timeline.sh tests/timeline_check.py tests/timeline_golden

# Last of all: the suite left /dev/null a character device. Its log
# depends on every other test's, so it runs after them.
TESTS += tests/zz-devnull.sh
EXTRA_DIST += tests/zz-devnull.sh
tests/zz-devnull.log: $(TEST_LOGS:tests/zz-devnull.log=)

# Only the ABI is exported (libpassline and every plugin).
TESTS += tests/exports.sh
EXTRA_DIST += tests/exports.sh

# The benchmark model generator writes valid, canonical, deterministic
# modules (bench/pl-genmodel, checked with bench/pl-roundtrip).
TESTS += tests/genmodel.sh
EXTRA_DIST += tests/genmodel.sh

# The catalogue of bad input, through the command line.
TESTS += tests/badinput.sh
EXTRA_DIST += tests/badinput.sh

# The README main job, end to end.
TESTS += tests/e2e.sh
EXTRA_DIST += tests/e2e.sh tests/e2e

# XLA HLO text in and out, on the project's own small modules.
TESTS += tests/hlo.sh
EXTRA_DIST += tests/hlo.sh tests/hlo/step.hlo tests/hlo/step.pir tests/hlo/step.out.hlo \
	tests/hlo/coalesce.pir tests/hlo/coalesce.out.hlo tests/hlo/combiners.tsv \
	tests/hlo/tuples.hlo

# HLO that XLA rejects: one module per rule, with the message it gives.
TESTS += tests/hlo-verify.sh
EXTRA_DIST += tests/hlo/bad/reduce-window-rank.hlo tests/hlo/bad/reduce-window-rank.err \
	tests/hlo/bad/reduce-window-result.hlo tests/hlo/bad/reduce-window-result.err \
	tests/hlo/bad/bitcast-convert-ratio.hlo tests/hlo/bad/bitcast-convert-ratio.err \
	tests/hlo/bad/rng-distribution.hlo tests/hlo/bad/rng-distribution.err \
	tests/hlo/bad/rng-operands.hlo tests/hlo/bad/rng-operands.err \
	tests/hlo/bad/convolution-batch-groups.hlo tests/hlo/bad/convolution-batch-groups.err \
	tests/hlo/bad/reduce-variadic-reducer.hlo tests/hlo/bad/reduce-variadic-reducer.err \
	tests/hlo/bad/reduce-result.hlo tests/hlo/bad/reduce-result.err \
	tests/hlo/bad/reverse-dimensions.hlo tests/hlo/bad/reverse-dimensions.err \
	tests/hlo/bad/reduce-precision-bits.hlo tests/hlo/bad/reduce-precision-bits.err \
	tests/hlo/bad/map-parameters.hlo tests/hlo/bad/map-parameters.err \
	tests/hlo/bad/scatter-window-bounds.hlo tests/hlo/bad/scatter-window-bounds.err \
	tests/hlo/bad/async-start-calls.hlo tests/hlo/bad/async-start-calls.err
# Group sizes as XLA's GetSubgroupSize takes them (empty groups, modes).
EXTRA_DIST += tests/hlo/good/empty-groups.hlo \
	tests/hlo/bad/all-gather-empty-groups.hlo tests/hlo/bad/all-gather-empty-groups.err \
	tests/hlo/bad/all-gather-shards.hlo tests/hlo/bad/all-gather-shards.err \
	tests/hlo/bad/all-to-all-operands.hlo tests/hlo/bad/all-to-all-operands.err \
	tests/hlo/bad/reduce-scatter-partitions.hlo tests/hlo/bad/reduce-scatter-partitions.err
# bitcast, domain, stochastic-convert, select-and-scatter,
# ragged-all-to-all, outfeed_shape.
EXTRA_DIST += tests/hlo/good/last-opcodes.hlo tests/hlo/good/bitcast-no-layouts.hlo \
	tests/hlo/bad/bitcast-bytes.hlo tests/hlo/bad/bitcast-bytes.err \
	tests/hlo/bad/domain-shape.hlo tests/hlo/bad/domain-shape.err \
	tests/hlo/bad/stochastic-convert-bits.hlo tests/hlo/bad/stochastic-convert-bits.err \
	tests/hlo/bad/stochastic-convert-random.hlo tests/hlo/bad/stochastic-convert-random.err \
	tests/hlo/bad/select-and-scatter-source.hlo tests/hlo/bad/select-and-scatter-source.err \
	tests/hlo/bad/select-and-scatter-select.hlo tests/hlo/bad/select-and-scatter-select.err \
	tests/hlo/bad/ragged-all-to-all-offsets.hlo tests/hlo/bad/ragged-all-to-all-offsets.err \
	tests/hlo/bad/ragged-all-to-all-result.hlo tests/hlo/bad/ragged-all-to-all-result.err \
	tests/hlo/bad/outfeed-shape.hlo tests/hlo/bad/outfeed-shape.err
EXTRA_DIST += tests/hlo/good/compare-types.hlo \
	tests/hlo/bad/compare-type-complex.hlo tests/hlo/bad/compare-type-complex.err
EXTRA_DIST += tests/hlo/good/ragged-dot.hlo \
	tests/hlo/bad/ragged-dot-groups.hlo tests/hlo/bad/ragged-dot-groups.err \
	tests/hlo/bad/ragged-dot-result.hlo tests/hlo/bad/ragged-dot-result.err
# Asynchronous and collective start/done shapes (sdk/hlo/verify/async.c).
EXTRA_DIST += tests/hlo/good/async-wrapped.hlo tests/hlo/good/collective-start-done.hlo \
	tests/hlo/bad/all-gather-done-result.hlo tests/hlo/bad/all-gather-done-result.err \
	tests/hlo/bad/all-gather-start-operand.hlo tests/hlo/bad/all-gather-start-operand.err \
	tests/hlo/bad/all-gather-start-result.hlo tests/hlo/bad/all-gather-start-result.err \
	tests/hlo/bad/all-reduce-done-result.hlo tests/hlo/bad/all-reduce-done-result.err \
	tests/hlo/bad/all-reduce-start-shape.hlo tests/hlo/bad/all-reduce-start-shape.err \
	tests/hlo/bad/async-done-result.hlo tests/hlo/bad/async-done-result.err \
	tests/hlo/bad/async-start-operands.hlo tests/hlo/bad/async-start-operands.err \
	tests/hlo/bad/async-start-result.hlo tests/hlo/bad/async-start-result.err \
	tests/hlo/bad/async-update-shape.hlo tests/hlo/bad/async-update-shape.err \
	tests/hlo/bad/collective-permute-done-result.hlo tests/hlo/bad/collective-permute-done-result.err \
	tests/hlo/bad/collective-permute-start-result.hlo tests/hlo/bad/collective-permute-start-result.err \
	tests/hlo/bad/collective-permute-inplace-buffer.hlo tests/hlo/bad/collective-permute-inplace-buffer.err
EXTRA_DIST += tests/hlo/bad/typed-operand-shape.hlo tests/hlo/bad/typed-operand-shape.err \
	tests/hlo/bad/typed-operand-tuple.hlo tests/hlo/bad/typed-operand-tuple.err \
	tests/hlo/bad/layout-malformed-tile.hlo tests/hlo/bad/layout-malformed-tile.err \
	tests/hlo/bad/layout-parts-order.hlo tests/hlo/bad/layout-parts-order.err

# The attributes XLA's parser requires, required: one module per opcode.
TESTS += tests/hlo-required.sh
EXTRA_DIST += tests/hlo-required.sh tests/hlo/required

TESTS += tests/pir-eof.sh
EXTRA_DIST += tests/pir-eof.sh
EXTRA_DIST += tests/hlo-verify.sh tests/hlo/bad/all-gather-size.err \
	tests/hlo/bad/all-gather-size.hlo tests/hlo/bad/all-reduce-shape.err \
	tests/hlo/bad/all-reduce-shape.hlo tests/hlo/bad/broadcast-dimensions.err \
	tests/hlo/bad/broadcast-dimensions.hlo tests/hlo/bad/call-arguments.err \
	tests/hlo/bad/call-arguments.hlo tests/hlo/bad/concatenate-sum.err \
	tests/hlo/bad/concatenate-sum.hlo tests/hlo/bad/dimension-rank.err \
	tests/hlo/bad/dimension-rank.hlo tests/hlo/bad/dot-contracting.err \
	tests/hlo/bad/dot-contracting.hlo tests/hlo/bad/elementwise-count.err \
	tests/hlo/bad/elementwise-count.hlo tests/hlo/bad/elementwise-shapes.err \
	tests/hlo/bad/elementwise-shapes.hlo tests/hlo/bad/iota-product.err \
	tests/hlo/bad/iota-product.hlo tests/hlo/bad/missing-to-apply.err \
	tests/hlo/bad/missing-to-apply.hlo tests/hlo/bad/overlapping-groups.err \
	tests/hlo/bad/overlapping-groups.hlo tests/hlo/bad/permute-pairs.err \
	tests/hlo/bad/permute-pairs.hlo tests/hlo/bad/reduce-dimensions.err \
	tests/hlo/bad/reduce-dimensions.hlo tests/hlo/bad/reduce-scatter-divides.err \
	tests/hlo/bad/reduce-scatter-divides.hlo tests/hlo/bad/reshape-elements.err \
	tests/hlo/bad/reshape-elements.hlo tests/hlo/bad/transpose-shape.err \
	tests/hlo/bad/transpose-shape.hlo tests/hlo/bad/unequal-groups.err \
	tests/hlo/bad/unequal-groups.hlo tests/hlo/bad/unknown-opcode.err \
	tests/hlo/bad/unknown-opcode.hlo tests/hlo/bad/while-body.err \
	tests/hlo/bad/while-body.hlo

# ... slices, selects, conversions, gather, pad, and the computations
# while, conditional, fusion and call run.
EXTRA_DIST += tests/hlo/bad/call-result.err tests/hlo/bad/call-result.hlo \
	tests/hlo/bad/clamp-bounds.err tests/hlo/bad/clamp-bounds.hlo \
	tests/hlo/bad/compare-direction.err tests/hlo/bad/compare-direction.hlo \
	tests/hlo/bad/conditional-branches.err tests/hlo/bad/conditional-branches.hlo \
	tests/hlo/bad/conditional-index.err tests/hlo/bad/conditional-index.hlo \
	tests/hlo/bad/conditional-result.err tests/hlo/bad/conditional-result.hlo \
	tests/hlo/bad/convert-shape.err tests/hlo/bad/convert-shape.hlo \
	tests/hlo/bad/dynamic-slice-indices.err tests/hlo/bad/dynamic-slice-indices.hlo \
	tests/hlo/bad/dynamic-slice-sizes.err tests/hlo/bad/dynamic-slice-sizes.hlo \
	tests/hlo/bad/dynamic-update-slice-update.err \
	tests/hlo/bad/dynamic-update-slice-update.hlo tests/hlo/bad/fusion-parameters.err \
	tests/hlo/bad/fusion-parameters.hlo tests/hlo/bad/fusion-result.err \
	tests/hlo/bad/fusion-result.hlo tests/hlo/bad/gather-collapsed.err \
	tests/hlo/bad/gather-collapsed.hlo tests/hlo/bad/gather-index-map.err \
	tests/hlo/bad/gather-index-map.hlo tests/hlo/bad/gather-slice-sizes.err \
	tests/hlo/bad/gather-slice-sizes.hlo tests/hlo/bad/iota-dimension.err \
	tests/hlo/bad/iota-dimension.hlo tests/hlo/bad/pad-rank.err tests/hlo/bad/pad-rank.hlo \
	tests/hlo/bad/pad-result.err tests/hlo/bad/pad-result.hlo \
	tests/hlo/bad/pad-padding-text.err tests/hlo/bad/pad-padding-text.hlo \
	tests/hlo/bad/select-shapes.err tests/hlo/bad/select-shapes.hlo \
	tests/hlo/bad/slice-bounds.err tests/hlo/bad/slice-bounds.hlo \
	tests/hlo/bad/slice-result.err tests/hlo/bad/slice-result.hlo \
	tests/hlo/bad/while-body-parameter.err tests/hlo/bad/while-body-parameter.hlo \
	tests/hlo/bad/while-body-result.err tests/hlo/bad/while-body-result.hlo \
	tests/hlo/bad/while-condition.err tests/hlo/bad/while-condition.hlo

# ... a convolution's result, dynamic-reshape, collective-broadcast, send,
# recv and their dones (sdk/hlo/verify/window.c, chan.c).
EXTRA_DIST += tests/hlo/good/channels-windows.hlo tests/hlo/good/async-update-collective.hlo \
	tests/hlo/bad/async-update-collective-shape.hlo tests/hlo/bad/async-update-collective-shape.err \
	tests/hlo/bad/async-update-calls.hlo tests/hlo/bad/async-update-calls.err \
	tests/hlo/bad/convolution-result.hlo tests/hlo/bad/convolution-result.err \
	tests/hlo/bad/convolution-window-size.hlo tests/hlo/bad/convolution-window-size.err \
	tests/hlo/bad/dynamic-reshape-elements.hlo tests/hlo/bad/dynamic-reshape-elements.err \
	tests/hlo/bad/dynamic-reshape-sizes.hlo tests/hlo/bad/dynamic-reshape-sizes.err \
	tests/hlo/bad/collective-broadcast-shape.hlo tests/hlo/bad/collective-broadcast-shape.err \
	tests/hlo/bad/send-shape.hlo tests/hlo/bad/send-shape.err \
	tests/hlo/bad/send-done-operand.hlo tests/hlo/bad/send-done-operand.err \
	tests/hlo/bad/recv-done-channel.hlo tests/hlo/bad/recv-done-channel.err \
	tests/hlo/bad/recv-done-data.hlo tests/hlo/bad/recv-done-data.err

# ... what a check against XLA's verifier found missing: exact broadcast
# extents, element types kept, replica groups naming 0..n-1 (all-reduce's
# of any sizes), iota's elements, dot's result, the ops whose value is
# fixed (ids, tokens, copies, dimension sizes), is_host_transfer.
EXTRA_DIST += tests/hlo/good/fixed-values.hlo tests/hlo/good/unary-types.hlo \
	tests/hlo/bad/unary-element-type.hlo tests/hlo/bad/unary-element-type.err \
	tests/hlo/bad/unary-result-type.hlo tests/hlo/bad/unary-result-type.err \
	tests/hlo/bad/concatenate-type.hlo tests/hlo/bad/concatenate-type.err \
	tests/hlo/bad/pad-value-type.hlo tests/hlo/bad/pad-value-type.err \
	tests/hlo/bad/bitcast-convert-complex.hlo tests/hlo/bad/bitcast-convert-complex.err \
	tests/hlo/bad/reduce-precision-type.hlo tests/hlo/bad/reduce-precision-type.err \
	tests/hlo/bad/broadcast-extent.hlo tests/hlo/bad/broadcast-extent.err \
	tests/hlo/bad/broadcast-type.hlo tests/hlo/bad/broadcast-type.err \
	tests/hlo/bad/reshape-type.hlo tests/hlo/bad/reshape-type.err \
	tests/hlo/bad/replica-groups-gap.hlo tests/hlo/bad/replica-groups-gap.err \
	tests/hlo/bad/replica-groups-empty.hlo tests/hlo/bad/replica-groups-empty.err \
	tests/hlo/bad/iota-scalar.hlo tests/hlo/bad/iota-scalar.err \
	tests/hlo/bad/iota-pred.hlo tests/hlo/bad/iota-pred.err \
	tests/hlo/bad/dot-result.hlo tests/hlo/bad/dot-result.err \
	tests/hlo/bad/partition-id-type.hlo tests/hlo/bad/partition-id-type.err \
	tests/hlo/bad/get-dimension-size-dimension.hlo tests/hlo/bad/get-dimension-size-dimension.err \
	tests/hlo/bad/copy-done-shape.hlo tests/hlo/bad/copy-done-shape.err \
	tests/hlo/bad/add-dependency-token.hlo tests/hlo/bad/add-dependency-token.err \
	tests/hlo/bad/send-done-host-transfer.hlo tests/hlo/bad/send-done-host-transfer.err

# ... sort, scatter, convolution and all-to-all.
EXTRA_DIST += tests/hlo/bad/all-to-all-split.err tests/hlo/bad/all-to-all-split.hlo \
	tests/hlo/bad/convolution-groups.err tests/hlo/bad/convolution-groups.hlo \
	tests/hlo/bad/convolution-labels.err tests/hlo/bad/convolution-labels.hlo \
	tests/hlo/bad/convolution-window.err tests/hlo/bad/convolution-window.hlo \
	tests/hlo/bad/scatter-updates.err tests/hlo/bad/scatter-updates.hlo \
	tests/hlo/bad/sort-comparator.err tests/hlo/bad/sort-comparator.hlo

# ... tuple and get-tuple-element (checked as the reader resolves them).
EXTRA_DIST += tests/hlo/bad/get-tuple-element-index.err \
	tests/hlo/bad/get-tuple-element-index.hlo tests/hlo/bad/get-tuple-element-shape.err \
	tests/hlo/bad/get-tuple-element-shape.hlo tests/hlo/bad/tuple-shape.err \
	tests/hlo/bad/tuple-shape.hlo

# HLO cut short: where the file ends, one module per kind of place.
EXTRA_DIST += tests/hlo/bad/eof-attribute.err tests/hlo/bad/eof-attribute.hlo \
	tests/hlo/bad/eof-backend-config.err tests/hlo/bad/eof-backend-config.hlo \
	tests/hlo/bad/eof-body.err tests/hlo/bad/eof-body.hlo tests/hlo/bad/eof-comment.err \
	tests/hlo/bad/eof-comment.hlo tests/hlo/bad/eof-computation-name.err \
	tests/hlo/bad/eof-computation-name.hlo tests/hlo/bad/eof-frames.err \
	tests/hlo/bad/eof-frames.hlo tests/hlo/bad/eof-header.err tests/hlo/bad/eof-header.hlo \
	tests/hlo/bad/eof-layout.err tests/hlo/bad/eof-layout.hlo \
	tests/hlo/bad/eof-metadata.err tests/hlo/bad/eof-metadata.hlo \
	tests/hlo/bad/eof-module.err tests/hlo/bad/eof-module.hlo tests/hlo/bad/eof-name.err \
	tests/hlo/bad/eof-name.hlo tests/hlo/bad/eof-opcode.err tests/hlo/bad/eof-opcode.hlo \
	tests/hlo/bad/eof-operands.err tests/hlo/bad/eof-operands.hlo \
	tests/hlo/bad/eof-reducer.err tests/hlo/bad/eof-reducer.hlo \
	tests/hlo/bad/eof-replica-groups.err tests/hlo/bad/eof-replica-groups.hlo \
	tests/hlo/bad/eof-shape.err tests/hlo/bad/eof-shape.hlo tests/hlo/bad/eof-signature.err \
	tests/hlo/bad/eof-signature.hlo tests/hlo/bad/eof-string.err \
	tests/hlo/bad/eof-string.hlo tests/hlo/bad/eof-tuple.err tests/hlo/bad/eof-tuple.hlo

# The passes leave alone what an async-start, fusion or reducer calls.
TESTS += tests/called-computations.sh
EXTRA_DIST += tests/called-computations.sh tests/hlo/called.hlo

# Every hlo_* key of the table is documented in passline-pir(5), and no other.
TESTS += tests/hlo-keys.sh
EXTRA_DIST += tests/hlo-keys.sh

# The analyses, plugins and host name HLO opcodes through the opcode table:
# at most a few opcode names are left as string literals.
TESTS += tests/hlo-literals.sh
EXTRA_DIST += tests/hlo-literals.sh

# The HLO verifier's files call down their floors (no circle), and no
# function in sdk/hlo is over 100 lines.
TESTS += tests/hlo-verify-layers.sh
EXTRA_DIST += tests/hlo-verify-layers.sh

# HLO written back in the spelling it was read in.
TESTS += tests/hlo-roundtrip.sh
EXTRA_DIST += tests/hlo-roundtrip.sh tests/hlo/form/long.hlo tests/hlo/form/xla.hlo \
	tests/hlo/form/bare.hlo tests/hlo/form/mixed.hlo tests/hlo/form/wrapped.hlo tests/hlo/form/native.hlo \
	tests/hlo/form/lines.hlo tests/hlo/form/paths.hlo \
	tests/hlo/form/unused-gte.hlo tests/hlo/form/named-parts.hlo \
	tests/hlo/form/whole-gte.hlo tests/hlo/form/tuple-order.hlo \
	tests/hlo/form/gte-layout.hlo tests/hlo/form/comments.hlo tests/hlo/form/root-tuple.hlo \
	tests/hlo/form/no-root.hlo tests/hlo/form/root-gte.hlo tests/hlo/form/param-after-gte.hlo \
	tests/hlo/form/nested.hlo tests/hlo/form/bare-gte.hlo tests/hlo/form/anon.hlo \
	tests/hlo/form/no-entry.hlo tests/hlo/form/nomarks.hlo tests/hlo/form/somelayouts.hlo \
	tests/hlo/refused-real.txt

# HLO lines kept as they were written: no pass gives the input byte for
# byte, a pass changes only the lines it rewrites.
TESTS += tests/hlo-kept.sh
EXTRA_DIST += tests/hlo-kept.sh tests/hlo/kept/rsc.hlo tests/hlo/kept/wrapped.hlo tests/hlo/kept/covered.hlo \
	tests/hlo/kept/placed.hlo

# Real XLA HLO, read from HLO_DIR (default: shared/hlo beside the source
# tree, never copied into it): `make check-real-hlo HLO_DIR=...`.
HLO_DIR = $(abs_top_srcdir)/../shared/hlo
EXTRA_DIST += tests/hlo-real.sh
# The fusion model against XLA's fusion on a before/after pair (skipped
# without it).
TESTS += tests/hlo-fusion.sh
EXTRA_DIST += tests/hlo-fusion.sh
check-real-hlo: all
	@$(MAKE) $(AM_MAKEFLAGS) check TESTS='tests/hlo-real.sh tests/hlo-roundtrip.sh tests/xla_combine.sh tests/hlo-fusion.sh tests/compare.sh' \
		HLO_DIR='$(HLO_DIR)'
.PHONY: check-real-hlo

# Peak memory against XLA's memory-usage reports (MEMORY_DIR, default
# shared/memory beside the source tree) and the scanned dumps of HLO_DIR
# (skipped without them).
MEMORY_DIR = $(abs_top_srcdir)/../shared/memory
TESTS += tests/memory.sh
EXTRA_DIST += tests/memory.sh

# passline --compare with the shipped conf/compare-*.ini.
TESTS += tests/compare.sh
EXTRA_DIST += tests/compare.sh tests/compare

# XlaCombineCCOp against XLA's own combiner tests (HLO_DIR/xla-tests;
# skipped without them): the table of counts, XLA's and passline's.
TESTS += tests/xla_combine.sh
EXTRA_DIST += tests/xla_combine.sh tests/xla_combine
# Folders of test data shipped whole. Each sits beside a FOLDER.sh, from
# which make's built-in rule would otherwise try to "build" the folder.
tests/e2e tests/golden tests/xla_combine tests/compare:
	@:

# What plugin authors rely on: errors fail the pass, statistics are named,
# shadowed plugins are marked, older plugins stay within their tables.
TESTS += tests/plugin-api.sh
EXTRA_DIST += tests/plugin-api.sh
# The pipeline's cost model: [cost_model], -O cost_model.KEY=VALUE.
TESTS += tests/cost_model.sh
EXTRA_DIST += tests/cost_model.sh
# every key of the cost model within its physical bound, the manual and the
# fit against the table, collectives across nodes
TESTS += tests/cost_keys.sh
EXTRA_DIST += tests/cost_keys.sh
# Loops and calls: trip_counts on the command line, the per-function file.
TESTS += tests/loops.sh
EXTRA_DIST += tests/loops.sh tests/loops

# CollectivePipeliner and DoubleBufferLoopUnrolling: goldens, XLA's
# reasons, XLA's test modules and every scanned step read back.
TESTS += tests/pipeliner.sh
EXTRA_DIST += tests/pipeliner.sh tests/pipeliner

# Passes that move or merge collectives keep them in their functions.
TESTS += tests/boundaries.sh
EXTRA_DIST += tests/boundaries.sh

# The presets on measured rows through passline agree with the fitted formula.
TESTS += tests/cost_bench.sh
EXTRA_DIST += tests/cost_bench.sh

# SplitAsyncCCOp at scale (linear, deterministic).
TESTS += tests/split_async.sh
EXTRA_DIST += tests/split_async.sh

# OverlapBucketCCOp on random asynchronous modules: the output verifies,
# hiding stays inside buckets and unenclosed, the run is deterministic, and
# its exposed-time statistics agree with an independent simulation.
check_PROGRAMS += tests/pl-genasync tests/overlap-check
tests_pl_genasync_SOURCES = tests/pl-genasync.c
tests_overlap_check_SOURCES = tests/overlap-check.c
tests_overlap_check_LDADD = libpassline.la
# run once per seed: linked to run in place, without libtool's wrapper
tests_overlap_check_LDFLAGS = $(AM_LDFLAGS) -no-install
TESTS += tests/overlap.sh
EXTRA_DIST += tests/overlap.sh
# XlaCombineCCOp on the same random modules: valid, repeatable, counted.
TESTS += tests/xla_combine_props.sh
EXTRA_DIST += tests/xla_combine_props.sh

# conf/overlap.ini end to end on the bundled example.
TESTS += tests/overlap_pipeline.sh
EXTRA_DIST += tests/overlap_pipeline.sh

# ... the element types of binary ops, compare's direction, type= and
# operands, clamp's bounds, slice's element type.
EXTRA_DIST += tests/hlo/good/binary-types.hlo \
	tests/hlo/bad/binary-logical-type.hlo tests/hlo/bad/binary-logical-type.err \
	tests/hlo/bad/binary-pred.hlo tests/hlo/bad/binary-pred.err \
	tests/hlo/bad/complex-result.hlo tests/hlo/bad/complex-result.err \
	tests/hlo/bad/compare-type.hlo tests/hlo/bad/compare-type.err \
	tests/hlo/bad/compare-operand-types.hlo tests/hlo/bad/compare-operand-types.err \
	tests/hlo/bad/clamp-type.hlo tests/hlo/bad/clamp-type.err \
	tests/hlo/bad/slice-type.hlo tests/hlo/bad/slice-type.err

# ... the devices replica groups name against the module's replica_count
# and num_partitions, in the collective's mode.
EXTRA_DIST += tests/hlo/good/device-counts.hlo \
	tests/hlo/bad/replica-count.hlo tests/hlo/bad/replica-count.err \
	tests/hlo/bad/num-partitions.hlo tests/hlo/bad/num-partitions.err \
	tests/hlo/bad/flattened-ids-empty.hlo tests/hlo/bad/flattened-ids-empty.err \
	tests/hlo/bad/global-ids-channel.hlo tests/hlo/bad/global-ids-channel.err \
	tests/hlo/bad/permute-device-range.hlo tests/hlo/bad/permute-device-range.err

# ... the ops whose result XLA infers from a few attributes: batch-norm,
# fft, topk, cholesky, triangular-solve (sdk/hlo/verify/infer.c).
EXTRA_DIST += tests/hlo/good/inferred-shapes.hlo \
	tests/hlo/bad/batch-norm-scale.hlo tests/hlo/bad/batch-norm-scale.err \
	tests/hlo/bad/batch-norm-feature-index.hlo tests/hlo/bad/batch-norm-feature-index.err \
	tests/hlo/bad/batch-norm-grad-result.hlo tests/hlo/bad/batch-norm-grad-result.err \
	tests/hlo/bad/fft-rfft-result.hlo tests/hlo/bad/fft-rfft-result.err \
	tests/hlo/bad/fft-type.hlo tests/hlo/bad/fft-type.err \
	tests/hlo/bad/topk-k.hlo tests/hlo/bad/topk-k.err \
	tests/hlo/bad/topk-indices.hlo tests/hlo/bad/topk-indices.err \
	tests/hlo/bad/cholesky-square.hlo tests/hlo/bad/cholesky-square.err \
	tests/hlo/bad/triangular-solve-rhs.hlo tests/hlo/bad/triangular-solve-rhs.err

# ... a copy-start written without its shape (the reader took the
# operand's shape; XLA's is (operand, operand, u32[])).
EXTRA_DIST += tests/hlo/bad/copy-start-shape.hlo tests/hlo/bad/copy-start-shape.err
# an error after nested instructions, and in one, is placed exactly
EXTRA_DIST += tests/hlo/bad/nested-then-shape.hlo tests/hlo/bad/nested-then-shape.err \
	tests/hlo/bad/nested-operand-shape.hlo tests/hlo/bad/nested-operand-shape.err

# XLA's flags (XLA_FLAGS, --xla-flags) and conf/xla-gpu.ini.
TESTS += tests/xla_flags.sh
EXTRA_DIST += tests/xla_flags.sh tests/hlo/xla_flags.hlo

# ReduceScatterCreator: XLA's own test cases and each of its refusals, as
# hand-checked HLO goldens.
TESTS += tests/reduce_scatter_creator.sh
EXTRA_DIST += tests/reduce_scatter_creator.sh tests/hlo/reduce_scatter_creator
# ... and on the real steps of HLO_DIR/dumps, against an independent
# reference (skipped without them).
TESTS += tests/reduce_scatter_creator_real.sh
EXTRA_DIST += tests/reduce_scatter_creator_real.sh tests/reduce_scatter_reference.py
