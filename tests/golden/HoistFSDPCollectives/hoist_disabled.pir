// hoist_all_gathers = false: %g stays even though it could rise to the top;
// sinking still runs: %r goes to just before %b, its first use.
func @f(%x: f32[4], %w: f32[1], %gr: f32[8]) {
  %a = tensor_contract %x, %x : f32[4]
  %g = all_gather %w {group_id = "dp", factor = 4, fsdp = true} : f32[4]
  %r = reduce_scatter %gr {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %c = tensor_contract %a, %g : f32[4]
  %b = tensor_contract %r, %c : f32[4]
  return %b
}
