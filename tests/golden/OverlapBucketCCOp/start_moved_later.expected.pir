func @f(%p: bf16[4], %q: bf16[4], %e: f32[4], %x: f32[4]) {
  %a_s, %c_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %d_s = all_reduce_start %e {group_id = "dp", reduce = "add"} : f32[4]
  %k = acme.work %x {num_dynamic_instances = 1, flops = 500} : f32[4]
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  %k2 = acme.work %x {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %d = all_reduce_done %d_s : f32[4]
  return %a, %c, %d, %k, %k2
}
