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
