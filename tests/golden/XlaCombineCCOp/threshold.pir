// combine_threshold_in_bytes = 64: f32[8] results are 32 bytes, so two
// fit exactly (a total equal to the threshold is allowed) and the third
// opens a new group; %big (128 bytes) is above it and left alone, without
// ending the group it sits in.
func @f(%p: f32[8], %q: f32[8], %r: f32[8], %s: f32[8], %t: f32[32]) {
  %a = all_reduce %p {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %big = all_reduce %t {group_id = "dp", factor = 2, reduce = "add"} : f32[32]
  %b = all_reduce %q {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %c = all_reduce %r {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  %d = all_reduce %s {group_id = "dp", factor = 2, reduce = "add"} : f32[8]
  return %a, %big, %b, %c, %d
}
