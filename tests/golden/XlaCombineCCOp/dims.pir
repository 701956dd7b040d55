// combine_by_dim = false: gathers along dimensions 0, 1 and 1 combine
// along the most frequent one (1); the dimension-0 member is transposed
// (swapping 0 and 1) before and after, as XLA bitcasts it.
func @f(%p: f32[2,4], %q: f32[4,2], %r: f32[6,3]) {
  %a = all_gather %p {group_id = "dp", factor = 2, dimension = 0} : f32[4,4]
  %b = all_gather %q {group_id = "dp", factor = 2, dimension = 1} : f32[4,4]
  %c = all_gather %r {group_id = "dp", factor = 2, dimension = 1} : f32[6,6]
  return %a, %b, %c
}
