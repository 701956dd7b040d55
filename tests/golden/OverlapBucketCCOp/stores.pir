// Stores to a member's operand. @later: %c_s cannot start at 0 (%y), and
// %a_s cannot start at 4: it would read %p after the store at 2 wrote it.
func @later(%p: bf16[4], %x: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  affine_store %x, %p
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %a, %c
}

// @inflight: %a's done cannot move to 4, %p would be written at 2 while in
// flight; the second placement (the bucket's done, 1) is taken.
func @inflight(%p: bf16[4], %q: bf16[4], %x: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  affine_store %x, %p
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %a, %c
}
