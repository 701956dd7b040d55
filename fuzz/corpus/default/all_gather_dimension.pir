// A tuple gathered along dimension 1: the flat all_gather of the rank-1
// buffer gathers along dimension 0, so its dimension is overridden to 0 (in
// place), and pack/unpack record each member's dimension (1). Unit bf16 (the
// first dtype of the smallest size): f32[4,2] is 32 bytes = 16 units at
// offset 0, bf16[2,3] 6 units at offset 16; bf16[22] gathers to bf16[44].
func @f(%x: f32[4,2], %y: bf16[2,3]) {
  %a, %b = all_gather %x, %y {group_id = "dp", factor = 2, dimension = 1, id = 3} : (f32[4,4], bf16[2,6])
  return %a, %b
}
