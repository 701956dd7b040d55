func @f(%p: bf16[4], %q: bf16[4], %e: f32[4]) {
  %x_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %h = acme.work %e {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %x = all_gather_done %x_s : bf16[8]
  %w = acme.work %q {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %y_s, %z_s = all_gather_start %q, %w {group_id = "dp"} : (bf16[8], bf16[8])
  %y, %z = all_gather_done %y_s, %z_s : (bf16[8], bf16[8])
  return %x, %y, %z, %h
}
