func @f(%x: f32[2], %y: f32[2], %z: f32[2], %w: bf16[2]) {
  %a, %b = all_reduce %x, %y {group_id = "tp", reduce = "add"} : (f32[2], f32[2])
  %c_buf = pack %x, %y, %z {kind = "all_reduce", offsets = [0, 2, 4], counts = [2, 2, 2]} : f32[6]
  %c_flat = all_reduce %c_buf {group_id = "tp", reduce = "add"} : f32[6]
  %c, %d, %e = unpack %c_flat {kind = "all_reduce", offsets = [0, 2, 4], counts = [2, 2, 2]} : (f32[2], f32[2], f32[2])
  %g = all_gather %w {group_id = "dp", factor = 2} : bf16[4]
  %h, %i, %j = all_gather %x, %y, %w {group_id = "dp"} : (f32[4], f32[4], bf16[4])
  return %a, %b, %c, %d, %e, %g, %h, %i, %j
}
