func @f(%x: f32[4], %w: f32[1], %gr: f32[8]) {
  %g = all_gather %w {group_id = "dp", factor = 4, fsdp = true} : f32[4]
  %a = tensor_contract %x, %x : f32[4]
  %r = reduce_scatter %gr {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %c = tensor_contract %a, %g : f32[4]
  %b = tensor_contract %r, %c : f32[4]
  return %b
}
