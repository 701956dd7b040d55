// num_dynamic_instances: the attribute, else the product of
// domain, else the element count of result 0, else of operand 0.
//   %l affine_load, domain [256, 1024]:          262144 / 65536   = 4
//   %m generic_load, no domain, f32[512,256]:    131072 / 65536   = 2
//   generic_store, no domain, no result, operand 0 %c: bf16[1024,64]
//                                                 65536 / 65536    = 1
//   %t tensor_contract, no domain, f32[4096,4096]: 16777216 / 8388608 = 2
//   %u tensor_contract, domain [4096, 4096, 4096] but
//      num_dynamic_instances = 8388608 (the attribute wins; the domain
//      would give 2^36 / 2^23 = 8192):            8388608 / 8388608 = 1
//   %z affine_load, num_dynamic_instances = 0:   0
//   %s generic_load, scalar f32[], no domain:    1 / 65536 = 0
// est_inst_count = 4 + 2 + 1 + 2 + 1 + 0 + 0 = 10
func @f(%a: f32[256,1024], %c: bf16[1024,64], %d: bf16[1024,64], %x: bf16[4096,64], %y: bf16[64,4096]) {
  %l = affine_load %a {domain = [256, 1024]} : f32[256,1024]
  %m = generic_load %a : f32[512,256]
  generic_store %c, %d
  %t = tensor_contract %x, %y : f32[4096,4096]
  %u = tensor_contract %x, %y {domain = [4096, 4096, 4096], num_dynamic_instances = 8388608} : f32[4096,4096]
  %z = affine_load %a {num_dynamic_instances = 0} : f32[256,1024]
  %s = generic_load %a : f32[]
  return %l, %m, %t, %u, %z, %s
}
