// Starts combine like collectives: the combined start goes where the last
// start was, the combined done where the last done was, and %u (a user
// of the first done) moves after it.
func @f(%p: f32[8], %q: f32[8], %x: f32[64,64]) {
  %a_s = all_reduce_start %p {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %a = all_reduce_done %a_s : f32[8]
  %u = acme.scale %a : f32[8]
  %b_s = all_reduce_start %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %h = tensor_contract %x, %x {domain = [64, 64, 64]} : f32[64,64]
  %b = all_reduce_done %b_s : f32[8]
  return %u, %h, %b
}
