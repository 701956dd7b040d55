// Two all-gathers that nothing hides (each takes the latency, 1000 ns:
// no factor, so no bytes on the wire) merge: the first placement, the
// bucket's start with the candidate's done, is valid. Exposed time: 1000
// + 1000 before, one tuple of 1000 after.
func @f(%p: bf16[4], %q: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = all_gather_start %q {group_id = "dp"} : bf16[8]
  %b = all_gather_done %b_s : bf16[8]
  return %a, %b
}
