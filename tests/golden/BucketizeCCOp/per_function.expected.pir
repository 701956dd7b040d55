func @f(%p: bf16[2], %q: bf16[2]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 2} : (bf16[4], bf16[4])
  return %a, %b
}

func @g(%p: bf16[2]) {
  %c = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %c
}
