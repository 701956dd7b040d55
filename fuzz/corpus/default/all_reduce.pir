// all_reduce: one flat collective per dtype. f32 group %x (4 elements at
// offset 0) and %y (6 at offset 4): f32[10] in and out. i32 group %z alone:
// i32[5]. No dimensions (all_reduce has none); factor is copied when the
// tuple has it. The tuple counts once in num_collectives_flattened.
func @f(%x: f32[4], %y: f32[2,3], %z: i32[5]) {
  %a, %b, %c = all_reduce %x, %y, %z {group_id = "tp", factor = 2, reduce = "max"} : (f32[4], f32[2,3], i32[5])
  %s = tensor_contract %a, %b : f32[4]
  return %s, %c
}
