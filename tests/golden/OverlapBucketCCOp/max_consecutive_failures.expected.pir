func @f(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %y = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c1_s, %c2_s, %c3_s = all_gather_start %y, %y, %q {group_id = "dp"} : (bf16[8], bf16[8], bf16[8])
  %c1, %c2, %c3 = all_gather_done %c1_s, %c2_s, %c3_s : (bf16[8], bf16[8], bf16[8])
  return %a, %c1, %c2, %c3
}
