func @f(%x: bf16[4]) {
  %c = tensor_contract %x, %x : bf16[4]
  %g = all_gather %c {group_id = "dp", factor = 2} : bf16[8]
  %b1 = all_gather %g {group_id = "dp", factor = 2, fsdp = true} : bf16[16]
  %b2 = all_gather %g {group_id = "dp", factor = 2, fsdp = true} : bf16[16]
  %d = tensor_contract %c, %x : bf16[4]
  %e = tensor_contract %d, %x : bf16[4]
  %f = tensor_contract %e, %x : bf16[4]
  return %f
}
