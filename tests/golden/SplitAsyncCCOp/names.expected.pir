func @f(%p: f32[8], %q: f32[8]) {
  %w_s = tensor_contract %p, %p : f32[8]
  %w_s.1, %grad_s = reduce_scatter_start %p, %q {group_id = "dp", factor = 2, reduce = "add"} : (f32[4], f32[4])
  %w, %grad = reduce_scatter_done %w_s.1, %grad_s : (f32[4], f32[4])
  %y = tensor_contract %w_s, %w : f32[4]
  return %y, %grad
}
