// examples/fsdp_step.pir — one training step of a two-layer model sharded
// with FSDP over the "dp" group (8 ranks) and a tensor-parallel "tp" group.
// The collectives sit where a naive lowering puts them: each parameter
// all_gather right before its first use, each gradient reduce_scatter right
// after the gradient is produced. The default pipeline hoists the
// all_gathers and sinks the reduce_scatters so they become adjacent,
// buckets them, flattens the buckets, then estimates the cost.
func @forward(%x: bf16[128,1024], %w1: bf16[128,1024], %w2: bf16[128,1024],
              %act: f32[128,1024]) {
  %g1 = all_gather %w1 {group_id = "dp", factor = 8, fsdp = true, id = 1} : bf16[1024,1024]
  %h = tensor_contract %x, %g1 {domain = [128, 1024, 1024]} : f32[128,1024]
  %hn = rms_norm %h : f32[128,1024]
  %g2 = all_gather %w2 {group_id = "dp", factor = 8, fsdp = true, id = 2} : bf16[1024,1024]
  %y = tensor_contract %hn, %g2 {domain = [128, 1024, 1024]} : f32[128,1024]
  // keep the first 100000 of the 131072 activations (a tail mask)
  %t = affine_load %y {domain = [128, 1024], predicate = ["1024*i0 + i1 < 100000"]} : f32[128,1024]
  affine_store %t, %act {domain = [128, 1024]}
  return %y
}

func @backward(%dy: f32[128,1024], %xf: f32[128,1024], %hn: f32[128,1024],
               %gw1: f32[128,1024], %gw2: f32[128,1024], %stats: f32[128]) {
  %d2 = tensor_contract %hn, %dy {domain = [1024, 1024, 128]} : f32[1024,1024]
  %r2 = reduce_scatter %d2 {group_id = "dp", factor = 8, fsdp = true, reduce = "add", id = 3} : f32[128,1024]
  %dh = tensor_contract %dy, %hn {domain = [128, 1024, 1024]} : f32[128,1024]
  %d1 = tensor_contract %xf, %dh {domain = [1024, 1024, 128]} : f32[1024,1024]
  %r1 = reduce_scatter %d1 {group_id = "dp", factor = 8, fsdp = true, reduce = "add", id = 4} : f32[128,1024]
  %s = reduce %dh {domain = [128, 1024]} : f32[128]
  %ts = all_reduce %s {group_id = "tp", factor = 4, reduce = "add", id = 5} : f32[128]
  generic_store %ts, %stats
  %u2, %u1 = acme.adam_update %r2, %r1 {lr = 0.001} : (f32[128,1024], f32[128,1024])
  affine_store %u2, %gw2 {domain = [128, 1024]}
  affine_store %u1, %gw1 {domain = [128, 1024]}
  return
}
