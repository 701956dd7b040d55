func @f(%x: bf16[4,8], %w0: bf16[1,8]) {
  %g0 = all_gather %w0 {group_id = "dp", factor = 4} : bf16[4,8]
  %h = tensor_contract %x, %x : bf16[4,8]
  %g1 = all_gather %h {group_id = "dp", factor = 4, fsdp = true} : bf16[16,8]
  %y = tensor_contract %h, %x : bf16[4,8]
  %z = tensor_contract %y, %x : bf16[4,8]
  %n = all_gather %h {group_id = "dp", factor = 4} : bf16[16,8]
  %u = tensor_contract %z, %g0 : bf16[4,8]
  return %u, %n, %g1
}
