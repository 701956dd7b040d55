func @f(%p: f32[8], %q: f32[8], %r: f32[8], %s: f32[4], %t: f32[4]) {
  %a_s, %c_s = reduce_scatter_start %p, %r {group_id = "dp", reduce = "add"} : (f32[4], f32[4])
  %b_s = reduce_scatter_start %q {group_id = "dp", reduce = "max"} : f32[4]
  %b = reduce_scatter_done %b_s : f32[4]
  %a, %c = reduce_scatter_done %a_s, %c_s : (f32[4], f32[4])
  %d_s = all_reduce_start %s {group_id = "dp", reduce = "add"} : f32[4]
  %d = all_reduce_done %d_s : f32[4]
  %e_s = all_reduce_start %t {group_id = "dp", reduce = "min"} : f32[4]
  %e = all_reduce_done %e_s : f32[4]
  return %a, %b, %c, %d, %e
}
