func @f(%x: f32[4], %w: f32[1], %gr: f32[8]) {
  %a = tensor_contract %x, %x : f32[4]
  %g = all_gather %w {group_id = "dp", factor = 4} : f32[4]
  %b = tensor_contract %a, %x : f32[4]
  %c = tensor_contract %b, %x : f32[4]
  %d = tensor_contract %c, %g : f32[4]
  %e = tensor_contract %d, %x : f32[4]
  %r = reduce_scatter %gr {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %f = tensor_contract %e, %x : f32[4]
  return %f, %r
}
