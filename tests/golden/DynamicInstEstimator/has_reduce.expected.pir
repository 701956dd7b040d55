func @with_reduce(%x: f32[64,128]) attributes {has_reduce = true} {
  %r = reduce %x {reduce = "add", dimension = 1} : f32[64]
  return %r
}

func @with_rms_norm(%x: bf16[64,128]) attributes {has_reduce = true} {
  %n = rms_norm %x : bf16[64,128]
  return %n
}

func @with_all_reduce(%x: f32[64]) {
  %s = all_reduce %x {group_id = "tp", factor = 4, reduce = "add"} : f32[64]
  return %s
}

func @both(%a: f32[512,256], %b: f32[512,256]) attributes {has_copy = true, has_reduce = true} {
  %n = rms_norm %a : f32[512,256]
  %v = affine_load %a {domain = [512, 256]} : f32[512,256]
  affine_store %v, %b {domain = [512, 256]}
  return %n
}

func @none(%x: f32[8]) {
  %y = acme.op %x : f32[8]
  return %y
}
