// Forward-sink of an all-reduce whose rows are no leading extent of 1:
// each of 4 trips all-reduces its row %v (f32[8]), takes 4 elements from
// offset 4 (%ds), pads them to 6 and writes them, reshaped, into row i of
// %acc. The stack of the 4 all-reduce operands gets a new leading
// dimension (f32[4,8]: each trip reshapes its row, 8, and writes it, 32),
// starts from zeros (1 + 32: %acc has another type), and after the loop
// the dynamic-slice takes every row at index 0 in the new dimension and
// the pad pads none there.
// By hand: @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%row) + 8 (%v) + 0 (%ar)
//   + 1 (%off) + 4 (%ds) + 1 (%pz) + 6 (%pd) + 6 (%t) + 24 (%d) = 61 per
//   trip; @cond 2; @main 1 + 1. Total_flops = 2 + 4 x 61 + 5 x 2 = 256.
// After: @body 1 + 1 + 1 + 8 + 8 + 8 + 32 = 59 a trip; the zero start
// 33; after the loop %off.sunk 1, %pz.sunk 1, the index 0 1, %ar.sunk 0,
// %ds.sunk 16, %pd.sunk 24, %t.sunk 24.
//   Total_flops = 2 + 4 x 59 + 5 x 2 + 33 + 67 = 348: the stack of whole
//   rows, written each trip, is what XLA's sink holds.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,1,6], %x: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %v = hlo.reshape %row : f32[8]
  %ar = all_reduce %v {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[8]
  %off = hlo.constant {hlo_constant = "4"} : i32[]
  %ds = hlo.dynamic_slice %ar, %off {hlo_dynamic_slice_sizes = "{4}"} : f32[4]
  %pz = hlo.constant {hlo_constant = "0"} : f32[]
  %pd = hlo.pad %ds, %pz {hlo_padding = "0_2"} : f32[6]
  %t = hlo.reshape %pd : f32[1,1,6]
  %d = hlo.dynamic_update_slice %acc, %t, %i, %z, %z : f32[4,1,6]
  return %n, %d, %x
}

func @cond(%i: i32[], %acc: f32[4,1,6], %x: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,1,6], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %a0, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,1,6], f32[4,8])
  return %loop$1
}
