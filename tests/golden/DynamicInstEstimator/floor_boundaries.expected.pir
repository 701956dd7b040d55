func @f(%a: f32[4], %b: f32[4]) {
  %l0 = affine_load %a {num_dynamic_instances = 65535} : f32[4]
  %l1 = affine_load %a {num_dynamic_instances = 65536} : f32[4]
  %l2 = generic_load %a {num_dynamic_instances = 131071} : f32[4]
  generic_store %l1, %b {num_dynamic_instances = 131072}
  affine_store %a, %b {num_dynamic_instances = 65535}
  %c0 = tensor_contract %a, %b {num_dynamic_instances = 8388607} : f32[4]
  %c1 = tensor_contract %a, %b {num_dynamic_instances = 8388608} : f32[4]
  %c2 = tensor_contract %a, %b {num_dynamic_instances = 65536} : f32[4]
  %c3 = tensor_contract %a, %b {num_dynamic_instances = 25165823} : f32[4]
  %o = acme.op %a {num_dynamic_instances = 1000000000} : f32[4]
  %g = all_gather %a {num_dynamic_instances = 1000000000} : f32[32]
  return %l0, %l2, %c0, %c1, %c2, %c3, %o, %g
}
