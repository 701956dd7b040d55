// Predicated loads and stores: n is the number of domain points that
// satisfy every constraint.
//   %t affine_load, domain [128, 4096], "i0 < 100":
//        100 x 4096 = 409600 points, f32: 409600 x 4 = 1638400 bytes
//   %u generic_load, domain [8, 128], "128*i0 + i1 < 1000" (a tail mask):
//        128*i0 + i1 takes each of 0..1023 once, 1000 of them below 1000:
//        1000 points, bf16: 1000 x 2 = 2000 bytes
//   affine_store %u, domain [8, 128], "128*i0 + i1 < 1000", "i1 >= 64":
//        i0 = 0..6: 128*i0 + i1 <= 895 < 1000, i1 in 64..127: 7 x 64 = 448
//        i0 = 7: 896 + i1 < 1000 means i1 <= 103, i1 in 64..103:    40
//        488 points, stored value %u is bf16: 488 x 2 = 976 bytes
//   affine_store %t, domain [128, 4096], no predicate:
//        524288 points, f32: 524288 x 4 = 2097152 bytes
//   = 1638400 + 2000 + 976 + 2097152 = 3738528 bytes
//   %k tensor_contract, domain [100, 4096, 8], "i2 != 3":
//        100 x 4096 x 7 = 2867200 points, 2 flops: 5734400 flops
func @f(%q: f32[128,4096], %out: f32[128,4096], %v: bf16[1024], %o2: bf16[1024]) {
  %t = affine_load %q {domain = [128, 4096], predicate = ["i0 < 100"]} : f32[128,4096]
  %u = generic_load %v {domain = [8, 128], predicate = ["128*i0 + i1 < 1000"]} : bf16[1024]
  affine_store %u, %o2 {domain = [8, 128], predicate = ["128*i0 + i1 < 1000", "i1 >= 64"]}
  affine_store %t, %out {domain = [128, 4096]}
  %k = tensor_contract %t, %t {domain = [100, 4096, 8], predicate = ["i2 != 3"]} : f32[128,4096]
  return %k
}
