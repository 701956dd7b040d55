func @f(%w: bf16[8,8], %buf: bf16[64,8], %x: f32[8]) {
  %g_s = all_gather_start %w {group_id = "dp", factor = 8, domain = [65536, 128]} : bf16[64,8]
  %t = tensor_contract %x, %x {domain = [8388608]} : f32[8]
  %g = all_gather_done %g_s {domain = [65536, 128]} : bf16[64,8]
  affine_store %g, %buf {domain = [65536]}
  return %t
}
