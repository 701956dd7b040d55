func @ib(%j: i32[], %v: f32[3,8], %x: f32[8], %pipelined.0: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %j, %one : i32[]
  %z.next = hlo.constant {hlo_constant = "0"} : i32[]
  %s.next = hlo.dynamic_slice %v, %n, %z.next {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.next = hlo.reshape %s.next : f32[8]
  %g.next = all_gather %r.next {group_id = "dp", factor = 2, dimension = 0} : f32[16]
  %h = hlo.slice %pipelined.0 {hlo_slice = "{[0:8]}"} : f32[8]
  return %n, %v, %h, %g.next
}

func @ic(%j: i32[], %v: f32[3,8], %x: f32[8], %pipelined.0: f32[16]) {
  %0 = hlo.constant {hlo_constant = "2"} : i32[]
  %1 = hlo.compare %j, %0 {hlo_direction = "LT"} : bool[]
  return %1
}

func @ob(%i: i32[], %w: f32[2,8], %v: f32[3,8], %x: f32[8], %pipelined.0: f32[16], %pipelined.1: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z.next = hlo.constant {hlo_constant = "0"} : i32[]
  %s.next = hlo.dynamic_slice %w, %n, %z.next {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.next = hlo.reshape %s.next : f32[8]
  %z0.next = hlo.constant {hlo_constant = "0"} : i32[]
  %z.peeled.next = hlo.constant {hlo_constant = "0"} : i32[]
  %s.peeled.next = hlo.dynamic_slice %v, %z0.next, %z.peeled.next {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.peeled.next = hlo.reshape %s.peeled.next : f32[8]
  %g.next = all_gather %r.next {group_id = "dp", factor = 2} : f32[16]
  %g.peeled.next = all_gather %r.peeled.next {group_id = "dp", factor = 2, dimension = 0} : f32[16]
  %z0 = hlo.constant {hlo_constant = "0"} : i32[]
  %in$0, %in$1, %in$2, %0 = hlo.while %z0, %v, %x, %pipelined.1 {hlo_body = "ib", hlo_condition = "ic", hlo_operands = "(_,_,_,_)"} : (i32[], f32[3,8], f32[8], f32[16])
  %h.last = hlo.slice %0 {hlo_slice = "{[0:8]}"} : f32[8]
  %h = hlo.slice %pipelined.0 {hlo_slice = "{[8:16]}"} : f32[8]
  %y = hlo.add %h.last, %h : f32[8]
  return %n, %w, %v, %y, %g.next, %g.peeled.next
}

func @oc(%i: i32[], %w: f32[2,8], %v: f32[3,8], %x: f32[8], %pipelined.0: f32[16], %pipelined.1: f32[16]) {
  %0 = hlo.constant {hlo_constant = "1"} : i32[]
  %1 = hlo.compare %i, %0 {hlo_direction = "LT"} : bool[]
  return %1
}

func @main(%w: f32[2,8], %v: f32[3,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %z.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %s.peeled = hlo.dynamic_slice %w, %z, %z.peeled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.peeled = hlo.reshape %s.peeled : f32[8]
  %z0.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %z.peeled.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %s.peeled.peeled = hlo.dynamic_slice %v, %z0.peeled, %z.peeled.peeled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.peeled.peeled = hlo.reshape %s.peeled.peeled : f32[8]
  %g.peeled = all_gather %r.peeled {group_id = "dp", factor = 2} : f32[16]
  %g.peeled.peeled = all_gather %r.peeled.peeled {group_id = "dp", factor = 2, dimension = 0} : f32[16]
  %out$0, %out$1, %out$2, %out$3, %0, %1 = hlo.while %z, %w, %v, %x, %g.peeled, %g.peeled.peeled {hlo_body = "ob", hlo_condition = "oc", hlo_operands = "(_,_,_,_,_,_)"} : (i32[], f32[2,8], f32[3,8], f32[8], f32[16], f32[16])
  %z0.last = hlo.constant {hlo_constant = "0"} : i32[]
  %in$0.last, %in$1.last, %in$2.last, %2 = hlo.while %z0.last, %out$2, %out$3, %1 {hlo_body = "ib", hlo_condition = "ic"} : (i32[], f32[3,8], f32[8], f32[16])
  %h.last.last = hlo.slice %2 {hlo_slice = "{[0:8]}"} : f32[8]
  %h.last = hlo.slice %0 {hlo_slice = "{[8:16]}"} : f32[8]
  %y.last = hlo.add %h.last.last, %h.last : f32[8]
  return %y.last
}
