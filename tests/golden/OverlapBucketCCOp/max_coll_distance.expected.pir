func @f(%p: bf16[4], %q: bf16[4], %r: bf16[4], %s: bf16[4]) {
  %a_s, %b_s = all_gather_start %p, %q {group_id = "dp"} : (bf16[8], bf16[8])
  %a, %b = all_gather_done %a_s, %b_s : (bf16[8], bf16[8])
  %c_s, %d_s = all_gather_start %r, %s {group_id = "dp"} : (bf16[8], bf16[8])
  %c, %d = all_gather_done %c_s, %d_s : (bf16[8], bf16[8])
  return %a, %b, %c, %d
}
