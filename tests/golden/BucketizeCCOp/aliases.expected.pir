func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %g: f32[8], %h: f32[8], %x: f32[16], %y: f32[16]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 4} : (bf16[8], bf16[8])
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  %s = reduce_scatter %g {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %t = reduce_scatter %h {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %u, %v = all_reduce %x, %y {group_id = "tp", reduce = "add"} : (f32[16], f32[16])
  return %a, %b, %c, %s, %t, %u, %v
}
