// Runs never span functions: every run is flushed at the end of its
// function. @f's two all_gathers merge; @g's single all_gather, with the same
// key, does not join them.
func @f(%p: bf16[2], %q: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %q {group_id = "dp", factor = 2} : bf16[4]
  return %a, %b
}
func @g(%p: bf16[2]) {
  %c = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  return %c
}
