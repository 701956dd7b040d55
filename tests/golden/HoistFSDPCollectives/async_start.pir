// An FSDP all_gather_start is hoisted like an all_gather, its done staying
// where it is (the window that hides the gather grows): %g1_s rises to
// just after %g0, which rises to the top (relative order kept). The FSDP
// reduce_scatter_start stays: sinking it would shrink its window. In @s a
// store to the start's operand stops it.
func @f(%w0: f32[8], %w1: f32[8], %x: f32[8], %gw: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  %g0 = all_gather %w0 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %b = tensor_contract %a, %x : f32[8]
  %g1_s = all_gather_start %w1 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %c = tensor_contract %b, %x : f32[8]
  %g1 = all_gather_done %g1_s : f32[16]
  %r_s = reduce_scatter_start %gw {group_id = "dp", factor = 2, reduce = "add", fsdp = true} : f32[4]
  %d = tensor_contract %c, %x : f32[8]
  %r = reduce_scatter_done %r_s : f32[4]
  %u = tensor_contract %g0, %g1 : f32[16]
  return %u, %r, %d
}

func @s(%w: f32[8], %x: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  affine_store %a, %w
  %b = tensor_contract %a, %x : f32[8]
  %g_s = all_gather_start %w {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %g = all_gather_done %g_s : f32[16]
  return %g, %b
}
