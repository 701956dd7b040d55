func @f(%x: f32[4,2], %y: bf16[2,3]) {
  %a_buf = pack %x, %y {kind = "all_gather", factor = 2, offsets = [0, 16], counts = [16, 6], dimensions = [1, 1]} : bf16[22]
  %a_flat = all_gather %a_buf {group_id = "dp", factor = 2, dimension = 0, id = 3} : bf16[44]
  %a, %b = unpack %a_flat {kind = "all_gather", factor = 2, offsets = [0, 16], counts = [16, 6], dimensions = [1, 1]} : (f32[4,4], bf16[2,6])
  return %a, %b
}
