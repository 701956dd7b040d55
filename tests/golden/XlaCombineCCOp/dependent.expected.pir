func @f(%p: f32[8], %q: f32[8], %s: f32[8]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 2} : (f32[16], f32[16])
  %x = reduce %b {domain = [16]} : f32[8]
  %c, %d = all_gather %x, %s {group_id = "dp", factor = 2} : (f32[16], f32[16])
  return %a, %c, %d
}
