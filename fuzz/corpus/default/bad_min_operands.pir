// min_operands must be at least 2 (a single operand is already one buffer):
// 1 is rejected before the input is read (exit 1).
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %a
}
