func @f(%q: f32[128,4096], %out: f32[128,4096], %v: bf16[1024], %o2: bf16[1024]) {
  %t = affine_load %q {domain = [128, 4096], predicate = ["i0 < 100"]} : f32[128,4096]
  %u = generic_load %v {domain = [8, 128], predicate = ["128*i0 + i1 < 1000"]} : bf16[1024]
  affine_store %u, %o2 {domain = [8, 128], predicate = ["128*i0 + i1 < 1000", "i1 >= 64"]}
  affine_store %t, %out {domain = [128, 4096]}
  %k = tensor_contract %t, %t {domain = [100, 4096, 8], predicate = ["i2 != 3"]} : f32[128,4096]
  return %k
}
