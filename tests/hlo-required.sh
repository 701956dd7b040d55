#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hlo-required.sh — the attributes XLA's HLO parser requires of an
# opcode are required here too. Each module of tests/hlo/required reads;
# without one of the attributes the table names (its ", NAME=VALUE"
# taken out of the line of 'r'), it is refused at that line, exit 1,
# nothing written, the message naming the attribute.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
R="$top_srcdir/tests/hlo/required"
cd "$T" || exit 99

# without FILE KEY: FILE's text without ", KEY=VALUE" (VALUE up to the
# next ',' outside brackets and quotes, or the end of the line)
without() {
	awk -v key="$2" '{
		s = $0
		k = index(s, ", " key "=")
		if (k) {
			j = k + length(key) + 3
			d = 0
			q = 0
			while (j <= length(s)) {
				c = substr(s, j, 1)
				if (q) {
					if (c == "\"")
						q = 0
				} else if (c == "\"") {
					q = 1
				} else if (c == "{" || c == "[" || c == "(") {
					d++
				} else if (c == "}" || c == "]" || c == ")") {
					if (d == 0)
						break
					d--
				} else if (c == "," && d == 0) {
					break
				}
				j++
			}
			s = substr(s, 1, k - 1) substr(s, j)
		}
		print s
	}' "$1"
}

for f in "$R"/*.hlo; do
	n=$(basename "$f" .hlo)
	rm -f out.hlo
	$P --passes= "$f" -o out.hlo 2>"$n.msg"
	ok $? "$n: reads with every attribute it needs"
	expect_same_file "$n.msg" /dev/null "$n: no message"
done

# FILE LINE OPCODE KEY: the line of 'r' in FILE, as XLA spells its opcode
while read -r n line opc key; do
	without "$R/$n.hlo" "$key" >"$n-$key.hlo"
	! cmp -s "$R/$n.hlo" "$n-$key.hlo"
	ok $? "$n: $key= is taken out"
	rm -f out.hlo
	$P --passes= "$n-$key.hlo" -o out.hlo 2>err </dev/null
	s=$?
	[ "$s" -eq 1 ] && [ ! -e out.hlo ]
	ok $? "$n without $key=: exit 1, nothing written"
	printf "%s\n" "$n-$key.hlo:$line:3: error: 'r' ($opc) has no $key=, which XLA's parser requires" >want
	expect_same_file err want "$n without $key=: the message names it"
done <<'EOF_TABLE'
all-gather 5 all-gather dimensions
all-gather-start 5 all-gather-start dimensions
all-reduce 11 all-reduce to_apply
all-reduce-start 11 all-reduce-start to_apply
async-start 10 async-start calls
batch-norm-grad 9 batch-norm-grad epsilon
batch-norm-grad 9 batch-norm-grad feature_index
batch-norm-inference 9 batch-norm-inference epsilon
batch-norm-inference 9 batch-norm-inference feature_index
batch-norm-training 7 batch-norm-training epsilon
batch-norm-training 7 batch-norm-training feature_index
broadcast 7 broadcast dimensions
call 10 call to_apply
collective-permute 5 collective-permute source_target_pairs
collective-permute-start 5 collective-permute-start source_target_pairs
compare 6 compare direction
concatenate 5 concatenate dimensions
conditional-index 16 conditional branch_computations
conditional-pred 16 conditional true_computation
conditional-pred 16 conditional false_computation
convolution 6 convolution dim_labels
custom-call 5 custom-call custom_call_target
domain 5 domain domain
dynamic-slice 6 dynamic-slice dynamic_slice_sizes
fft 5 fft fft_type
fft 5 fft fft_length
fusion 10 fusion kind
fusion 10 fusion calls
gather 6 gather offset_dims
gather 6 gather collapsed_slice_dims
gather 6 gather start_index_map
gather 6 gather index_vector_dim
gather 6 gather slice_sizes
get-dimension-size 5 get-dimension-size dimensions
get-tuple-element 5 get-tuple-element index
iota 4 iota iota_dimension
map 12 map to_apply
pad 6 pad padding
reduce 12 reduce to_apply
reduce 12 reduce dimensions
reduce-precision 5 reduce-precision exponent_bits
reduce-precision 5 reduce-precision mantissa_bits
reduce-scatter 11 reduce-scatter to_apply
reduce-scatter 11 reduce-scatter dimensions
reduce-scatter-start 11 reduce-scatter-start to_apply
reduce-scatter-start 11 reduce-scatter-start dimensions
reduce-window 12 reduce-window to_apply
reverse 5 reverse dimensions
rng 6 rng distribution
rng-bit-generator 5 rng-bit-generator algorithm
rng-get-and-update-state 4 rng-get-and-update-state delta
scan 13 scan to_apply
scan 13 scan dimensions
scan 13 scan num_carries
scatter 13 scatter update_window_dims
scatter 13 scatter inserted_window_dims
scatter 13 scatter scatter_dims_to_operand_dims
scatter 13 scatter index_vector_dim
scatter 13 scatter to_apply
select-and-scatter 19 select-and-scatter select
select-and-scatter 19 select-and-scatter scatter
set-dimension-size 6 set-dimension-size dimensions
slice 5 slice slice
sort 11 sort dimensions
sort 11 sort to_apply
topk 5 topk k
transpose 5 transpose dimensions
while 17 while condition
while 17 while body
EOF_TABLE
done_testing
