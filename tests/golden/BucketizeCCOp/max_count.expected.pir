func @f(%p: bf16[1], %q: bf16[1], %r: bf16[1], %s: bf16[1], %t: bf16[1]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 2} : (bf16[2], bf16[2])
  %c, %d = all_gather %r, %s {group_id = "dp", factor = 2} : (bf16[2], bf16[2])
  %e = all_gather %t {group_id = "dp", factor = 2} : bf16[2]
  return %a, %b, %c, %d, %e
}
