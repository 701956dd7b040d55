// Totals beyond 2^64 are exact (128-bit), in the report and in the stats.
// Total_flops:
//   %c tensor_contract, n = 2^62 = 4611686018427387904, flops = 1024 = 2^10:
//        2^72 = 4722366482869645213696
//   %d tensor_contract, n = 2^62, default flops 2:
//        2^63 = 9223372036854775808
//   %e acme.op, n = flops = 2^63 - 1 = 9223372036854775807:
//        (2^63 - 1)^2 = 2^126 - 2^64 + 1
//        = 85070591730234615847396907784232501249
//   = 2^126 - 2^64 + 1 + 2^72 + 2^63
//   = 85070591730234620578986762690732490753
// Total_bytes_moved:
//   %l affine_load, n = 2^62, f64:       2^62 x 8 = 2^65
//   affine_store of %l (f64), n = 2^62:  2^65
//   = 2^66 = 73786976294838206464
func @f(%x: f64[4], %y: f64[4]) {
  %c = tensor_contract %x, %y {num_dynamic_instances = 4611686018427387904, flops = 1024} : f32[4]
  %d = tensor_contract %x, %y {num_dynamic_instances = 4611686018427387904} : f32[4]
  %e = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %l = affine_load %x {num_dynamic_instances = 4611686018427387904} : f64[4]
  affine_store %l, %y {num_dynamic_instances = 4611686018427387904}
  return %c, %d, %e
}
