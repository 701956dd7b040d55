func @p1(%p: bf16[4], %q: bf16[4]) {
  %a_s, %c_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  return %a, %c
}

func @p2(%p: bf16[4], %q: bf16[4]) {
  %a_s, %c_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  %z = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[8]
  return %z, %c
}

func @p3(%p: bf16[4], %x: bf16[4]) {
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %a_s, %c_s = all_gather_start %p, %y {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  return %a, %c
}

func @p4(%p: bf16[4], %x: bf16[4]) {
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %a_s, %c_s = all_gather_start %p, %y {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  %z = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[8]
  return %z, %c
}
