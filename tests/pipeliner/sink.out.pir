func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,8], %x: f32[4,8], %sunk.0: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y = hlo.multiply %row, %row : f32[1,8]
  %y.rows = hlo.dynamic_update_slice %sunk.0, %y, %i, %z : f32[4,8]
  return %n, %acc, %x, %y.rows
}

func @cond(%i: i32[], %acc: f32[4,8], %x: f32[4,8], %sunk.0: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,8], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2, %0 = hlo.while %z, %a0, %x, %a0 {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_)"} : (i32[], f32[4,8], f32[4,8], f32[4,8])
  %s.sunk = hlo.constant {hlo_constant = "2"} : f32[]
  %ar.sunk = all_reduce %0 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[4,8]
  %b.sunk = hlo.broadcast %s.sunk {hlo_dimensions = "{}"} : f32[4,8]
  %m.sunk = hlo.multiply %ar.sunk, %b.sunk : f32[4,8]
  return %m.sunk
}
