// A total beyond 2^128 - 1 is an error naming the instruction, never a
// wrapped number. Each acme.op adds (2^63 - 1) x (2^63 - 1)
// = 85070591730234615847396907784232501249 = 2^126 - 2^64 + 1.
// After four: 4 x (2^126 - 2^64 + 1) = 2^128 - 2^66 + 4
//   = 340282366920938463389587631136930004996 <= 2^128 - 1.
// The fifth, %e5 (line 12), would pass 2^128 - 1: the pass fails, exit 4.
func @f(%x: f32[4]) {
  %e1 = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %e2 = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %e3 = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %e4 = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  %e5 = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  return %e1, %e2, %e3, %e4, %e5
}
