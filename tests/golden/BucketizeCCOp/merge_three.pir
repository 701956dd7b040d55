// Three adjacent all_gathers with the same group_id and factor become one
// tuple all_gather at the first one's place: operands and results in order,
// the first member's attributes (id = 10, fsdp = true; ids 11 and 12 go),
// every use (%a, %b in the contracts, %c in return) still valid.
func @layer(%x: bf16[8,16], %w0: bf16[2,16], %w1: bf16[2,16], %w2: bf16[1,16]) {
  %a = all_gather %w0 {group_id = "dp", factor = 4, id = 10, fsdp = true} : bf16[8,16]
  %b = all_gather %w1 {group_id = "dp", factor = 4, id = 11} : bf16[8,16]
  %c = all_gather %w2 {group_id = "dp", factor = 4, id = 12} : bf16[4,16]
  %y = tensor_contract %x, %a {domain = [8, 16, 16]} : f32[8,16]
  %z = tensor_contract %y, %b : f32[8,16]
  return %z, %c
}
