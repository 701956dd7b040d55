// DoubleBufferLoopUnrolling on an odd count: the loop of backward.pir with
// 5 trips. One trip is peeled before the loop, the body becomes two copies
// of itself (the second reading what the first returns), and the loop
// runs 2 trips, recorded as known_trip_count (its counter steps twice).
// By hand: before, 2 + 5 x 35 + 6 x 2 = 189; after, @main 1 + 35 (the
// peeled trip) + 1 = 37, @body 2 x 35 = 70 a trip, @cond 2 a run:
// 37 + 2 x 70 + 3 x 2 = 183, the body 5 times as before, the condition 3
// times instead of 6.
func @body(%i: i32[], %w: f32[4,8], %x: f32[8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %s = hlo.dynamic_slice %w, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r = hlo.reshape %s : f32[8]
  %g = all_gather %r {group_id = "dp", factor = 2, hlo_channel_id = "1"} : f32[16]
  %h = hlo.slice %g {hlo_slice = "{[0:8]}"} : f32[8]
  %y = hlo.multiply %x, %h : f32[8]
  return %n, %w, %y
}

func @cond(%i: i32[], %w: f32[4,8], %x: f32[8]) {
  %c = hlo.constant {hlo_constant = "5"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%w: f32[4,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %w, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,8], f32[8])
  return %loop$2
}
