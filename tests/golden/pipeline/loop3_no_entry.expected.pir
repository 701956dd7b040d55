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
