// Boxes narrower than a pixel on the compute lane, compute and exposed
// waits interleaved, merged: see README (merged.svg).
func @merged(%a: f32[1], %v: u8[1], %g: f32[10000]) {
  %t1 = acme.tiny %a {flops = 1, num_dynamic_instances = 1} : f32[1]
  %r1 = all_reduce %v {group_id = "tp", factor = 2, reduce = "add"} : u8[1]
  %r2 = all_reduce %r1 {group_id = "tp", factor = 2, reduce = "add"} : u8[1]
  %r3 = all_reduce %r2 {group_id = "tp", factor = 2, reduce = "add"} : u8[1]
  %t2 = acme.tiny %t1 {flops = 1, num_dynamic_instances = 1} : f32[1]
  %z = acme.gelu %g : f32[10000]
  return %z, %r3, %t2
}
