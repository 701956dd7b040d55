func @layer(%x: bf16[8,16], %wq: bf16[2,16], %wk: bf16[2,16], %wv: f32[2,16], %dy: f32[8,8]) {
  %q_w_buf = pack %wq, %wk {kind = "all_gather", factor = 4, offsets = [0, 32], counts = [32, 32], dimensions = [0, 0]} : bf16[64]
  %q_w_flat = all_gather %q_w_buf {group_id = "dp", factor = 4, fsdp = true, id = 1} : bf16[256]
  %q_w, %k_w = unpack %q_w_flat {kind = "all_gather", factor = 4, offsets = [0, 32], counts = [32, 32], dimensions = [0, 0]} : (bf16[8,16], bf16[8,16])
  %v_w = all_gather %wv {group_id = "dp", factor = 4, fsdp = true, id = 3} : f32[8,16]
  %q = tensor_contract %x, %q_w : f32[8,8]
  %k = tensor_contract %x, %k_w : f32[8,8]
  %v = tensor_contract %x, %v_w : f32[8,8]
  %gq = tensor_contract %dy, %q : f32[8,16]
  %gk = tensor_contract %dy, %k : f32[8,16]
  %o = tensor_contract %q, %v : f32[8,8]
  %rq_buf = pack %gq, %gk {kind = "reduce_scatter", factor = 4, offsets = [0, 32], counts = [32, 32], dimensions = [0, 0]} : f32[256]
  %rq_flat = reduce_scatter %rq_buf {group_id = "dp", factor = 4, reduce = "add", fsdp = true, id = 4} : f32[64]
  %rq, %rk = unpack %rq_flat {kind = "reduce_scatter", factor = 4, offsets = [0, 32], counts = [32, 32], dimensions = [0, 0]} : (f32[2,16], f32[2,16])
  return %o, %rq, %rk
}
