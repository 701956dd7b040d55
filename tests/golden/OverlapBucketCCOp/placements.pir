// Each of the four placements taken, in the order they are tried:
// (bucket start, candidate done), (bucket start, bucket done),
// (candidate start, candidate done), (candidate start, bucket done).
// Nothing is hidden (the work takes 0 ns), so %a_s is the bucket and %c_s
// the candidate in each function.

// 1: both can move anywhere.
func @p1(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %a, %c
}

// 2: %a is used at 2, so %a's done cannot move to 4.
func @p2(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %z = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[8]
  %c_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %z, %c
}

// 3: %c_s reads %y, defined at 1, so it cannot start at 0.
func @p3(%p: bf16[4], %x: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %a, %c
}

// 4: as 3, and %a is used at 4, before %c's done at 5.
func @p4(%p: bf16[4], %x: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %y = acme.work %x {num_dynamic_instances = 1, flops = 0} : bf16[4]
  %c_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %z = acme.work %a {num_dynamic_instances = 1, flops = 0} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  return %z, %c
}
