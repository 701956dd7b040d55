func @f(%p: f32[8], %x: f32[8]) {
  %g_s = all_gather_start %p {group_id = "dp", factor = 2} : f32[16]
  %a = tensor_contract %x, %x : f32[8]
  %g = all_gather_done %g_s : f32[16]
  %r_s = all_reduce_start %g {group_id = "tp", factor = 2, reduce = "add"} : f32[16]
  %b = tensor_contract %a, %x : f32[8]
  %r = all_reduce_done %r_s : f32[16]
  return %r, %b
}
