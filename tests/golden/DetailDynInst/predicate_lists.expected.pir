func @f(%x: f32[10,10]) {
  %a = acme.op %x {domain = [10, 10], predicate = ["i0 < 5", "i1 >= 2"], flops = 1} : f32[10,10]
  %b = acme.op %x {domain = [10, 10], predicate = ["i0 < 5", "i0 > 10"], flops = 1000} : f32[10,10]
  %c = acme.op %x {domain = [10, 10], predicate = ["0 > 1"], flops = 1000000} : f32[10,10]
  %d = acme.op %x {domain = [10, 10], predicate = [], flops = 1000000000} : f32[10,10]
  %e = acme.op %x {domain = [10, 10], predicate = ["i0 + i1 < 1000"], flops = 1000000000000} : f32[10,10]
  %g = acme.op %x {domain = [10, 10, 10], predicate = ["i0 == i2"], flops = 1000000000000000} : f32[10,10]
  return %a, %b, %c, %d, %e, %g
}
