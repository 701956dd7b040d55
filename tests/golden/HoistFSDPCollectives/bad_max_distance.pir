// max_distance must be at least 0: -3 is rejected before the input is read
// (exit 1).
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %a
}
