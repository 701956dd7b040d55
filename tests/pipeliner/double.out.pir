func @body(%i: i32[], %w: f32[4,8], %x: f32[8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %s = hlo.dynamic_slice %w, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r = hlo.reshape %s : f32[8]
  %g = all_gather %r {group_id = "dp", factor = 2, hlo_channel_id = "1"} : f32[16]
  %h = hlo.slice %g {hlo_slice = "{[0:8]}"} : f32[8]
  %y = hlo.multiply %x, %h : f32[8]
  %one.unrolled = hlo.constant {hlo_constant = "1"} : i32[]
  %n.unrolled = hlo.add %n, %one.unrolled : i32[]
  %z.unrolled = hlo.constant {hlo_constant = "0"} : i32[]
  %s.unrolled = hlo.dynamic_slice %w, %n, %z.unrolled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.unrolled = hlo.reshape %s.unrolled : f32[8]
  %g.unrolled = all_gather %r.unrolled {group_id = "dp", factor = 2, hlo_channel_id = "3"} : f32[16]
  %h.unrolled = hlo.slice %g.unrolled {hlo_slice = "{[0:8]}"} : f32[8]
  %y.unrolled = hlo.multiply %y, %h.unrolled : f32[8]
  return %n.unrolled, %w, %y.unrolled
}

func @cond(%i: i32[], %w: f32[4,8], %x: f32[8]) {
  %c = hlo.constant {hlo_constant = "5"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%w: f32[4,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %one.peeled = hlo.constant {hlo_constant = "1"} : i32[]
  %n.peeled = hlo.add %z, %one.peeled : i32[]
  %z.peeled = hlo.constant {hlo_constant = "0"} : i32[]
  %s.peeled = hlo.dynamic_slice %w, %z, %z.peeled {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r.peeled = hlo.reshape %s.peeled : f32[8]
  %g.peeled = all_gather %r.peeled {group_id = "dp", factor = 2, hlo_channel_id = "2"} : f32[16]
  %h.peeled = hlo.slice %g.peeled {hlo_slice = "{[0:8]}"} : f32[8]
  %y.peeled = hlo.multiply %x, %h.peeled : f32[8]
  %loop$0, %loop$1, %loop$2 = hlo.while %n.peeled, %w, %y.peeled {hlo_body = "body", hlo_condition = "cond", hlo_backend_config = "{\"known_trip_count\":{\"n\":\"2\"}}"} : (i32[], f32[4,8], f32[8])
  return %loop$2
}
