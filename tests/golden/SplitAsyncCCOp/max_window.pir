// With max_window = 2 at most two instructions lie between a start and its
// done, other dones not counted. %g's done lands before %b (between them:
// the start of %r and %a); %r's before %c (between them: %a and %b; %g's
// done does not count). Both results are first used by %u, further down.
func @f(%p: f32[8], %q: f32[8], %x: f32[8]) {
  %g = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  %r = all_reduce %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %a = tensor_contract %x, %x : f32[8]
  %b = tensor_contract %a, %x : f32[8]
  %c = tensor_contract %b, %x : f32[8]
  %u = tensor_contract %g, %r : f32[8]
  return %u, %c
}
