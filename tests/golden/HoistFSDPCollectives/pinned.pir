// pinned = true (an HLO control dependency) keeps a collective where it is:
// %a would rise to the top (its operand is an argument) and %r would sink
// to just before its first user; %b rises and %s sinks as usual.
func @f(%x: bf16[4], %w: bf16[1], %v: bf16[1]) {
  %c = tensor_contract %x, %x : bf16[4]
  %a = all_gather %w {group_id = "dp", factor = 2, pinned = true} : bf16[2]
  %b = all_gather %v {group_id = "dp", factor = 2} : bf16[2]
  %r = reduce_scatter %c {group_id = "dp", factor = 2, reduce = "add", fsdp = true, pinned = true} : bf16[2]
  %s = reduce_scatter %c {group_id = "dp", factor = 2, reduce = "add", fsdp = true} : bf16[2]
  %d = tensor_contract %x, %x : bf16[4]
  %e = tensor_contract %a, %b : bf16[2]
  %f = tensor_contract %r, %s : bf16[2]
  return %d, %e, %f
}
