// A sunk reduce-scatter never crosses a store to its operand: %r0 stops just
// before the affine_store into %g0. %r1's result has no use and the function
// has no return: it sinks to the very end (and stays after %r0).
func @f(%g0: f32[8], %g1: f32[8], %t: f32[8], %x: f32[8]) {
  %r0 = reduce_scatter %g0 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %r1 = reduce_scatter %g1 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %a = tensor_contract %x, %x : f32[8]
  affine_store %t, %g0
  %b = tensor_contract %a, %x : f32[8]
}
