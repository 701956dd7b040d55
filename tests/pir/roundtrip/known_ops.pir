// every op the SDK knows in a valid use
func @ops(%x: bf16[128,4096], %w: bf16[512,4096], %s: f32[], %buf: f32[128,4096], %r: f32[64,8]) {
  %g = all_gather %w {group_id = "dp", factor = 8, fsdp = true, id = 1} : bf16[4096,4096]
  %gs = all_gather %s {group_id = "dp", factor = 4} : f32[4]
  %gd = all_gather %r {group_id = "tp", factor = 2, dimension = 1} : f32[64,16]
  %rs = reduce_scatter %r {group_id = "dp", factor = 8, reduce = "add", fsdp = true} : f32[8,8]
  %rs1 = reduce_scatter %r {group_id = "dp", factor = 4, reduce = "max", dimension = 1} : f32[64,2]
  %ar1, %ar2 = all_reduce %r, %s {group_id = "tp", factor = 2, reduce = "add"} : (f32[64,8], f32[])
  %ag2, %ag3 = all_gather %w, %s {group_id = ""} : (bf16[9,9], f32[7])
  %c = tensor_contract %x, %g {domain = [128, 4096, 4096], flops = 2} : f32[128,4096]
  %l = affine_load %c {domain = [128, 4096], predicate = ["i0 < 100", "128*i0 + i1 < 1000", "i1*2 - 3 >= -i0", "2 == 2", "i0 != 5"]} : f32[128,4096]
  affine_store %l, %buf {domain = [128, 4096]}
  %gl = generic_load %buf {num_dynamic_instances = 7} : f32[128,4096]
  generic_store %gl, %buf
  %red = reduce %gl {domain = [128, 4096], reduce = "add"} : f32[128]
  %n = rms_norm %red : f32[128]
  %p = pack %n, %s {kind = "all_gather", factor = 8} : f32[129]
  %u1, %u2 = unpack %p {kind = "all_gather", factor = 8} : (f32[128], f32[])
  return %u1, %u2, %ar1, %ar2, %gs, %gd, %rs, %rs1, %ag2, %ag3
}
