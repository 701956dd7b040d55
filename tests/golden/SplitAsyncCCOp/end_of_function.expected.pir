func @f(%x: f32[8], %w: f32[8], %buf: f32[8]) {
  %a_s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %b = tensor_contract %x, %w : f32[8]
  affine_store %b, %buf
  %a = all_reduce_done %a_s : f32[8]
}

func @g(%x: f32[8]) {
  %a_s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %c = tensor_contract %x, %x : f32[8]
  %a = all_reduce_done %a_s : f32[8]
  return %c
}
