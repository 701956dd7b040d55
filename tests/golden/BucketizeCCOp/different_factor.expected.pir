func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %s: bf16[2]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 8} : (bf16[16], bf16[16])
  %c, %d = all_gather %r, %s {group_id = "dp", factor = 4} : (bf16[8], bf16[8])
  return %a, %b, %c, %d
}
