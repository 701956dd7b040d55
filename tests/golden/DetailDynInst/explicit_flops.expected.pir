func @f(%x: bf16[16,8], %w: bf16[8,16]) {
  %c = tensor_contract %x, %w {domain = [16, 16, 8], flops = 3} : f32[16,16]
  %g = all_gather %x {flops = 5} : bf16[16,8]
  %z = acme.op %x {flops = 0, num_dynamic_instances = 999} : f32[]
  %l = affine_load %x {flops = 100} : bf16[16,8]
  return %c, %g, %z, %l {flops = 7}
}
