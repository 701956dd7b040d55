func @f(%x: f32[4], %y: f32[2,3], %z: i32[5]) {
  %a_buf = pack %x, %y {kind = "all_reduce", factor = 2, offsets = [0, 4], counts = [4, 6]} : f32[10]
  %a_flat = all_reduce %a_buf {group_id = "tp", factor = 2, reduce = "max"} : f32[10]
  %a, %b = unpack %a_flat {kind = "all_reduce", factor = 2, offsets = [0, 4], counts = [4, 6]} : (f32[4], f32[2,3])
  %c_buf = pack %z {kind = "all_reduce", factor = 2, offsets = [0], counts = [5]} : i32[5]
  %c_flat = all_reduce %c_buf {group_id = "tp", factor = 2, reduce = "max"} : i32[5]
  %c = unpack %c_flat {kind = "all_reduce", factor = 2, offsets = [0], counts = [5]} : i32[5]
  %s = tensor_contract %a, %b : f32[4]
  return %s, %c
}
