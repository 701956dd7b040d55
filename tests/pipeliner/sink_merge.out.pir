func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,8], %x: f32[4,8], %sunk.0: f32[4,8], %sunk.1: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y1 = hlo.multiply %row, %row : f32[1,8]
  %y2 = hlo.negate %row : f32[1,8]
  %y1.rows = hlo.dynamic_update_slice %sunk.0, %y1, %i, %z : f32[4,8]
  %y2.rows = hlo.dynamic_update_slice %sunk.1, %y2, %i, %z : f32[4,8]
  return %n, %acc, %x, %y1.rows, %y2.rows
}

func @cond(%i: i32[], %acc: f32[4,8], %x: f32[4,8], %sunk.0: f32[4,8], %sunk.1: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,8], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %0 = hlo.constant {hlo_constant = "0"} : f32[]
  %1 = hlo.broadcast %0 {hlo_dimensions = "{}"} : f32[4,8]
  %loop$0, %loop$1, %loop$2, %2, %3 = hlo.while %z, %a0, %x, %a0, %1 {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_,_)"} : (i32[], f32[4,8], f32[4,8], f32[4,8], f32[4,8])
  %ar1.sunk = all_reduce %2 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "3"} : f32[4,8]
  %ar2.sunk = all_reduce %3 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "4"} : f32[4,8]
  %s.sunk = hlo.add %ar1.sunk, %ar2.sunk : f32[4,8]
  return %s.sunk
}
