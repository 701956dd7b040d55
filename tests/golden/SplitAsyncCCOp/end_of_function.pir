// A result nobody uses: in @f, which has no return, the done goes to the
// end of the function; in @g it goes before the return.
func @f(%x: f32[8], %w: f32[8], %buf: f32[8]) {
  %a = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %b = tensor_contract %x, %w : f32[8]
  affine_store %b, %buf
}

func @g(%x: f32[8]) {
  %a = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[8]
  %c = tensor_contract %x, %x : f32[8]
  return %c
}
