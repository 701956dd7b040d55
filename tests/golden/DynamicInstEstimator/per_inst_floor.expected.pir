func @f(%a: bf16[8], %b: bf16[8]) {
  %l0 = affine_load %a {num_dynamic_instances = 40000} : bf16[8]
  %l1 = affine_load %a {num_dynamic_instances = 40000} : bf16[8]
  %c0 = tensor_contract %l0, %l1 {num_dynamic_instances = 5000000} : f32[8]
  %c1 = tensor_contract %l0, %l1 {num_dynamic_instances = 5000000} : f32[8]
  generic_store %l0, %b {num_dynamic_instances = 98304}
  affine_store %a, %b {num_dynamic_instances = 98304}
  return %c0, %c1
}
