// Dones that land before the same instruction keep the order of their
// starts, whatever the order the instruction names them in: %u reads %r
// before %g. In @h the store writes %x, an operand of %s, and stores %t:
// both dones land before it, %s's first.
func @f(%p: f32[8], %q: f32[8], %x: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %r = all_reduce %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %a = tensor_contract %x, %x : f32[8]
  %u = tensor_contract %r, %g : f32[8]
  return %u
}

func @h(%x: f32[8], %q: f32[8], %o: f32[16]) {
  %s = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %t = all_gather %q {group_id = "dp", factor = 2} : f32[16]
  affine_store %t, %x
  return %s
}
