func @f(%x: f32[10,10]) {
  %a = acme.cmp %x {domain = [10, 10], predicate = ["i0 + i1 < 7"], flops = 1} : f32[10,10]
  %b = acme.cmp %x {domain = [10, 10], predicate = ["i0 + i1 <= 7"], flops = 1000} : f32[10,10]
  %c = acme.cmp %x {domain = [10, 10], predicate = ["2*i0 > i1 + 5"], flops = 1000000} : f32[10,10]
  %d = acme.cmp %x {domain = [10, 10], predicate = ["i0 - i1 >= 3"], flops = 1000000000} : f32[10,10]
  %e = acme.cmp %x {domain = [10, 10], predicate = ["3*i0 == 2*i1"], flops = 1000000000000} : f32[10,10]
  %f = acme.cmp %x {domain = [10, 10], predicate = ["i0 != i1"], flops = 1000000000000000} : f32[10,10]
  return %a, %b, %c, %d, %e, %f
}
