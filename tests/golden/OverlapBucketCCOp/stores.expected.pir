func @later(%p: bf16[4], %x: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  affine_store %x, %p
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %a, %c
}

func @inflight(%p: bf16[4], %q: bf16[4], %x: bf16[4]) {
  %a_s, %c_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %c = all_gather_done %a_s, %c_s : (bf16[8], bf16[8])
  affine_store %x, %p
  return %a, %c
}
