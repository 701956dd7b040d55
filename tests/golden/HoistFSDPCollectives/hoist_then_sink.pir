// Hoisting runs before sinking. %g (fsdp) gathers %r's result, so it rises
// to just after %r; %r's first use is then %g, right after it, so %r does
// not sink. %r2 (result only returned) sinks to just before return.
func @f(%x: f32[8], %gr: f32[8], %g2: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  %r = reduce_scatter %gr {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %b = tensor_contract %a, %x : f32[8]
  %r2 = reduce_scatter %g2 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %c = tensor_contract %b, %x : f32[8]
  %g = all_gather %r {group_id = "dp", factor = 4, fsdp = true} : f32[8]
  %d = tensor_contract %c, %g : f32[8]
  return %d, %r2
}
