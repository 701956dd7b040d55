// A tuple all_gather of two bf16 members becomes pack -> one flat all_gather
// -> unpack. In bf16 units: %w0 bf16[2,4] counts 8 at offset 0, %w1 bf16[3]
// counts 3 at offset 8; one rank's buffer is bf16[11], gathered by factor 4
// to bf16[44]. The flat all_gather keeps every attribute of the tuple (no
// dimension to override); the unpack's results are %a and %b, still used.
func @f(%w0: bf16[2,4], %w1: bf16[3]) {
  %a, %b = all_gather %w0, %w1 {group_id = "dp", factor = 4, id = 5, fsdp = true} : (bf16[8,4], bf16[12])
  %u = tensor_contract %a, %b : bf16[8,4]
  return %u
}
