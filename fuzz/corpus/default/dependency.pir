// A candidate joins only if it could be issued at the run's first member.
// %b reads %a (defined by the first member itself): flush, run [%b]. %c reads
// an argument: joins. %d reads %y, defined by a tensor_contract after %b:
// flush, [%b, %c] merge at %b. %e reads an argument and joins %d's run.
func @f(%p: bf16[2], %x: bf16[4], %q: bf16[2]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : bf16[4]
  %b = all_gather %a {group_id = "dp", factor = 2} : bf16[8]
  %c = all_gather %x {group_id = "dp", factor = 2} : bf16[8]
  %y = tensor_contract %x, %x : bf16[4]
  %d = all_gather %y {group_id = "dp", factor = 2} : bf16[8]
  %e = all_gather %q {group_id = "dp", factor = 2} : bf16[4]
  return %b, %c, %d, %e
}
