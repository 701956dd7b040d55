func @step(%x: bf16[4096,4096], %w: bf16[4096,4096], %p: bf16[512,512], %t: bf16[512,512]) {
  %g_s = all_gather_start %p {group_id = "dp", factor = 8} : bf16[4096,512]
  %a = tensor_contract %x, %w {domain = [4096, 4096, 4096]} : f32[4096,4096]
  %g = all_gather_done %g_s : bf16[4096,512]
  affine_store %t, %p {domain = [512, 512]}
  %b = tensor_contract %x, %w {domain = [4096, 4096, 4096]} : f32[4096,4096]
  return %a, %b, %g
}
