func @f(%w: f32[8], %x: f32[8], %o: f32[8]) {
  %g_s = all_gather_start %w {group_id = "dp", factor = 2} : f32[16]
  affine_store %x, %o
  generic_store %w, %o
  %a = tensor_contract %x, %x : f32[8]
  %g = all_gather_done %g_s : f32[16]
  affine_store %a, %w
  %u = tensor_contract %g, %g : f32[16]
  return %u
}

func @t(%x: f32[8], %w: f32[8]) {
  %a_s, %b_s = all_reduce_start %x, %w {group_id = "tp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  %c = tensor_contract %x, %x : f32[8]
  %a, %b = all_reduce_done %a_s, %b_s : (f32[8], f32[8])
  generic_store %c, %w
  return %a, %b
}
