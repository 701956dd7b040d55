// A member that depends on another closes the group and opens the next:
// %c gathers %b's result, so %a and %b combine, and %c with %d.
func @f(%p: f32[8], %q: f32[8], %s: f32[8]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %b = all_gather %q {group_id = "dp", factor = 2} : f32[16]
  %x = reduce %b {domain = [16]} : f32[8]
  %c = all_gather %x {group_id = "dp", factor = 2} : f32[16]
  %d = all_gather %s {group_id = "dp", factor = 2} : f32[16]
  return %a, %c, %d
}
