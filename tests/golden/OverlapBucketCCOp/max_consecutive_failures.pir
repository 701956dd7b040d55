// max_consecutive_failures = 2: %c1_s and %c2_s read %y, computed from %a,
// so %a_s's bucket refuses both and stops before %c3_s; %c1_s's bucket then
// takes %c2_s and %c3_s. (With the default 20, %a_s would take %c3_s.)
func @f(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %y = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c1_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c1 = all_gather_done %c1_s : bf16[8]
  %c2_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c2 = all_gather_done %c2_s : bf16[8]
  %c3_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %c3 = all_gather_done %c3_s : bf16[8]
  return %a, %c1, %c2, %c3
}
