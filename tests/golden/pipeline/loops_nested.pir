// Nested loops and a conditional. The outer loop's trip count, 2, is its
// backend config's known_trip_count (its condition decides nothing we can
// read); the inner one counts down: from 8, minus 2 per trip, while GT 0:
// 8, 6, 4, 2, so 4 trips. A conditional's branches each count once per
// execution of the conditional. Callees come after their callers here.
// By hand, flops per execution (1 per result element, 2 x domain for the
// contract) and runs:
//   @main      1 + 1                          =    2, runs 1  ->    2
//   @outer_cond 1                             =    1, runs 3  ->    3
//   @outer_body 1 + 1 + 1 + 1                 =    4, runs 2  ->    8
//   @inner_cond 1 + 1                         =    2, runs 2 x 5 = 10 -> 20
//   @inner_body 1 + 1 + 1 + 16 (f32[16])      =   19, runs 2 x 4 = 8 -> 152
//   @then      2 x 16 x 16                    =  512, runs 8  -> 4096
//   @else      16                             =   16, runs 8  ->  128
// Total_flops = 2 + 3 + 8 + 20 + 152 + 4096 + 128 = 4409.
func @main(%x: f32[16]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %outer$0, %outer$1 = hlo.while %z, %x {hlo_condition = "outer_cond", hlo_body = "outer_body", hlo_backend_config = "{\"known_trip_count\":{\"n\":\"2\"}}"} : (i32[], f32[16])
  return %outer$1
}

func @outer_cond(%i: i32[], %x: f32[16]) {
  %t = hlo.constant {hlo_constant = "true"} : bool[]
  return %t
}

func @outer_body(%i: i32[], %x: f32[16]) {
  %e = hlo.constant {hlo_constant = "8"} : i32[]
  %inner$0, %inner$1 = hlo.while %e, %x {hlo_condition = "inner_cond", hlo_body = "inner_body"} : (i32[], f32[16])
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  return %n, %inner$1
}

func @inner_cond(%j: i32[], %x: f32[16]) {
  %zero = hlo.constant {hlo_constant = "0"} : i32[]
  %p = hlo.compare %j, %zero {hlo_direction = "GT"} : bool[]
  return %p
}

func @inner_body(%j: i32[], %x: f32[16]) {
  %two = hlo.constant {hlo_constant = "2"} : i32[]
  %k = hlo.subtract %j, %two : i32[]
  %pred = hlo.constant {hlo_constant = "true"} : bool[]
  %c = hlo.conditional %pred, %x, %x {hlo_true_computation = "then", hlo_false_computation = "else"} : f32[16]
  return %k, %c
}

func @then(%a: f32[16]) {
  %y = tensor_contract %a, %a {domain = [16, 16]} : f32[16]
  return %y
}

func @else(%a: f32[16]) {
  %y = hlo.negate %a : f32[16]
  return %y
}
