# SPDX-License-Identifier: MIT
# libpassline: the SDK every plugin and the host link against.
lib_LTLIBRARIES += libpassline.la
# One folder per part (each has a README saying what it holds and what it
# may call): ir/ the core, pass/ the plugin-facing context, text/ the .pir
# reader and printer, hlo/ XLA HLO text, verify/ the verifier, analysis/
# counting, cost and schedule.
libpassline_la_SOURCES = \
	sdk/ir/internal.h \
	sdk/ir/arena.c sdk/ir/arena.h \
	sdk/ir/region.c sdk/ir/region.h \
	sdk/ir/attr.c \
	sdk/ir/count_memo.c sdk/ir/count_memo.h \
	sdk/ir/diag.c \
	sdk/ir/hlo_keys.c sdk/ir/hlo_keys.h sdk/ir/name_list.h \
	sdk/ir/hlo_opcodes.c sdk/ir/hlo_opcodes.h \
	sdk/ir/helpers.c \
	sdk/ir/input.c sdk/ir/input.h \
	sdk/ir/inst.c \
	sdk/ir/module.c \
	sdk/ir/names.c \
	sdk/ir/ops.c \
	sdk/ir/strbuf.c \
	sdk/pass/ctx.c \
	sdk/pass/desc.c \
	sdk/pass/file_name.c \
	sdk/pass/options.c \
	sdk/text/lex.c sdk/text/lex.h \
	sdk/text/parse.c sdk/text/parse.h \
	sdk/text/read.c \
	sdk/text/splice.c \
	sdk/text/print.c sdk/text/print.h \
	sdk/text/print_threads.c \
	sdk/hlo/hlo.h sdk/hlo/hlo_read.c sdk/hlo/hlo_read.h sdk/hlo/hlo_write.c \
	sdk/hlo/hlo_kept.c sdk/hlo/hlo_kept.h \
	sdk/hlo/hlo_shape.c sdk/hlo/hlo_shape.h \
	sdk/hlo/verify/hlo_verify.h sdk/hlo/verify/verify.c sdk/hlo/verify/checks.h \
	sdk/hlo/verify/hv.h sdk/hlo/verify/diag.c sdk/hlo/verify/attrs.c \
	sdk/hlo/verify/groups.c sdk/hlo/verify/common.c \
	sdk/hlo/verify/calls.c sdk/hlo/verify/shapes.c sdk/hlo/verify/slices.c \
	sdk/hlo/verify/elem.c sdk/hlo/verify/reduce.c sdk/hlo/verify/window.c \
	sdk/hlo/verify/coll.c sdk/hlo/verify/async.c sdk/hlo/verify/chan.c \
	sdk/hlo/verify/fixed.c sdk/hlo/verify/infer.c \
	sdk/hlo/hlo_eof.c sdk/hlo/hlo_eof.h \
	sdk/verify/verify.c \
	sdk/analysis/predicate.c \
	sdk/analysis/cost.c sdk/analysis/cost_model.h sdk/analysis/cost_keys.def \
	sdk/analysis/cost_presets.c \
	sdk/analysis/cost_time.c \
	sdk/analysis/cost_groups.c sdk/analysis/cost_groups.h \
	sdk/analysis/schedule.c sdk/analysis/schedule.h sdk/analysis/memory.h \
	sdk/analysis/memory.c sdk/analysis/memory_rules.c \
	sdk/analysis/memory_step.c \
	sdk/analysis/callgraph.c sdk/analysis/name_list.h sdk/analysis/callee.c \
	sdk/analysis/rewritable.c \
	sdk/analysis/fusion.c sdk/analysis/fusion.h
EXTRA_DIST += sdk/README.md sdk/ir/README.md sdk/pass/README.md sdk/text/README.md \
	sdk/hlo/README.md sdk/hlo/verify/README.md sdk/verify/README.md sdk/analysis/README.md
# The library's own headers are named by their folder: "ir/internal.h".
libpassline_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/sdk
# Calls inside the library bind to the library's own functions (nothing
# interposes them: the version script fixes the ABI), so they can be
# inlined instead of going through the PLT.
libpassline_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -fno-semantic-interposition
libpassline_la_LDFLAGS = $(AM_LDFLAGS) -no-undefined \
	-version-info $(PL_LT_VERSION_INFO) \
	-Wl,--version-script=$(srcdir)/sdk/libpassline.sym
# the cost model takes square roots and rounds (libm)
libpassline_la_LIBADD = $(LIBM)
EXTRA_libpassline_la_DEPENDENCIES = sdk/libpassline.sym
EXTRA_DIST += sdk/libpassline.sym sdk/passline.pc.in

passlineincludedir = $(includedir)/passline
passlineinclude_HEADERS = \
	sdk/include/passline/callgraph.h \
	sdk/include/passline/common.h \
	sdk/include/passline/cost.h \
	sdk/include/passline/diag.h \
	sdk/include/passline/fusion.h \
	sdk/include/passline/grow.h \
	sdk/include/passline/hash_table.h \
	sdk/include/passline/hlo_ops.h \
	sdk/include/passline/host.h \
	sdk/include/passline/ir.h \
	sdk/include/passline/ops.h \
	sdk/include/passline/passline.h \
	sdk/include/passline/plugin.h \
	sdk/include/passline/predicate.h \
	sdk/include/passline/text.h \
	sdk/include/passline/u128.h \
	sdk/include/passline/verify.h
nodist_passlineinclude_HEADERS = sdk/include/passline/version.h

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = sdk/passline.pc
