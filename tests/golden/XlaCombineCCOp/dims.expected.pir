func @f(%p: f32[2,4], %q: f32[4,2], %r: f32[6,3]) {
  %0 = hlo.transpose %p {hlo_dimensions = "{1,0}"} : f32[4,2]
  %1, %b, %c = all_gather %0, %q, %r {group_id = "dp", factor = 2, dimension = 1} : (f32[4,4], f32[4,4], f32[6,6])
  %a = hlo.transpose %1 {hlo_dimensions = "{1,0}"} : f32[4,4]
  return %a, %b, %c
}
