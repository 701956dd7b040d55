func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2]) {
  %a, %c = all_gather %p, %r {group_id = "dp", factor = 2} : (bf16[4], bf16[4])
  %b = all_gather %q {group_id = "dp", factor = 2, pinned = true} : bf16[4]
  return %a, %b, %c
}
