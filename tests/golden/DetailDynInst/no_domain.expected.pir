func @f(%x: bf16[64,16], %y: bf16[16,32], %m: f32[3,5], %h: f16[8,8], %buf: f16[8,8]) {
  %t = tensor_contract %x, %y : f32[64,32]
  acme.sink %m
  acme.barrier
  %s = acme.zero : f32[]
  %k = acme.op %x {domain = [10, 10], num_dynamic_instances = 7} : f32[10,10]
  %p = acme.op %x {domain = [10, 10], predicate = ["i0 < 3"], num_dynamic_instances = 1000} : f32[10,10]
  generic_store %h, %buf
  %l = affine_load %x : bf16[64,16]
  return %t, %s, %k, %p, %l
}
