// A result that only return uses: the done goes just before return, after
// all the work.
func @f(%g0: f32[16], %x: f32[8], %w: f32[8]) {
  %r = reduce_scatter %g0 {group_id = "dp", factor = 4, reduce = "add"} : f32[4]
  %a = tensor_contract %x, %w : f32[8]
  %b = tensor_contract %a, %w : f32[8]
  return %r, %b
}
