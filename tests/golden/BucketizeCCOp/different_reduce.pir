// reduce is part of the key (an add must not merge with a max): %a and %b
// (add) merge; %c (max) flushes them and stays alone, because %d, which has
// no reduce at all, flushes it in turn.
func @f(%p: f32[4], %q: f32[4], %r: f32[4], %s: f32[4]) {
  %a = all_reduce %p {group_id = "tp", factor = 2, reduce = "add"} : f32[4]
  %b = all_reduce %q {group_id = "tp", factor = 2, reduce = "add"} : f32[4]
  %c = all_reduce %r {group_id = "tp", factor = 2, reduce = "max"} : f32[4]
  %d = all_reduce %s {group_id = "tp", factor = 2} : f32[4]
  return %a, %b, %c, %d
}
