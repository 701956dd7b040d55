#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/threads.sh — -j/--threads: modules large enough to be read by two
# readers (one function holding them all, the second reader beginning in
# it) give the same output, statistics and messages on 1, 2 and 4
# threads; a bad -j is a usage error. Under ThreadSanitizer (configure
# --enable-sanitizers=thread) this is the check of the threads.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
GEN="$top_builddir/bench/pl-genmodel"
cd "$T" || exit 99

# the same module, statistics and messages for every -j
same_for_threads() { # same_for_threads NAME MODULE ARGS...
	name=$1 in=$2
	shift 2
	for j in 1 2 4; do
		# shellcheck disable=SC2086
		$P -j $j "$@" "$in" -o "$name.$j.out" --stats-json "$name.$j.json" 2>"$name.$j.err"
		echo $? >"$name.$j.rc"
	done
	for j in 2 4; do
		for x in out json err rc; do
			if [ -e "$name.1.$x" ] || [ -e "$name.$j.$x" ]; then
				cmp -s "$name.1.$x" "$name.$j.$x"
				ok $? "$name: -j $j gives the same $x as -j 1"
			fi
		done
	done
}

"$GEN" --target-insts 12000 --single-function --unique-attrs --seed 3 -o big.pir
ok $? "generated a module of one function"
size=$(wc -c <big.pir)
[ "$size" -ge 1048576 ]
ok $? "it is large enough for two readers ($size bytes)"
same_for_threads single big.pir -p "$top_srcdir/conf/default.ini"
for j in 1 2; do
	$P -j $j --passes= - -o "stdin.$j.out" <big.pir
	ok $? "-j $j reads the module from standard input"
done
$P -j 1 --passes= big.pir -o file.out
cmp -s stdin.1.out stdin.2.out && cmp -s stdin.1.out file.out
ok $? "standard input read on two threads gives the same module"
"$GEN" --target-insts 12000 --long-names --seed 4 -o layers.pir
same_for_threads layers layers.pir --passes=

# wrong in the second half: an undefined value, a value defined twice
awk 'NR == 9000 { sub(/= [a-z_.]+ %[A-Za-z0-9_.]+/, "= add %not_defined_anywhere") } { print }' \
	big.pir >undef.pir
same_for_threads undef undef.pir --passes=
grep -q "use of undefined value '%not_defined_anywhere'" undef.1.err
ok $? "the undefined value is reported"
first=$(awk 'NR > 100 && /^  %[A-Za-z0-9_.]+ = / { print $1; exit }' big.pir)
awk -v name="$first" 'NR == 10000 { sub(/^  %[A-Za-z0-9_.]+/, "  " name) } { print }' \
	big.pir >redef.pir
same_for_threads redef redef.pir --passes=
grep -q "redefinition of value '$first'" redef.1.err
ok $? "the redefinition is reported"

for bad in 0 257 -1 2x ""; do
	run $P -j "$bad" big.pir -o out.pir
	expect_status 2 "-j '$bad' is a usage error"
	expect_err "--threads takes a number from 1 to 256" "-j '$bad' says what it takes"
done
[ ! -e out.pir ]
ok $? "no output after a usage error"
done_testing
