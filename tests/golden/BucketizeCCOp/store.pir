// A store to the candidate's operand between the run's first member and the
// candidate flushes (merging would move the read of %w1 above the store).
// The store to %w0 before the run started does not matter: %a and %b merge,
// and later %d (reading %w0) joins %c's run. Both store ops count.
func @f(%w0: bf16[2], %w1: bf16[2], %w2: bf16[2], %v: bf16[2]) {
  affine_store %v, %w0
  %a = all_gather %w0 {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %w2 {group_id = "dp", factor = 2} : bf16[4]
  generic_store %v, %w1
  %c = all_gather %w1 {group_id = "dp", factor = 2} : bf16[4]
  %d = all_gather %w0 {group_id = "dp", factor = 2} : bf16[4]
  return %a, %b, %c, %d
}
