func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %grads: bf16[4,8], %x: f32[16], %pipelined.0: f32[16], %pipelined.1: i32[]) {
  %rs.prev = reduce_scatter %pipelined.0 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "5"} : f32[8]
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %y = hlo.multiply %x, %x : f32[16]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %ar.prev = all_reduce %rs.prev {group_id = "pp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "6"} : f32[8]
  %c.prev = hlo.convert %ar.prev : bf16[8]
  %r.prev = hlo.reshape %c.prev : bf16[1,8]
  %d.prev = hlo.dynamic_update_slice %grads, %r.prev, %pipelined.1, %z : bf16[4,8]
  return %n, %d.prev, %y, %y, %i
}

func @cond(%i: i32[], %grads: bf16[4,8], %x: f32[16], %pipelined.0: f32[16], %pipelined.1: i32[]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%g0: bf16[4,8], %x: f32[16]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %y.peeled = hlo.multiply %x, %x : f32[16]
  %0 = hlo.constant {hlo_constant = "1"} : i32[]
  %loop$0, %loop$1, %loop$2, %1, %2 = hlo.while %0, %g0, %y.peeled, %y.peeled, %z {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_,_)"} : (i32[], bf16[4,8], f32[16], f32[16], i32[])
  %z.last = hlo.constant {hlo_constant = "0"} : i32[]
  %rs.last = reduce_scatter %1 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "3"} : f32[8]
  %ar.last = all_reduce %rs.last {group_id = "pp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "4"} : f32[8]
  %c.last = hlo.convert %ar.last : bf16[8]
  %r.last = hlo.reshape %c.last : bf16[1,8]
  %d.last = hlo.dynamic_update_slice %loop$1, %r.last, %2, %z.last : bf16[4,8]
  return %d.last
}
