// A done goes just before the first instruction that uses one of its
// results: %g is first used by %u, two instructions after the gather.
// The attributes move to the start.
func @f(%p: bf16[64,8], %x: f32[8], %w: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 8, fsdp = true, id = 3} : bf16[512,8]
  %a = tensor_contract %x, %w : f32[8]
  %b = tensor_contract %a, %w : f32[8]
  %u = tensor_contract %g, %b : f32[8]
  %c = tensor_contract %u, %w : f32[8]
  %v = tensor_contract %g, %c : f32[8]
  return %v
}
