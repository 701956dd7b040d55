// split = true: the synchronous gather becomes a start at the top and a
// done after %a, the computation it does not need.
func @step(%x: bf16[4096,4096], %w: bf16[4096,4096], %p: bf16[512,512]) {
  %a = tensor_contract %x, %w {domain = [4096, 4096, 4096]} : f32[4096,4096]
  %g = all_gather %p {group_id = "dp", factor = 8} : bf16[4096,512]
  %c = tensor_contract %g, %p {domain = [4096, 512, 512]} : f32[4096,512]
  return %a, %c
}
