func @layer(%p: f32[8,128,512], %i: i32[], %x: bf16[128,512]) {
  %c0 = hlo.constant : i32[]
  %s = hlo.dynamic_slice %p, %i, %c0, %c0 {hlo_dynamic_slice_sizes = "{1,128,512}"} : f32[1,128,512]
  %r1 = hlo.reshape %s : f32[128,512]
  %cv = hlo.convert %r1 : bf16[128,512]
  %g = all_gather %cv {group_id = "dp", factor = 8} : bf16[1024,512]
  %h = tensor_contract %x, %x {domain = [128, 128, 512]} : f32[128,128]
  %q = hlo.convert %x : f32[128,512]
  %u = tensor_contract %q, %q {domain = [128, 128, 512]} : f32[128,128]
  %gq = all_gather %q {group_id = "dp", factor = 8} : f32[1024,512]
  %r = all_gather %h {group_id = "dp", factor = 8} : f32[1024,128]
  return %g, %u, %gq, %r
}
