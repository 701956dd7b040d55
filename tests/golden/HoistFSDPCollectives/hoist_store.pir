// A hoisted all-gather never crosses a store to one of its operands: %g
// stops just after the affine_store into %w. %k (operand %v, an argument,
// never stored to) could rise to the top, but it never passes %g (order is
// kept): it goes right after %g. It does pass the generic_store into %x,
// which is not its operand.
func @f(%x: bf16[4], %w: bf16[1], %v: bf16[1], %t: bf16[1]) {
  %a = tensor_contract %x, %x : bf16[4]
  affine_store %t, %w
  %b = tensor_contract %a, %x : bf16[4]
  %g = all_gather %w {group_id = "dp", factor = 4, fsdp = true} : bf16[4]
  %c = tensor_contract %b, %g : bf16[4]
  generic_store %t, %x
  %k = all_gather %v {group_id = "dp", factor = 4} : bf16[4]
  return %c, %k
}
