func @f(%p: bf16[2], %x: bf16[4], %q: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b, %c = all_gather %a, %x {group_id = "dp", factor = 2} : (bf16[8], bf16[8])
  %y = tensor_contract %x, %x : bf16[4]
  %d, %e = all_gather %y, %q {group_id = "dp", factor = 2} : (bf16[8], bf16[4])
  return %b, %c, %d, %e
}
