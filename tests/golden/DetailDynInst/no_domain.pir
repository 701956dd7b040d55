// Instructions without a domain count num_dynamic_instances:
// the attribute, else the element count of result 0, else of operand 0,
// else 1. A predicate, when there is one, counts the domain instead.
// Total_flops:
//   %t tensor_contract, result f32[64,32] = 2048 elements: 2 x 2048 = 4096
//   acme.sink, no result, operand 0 %m: f32[3,5] = 15:      1 x 15   = 15
//   acme.barrier, no result, no operand: 1:                 1 x 1    = 1
//   %s acme.zero, scalar result f32[]: 1 element:           1 x 1    = 1
//   %k acme.op, domain [10, 10] but num_dynamic_instances = 7:  1 x 7 = 7
//   %p acme.op, domain [10, 10], predicate "i0 < 3" and
//      num_dynamic_instances = 1000: the predicate counts the domain,
//      3 x 10 = 30 points:                                  1 x 30   = 30
//   return, operand 0 %t: default flops 0
//   = 4096 + 15 + 1 + 1 + 7 + 30 = 4150
// Total_bytes_moved:
//   generic_store, stored value %h: f16[8,8] = 64:      64 x 2 = 128
//   %l affine_load, result bf16[64,16] = 1024:          1024 x 2 = 2048
//   = 128 + 2048 = 2176
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
