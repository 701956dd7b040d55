// Ancestor conflicts: the candidate and the bucket must not depend on each
// other, through data or through a hiding node (start -> hiding node ->
// done, for a collective that is not exposed).
// @starts: %c_s reads %y, computed from %a: start/start.
func @starts(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %y = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %q
}

// @dones: %k reads %a and hides all of %c (1000 ns): %c is not exposed,
// so %a -> %k -> %c through the hiding edge: done/done.
func @dones(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %k = acme.work %a {num_dynamic_instances = 1, flops = 1000} : bf16[4]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %k
}

// @hiding: %k reads %a and hides half of %c: %c stays exposed (no hiding
// edge to its done), but its hiding node depends on the bucket's done.
func @hiding(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %k = acme.work %a {num_dynamic_instances = 1, flops = 500} : bf16[4]
  %c = all_gather_done %c_s : bf16[8]
  return %c, %k
}
