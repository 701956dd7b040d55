// The same FSDP layer through an INI pipeline (capped.ini) that caps
// all_gather buckets at 512 bytes: %q_w and %k_w (256 result bytes each)
// merge to exactly 512, %v_w (512 bytes) would pass the cap and stays
// alone, so CoalesceCCOp flattens only the bf16 pair (counts 32, 32: bf16[64]
// -> bf16[256]) and the reduce_scatter pair as before.
func @layer(%x: bf16[8,16], %wq: bf16[2,16], %wk: bf16[2,16], %wv: f32[2,16], %dy: f32[8,8]) {
  %q_w = all_gather %wq {group_id = "dp", factor = 4, fsdp = true, id = 1} : bf16[8,16]
  %q = tensor_contract %x, %q_w : f32[8,8]
  %k_w = all_gather %wk {group_id = "dp", factor = 4, fsdp = true, id = 2} : bf16[8,16]
  %k = tensor_contract %x, %k_w : f32[8,8]
  %v_w = all_gather %wv {group_id = "dp", factor = 4, fsdp = true, id = 3} : f32[8,16]
  %v = tensor_contract %x, %v_w : f32[8,8]
  %gq = tensor_contract %dy, %q : f32[8,16]
  %rq = reduce_scatter %gq {group_id = "dp", factor = 4, reduce = "add", fsdp = true, id = 4} : f32[2,16]
  %gk = tensor_contract %dy, %k : f32[8,16]
  %rk = reduce_scatter %gk {group_id = "dp", factor = 4, reduce = "add", fsdp = true, id = 5} : f32[2,16]
  %o = tensor_contract %q, %v : f32[8,8]
  return %o, %rq, %rk
}
