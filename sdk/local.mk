# SPDX-License-Identifier: MIT
# libpassline: the SDK every plugin and the host link against.
lib_LTLIBRARIES += libpassline.la
libpassline_la_SOURCES = \
	sdk/internal.h \
	sdk/arena.c sdk/arena.h \
	sdk/region.c sdk/region.h \
	sdk/attr.c \
	sdk/cost.c \
	sdk/ctx.c \
	sdk/desc.c \
	sdk/diag.c \
	sdk/file_name.c \
	sdk/hlo.h sdk/hlo_read.c sdk/hlo_write.c \
	sdk/inst.c \
	sdk/module.c \
	sdk/names.c \
	sdk/ops.c \
	sdk/options.c \
	sdk/parse.c sdk/parse.h \
	sdk/read.c \
	sdk/splice.c \
	sdk/lex.c \
	sdk/lex.h \
	sdk/hash_table.h \
	sdk/grow.h \
	sdk/predicate.c \
	sdk/print.c sdk/print.h \
	sdk/print_threads.c \
	sdk/schedule.c \
	sdk/strbuf.c \
	sdk/verify.c
# Calls inside the library bind to the library's own functions (nothing
# interposes them: the version script fixes the ABI), so they can be
# inlined instead of going through the PLT.
libpassline_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -fno-semantic-interposition
libpassline_la_LDFLAGS = $(AM_LDFLAGS) -no-undefined \
	-version-info $(PL_LT_VERSION_INFO) \
	-Wl,--version-script=$(srcdir)/sdk/libpassline.sym
EXTRA_libpassline_la_DEPENDENCIES = sdk/libpassline.sym
EXTRA_DIST += sdk/libpassline.sym sdk/passline.pc.in

passlineincludedir = $(includedir)/passline
passlineinclude_HEADERS = \
	sdk/include/passline/common.h \
	sdk/include/passline/cost.h \
	sdk/include/passline/diag.h \
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
