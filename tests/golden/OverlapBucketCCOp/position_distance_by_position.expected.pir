func @f(%p: bf16[4], %q: bf16[4], %r: bf16[4], %s: bf16[4]) {
  %a_s, %b_s, %c_s, %d_s = all_gather_start %p, %q, %r, %s {group_id = "dp"} : (bf16[8], bf16[8], bf16[8], bf16[8])
  %a, %b, %c, %d = all_gather_done %a_s, %b_s, %c_s, %d_s : (bf16[8], bf16[8], bf16[8], bf16[8])
  return %a, %b, %c, %d
}
