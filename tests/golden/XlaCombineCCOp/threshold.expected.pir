func @f(%p: f32[8], %q: f32[8], %r: f32[8], %s: f32[8], %t: f32[32]) {
  %big = all_reduce %t {group_id = "dp", factor = 2, reduce = "add"} : f32[32]
  %a, %b = all_reduce %p, %q {group_id = "dp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  %c, %d = all_reduce %r, %s {group_id = "dp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  return %a, %big, %b, %c, %d
}
