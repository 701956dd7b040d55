// Memory counts as a dependence: %v reads the buffer %buf after a store
// of a member's result, so %b (which gathers %v) ends the group; %c,
// which reads only an argument, joins %b's.
func @f(%p: f32[8], %q: f32[8], %buf: f32[16]) {
  %a = all_gather %p {group_id = "dp", factor = 2} : f32[16]
  affine_store %a, %buf {domain = [16]}
  %v = affine_load %buf {domain = [8]} : f32[8]
  %b = all_gather %v {group_id = "dp", factor = 2} : f32[16]
  %c = all_gather %q {group_id = "dp", factor = 2} : f32[16]
  return %b, %c
}
