// An explicit flops attribute replaces the op default; loads and stores
// count bytes only, whatever their flops.
// Total_flops:
//   %c tensor_contract, domain [16, 16, 8] = 2048, flops = 3:
//        3 x 2048 = 6144 (the default would give 2 x 2048 = 4096)
//   %g all_gather, no domain, result bf16[16,8] = 128, flops = 5:
//        5 x 128 = 640 (default 0)
//   %z acme.op, flops = 0, num_dynamic_instances = 999: 0 (default 1)
//   return, no result, operand 0 %c: f32[16,16] = 256, flops = 7:
//        7 x 256 = 1792 (default 0)
//   = 6144 + 640 + 0 + 1792 = 8576
// Total_bytes_moved:
//   %l affine_load, result bf16[16,8] = 128 elements, flops = 100 ignored:
//        128 x 2 = 256
func @f(%x: bf16[16,8], %w: bf16[8,16]) {
  %c = tensor_contract %x, %w {domain = [16, 16, 8], flops = 3} : f32[16,16]
  %g = all_gather %x {flops = 5} : bf16[16,8]
  %z = acme.op %x {flops = 0, num_dynamic_instances = 999} : f32[]
  %l = affine_load %x {flops = 100} : bf16[16,8]
  return %c, %g, %z, %l {flops = 7}
}
