// Results keep their names on the done; the start's results get the
// suffix "_s". A name taken already (%w_s) gets the printer's ".1".
func @f(%p: f32[8], %q: f32[8]) {
  %w_s = tensor_contract %p, %p : f32[8]
  %w, %grad = reduce_scatter %p, %q {group_id = "dp", factor = 2, reduce = "add"} : (f32[4], f32[4])
  %y = tensor_contract %w_s, %w : f32[4]
  return %y, %grad
}
