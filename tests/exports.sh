#!/bin/sh
# tests/exports.sh — only the ABI is exported: libpassline exports pl_*
# symbols, all at version PASSLINE_1.0; every plugin exports exactly
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
grep -v '^PASSLINE_1\.0$' "$T/lib.syms" | grep -v '^pl_[a-z0-9_]*@@PASSLINE_1\.0$' >"$T/bad"
[ ! -s "$T/bad" ]
ok $? "libpassline exports only pl_* symbols at PASSLINE_1.0"
[ -s "$T/bad" ] && sed 's/^/# unexpected: /' "$T/bad"
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
