// A small training step for passline --compare: three FSDP gathers (two
// bf16 along dimension 0, one f32 along dimension 1) on either side of
// compute, and two tensor-parallel all-reduces, the second depending on
// the first. Adjacent bucketing stops at the change of dimension; XLA's
// combiner (combine_by_dim = false) merges all three gathers.
func @step(%x: f32[64,256], %w0: bf16[64,256], %w1: bf16[64,256], %w2: f32[256,64], %g: f32[256,256]) {
  %a = all_gather %w0 {group_id = "dp", factor = 4, fsdp = true} : bf16[256,256]
  %h = tensor_contract %x, %g {domain = [64, 256, 256]} : f32[64,256]
  %b = all_gather %w1 {group_id = "dp", factor = 4, fsdp = true} : bf16[256,256]
  %c = all_gather %w2 {group_id = "dp", factor = 4, dimension = 1, fsdp = true} : f32[256,256]
  %r = all_reduce %h {group_id = "tp", factor = 2, reduce = "add"} : f32[64,256]
  %u = tensor_contract %r, %g {domain = [64, 256, 256]} : f32[64,256]
  %s = all_reduce %u {group_id = "tp", factor = 2, reduce = "add"} : f32[64,256]
  return %a, %b, %c, %s
}
