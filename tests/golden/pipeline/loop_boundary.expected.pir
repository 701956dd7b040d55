func @body(%i: i32[], %x: f32[16], %w1: f32[8], %w2: f32[8]) {
  %g1_buf = pack %w1, %w2 {kind = "all_gather", factor = 2, offsets = [0, 8], counts = [8, 8], dimensions = [0, 0]} : f32[16]
  %g1_flat = all_gather %g1_buf {group_id = "dp", factor = 2, fsdp = true} : f32[32]
  %g1, %g2 = unpack %g1_flat {kind = "all_gather", factor = 2, offsets = [0, 8], counts = [8, 8], dimensions = [0, 0]} : (f32[16], f32[16])
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %y = tensor_contract %x, %x {domain = [16, 16]} : f32[16]
  %z = hlo.add %y, %g1 : f32[16]
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
  %a_buf = pack %w0, %w1 {kind = "all_gather", factor = 2, offsets = [0, 8], counts = [8, 8], dimensions = [0, 0]} : f32[16]
  %a_flat = all_gather %a_buf {group_id = "dp", factor = 2, fsdp = true} : f32[32]
  %a, %c = unpack %a_flat {kind = "all_gather", factor = 2, offsets = [0, 8], counts = [8, 8], dimensions = [0, 0]} : (f32[16], f32[16])
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %b = hlo.add %x, %a : f32[16]
  %l$0, %l$1, %l$2, %l$3 = hlo.while %z, %b, %w1, %w2 {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16], f32[8], f32[8])
  %d = hlo.add %l$1, %c : f32[16]
  %e = reduce_scatter %d {group_id = "dp", factor = 2, fsdp = true, reduce = "add"} : f32[8]
  return %e
}
