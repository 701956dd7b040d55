func @starts(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %y = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %q
}

func @dones(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %k = acme.work %a {num_dynamic_instances = 1, flops = 1000} : bf16[4]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %k
}

func @hiding(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %k = acme.work %a {num_dynamic_instances = 1, flops = 500} : bf16[4]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %k
}
