func @f(%x: bf16[4], %w: bf16[1]) {
  %a = all_gather %w {group_id = "dp", factor = 2} : bf16[2]
  %b = all_gather %a {group_id = "dp", factor = 2, fsdp = true} : bf16[4]
  %c = tensor_contract %x, %x : bf16[4]
  %d = tensor_contract %c, %x : bf16[4]
  %e = tensor_contract %d, %x : bf16[4]
  %f = tensor_contract %e, %b : bf16[4]
  return %f
}
