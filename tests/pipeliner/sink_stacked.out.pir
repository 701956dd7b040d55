func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,1,6], %x: f32[4,8], %sunk.0: f32[4,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %v = hlo.reshape %row : f32[8]
  %0 = hlo.reshape %v : f32[1,8]
  %v.rows = hlo.dynamic_update_slice %sunk.0, %0, %i, %z : f32[4,8]
  return %n, %acc, %x, %v.rows
}

func @cond(%i: i32[], %acc: f32[4,1,6], %x: f32[4,8], %sunk.0: f32[4,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,1,6], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %0 = hlo.constant {hlo_constant = "0"} : f32[]
  %1 = hlo.broadcast %0 {hlo_dimensions = "{}"} : f32[4,8]
  %loop$0, %loop$1, %loop$2, %2 = hlo.while %z, %a0, %x, %1 {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_)"} : (i32[], f32[4,1,6], f32[4,8], f32[4,8])
  %off.sunk = hlo.constant {hlo_constant = "4"} : i32[]
  %pz.sunk = hlo.constant {hlo_constant = "0"} : f32[]
  %ar.sunk = all_reduce %2 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[4,8]
  %3 = hlo.constant {hlo_constant = "0"} : i32[]
  %ds.sunk = hlo.dynamic_slice %ar.sunk, %3, %off.sunk {hlo_dynamic_slice_sizes = "{4,4}"} : f32[4,4]
  %pd.sunk = hlo.pad %ds.sunk, %pz.sunk {hlo_padding = "0_0x0_2"} : f32[4,6]
  %t.sunk = hlo.reshape %pd.sunk : f32[4,1,6]
  return %t.sunk
}
