// max_count = 2: five same-key all_gathers become runs [%a, %b], [%c, %d]
// and [%e]; each third candidate flushes with "count cap reached".
func @f(%p: bf16[1], %q: bf16[1], %r: bf16[1], %s: bf16[1], %t: bf16[1]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[2]
  %b = all_gather %q {group_id = "dp", factor = 2} : bf16[2]
  %c = all_gather %r {group_id = "dp", factor = 2} : bf16[2]
  %d = all_gather %s {group_id = "dp", factor = 2} : bf16[2]
  %e = all_gather %t {group_id = "dp", factor = 2} : bf16[2]
  return %a, %b, %c, %d, %e
}
