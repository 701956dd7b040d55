// Same-key collectives combine anywhere in the function, not only when
// adjacent: the two dp all-gathers around the tp all-reduce and the
// compute combine; %h uses %a, so it moves after the combined gather.
// The bf16 and f32 gathers mix (combine_different_dtypes defaults to
// true); the all-reduces of two reductions do not.
func @f(%p: bf16[4,8], %q: f32[4,8], %x: f32[16,8], %w: f32[8,8]) {
  %a = all_gather %p {group_id = "dp", factor = 4} : bf16[16,8]
  %r = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[16,8]
  %h = tensor_contract %a, %w {domain = [16, 8, 8]} : f32[16,8]
  %s = all_reduce %h {group_id = "tp", factor = 2, reduce = "max"} : f32[16,8]
  %b = all_gather %q {group_id = "dp", factor = 4} : f32[16,8]
  %t = all_reduce %x {group_id = "tp", factor = 2, reduce = "add"} : f32[16,8]
  return %b, %r, %s, %t
}
