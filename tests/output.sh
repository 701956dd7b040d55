#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/output.sh — where -o and --stats-json write: a regular file or a
# new name through a temporary file renamed into place; a symbolic link
# followed to its final target (the link stays a link); a device or FIFO
# written in place, never replaced; standard output for one output only;
# -o and --stats-json checked before any pass runs.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
EX="$top_srcdir/examples/fsdp_step.pir"
cd "$T" || exit 99
$P "$EX" -o want.pir 2>/dev/null || exit 99

# leftovers: no temporary file (".NAME.XXXXXX") anywhere under a folder
no_temp_in() {
	[ -z "$(find "$1" -name '.*.??????' -print)" ]
}

# ---- standard output for one output only ----
for args in "--stats-json -" "--stats-json - -o -"; do
	run $P $args "$EX"
	expect_status 2 "$args: the module and the statistics on standard output"
	expect_err "passline: --stats-json - and the module would both go to standard output: give -o FILE for the module, or --stats-json a file" \
		"$args: the message says why and what to do"
	[ ! -s "$T/out" ]
	ok $? "$args: nothing is written"
done
run $P --stats-json same.out -o same.out "$EX"
expect_status 2 "-o and --stats-json naming one file"
expect_err "passline: -o and --stats-json both name same.out" "the message names the file"
[ ! -e same.out ]
ok $? "and it is not written"
run $P --stats-json ./same.out -o "$T/same.out" "$EX"
expect_status 2 "-o and --stats-json naming one new file in two spellings"
[ ! -e same.out ]
ok $? "and it is not written"
echo old >same2.out
ln -s same2.out other.out
run $P --stats-json other.out -o same2.out "$EX"
expect_status 2 "-o and --stats-json naming one file through a link"
[ "$(cat same2.out)" = old ]
ok $? "the file is left as it was"
run $P --stats-json - -o json-apart.pir "$EX"
expect_status 0 "--stats-json - with -o FILE"
grep -q '^{"input": ' "$T/out" && [ "$(wc -l <"$T/out")" -eq 1 ] && cmp -s json-apart.pir want.pir
ok $? "the JSON alone on standard output, the module in its file"
run $P --compare -p "$top_srcdir/conf/compare-neuron.ini" --stats-json - "$EX"
expect_status 2 "--compare's table and --stats-json - on standard output"
expect_err "passline: --stats-json - and --compare's table would both go to standard output: give --stats-json a file" \
	"the message says why"

# ---- -o checked before the pipeline runs ----
# Timeline's picture is what a pass would have written: none of it is.
TL="--passes Timeline,DetailDynInst -O Timeline.svg=tl.svg"
mkdir early
run $P $TL "$EX" -o early/missing/m.pir
expect_status 1 "-o into a missing folder"
expect_err "passline: error: cannot write early/missing/m.pir: No such file or directory" \
	"the message names the output"
expect_no_err "Total flops" "no pass ran (DetailDynInst reports nothing)"
[ -z "$(find early -type f)" ] && [ ! -e tl.svg ]
ok $? "and nothing a pass would write is written"
run $P $TL "$EX" -o early/m.pir --stats-json early/missing/s.json
expect_status 1 "--stats-json into a missing folder"
expect_no_err "Total flops" "no pass ran for an unwritable --stats-json either"
[ -z "$(find early -type f)" ]
ok $? "and nothing is written, the module neither"
if permissions_enforced; then
	mkdir locked && chmod 555 locked
	run $P $TL "$EX" -o locked/m.pir
	expect_status 1 "-o into a folder we may not write"
	expect_err "locked/m.pir: Permission denied" "the message names the output and why"
	expect_no_err "Total flops" "no pass ran"
	chmod 755 locked
else
	for n in 1 2 3; do skip "file permissions are not enforced here (root or fakeroot)"; done
fi
run $P $TL "$EX" -o early/m.pir
expect_status 0 "with a writable -o"
[ -s early/m.pir ] && [ -s early/tl.svg ]
ok $? "the module and the picture are written, the picture beside -o"
no_temp_in .
ok $? "no temporary file is left by any of these runs"

# ---- regular files ----
echo old >reg.pir
run $P "$EX" -o reg.pir
expect_status 0 "-o an existing regular file"
expect_same_file reg.pir want.pir "the regular file holds the module"
no_temp_in .
ok $? "no temporary file is left"

# ---- symbolic links ----
mkdir a b
echo old >b/real.pir
ln -s ../b/real.pir a/link.pir
run $P "$EX" -o a/link.pir
expect_status 0 "-o a symbolic link"
[ -L a/link.pir ] && [ "$(readlink a/link.pir)" = ../b/real.pir ]
ok $? "the link stays a link to the same target"
expect_same_file b/real.pir want.pir "the link's target gets the module"
no_temp_in .
ok $? "no temporary file is left beside the link or the target"

ln -s b/real.pir chain1.pir
ln -s chain1.pir chain2.pir
echo old >b/real.pir
run $P "$EX" -o chain2.pir
expect_status 0 "-o a chain of two links"
[ -L chain2.pir ] && [ -L chain1.pir ]
ok $? "both links stay links"
expect_same_file b/real.pir want.pir "the final target gets the module"

ln -s b/new.pir dangling.pir
run $P "$EX" -o dangling.pir
expect_status 0 "-o a dangling link"
[ -L dangling.pir ] && [ -f b/new.pir ]
ok $? "a dangling link creates its target and stays a link"
expect_same_file b/new.pir want.pir "the created target holds the module"

ln -s loop2.pir loop1.pir
ln -s loop1.pir loop2.pir
run $P "$EX" -o loop1.pir
expect_status 1 "-o a loop of links fails"
expect_err "cannot write loop1.pir: Too many levels of symbolic links" "the loop is named"

# The temporary file is made in the target's folder, not the link's: a
# link in a folder the user cannot write to, pointing into one it can,
# works. (Root writes anywhere; there the link points across file systems
# when another one is at hand, where a rename from the link's folder would
# fail.)
echo old >b/across.pir
mkdir ro
ln -s ../b/across.pir ro/link.pir
if permissions_enforced; then
	chmod 555 ro
	run $P "$EX" -o ro/link.pir
	chmod 755 ro
	expect_status 0 "-o a link in a read-only folder to a file in a writable one"
	expect_same_file b/across.pir want.pir "the target across folders gets the module"
elif really_root; then
	shm=$(mktemp -d /dev/shm/pl-test.XXXXXX 2>/dev/null)
	if [ -n "$shm" ] && [ "$(stat -c %d "$shm")" != "$(stat -c %d .)" ]; then
		echo old >"$shm/across.pir"
		ln -s "$shm/across.pir" across.pir
		run $P "$EX" -o across.pir
		expect_status 0 "-o a link to a file on another file system"
		expect_same_file "$shm/across.pir" want.pir "the target on the other file system gets the module"
		[ -L across.pir ]
		ok $? "the link to another file system stays a link"
	else
		skip "no second file system at hand (/dev/shm) to link across"
	fi
	[ -n "$shm" ] && rm -rf "$shm"
else
	skip "file modes are not enforced here (fakeroot): a link in a read-only folder"
	skip "file modes are not enforced here (fakeroot): the target across folders"
fi

# ---- FIFOs and devices: written in place ----
mkfifo fifo
cat fifo >from-fifo &
reader=$!
run $P "$EX" -o fifo
wait $reader
expect_status 0 "-o a FIFO"
[ -p fifo ]
ok $? "the FIFO is still a FIFO"
expect_same_file from-fifo want.pir "the process reading the FIFO receives the whole module"

mkfifo stats-fifo
cat stats-fifo >from-stats-fifo &
reader=$!
run $P "$EX" -o out.pir --stats-json stats-fifo
wait $reader
expect_status 0 "--stats-json to a FIFO"
[ -p stats-fifo ] && grep -q '"stats"' from-stats-fifo
ok $? "--stats-json writes into the FIFO and leaves it a FIFO"

if really_root && mknod -m 666 null c 1 3 2>/dev/null; then
	run $P "$EX" -o null
	expect_status 0 "-o a character device (made with mknod)"
	[ -c null ]
	ok $? "the character device is still a character device"
	ln -s null null-link
	run $P "$EX" -o null-link
	[ -c null ] && [ -L null-link ]
	ok $? "a link to a character device: both stay what they were"
else
	skip "making a character device needs real root"
	skip "making a character device needs real root"
	skip "making a character device needs real root"
fi

# ---- the promise where it holds ----
echo old >keep.pir
run $P --passes=NoSuchPass "$EX" -o keep.pir
[ "$(cat keep.pir)" = old ]
ok $? "a failing run leaves an existing regular file untouched"
run $P "$EX" -o "$T"
expect_status 1 "-o a folder fails"
expect_err "Is a directory" "the folder is refused with its reason"
done_testing
