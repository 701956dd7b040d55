// reduce_scatter never mixes dtypes: one flat collective per dtype, in order
// of first appearance (f32 for %p and %r, then bf16 for %q and %s), each
// with its own pack/unpack and the tuple's attributes (dimension forced to
// 0). Counts are one rank's piece, elements / factor 4: %p f32[2,8] -> 4,
// %r f32[1,4] -> 1 (f32 segment 5, buffer f32[20] -> f32[5]); %q bf16[3,4]
// -> 3, %s bf16[4,8] -> 8 (segment 11, bf16[44] -> bf16[11]). Each operand
// is cut along dimension 1 (recorded in dimensions).
func @f(%p: f32[2,8], %q: bf16[3,4], %r: f32[1,4], %s: bf16[4,8]) {
  %a, %b, %c, %d = reduce_scatter %p, %q, %r, %s {group_id = "dp", factor = 4, reduce = "add", dimension = 1, id = 9} : (f32[2,2], bf16[3,1], f32[1,1], bf16[4,2])
  return %a, %b, %c, %d
}
