// Forward pipelining (XLA's reduce-scatter and all-reduce direction), the
// shape of a scanned step's gradient: each of 4 trips reduce-scatters its
// gradient %y, all-reduces the shard over a second group, converts and
// reshapes it, and writes it into row i of the loop's buffer %grads.
// By hand: @body 1 (%one) + 1 (%n) + 16 (%y) + 0 + 0 + 8 (%c) + 8 (%r)
//   + 1 (%z) + 32 (%d) = 67 per trip; @cond 2; @main 1 + 1.
//   Total_flops = 2 + 4 x 67 + 5 x 2 = 280.
// After: trip 0 runs before the loop without the moved ops (%y.peeled 16;
// the counter it would step is the constant 1 the loop now starts from,
// 1 flop, and its %one and %n, 2, are dropped); the 3 trips left start
// with the trip before's reduce-scatter and all-reduce (on the carried
// %pipelined.0) and write its row at the carried index %pipelined.1 just
// before returning (1 + 1 + 16 + 1 + 8 + 8 + 32 = 67 a trip); the last
// trip's collectives and update run after the loop (%z.last 1, %c.last 8,
// %r.last 8, %d.last 32).
//   Total_flops = (1 + 16 + 1 + 1) + 3 x 67 + 49 + 4 x 2 = 19 + 201 + 49
//   + 8 = 277: the tensors' the same, the bookkeeping 3 fewer (one run of
//   the condition, 2, and the first trip's counter, 2, for one constant).
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %grads: bf16[4,8], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %y = hlo.multiply %x, %x : f32[16]
  %rs = reduce_scatter %y {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[8]
  %ar = all_reduce %rs {group_id = "pp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[8]
  %c = hlo.convert %ar : bf16[8]
  %r = hlo.reshape %c : bf16[1,8]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %d = hlo.dynamic_update_slice %grads, %r, %i, %z : bf16[4,8]
  return %n, %d, %y
}

func @cond(%i: i32[], %grads: bf16[4,8], %x: f32[16]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%g0: bf16[4,8], %x: f32[16]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %g0, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], bf16[4,8], f32[16])
  return %loop$1
}
