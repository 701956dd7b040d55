// FSDP all-gathers reading a non-FSDP all-gather's result (its operand is
// not an argument and it has no fsdp = true): that definition is an
// anchor like any other, asked about once and answered twice. %b1 rises to
// just after %g, %b2 to just after %b1; %g stays.
func @f(%x: bf16[4]) {
  %c = tensor_contract %x, %x : bf16[4]
  %g = all_gather %c {group_id = "dp", factor = 2} : bf16[8]
  %d = tensor_contract %c, %x : bf16[4]
  %b1 = all_gather %g {group_id = "dp", factor = 2, fsdp = true} : bf16[16]
  %e = tensor_contract %d, %x : bf16[4]
  %b2 = all_gather %g {group_id = "dp", factor = 2, fsdp = true} : bf16[16]
  %f = tensor_contract %e, %x : bf16[4]
  return %f
}
