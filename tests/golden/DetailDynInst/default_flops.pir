// DetailDynInst: the default flops of every op the SDK knows, and an
// unknown op. n = num_dynamic_instances, given on every instruction.
// Total_flops (flops x n):
//   all_gather, all_reduce, reduce_scatter    0 x 1000         = 0 each
//   %c tensor_contract                        2 x 100000       = 200000
//   %red reduce                               1 x 3000         = 3000
//   %n rms_norm                               1 x 400          = 400
//   pack, unpack                              0 x 1000         = 0 each
//   %k acme.fused_gelu (unknown, namespaced)  1 x 50           = 50
//   %m mul (unknown)                          1 x 6            = 6
//   return                                    0 x 1000         = 0
//   = 200000 + 3000 + 400 + 50 + 6 = 203456
// Total_bytes_moved (n x dtype size; loads and stores add no flops):
//   %l affine_load, result f32              10 x 4 = 40
//   affine_store of %c (f32)                20 x 4 = 80
//   %gl generic_load, result bf16           30 x 2 = 60
//   generic_store of %gl (bf16) into an f32 buffer: the stored value's
//   dtype counts                            40 x 2 = 80
//   = 40 + 80 + 60 + 80 = 260
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
