func @forward(%x: bf16[128,1024], %w1: bf16[128,1024], %w2: bf16[128,1024], %act: f32[128,1024]) attributes {has_copy = true, has_reduce = true} {
  %g1_s = all_gather_start %w1 {group_id = "dp", factor = 8, fsdp = true, id = 1} : bf16[1024,1024]
  %g2_s = all_gather_start %w2 {group_id = "dp", factor = 8, fsdp = true, id = 2} : bf16[1024,1024]
  %g1 = all_gather_done %g1_s : bf16[1024,1024]
  %h = tensor_contract %x, %g1 {domain = [128, 1024, 1024]} : f32[128,1024]
  %hn = rms_norm %h : f32[128,1024]
  %g2 = all_gather_done %g2_s : bf16[1024,1024]
  %y = tensor_contract %hn, %g2 {domain = [128, 1024, 1024]} : f32[128,1024]
  %t = affine_load %y {domain = [128, 1024], predicate = ["1024*i0 + i1 < 100000"]} : f32[128,1024]
  affine_store %t, %act {domain = [128, 1024]}
  return %y
}

func @backward(%dy: f32[128,1024], %xf: f32[128,1024], %hn: f32[128,1024], %gw1: f32[128,1024], %gw2: f32[128,1024], %stats: f32[128]) attributes {has_reduce = true} {
  %d2 = tensor_contract %hn, %dy {domain = [1024, 1024, 128]} : f32[1024,1024]
  %dh = tensor_contract %dy, %hn {domain = [128, 1024, 1024]} : f32[128,1024]
  %d1 = tensor_contract %xf, %dh {domain = [1024, 1024, 128]} : f32[1024,1024]
  %s = reduce %dh {domain = [128, 1024]} : f32[128]
  %ts_s = all_reduce_start %s {group_id = "tp", factor = 4, reduce = "add", id = 5} : f32[128]
  %ts = all_reduce_done %ts_s : f32[128]
  generic_store %ts, %stats
  %r2_buf = pack %d2, %d1 {kind = "reduce_scatter", factor = 8, offsets = [0, 131072], counts = [131072, 131072], dimensions = [0, 0]} : f32[2097152]
  %r2_flat_s = reduce_scatter_start %r2_buf {group_id = "dp", factor = 8, fsdp = true, reduce = "add", id = 3} : f32[262144]
  %r2_flat = reduce_scatter_done %r2_flat_s : f32[262144]
  %r2, %r1 = unpack %r2_flat {kind = "reduce_scatter", factor = 8, offsets = [0, 131072], counts = [131072, 131072], dimensions = [0, 0]} : (f32[128,1024], f32[128,1024])
  %u2, %u1 = acme.adam_update %r2, %r1 {lr = 0.001} : (f32[128,1024], f32[128,1024])
  affine_store %u2, %gw2 {domain = [128, 1024]}
  affine_store %u1, %gw1 {domain = [128, 1024]}
  return
}
