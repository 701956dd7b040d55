func @f(%g: f32[8], %p: bf16[4], %q: bf16[4], %e: f32[4]) {
  %x_s = reduce_scatter_start %g {group_id = "dp", reduce = "add"} : f32[4]
  %a_s, %b_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %h = acme.work %e {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %x = reduce_scatter_done %x_s : f32[4]
  %a, %b = all_gather_done %a_s, %b_s : (bf16[8], bf16[8])
  return %x, %a, %b, %h
}
