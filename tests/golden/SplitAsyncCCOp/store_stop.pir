// A store to one of the collective's operands stops the done: %w is
// written by the affine_store of %a, so %g's done lands just before it,
// although %g is first used later. A store to another buffer (%o), and one
// that only reads %w (as the stored value), do not stop it. In @t the
// store writes the second operand of a tuple all_reduce.
func @f(%w: f32[8], %x: f32[8], %o: f32[8]) {
  %g = all_gather %w {group_id = "dp", factor = 2} : f32[16]
  affine_store %x, %o
  generic_store %w, %o
  %a = tensor_contract %x, %x : f32[8]
  affine_store %a, %w
  %u = tensor_contract %g, %g : f32[16]
  return %u
}

func @t(%x: f32[8], %w: f32[8]) {
  %a, %b = all_reduce %x, %w {group_id = "tp", factor = 2, reduce = "add"} : (f32[8], f32[8])
  %c = tensor_contract %x, %x : f32[8]
  generic_store %c, %w
  return %a, %b
}
