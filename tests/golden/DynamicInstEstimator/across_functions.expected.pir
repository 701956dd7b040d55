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
