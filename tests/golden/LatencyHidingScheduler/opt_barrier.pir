// An optimization barrier keeps its place among the ops with effects:
// the rng before it stays before it, though the barrier's chain moves
// up to start the all-reduce early (the rng would otherwise sink below).
func @step(%x: bf16[4096,4096], %w: bf16[4096,4096], %q: bf16[1024,1024], %lo: f32[]) {
  %a = tensor_contract %x, %w {domain = [4096, 4096, 4096]} : f32[4096,4096]
  %n = hlo.rng %lo, %lo {hlo_distribution = "rng_uniform"} : f32[16]
  %y0 = tensor_contract %q, %q {domain = [1024, 1024, 1024]} : f32[1024,1024]
  %y = hlo.opt_barrier %y0 : f32[1024,1024]
  %r_s = all_reduce_start %y {group_id = "dp", factor = 8, reduce = "add"} : f32[1024,1024]
  %r = all_reduce_done %r_s : f32[1024,1024]
  %c = tensor_contract %r, %r {domain = [1024, 1024, 1024]} : f32[1024,1024]
  return %a, %c, %n
}
