// --internal-ccop-bucketing=false is the compiler's ccop-bucketing gate: the
// pass does not run, the module is unchanged and no stats are reported.
func @f(%p: bf16[2], %q: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %q {group_id = "dp", factor = 2} : bf16[4]
  return %a, %b
}
