func @f(%p: f32[8], %q: f32[8], %x: f32[8]) {
  %g_s = all_gather_start %p {group_id = "dp", factor = 2} : f32[16]
  %r_s = all_reduce_start %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %a = tensor_contract %x, %x : f32[8]
  %g = all_gather_done %g_s : f32[16]
  %r = all_reduce_done %r_s : f32[8]
  %u = tensor_contract %r, %g : f32[8]
  return %u
}

func @h(%x: f32[8], %q: f32[8], %o: f32[16]) {
  %s_s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %t_s = all_gather_start %q {group_id = "dp", factor = 2} : f32[16]
  %s = all_reduce_done %s_s : f32[8]
  %t = all_gather_done %t_s : f32[16]
  affine_store %t, %x
  return %s
}
