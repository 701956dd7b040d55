// A collective that reads another's result: the first done lands just
// before the second start.
func @f(%p: f32[8], %x: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %a = tensor_contract %x, %x : f32[8]
  %r = all_reduce %g {group_id = "tp", factor = 2, reduce = "add"} : f32[16]
  %b = tensor_contract %a, %x : f32[8]
  return %r, %b
}
