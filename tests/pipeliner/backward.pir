// Backward pipelining (XLA's all-gather direction): a 4-trip loop whose
// body gathers row i of a stacked parameter %w the loop never changes.
// By hand (1 flop per result element of an hlo op, 0 for a collective):
//   @body 1 (%one) + 1 (%n) + 1 (%z) + 8 (%s) + 8 (%r) + 0 (%g) + 8 (%h)
//   + 8 (%y) = 35 per trip; @cond 2 per run; @main 1 (%z) + 1 (the while).
//   Total_flops = 2 + 4 x 35 + 5 x 2 = 152.
// After: row 0 is gathered before the loop (%z.peeled 1, %s.peeled 8,
// %r.peeled 8), each of the 3 trips left gathers row i+1 right after its
// counter is stepped (%z.next 1, %s.next 8, %r.next 8 for the body's %z,
// %s, %r: still 35 a trip) and the last trip's body runs after the loop
// on the carried gather (%h.last 8, %y.last 8; its counter, which nothing
// reads, dropped with its constant). The condition keeps 2 flops (its new
// bound is 3).
//   Total_flops = (1 + 17 + 1 + 16) + 3 x 35 + 4 x 2 = 35 + 105 + 8 = 148:
//   the tensors' flops are the same; the loop's bookkeeping is 4 fewer
//   (one run of the condition, 2, and the last trip's unused counter, 2).
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
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%w: f32[4,8], %x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %w, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[4,8], f32[8])
  return %loop$2
}
