// Starts and dones count as collectives: they add nothing, whatever their
// count (neither is a contract, a load or a store).
//   %g_s all_gather_start, domain [65536, 128]  (2^23 points)   0
//   %g all_gather_done, domain [65536, 128]                      0
//   %t tensor_contract, domain [8388608]: 8388608 / 8388608    = 1
//   affine_store %g, %buf, domain [65536]: 65536 / 65536       = 1
//     (its stored value is a done's result, not an affine_load's:
//     has_copy stays unset)
// est_inst_count = 2
func @f(%w: bf16[8,8], %buf: bf16[64,8], %x: f32[8]) {
  %g_s = all_gather_start %w {group_id = "dp", factor = 8, domain = [65536, 128]} : bf16[64,8]
  %t = tensor_contract %x, %x {domain = [8388608]} : f32[8]
  %g = all_gather_done %g_s {domain = [65536, 128]} : bf16[64,8]
  affine_store %g, %buf {domain = [65536]}
  return %t
}
