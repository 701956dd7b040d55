func @f(%x: f32[4,2], %y: bf16[2,3], %w: f32[8]) {
  %a_buf = pack %x, %y {kind = "all_gather", factor = 2, offsets = [0, 16], counts = [16, 6], dimensions = [1, 1]} : bf16[22]
  %a_flat_s = all_gather_start %a_buf {group_id = "dp", factor = 2, dimension = 0, fsdp = true} : bf16[44]
  %h = tensor_contract %w, %w : f32[8]
  %a_flat = all_gather_done %a_flat_s : bf16[44]
  %a, %b = unpack %a_flat {kind = "all_gather", factor = 2, offsets = [0, 16], counts = [16, 6], dimensions = [1, 1]} : (f32[4,4], bf16[2,6])
  return %a, %b, %h
}

func @g(%x: f32[4], %y: f32[2]) {
  %c_buf = pack %x, %y {kind = "all_gather", factor = 4, offsets = [0, 4], counts = [4, 2], dimensions = [0, 0]} : f32[6]
  %c_flat_s = all_gather_start %c_buf {group_id = "dp", factor = 4} : f32[24]
  %c_flat = all_gather_done %c_flat_s : f32[24]
  %c, %d = unpack %c_flat {kind = "all_gather", factor = 4, offsets = [0, 4], counts = [4, 2], dimensions = [0, 0]} : (f32[16], f32[8])
  return %c, %d
}
