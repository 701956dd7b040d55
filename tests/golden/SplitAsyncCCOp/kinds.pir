// kinds = all_reduce,reduce_scatter (in any order): the all_gather stays
// synchronous. The two dones land before return in the order of their
// starts.
func @f(%p: f32[8], %q: f32[8], %x: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %r = reduce_scatter %q {group_id = "dp", factor = 2, reduce = "add"} : f32[4]
  %a = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %c = tensor_contract %x, %x : f32[8]
  return %g, %r, %a, %c
}
