func @f(%p: bf16[2,3], %q: bf16[2,3], %r: bf16[2,3]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 2} : (bf16[4,3], bf16[4,3])
  %c = all_gather %r {group_id = "dp", factor = 2, dimension = 1} : bf16[2,6]
  return %a, %b, %c
}
