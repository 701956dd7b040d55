// A collective with pinned = true (an HLO control dependency) never merges:
// it is skipped like one without group_id. %a and %c merge across %b, which
// stays where it is, although its key is theirs.
func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %q {group_id = "dp", factor = 2, pinned = true} : bf16[4]
  %c = all_gather %r {group_id = "dp", factor = 2} : bf16[4]
  return %a, %b, %c
}
