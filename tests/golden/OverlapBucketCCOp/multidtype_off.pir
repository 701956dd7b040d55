// The same module with multidtype = false: the dtype is part of every key,
// so nothing merges.
func @f(%p: bf16[4], %q: f32[4], %g: bf16[8], %h: f32[8]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = all_gather_start %q {group_id = "dp"} : f32[8]
  %b = all_gather_done %b_s : f32[8]
  %c_s = reduce_scatter_start %g {group_id = "dp", reduce = "add"} : bf16[4]
  %c = reduce_scatter_done %c_s : bf16[4]
  %d_s = reduce_scatter_start %h {group_id = "dp", reduce = "add"} : f32[4]
  %d = reduce_scatter_done %d_s : f32[4]
  return %a, %b, %c, %d
}
