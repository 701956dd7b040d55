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
