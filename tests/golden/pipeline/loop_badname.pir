// A trip count given for a loop the module does not have is an error in
// the pipeline (exit status 1), found before any pass runs.
func @main(%x: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %spin$0, %spin$1 = hlo.while %z, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[8])
  return %spin$1
}

func @body(%i: i32[], %x: f32[8]) {
  %y = tensor_contract %x, %x {domain = [8, 8]} : f32[8]
  return %i, %y
}

func @cond(%i: i32[], %x: f32[8]) {
  %t = hlo.constant {hlo_constant = "true"} : bool[]
  return %t
}
