#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/build.sh HARNESS... — builds the libFuzzer harnesses fuzz/fuzz_NAME
# (`make fuzz-build` calls it with the lists below from fuzz/local.mk).
# The SDK and host sources are compiled once into fuzz/obj, JOBS at a
# time, and linked into every harness, so coverage reaches into the
# library. Environment: CC, FLAGS, JOBS, srcdir, SDK_SOURCES,
# HOST_SOURCES (the pipeline harness; HOST_GENERATED is in the build
# folder), INPROC_SOURCES (default), ASYNC_SOURCES (async), INIH_CFLAGS,
# INIH_LIBS.
set -eu
: "${srcdir:=.}" "${JOBS:=2}"
obj=fuzz/obj
rm -rf "$obj"
mkdir -p "$obj"

# obj_of SOURCE: the object file of a source, named after its path
obj_of() {
	printf '%s/%s.o\n' "$obj" "$(printf '%s' "${1%.c}" | tr '/' '_')"
}

# every C source any harness needs, each once, with its object
sources=
for f in $SDK_SOURCES $HOST_SOURCES $INPROC_SOURCES $ASYNC_SOURCES; do
	case $f in *.c) ;; *) continue ;; esac
	case " $sources " in *" $f "*) continue ;; esac
	sources="$sources $f"
done
for f in $sources; do
	printf '%s\n%s\n' "$srcdir/$f" "$(obj_of "$f")"
done | xargs -n 2 -P "$JOBS" sh -c \
	'echo "  FUZZCC   $0"; $CC $FLAGS $INIH_CFLAGS -c -o "$1" "$0"'
# the generated default pipeline lives in the build folder
$CC $FLAGS -c -o "$obj/host_default_pipeline.o" "$HOST_GENERATED"

objs() {
	for f in "$@"; do
		case $f in *.c) obj_of "$f" ;; esac
	done
}
sdk_objs=$(objs $SDK_SOURCES)
for h in "$@"; do
	extra=
	libs=
	case $h in
	pipeline)
		extra="$(objs $HOST_SOURCES) $obj/host_default_pipeline.o"
		libs="$INIH_LIBS -ldl" ;;
	default) extra=$(objs $INPROC_SOURCES) ;;
	async) extra=$(objs $ASYNC_SOURCES) ;;
	esac
	echo "  FUZZ     fuzz/fuzz_$h"
	# shellcheck disable=SC2086
	$CC $FLAGS -o "fuzz/fuzz_$h" "$srcdir/fuzz/fuzz_$h.c" $sdk_objs $extra $libs
done
