// Flags a function already has. The pass only ever writes true (as the
// seed does), in place, and leaves the rest of the attributes untouched:
//   @stale_false   has_copy = false and a copy:       has_copy = true (in place)
//   @keeps_false   has_reduce = false, no reduce:     unchanged (false stays)
//   @keeps_true    has_copy = true, no copy:          unchanged (never cleared)
//   @order         owner, has_reduce = false, tag; a reduce and a copy:
//                  has_reduce becomes true where it stands, has_copy is
//                  appended after tag
// Every count is 8 elements: est_inst_count = 0.
func @stale_false(%a: f32[8], %b: f32[8]) attributes {has_copy = false} {
  %v = affine_load %a : f32[8]
  affine_store %v, %b
}

func @keeps_false(%a: f32[8]) attributes {has_reduce = false} {
  %y = acme.op %a : f32[8]
  return %y
}

func @keeps_true(%a: f32[8], %b: f32[8]) attributes {has_copy = true} {
  affine_store %a, %b
}

func @order(%a: f32[8], %b: f32[8]) attributes {owner = "team", has_reduce = false, tag = 3} {
  %v = affine_load %a : f32[8]
  %r = reduce %v {reduce = "max"} : f32[]
  affine_store %v, %b
  return %r
}
