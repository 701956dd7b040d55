// a gather of a bf16[8,64] shard to bf16[64,64] (8192 bytes) and an
// all-reduce of f32[16] (64 bytes)
func @step(%w: bf16[8,64], %x: f32[16]) {
  %g = all_gather %w {group_id = "dp", factor = 8} : bf16[64,64]
  %s = all_reduce %x {group_id = "tp", factor = 4, reduce = "add"} : f32[16]
  return %g, %s
}
