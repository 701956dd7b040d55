func @f(%p: bf16[2], %q: bf16[2], %g: f32[8], %h: f32[8], %x: f32[4], %y: f32[4]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %r0, %r1 = reduce_scatter %g, %h {group_id = "dp", factor = 2, reduce = "add"} : (f32[4], f32[4])
  %b = all_gather %q {group_id = "dp", factor = 2} : bf16[4]
  %u = all_reduce %x {group_id = "dp", reduce = "add"} : f32[4]
  %v = all_reduce %y {group_id = "dp", reduce = "add"} : f32[4]
  return %a, %b, %r0, %r1, %u, %v
}
