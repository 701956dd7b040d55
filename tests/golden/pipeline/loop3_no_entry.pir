// The module of loop3.pir without its entry mark: every function counts
// once, as before there were entries: Total_flops = 1 + 16777218 + 2 + 2 =
// 16777223, est_inst_count 1, step_ns 0; makespan_ns = 1 + 10044 + 1 +
// 10001 = 20047 (@add_red's add 1: it counts once too); exposed_floor_ns =
// (10001 - 43) + (10001 - 0) = 19959. peak_bytes is @body's own, 204:
// its arguments 68 and constant 4, %n 4 and the all_gather's 128.
//
// A loop of 3 trips (the canonical counted loop: a counter from 0, plus 1
// per trip, compared LT 3) with a collective in its body, and a reducer
// (@add_red, the to_apply of an all_reduce) that never runs as a function.
// By hand, flops per execution (1 per result element of an op the SDK does
// not know, 2 x domain for tensor_contract, 0 for collectives):
//   @add_red 1, @body 1 + 1 + 0 + 2 x 2048 x 4096 = 16777218, @cond 2,
//   @main 1 + 1 (the while: its first result, i32[]) + 0 = 2.
// Runs: @main 1, @body 3, @cond 4, @add_red 0.
// Total_flops = 2 + 3 x 16777218 + 4 x 2 = 50331664;
// est_inst_count = 3 x (8388608 / 2^23) = 3.
// Times under the default cost model (a compute op ceil(flops / 400000) ns,
// a collective 10000 + ceil(wire bytes / 100) ns = 10001 here):
//   @body 1, 1, the all_gather [2, 10003), the contract 42: makespan 10045,
//     compute 44; @cond makespan 2; @main 1, the while 1, the all_reduce
//     10001: makespan 10003.
//   makespan_ns = 10003 + 3 x 10045 + 4 x 2 = 40146; compute_ns = 2 + 3 x 44
//   + 4 x 2 = 142; comm_ns = exposed = 10001 + 3 x 10001 = 40004;
//   step_ns = 1 + (3 x 10045 + 4 x 2) + 10001 = 40145.
func @add_red(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %g = all_gather %x {group_id = "dp", factor = 2} : f32[32]
  %y = tensor_contract %x, %x {domain = [2048, 4096]} : f32[16]
  return %n, %y
}

func @cond(%i: i32[], %x: f32[16]) {
  %c = hlo.constant {hlo_constant = "3"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%x: f32[16]) {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1 = hlo.while %z, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16])
  %r = all_reduce %loop$1 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add_red"} : f32[16]
  return %r
}
