// min_operands = 3: the 2-operand tuple %a, %b stays; the 3-operand tuple
// becomes pack/all_reduce/unpack (no factor on it: pack and unpack then have
// none either); the single all_gather is never touched. An all_gather tuple
// without factor is left alone (its layout is unknown).
func @f(%x: f32[2], %y: f32[2], %z: f32[2], %w: bf16[2]) {
  %a, %b = all_reduce %x, %y {group_id = "tp", reduce = "add"} : (f32[2], f32[2])
  %c, %d, %e = all_reduce %x, %y, %z {group_id = "tp", reduce = "add"} : (f32[2], f32[2], f32[2])
  %g = all_gather %w {group_id = "dp", factor = 2} : bf16[4]
  %h, %i, %j = all_gather %x, %y, %w {group_id = "dp"} : (f32[4], f32[4], bf16[4])
  return %a, %b, %c, %d, %e, %g, %h, %i, %j
}
