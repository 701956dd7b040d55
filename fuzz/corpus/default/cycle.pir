// %b gathers %a, the result of the run's first member: merging them would
// make the merged all_gather read its own result (a cycle). %b cannot be
// issued at %a, so it flushes the run of %a; nothing merges.
func @f(%p: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %a {group_id = "dp", factor = 2} : bf16[8]
  return %b
}
