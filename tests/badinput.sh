#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/badinput.sh — the catalogue of bad input, through the command line:
# for each, the exact diagnostic, the exit status, and that the output file
# given with -o is left exactly as it was (no temporary file either).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}"
P="$PASSLINE"
cd "$T" || exit 99

# bad NAME STATUS MESSAGE ARGS... : runs passline ARGS -o out.pir where
# out.pir already holds "precious"; checks status, the full standard error
# and that out.pir is untouched.
bad() {
	name=$1
	want_status=$2
	want_err=$3
	shift 3
	echo precious >out.pir
	run "$P" "$@" -o out.pir
	expect_status "$want_status" "$name"
	expect_err_exactly "$want_err" "$name: message"
	[ "$(cat out.pir)" = precious ] && [ -z "$(find . -name '.out.pir.*')" ]
	ok $? "$name: the output file is untouched"
}

# -- text --
: >empty.pir
run "$P" --passes= empty.pir -o empty.out
expect_status 0 "an empty file is a valid empty module"
[ -f empty.out ] && [ ! -s empty.out ]
ok $? "an empty module prints as nothing"

printf 'func @f() {\n  acme.x {a = 1}\n' >trunc.pir
bad "input truncated inside a function" 1 "trunc.pir:3:1: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'" --passes= trunc.pir
printf 'func @f() {\n  %%a = acme.x {a = [1, 2' >trunc2.pir
bad "input truncated inside a list" 1 "trunc2.pir:2:25: error: file ends inside the list (opened at 2:20): expected ',' or ']' in list" --passes= trunc2.pir
printf 'func @f() {\n  %%a = acme.x : f32[' >trunc3.pir
bad "input truncated inside a type" 1 "trunc3.pir:2:21: error: file ends inside the type (opened at 2:17): expected an integer extent" --passes= trunc3.pir
printf 'func @f() {\n  acme.x {s = "abc' >trunc4.pir
bad "input truncated inside a string" 1 "trunc4.pir:2:19: error: file ends inside the string (opened at 2:15): expected the closing '\"'" --passes= trunc4.pir
printf 'func @f() {\n  acme.x\000\n}\n' >nul.pir
bad "a NUL byte" 1 "nul.pir:2:9: error: NUL byte in input" --passes= nul.pir
printf 'func @f() {\n  acme.x {s = "\377"}\n}\n' >utf8.pir
bad "invalid UTF-8 in a string" 1 "utf8.pir:2:16: error: invalid UTF-8 byte 0xff" --passes= utf8.pir
printf '// caf\303\n' >utf8c.pir
bad "invalid UTF-8 in a comment" 1 "utf8c.pir:1:7: error: invalid UTF-8 sequence" --passes= utf8c.pir

# a 1 MB name and a 1 MB line are fine
name=$(head -c 1048576 /dev/zero | tr '\0' n)
printf 'func @f() {\n  %%%s = acme.x : f32[]\n  return %%%s\n}\n' "$name" "$name" >bigname.pir
run "$P" --passes= bigname.pir -o bigname.out
expect_status 0 "a 1 MB value name"
cmp -s bigname.pir bigname.out
ok $? "a 1 MB value name round-trips"
line=$(head -c 1048576 /dev/zero | tr '\0' x)
printf 'func @f() {\n  acme.x {s = "%s"}\n}\n' "$line" >bigline.pir
run "$P" --passes= bigline.pir -o bigline.out
expect_status 0 "a 1 MB line"
cmp -s bigline.pir bigline.out
ok $? "a 1 MB line round-trips"

# attribute lists nested 100,000 deep: an error, never a stack overflow
{
	printf 'func @f() {\n  acme.x {a = '
	head -c 100000 /dev/zero | tr '\0' '['
	head -c 100000 /dev/zero | tr '\0' ']'
	printf '}\n}\n'
} >deep.pir
bad "lists nested 100,000 deep" 1 "deep.pir:2:271: error: attribute values nested deeper than 256" --passes= deep.pir

printf 'func @f() {\n  acme.x {a = 9223372036854775808}\n}\n' >bigint.pir
bad "an integer beyond int64" 1 "bigint.pir:2:15: error: integer literal out of range of int64" --passes= bigint.pir
printf 'func @f() {\n  acme.x {a = -9223372036854775809}\n}\n' >bigneg.pir
bad "a negative integer beyond int64" 1 "bigneg.pir:2:15: error: integer literal out of range of int64" --passes= bigneg.pir
printf 'func @f(%%x: f32[4294967296,4294967296]) {\n  return\n}\n' >shape.pir
bad "a shape whose element count overflows" 1 "shape.pir:1:1: error: function @f: argument 0 has a type whose size overflows int64" --passes= shape.pir
printf 'func @f() {\n  acme.x {domain = [4294967296, 4294967296]}\n}\n' >domain.pir
bad "a domain whose product overflows" 1 "domain.pir:2:3: error: 'acme.x': the product of 'domain' overflows int64" --passes= domain.pir
printf 'func @f() {\n  acme.x {num_dynamic_instances = -1}\n}\n' >ndi.pir
bad "a negative num_dynamic_instances" 1 "ndi.pir:2:3: error: 'acme.x': attribute 'num_dynamic_instances' must not be negative" --passes= ndi.pir
printf 'func @f() {\n  %%a = acme.x %%b : f32[]\n  %%b = acme.y : f32[]\n}\n' >usedef.pir
bad "a use before the definition" 1 "usedef.pir:2:15: error: use of undefined value '%b'" --passes= usedef.pir
printf 'func @f() {\n  %%a = acme.x : f32[]\n  %%a = acme.y : f32[]\n}\n' >redef.pir
bad "a redefinition" 1 "redef.pir:3:3: error: redefinition of value '%a'" --passes= redef.pir
printf 'func @f() {\n  %%a, %%b = acme.x : f32[]\n}\n' >count.pir
bad "a type count mismatch" 1 "count.pir:2:19: error: 2 results but 1 type" --passes= count.pir
printf 'func @f(%%x: f33[4]) {\n  return\n}\n' >dtype.pir
bad "an unknown dtype" 1 "dtype.pir:1:13: error: unknown dtype 'f33'" --passes= dtype.pir
printf 'func @f() {\n  acme.x {domain = [4, 4], predicate = ["i2 < 3"]}\n}\n' >pred.pir
bad "a predicate naming an index the domain lacks" 1 \
	"pred.pir:2:3: error: 'acme.x': predicate constraint 0 \"i2 < 3\", column 1: index variable not in the domain" \
	--passes= pred.pir
bad "a missing input" 1 "missing.pir: error: cannot open: No such file or directory" --passes= missing.pir
mkdir folder.pir
bad "a folder as input" 1 "folder.pir: error: cannot read: Is a directory" --passes= folder.pir

# -- pipelines and plugins --
bad "a missing pipeline file" 1 "nope.ini: error: cannot open pipeline file: No such file or directory" -p nope.ini empty.pir
mkdir folder.ini
bad "a folder as pipeline file" 1 "folder.ini: error: cannot read pipeline file: Is a directory" -p folder.ini empty.pir
printf '\177ELF\002\001\001\000\000\000' >binary.ini
bad "a binary pipeline file" 1 "binary.ini:1: error: NUL byte: this is not a pipeline file" -p binary.ini empty.pir
printf '[pass NoSuchPass]\n' >unknown.ini
echo precious >out.pir
run "$P" --plugin-dir "$T" -p unknown.ini empty.pir -o out.pir
expect_status 1 "a pipeline naming an unknown pass"
expect_err "unknown.ini:1: error: unknown pass 'NoSuchPass': no NoSuchPass.so in the plugin search path (searched: $T, " \
	"a pipeline naming an unknown pass: message, with the folders searched"
[ "$(wc -l <"$T/err")" -eq 1 ]
ok $? "a pipeline naming an unknown pass: one line"
[ "$(cat out.pir)" = precious ] && [ -z "$(find . -name '.out.pir.*')" ]
ok $? "a pipeline naming an unknown pass: the output file is untouched"
echo "not a plugin" >text.so
printf '[pass Text]\nplugin = text.so\n' >text.ini
bad "plugin = a text file" 3 "passline: error: cannot load plugin $T/text.so: not a shared object (no ELF header)" -p text.ini empty.pir
mkdir dir.so
printf '[pass Dir]\nplugin = dir.so\n' >dir.ini
bad "plugin = a folder" 3 "passline: error: cannot load plugin $T/dir.so: is a directory, not a plugin" -p dir.ini empty.pir
printf '[pass Gone]\nplugin = gone.so\n' >gone.ini
bad "plugin = a missing file" 3 "passline: error: cannot load plugin $T/gone.so: No such file or directory" -p gone.ini empty.pir

# -- outputs --
run "$P" --passes= empty.pir -o no/such/dir/out.pir
expect_status 1 "-o into a missing folder"
expect_err_exactly "passline: error: cannot write no/such/dir/out.pir: No such file or directory" "-o into a missing folder: message"
mkdir -p ro
echo precious >ro/out.pir
chmod 555 ro
if really_root && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"
	chmod 644 empty.pir
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$P" --passes= "$T/empty.pir" -o "$T/ro/out.pir"
elif permissions_enforced; then
	run "$P" --passes= "$T/empty.pir" -o "$T/ro/out.pir"
else
	status=skip
fi
if [ "$status" = skip ]; then
	skip "file modes are not enforced here (fakeroot): -o into an unwritable folder"
	skip "file modes are not enforced here (fakeroot): its message"
	skip "file modes are not enforced here (fakeroot): the old file stays"
else
	expect_status 1 "-o into a folder we may not write"
	expect_err "cannot write $T/ro/out.pir: Permission denied" "-o into an unwritable folder: message"
	[ "$(cat ro/out.pir)" = precious ]
	ok $? "-o into an unwritable folder leaves the old file"
fi
chmod 755 ro

done_testing
