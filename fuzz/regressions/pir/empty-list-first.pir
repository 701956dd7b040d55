// exas) and a t
func @forward(%x: bf16[128,1024], %w1: bf16[128,1024], %w2: bf16[128,1024],
              %act: f32[128,1024]) {
  %g1 = all_gather %w1 {group_id = "dp", factor = 8, fsdp = true, id =[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[], %wk 13