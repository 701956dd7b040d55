// DynamicInstEstimator: the floor of each division, at its boundaries.
// est_inst_count, instruction by instruction (n = num_dynamic_instances):
//   %l0 affine_load       65535 / 65536     = 0
//   %l1 affine_load       65536 / 65536     = 1
//   %l2 generic_load     131071 / 65536     = 1   (2 * 65536 = 131072)
//   generic_store        131072 / 65536     = 2
//   affine_store          65535 / 65536     = 0
//   %c0 tensor_contract 8388607 / 8388608   = 0
//   %c1 tensor_contract 8388608 / 8388608   = 1
//   %c2 tensor_contract   65536 / 8388608   = 0   (a contract divides by 2^23, not 2^16)
//   %c3 tensor_contract 25165823 / 8388608  = 2   (3 * 8388608 = 25165824)
//   %o acme.op, %g all_gather, return: not loads, stores or contracts = 0
// total 0 + 1 + 1 + 2 + 0 + 0 + 1 + 0 + 2 = 7
// No function flag: no reduce-like op, and no affine_store of an
// affine_load result (the stores store the argument %a or go through
// generic_store).
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
