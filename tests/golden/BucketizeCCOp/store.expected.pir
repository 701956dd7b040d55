func @f(%w0: bf16[2], %w1: bf16[2], %w2: bf16[2], %v: bf16[2]) {
  affine_store %v, %w0
  %a, %b = all_gather %w0, %w2 {group_id = "dp", factor = 2} : (bf16[4], bf16[4])
  generic_store %v, %w1
  %c, %d = all_gather %w1, %w0 {group_id = "dp", factor = 2} : (bf16[4], bf16[4])
  return %a, %b, %c, %d
}
