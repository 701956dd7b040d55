// dimension must agree as well (beyond the original pass's key, like reduce): the
// merged all_gather has one dimension, the first member's, and the shape rules
// check every result against it. %a (no dimension, so 0) and %b
// (dimension = 0) merge under %a's attributes; %c gathers along dimension 1:
// it flushes the run and stays alone. The output verifies.
func @f(%p: bf16[2,3], %q: bf16[2,3], %r: bf16[2,3]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4,3]
  %b = all_gather %q {group_id = "dp", factor = 2, dimension = 0} : bf16[4,3]
  %c = all_gather %r {group_id = "dp", factor = 2, dimension = 1} : bf16[2,6]
  return %a, %b, %c
}
