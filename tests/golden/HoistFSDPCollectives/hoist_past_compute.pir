// FSDP all-gathers move up past compute to just after the latest definition
// of their operands. %g0 (no fsdp attribute, but its operand is an argument)
// goes to the top of the function. %g1 (fsdp = true) reads %h: it goes just
// after %h. %n reads %h too but is not FSDP (no fsdp, operand not an
// argument): it stays.
func @f(%x: bf16[4,8], %w0: bf16[1,8]) {
  %h = tensor_contract %x, %x : bf16[4,8]
  %y = tensor_contract %h, %x : bf16[4,8]
  %z = tensor_contract %y, %x : bf16[4,8]
  %g0 = all_gather %w0 {group_id = "dp", factor = 4} : bf16[4,8]
  %n = all_gather %h {group_id = "dp", factor = 4} : bf16[16,8]
  %g1 = all_gather %h {group_id = "dp", factor = 4, fsdp = true} : bf16[16,8]
  %u = tensor_contract %z, %g0 : bf16[4,8]
  return %u, %n, %g1
}
