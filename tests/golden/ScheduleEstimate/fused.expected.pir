func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @step(%x: f32[4,8], %w: f32[8,8]) {
  %c = hlo.constant {hlo_constant = "0"} : f32[]
  %m = hlo.multiply %x, %x : f32[4,8]
  %r = hlo.reduce %m, %c {hlo_dimensions = "{1}", hlo_to_apply = "%add"} : f32[4]
  %n = hlo.negate %r : f32[4]
  %d = tensor_contract %x, %w {domain = [4, 8, 8]} : f32[4,8]
  %g = all_reduce %d {factor = 2, group_id = "dp"} : f32[4,8]
  %e = hlo.exponential %g : f32[4,8]
  return %n, %e
}
