func @f(%p: bf16[4], %q: bf16[4], %e: f32[4]) {
  %x_s, %y_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %h = acme.work %e {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %w = acme.work %q {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %x, %y = all_gather_done %x_s, %y_s : (bf16[8], bf16[8])
  %z_s = all_gather_start %w {group_id = "dp"} : bf16[8]
  %z = all_gather_done %z_s : bf16[8]
  return %x, %y, %z, %h
}
