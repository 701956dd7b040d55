// A collective with pinned = true (an HLO control dependency) is left
// synchronous; the other one is split as usual.
func @f(%p: bf16[64,8], %q: bf16[64,8], %w: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 8, pinned = true} : bf16[512,8]
  %h = all_gather %q {group_id = "dp", factor = 8} : bf16[512,8]
  %a = tensor_contract %w, %w : f32[8]
  %u = tensor_contract %g, %h : f32[8]
  return %u
}
