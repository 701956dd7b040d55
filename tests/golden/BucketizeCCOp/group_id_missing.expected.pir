func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %s: bf16[2], %t: bf16[2]) {
  %a, %c, %e = all_gather %p, %r, %t {group_id = "dp", factor = 2} : (bf16[4], bf16[4], bf16[4])
  %b = all_gather %q {factor = 2} : bf16[4]
  %d = all_gather %s {group_id = "", factor = 2} : bf16[4]
  return %a, %b, %c, %d, %e
}
