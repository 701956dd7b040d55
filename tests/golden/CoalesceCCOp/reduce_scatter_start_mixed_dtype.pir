// A tuple reduce_scatter start of two dtypes: one flat start per dtype
// where the start was, in order of first appearance (f32 for %p and %r,
// then bf16 for %q and %s), each after its pack; their dones and unpacks
// where the done was, in the same order. Counts are one rank's piece,
// elements / factor 4: %p f32[2,8] -> 4, %r f32[1,4] -> 1 (segment 5,
// f32[20] -> f32[5]); %q bf16[3,4] -> 3, %s bf16[4,8] -> 8 (segment 11,
// bf16[44] -> bf16[11]). The store to %p after the done is not in flight.
func @f(%p: f32[2,8], %q: bf16[3,4], %r: f32[1,4], %s: bf16[4,8], %x: f32[2,8]) {
  %a_s, %b_s, %c_s, %d_s = reduce_scatter_start %p, %q, %r, %s {group_id = "dp", factor = 4, reduce = "add", dimension = 1, id = 9} : (f32[2,2], bf16[3,1], f32[1,1], bf16[4,2])
  %h = tensor_contract %x, %x : f32[2,8]
  %a, %b, %c, %d = reduce_scatter_done %a_s, %b_s, %c_s, %d_s : (f32[2,2], bf16[3,1], f32[1,1], bf16[4,2])
  affine_store %h, %p
  return %a, %b, %c, %d
}
