// has_reduce is set by a reduce or an rms_norm anywhere in the function.
//   @with_reduce        reduce:   has_reduce = true
//   @with_rms_norm      rms_norm: has_reduce = true
//   @with_all_reduce    all_reduce is a reducing collective, not
//                       reduce-like: none
//   @both               an affine_load stored by an affine_store, and an
//                       rms_norm: has_copy = true, has_reduce = true (a new
//                       has_copy is written first, as the seed does)
//   @none               acme.op: none
// est_inst_count: @both's load and store, domain [512, 256] = 131072 each:
// 131072 / 65536 = 2 each; the reduces count nothing. Total 2 + 2 = 4.
func @with_reduce(%x: f32[64,128]) {
  %r = reduce %x {reduce = "add", dimension = 1} : f32[64]
  return %r
}

func @with_rms_norm(%x: bf16[64,128]) {
  %n = rms_norm %x : bf16[64,128]
  return %n
}

func @with_all_reduce(%x: f32[64]) {
  %s = all_reduce %x {group_id = "tp", factor = 4, reduce = "add"} : f32[64]
  return %s
}

func @both(%a: f32[512,256], %b: f32[512,256]) {
  %n = rms_norm %a : f32[512,256]
  %v = affine_load %a {domain = [512, 256]} : f32[512,256]
  affine_store %v, %b {domain = [512, 256]}
  return %n
}

func @none(%x: f32[8]) {
  %y = acme.op %x : f32[8]
  return %y
}
