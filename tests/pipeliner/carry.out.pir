func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %acc: f32[4,16], %x: f32[4,8], %pipelined.0: f32[1,8], %pipelined.1: i32[], %pipelined.2: f32[1,8]) {
  %ar.prev = all_reduce %pipelined.0 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "3"} : f32[1,8]
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %row = hlo.dynamic_slice %x, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y = hlo.multiply %row, %row : f32[1,8]
  %q = hlo.negate %row : f32[1,8]
  %c.prev = hlo.concatenate %ar.prev, %pipelined.2 {hlo_dimensions = "{1}"} : f32[1,16]
  %d.prev = hlo.dynamic_update_slice %acc, %c.prev, %pipelined.1, %z : f32[4,16]
  return %n, %d.prev, %x, %y, %i, %q
}

func @cond(%i: i32[], %acc: f32[4,16], %x: f32[4,8], %pipelined.0: f32[1,8], %pipelined.1: i32[], %pipelined.2: f32[1,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a0: f32[4,16], %x: f32[4,8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %z.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %row.peeled = hlo.dynamic_slice %x, %z, %z.peeled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %y.peeled = hlo.multiply %row.peeled, %row.peeled : f32[1,8]
  %q.peeled = hlo.negate %row.peeled : f32[1,8]
  %0 = hlo.constant {hlo_constant = "1"} : i32[]
  %loop$0, %loop$1, %loop$2, %1, %2, %3 = hlo.while %0, %a0, %x, %y.peeled, %z, %q.peeled {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_,_,_)"} : (i32[], f32[4,16], f32[4,8], f32[1,8], i32[], f32[1,8])
  %z.last = hlo.constant {hlo_constant = "0"} : i32[]
  %ar.last = all_reduce %1 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[1,8]
  %c.last = hlo.concatenate %ar.last, %3 {hlo_dimensions = "{1}"} : f32[1,16]
  %d.last = hlo.dynamic_update_slice %loop$1, %c.last, %2, %z.last : f32[4,16]
  return %d.last
}
