func @f(%p: f32[2], %q: i8[4], %r: bf16[3], %s: u8[2]) {
  %a_buf = pack %p, %q, %r, %s {kind = "all_gather", factor = 2, offsets = [0, 8, 12, 18], counts = [8, 4, 6, 2], dimensions = [0, 0, 0, 0]} : i8[20]
  %a_flat = all_gather %a_buf {group_id = "dp", factor = 2} : i8[40]
  %a, %b, %c, %d = unpack %a_flat {kind = "all_gather", factor = 2, offsets = [0, 8, 12, 18], counts = [8, 4, 6, 2], dimensions = [0, 0, 0, 0]} : (f32[4], i8[8], bf16[6], u8[4])
  return %a, %b, %c, %d
}
