// Nested loops: an outer loop of 2 trips whose body gathers row i of %w
// and runs an inner loop of 3 trips that gathers row j of %v. The inner
// loop is pipelined first (its body comes first), then the outer one,
// whose last trip is peeled after it: the inner loop then runs from two
// places, the outer body and that last trip. By hand, before: @ib 1 + 1 + 1 + 8 + 8 + 0 + 8 = 27 a
// trip, @ic 2, so the inner loop 3 x 27 + 4 x 2 = 89; @ob 1 + 1 + 1 + 8
// + 8 + 0 + 1 (%z0) + 1 (the while's counter) + 8 + 8 = 37, with the
// inner loop 126 a trip; @oc 2; @main 2.
//   Total_flops = 2 + 2 x 126 + 3 x 2 = 260.
// After: the outer body also carries the inner loop's first gather, which
// its peeling left there reading only %v and constants, so the outer loop
// pipelines two gathers. @ib still 27 a trip but 2 trips: 2 x 27 + 3 x 2
// = 60. @ob, its one trip left: 1 + 1 + (1 + 8 + 8) for row i+1 of %w,
// (1 + 1 + 8 + 8) for row 0 of %v, 1 + 1 for the inner loop, 8 + 8 + 8
// (%h.last, %h, %y) = 63, with the inner loop 123; @oc 2 x 2. @main: both
// first gathers' chains (17 + 18), the loop's counter 1 and its while 1,
// the last trip (1 + 1 for the inner loop, 60 for its trips, 8 + 8 + 8).
//   Total_flops = 127 + (35 + 2 + 2 + 60 + 24) = 127 + 123 = 250.
// The tensors' work is the same: 2 gathers of %w and 6 of %v, each slice
// and add as often; the 10 flops fewer are one run fewer of each
// condition (2 + 2 x 2) and the last trips' counters nothing reads.
func @ib(%j: i32[], %v: f32[3,8], %x: f32[8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %j, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %s = hlo.dynamic_slice %v, %j, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r = hlo.reshape %s : f32[8]
  %g = all_gather %r {group_id = "dp", factor = 2, dimension = 0} : f32[16]
  %h = hlo.slice %g {hlo_slice = "{[0:8]}"} : f32[8]
  return %n, %v, %h
}

func @ic(%j: i32[], %v: f32[3,8], %x: f32[8]) {
  %c = hlo.constant {hlo_constant = "3"} : i32[]
  %lt = hlo.compare %j, %c {hlo_direction = "LT"} : bool[]
  return %lt
}

func @ob(%i: i32[], %w: f32[2,8], %v: f32[3,8], %x: f32[8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %s = hlo.dynamic_slice %w, %i, %z {hlo_dynamic_slice_sizes = "{1,8}"} : f32[1,8]
  %r = hlo.reshape %s : f32[8]
  %g = all_gather %r {group_id = "dp", factor = 2} : f32[16]
  %z0 = hlo.constant {hlo_constant = "0"} : i32[]
  %in$0, %in$1, %in$2 = hlo.while %z0, %v, %x {hlo_body = "ib", hlo_condition = "ic"} : (i32[], f32[3,8], f32[8])
  %h = hlo.slice %g {hlo_slice = "{[8:16]}"} : f32[8]
  %y = hlo.add %in$2, %h : f32[8]
  return %n, %w, %v, %y
}

func @oc(%i: i32[], %w: f32[2,8], %v: f32[3,8], %x: f32[8]) {
  %c = hlo.constant {hlo_constant = "2"} : i32[]
  %lt = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %lt
}

func @main(%w: f32[2,8], %v: f32[3,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %out$0, %out$1, %out$2, %out$3 = hlo.while %z, %w, %v, %x {hlo_body = "ob", hlo_condition = "oc"} : (i32[], f32[2,8], f32[3,8], f32[8])
  return %out$3
}
