// est_inst_count runs over the whole module, not per function.
//   @f1  affine_load, n = 200000:                200000 / 65536 = 3
//        (3 * 65536 = 196608 <= 200000 < 262144)
//   @f2  tensor_contract, domain [256, 256, 512]: n = 2^8 * 2^8 * 2^9
//        = 33554432, / 8388608 = 4
//   @f3  generic_store, n = 655360:              655360 / 65536 = 10
//        affine_load, n = 40000:                 0
// est_inst_count = 3 + 4 + 10 + 0 = 17
func @f1(%a: f32[2]) {
  %l = affine_load %a {num_dynamic_instances = 200000} : f32[2]
  return %l
}

func @f2(%x: bf16[256,512], %y: bf16[512,256]) {
  %c = tensor_contract %x, %y {domain = [256, 256, 512]} : f32[256,256]
  return %c
}

func @f3(%a: f32[2], %b: f32[2]) {
  generic_store %a, %b {num_dynamic_instances = 655360}
  %l = affine_load %b {num_dynamic_instances = 40000} : f32[2]
  return %l
}
