// %h hides all of %x; %y and %z are exposed; %z reads %w, defined at 3.
// Positions: x_s 0, h 1, x 2, w 3, y_s 4, y 5, z_s 6, z 7.
// Least hidden first: %y's bucket takes %z (placement 1, 4 to 7); %x then
// fits nowhere: its hiding node 1 is outside (4, 2) and (4, 7), and
// starting at 0 is before %w. Exposed 2000 before, 1000 after.
// (position_order.pir: the same module by position.)
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
