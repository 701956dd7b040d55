// A change of factor against the run's last member flushes the run: %a and
// %b (factor 8) merge; %c (factor 4) starts a new run, which %d joins.
func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %s: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 8} : bf16[16]
  %b = all_gather %q {group_id = "dp", factor = 8} : bf16[16]
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  %d = all_gather %s {group_id = "dp", factor = 4} : bf16[8]
  return %a, %b, %c, %d
}
