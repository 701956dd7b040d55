// Counting would walk more outer points than PL_COUNT_MAX_ENUMERATION
// (2^26 = 67108864): an error naming the instruction and the bound, exit 4.
//   %ok  [16384, 16384, 16384] "i0 + i1 + i2 < 100": bound propagation
//        caps each index at 99, a walk of 100 x 100 points: counted.
//   %big [16384, 16384, 16384] "i0 + i1 + i2 < 30000": no index can be
//        narrowed (16383 + 0 + 0 < 30000) and all three share the
//        constraint, so two are walked: 16384 x 16384 = 2^28 > 2^26.
func @f(%x: f32[4]) {
  %ok = acme.op %x {domain = [16384, 16384, 16384], predicate = ["i0 + i1 + i2 < 100"]} : f32[4]
  %big = acme.op %x {domain = [16384, 16384, 16384], predicate = ["i0 + i1 + i2 < 30000"]} : f32[4]
  return %ok, %big
}
