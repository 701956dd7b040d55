func @f(%p: f32[8], %q: f32[8], %r: f32[8], %s: f32[8]) {
  %a = all_reduce %p {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %n = acme.log %a {pinned = true} : f32[8]
  %z = all_reduce %s {group_id = "dp", factor = 2, reduce = "add", pinned = true} : f32[8]
  %b, %c = all_reduce %q, %r {group_id = "dp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  return %n, %z, %b, %c
}
