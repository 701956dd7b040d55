// Results keep their names on the done; the start's results get the
// suffix "_s". A name taken already (%w_s) gets the printer's ".1". A long
// name keeps every character.
func @f(%p: f32[8], %q: f32[8]) {
  %w_s = tensor_contract %p, %p : f32[8]
  %w, %grad = reduce_scatter %p, %q {group_id = "dp", factor = 2, reduce = "add"} : (f32[4], f32[4])
  %y = tensor_contract %w_s, %w : f32[4]
  %layer12.attention_output_projection_weight_gathered_for_the_forward_pass = all_gather %q {group_id = "dp", factor = 2} : f32[16]
  return %y, %grad, %layer12.attention_output_projection_weight_gathered_for_the_forward_pass
}
