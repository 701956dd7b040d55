func @f(%x: bf16[16,8], %w: bf16[8,16], %buf: f32[16,16]) {
  %g = all_gather %x {num_dynamic_instances = 1000} : bf16[16,8]
  %r = all_reduce %x {num_dynamic_instances = 1000} : bf16[16,8]
  %s = reduce_scatter %x {num_dynamic_instances = 1000} : bf16[16,8]
  %c = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[16,16]
  %l = affine_load %buf {num_dynamic_instances = 10} : f32[16,16]
  affine_store %c, %buf {num_dynamic_instances = 20}
  %gl = generic_load %x {num_dynamic_instances = 30} : bf16[16,8]
  generic_store %gl, %buf {num_dynamic_instances = 40}
  %red = reduce %c {num_dynamic_instances = 3000} : f32[16]
  %n = rms_norm %c {num_dynamic_instances = 400} : f32[16,16]
  %p = pack %x, %gl {num_dynamic_instances = 1000} : bf16[256]
  %u1, %u2 = unpack %p {num_dynamic_instances = 1000} : (bf16[16,8], bf16[16,8])
  %k = acme.fused_gelu %c {num_dynamic_instances = 50} : f32[16,16]
  %m = mul %c, %c {num_dynamic_instances = 6} : f32[16,16]
  return %g, %r, %s, %l, %red, %n, %u1, %u2, %k, %m {num_dynamic_instances = 1000}
}
