func @f(%x: f64[4], %y: f64[4]) {
  %c = tensor_contract %x, %y {num_dynamic_instances = 4611686018427387904, flops = 1024} : f32[4]
  %d = tensor_contract %x, %y {num_dynamic_instances = 4611686018427387904} : f32[4]
  %e = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %l = affine_load %x {num_dynamic_instances = 4611686018427387904} : f64[4]
  affine_store %l, %y {num_dynamic_instances = 4611686018427387904}
  return %c, %d, %e
}
