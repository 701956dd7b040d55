// bucket_exposed_first = false: by position, %x's bucket takes %y
// (placement 1, 0 to 5: %h stays inside); %z cannot start at 0 (%w) and
// the bucket cannot start at 6 (%h would fall outside). Exposed 2000
// before, 1000 after (%z), as least hidden first, with other buckets.
func @f(%p: bf16[4], %q: bf16[4], %e: f32[4]) {
  %x_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %h = acme.work %e {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %x = all_gather_done %x_s : bf16[8]
  %w = acme.work %q {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %y_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %y = all_gather_done %y_s : bf16[8]
  %z_s = all_gather_start %w {group_id = "dp"} : bf16[8]
  %z = all_gather_done %z_s : bf16[8]
  return %x, %y, %z, %h
}
