// Passes that move and merge collectives work inside one function: a
// collective never crosses into or out of a loop body or any called
// function. @body's two FSDP all-gathers merge with each other only (at
// the top of @body), @main's with each other only; each reduce-scatter
// stays in its function. Within @main the all-gather of %w1 after the
// while is hoisted above it like above any instruction that writes none of
// its operands (the while's results are not its operands).
func @body(%i: i32[], %x: f32[16], %w1: f32[8], %w2: f32[8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %y = tensor_contract %x, %x {domain = [16, 16]} : f32[16]
  %g1 = all_gather %w1 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %z = hlo.add %y, %g1 : f32[16]
  %g2 = all_gather %w2 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %u = hlo.add %z, %g2 : f32[16]
  %r = reduce_scatter %u {group_id = "dp", factor = 2, fsdp = true, reduce = "add"} : f32[8]
  return %n, %u, %r, %w2
}

func @cond(%i: i32[], %x: f32[16], %w1: f32[8], %w2: f32[8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%x: f32[16], %w0: f32[8], %w1: f32[8], %w2: f32[8]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %a = all_gather %w0 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %b = hlo.add %x, %a : f32[16]
  %l$0, %l$1, %l$2, %l$3 = hlo.while %z, %b, %w1, %w2 {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16], f32[8], f32[8])
  %c = all_gather %w1 {group_id = "dp", factor = 2, fsdp = true} : f32[16]
  %d = hlo.add %l$1, %c : f32[16]
  %e = reduce_scatter %d {group_id = "dp", factor = 2, fsdp = true, reduce = "add"} : f32[8]
  return %e
}
