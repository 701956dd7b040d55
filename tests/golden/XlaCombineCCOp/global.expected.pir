func @f(%p: bf16[4,8], %q: f32[4,8], %x: f32[16,8], %w: f32[8,8]) {
  %a, %b = all_gather %p, %q {group_id = "dp", factor = 4} : (bf16[16,8], f32[16,8])
  %h = tensor_contract %a, %w {domain = [16, 8, 8]} : f32[16,8]
  %s = all_reduce %h {group_id = "tp", factor = 2, reduce = "max"} : f32[16,8]
  %r, %t = all_reduce %x, %x {group_id = "tp", factor = 2, reduce = "add"} : (f32[16,8], f32[16,8])
  return %b, %r, %s, %t
}
