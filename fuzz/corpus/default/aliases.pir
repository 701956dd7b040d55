// The driver aliases of the original compiler set the caps (.args):
// all_gather 32 bytes, reduce_scatter 8 bytes, all_reduce 1KiB, and
// --internal-ccop-bucketing enables the pass. all_gathers of 16 result bytes:
// %a, %b merge (32 = cap), %c alone. reduce_scatters of 8 bytes: two would be
// 16 > 8, none merge. all_reduces of 64 bytes: both merge (128 <= 1024).
func @f(%p: bf16[2], %q: bf16[2], %r: bf16[2], %g: f32[8], %h: f32[8], %x: f32[16], %y: f32[16]) {
  %a = all_gather %p {group_id = "dp", factor = 4} : bf16[8]
  %b = all_gather %q {group_id = "dp", factor = 4} : bf16[8]
  %c = all_gather %r {group_id = "dp", factor = 4} : bf16[8]
  %s = reduce_scatter %g {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %t = reduce_scatter %h {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  %u = all_reduce %x {group_id = "tp", reduce = "add"} : f32[16]
  %v = all_reduce %y {group_id = "tp", reduce = "add"} : f32[16]
  return %a, %b, %c, %s, %t, %u, %v
}
