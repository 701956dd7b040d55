// The same predicate string and lists on different domains and dtypes: the
// pass caches parsed constraints per (string, rank) and counts per
// (domain, predicate), and must not mix them up.
// Total_bytes_moved:
//   %l1 [16, 16] "i0 < 4": 4 x 16 = 64 points, bf16: 64 x 2 = 128
//   %l2 the same lists, f32:                        64 x 4 = 256
//   %l3 the same lists, i8:                         64 x 1 = 64
//   %l4 the same lists again after the others, f64: 64 x 8 = 512
//   = 128 + 256 + 64 + 512 = 960
// Total_flops (acme ops, 1 flop each):
//   %a [16] "i0 < 4" (rank 1):                  4
//   %b [16, 16, 2] "i0 < 4" (rank 3):           4 x 16 x 2 = 128
//   %c [16, 16] "i0 < 4", "i1 < 4":             4 x 4 = 16
//   %d [8, 16] "i0 < 4" (rank 2, other extents): 4 x 16 = 64
//   = 4 + 128 + 16 + 64 = 212
func @f(%x: f32[16,16]) {
  %l1 = affine_load %x {domain = [16, 16], predicate = ["i0 < 4"]} : bf16[16,16]
  %l2 = affine_load %x {domain = [16, 16], predicate = ["i0 < 4"]} : f32[16,16]
  %a = acme.op %x {domain = [16], predicate = ["i0 < 4"]} : f32[16]
  %l3 = generic_load %x {domain = [16, 16], predicate = ["i0 < 4"]} : i8[16,16]
  %b = acme.op %x {domain = [16, 16, 2], predicate = ["i0 < 4"]} : f32[16]
  %c = acme.op %x {domain = [16, 16], predicate = ["i0 < 4", "i1 < 4"]} : f32[16]
  %d = acme.op %x {domain = [8, 16], predicate = ["i0 < 4"]} : f32[16]
  %l4 = affine_load %x {domain = [16, 16], predicate = ["i0 < 4"]} : f64[16,16]
  return %l1, %l2, %a, %l3, %b, %c, %d, %l4
}
