func @f(%x: bf16[4], %w0: bf16[1], %w2: bf16[1]) {
  %g0 = all_gather %w0 {group_id = "dp", factor = 4} : bf16[4]
  %a = tensor_contract %x, %x : bf16[4]
  %b = tensor_contract %a, %g0 : bf16[4]
  %h = tensor_contract %b, %x : bf16[1]
  %g1 = all_gather %h {group_id = "dp", factor = 4, fsdp = true} : bf16[4]
  %g2 = all_gather %w2 {group_id = "dp", factor = 4} : bf16[4]
  %c = tensor_contract %h, %x : bf16[4]
  %d = tensor_contract %c, %x : bf16[4]
  %e = tensor_contract %d, %g2 : bf16[4]
  return %e, %g1
}
