func @f(%x: bf16[4], %w: bf16[1], %v: bf16[1], %t: bf16[1]) {
  %a = tensor_contract %x, %x : bf16[4]
  affine_store %t, %w
  %g = all_gather %w {group_id = "dp", factor = 4, fsdp = true} : bf16[4]
  %k = all_gather %v {group_id = "dp", factor = 4} : bf16[4]
  %b = tensor_contract %a, %x : bf16[4]
  %c = tensor_contract %b, %g : bf16[4]
  generic_store %t, %x
  return %c, %k
}
