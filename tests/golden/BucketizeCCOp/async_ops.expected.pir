func @f(%p0: f32[8], %p1: f32[8], %p2: f32[8], %x: f32[8]) {
  %g0, %g1 = all_gather %p0, %p1 {group_id = "dp", factor = 2} : (f32[16], f32[16])
  %s_s = all_gather_start %p2 {group_id = "dp", factor = 2} : f32[16]
  %t_s = all_gather_start %x {group_id = "dp", factor = 2} : f32[16]
  %h = tensor_contract %x, %x : f32[8]
  %s = all_gather_done %s_s : f32[16]
  %t = all_gather_done %t_s : f32[16]
  return %g0, %g1, %s, %t, %h
}
