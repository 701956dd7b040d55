func @f(%p: f32[8], %q: f32[8], %buf: f32[16]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  affine_store %a, %buf {domain = [16]}
  %v = affine_load %buf {domain = [8]} : f32[8]
  %b, %c = all_gather %v, %q {group_id = "dp", factor = 2} : (f32[16], f32[16])
  return %b, %c
}
