// A loop whose trip count cannot be known (its condition is a constant):
// counted as 1, with a remark that names it. @body has 2 x 8 x 8 = 128
// flops, @cond 1, @main 1 + 1 (the while) = 2: Total_flops = 2 + 128 +
// 2 x 1 (the condition runs 1 + 1 times) = 132.
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
