#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pass_files.sh — files a pass hands to the host (pl_ctx_write_file):
# written beside -o (without it, or with -o -, not at all: a warning names
# them), only when the whole run succeeded, never outside that folder; a
# later write of a name replaces an earlier one.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}" "${FIXTURE_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR --plugin-dir $FIXTURE_DIR"
EX="$top_srcdir/examples/fsdp_step.pir"
cd "$T" || exit 99

mkdir o
run $P --passes FxWritesFiles "$EX" -o o/m.pir
expect_status 0 "a pass writes a file"
[ "$(cat o/fx.txt)" = hello ] && [ ! -e fx.txt ]
ok $? "the file lands beside -o, not in the current folder"
[ -z "$(find . -name '.*.??????' -print)" ]
ok $? "no temporary file is left"

mkdir cwd
run_in cwd $P --passes FxWritesFiles "$EX"
expect_status 0 "without -o"
[ ! -e cwd/fx.txt ] && [ -z "$(ls -A cwd)" ]
ok $? "without -o the file is not written, in the current folder or anywhere"
expect_err "passline: warning: not written, as the module goes to standard output (give -o FILE and they go beside it): fx.txt (FxWritesFiles)" \
	"a warning names the file and its pass, and says how to get it"
run_in cwd $P --passes FxWritesFiles "$EX" -o -
[ "$status" -eq 0 ] && [ -z "$(ls -A cwd)" ]
ok $? "nor with -o -"
expect_err "not written, as the module goes to standard output" "with the same warning"
run_in cwd $P -q --passes FxWritesFiles "$EX"
expect_no_err "not written" "-q hides the warning"

run $P --passes FxWritesFiles -O FxWritesFiles.name=sub/../fx2.txt "$EX" -o o/m.pir
[ "$status" -eq 0 ] && [ "$(cat o/fx2.txt)" = hello ]
ok $? "a name with .. that stays inside the folder is written"

# ---- refused names ----
mkdir deep
run $P --passes FxWritesFiles -O FxWritesFiles.name=../x "$EX" -o deep/m.pir
expect_status 4 "../x is refused"
expect_err "FxWritesFiles: cannot write file '../x': the file name leaves the output folder" \
	"the error names the pass, the file and why"
[ ! -e x ] && [ ! -e deep/m.pir ]
ok $? "nothing is written for ../x"

run $P --passes FxWritesFiles -O "FxWritesFiles.name=$T/abs.txt" "$EX" -o o/m2.pir
expect_status 4 "an absolute name is refused"
expect_err "cannot write file '$T/abs.txt': the file name is absolute" "the absolute name is named"
[ ! -e abs.txt ] && [ ! -e o/m2.pir ]
ok $? "nothing is written for an absolute name"

for bad in "" "a/" "." "a/.." "a/../../b"; do
	run $P --passes FxWritesFiles -O "FxWritesFiles.name=$bad" "$EX" -o o/m3.pir
	[ "$status" -eq 4 ] && [ ! -e o/m3.pir ]
	ok $? "name '$bad' is refused"
done

# ---- only after the whole run ----
rm -f o/fx.txt
run $P --passes FxWritesFiles,FxRunFails "$EX" -o o/m4.pir
expect_status 4 "a later pass fails"
[ ! -e o/fx.txt ] && [ ! -e o/m4.pir ]
ok $? "a failing later pass leaves no file"
[ -z "$(find . -name '.*.??????' -print)" ]
ok $? "and no temporary file"

echo old >o/fx.txt
run $P --passes FxWritesFiles "$EX" -o o/m5.pir --verify-each -O FxWritesFiles.text=new
expect_status 0 "an existing file is replaced"
[ "$(cat o/fx.txt)" = new ]
ok $? "it holds the new text"

run $P --passes FxWritesFiles -O FxWritesFiles.name=nodir/f.txt "$EX" -o o/m6.pir
expect_status 1 "a file in a missing folder cannot be written"
expect_err "pass FxWritesFiles: file 'nodir/f.txt' not written" "the error names the pass and the file"
[ ! -e o/m6.pir ]
ok $? "and the module is not written either"

run $P --passes FxWritesFiles -O FxWritesFiles.name=m7.pir "$EX" -o o/m7.pir
expect_status 1 "a file over -o is refused"
expect_err "pass FxWritesFiles: cannot write file 'm7.pir': it is the output o/m7.pir" \
	"the error names the pass, the file and the output"
[ ! -e o/m7.pir ]
ok $? "nothing is written over -o"

# ---- a later write of a name replaces the earlier one ----
run $P --passes FxWritesFiles -O FxWritesFiles.twice=true "$EX" -o o/m8.pir
[ "$status" -eq 0 ] && [ "$(cat o/fx.txt)" = "again hello" ]
ok $? "a pass's second write of a name wins"
cat >two.ini <<'INI'
[pipeline]
name = two
[pass FxWritesFiles]
text = first
[pass FxWritesFiles]
text = second
INI
run $P -p two.ini "$EX" -o o/m9.pir
[ "$status" -eq 0 ] && [ "$(cat o/fx.txt)" = second ]
ok $? "a later pass's write of a name wins"

done_testing
