// all_gather_max_bytes = 64; a run's size is the sum of its RESULT bytes and
// a total equal to the cap is allowed. @below: three 32-byte results (96 >
// 64): %a, %b merge (64), %c flushes them and stays alone. @equal: 32 + 32 =
// 64 = cap: merge (operand bytes, 8 + 8, would not tell). @above: 16 + 16 <
// 64: merge. @single: %d alone is 128 bytes, over the cap: it stays a run of
// one (flushed by %e), and %e, %f (16 bytes each) merge.
func @below(%p: bf16[4], %q: bf16[4], %r: bf16[4]) {
  %a = all_gather %p {group_id = "dp", factor = 4} : bf16[16]
  %b = all_gather %q {group_id = "dp", factor = 4} : bf16[16]
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[16]
  return %a, %b, %c
}
func @equal(%p: f32[2], %q: bf16[4]) {
  %a = all_gather %p {group_id = "dp", factor = 4} : f32[8]
  %b = all_gather %q {group_id = "dp", factor = 4} : bf16[16]
  return %a, %b
}
func @above(%p: bf16[2], %q: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 4} : bf16[8]
  %b = all_gather %q {group_id = "dp", factor = 4} : bf16[8]
  return %a, %b
}
func @single(%p: f32[8], %q: bf16[2], %r: bf16[2]) {
  %d = all_gather %p {group_id = "dp", factor = 4} : f32[32]
  %e = all_gather %q {group_id = "dp", factor = 4} : bf16[8]
  %f = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  return %d, %e, %f
}
