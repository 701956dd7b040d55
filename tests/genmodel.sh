#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/genmodel.sh — the benchmark model generator (bench/pl-genmodel)
# writes modules that parse and verify, in canonical text (printing what was
# parsed gives the same bytes), deterministically per seed, and of the size
# --target-insts asks for. Speaks TAP.

: "${top_builddir:=.}"
GEN="$top_builddir/bench/pl-genmodel"
RT="$top_builddir/bench/pl-roundtrip"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/genmodel.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

echo "1..41"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION COMMAND...: a test per command
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/# /' "$tmp/out" | head -20
	fi
}
insts() { grep -c '^  ' "$1"; }

# (a) parse + verify and (b) fixed point, for both layouts, a few seeds
# and sizes
for layout in per-layer single; do
	flag=
	[ "$layout" = single ] && flag=--single-function
	for spec in "--layers 2 --seed 1" "--layers 3 --seed 42" "--target-insts 20000 --seed 7"; do
		f="$tmp/$layout-$(echo "$spec" | tr -dc 'a-z0-9')"
		# shellcheck disable=SC2086
		if ! "$GEN" $spec $flag -o "$f.pir" 2>"$tmp/out"; then
			not_ok "$layout $spec: generated"
			sed 's/^/# /' "$tmp/out" | head -20
			not_ok "$layout $spec: print(parse(x)) == x"
			continue
		fi
		check "$layout $spec: parses and verifies" "$RT" "$f.pir" "$f.out"
		check "$layout $spec: print(parse(x)) == x" cmp "$f.pir" "$f.out"
	done
done

# (c) deterministic per seed; seeds differ
for flag in "" --single-function; do
	"$GEN" --layers 4 --seed 9 $flag -o "$tmp/d1.pir"
	"$GEN" --layers 4 --seed 9 $flag -o "$tmp/d2.pir"
	"$GEN" --layers 4 --seed 10 $flag -o "$tmp/d3.pir"
	check "same seed, same bytes ${flag:-(per-layer)}" cmp "$tmp/d1.pir" "$tmp/d2.pir"
	check "other seed, other bytes ${flag:-(per-layer)}" \
		sh -c '! cmp -s "$1" "$2"' sh "$tmp/d1.pir" "$tmp/d3.pir"
done

# standard output carries the module and nothing else
"$GEN" --layers 2 --seed 3 >"$tmp/stdout.pir" 2>/dev/null
"$GEN" --layers 2 --seed 3 -o "$tmp/file.pir"
check "writing to standard output gives the same bytes" cmp "$tmp/stdout.pir" "$tmp/file.pir"

# (d) --target-insts 100000 lands within 5%
for flag in "" --single-function; do
	"$GEN" --target-insts 100000 --seed 5 $flag -o "$tmp/big.pir"
	got=$(insts "$tmp/big.pir")
	check "--target-insts 100000 ${flag:-(per-layer)}: $got instructions" \
		test "$got" -ge 95000 -a "$got" -le 105000
done

# the shapes the passes act on are there
"$GEN" --layers 16 --seed 2 -o "$tmp/mix.pir"
missing=
for pat in 'all_gather %[a-z0-9]* {group_id = "dp", factor = 8, fsdp = true}' \
	'reduce_scatter .*fsdp = true, reduce = "add"' \
	'all_reduce .*group_id = "tp", factor = 4, reduce = "add"' \
	'affine_load .*predicate = \["128\*i0 + i1 < [0-9]*"\]' \
	'affine_store ' 'generic_load ' 'generic_store ' 'rms_norm ' \
	'tensor_contract .*domain = \[' 'acme\.gelu ' 'acme\.add '; do
	grep -q "$pat" "$tmp/mix.pir" || missing="$missing [$pat]"
done
check "the module has every op shape the passes act on" test -z "$missing"
[ -n "$missing" ] && echo "# missing:$missing"

# (e) the shapes of a tracing compiler's dump: --unique-attrs gives every
# instruction an op_name and a source line of its own, --long-names names
# values by module path; both still canonical, in both layouts
for flags in "--single-function --unique-attrs" "--unique-attrs --long-names" \
	"--single-function --unique-attrs --long-names"; do
	f="$tmp/u$(echo "$flags" | tr -dc 'a-z')"
	# shellcheck disable=SC2086
	"$GEN" --layers 2 --seed 4 $flags -o "$f.pir"
	check "$flags: print(parse(x)) == x" sh -c '"$1" "$2" "$3" >/dev/null && cmp "$2" "$3"' \
		sh "$RT" "$f.pir" "$f.out"
done
u="$tmp/usinglefunctionuniqueattrs.pir"
lines=$(grep -c '^  ' "$u")
distinct=$(grep '^  ' "$u" | sed -n 's/.*source_line = \([0-9]*\).*/\1/p' | sort -u | wc -l)
check "--unique-attrs: a source line of its own on each of $lines instructions" \
	test "$lines" -eq "$distinct"
check "--unique-attrs: op names carry the layer scope" \
	grep -q 'op_name = "jit(train_step)/layer_1/bwd/reduce_scatter", source_line = [0-9]*} : ' "$u"
check "--long-names: values named by module path" \
	grep -q '^  %model\.transformer\.layers\.1\.fwd\.q = tensor_contract ' "$tmp/uuniqueattrslongnames.pir"

# (f) the shapes of other generators: every kind of attribute unique, op
# names all distinct, large source lines, a huge signature; canonical too
third="--single-function --unique-attrs --unique-attr-kinds --unique-opnames --line-base 1000000000 --huge-signature 300"
for flags in "--unique-attrs --unique-attr-kinds" "--unique-opnames" "--huge-signature 50" "$third"; do
	f="$tmp/k$(echo "$flags" | tr -dc 'a-z0-9')"
	# shellcheck disable=SC2086
	"$GEN" --layers 2 --seed 4 $flags -o "$f.pir"
	check "$flags: print(parse(x)) == x" sh -c '"$1" "$2" "$3" >/dev/null && cmp "$2" "$3"' \
		sh "$RT" "$f.pir" "$f.out"
done
"$GEN" --layers 2 --seed 4 $third -o "$tmp/third.pir"
lines=$(grep -c '^  ' "$tmp/third.pir")
for pat in 'acme\.[a-z_]*_[0-9]* ' 'uid = [0-9]*' 'scale = [0-9.]*' 'tag = "[^"]*"' 'dims = \[[^]]*\]'; do
	distinct=$(grep '^  ' "$tmp/third.pir" | grep -v '^  return' | grep -o "$pat" | sort -u | wc -l)
	check "third-party shape: [$pat] distinct on each of $lines - 1 instructions" \
		test "$distinct" -eq $((lines - 1))
done
check "--line-base: the first source line is the base + 1" \
	grep -q 'source_line = 1000000001[,}]' "$tmp/third.pir"
check "--huge-signature 300: 300 more arguments" \
	test "$(head -1 "$tmp/third.pir" | grep -o '%sig_arg[0-9]*:' | sort -u | wc -l)" -eq 300
# more distinct op names than 16 bits number: the op's number has 24 bits
"$GEN" --single-function --unique-opnames --layers 700 --seed 4 -o "$tmp/ops.pir"
check "--unique-opnames --layers 700: more than 65,536 distinct op names" \
	test "$(grep -o 'acme\.[a-z_]*_[0-9]* ' "$tmp/ops.pir" | sort -u | wc -l)" -gt 65536
check "a module of more than 65,536 op names reads and prints back" \
	sh -c '"$1" "$2" "$3" >/dev/null && cmp "$2" "$3"' sh "$RT" "$tmp/ops.pir" "$tmp/ops.out"
check "--unique-attr-kinds alone exits 2" \
	sh -c '"$1" --unique-attr-kinds >/dev/null 2>&1; test $? -eq 2' sh "$GEN"
check "bad usage exits 2" sh -c '"$1" --layers 0 >/dev/null 2>&1; test $? -eq 2' sh "$GEN"
exit 0
