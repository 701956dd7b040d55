// A tuple start and its done are lowered like a tuple all_gather, split at
// the same places: pack and a flat start where the start was, a flat done
// and unpack where the done was. The layout is the synchronous one: bf16
// unit, %x f32[4,2] -> 16 units, %y bf16[2,3] -> 6, segment 22, gathered
// to bf16[44]. The flat start keeps the start's attributes (dimension
// forced to 0); the unpack's results take over the done's. In @g the done
// follows its start at once.
func @f(%x: f32[4,2], %y: bf16[2,3], %w: f32[8]) {
  %a_s, %b_s = all_gather_start %x, %y {group_id = "dp", factor = 2, dimension = 1, fsdp = true} : (f32[4,4], bf16[2,6])
  %h = tensor_contract %w, %w : f32[8]
  %a, %b = all_gather_done %a_s, %b_s : (f32[4,4], bf16[2,6])
  return %a, %b, %h
}

func @g(%x: f32[4], %y: f32[2]) {
  %c_s, %d_s = all_gather_start %x, %y {group_id = "dp", factor = 4} : (f32[16], f32[8])
  %c, %d = all_gather_done %c_s, %d_s : (f32[16], f32[8])
  return %c, %d
}
