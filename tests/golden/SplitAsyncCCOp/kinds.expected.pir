func @f(%p: f32[8], %q: f32[8], %x: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %r_s = reduce_scatter_start %q {group_id = "dp", factor = 2, reduce = "add"} : f32[4]
  %a_s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %c = tensor_contract %x, %x : f32[8]
  %r = reduce_scatter_done %r_s : f32[4]
  %a = all_reduce_done %a_s : f32[8]
  return %g, %r, %a, %c
}
