// Forward-sink of an all-reduce written into two buffers (XLA's sink
// takes every dynamic-update-slice its chain ends in): each of 4 trips
// writes the all-reduced row into row i of %acc1, and converted into row
// i of %acc2.
// By hand: @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%row) + 8 (%y) + 0 (%ar)
//   + 8 (%c) + 32 (%d1) + 32 (%d2) = 91 per trip; @cond 2; @main 1 + 1.
//   Total_flops = 2 + 4 x 91 + 5 x 2 = 376.
// After: the stack of %y has %acc1's type and starts from its initial
// value; @body 1 + 1 + 1 + 8 + 8 + 32 (the row written) = 51 a trip;
// after the loop %ar.sunk (0) stands for %acc1 and %c.sunk (32) for %acc2.
//   Total_flops = 2 + 4 x 51 + 5 x 2 + 32 = 248: one row write a trip
//   instead of two, one convert of the stack instead of 4 of a row.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc1: f32[4,8], %acc2: bf16[4,8], %x: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y = hlo.multiply %row, %row : f32[1,8]
  %ar = all_reduce %y {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[1,8]
  %c = hlo.convert %ar : bf16[1,8]
  %d1 = hlo.dynamic_update_slice %acc1, %ar, %i, %z : f32[4,8]
  %d2 = hlo.dynamic_update_slice %acc2, %c, %i, %z : bf16[4,8]
  return %n, %d1, %d2, %x
}

func @cond(%i: i32[], %acc1: f32[4,8], %acc2: bf16[4,8], %x: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a1: f32[4,8], %a2: bf16[4,8], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2, %loop$3 = hlo.while %z, %a1, %a2, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,8], bf16[4,8], f32[4,8])
  return %loop$1, %loop$2
}
