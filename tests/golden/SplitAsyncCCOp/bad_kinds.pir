// An unknown kind in the kinds list is an error; nothing is written.
func @f(%p: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  return %g
}
