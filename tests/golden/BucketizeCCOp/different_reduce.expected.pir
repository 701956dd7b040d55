func @f(%p: f32[4], %q: f32[4], %r: f32[4], %s: f32[4]) {
  %a, %b = all_reduce %p, %q {group_id = "tp", factor = 2, reduce = "add"} : (f32[4], f32[4])
  %c = all_reduce %r {group_id = "tp", factor = 2, reduce = "max"} : f32[4]
  %d = all_reduce %s {group_id = "tp", factor = 2} : f32[4]
  return %a, %b, %c, %d
}
