func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %a {group_id = "dp", factor = 2} : bf16[8]
  return %b
}
