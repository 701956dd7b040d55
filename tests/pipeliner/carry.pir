// Forward, a formatting op reading a value the loop computes: each of 4
// trips all-reduces its squared row %y and concatenates it with %q, the
// row negated, which XLA carries to the next trip as one more loop
// element beside the all-reduce's operand and the update index.
// By hand: @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%row) + 8 (%y) + 0 (%ar)
//   + 8 (%q) + 16 (%c) + 64 (%d) = 107 per trip; @cond 2; @main 1 + 1.
//   Total_flops = 2 + 4 x 107 + 5 x 2 = 440.
// After: trip 0 runs before the loop without %ar, %c and %d (%z 1, %row
// 8, %y 8, %q 8; its counter, 2, is the constant 1 the loop starts from,
// 1); the 3 trips left start with the trip before's all-reduce on the
// carried %pipelined.0 and end with its concatenate (on the carried
// %pipelined.2, the trip before's %q) and update at %pipelined.1 (107 a
// trip); the last trip's all-reduce, concatenate and update run after the
// loop (%z.last 1, %c.last 16, %d.last 64).
//   Total_flops = (1 + 1 + 1) + 25 + 3 x 107 + 81 + 4 x 2 = 438.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,16], %x: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y = hlo.multiply %row, %row : f32[1,8]
  %ar = all_reduce %y {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[1,8]
  %q = hlo.negate %row : f32[1,8]
  %c = hlo.concatenate %ar, %q {hlo_dimensions = "{1}"} : f32[1,16]
  %d = hlo.dynamic_update_slice %acc, %c, %i, %z : f32[4,16]
  return %n, %d, %x
}

func @cond(%i: i32[], %acc: f32[4,16], %x: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,16], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %a0, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,16], f32[4,8])
  return %loop$1
}
