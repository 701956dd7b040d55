// Hiding nodes are compute only: %a_s and %a lie inside %x's hiding window
// (%x is first in line, so %h's 1000 ns go to it and %a stays exposed), yet
// neither is a hiding node, so %a_s is bucketed with %b_s (placement 1:
// 1 to 6; %x's hiding interval (0, 2) begins before the bucket).
func @f(%g: f32[8], %p: bf16[4], %q: bf16[4], %e: f32[4]) {
  %x_s = reduce_scatter_start %g {group_id = "dp", reduce = "add"} : f32[4]
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %h = acme.work %e {num_dynamic_instances = 1, flops = 1000} : f32[4]
  %a = all_gather_done %a_s : bf16[8]
  %x = reduce_scatter_done %x_s : f32[4]
  %b_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %b = all_gather_done %b_s : bf16[8]
  return %x, %a, %b, %h
}
