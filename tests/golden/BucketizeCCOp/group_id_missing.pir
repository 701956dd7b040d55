// A collective without group_id, or with group_id = "", is not bucketizable:
// it is skipped and flushes nothing. %a, %c and %e merge across %b and %d,
// which stay where they are (after the merged all_gather at %a's place).
func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %s: bf16[2], %t: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %q {factor = 2} : bf16[4]
  %c = all_gather %r {group_id = "dp", factor = 2} : bf16[4]
  %d = all_gather %s {group_id = "", factor = 2} : bf16[4]
  %e = all_gather %t {group_id = "dp", factor = 2} : bf16[4]
  return %a, %b, %c, %d, %e
}
