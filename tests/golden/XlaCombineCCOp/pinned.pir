// A pinned collective is never combined; a pinned instruction that
// depends on a member cannot move, so the candidate after it ends the
// group (%a and %b stay apart; %b and %c combine).
func @f(%p: f32[8], %q: f32[8], %r: f32[8], %s: f32[8]) {
  %a = all_reduce %p {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %n = acme.log %a {pinned = true} : f32[8]
  %z = all_reduce %s {group_id = "dp", factor = 2, reduce = "add", pinned = true} : f32[8]
  %b = all_reduce %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %c = all_reduce %r {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  return %n, %z, %b, %c
}
