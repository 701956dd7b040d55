func @f(%p: bf16[4], %r: bf16[4], %g: f32[8], %e: f32[4], %x: f32[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = reduce_scatter_start %g {group_id = "dp", reduce = "add"} : f32[4]
  %h = acme.work %x {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %b = reduce_scatter_done %b_s : f32[4]
  %d_s = all_reduce_start %e {group_id = "dp", reduce = "add"} : f32[4]
  %c_s = all_gather_start %r {group_id = "dp"} : bf16[8]
  %k = acme.work %x {num_dynamic_instances = 1, flops = 1500} : f32[4]
  %c = all_gather_done %c_s : bf16[8]
  %d = all_reduce_done %d_s : f32[4]
  return %a, %b, %c, %d, %h, %k
}
