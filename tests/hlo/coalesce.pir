// CoalesceCCOp input: an all_gather of two dtypes, a reduce_scatter of two
func @f(%x: f32[4,2], %y: bf16[2,3], %p: f32[2,8], %q: bf16[3,4]) {
  %a, %b = all_gather %x, %y {group_id = "replica:{{0,1}}", factor = 2, dimension = 1} : (f32[4,4], bf16[2,6])
  %c, %d = reduce_scatter %p, %q {group_id = "replica:{{0,1,2,3}}", factor = 4, reduce = "add", dimension = 1} : (f32[2,2], bf16[3,1])
  return %a, %b, %c, %d
}
