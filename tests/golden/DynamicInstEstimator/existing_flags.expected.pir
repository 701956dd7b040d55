func @stale_false(%a: f32[8], %b: f32[8]) attributes {has_copy = true} {
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

func @order(%a: f32[8], %b: f32[8]) attributes {owner = "team", has_reduce = true, tag = 3, has_copy = true} {
  %v = affine_load %a : f32[8]
  %r = reduce %v {reduce = "max"} : f32[]
  affine_store %v, %b
  return %r
}
