// Forward-sink of two all-reduces whose results one add combines before
// the update (XLA merges collectives that share a dynamic-update-slice):
// both leave the loop, each with its operand stacked.
// By hand: @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%row) + 8 (%y1) + 8 (%y2)
//   + 0 (%ar1) + 0 (%ar2) + 8 (%s) + 32 (%d) = 67 per trip; @cond 2;
//   @main 1 + 1. Total_flops = 2 + 4 x 67 + 5 x 2 = 280.
// After: @body 1 + 1 + 1 + 8 + 8 + 8 + 32 + 32 (two rows written) = 91 a
// trip; the stack of %y1 starts from %acc's initial value, that of %y2
// from zeros (1 + 32); after the loop %ar1.sunk and %ar2.sunk (0) and
// %s.sunk (32).
//   Total_flops = 2 + 4 x 91 + 5 x 2 + 33 + 32 = 441: two stacks of rows
//   written where one buffer was.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,8], %x: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y1 = hlo.multiply %row, %row : f32[1,8]
  %y2 = hlo.negate %row : f32[1,8]
  %ar1 = all_reduce %y1 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[1,8]
  %ar2 = all_reduce %y2 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[1,8]
  %s = hlo.add %ar1, %ar2 : f32[1,8]
  %d = hlo.dynamic_update_slice %acc, %s, %i, %z : f32[4,8]
  return %n, %d, %x
}

func @cond(%i: i32[], %acc: f32[4,8], %x: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,8], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %a0, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,8], f32[4,8])
  return %loop$1
}
