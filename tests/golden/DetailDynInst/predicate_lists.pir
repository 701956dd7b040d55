// Predicates of several constraints, contradictory ones, an empty list,
// and constraints that hold everywhere. As in comparisons.pir, each
// instruction's flops is a power of 1000 so its count shows in its own
// three digits of Total_flops.
//   %a [10, 10] "i0 < 5", "i1 >= 2": 5 x 8 = 40                       x 1
//   %b [10, 10] "i0 < 5", "i0 > 10": contradictory, 0                 x 10^3
//   %c [10, 10] "0 > 1": false at every point, 0                      x 10^6
//   %d [10, 10] []: no constraint, so every point (the conjunction of
//       nothing holds): 100                                           x 10^9
//   %e [10, 10] "i0 + i1 < 1000": true at every point, 100            x 10^12
//   %g [10, 10, 10] "i0 == i2": 10 pairs (i0, i2), i1 free: 10 x 10 = 100
//                                                                     x 10^15
// Total_flops = 100 100 100 000 000 040
func @f(%x: f32[10,10]) {
  %a = acme.op %x {domain = [10, 10], predicate = ["i0 < 5", "i1 >= 2"], flops = 1} : f32[10,10]
  %b = acme.op %x {domain = [10, 10], predicate = ["i0 < 5", "i0 > 10"], flops = 1000} : f32[10,10]
  %c = acme.op %x {domain = [10, 10], predicate = ["0 > 1"], flops = 1000000} : f32[10,10]
  %d = acme.op %x {domain = [10, 10], predicate = [], flops = 1000000000} : f32[10,10]
  %e = acme.op %x {domain = [10, 10], predicate = ["i0 + i1 < 1000"], flops = 1000000000000} : f32[10,10]
  %g = acme.op %x {domain = [10, 10, 10], predicate = ["i0 == i2"], flops = 1000000000000000} : f32[10,10]
  return %a, %b, %c, %d, %e, %g
}
