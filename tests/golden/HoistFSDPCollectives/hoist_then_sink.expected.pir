func @f(%x: f32[8], %gr: f32[8], %g2: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  %r = reduce_scatter %gr {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %g = all_gather %r {group_id = "dp", factor = 4, fsdp = true} : f32[8]
  %b = tensor_contract %a, %x : f32[8]
  %c = tensor_contract %b, %x : f32[8]
  %d = tensor_contract %c, %g : f32[8]
  %r2 = reduce_scatter %g2 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  return %d, %r2
}
