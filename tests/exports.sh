#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/exports.sh — only the ABI is exported: libpassline exports pl_*
# symbols, each at the version node sdk/libpassline.sym lists it in (the
# first release's at PASSLINE_1.0); every plugin exports exactly
# pl_plugin_entry_v1. Reads the built objects with nm.
. "$top_srcdir/tests/tap.sh"
: "${PLUGIN_DIR:?}"
lib=$(ls "$top_builddir"/.libs/libpassline.so.1.* 2>/dev/null | head -n 1)
[ -n "$lib" ]
ok $? "libpassline.so.1 is built"

# defined dynamic symbols, with their version: "name@@VERSION"
nm -D --defined-only --with-symbol-versions "$lib" | awk '{print $3}' >"$T/lib.syms"
[ "$(grep -c . "$T/lib.syms")" -gt 100 ]
ok $? "libpassline exports its API ($(grep -c . "$T/lib.syms") symbols)"
# the names each later node lists: "name VERSION"
awk '/^PASSLINE_[0-9.]+ *\{/ { node = $1 } node != "" && node != "PASSLINE_1.0" &&
	/^[ \t]*pl_[a-z0-9_]*;/ { gsub(/[ \t;]/, ""); print $0 "@@" node }' \
	"$top_srcdir/sdk/libpassline.sym" | sort >"$T/later"
[ -s "$T/later" ]
ok $? "sdk/libpassline.sym lists the functions added after 1.0"
grep -v '^PASSLINE_1\.[0-9]*$' "$T/lib.syms" | grep -v '^pl_[a-z0-9_]*@@PASSLINE_1\.0$' |
	sort >"$T/lib.later"
cmp -s "$T/later" "$T/lib.later"
ok $? "libpassline exports pl_* at PASSLINE_1.0 and exactly the later nodes' names at theirs"
cmp -s "$T/later" "$T/lib.later" || diff "$T/later" "$T/lib.later" | sed 's/^/# /'
# a function added later and not listed in its node would fall under
# PASSLINE_1.0's wildcard: 1.0 holds exactly the functions of the 1.0 dump
sed -n "s/.*<elf-symbol name='\(pl_[a-z0-9_]*\)'.*/\1@@PASSLINE_1.0/p" \
	"$top_srcdir/abi/libpassline-1.0.abi" | sort -u >"$T/v10"
grep '@@PASSLINE_1\.0$' "$T/lib.syms" | sort >"$T/lib.v10"
cmp -s "$T/v10" "$T/lib.v10"
ok $? "PASSLINE_1.0 holds exactly the functions of abi/libpassline-1.0.abi"
cmp -s "$T/v10" "$T/lib.v10" || diff "$T/v10" "$T/lib.v10" | sed 's/^/# /'
grep -q '^pl_[a-z0-9_]*_$\|^pl_[a-z0-9_]*_@' "$T/lib.syms"
[ $? -ne 0 ]
ok $? "no internal pl_*_ helper leaks out"
objdump -p "$lib" | grep -q 'SONAME *libpassline\.so\.1$'
ok $? "the SONAME is libpassline.so.1"

for so in "$PLUGIN_DIR"/*.so; do
	name=$(basename "$so")
	nm -D --defined-only "$so" | awk '{print $3}' >"$T/p.syms"
	printf 'pl_plugin_entry_v1\n' | cmp -s - "$T/p.syms"
	ok $? "$name exports only pl_plugin_entry_v1"
	objdump -p "$so" | grep -q 'NEEDED *libpassline\.so\.1$'
	ok $? "$name links libpassline.so.1"
done
done_testing
