func @body(%i: i32[], %w: f32[4,8], %x: f32[8], %pipelined.0: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z.next = hlo.constant {hlo_constant = "0"} : i32[]
  %s.next = hlo.dynamic_slice %w, %n, %z.next {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.next = hlo.reshape %s.next : f32[8]
  %g.next = all_gather %r.next {group_id = "dp", factor = 2, hlo_channel_id = "3"} : f32[16]
  %h = hlo.slice %pipelined.0 {hlo_slice = "{[0:8]}"} : f32[8]
  %y = hlo.multiply %x, %h : f32[8]
  return %n, %w, %y, %g.next
}

func @cond(%i: i32[], %w: f32[4,8], %x: f32[8], %pipelined.0: f32[16]) {
  %0 = hlo.constant {hlo_constant = "3"} : i32[]
  %1 = hlo.compare %i, %0 {hlo_direction = "LT"} : bool[]
  return %1
}

func @main(%w: f32[4,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %z.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %s.peeled = hlo.dynamic_slice %w, %z, %z.peeled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.peeled = hlo.reshape %s.peeled : f32[8]
  %g.peeled = all_gather %r.peeled {group_id = "dp", factor = 2, hlo_channel_id = "2"} : f32[16]
  %loop$0, %loop$1, %loop$2, %0 = hlo.while %z, %w, %x, %g.peeled {hlo_body = "body", hlo_condition = "cond", hlo_operands = "(_,_,_,_)"} : (i32[], f32[4,8], f32[8], f32[16])
  %h.last = hlo.slice %0 {hlo_slice = "{[0:8]}"} : f32[8]
  %y.last = hlo.multiply %loop$2, %h.last : f32[8]
  return %y.last
}
