// A change of group_id flushes: reduce_scatters %a and %b on "dp" merge; %c
// on "tp" stays alone (a run of one changes nothing).
func @f(%p: f32[8], %q: f32[8], %r: f32[8]) {
  %a = reduce_scatter %p {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %b = reduce_scatter %q {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %c = reduce_scatter %r {group_id = "tp", factor = 4, reduce = "add"} : f32[2]
  return %a, %b, %c
}
