// Every comparison operator, on domain [10, 10] (i0, i1 in 0..9). Each
// instruction's flops is a power of 1000 so that its count (below 1000)
// shows as its own group of three digits in Total_flops.
//   %a "i0 + i1 < 7":   pairs with sum s have s + 1 members (s <= 9):
//                       1 + 2 + ... + 7 = 28                 x 1
//   %b "i0 + i1 <= 7":  1 + 2 + ... + 8 = 36                 x 10^3
//   %c "2*i0 > i1 + 5": i1 <= 2*i0 - 6: i0 = 3..9 gives
//                       1 + 3 + 5 + 7 + 9 + 10 + 10 = 45     x 10^6
//   %d "i0 - i1 >= 3":  i1 <= i0 - 3: i0 = 3..9 gives
//                       1 + 2 + ... + 7 = 28                 x 10^9
//   %e "3*i0 == 2*i1":  (0,0) (2,3) (4,6) (6,9) = 4          x 10^12
//   %f "i0 != i1":      100 - 10 = 90                        x 10^15
// Total_flops = 90 004 028 045 036 028
func @f(%x: f32[10,10]) {
  %a = acme.cmp %x {domain = [10, 10], predicate = ["i0 + i1 < 7"], flops = 1} : f32[10,10]
  %b = acme.cmp %x {domain = [10, 10], predicate = ["i0 + i1 <= 7"], flops = 1000} : f32[10,10]
  %c = acme.cmp %x {domain = [10, 10], predicate = ["2*i0 > i1 + 5"], flops = 1000000} : f32[10,10]
  %d = acme.cmp %x {domain = [10, 10], predicate = ["i0 - i1 >= 3"], flops = 1000000000} : f32[10,10]
  %e = acme.cmp %x {domain = [10, 10], predicate = ["3*i0 == 2*i1"], flops = 1000000000000} : f32[10,10]
  %f = acme.cmp %x {domain = [10, 10], predicate = ["i0 != i1"], flops = 1000000000000000} : f32[10,10]
  return %a, %b, %c, %d, %e, %f
}
