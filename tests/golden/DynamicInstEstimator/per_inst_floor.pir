// DynamicInstEstimator floors each instruction before summing.
//   %l0, %l1 affine_load, n = 40000 each:   40000 / 65536 = 0 each
//     (not (40000 + 40000) / 65536 = 1)
//   %c0, %c1 tensor_contract, n = 5000000:  5000000 / 8388608 = 0 each
//     (not 10000000 / 8388608 = 1)
//   generic_store, n = 98304:  98304 / 65536 = 1 (1.5 floored)
//   affine_store,  n = 98304:  1
//     (the two 1.5s make 2, not 3)
// est_inst_count = 0 + 0 + 0 + 0 + 1 + 1 = 2
func @f(%a: bf16[8], %b: bf16[8]) {
  %l0 = affine_load %a {num_dynamic_instances = 40000} : bf16[8]
  %l1 = affine_load %a {num_dynamic_instances = 40000} : bf16[8]
  %c0 = tensor_contract %l0, %l1 {num_dynamic_instances = 5000000} : f32[8]
  %c1 = tensor_contract %l0, %l1 {num_dynamic_instances = 5000000} : f32[8]
  generic_store %l0, %b {num_dynamic_instances = 98304}
  affine_store %a, %b {num_dynamic_instances = 98304}
  return %c0, %c1
}
