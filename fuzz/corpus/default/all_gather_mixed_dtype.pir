// all_gather may mix dtypes: the buffer's unit is the FIRST member dtype of
// the smallest item size, i8 here (u8 has the same size but comes later).
// Counts in i8 units (bytes): f32[2] -> 8, i8[4] -> 4, bf16[3] -> 6,
// u8[2] -> 2; offsets 0, 8, 12, 18; one rank's buffer i8[20], gathered by
// factor 2 to i8[40].
func @f(%p: f32[2], %q: i8[4], %r: bf16[3], %s: u8[2]) {
  %a, %b, %c, %d = all_gather %p, %q, %r, %s {group_id = "dp", factor = 2} : (f32[4], i8[8], bf16[6], u8[4])
  return %a, %b, %c, %d
}
