// One instruction longer than 2^64 - 1 ns: (2^63 - 1) instances of
// 2^63 - 1 flops at 1 FLOP per ns (too_long.args). The error names the
// instruction; exit status 4.
func @f(%x: f32[4]) {
  %a = acme.op %x {num_dynamic_instances = 9223372036854775807, flops = 9223372036854775807} : f32[4]
  return %a
}
