// One pending run per kind: all_gathers, reduce_scatters and all_reduces
// interleave without flushing each other, and the tensor_contract between
// them flushes nothing. Each kind merges at its first member's place; the
// remarks come from the end-of-function flush, kind by kind.
func @f(%w0: bf16[2], %w1: bf16[2], %g0: f32[8], %g1: f32[8], %x: f32[4], %y: f32[4]) {
  %a0 = all_gather %w0 {group_id = "dp", factor = 4} : bf16[8]
  %r0 = reduce_scatter %g0 {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %t = tensor_contract %x, %y : f32[4]
  %s0 = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[4]
  %a1 = all_gather %w1 {group_id = "dp", factor = 4} : bf16[8]
  %r1 = reduce_scatter %g1 {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %s1 = all_reduce %y {group_id = "tp", factor = 2, reduce = "add"} : f32[4]
  return %a0, %a1, %r0, %r1, %s0, %s1, %t
}
