// An FSDP layer as a framework emits it: each weight's all_gather right
// before its first use, each gradient's reduce_scatter right after its
// producer. HoistFSDPCollectives lifts %k_w and %v_w up behind %q_w (order
// kept) and sinks %rq, %rk to just before return (order kept); BucketizeCCOp
// then finds three adjacent all_gathers (merged at %q_w, id 1) and two
// adjacent reduce_scatters (merged at %rq, id 4); CoalesceCCOp flattens
// both: the all_gather mixes bf16 and f32 (unit bf16: counts 32, 32 and
// 2*32 = 64, buffer bf16[128] -> bf16[512]), the reduce_scatter is f32 only
// (pieces of 128/4 = 32, f32[256] -> f32[64]).
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
