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
// Times under the cost model of loop3.args (the defaults): a compute op
// ceil(flops / 400000) ns (an HLO op also at least ceil(bytes / 2000): 1
// here), a constant and a while (they only name or pass values) 0, a
// collective 10000 + ceil(wire bytes / 100) ns = 10001 here:
//   @body: the constant 0, the add 1, the all_gather [1, 10002), the
//     contract 42: makespan 10044, compute 43; @cond: the constant 0, the
//     compare 1: makespan 1; @main: the constant 0, the while 0, the
//     all_reduce 10001: makespan 10001.
//   makespan_ns = 10001 + 3 x 10044 + 4 x 1 = 40137; compute_ns = 0 + 3 x 43
//   + 4 x 1 = 133; comm_ns = exposed = 10001 + 3 x 10001 = 40004;
//   step_ns = 0 + (3 x 10044 + 4 x 1) + 10001 = 40137;
//   exposed_floor_ns (the busiest stream minus the computation, per
//   execution) = (10001 - 0) + 3 x (10001 - 43) = 39875.
// step_peak_bytes: @body holds its arguments (4 + 64) and its constant
// %one (4) throughout; %n lives in %i's buffer and %y in %x's (what a loop
// body returns in an argument's place, once that argument is read for the
// last time); at most the all_gather's 128 unused bytes: 200; @cond 68 + 4
// + 1 = 73; @main holds %x (64) and the constant %z (4), at the while its
// results (4 + 64: buffers of their own, as a constant and a parameter of
// the entry may not be updated in place), and while the loop runs the
// larger of the body's and the condition's peaks beyond their arguments
// (200 - 68 = 132; 73 - 68 = 5): 68 + 68 + 132 = 268, more than the
// all_reduce's 68 + 64 + 64 = 196 after it. peak_bytes, each function
// alone: @body's 204 (72, %n 4 as a buffer of its own, %g 128).
// Total_bytes_moved counts the operand and result bytes of the ops read
// from HLO (those with hlo_ attributes, constants none): the add 12 x 3,
// the compare 9 x 4, the all_reduce 64 + 64 = 128: 200.
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

func @main(%x: f32[16]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1 = hlo.while %z, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16])
  %r = all_reduce %loop$1 {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add_red"} : f32[16]
  return %r
}
