// Forward-sink (XLA's third direction), the shape of XLA's sink tests:
// each of 4 trips squares row i of %x, all-reduces it, scales it by a
// broadcast constant and writes it into row i of %acc, one row per trip.
// By hand: @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%row) + 8 (%y) + 0 (%ar)
//   + 1 (%s) + 8 (%b) + 8 (%m) + 32 (%d) = 68 per trip; @cond 2;
//   @main 1 + 1. Total_flops = 2 + 4 x 68 + 5 x 2 = 284.
// After: the loop keeps its 4 trips and writes each trip's %y, before
// the all-reduce, into row i of a new element %sunk.0 (32 a trip, as %d
// was), which starts as %acc's initial value (every row is written) and
// whose indices are %d's; %acc itself goes through unchanged. After the
// loop one all-reduce of the 4 rows (%ar.sunk, 0), the scale made at the
// stacked shape (%s.sunk 1, its broadcast 32) and %m.sunk (32) stand for
// the buffer. @body 1 + 1 + 1 + 8 + 8 + 32 = 51 a trip.
//   Total_flops = 4 x 51 + 5 x 2 + (1 + 1 + 1 + 32 + 32) = 204 + 10 + 67
//   = 281: the tensors' the same, the constant %s made once, not 4 times.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,8], %x: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y = hlo.multiply %row, %row : f32[1,8]
  %ar = all_reduce %y {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[1,8]
  %s = hlo.constant {hlo_constant = "2"} : f32[]
  %b = hlo.broadcast %s {hlo_dimensions = "{}"} : f32[1,8]
  %m = hlo.multiply %ar, %b : f32[1,8]
  %d = hlo.dynamic_update_slice %acc, %m, %i, %z : f32[4,8]
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
