func @f(%p: bf16[4], %q: bf16[4]) {
  %a_s, %b_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %b = all_gather_done %a_s, %b_s : (bf16[8], bf16[8])
  return %a, %b
}
