func @f(%g0: f32[8], %g1: f32[8], %t: f32[8], %x: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  %r0 = reduce_scatter %g0 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  affine_store %t, %g0
  %b = tensor_contract %a, %x : f32[8]
  %r1 = reduce_scatter %g1 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
}
