func @f(%p: f32[8], %q: f32[8], %r: f32[8]) {
  %a, %b = reduce_scatter %p, %q {group_id = "dp", factor = 4, reduce = "add"} : (f32[2], f32[2])
  %c = reduce_scatter %r {group_id = "tp", factor = 4, reduce = "add"} : f32[2]
  return %a, %b, %c
}
