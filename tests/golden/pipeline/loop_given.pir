// The loop of loop_unknown.pir with its trip count given in the pipeline
// file (loop_given.ini: trip_counts = spin=5): @body runs 5 times, @cond
// 6: Total_flops = 2 + 5 x 128 + 6 x 1 = 648; the remark says where the
// count comes from.
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
