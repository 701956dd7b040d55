func @f(%p: f32[8], %q: f32[8], %x: f32[64,64]) {
  %a_s, %b_s = all_reduce_start %p, %q {group_id = "dp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  %h = tensor_contract %x, %x {domain = [64, 64, 64]} : f32[64,64]
  %a, %b = all_reduce_done %a_s, %b_s : (f32[8], f32[8])
  %u = acme.scale %a : f32[8]
  return %u, %h, %b
}
