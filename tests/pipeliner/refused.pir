// Collectives XLA's CollectivePipeliner leaves where they are, each with
// its reason. Loop %a (3 trips): a reduce-scatter whose result is
// negated before its dynamic-update-slice (a negate is no formatting
// op), an all-reduce with a control dependency (pinned), and an
// all-gather whose operand chain reads %x, an element the body changes.
// Loop %b: its bound is an argument, so its trip count is not known.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body_a(%i: i32[], %buf: f32[3,8], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %rs = reduce_scatter %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add"} : f32[8]
  %m = hlo.negate %rs : f32[8]
  %r = hlo.reshape %m : f32[1,8]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %d = hlo.dynamic_update_slice %buf, %r, %i, %z : f32[3,8]
  %p = all_reduce %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", pinned = true} : f32[16]
  %h = hlo.slice %x {hlo_slice = "{[0:8]}"} : f32[8]
  %g = all_gather %h {group_id = "dp", factor = 2} : f32[16]
  %y = hlo.add %p, %g : f32[16]
  return %n, %d, %y
}

func @cond_a(%i: i32[], %buf: f32[3,8], %x: f32[16]) {
  %c = hlo.constant {hlo_constant = "3"} : i32[]
  %lt = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %lt
}

func @body_b(%i: i32[], %k: i32[], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %g = all_reduce %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add"} : f32[16]
  return %n, %k, %g
}

func @cond_b(%i: i32[], %k: i32[], %x: f32[16]) {
  %lt = hlo.compare %i, %k {hlo_direction = "LT"} : bool[]
  return %lt
}

func @main(%buf: f32[3,8], %x: f32[16], %k: i32[]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %a$0, %a$1, %a$2 = hlo.while %z, %buf, %x {hlo_body = "body_a", hlo_condition = "cond_a"} : (i32[], f32[3,8], f32[16])
  %b$0, %b$1, %b$2 = hlo.while %z, %k, %a$2 {hlo_body = "body_b", hlo_condition = "cond_b"} : (i32[], i32[], f32[16])
  return %a$1, %b$2
}
